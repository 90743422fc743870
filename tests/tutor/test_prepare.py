"""The coach rates a roll's plays when the dice land: the verdict on the play made is then
the same as rating it from scratch, and needs no second ranking of the roll."""

from __future__ import annotations

import random
from typing import cast

import pytest

from kiosk.rules import Play, Position, RuleProfile
from kiosk.tutor.coach import Coach, CoachWorker, Rater, Rating
from kiosk.tutor.evaluators import PlyEvaluator, Scored
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.hints import RollGrades


class Counted(PlyEvaluator):
    """The built-in net's equities, looked at again "deeper" (a little changed, so that the
    close look reorders the plays), counting the deep looks; like GNU Backgammon's filter
    only the best few are looked at closely, and the play made if it is not among them."""

    name = "counted"
    evaluates_elsewhere = True  # as the gnubg program: looked further ahead

    def __init__(self) -> None:
        self.net = BuiltinEvaluator()
        self.plies = 2
        self.deep = 0

    def close(self) -> None:
        """Nothing to release."""

    def _equity(self, after: Position, plies: int) -> float:
        equity = self.net.equity(after)
        if plies:
            self.deep += 1
            return equity + (hash(after.position_id()) % 7 - 3) / 100
        return equity


def _cases(count: int) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(34)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = Position.standard()
        for _ in range(rng.randint(0, 20)):
            plays = position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(plays).result
        if position.winner() is None:
            found.append((position, (rng.randint(1, 6), rng.randint(1, 6))))
    return found


def _same(a: Rating, b: Rating) -> bool:
    return a.as_dict() == b.as_dict()


@pytest.mark.parametrize("make", [Counted, BuiltinEvaluator])
def test_a_roll_rated_ahead_gives_the_same_verdicts(make: type) -> None:
    rng = random.Random(5)
    ahead, fresh = Coach(make()), Coach(make())
    outside = 0
    for position, dice in _cases(40):
        plays = position.legal_plays(*dice)
        play = rng.choice(plays)
        ahead.prepare(position, dice)
        deep = getattr(ahead.evaluator, "deep", 0)
        assert _same(ahead.rate(position, dice, play), fresh.rate(position, dice, play))
        looked = getattr(ahead.evaluator, "deep", 0) - deep
        if isinstance(ahead.evaluator, Counted) and len(plays) > 1:
            assert looked <= 3  # the play alone, and the chances of the two (bad plays)
            outside += looked > 0
    if make is Counted:
        assert outside  # some plays made were not among those looked at closely


def test_with_time_to_spare_every_play_is_looked_at_ahead() -> None:
    rng = random.Random(6)
    ahead, fresh = Coach(Counted()), Coach(Counted())
    evaluator = ahead.evaluator
    assert isinstance(evaluator, Counted)
    for position, dice in _cases(15):
        play = rng.choice(position.legal_plays(*dice))
        ahead.prepare(position, dice, more=lambda: True)
        deep = evaluator.deep
        assert _same(ahead.rate(position, dice, play), fresh.rate(position, dice, play))
        if len(position.legal_plays(*dice)) <= 48:
            assert evaluator.deep == deep  # nothing left to work out after Done


def test_the_worker_rates_ahead_without_publishing() -> None:
    from kiosk.app.coaching import CoachOnFirstUse
    from kiosk.tutor.coach import CoachConfig

    events: list[dict[str, object]] = []
    coach = CoachOnFirstUse(CoachConfig(evaluator="builtin"), "modern")
    worker = CoachWorker(coach, events.append)
    position, dice = Position.standard(), (3, 1)
    worker.submit_prepare(position, dice)
    assert worker.wait(30) and events == []
    assert coach.made()._prepared  # the roll was rated ahead, in the worker's thread
    worker.submit(position, dice, "8/5 6/5", "white")
    assert worker.wait(30)
    assert [e["event"] for e in events] == ["coach"] and events[0]["rating"] == "fine"
    worker.close()


class Asked(BuiltinEvaluator):
    """The built-in evaluator, counting the rolls it is asked to rank."""

    def __init__(self) -> None:
        super().__init__()
        self.rolls: list[tuple[str, int, int]] = []

    def evaluate_plays(
        self,
        position: Position,
        d1: int,
        d2: int,
        keep: Play | None = None,
        profile: str | RuleProfile | None = None,
    ) -> list[Scored]:
        self.rolls.append((position.position_id(), d1, d2))
        return super().evaluate_plays(position, d1, d2, keep, profile)


@pytest.mark.parametrize("hints_first", [False, True])
def test_the_hints_and_the_preparation_rank_a_roll_once(hints_first: bool) -> None:
    coach, fresh = Coach(Asked()), Coach(BuiltinEvaluator())
    asked = coach.evaluator
    assert isinstance(asked, Asked)
    rolls = 0
    for position, dice in _cases(25):
        if hints_first:
            grades = coach.grade_roll(position, dice)
            coach.prepare(position, dice)
        else:
            coach.prepare(position, dice)
            grades = coach.grade_roll(position, dice)
        expected = RollGrades.rate(position, dice, fresh.evaluator)
        assert grades._best == expected._best  # the same grades as weighed on their own
        rolls += len(position.legal_plays(*dice)) > 1
        assert len(asked.rolls) == rolls  # once a roll that has plays to weigh
        play = position.legal_plays(*dice)[0]
        assert _same(coach.rate(position, dice, play), fresh.rate(position, dice, play))
        assert len(asked.rolls) == rolls  # and the verdict after Done asks nothing more


def test_the_worker_ranks_a_roll_once_for_the_hints_and_the_coach() -> None:
    events: list[dict[str, object]] = []
    coach = Coach(Asked())
    worker = CoachWorker(cast(Rater, coach), events.append)  # no cube asked of it
    position, dice = Position.standard(), (3, 1)
    worker.submit_prepare(position, dice)
    worker.submit_grades(position, dice)
    worker.submit(position, dice, "8/5 6/5", "white")
    assert worker.wait(30)
    assert [e["event"] for e in events] == ["roll-grades", "coach"]
    grades = events[0]["grades"]
    assert isinstance(grades, RollGrades) and grades.destinations(position, 8)[5] == "best"
    assert isinstance(coach.evaluator, Asked) and len(coach.evaluator.rolls) == 1
    worker.close()
