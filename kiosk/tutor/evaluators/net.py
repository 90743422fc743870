"""The built-in evaluator's neural network: a small numpy net distilled from GNU Backgammon.

A position after a play is read from the mover's side (the adversary to roll) into
:data:`INPUTS` numbers: for each point and the bar, each side's men in GNU Backgammon's
truncated unary code (one man, two, three, and the men beyond three), the men borne off,
and the features the books teach (see :func:`kiosk.tutor.evaluators.builtin.contact_features`
and :func:`~kiosk.tutor.evaluators.builtin.race_features`: blots and the rolls that hit them,
points made, primes, anchors, the race). Two hidden layers of rectified units lead to five
sigmoid outputs, the mover's chances as GNU Backgammon gives them: win, win a gammon, win
a backgammon, lose a gammon, lose a backgammon.

The weights (``net_weights.npz``, about 200 KB) were trained by
:mod:`kiosk.tutor.evaluators.train` on GNU Backgammon's own evaluations of the plays in
its games, seeded so the file can be made again.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kiosk.rules import Position
from kiosk.tutor.evaluators.builtin_features import (
    CONTACT_FEATURES,
    RACE_FEATURES,
    contact_features,
    is_contact,
    race_features,
    sides,
)

WEIGHTS_FILE = Path(__file__).with_name("net_weights.npz")

#: Number of inputs: 2 sides x 25 places x 4 units, 2 borne-off counts, a race flag,
#: the contact features and the race features.
INPUTS = 2 * 25 * 4 + 2 + 1 + len(CONTACT_FEATURES) + len(RACE_FEATURES)

#: Derivative of the cubeless equity by each of the five outputs.
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def _unary(counts: list[int]) -> list[float]:
    out: list[float] = []
    for n in counts:
        out += (
            float(n == 1),
            float(n == 2),
            float(n >= 3),
            (n - 3) / 2.0 if n > 3 else 0.0,
        )
    return out


def encode(after: Position) -> list[float]:
    """The net's inputs for the position after a play, from the mover's side."""
    me, op = sides(after)
    # me[1..25]: the mover's points and bar; op as the adversary counts them (his bar last).
    mine = me[1:26]
    theirs = [op[25 - p] for p in range(1, 25)] + [op[0]]
    contact = is_contact(me, op)
    return [
        *_unary(mine),
        *_unary(theirs),
        me[0] / 15.0,
        op[25] / 15.0,
        0.0 if contact else 1.0,
        *contact_features(me, op),
        *race_features(me, op),
    ]


class Net:
    """A two-hidden-layer network; :meth:`probabilities` runs a batch of encoded positions."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.w1, self.b1 = weights["w1"], weights["b1"]
        self.w2, self.b2 = weights["w2"], weights["b2"]
        self.w3, self.b3 = weights["w3"], weights["b3"]
        self.mean, self.scale = weights["mean"], weights["scale"]

    @classmethod
    def load(cls, path: Path = WEIGHTS_FILE) -> Net:
        """The net from an ``.npz`` file of weights."""
        with np.load(path) as data:
            return cls({k: data[k].astype(np.float64) for k in data.files})

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        """The five outputs for each row of ``inputs`` (rows from :func:`encode`)."""
        x = (inputs - self.mean) * self.scale
        h1 = np.maximum(0.0, x @ self.w1 + self.b1)
        h2 = np.maximum(0.0, h1 @ self.w2 + self.b2)
        return 1.0 / (1.0 + np.exp(-(h2 @ self.w3 + self.b3)))

    def equities(self, inputs: np.ndarray) -> np.ndarray:
        """The mover's cubeless equity for each row of ``inputs``."""
        return self.probabilities(inputs) @ EQUITY_WEIGHTS - 1.0
