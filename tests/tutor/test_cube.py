"""The coach on the cube: Janowski's model as GNU Backgammon applies it in money and match
play (the redouble counted), the look-ahead, the 25% take point, Crawford, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kiosk.rules import BLACK, WHITE, Position
from kiosk.rules.met import match_equity
from kiosk.tutor import cubeful
from kiosk.tutor.cube import CubeCoach, CubeState, cube_coach, cubeful_money, taker_needs, values
from kiosk.tutor.evaluators.gnubg_nn import load_module

NO_GAMMONS = (0.5, 0.0, 0.0, 0.0, 0.0)


def fixed(chances):
    return CubeCoach(lambda position: chances, "fixed")


def test_take_point_is_25_percent_dead_and_20_live_without_gammons() -> None:
    assert taker_needs(1.0, 1.0, 0.0) == pytest.approx(0.25)
    assert taker_needs(1.0, 1.0, 1.0) == pytest.approx(0.20)
    # Gammons for the doubler raise what the taker needs.
    assert taker_needs(1.5, 1.0, 0.68) > taker_needs(1.0, 1.0, 0.68)


def test_dead_cube_equity_is_the_cubeless_equity() -> None:
    p, w, l_ = values((0.6, 0.2, 0.0, 0.1, 0.0))
    assert cubeful_money(p, w, l_, "middle", 0.0) == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1)


@pytest.mark.parametrize("own", ["centre", "me"])
def test_the_live_money_cube_keeps_rising_past_the_cash_point(own) -> None:
    """GNU Backgammon's money formula: past the cash point a live cube is worth more than a
    cashed point, rising to the average win at certainty (the old coach capped it at +1,
    which is the Jacoby rule's formula, and so said double where the answer is too good)."""
    w, l_ = 1.5, 1.2
    cash = (l_ + 1.0) / (w + l_ + 0.5)
    cube = cubeful.Cube(owner=own)
    assert cubeful.money_live(cash, w, l_, cube) == pytest.approx(1.0)
    assert cubeful.money_live(1.0, w, l_, cube) == pytest.approx(w)
    assert 1.0 < cubeful.money_live((cash + 1) / 2, w, l_, cube) < w
    jacoby = cubeful.Cube(jacoby=True)
    assert cubeful.money_live((cash + 1) / 2, w, l_, jacoby) == pytest.approx(1.0)


def test_the_taker_redoubles_at_match_scores() -> None:
    """At 3-away, 3-away the cube the taker gets is live: he may redouble, so his take point
    is lower than with a dead cube (the old coach counted it as dead, and passed takes)."""
    chances = (0.7, 0.0, 0.0, 0.0, 0.0)
    cube = cubeful.Cube(1, "centre", 3, 3)
    mine, his = cubeful.cash_points(chances, cube)
    dead_won = cube.mwc(won=2)
    dead_lost = cube.mwc(lost=2)
    dead = (dead_lost - cube.mwc(won=1)) / (dead_lost - dead_won)  # the dead cube's cash point
    assert mine > dead  # the doubler needs more: the taker's redouble is worth something
    assert mine == pytest.approx(his)  # the score is level


@pytest.mark.parametrize(
    ("win", "action", "response"),
    [(0.5, "no-double", "take"), (0.74, "double", "take"), (0.86, "double", "pass")],
)
def test_actions_follow_the_chances_in_a_race(win, action, response) -> None:
    race = Position.from_points({6: 3, 5: 3, 4: 3, 19: -3, 20: -3, 21: -3})
    decision = fixed((win, 0.0, 0.0, 0.0, 0.0)).decide(race)
    assert (decision.action, decision.response) == (action, response)
    assert decision.double_pass == 1.0


def test_too_good_with_many_gammons() -> None:
    decision = fixed((0.9, 0.7, 0.05, 0.01, 0.0)).decide(Position.standard())
    assert decision.action == "too-good" and decision.response == "pass"
    assert decision.no_double > decision.double_pass
    assert any(r["code"] == "too-good" for r in decision.reasons)


def test_the_loss_of_a_wrong_decision() -> None:
    coach = fixed((0.86, 0.0, 0.0, 0.0, 0.0))
    position = Position.from_points({6: 3, 5: 3, 4: 3, 19: -3, 20: -3, 21: -3})
    right = coach.decide(position, decision="pass")
    wrong = coach.decide(position, decision="take")
    assert right.equity_loss == 0.0
    assert wrong.equity_loss == pytest.approx(right.double_take - right.double_pass)
    held = coach.decide(position, decision="no-double")
    assert held.equity_loss == pytest.approx(1.0 - held.no_double)


def test_no_access_to_the_opponents_cube_and_crawford() -> None:
    coach = fixed((0.8, 0.0, 0.0, 0.0, 0.0))
    start = Position.standard(WHITE)
    assert coach.decide(start, CubeState(2, BLACK)).action == "no-double"
    crawford = coach.decide(start, CubeState(1, None, 7, (6, 3), crawford=True))
    assert crawford.action == "no-double"
    assert [r["code"] for r in crawford.reasons].count("crawford") == 1
    after = fixed(NO_GAMMONS).decide(start, CubeState(1, None, 7, (3, 6)))
    assert (after.action, after.response) == ("double", "take")


def test_a_match_score_is_judged_by_the_match_equity_table() -> None:
    """At 2-away, 2-away a double makes the game worth the match. Passing leaves the taker
    1-away's opponent in the Crawford game: Kazaross XG2 gives him 32.26%, so he takes with
    more than that share of the wins and passes with less."""
    start = Position.standard(WHITE)
    crawford_trailer = 1 - match_equity(1, 2)
    assert round(crawford_trailer, 4) == 0.3226
    for doubler_wins, response in ((0.66, "take"), (0.70, "pass")):
        decision = fixed((doubler_wins, 0, 0, 0, 0)).decide(start, CubeState(1, None, 5, (3, 3)))
        assert (decision.action, decision.response) == ("double", response)
        codes = {r["code"]: r for r in decision.reasons}
        assert "money" not in codes
        take = codes["take-point"]
        # The taker's chances: the game is the match if he takes; he is the Crawford
        # game's trailer if he passes.
        assert take["take"] == pytest.approx(1 - doubler_wins)
        assert take["pass"] == pytest.approx(crawford_trailer, abs=1e-4)
        assert ("he should take" in take["text"]) == (response == "take")
        table = codes["match-equity"]
        assert (table["away"], table["opponent_away"]) == (2, 2)
        assert table["double_take"] == pytest.approx(doubler_wins)  # the match on one game
        assert table["double_pass"] == pytest.approx(1 - crawford_trailer, abs=1e-4)
        playing_on = doubler_wins * (1 - crawford_trailer) + (1 - doubler_wins) * crawford_trailer
        assert table["no_double"] == pytest.approx(playing_on, abs=1e-4)
        assert decision.double_pass == pytest.approx(1.0)  # cube units, as in money play
    # a side 2-away with the cube at 2 has no reason to turn it: winning 2 wins the match
    dead = fixed((0.6, 0.1, 0, 0.1, 0)).decide(start, CubeState(2, WHITE, 5, (3, 2)))
    assert dead.action == "no-double"


def test_bad_cube_states_are_refused() -> None:
    with pytest.raises(ValueError, match="power of two"):
        CubeState(3)
    with pytest.raises(ValueError, match="does not fit"):
        CubeState(1, None, 5, (5, 0))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "coach-cube", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_cli_prints_the_decision_as_json() -> None:
    done = run("4HPwATDgc/ABMA", "--evaluator", "builtin", "--decision", "double")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["action"] == "no-double" and answer["response"] == "take"
    assert answer["equity_loss"] > 0 and answer["evaluator"] == "builtin"
    assert answer["plies"] == 1
    assert all(r["code"] and r["text"] for r in answer["reasons"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nonsense",), "14 characters"),
        (("4HPwATDgc/ABMA", "--cube", "3"), "power of two"),
        (("4HPwATDgc/ABMA", "--match", "5", "--score", "7", "0"), "does not fit"),
        (("4HPwATDgc/ABMA", "--score", "2", "1"), "needs --match"),
        (("4HPwATDgc/ABMA", "--crawford"), "needs --match"),
        (("4HPwATDgc/ABMA", "--owner", "foo"), "invalid choice: 'foo'"),
        (("4HPwATDgc/ABMA", "--cube", "two"), "invalid int value"),
        ((), "required: position_id"),
    ],
)
def test_cli_bad_input_is_one_clear_line(args, message) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in json.loads(done.stdout)["error"]
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("kiosk coach-cube: ")
    assert message in done.stderr


@pytest.mark.skipif(
    __import__("kiosk.tutor.evaluators.gnubg_external", fromlist=["x"]).find_program() is None,
    reason="gnubg is not installed",
)
def test_gnubg_program_and_the_coach_agree_too_good_in_a_race() -> None:
    from kiosk.tutor.cube import chances_function
    from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, fibs_board

    race = Position.from_points(
        {6: 3, 5: 3, 4: 3, 3: 3, 2: 3, 13: -3, 14: -3, 15: -3, 16: -3, 17: -3}
    )
    program = GnubgExternalEvaluator(plies=0, settings=("set jacoby off",))
    try:
        fields = fibs_board(race).split(":")
        action = program.request(":".join(fields))
        fields[40] = "1"
        response = program.request(":".join(fields))
    finally:
        program.close()
    mine = CubeCoach(*chances_function("builtin")).decide(race)
    # Far ahead with gammons to win: too good to double, and a double would be dropped.
    assert (action, response) == ("roll", "drop")
    assert (mine.action, mine.response) == ("too-good", "pass")


needs_nn = pytest.mark.skipif(load_module() is None, reason="gnubg-nn is not installed")
TAKE_AT_3_3 = "s9sIGAjDvQ0GAA"  # GNU Backgammon 1.07, 2-ply, 3-away 3-away: double, take


@pytest.mark.parametrize("evaluator", ["builtin", "auto"])
def test_coach_cube_takes_at_three_away_three_away(evaluator) -> None:
    if evaluator == "auto" and load_module() is None:
        pytest.skip("gnubg-nn is not installed")
    done = run(TAKE_AT_3_3, "--match", "3", "--evaluator", evaluator)
    answer = json.loads(done.stdout)
    assert (answer["action"], answer["response"]) == ("double", "take"), answer
    take = next(r for r in answer["reasons"] if r["code"] == "take-point")
    assert take["take"] > take["pass"] and "he should take" in take["text"]


def _recorded(kind: str, count: int) -> list[tuple[str, CubeState, tuple[str, str]]]:
    """A sample of the cube decisions recorded for the coach benchmark, with GNU
    Backgammon's answers: ``(Position ID, cube, (action, response))``."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "cube_positions.txt"
    cases = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        pid, match, away, opp_away, value, owner, action, response = line.split()
        match, away, opp_away = int(match), int(away), int(opp_away)
        if bool(match) != (kind == "match"):
            continue
        score = (match - away, match - opp_away) if match else (0, 0)
        state = CubeState(int(value), WHITE if owner == "me" else None, match, score)
        cases.append((pid, state, (action, response)))
    return cases[:: len(cases) // count][:count]


@needs_nn
@pytest.mark.parametrize("kind", ["money", "match"])
def test_the_coach_gives_gnu_backgammons_recorded_cube_decisions(kind) -> None:
    """A sample of the benchmark's decisions (GNU Backgammon 1.07's cubeful 2-ply answers):
    the coach with GNU Backgammon's nets, looking two throws ahead, gives each."""
    coach = cube_coach("gnubg-nn")
    for pid, state, answer in _recorded(kind, 12):
        mine = coach.decide(Position.from_id(pid), state)
        got = ("double" if mine.action == "double" else "no-double", mine.response)
        assert got == answer, (pid, state)


@pytest.mark.parametrize(
    "chances",
    [
        (0.5, 0.1, 0.0, 0.1, 0.0),
        (0.7, 0.05, 0.0, 0.02, 0.0),
        (0.78, 0.1, 0.0, 0.05, 0.0),
        (0.85, 0.0, 0.0, 0.0, 0.0),
        (0.9, 0.6, 0.05, 0.01, 0.0),
        (0.72, 0.3, 0.0, 0.1, 0.0),
    ],
)
@pytest.mark.parametrize(
    "state",
    [
        CubeState(),
        CubeState(2, WHITE),
        CubeState(1, None, 7, (4, 4)),
        CubeState(1, None, 5, (1, 3)),
    ],
)
def test_the_words_agree_with_the_verdict(chances, state) -> None:
    d = fixed(chances).decide(Position.standard(WHITE), state)
    codes = {r["code"]: r for r in d.reasons}
    assert ("he should take" in codes["take-point"]["text"]) == (d.response == "take")
    assert ("too-good" in codes) == (d.action == "too-good")
    if d.action == "too-good":
        assert d.no_double > d.double_pass  # too good only when playing on beats cashing
    assert ("market" in codes) == (d.action == "double" and d.response == "pass")


def test_a_short_bear_off_is_valued_exactly() -> None:
    """Three men a side, all home: the cube values are worked out exactly, as GNU Backgammon
    reads them from its bear-off database (its cube analysis of igAAQAkAAAAAAA, 1.07:
    no double +0.390, double take +0.570), whatever net gives the chances."""
    race = Position.from_points({3: 1, 4: 1, 6: 1, 23: -1, 22: -1, 19: -1})
    assert race.position_id() == "igAAQAkAAAAAAA"
    for name in ("builtin", "auto"):
        d = cube_coach(name).decide(race)
        assert (d.action, d.response) == ("double", "take")
        assert d.no_double == pytest.approx(0.390, abs=0.001)
        assert d.double_take == pytest.approx(0.570, abs=0.001)
    # One man on the six against one on his ace: 27 throws of 36 bear it off at once, so
    # doubling makes the taker exactly indifferent.
    board = ((1, 0, 0, 0, 0, 0) + (0,) * 19, (0, 0, 0, 0, 0, 1) + (0,) * 19)
    assert cubeful.exact_bearoff(board) == {"centre": 1.0, "me": 1.0, "him": 0.5}


def test_the_builtin_cube_coach_rates_the_plays_of_a_decision_once() -> None:
    """The chances before throwing and the one-throw look-ahead share one rating of every
    play: the same chances as the evaluator's own, the look-ahead asks for none again."""
    from kiosk.tutor.evaluators.builtin import BuiltinEvaluator

    net = BuiltinEvaluator()
    asked = []

    def best_plays(position):
        asked.append(position)
        return net.best_plays(position)

    backend = cubeful.PositionBackend(net.chances_for, best_plays, "builtin")
    position = Position.standard().swap_turn()  # black on roll
    assert backend.chances_on_roll(position) == net.chances_on_roll(position)
    board = (tuple(position.men[WHITE]), tuple(position.men[BLACK]))
    children = backend.after_rolls(board)
    assert len(asked) == 1 and len(children) == 21
    assert sum(ways for ways, _ in children) == 36
