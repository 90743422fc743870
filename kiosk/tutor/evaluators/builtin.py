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

import numpy as np

from kiosk.rules import Play, Position
from kiosk.tutor.evaluators import Scored
from kiosk.tutor.evaluators.bearoff import homes, win_chance
from kiosk.tutor.evaluators.net import WEIGHTS_FILE, Net, encode


def _final(after: Position) -> float:
    """The result of a finished game for the side that just moved (it won): 1, 2 for a
    gammon, 3 for a backgammon."""
    loser = after.turn
    if after.off[loser]:
        return 1.0
    men = after.men[loser]
    return 3.0 if any(men[18:25]) else 2.0


class BuiltinEvaluator:
    """Equity estimates from the shipped net; no program or wheel needed."""

    name = "builtin"

    def __init__(self, weights: Path = WEIGHTS_FILE) -> None:
        self.net = Net.load(weights)

    def _equities(self, positions: list[Position]) -> list[float]:
        values: list[float | None] = []
        rows = []
        for after in positions:
            winner = after.winner()
            race = homes(after) if winner is None else None
            if race is not None:  # a short race of men all home: counted exactly
                values.append(1.0 - 2.0 * win_chance(*race))
            elif winner is None:
                values.append(None)
                rows.append(encode(after))
            else:
                values.append(_final(after))
        net = iter(self.net.equities(np.array(rows)).tolist()) if rows else iter(())
        return [v if v is not None else next(net) for v in values]

    def chances(self, after: Position) -> list[float]:
        """The net's five chances for the side that just moved (win, win a gammon, win a
        backgammon, lose a gammon, lose a backgammon); a short race of men all home is
        counted exactly (:mod:`kiosk.tutor.evaluators.bearoff`)."""
        race = homes(after)
        if race is not None:
            return [1.0 - win_chance(*race), 0.0, 0.0, 0.0, 0.0]
        return self.net.probabilities(np.array([encode(after)]))[0].tolist()

    def equity(self, after: Position) -> float:
        """The estimated equity of ``after`` for the side that just moved."""
        return self._equities([after])[0]

    def evaluate_plays(
        self,
        position: Position,
        d1: int,
        d2: int,
        keep: Play | None = None,
        profile: object = None,
    ) -> list[Scored]:
        """Every legal play, best first."""
        plays = position.legal_plays(d1, d2, profile)
        scored = zip(plays, self._equities([p.result for p in plays]), strict=True)
        return sorted(scored, key=lambda s: -s[1])

    def close(self) -> None:
        """Nothing to release."""
