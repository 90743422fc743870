"""Train the built-in evaluator's net from GNU Backgammon's evaluations (a developer's tool).

``python -m kiosk.tutor.evaluators.train [--games N] [--seed S] [--data FILE]`` plays games
between two copies of GNU Backgammon's net (``gnubg-nn``, with a little randomness so the
games wander), takes every position with a choice of plays, and scores every legal play
with the net at 0-ply (the five chances), the best three again
at 1-ply. Each net of :mod:`.net`'s ensemble (:data:`MEMBERS`) is then fitted to
those chances and to the order of the plays within each roll (a softmax over each roll's
plays, as choosing among them is what the coach needs), the members differing in that
order's weight and the softmax's temperature. Everything is seeded, so the same seed and
the same gnubg-nn give the same ``net_weights.npz``. It prints how often each net and the
ensemble pick GNU Backgammon's 0-ply play on games of a separate seed.

Needs ``gnubg-nn`` (in the test environment on x86-64), not the kiosk. On this 2-core
machine drawing and scoring the positions takes about fifteen minutes (``--data`` keeps
them), and each member about ten.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.rules import Position
from kiosk.tutor.evaluators import cubeless_equity
from kiosk.tutor.evaluators.gnubg_nn import load_module, tan_board
from kiosk.tutor.evaluators.net import EQUITY_WEIGHTS, INPUTS, WEIGHTS_FILE, Net, encode

TRAINING_SEED = 7_001
CHECK_SEED = 7_002
HIDDEN = (256, 128)
EPOCHS = 60
#: The ensemble's members: (weight of the order of a roll's plays against the chances,
#: equity scale of the softmax over a roll's plays).
MEMBERS = ((3.0, 0.02), (1.0, 0.04), (6.0, 0.02), (2.0, 0.04), (0.3, 0.04))
TOP = 3  # plays of each roll looked at again at 1-ply


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


def mover_chances(after: Position, plies: int = 0) -> list[float]:
    """GNU Backgammon's chances for the side that just moved (the net's outputs)."""
    module = load_module()
    if module is None:
        raise SystemExit("training needs the gnubg-nn module (pip install gnubg-nn)")
    win, win_g, win_bg, lose_g, lose_bg = module.probabilities(tan_board(after), plies)
    return [1.0 - win, lose_g, lose_bg, win_g, win_bg]


def label(samples: list[tuple[Position, int, int]], top: int = TOP) -> Any:
    """Inputs, target chances and group starts (one group per position and roll).

    Every play is scored at 0-ply; the ``top`` best are scored again at 1-ply and given
    the mean of the two (which cancels most of 1-ply's odd-even swing, as GNU Backgammon's
    deeper looks do), and the others are moved by the same mean shift.
    """
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    starts: list[int] = []
    count = 0
    for position, d1, d2 in samples:
        results = [p.result for p in position.legal_plays(d1, d2)]
        results = [r for r in results if r.winner() is None]
        if len(results) < 2:
            continue
        starts.append(count)
        chances = np.array([mover_chances(after) for after in results])
        if top:
            order = np.argsort(-(chances @ EQUITY_WEIGHTS))[:top]
            deeper = np.array([mover_chances(results[i], 1) for i in order])
            blended = (chances[order] + deeper) / 2.0
            shift = (blended - chances[order]).mean(axis=0)
            chances = np.clip(chances + shift, 0.0, 1.0)
            chances[order] = blended
        xs.append(np.array([encode(after) for after in results], np.float32))
        ys.append(chances.astype(np.float32))
        count += len(results)
    return np.vstack(xs), np.vstack(ys), np.array(starts)


def _init(rng: np.random.Generator, x: np.ndarray) -> dict[str, np.ndarray]:
    sizes = (INPUTS, *HIDDEN, 5)
    weights = {
        "mean": x.mean(axis=0),
        "scale": 1.0 / np.maximum(x.std(axis=0), 0.05),
    }
    for i, (a, b) in enumerate(zip(sizes, sizes[1:], strict=False), start=1):
        weights[f"w{i}"] = rng.normal(0.0, np.sqrt(2.0 / a), (a, b)).astype(np.float32)
        weights[f"b{i}"] = np.zeros(b, np.float32)
    return weights


def train(
    x: Any,
    y: Any,
    starts: Any,
    epochs: int,
    seed: int,
    log: Callable[..., Any] = print,
    ranking: float = 0.0,
    temperature: float = 0.04,
) -> dict[str, np.ndarray]:
    """Fit the net by Adam on minibatches of whole rolls: squared error on the chances
    plus a softmax cross-entropy on the order of each roll's plays."""
    rng = np.random.default_rng(seed)
    weights = _init(rng, x)
    names = ["w1", "b1", "w2", "b2", "w3", "b3"]
    m = {k: np.zeros_like(weights[k]) for k in names}
    v = {k: np.zeros_like(weights[k]) for k in names}
    ends = np.append(starts[1:], len(x))
    xn = ((x - weights["mean"]) * weights["scale"]).astype(np.float32)
    equity = y.astype(np.float64) @ EQUITY_WEIGHTS - 1.0
    step = 0
    groups = np.arange(len(starts))
    for epoch in range(epochs):
        rate = 1e-3 * (0.5 ** (epoch // max(1, epochs // 4)))
        rng.shuffle(groups)
        total = 0.0
        for chunk in np.array_split(groups, max(1, len(groups) // 48)):
            rows = np.concatenate([np.arange(starts[g], ends[g]) for g in chunk])
            sizes = ends[chunk] - starts[chunk]
            offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            xb, yb, eb = xn[rows], y[rows], equity[rows]
            h1p = xb @ weights["w1"] + weights["b1"]
            h1 = np.maximum(0.0, h1p)
            h2p = h1 @ weights["w2"] + weights["b2"]
            h2 = np.maximum(0.0, h2p)
            out = 1.0 / (1.0 + np.exp(-(h2 @ weights["w3"] + weights["b3"])))
            mine = out @ EQUITY_WEIGHTS - 1.0
            # Softmax of each roll's plays, predicted against GNU Backgammon's.
            p = np.exp((mine - np.repeat(np.maximum.reduceat(mine, offsets), sizes)) / temperature)
            p /= np.repeat(np.add.reduceat(p, offsets), sizes)
            t = np.exp((eb - np.repeat(np.maximum.reduceat(eb, offsets), sizes)) / temperature)
            t /= np.repeat(np.add.reduceat(t, offsets), sizes)
            n = len(rows)
            grad_out = 2.0 * (out - yb) / n
            grad_out += np.outer((p - t) / temperature / n, EQUITY_WEIGHTS) * ranking
            total += float(((out - yb) ** 2).sum())
            g3 = grad_out * out * (1.0 - out)
            grads = {"w3": h2.T @ g3, "b3": g3.sum(axis=0)}
            g2 = (g3 @ weights["w3"].T) * (h2p > 0)
            grads.update(w2=h1.T @ g2, b2=g2.sum(axis=0))
            g1 = (g2 @ weights["w2"].T) * (h1p > 0)
            grads.update(w1=xb.T @ g1, b1=g1.sum(axis=0))
            step += 1
            for k in names:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                mh = m[k] / (1 - 0.9**step)
                vh = v[k] / (1 - 0.999**step)
                weights[k] -= rate * mh / (np.sqrt(vh) + 1e-8)
        log(f"epoch {epoch + 1}: mean squared error {total / len(x) / 5:.5f}")
    return weights


def agreement(net: Net, x: Any, y: Any, starts: Any) -> float:
    """How often the net's best play of a roll is GNU Backgammon's 0-ply best."""
    ends = np.append(starts[1:], len(x))
    mine = net.equities(x.astype(np.float64))
    theirs = y.astype(np.float64) @ EQUITY_WEIGHTS - 1.0
    same = sum(
        int(np.argmax(mine[a:b]) == np.argmax(theirs[a:b]))
        for a, b in zip(starts, ends, strict=True)
    )
    return same / max(1, len(starts))


def main(argv: list[str] | None = None) -> int:
    """Draw positions, label them, train, write the weights and report agreement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--check-games", type=int, default=40)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--seed", type=int, default=TRAINING_SEED)
    parser.add_argument("--data", type=Path, help="cache of the labelled positions (.npz)")
    parser.add_argument(
        "--more-games", type=int, default=0, help="games more, their plays scored at 0-ply only"
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    began = time.time()

    def log(message: str) -> None:
        print(f"[{time.time() - began:6.0f} s] {message}", file=sys.stderr, flush=True)

    if args.data and args.data.exists():
        with np.load(args.data) as d:
            x, y, starts = d["x"], d["y"], d["starts"]
            cx, cy, cstarts = d["cx"], d["cy"], d["cstarts"]
    else:
        x, y, starts = label(draw_positions(args.seed, args.games))
        log(f"{len(starts)} training rolls, {len(x)} plays")
        cx, cy, cstarts = label(draw_positions(CHECK_SEED, args.check_games))
        log(f"{len(cstarts)} rolls to check")
        if args.data:
            np.savez_compressed(args.data, x=x, y=y, starts=starts, cx=cx, cy=cy, cstarts=cstarts)
    if args.more_games:
        more = args.data.with_suffix(".more.npz") if args.data else None
        if more and more.exists():
            with np.load(more) as d:
                mx, my, mstarts = d["x"], d["y"], d["starts"]
        else:
            mx, my, mstarts = label(draw_positions(args.seed + 2, args.more_games), top=0)
            log(f"{len(mstarts)} more rolls, {len(mx)} plays")
            if more:
                np.savez_compressed(more, x=mx, y=my, starts=mstarts)
        x, y, starts = np.vstack([x, mx]), np.vstack([y, my]), np.append(starts, mstarts + len(x))
    arrays: dict[str, Any] = {}
    for i, (ranking, temperature) in enumerate(MEMBERS):
        weights = train(x, y, starts, args.epochs, args.seed, log, ranking, temperature)
        log(f"net {i}: agreement {agreement(Net([weights]), cx, cy, cstarts):.3f}")
        arrays.update({f"n{i}_{k}": w.astype(np.float16) for k, w in weights.items()})
    np.savez_compressed(args.out, **arrays)
    together = agreement(Net.load(args.out), cx, cy, cstarts)
    log(f"the ensemble's agreement with GNU Backgammon's 0-ply: {together:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
