"""How much the table helps while a man is in the hand: the hint budget, and graded destinations.

A lifted man's destinations can be shown graded by what they cost. A destination's grade
is that of the best complete play of the roll that still moves this man there (after the
steps already taken): ``best`` within 0.03 of the best play of the roll, ``fair`` up to
0.12 behind, ``costly`` further behind. The equities are the coach's, worked out once per
roll (:meth:`RollGrades.rate`, in the coach's thread); grading a lift afterwards is only a
walk over the roll's partial plays.

How much is shown is the :class:`HintBudget`: ``everything`` (graded), ``legal`` (only where
the man may go: the default), ``budget N`` (N graded lifts a turn, then legal only) or
``think`` (nothing until Done).

>>> HintBudget.parse("budget 2"), str(HintBudget.parse(" Think "))
(HintBudget(mode='budget', lifts=2), 'think')
>>> from kiosk.rules import Position
>>> from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
>>> start = Position.standard()
>>> grades = RollGrades.rate(start, (3, 1), BuiltinEvaluator())
>>> grades.destinations(start, 8)  # 8/5 6/5 is the 3-1 to play; 8/7 and 8/4 cost far more
{5: 'best', 7: 'costly', 4: 'costly'}
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kiosk.config import HintBudget
from kiosk.rules import Colour, Play, Position, Step
from kiosk.rules.moves import to_arrays
from kiosk.rules.profiles import RuleProfile, get_profile
from kiosk.rules.tree import Node, PlayTree
from kiosk.tutor.evaluators import Evaluator

#: The grades of a destination, best first, and the equity behind the best play of the
#: roll each allows (``costly``: more than the last).
GRADES: tuple[str, ...] = ("best", "fair", "costly")
GRADE_LIMITS: tuple[float, float] = (0.03, 0.12)


def grade(loss: float) -> str:
    """The grade of a destination whose best play gives up ``loss`` against the roll's best.

    >>> [grade(x) for x in (0.0, 0.029, 0.03, 0.12, 0.121, math.inf)]
    ['best', 'best', 'fair', 'fair', 'costly', 'costly']
    """
    if loss < GRADE_LIMITS[0]:
        return GRADES[0]
    return GRADES[1] if loss <= GRADE_LIMITS[1] else GRADES[2]


__all__ = ["GRADES", "GRADE_LIMITS", "HintBudget", "RollGrades", "grade"]

Key = tuple[int, ...]
State = tuple[Key, tuple[int, ...]]  # a partial play and the dice it has still to use


class RollGrades:
    """Every partial play of one roll with the least equity given up by a complete play it
    can still become. ``ranked``: the evaluator's plays with their equities, best first; a
    legal play it left out (a quick look showed it far worse) counts as costly."""

    def __init__(self, tree: PlayTree, ranked: Sequence[tuple[Play, float]]) -> None:
        self.tree = tree
        self._nodes: dict[Key, Node] = dict(tree.keyed())
        best = ranked[0][1] if ranked else 0.0
        finals: dict[Key, float] = {}
        mover = tree.start.turn
        for play, equity in ranked:
            finals[_key(play.result, mover)] = max(0.0, best - equity)
        if len(tree.plays) <= 1:  # the only play there is: nothing to weigh
            finals = {_key(p.result, mover): 0.0 for p in tree.plays}
        # a partial play with the dice still to use: a position met with different dice
        # left (bearing off with a larger number) is not the same state
        self._best: dict[State, float] = {}
        start = _key(tree.start, mover)
        if start in self._nodes:
            self._least((start, tree.dice), finals)

    @classmethod
    def rate(
        cls,
        position: Position,
        dice: tuple[int, int],
        evaluator: Evaluator,
        profile: RuleProfile | str | None = None,
    ) -> RollGrades:
        """Every play of ``dice`` in ``position`` weighed by ``evaluator`` (slow: run it off
        the loop, in the coach's thread)."""
        rules = get_profile(profile)
        plays = position.legal_plays(*dice, profile=rules)
        ranked: list[tuple[Play, float]] = []
        if len(plays) > 1:
            ranked = [(p, e) for p, e in evaluator.evaluate_plays(position, *dice, profile=rules)]
        return cls.of(position, dice, ranked, rules, plays)

    @classmethod
    def of(
        cls,
        position: Position,
        dice: tuple[int, int],
        ranked: Sequence[tuple[Play, float]],
        profile: RuleProfile | str | None = None,
        plays: Sequence[Play] | None = None,
    ) -> RollGrades:
        """The grades of ``dice`` in ``position`` from plays already ranked (the coach's
        ranking of the roll, best first)."""
        rules = get_profile(profile)
        if plays is None:
            plays = position.legal_plays(*dice, profile=rules)
        tree = PlayTree(position, *dice, larger_die=rules.larger_die, plays=list(plays))
        return cls(tree, ranked)

    def _next(self, state: State) -> list[tuple[Step, State]]:
        """The steps from a partial play with its dice left, each with the state it leads to."""
        key, left = state
        out = []
        for step, child in self._nodes[key].steps:
            if step.die not in left:
                continue
            rest = list(left)
            rest.remove(step.die)
            if tuple(rest) in self._nodes[child].dice_left:
                out.append((step, (child, tuple(rest))))
        return out

    def _least(self, state: State, finals: dict[Key, float]) -> float:
        """The least loss a partial play can still end in (iteratively: no deep recursion);
        a complete play's own loss counts only where no die is left to play."""
        pending = [state]
        while pending:
            here = pending[-1]
            if here in self._best:
                pending.pop()
                continue
            after = self._next(here)
            todo = [child for _, child in after if child not in self._best]
            if todo:
                pending.extend(todo)
                continue
            own = math.inf if after else finals.get(here[0], math.inf)
            self._best[here] = min([own, *(self._best[child] for _, child in after)])
            pending.pop()
        return self._best[state]

    def destinations(self, base: Position, src: int) -> dict[int, str]:
        """The grade of each point (``0``: off) a man lifted from ``src`` may be put down
        on, from the partial play ``base`` (empty if ``base`` is no partial play of the roll)."""
        key = _key(base, self.tree.start.turn)
        node = self._nodes.get(key)
        if node is None:
            return {}
        least: dict[int, float] = {}
        frontier = [((key, left), src) for left in node.dice_left if (key, left) in self._best]
        seen: set[tuple[State, int]] = set()
        while frontier:
            here, at = frontier.pop()
            for step, child in self._next(here):
                if step.src != at or (child, step.dst) in seen:
                    continue
                seen.add((child, step.dst))
                least[step.dst] = min(least.get(step.dst, math.inf), self._best[child])
                frontier.append((child, step.dst))
        return {dst: grade(loss) for dst, loss in least.items()}


def _key(position: Position, mover: Colour) -> Key:
    """A position's key among a roll's partial plays (the mover's arrays, then the other's)."""
    me, op = to_arrays(position if position.turn == mover else position.with_turn(mover))
    return (*me, *op)
