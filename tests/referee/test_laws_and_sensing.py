"""Laws mode, what the switches cannot see, setting up, and Crawley's games through the table."""

import pytest

from kiosk.books.crawley_games import FIRST_GAME, SECOND_GAME
from kiosk.rules import BLACK, WHITE, Position
from tests.referee.hands import kinds, play_actions, run


def test_touch_move_in_laws_mode():
    events = run(
        [
            "mode laws",
            "setup standard",
            "dice 3 1",
            "lift 13",
            "wait 400",
            "place 13",
            "wait 400",  # lifted the 13 and put it back
            "lift 8",
            "place 5",
            "lift 6",
            "place 5",
            "wait 400",  # and played other men
            "lift 5",
            "place 6",
            "lift 5",
            "place 8",
            "wait 400",  # put right: play the 13
            "lift 13",
            "place 10",
            "lift 10",
            "place 9",
            "press done",
        ]
    )
    reasons = [e["reason"] for e in kinds(events, "illegal")]
    assert reasons[0] == "touch-move"
    assert [p["move"] for p in kinds(events, "play")] == ["13/9"]


def test_no_touch_move_in_teaching_mode():
    events = run(
        [
            "setup standard",
            "dice 3 1",
            "lift 13",
            "wait 400",
            "place 13",
            "wait 400",
            "lift 8",
            "place 5",
            "lift 6",
            "place 5",
            "press done",
        ]
    )
    assert kinds(events, "illegal") == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_wrong_move_stands_when_accepted_in_laws_mode():
    events = run(
        [
            "mode laws",
            "setup standard",
            "dice 3 1",
            "lift 13",
            "place 11",
            "lift 6",
            "place 5",
            "wait 400",
            "press done",
            "accept",
        ]
    )
    assert kinds(events, "illegal")[0]["reason"] == "wrong-distance"
    [wrong] = kinds(events, "wrong-move")
    assert wrong["player"] == "white"
    [played] = kinds(events, "play")
    assert played["accepted"] is True
    after = Position.from_id(played["position"], BLACK)
    assert after.count(WHITE, 11) == 1 and after.count(WHITE, 13) == 4 and after.turn == BLACK


def test_wrong_move_in_teaching_mode_must_be_put_right():
    events = run(
        ["setup standard", "dice 3 1", "lift 13", "place 11", "wait 400", "press done", "accept"]
    )
    assert kinds(events, "play") == [] and kinds(events, "wrong-move") == []


CAPPED = Position.from_points({1: 7, 2: 7, 5: 1, 20: -5})  # 7 men on 6-slot points


def test_capped_counts_ask_the_player_to_choose():
    plays = sorted(str(p) for p in CAPPED.legal_plays(4, 3))
    assert {"5/1 2/off", "5/off"} <= set(plays)
    events = run(
        [
            f"setup {CAPPED.position_id()}",
            "dice 4 3",
            "lift 5",
            "place 1",
            "lift 2",
            "place off",
            "wait 400",
            "press done",
            "choose 1",
        ]
    )
    [choose] = kinds(events, "choose")
    assert sorted(choose["options"]) == ["5/1 2/off", "5/off"]
    assert kinds(events, "play")[0]["move"] == choose["options"][0]


def test_capped_counts_resolved_by_what_was_seen():
    # 8 men on the 2 point, 6 on the ace: 2/1 cannot be seen. With 5-1, "5/off 2/1" and
    # "5/4/off" look the same at the end, but a man seen stopping on the 4 settles it.
    position = Position.from_points({1: 6, 2: 8, 5: 1, 22: -5})
    ambiguous = run(
        [
            f"setup {position.position_id()}",
            "dice 5 1",
            "lift 5",
            "place off",
            "wait 400",
            "press done",
        ]
    )
    assert sorted(kinds(ambiguous, "choose")[0]["options"]) == ["5/off", "5/off 2/1"]
    seen = run(
        [
            f"setup {position.position_id()}",
            "dice 5 1",
            "lift 5",
            "place 4",
            "wait 400",
            "lift 4",
            "place off",
            "press done",
        ]
    )
    assert kinds(seen, "choose") == []
    assert [p["move"] for p in kinds(seen, "play")] == ["5/off"]


def test_setting_up_an_empty_board_is_guided_point_by_point():
    lines = ["setup empty"]
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        # LOC counts from white (on roll): black's own point n is white's 25 - n
        lines += [f"place {point} white"] * count + [f"place {25 - point} black"] * count
    lines += ["place 12 white", "wait 400", "lift 12 white", "wait 400"]
    events = run(lines)
    guidance = kinds(events, "setup")
    assert guidance and guidance[0]["message"].startswith("Put")
    assert all(g["law"] for g in guidance)
    assert kinds(events, "setup-ok") == [{"event": "setup-ok", "restored": False}]


@pytest.mark.parametrize("game", [FIRST_GAME, SECOND_GAME], ids=["first", "second"])
def test_crawleys_games_played_through_the_table(game):
    white_die, black_die = game.opening
    lines = ["profile crawley", "setup standard", f"opening {white_die} {black_die}"]
    position = Position.standard()
    first = True
    for turn in game.turns:
        colour = WHITE if turn.player == "F" else BLACK
        position = position.with_turn(colour)
        d1, d2 = turn.dice
        play = position.parse_play(d1, d2, turn.move, profile="crawley")
        if not (first and game.opening_played):
            lines.append(f"dice {d1} {d2}")
        first = False
        if play.steps:
            lines += [*play_actions(play, colour), "press done"]
        position = play.result
    events = run(lines)
    plays = kinds(events, "play")
    assert len(plays) == len(game.turns)
    assert kinds(events, "illegal") == []
    [over] = kinds(events, "game-over")
    assert over["winner"] == ("white" if game.winner == "F" else "black")
    assert over["result"] == game.result


def test_men_borne_off_with_a_man_up_go_to_the_bar_in_laws_mode():
    position = Position.from_points({6: 1, 5: 2, 19: -3}, bar=(1, 0))
    events = run(
        [
            "mode laws",
            f"setup {position.position_id()}",
            "dice 6 5",
            "lift 5",
            "place off",
            "wait 400",
            "press done",
            "wait 400",
            "lift off white",
            "place bar white",
            "wait 400",
        ]
    )
    assert kinds(events, "illegal")[0]["reason"] == "bar-first"
    [penalty] = kinds(events, "penalty")
    assert "bar" in penalty["message"] and "law 12" in penalty["law"]
    [played] = kinds(events, "play")
    after = Position.from_id(played["position"], BLACK)
    assert after.bar(WHITE) == 2 and after.off[WHITE] == 11
    assert {"event": "setup-ok", "restored": True} in events


def test_bearing_before_all_home_is_a_penalty_only_under_foster():
    position = Position.from_points({8: 1, 5: 2, 19: -3})
    lines = [
        f"setup {position.position_id()}",
        "dice 6 5",
        "lift 5",
        "place off",
        "wait 400",
        "press done",
    ]
    foster = run(["profile foster", "mode laws", *lines])
    assert len(kinds(foster, "penalty")) == 1
    cady = run(["profile cady", "mode laws", *lines])
    assert kinds(cady, "penalty") == [] and len(kinds(cady, "wrong-move")) == 1
