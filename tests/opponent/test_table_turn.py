"""The table's own turn through the whole stack (issue 13's scenario contract): the table
shows its play (``opponent-play``), the script moves its men, the referee confirms them
in any order and flags anything else with ``not-the-tables-move``."""

from __future__ import annotations

import io
import random

import pytest

from kiosk.rig.scenario import ScenarioRunner, run_script
from kiosk.rules import BLACK, WHITE, Phase, Position
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.opponent import Opponent
from tests.referee.hands import kinds, play_actions

OPENING = ["turn white", "setup standard", "opponent black beginner", "dice 3 1",
           "lift 8", "place 5", "lift 6", "place 5", "wait 400", "press done",
           "dice 6 5", "wait 400"]  # fmt: skip


BLACK_TO_PLAY = Position.standard(WHITE).parse_play(3, 1, "8/5 6/5").result


def _opponents(level: str) -> Opponent:
    return Opponent(level, evaluator=BuiltinEvaluator(), seed=3)


def _run(lines: list[str], sensing: str = "polarity") -> list[dict]:
    events: list[dict] = []
    with ScenarioRunner(events.append, sensing=sensing, opponents=_opponents) as runner:
        runner.run(lines)
    return events


@pytest.mark.parametrize("sensing", ["polarity", "occupancy"])
def test_the_table_shows_its_play_and_its_turn_ends_when_the_men_stand_so(sensing) -> None:
    events = _run(OPENING, sensing)
    (shown,) = kinds(events, "opponent-play")
    assert shown["player"] == "black" and shown["dice"] == [6, 5]
    play = BLACK_TO_PLAY.parse_play(6, 5, shown["move"])
    assert shown["position"] == play.result.position_id()
    # its men moved in the other order (one man: by way of the other die), no Done
    # pressed: the turn ends by itself
    first, second = play.steps
    if second.src == first.dst:
        via = first.src - second.die
        hands = [f"lift {first.src}", f"place {via}", f"lift {via}", f"place {second.dst}"]
    else:
        hands = play_actions(play, BLACK, order=[1, 0])
    events = _run([*OPENING, *hands, "wait 400"], sensing)
    assert kinds(events, "illegal") == []
    assert kinds(events, "play")[-1]["move"] == shown["move"]


def test_a_wrong_man_moved_is_flagged_and_put_right() -> None:
    events = _run(OPENING)
    move = kinds(events, "opponent-play")[0]["move"]
    play = BLACK_TO_PLAY.parse_play(6, 5, move)
    first = play.steps[0]
    wrong = ["lift 6", "place 1", "wait 400", "lift 1", "place 6", "wait 400"]
    events = _run([*OPENING, *wrong, *play_actions(play, BLACK), "wait 400"])
    (alarm,) = kinds(events, "illegal")
    assert alarm["reason"] == "not-the-tables-move" and move in alarm["message"]
    assert kinds(events, "play")[-1]["move"] == move
    assert first.src != 6  # the man moved was not one of the table's


def test_a_script_without_an_opponent_to_play_is_told_so() -> None:
    out = io.StringIO()
    events = run_script(["opponent black"], out)
    assert kinds(events, "error") and "no opponent" in kinds(events, "error")[0]["message"]


def test_a_whole_game_against_the_table() -> None:
    rng = random.Random(5)
    events: list[dict] = []
    with ScenarioRunner(events.append, opponents=_opponents) as runner:
        runner.run(["turn white", "setup standard", "opponent black intermediate"])
        for _ in range(300):
            game = runner.game
            if game.phase == Phase.OVER:
                break
            if game.phase == Phase.DOUBLE_OFFERED:  # the table doubles: the visitor takes
                runner.run(["take"])
            start = len(events)
            runner.run([f"dice {rng.randint(1, 6)} {rng.randint(1, 6)}", "wait 400"])
            if game.phase != Phase.PLAY:
                continue  # no legal play: the turn passed by itself
            mover = game.turn
            shown = kinds(events[start:], "opponent-play")
            if mover == BLACK:
                (table,) = shown
                play = game.position.parse_play(*game.dice, table["move"])
                runner.run([*play_actions(play, mover), "wait 400"])
            else:
                assert shown == []
                play = rng.choice(game.legal_plays())
                runner.run([*play_actions(play, mover), "wait 400", "press done"])
            assert kinds(events[start:], "play")[-1]["move"] == str(play)
    assert runner.game.phase == Phase.OVER
    assert kinds(events, "illegal") == [] and kinds(events, "game-over")
    table_plays = kinds(events, "opponent-play")
    black_plays = [e for e in kinds(events, "play") if e["player"] == "black" and e["move"]]
    assert [e["move"] for e in table_plays if e["move"]] == [e["move"] for e in black_plays]


# White (the visitor) to play 2-1 in a race that 5/4 5/3 leaves the table far ahead in.
TABLE_DOUBLES = ["turn white", "setup 7v0DAAD27gcAAA", "opponent black intermediate",
                 "dice 2 1", "lift 5", "place 4", "lift 5", "place 3", "wait 400",
                 "press done", "wait 100"]  # fmt: skip


def test_the_tables_double_taken_then_its_turn() -> None:
    events = _run([*TABLE_DOUBLES, "take", "dice 3 1", "wait 400"])
    assert [(c["action"], c["player"]) for c in kinds(events, "cube")] == [
        ("double", "black"),
        ("take", "white"),
    ]
    assert kinds(events, "cube")[-1]["cube"] == [2, "white"]
    assert kinds(events, "opponent-play")[-1]["dice"] == [3, 1]


def test_the_tables_double_passed_ends_the_game() -> None:
    events = _run([*TABLE_DOUBLES, "pass"])
    (over,) = kinds(events, "game-over")
    assert over == {"event": "game-over", "winner": "black", "result": "single", "points": 1,
                    "passed": True}  # fmt: skip


def test_the_visitors_double_is_taken_or_passed_by_the_table() -> None:
    # far behind the table takes... far ahead it passes (the built-in evaluator's view)
    taken = _run(["turn white", "setup 7v0DAAD27gcAAA", "opponent black", "double"])
    assert [c["action"] for c in kinds(taken, "cube")] == ["double", "take"]
    passed = _run(["turn white", "setup c3NrAADvvgMAAA", "opponent black", "double"])
    assert [c["action"] for c in kinds(passed, "cube")] == ["double", "pass"]
    assert kinds(passed, "game-over")[0]["winner"] == "white"


def test_no_cube_under_a_profile_without_doubling() -> None:
    events = _run(["profile cady", *TABLE_DOUBLES])
    assert kinds(events, "cube") == []
    refused = _run(["profile cady", "turn white", "setup 7v0DAAD27gcAAA", "opponent black",
                    "double"])  # fmt: skip
    assert "no double now" in kinds(refused, "error")[0]["message"]


@pytest.mark.parametrize("sensing", ["polarity", "occupancy"])
def test_a_restart_in_the_middle_of_the_tables_turn_shows_its_play_again(sensing) -> None:
    events = _run(OPENING)
    move = kinds(events, "opponent-play")[0]["move"]
    play = BLACK_TO_PLAY.parse_play(6, 5, move)
    first = play_actions(play, BLACK)[:2]  # one man of the table's play moved
    rest = play_actions(play, BLACK)[2:]
    events = _run([*OPENING, *first, "wait 400", "restart", *rest, "wait 400"], sensing)
    shown = kinds(events, "opponent-play")
    assert len(shown) == 2 and shown[0] == shown[1]  # the pending play, shown again
    restarted = [i for i, e in enumerate(events) if e["event"] == "opponent-play"][1]
    assert any(e["event"] == "setup-ok" and e["restored"] for e in events[:restarted])
    assert kinds(events, "illegal") == []
    assert kinds(events, "play")[-1]["move"] == move
