"""Structured reasons: each a code and facts computed from the positions before and after
the play; the false reasons of issue 12 cannot come back."""

from __future__ import annotations

import pytest

from kiosk.rules import BLACK, WHITE, Position
from kiosk.tutor.coach import Coach
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module
from kiosk.tutor.features import REASON_CODES, TACTICS, explain

needs_nn = pytest.mark.skipif(load_module() is None, reason="gnubg-nn is not installed")


def throws_hitting(after: Position, mover, points: list[int]) -> int:
    """The 36 throws enumerated one by one: those with which the adversary can hit a blot
    of ``mover`` on one of ``points`` (mover's numbering), by the rules engine."""
    board = after.with_turn(mover.other)
    targets = {25 - p for p in points}
    return sum(
        any(s.hit and s.dst in targets for play in board.legal_plays(d1, d2) for s in play.steps)
        for d1 in range(1, 7)
        for d2 in range(1, 7)
    )


# Positions with plays that leave blots, some facing a man on the bar.
CASES = [
    (Position.standard(), (3, 1), "13/10 6/5", "8/5 6/5"),
    (Position.standard(), (6, 4), "24/14", "8/2 6/2"),
    (Position.standard(), (5, 2), "13/8 6/4", "13/11 13/8"),
    (
        Position.from_points({13: 4, 8: 2, 6: 4, 5: 3, 4: 2, 1: -2, 19: -4, 20: -4, 21: -5}),
        (6, 2),
        "8/2 8/6",
        "13/7/5",
    ),
    (
        Position.from_points(
            {13: 5, 8: 3, 6: 4, 5: 1, 24: 2, 12: -5, 17: -3, 19: -5, 1: -1}, bar=(0, 1)
        ),
        (4, 1),
        "13/9 6/5",
        "6/2 5/4",
    ),
]


@pytest.mark.parametrize(("position", "dice", "move", "best"), CASES)
def test_blot_shots_are_the_throws_that_hit_enumerated(position, dice, move, best) -> None:
    play = position.parse_play(*dice, move)
    reasons = explain(position, play, position.parse_play(*dice, best))
    blots = [r for r in reasons if r.code in ("blot", "fewer-shots", "safe")]
    for reason in blots:
        points = reason.facts.get("points", [])
        assert reason.facts["shots"] == throws_hitting(play.result, position.turn, points)
        if reason.code == "safe":
            assert reason.facts["shots"] == 0 and "Safe" in reason.text


def test_every_reason_is_a_documented_code_with_words() -> None:
    position, dice, move, best = CASES[0]
    for reason in explain(
        position, position.parse_play(*dice, move), position.parse_play(*dice, best)
    ):
        assert reason.code in REASON_CODES and reason.text
        data = reason.as_dict()
        assert data["code"] == reason.code and data["text"] == str(reason)


@pytest.mark.parametrize(("dice", "move"), [((6, 4), "24/14"), ((5, 4), "24/15")])
def test_no_pile_where_the_play_added_no_man(dice, move) -> None:
    start = Position.standard()
    for best in start.legal_plays(*dice):
        codes = [r.code for r in explain(start, start.parse_play(*dice, move), best)]
        assert "stacks" not in codes


def test_safe_only_when_no_throw_hits() -> None:
    # Every play of this roll leaves shots; the one with fewer is never called safe.
    position, dice = CASES[3][0], (6, 2)
    for play in position.legal_plays(*dice):
        for best in position.legal_plays(*dice):
            for reason in explain(position, play, best):
                if "safe" in reason.text.lower():
                    assert reason.code == "safe" and reason.facts["shots"] == 0
                    assert throws_hitting(play.result, WHITE, list(range(1, 25))) == 0


def test_no_game_plan_from_the_pip_count_alone() -> None:
    start = Position.standard()
    for play in start.legal_plays(6, 5):
        for reason in explain(start, play, start.legal_plays(6, 5)[0]):
            assert "backward game" not in reason.text and "forward game" not in reason.text


def test_citations_fit_the_advice() -> None:
    assert TACTICS["Fo-11"].section == "Chances"
    # Black on the bar, white breaks his 4 point: Crawley's six-and-five advice does not fit.
    position = Position.from_points(
        {6: 4, 5: 2, 4: 2, 8: 3, 13: 4, 12: -5, 17: -3, 19: -5, 1: -1}, bar=(0, 1)
    )
    play = position.parse_play(3, 1, "4/1 4/3")
    best = position.parse_play(3, 1, "8/5 6/5")
    broken = [r for r in explain(position, play, best) if r.code == "breaks-point"]
    assert broken and broken[0].facts == {"points": [4]}
    assert broken[0].tactic is TACTICS["C-III"]


@needs_nn
def test_the_coach_json_reasons_are_objects() -> None:
    coach = Coach(GnubgNNEvaluator(plies=0))
    data = coach.rate(Position.standard(), (3, 1), "13/10 6/5").as_dict()
    assert set(data) >= {"rating", "equity_loss", "best", "reasons"}
    assert all({"code", "text"} <= set(r) for r in data["reasons"])
    blot = next(r for r in data["reasons"] if r["code"] == "blot")
    assert blot["points"] == [5, 10] and blot["shots"] == throws_hitting(
        Position.standard().parse_play(3, 1, "13/10 6/5").result, WHITE, [5, 10]
    )
    assert BLACK  # both colours are numbered from the mover's side


def test_the_readme_documents_every_reason_code():
    """The README's two tables of reason codes say what the code says, code for code."""
    import re
    from pathlib import Path

    from kiosk.tutor.cube import CUBE_REASON_CODES
    from kiosk.tutor.features import REASON_CODES

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("### `kiosk coach` and `kiosk coach-cube`")[1].split("\n## ")[0]
    play, cube = section.split("The codes of a cube decision:")
    rows = re.compile(r"^\| `([a-z-]+)` \| (.*) \|$", re.M)
    assert dict(rows.findall(play)) == REASON_CODES
    assert dict(rows.findall(cube)) == CUBE_REASON_CODES
