"""The table's cube: decided as the cube coach decides, where its evaluator has a net."""

from __future__ import annotations

import random

import pytest

from kiosk.rules import BLACK, WHITE, Cube, Position, get_profile
from kiosk.tutor.cube import CubeCoach, CubeState, chances_function
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator
from kiosk.tutor.opponent import Opponent, cube_coach_for


def positions(seed: int, count: int) -> list[Position]:
    """Positions from games of random legal plays, the side on roll to throw next."""
    rng = random.Random(seed)
    found: list[Position] = []
    position = Position.standard()
    while len(found) < count:
        if position.winner() is not None:
            position = Position.standard()
        dice = rng.randint(1, 6), rng.randint(1, 6)
        position = rng.choice(position.legal_plays(*dice)).result
        found.append(position)
    return found


@pytest.fixture(scope="module")
def table() -> Opponent:
    return Opponent("expert", evaluator=BuiltinEvaluator(), profile="modern")


def test_the_table_doubles_takes_and_passes_as_the_cube_coach_says(table: Opponent) -> None:
    chances, name = chances_function("builtin")
    coach = CubeCoach(chances, name)
    seen = set()
    for position in positions(4, 60):
        for cube in (Cube(), Cube(2, position.turn)):
            decision = coach.decide(position, CubeState(cube.value, cube.owner))
            offer = table.cube_action(position, cube)
            assert offer.action == decision.action and offer.evaluator == "builtin"
            answer = table.answer_double(position, cube)
            assert answer.action == decision.response
            seen.update((offer.action, answer.action))
    assert {"double", "no-double", "take", "pass"} <= seen  # every answer was put to the test


def test_the_cube_coach_is_used_where_the_evaluator_has_a_net() -> None:
    assert cube_coach_for(BuiltinEvaluator()) is not None
    # GNU Backgammon over its socket gives equities only: the table goes by its thresholds
    assert cube_coach_for(GnubgExternalEvaluator(plies=0, program="/bin/false")) is None


def test_no_cube_without_doubling_and_none_from_the_side_without_it(table: Opponent) -> None:
    position = Position.standard(BLACK)
    verdict = table.cube_action(position, Cube(2, WHITE))
    assert (verdict.action, verdict.evaluator) == ("no-double", "rules")
    with pytest.raises(ValueError, match="table's"):
        table.answer_double(Position.standard(WHITE), Cube(2, BLACK))
    assert not get_profile("cady").doubling
    quiet = Opponent("expert", evaluator=BuiltinEvaluator(), profile="cady")
    assert quiet.cube_action(position).action == "no-double"
    with pytest.raises(ValueError, match="no doubling"):
        quiet.answer_double(position)
