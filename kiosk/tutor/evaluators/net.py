"""The built-in evaluator's neural network: a small numpy net distilled from GNU Backgammon.

A position after a play is read from the mover's side (the adversary to roll) into
:data:`INPUTS` numbers: for each point and the bar, each side's men in GNU Backgammon's
truncated unary code (one man, two, three, and the men beyond three), the men borne off,
and the features the books teach (see :func:`kiosk.tutor.evaluators.builtin.contact_features`
and :func:`~kiosk.tutor.evaluators.builtin.race_features`: blots and the rolls that hit them,
points made, primes, anchors, the race). Two hidden layers of rectified units lead to five
sigmoid outputs, the mover's chances as GNU Backgammon gives them: win, win a gammon, win
a backgammon, lose a gammon, lose a backgammon.

The shipped evaluator is an ensemble of five such nets (256 and 128 hidden units), trained
alike but for how strongly each weighs the order of a roll's plays against the chances;
their chances are averaged. Why an ensemble: each net alone picks GNU Backgammon's 0-ply
play in 72-74% of the rolls of the training script's check set, the five together in
77%, with a mean equity loss of 0.0045 against 0.0053-0.0069 (``bench_coach.py``, against
GNU Backgammon at 2-ply, gives the figures that count). The weights (``net_weights.npz``,
half-precision, about 1 MB) were trained by :mod:`kiosk.tutor.evaluators.train` on GNU
Backgammon's own evaluations of the plays in its games, seeded so the file can be made
again.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

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
    """Two-hidden-layer networks whose chances are averaged (one, or an ensemble);
    :meth:`probabilities` runs a batch of encoded positions through each."""

    def __init__(self, members: list[dict[str, np.ndarray]]) -> None:
        self.members = []
        for m in members:
            w1 = m["scale"][:, None] * m["w1"]  # the inputs' scaling folded into layer one
            b1 = m["b1"] - (m["mean"] * m["scale"]) @ m["w1"]
            layers = (w1, b1, m["w2"], m["b2"], m["w3"], m["b3"])
            self.members.append(tuple(np.asarray(a, np.float32) for a in layers))

    @classmethod
    def load(cls, path: Path = WEIGHTS_FILE) -> Net:
        """The nets in an ``.npz`` file: one net's weights (``w1``...), or an ensemble's
        (``n0_w1``, ``n1_w1``...)."""
        with np.load(path) as data:
            arrays = {k: data[k].astype(np.float64) for k in data.files}
        if "w1" in arrays:
            return cls([arrays])
        count = len({k.split("_", 1)[0] for k in arrays})
        members = []
        for i in range(count):
            prefix = f"n{i}_"
            members.append({k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)})
        return cls(members)

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        """The five outputs for each row of ``inputs`` (rows from :func:`encode`)."""
        x = np.asarray(inputs, np.float32)
        total = np.zeros((len(x), 5))
        for w1, b1, w2, b2, w3, b3 in self.members:
            h1 = np.maximum(0.0, x @ w1 + b1)
            h2 = np.maximum(0.0, h1 @ w2 + b2)
            total += 1.0 / (1.0 + np.exp(-(h2 @ w3 + b3)))
        return total / len(self.members)

    def equities(self, inputs: np.ndarray) -> np.ndarray:
        """The mover's cubeless equity for each row of ``inputs``."""
        return cast("np.ndarray", self.probabilities(inputs) @ EQUITY_WEIGHTS - 1.0)
