"""The built-in evaluator: a small neural network distilled from GNU Backgammon, in numpy.

It needs neither GNU Backgammon's program nor its wheel, so the coach always has something
to say, and it is strong enough not to contradict the lessons. Every legal play is scored
by the net of :mod:`kiosk.tutor.evaluators.net` at once (one batch); the equity is the
cubeless money equity GNU Backgammon would give, estimated. A short race of men all home,
where the nets misjudge most, is counted exactly instead (:mod:`.bearoff`).

>>> from kiosk.rules import Position
>>> e = BuiltinEvaluator()
>>> best = e.evaluate_plays(Position.standard(), 3, 1)[0][0]
>>> str(best)
'8/5 6/5'
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np

from kiosk.rules import Play, Position, RuleProfile, all_rolls
from kiosk.tutor.evaluators import Scored
from kiosk.tutor.evaluators.bearoff import homes, win_chance
from kiosk.tutor.evaluators.net import EQUITY_WEIGHTS, WEIGHTS_FILE, Net, encode


def _final(after: Position) -> int:
    """The result of a finished game for the side that just moved (it won): 1, 2 for a
    gammon, 3 for a backgammon."""
    loser = after.turn
    if after.off[loser]:
        return 1
    men = after.men[loser]
    return 3 if any(men[18:25]) else 2


class BuiltinEvaluator:
    """Equity estimates from the shipped net; no program or wheel needed."""

    name = "builtin"

    def __init__(self, weights: Path = WEIGHTS_FILE) -> None:
        self.net = Net.load(weights)

    def _chances(self, positions: list[Position]) -> np.ndarray:
        """The five chances of each position for the side that just moved: a finished game
        as it ended, a short race of men all home counted exactly, the rest by the net
        (in one batch)."""
        out = np.zeros((len(positions), 5))
        rows, at = [], []
        for i, after in enumerate(positions):
            if after.winner() is not None:
                out[i, : _final(after)] = 1.0  # won: a game, a gammon, a backgammon
            elif (race := homes(after)) is not None:
                out[i, 0] = 1.0 - win_chance(*race)
            else:
                rows.append(encode(after))
                at.append(i)
        if rows:
            out[at] = self.net.probabilities(np.array(rows))
        return out

    def chances_for(self, positions: list[Position]) -> np.ndarray:
        """The five chances of each position for the side that just moved, one row each."""
        return self._chances(positions)

    def _equities(self, positions: list[Position]) -> list[float]:
        return cast("list[float]", (self._chances(positions) @ EQUITY_WEIGHTS - 1.0).tolist())

    def chances(self, after: Position) -> list[float]:
        """The five chances for the side that just moved (win, win a gammon, win a
        backgammon, lose a gammon, lose a backgammon); a short race of men all home is
        counted exactly (:mod:`kiosk.tutor.evaluators.bearoff`)."""
        return cast("list[float]", self._chances([after])[0].tolist())

    def best_plays(self, position: Position) -> list[tuple[int, Position, np.ndarray]]:
        """For each of the 21 throws of the side on roll in ``position``: how many of the
        36 it stands for, the position after the play the net likes best, and that
        position's five chances for the side that played it (every play of every throw
        rated in one batch)."""
        throws = []
        results: list[Position] = []
        for d1, d2, ways in all_rolls():
            plays = position.legal_plays(d1, d2)
            throws.append((ways, len(results), len(plays)))
            results += [p.result for p in plays]
        chances = self._chances(results)
        equities = chances @ EQUITY_WEIGHTS
        best = []
        for ways, start, count in throws:
            i = start + int(np.argmax(equities[start : start + count]))
            best.append((ways, results[i], chances[i]))
        return best

    def chances_on_roll(self, position: Position) -> list[float]:
        """The five chances of the side on roll in ``position``, before it throws: over its
        21 throws, the chances after the play the net likes best, weighed by how often each
        throw comes (a look one throw ahead, as GNU Backgammon's 1-ply)."""
        return mean_chances(self.best_plays(position))

    def equity(self, after: Position) -> float:
        """The estimated equity of ``after`` for the side that just moved."""
        return self._equities([after])[0]

    def evaluate_plays(
        self,
        position: Position,
        d1: int,
        d2: int,
        keep: Play | None = None,
        profile: str | RuleProfile | None = None,
    ) -> list[Scored]:
        """Every legal play, best first."""
        plays = position.legal_plays(d1, d2, profile)
        scored = zip(plays, self._equities([p.result for p in plays]), strict=True)
        return sorted(scored, key=lambda s: -s[1])

    def close(self) -> None:
        """Nothing to release."""


def mean_chances(throws: list[tuple[int, Position, np.ndarray]]) -> list[float]:
    """The chances before throwing from :meth:`BuiltinEvaluator.best_plays`: each throw's
    chances after its best play, weighed by how often the throw comes."""
    total = np.zeros(5)
    for ways, _after, chances in throws:
        total += ways * chances
    return cast("list[float]", (total / 36.0).tolist())
