"""The .mat text and the ``kiosk export`` command: layout, scores, names, turns, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.rules import BLACK, WHITE, Position
from kiosk.store import Store, StoreError
from kiosk.store.export import (
    Cell,
    ExportError,
    changed_steps,
    layout_game,
    match_to_mat,
    position_before,
)
from tests.store.games import record_random_game, record_wrong_move_let_stand

START = Position.standard().position_id()


def test_layout_puts_white_left_black_right_and_leaves_gaps() -> None:
    cells = [
        Cell(BLACK, "52: 13/8 13/11"),
        Cell(WHITE, "31: 6/3 3/2"),
        Cell(BLACK, " Doubles => 2"),
        Cell(WHITE, " Takes"),
        Cell(BLACK, "41: 6/2 2/1*"),
        Cell(BLACK, "66: 24/18 24/18 13/7 13/7"),  # white has nothing between: a gap
        Cell(WHITE, "21:"),
    ]
    assert layout_game(cells) == [
        "  1)                             52: 13/8 13/11",
        "  2) 31: 6/3 3/2                  Doubles => 2",
        "  3)  Takes                      41: 6/2 2/1*",
        "  4)                             66: 24/18 24/18 13/7 13/7",
        "  5) 21:",
    ]


def test_a_wrong_move_is_written_as_the_men_that_moved() -> None:
    before = Position.standard()
    after = Position.from_points(
        {13: 4, 9: 1, 8: 3, 6: 4, 5: 1, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5}, turn=WHITE
    )
    assert [str(s) for s in changed_steps(before, after)] == ["13/9", "6/5"]
    hit = Position.from_points({24: 1, 20: 1, 3: -1, 1: -14})
    bar = Position.from_points({24: 1, 3: 1, 1: -14}, bar=(0, 1))
    assert [(str(s), s.hit) for s in changed_steps(hit, bar)] == [("20/3*", True)]


def _game(store: Store, seed: int, **kwargs) -> int:
    return record_random_game(store, seed=seed, **kwargs)[0]


def test_a_match_keeps_its_length_names_and_running_score(store: Store) -> None:
    match = store.new_match(15, "modern")
    ids = [
        store.start_game("modern", START, "white", players=("Ann Lee", "Bob: 2nd"), match_id=match)
    ]
    store.record(ids[0], {"event": "opening", "starter": "white", "dice": [3, 1]})
    store.record(ids[0], {"event": "cube", "action": "double", "player": "white"})
    store.record(ids[0], {"event": "cube", "action": "pass", "player": "black"})
    ids.append(_game(store, 4, match_id=match))
    ids.append(_game(store, 5, match_id=match))
    text = match_to_mat(store, match_id=match)
    assert "\n 15 point match\n" in text
    assert '; [Player 1 "Ann_Lee"]' in text and '; [Player 2 "Bob-_2nd"]' in text
    heads = [line for line in text.splitlines() if " : " in line]
    scores = [(0, 0)]
    for game_id in ids:
        game = store.game(game_id)
        w, b = scores[-1]
        scores.append((w + game.points, b) if game.winner == "white" else (w, b + game.points))
    assert heads == [f" {f'Ann_Lee : {w}':<31}Bob-_2nd : {b}" for w, b in scores[: len(ids)]]
    assert "  1)  Doubles => 2                Drops\n      Wins 1 point\n" in text
    assert text.count(" Game ") == 3
    # the second game alone keeps the match's length and the score before it
    alone = match_to_mat(store, [ids[1]])
    assert "\n 15 point match\n" in alone and " Game 1\n white : 1 " in alone


def test_games_outside_a_match_are_a_session_without_length(store: Store) -> None:
    ids = [_game(store, 6), _game(store, 7)]
    text = match_to_mat(store, ids)
    assert "\n 0 point match\n" in text
    second = store.game(ids[0])
    w, b = (second.points, 0) if second.winner == "white" else (0, second.points)
    assert f" Game 2\n {f'white : {w}':<31}black : {b}\n" in text
    winner_lines = [line for line in text.splitlines() if "Wins" in line]
    for game_id, line in zip(ids, winner_lines, strict=True):
        game = store.game(game_id)
        pad = 6 if game.winner == "white" else 34
        s = "s" if game.points > 1 else ""
        assert line == " " * pad + f"Wins {game.points} point{s}"


def test_what_a_mat_file_cannot_hold_is_refused_clearly(store: Store) -> None:
    lesson = Position.from_points({6: 2, 5: 2, 19: -2}).position_id()
    game = store.start_game("modern", lesson, "white")
    with pytest.raises(ExportError, match="set-up position"):
        match_to_mat(store, [game])
    with pytest.raises(StoreError, match="no game 77"):
        match_to_mat(store, [77])
    with pytest.raises(StoreError, match="no match 5"):
        match_to_mat(store, match_id=5)
    with pytest.raises(ExportError, match="list of game numbers"):
        match_to_mat(store, 3)
    with pytest.raises(ExportError, match="no games"):
        match_to_mat(store, [])
    empty = store.new_match(3, "modern")
    with pytest.raises(ExportError, match="no games yet"):
        match_to_mat(store, match_id=empty)


def test_position_before_any_turn(store: Store) -> None:
    game_id, played = record_random_game(store, seed=8, stop_after=6)
    assert position_before(store, game_id, 1) == START
    for number, turn in enumerate(played.turns, start=1):
        assert position_before(store, game_id, number) == turn.before.position_id()
    assert position_before(store, game_id, 7) == played.position.position_id()
    with pytest.raises(ExportError, match="has 6 turns: ask for a turn from 1 to 7"):
        position_before(store, game_id, 8)
    with pytest.raises(ExportError):
        position_before(store, game_id, 0)


# -- the command ------------------------------------------------------------------------------


def _export(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["export", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_kiosk_export_writes_the_game_or_the_match(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(db_path) as store:
        match = store.new_match(9, "modern")
        first = _game(store, 1, match_id=match)
        second = _game(store, 2, match_id=match)
        expected_game = match_to_mat(store, [first])
        expected_match = match_to_mat(store, match_id=match)
        expected_last = match_to_mat(store, [second])
    status, out, err = _export(capsys, "--db", str(db_path), "--game", str(first))
    assert (status, out, err) == (0, expected_game, "")
    status, out, _ = _export(capsys, "--db", str(db_path), "--match", str(match))
    assert (status, out) == (0, expected_match)
    status, out, _ = _export(capsys, "--db", str(db_path))  # the last game by default
    assert (status, out) == (0, expected_last)
    target = tmp_path / "out.mat"
    status, out, err = _export(capsys, "--db", str(db_path), "--last", "--out", str(target))
    assert status == 0 and out == "" and str(target) in err
    assert target.read_text() == expected_last


def test_kiosk_export_prints_a_turns_position_id(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(db_path) as store:
        game, played = record_random_game(store, seed=3)
    status, out, _ = _export(capsys, "--db", str(db_path), "--game", str(game), "--position", "3")
    assert (status, out) == (0, played.turns[2].before.position_id() + "\n")
    status, out, err = _export(capsys, "--db", str(db_path), "--position", "999")
    assert status == 2 and out == "" and "ask for a turn from 1 to" in err


def test_kiosk_export_lists_the_games(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db_path) as store:
        finished = _game(store, 1)
        unfinished = _game(store, 2, stop_after=3)
        winner = store.game(finished).winner
    status, out, _ = _export(capsys, "--db", str(db_path), "--list")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2
    assert lines[0].startswith(f"game {finished} ") and f"{winner} won" in lines[0]
    assert lines[1].startswith(f"game {unfinished} ") and lines[1].endswith("unfinished")


def test_kiosk_export_uses_the_environment_for_the_default_file(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(db_path) as store:
        game = _game(store, 1)
        expected = match_to_mat(store, [game])
    monkeypatch.setenv("BACKGAMMON_TABLE_DB", str(db_path))
    assert _export(capsys)[:2] == (0, expected)
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    helptext = capsys.readouterr().out
    assert "BACKGAMMON_TABLE_DB" in helptext and "table.sqlite3" in helptext


def test_kiosk_export_notes_a_wrong_move_let_stand(
    store: Store, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = record_wrong_move_let_stand(store)
    status, out, err = _export(capsys, "--db", str(db_path), "--game", str(game))
    assert status == 0 and "  1) 31: 13/9 6/5" in out
    assert "turn 1 was a wrong move let stand" in err


def test_kiosk_export_bad_input_says_why_and_exits_2(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _export(capsys, "--db", str(tmp_path / "none.sqlite3"))
    assert status == 2 and out == "" and "there is no record file" in err
    with Store(db_path) as store:
        game = _game(store, 1)
    status, _, err = _export(capsys, "--db", str(db_path), "--game", "42")
    assert status == 2 and "there is no game 42" in err
    status, _, err = _export(capsys, "--db", str(db_path), "--match", "3")
    assert status == 2 and "there is no match 3" in err
    status, _, err = _export(capsys, "--db", str(db_path), "--match", "3", "--position", "1")
    assert status == 2 and "--position needs a game" in err
    status, _, err = _export(
        capsys, "--db", str(db_path), "--game", str(game), "--out", str(tmp_path / "no/such/x")
    )
    assert status == 2 and "cannot write" in err
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"not a database " * 300)
    status, _, err = _export(capsys, "--db", str(broken))
    assert status == 2 and "cannot be read as the table's records" in err
    empty = tmp_path / "empty.sqlite3"
    Store(empty).close()
    status, _, err = _export(capsys, "--db", str(empty))
    assert status == 2 and "holds no games yet" in err
