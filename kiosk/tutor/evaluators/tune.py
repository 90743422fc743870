"""Fit the built-in evaluator's weights to GNU Backgammon (a developer's tool).

``python -m kiosk.tutor.evaluators.tune [--games N] [--seed S]`` plays games between two
copies of GNU Backgammon's net (``gnubg-nn``, with a little randomness so the games
wander), takes every position with a choice of plays, scores each legal play with the net,
and fits the linear weights by least squares: on the equities themselves, and (weighted
more) on each play's equity relative to the other plays of the same roll, since choosing
among them is what the coach needs. It writes ``builtin_weights.py`` and prints how often
the fitted evaluator picks GNU Backgammon's play on a separate set of games.

Needs ``gnubg-nn`` and ``numpy`` (both in the test environment on x86-64), not the kiosk.
The benchmark's positions come from :func:`draw_positions` with a seed of their own.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from kiosk.rules import Position
from kiosk.tutor.evaluators import cubeless_equity
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.evaluators.builtin_features import (
    CONTACT_FEATURES,
    RACE_FEATURES,
    feature_vector,
)
from kiosk.tutor.evaluators.gnubg_nn import load_module, tan_board

TRAINING_SEED = 7_001
CHECK_SEED = 7_002
WEIGHTS_FILE = Path(__file__).with_name("builtin_weights.py")


def draw_positions(seed: int, games: int) -> list[tuple[Position, int, int]]:
    """Positions with a roll that leaves a choice, from games of GNU Backgammon's net.

    Each side plays the net's best play, or (one time in five) one of its four best at
    random. Deterministic for a seed, given the same net.
    """
    gnubg = load_module()
    if gnubg is None:
        raise RuntimeError("drawing positions needs the gnubg-nn module")
    rng = random.Random(seed)
    found: list[tuple[Position, int, int]] = []
    for _ in range(games):
        position = Position.standard()
        for _turn in range(200):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = position.legal_plays(d1, d2)
            if len(plays) > 1:
                found.append((position, d1, d2))
            ranked = sorted(
                plays, key=lambda p: cubeless_equity(gnubg.probabilities(tan_board(p.result), 0))
            )
            play = ranked[0] if rng.random() > 0.2 else rng.choice(ranked[:4])
            position = play.result
            if position.winner() is not None:
                break
    return found


def _rows(samples: list[tuple[Position, int, int]], kind: str):
    """Feature rows and net equities, grouped by roll, for one kind of position."""
    gnubg = load_module()
    groups = []
    for position, d1, d2 in samples:
        xs, ys = [], []
        for play in position.legal_plays(d1, d2):
            k, x = feature_vector(play.result)
            if k != kind:
                continue
            xs.append(x)
            ys.append(-cubeless_equity(gnubg.probabilities(tan_board(play.result), 0)))
        if len(xs) > 1:
            groups.append((xs, ys))
    return groups


def fit(groups, names: tuple[str, ...], relative_weight: float = 3.0, ridge: float = 1e-3):
    """Least-squares weights for ``names`` from (features, equities) groups."""
    import numpy as np

    rows, targets, weights = [], [], []
    for xs, ys in groups:
        x = np.array(xs)
        y = np.array(ys)
        rows.append(x)
        targets.append(y)
        weights.append(np.ones(len(y)))
        centred = x - x.mean(axis=0)
        centred[:, 0] = 0.0  # the bias cancels within a roll
        # Plays near the best matter most when choosing.
        near = np.where(y.max() - y < 0.25, 1.0, 0.3)
        rows.append(centred)
        targets.append(y - y.mean())
        weights.append(relative_weight * near)
    x = np.vstack(rows)
    y = np.concatenate(targets)
    w = np.sqrt(np.concatenate(weights))
    a = x * w[:, None]
    b = y * w
    solution = np.linalg.solve(a.T @ a + ridge * np.eye(len(names)), a.T @ b)
    return {name: round(float(v), 5) for name, v in zip(names, solution, strict=True)}


def agreement(samples: list[tuple[Position, int, int]], evaluator: BuiltinEvaluator) -> float:
    """How often ``evaluator``'s choice is the net's 0-ply choice."""
    gnubg = load_module()
    same = 0
    for position, d1, d2 in samples:
        plays = position.legal_plays(d1, d2)
        net = max(
            plays, key=lambda p: -cubeless_equity(gnubg.probabilities(tan_board(p.result), 0))
        )
        mine = evaluator.evaluate_plays(position, d1, d2)[0][0]
        same += mine == net
    return same / max(1, len(samples))


def write_weights(contact: dict[str, float], race: dict[str, float]) -> None:
    """Write ``builtin_weights.py``."""

    def block(name: str, weights: dict[str, float]) -> str:
        lines = "".join(f'    "{k}": {v!r},\n' for k, v in weights.items())
        return f"{name}: dict[str, float] = {{\n{lines}}}\n"

    WEIGHTS_FILE.write_text(
        '"""Weights of the built-in evaluator (written by '
        '``python -m kiosk.tutor.evaluators.tune``)."""\n\n'
        + block("CONTACT_WEIGHTS", contact)
        + "\n"
        + block("RACE_WEIGHTS", race)
    )


def main(argv: list[str] | None = None) -> int:
    """Draw positions, fit, write the weights and report agreement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--check-games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=TRAINING_SEED)
    args = parser.parse_args(argv)
    training = draw_positions(args.seed, args.games)
    check = draw_positions(CHECK_SEED, args.check_games)
    print(f"{len(training)} training positions, {len(check)} to check", file=sys.stderr)
    contact = fit(_rows(training, "contact"), CONTACT_FEATURES)
    race = fit(_rows(training, "race"), RACE_FEATURES)
    write_weights(contact, race)
    before = agreement(check, BuiltinEvaluator())
    after = agreement(check, BuiltinEvaluator(contact, race))
    print(f"agreement with the net's 0-ply choice: {before:.3f} before, {after:.3f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
