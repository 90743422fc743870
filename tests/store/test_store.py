"""The record file: events, turns, results, matches, lessons, resuming, and bad input."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from kiosk.rules import BLACK, WHITE, Cube, CubeAction, Phase, Position, Result, get_profile
from kiosk.store import Store, StoreError, TurnRecord
from kiosk.store.export import match_to_mat
from tests.store.games import (
    WRONG_MOVE,
    record_book_game,
    record_random_game,
    record_wrong_move_let_stand,
)

START = Position.standard().position_id()


def _opened(store: Store) -> int:
    game = store.start_game("modern", START, "white", players=("Ann", "Bob"))
    store.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
    store.record(
        game,
        {
            "event": "play",
            "player": "white",
            "dice": [3, 1],
            "move": "8/5 6/5",
            "position": "sGfwATDgc/ABMA",
        },
    )
    return game


def test_a_new_file_is_made_in_wal_mode_with_full_sync(db_path: Path) -> None:
    with Store(db_path) as store:
        assert store.games() == []
    assert db_path.is_file()
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"games", "events", "turns", "matches", "lessons"} <= tables
    finally:
        raw.close()
    with Store(db_path) as store:  # reopening keeps the file as it is
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_every_event_is_kept_in_order_and_survives_reopening(db_path: Path) -> None:
    with Store(db_path) as store:
        game = _opened(store)
        store.record(game, {"event": "illegal", "reason": "blocked", "message": "Point 5 is held."})
        store.record(game, {"event": "legal", "player": "black"})
    with Store(db_path) as store:
        kinds = [e["event"] for e in store.events(game)]
        assert kinds == ["opening", "play", "illegal", "legal"]
        assert store.events(game)[2]["message"] == "Point 5 is held."
        times = [at for at, _ in store.timeline(game)]
        assert times == sorted(times) and all(t.endswith("+00:00") for t in times)


def test_turns_are_derived_from_play_events(store: Store) -> None:
    game = _opened(store)
    store.record(game, {"event": "dice", "player": "black", "dice": [6, 4]})
    after = Position.from_id("sGfwATDgc/ABMA", BLACK).parse_play(6, 4, "24/14").result
    store.record(
        game,
        {
            "event": "play",
            "player": "black",
            "dice": [6, 4],
            "move": "24/14",
            "position": after.position_id(),
        },
    )
    assert store.turns(game) == [
        TurnRecord(1, "white", (3, 1), "8/5 6/5", START, "sGfwATDgc/ABMA"),
        TurnRecord(2, "black", (6, 4), "24/14", "sGfwATDgc/ABMA", after.position_id()),
    ]


def test_a_random_game_is_rebuilt_exactly(store: Store) -> None:
    game_id, played = record_random_game(store, seed=11, cube={3: "take"})
    restored = store.load_game(game_id)
    assert restored.phase == Phase.OVER
    assert restored.result == played.result
    assert restored.cube == played.cube == Cube(2, restored.cube.owner)
    assert [(t.colour, t.dice, t.play, t.before) for t in restored.turns] == [
        (t.colour, t.dice, t.play, t.before) for t in played.turns
    ]
    assert [str(t.play) for t in restored.turns] == [str(t.play) for t in played.turns]
    summary = store.game(game_id)
    winner, result, points = played.result
    assert (summary.winner, summary.result, summary.points) == (str(winner), result, points)
    turns = store.turns(game_id)
    assert [t.position_before for t in turns] == [
        t.before.position_id() for t in played.turns
    ]  # each with the mover on roll
    assert store.unfinished_game() is None


def test_the_game_in_progress_resumes_with_dice_thrown_and_not_played(store: Store) -> None:
    record_random_game(store, seed=1)
    game_id, played = record_random_game(store, seed=5, stop_after=9)
    assert store.unfinished_game() == game_id
    restored = store.load_game(game_id)
    assert restored.phase == Phase.PLAY
    assert restored.dice == played.dice and restored.turn == played.turn
    assert restored.position == played.position
    assert restored.legal_plays() == played.legal_plays()
    assert len(restored.turns) == len(played.turns) == 9


def test_a_resumed_game_waits_for_the_roll_after_a_play(store: Store) -> None:
    game = _opened(store)
    restored = store.load_game(game)
    assert (restored.phase, restored.turn, restored.dice) == (Phase.ROLL, BLACK, None)
    assert restored.position.position_id() == "sGfwATDgc/ABMA"
    assert restored.profile == get_profile("modern")


def test_a_fresh_game_resumes_at_the_opening_cast(store: Store) -> None:
    game = store.start_game("cady", START, "white")
    restored = store.load_game(game)
    assert restored.phase == Phase.OPENING
    assert restored.profile.name == "cady"


def test_the_opening_option_and_a_fresh_throw_are_followed(store: Store) -> None:
    game_id, played = record_book_game(store, _book(0))
    restored = store.load_game(game_id)
    assert restored.result == played.result
    assert restored.profile.name == "crawley"
    assert [str(t.play) for t in restored.turns] == [str(t.play) for t in played.turns]


def _book(index: int):
    from kiosk.books.crawley_games import GAMES

    return GAMES[index]


def test_the_cube_is_restored_offered_taken_and_passed(store: Store) -> None:
    game = _opened(store)
    store.record(game, {"event": "cube", "action": "double", "player": "black"})
    restored = store.load_game(game)
    assert restored.phase == Phase.DOUBLE_OFFERED and restored.turn == BLACK
    assert restored.legal_cube_actions() == [CubeAction.TAKE, CubeAction.PASS]
    store.record(game, {"event": "cube", "action": "take", "player": "white"})
    restored = store.load_game(game)
    assert restored.cube == Cube(2, WHITE) and restored.phase == Phase.ROLL
    assert store.unfinished_game() == game

    other = _opened(store)
    store.record(other, {"event": "cube", "action": "double", "player": "black"})
    store.record(other, {"event": "cube", "action": "pass", "player": "white"})
    assert store.load_game(other).result == (BLACK, Result.SINGLE, 1)
    summary = store.game(other)
    assert (summary.winner, summary.result, summary.points) == ("black", "single", 1)
    assert store.unfinished_game() == game


def test_a_wrong_move_let_stand_is_restored_as_the_table_held_it(store: Store) -> None:
    game = record_wrong_move_let_stand(store)
    restored = store.load_game(game)
    assert restored.position == WRONG_MOVE and restored.phase == Phase.ROLL
    assert store.turns(game)[0].accepted


def test_a_recorded_position_wins_over_a_move_that_disagrees(store: Store) -> None:
    game = store.start_game("modern", START, "white")
    store.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
    truth = Position.standard().parse_play(3, 1, "24/20").result
    store.record(
        game,
        {
            "event": "play",
            "player": "white",
            "dice": [3, 1],
            "move": "8/5 6/5",
            "position": truth.position_id(),
        },
    )
    assert store.load_game(game).position == truth


def test_abandoned_games_are_not_resumed(store: Store) -> None:
    game = _opened(store)
    store.abandon_game(game)
    assert store.unfinished_game() is None
    assert store.game(game).finished is not None and store.game(game).winner is None


def test_matches_number_their_games_and_keep_the_score(store: Store) -> None:
    match = store.new_match(5, "modern")
    first, played = record_random_game(store, seed=2, match_id=match)
    second, _ = record_random_game(store, seed=3, match_id=match, cube={2: "pass"})
    loose, _ = record_random_game(store, seed=4)
    games = store.games(match)
    assert [g.id for g in games] == [first, second]
    assert [g.number for g in games] == [1, 2]
    assert all(g.match_length == 5 for g in games)
    assert [g.id for g in store.games()] == [first, second, loose]
    score = {"white": 0, "black": 0}
    for g in games:
        score[g.winner] += g.points
    summary = store.match(match)
    assert summary.length == 5 and summary.score == (score["white"], score["black"])
    assert store.game(second).points == 1  # a passed double at 1


def test_lesson_progress_is_kept_per_player(store: Store, db_path: Path) -> None:
    store.save_lesson_step("left", "crawley-openings", 2)
    store.save_lesson_step("left", "crawley-openings", 3)
    store.save_lesson_step("left", "cady-laws", 7, done=True)
    store.save_lesson_step("right", "crawley-openings", 1)
    store.close()
    with Store(db_path) as again:
        assert again.lesson_progress("left") == {
            "cady-laws": (7, True),
            "crawley-openings": (3, False),
        }
        assert again.lesson_progress("right") == {"crawley-openings": (1, False)}
        assert again.lesson_progress("nobody") == {}


def test_bad_events_are_refused_and_nothing_is_written(store: Store) -> None:
    game = _opened(store)
    bad = [
        {"no": "name"},
        {"event": "play", "player": "green", "dice": [3, 1], "move": "", "position": START},
        {"event": "play", "player": "white", "dice": [7, 1], "move": "", "position": START},
        {"event": "play", "player": "white", "dice": [3, 1], "move": "", "position": "nonsense"},
    ]
    for event in bad:
        with pytest.raises(StoreError):
            store.record(game, event)
    with pytest.raises(StoreError, match="no game 999"):
        store.record(999, {"event": "dice", "player": "white", "dice": [1, 2]})
    with pytest.raises(StoreError, match="no game 999"):
        store.load_game(999)
    with pytest.raises(StoreError, match="unknown rule profile"):
        store.start_game("backgammon-2000", START, "white")
    with pytest.raises(StoreError, match="Position ID"):
        store.start_game("modern", "4HPw", "white")
    with pytest.raises(StoreError, match="no match 42"):
        store.start_game("modern", START, "white", match_id=42)
    with pytest.raises(StoreError):
        store.save_lesson_step("left", "x", -1)
    assert len(store.events(game)) == 2 and len(store.turns(game)) == 1
    assert [g.id for g in store.games()] == [game]


def test_unusual_values_in_events_are_written_as_text(store: Store) -> None:
    game = _opened(store)
    store.record(game, {"event": "coach", "colour": WHITE, "path": Path("/x"), "dice": (1, 2)})
    assert store.events(game)[-1] == {"event": "coach", "colour": 0, "path": "/x", "dice": [1, 2]}


@pytest.mark.parametrize(
    "content, words",
    [
        (b"this is not a database at all " * 200, "cannot be read"),
        (b"SQLite format 3\x00" + b"\xff" * 4000, "cannot be read"),
    ],
)
def test_a_corrupt_file_gives_a_clear_error(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=words) as caught:
        Store(path)
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert path.read_bytes() == content  # left as it was, for whoever looks at it


def test_a_damaged_page_is_found_at_open(db_path: Path) -> None:
    with Store(db_path) as store:
        for seed in range(3):
            record_random_game(store, seed=seed)
    raw = sqlite3.connect(db_path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    data = bytearray(db_path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[3 * page : 4 * page] = b"\x07" * page  # scribble over one page of the tables
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreError):
        Store(db_path)


def test_other_sqlite_files_and_newer_records_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE photos (name TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="not the table's records"):
        Store(other)
    newer = tmp_path / "newer.sqlite3"
    Store(newer).close()
    raw = sqlite3.connect(newer)
    raw.execute("PRAGMA user_version = 99")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="newer version"):
        Store(newer)
    with pytest.raises(StoreError, match="folder"):
        Store(tmp_path)


def test_events_may_come_from_several_threads(store: Store) -> None:
    game = _opened(store)

    def talk(name: str) -> None:
        for i in range(25):
            store.record(game, {"event": "message", "from": name, "n": i})

    threads = [threading.Thread(target=talk, args=(f"t{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    messages = [e for e in store.events(game) if e["event"] == "message"]
    assert len(messages) == 100
    for name in ("t0", "t1", "t2", "t3"):
        assert [e["n"] for e in messages if e["from"] == name] == list(range(25))


def test_a_second_reader_sees_each_event_once_it_is_recorded(db_path: Path) -> None:
    with Store(db_path) as writer, Store(db_path) as reader:
        game = _opened(writer)
        assert len(reader.events(game)) == 2
        writer.record(game, {"event": "dice", "player": "black", "dice": [2, 2]})
        assert reader.load_game(game).dice == (2, 2)


def test_a_closed_store_says_so(db_path: Path) -> None:
    store = Store(db_path)
    game = _opened(store)
    store.close()
    with pytest.raises(StoreError, match="cannot write"):
        store.record(game, {"event": "legal", "player": "black"})
    with pytest.raises(StoreError, match="cannot read"):
        store.games()
    with Store(db_path) as again:
        assert len(again.events(game)) == 2


def test_a_play_taken_back_is_no_longer_a_turn(db_path: Path) -> None:
    with Store(db_path) as store:
        game = _opened(store)
        store.record(
            game,
            {
                "event": "take-back",
                "player": "white",
                "dice": [3, 1],
                "move": "8/5 6/5",
                "number": 1,
            },
        )
        assert store.turns(game) == []
        restored = store.load_game(game)
        assert (restored.position, restored.dice, restored.phase) == (
            Position.standard(),
            (3, 1),
            Phase.PLAY,
        )
        # the same player plays the same dice again
        store.record(
            game,
            {
                "event": "play",
                "player": "white",
                "dice": [3, 1],
                "move": "24/23 13/10",
                "position": Position.standard()
                .parse_play(3, 1, "24/23 13/10")
                .result.position_id(),
            },
        )
        [turn] = store.turns(game)
        assert (turn.number, turn.move, turn.position_before) == (1, "24/23 13/10", START)
        [line] = [t for t in match_to_mat(store, [game]).splitlines() if "1) 31:" in t]
        assert "24/23" in line and "13/10" in line and "8/5" not in line


def test_a_take_back_with_nothing_to_take_back_is_refused(db_path: Path) -> None:
    with Store(db_path) as store:
        game = store.start_game("modern", START, "white")
        with pytest.raises(StoreError, match="no play to take back"):
            store.record(game, {"event": "take-back", "player": "white"})
        assert store.events(game) == []
