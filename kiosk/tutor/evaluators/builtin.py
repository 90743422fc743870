"""The built-in evaluator: a linear sum of the features the books teach, in pure Python.

It needs nothing installed, so the coach always has something to say. The position after a
play is read from the mover's side (the adversary to roll): the race by pip count, blots
weighted by how many of the 36 rolls hit them and how far a hit man goes back, points made
(the five, four and bar points above all), anchors in the adversary's board, primes and
the men caught behind them, the home board against men on the bar, men crowded on low
points or in tall stacks, and men left behind. Contact positions and races have separate
weights. The weights (``builtin_weights.py``) were fitted to GNU Backgammon's equities on
positions from its own games, by :mod:`kiosk.tutor.evaluators.tune`; the result is an
estimate of the same cubeless equity, rougher but of the same scale.

>>> from kiosk.rules import Position
>>> e = BuiltinEvaluator()
>>> best = e.evaluate_plays(Position.standard(), 3, 1)[0][0]
>>> str(best)
'8/5 6/5'
"""

from __future__ import annotations

from kiosk.rules import Play, Position
from kiosk.tutor.evaluators import Scored
from kiosk.tutor.evaluators.builtin_features import CONTACT_FEATURES, RACE_FEATURES, feature_vector
from kiosk.tutor.evaluators.builtin_weights import CONTACT_WEIGHTS, RACE_WEIGHTS


class BuiltinEvaluator:
    """Equity estimates from the fitted linear weights; no program or wheel needed."""

    name = "builtin"

    def __init__(
        self,
        contact_weights: dict[str, float] | None = None,
        race_weights: dict[str, float] | None = None,
    ) -> None:
        cw = contact_weights or CONTACT_WEIGHTS
        rw = race_weights or RACE_WEIGHTS
        self._weights = {
            "contact": [cw.get(n, 0.0) for n in CONTACT_FEATURES],
            "race": [rw.get(n, 0.0) for n in RACE_FEATURES],
        }

    def equity(self, after: Position) -> float:
        """The estimated equity of ``after`` for the side that just moved."""
        winner = after.winner()
        if winner is not None:
            return 1.0 if winner != after.turn else -1.0
        kind, values = feature_vector(after)
        total = sum(w * x for w, x in zip(self._weights[kind], values, strict=True))
        return max(-3.0, min(3.0, total))

    def evaluate_plays(
        self,
        position: Position,
        d1: int,
        d2: int,
        keep: Play | None = None,
        profile: object = None,
    ) -> list[Scored]:
        """Every legal play, best first."""
        scored = [(p, self.equity(p.result)) for p in position.legal_plays(d1, d2, profile)]
        return sorted(scored, key=lambda s: -s[1])

    def close(self) -> None:
        """Nothing to release."""
