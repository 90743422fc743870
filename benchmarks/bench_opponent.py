"""Opponent benchmark: how much equity each level gives up, and how long it thinks.

Positions are drawn reproducibly from games of random legal plays (``--seed``), keeping
every turn with a choice. At each level the opponent (its default evaluator, through the
:class:`~kiosk.tutor.opponent.OpponentWorker` the application will use) chooses a play; the
reference, GNU Backgammon at 2-ply (gnubg-nn in-process, else the ``gnubg`` program, else
only the built-in evaluator, which the output says), judges the equity it gives up against
the best play. ``think_p99_ms`` is the time from submitting position and dice to the play
chosen. The expert is also measured with only the built-in evaluator (its fallback,
``expert_builtin``) and, with the ``gnubg`` program installed, timed with it
(``expert_gnubg_think_p99_ms``). The last line is one JSON object.

    python benchmarks/bench_opponent.py [--positions 60] [--seed 13] [--gnubg-positions 30]
                                        [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.rules import Play, Position  # noqa: E402
from kiosk.tutor.evaluators import Evaluator  # noqa: E402
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator  # noqa: E402
from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program  # noqa: E402
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module  # noqa: E402
from kiosk.tutor.opponent import LEVELS, Opponent, OpponentWorker  # noqa: E402


def draw_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, dice) with more than one legal play, from random legal games."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = Position.standard()
        while position.winner() is None and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(*dice)
            if len(plays) > 1 and rng.random() < 0.5:  # spread the set over more games
                found.append((position, dice))
            position = rng.choice(plays).result
    return found


def reference() -> tuple[Evaluator, str]:
    """The judge: GNU Backgammon at 2-ply if it is here in any form."""
    if load_module() is not None:
        return GnubgNNEvaluator(plies=2), "gnubg-nn 2-ply"
    if find_program() is not None:
        return GnubgExternalEvaluator(plies=2), "gnubg 2-ply"
    return BuiltinEvaluator(), "builtin (GNU Backgammon is not installed: no true reference)"


class Judge:
    """Equity lost by a play against the reference's best, cached per position."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self._ranked: dict[tuple, dict[Play, float]] = {}

    def loss(self, position: Position, dice: tuple[int, int], play: Play) -> float:
        key = (position, dice)
        if key not in self._ranked:
            self._ranked[key] = dict(self.evaluator.evaluate_plays(position, *dice))
        ranked = self._ranked[key]
        if play not in ranked:
            ranked[play] = self.evaluator.equity(play.result)
        best = max(ranked.values())
        return max(0.0, best - ranked[play])


def p99(times: list[float]) -> float:
    """The 99th percentile in milliseconds."""
    ordered = sorted(times)
    return 1000.0 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def run_level(
    opponent: Opponent, cases: list, judge: Judge | None
) -> tuple[list[float], list[float], set[str]]:
    """Think times (s), losses and evaluators used, over ``cases``."""
    worker = OpponentWorker(opponent, time_limit=30.0)
    times, losses, used = [], [], set()
    try:
        worker.submit(*cases[0]).result()  # warm up (a program starts, caches fill)
        for position, dice in cases:
            start = time.perf_counter()
            chosen = worker.submit(position, dice).result()
            times.append(time.perf_counter() - start)
            used.add(chosen.evaluator)
            if judge is not None:
                losses.append(judge.loss(position, dice, chosen.play))
    finally:
        worker.close()
    return times, losses, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--gnubg-positions", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.gnubg_positions = min(args.positions, 4), min(args.gnubg_positions, 2)

    cases = draw_positions(args.seed, args.positions)
    ref, ref_name = reference()
    judge = Judge(ref)
    print(f"{len(cases)} positions (seed {args.seed}); reference: {ref_name}")
    result: dict = {"positions": len(cases), "seed": args.seed, "reference": ref_name}
    levels = {}
    for name, level in LEVELS.items():
        opponent = Opponent(name, seed=args.seed)
        times, losses, used = run_level(opponent, cases, judge)
        opponent.close()
        mean_loss = statistics.fmean(losses)
        levels[name] = {
            "mean_equity_loss": round(mean_loss, 4),
            "best_play_share": round(sum(x < 1e-6 for x in losses) / len(losses), 3),
            "worst_loss": round(max(losses), 4),
            "think_p99_ms": round(p99(times), 1),
            "think_mean_ms": round(1000 * statistics.fmean(times), 1),
            "evaluator": "+".join(sorted(used)),
            "plies": level.plies,
        }
        share = levels[name]["best_play_share"]
        print(
            f"{name:>12}: mean loss {mean_loss:.4f}, best play {share:.0%}"
            f", worst {max(losses):.3f}; think p99 {p99(times):.0f} ms "
            f"(mean {1000 * statistics.fmean(times):.0f} ms) with {levels[name]['evaluator']}"
        )
    result["levels"] = levels
    result["think_p99_ms"] = levels["expert"]["think_p99_ms"]
    fallback = Opponent("expert", evaluator=BuiltinEvaluator())
    times, losses, _ = run_level(fallback, cases, judge)
    result["expert_builtin"] = {
        "mean_equity_loss": round(statistics.fmean(losses), 4),
        "think_p99_ms": round(p99(times), 1),
    }
    print(
        f"expert with only the built-in evaluator (the fallback): mean loss "
        f"{statistics.fmean(losses):.4f}; think p99 {p99(times):.0f} ms"
    )
    if find_program() is not None and args.gnubg_positions > 0:
        program = GnubgExternalEvaluator(plies=LEVELS["expert"].plies)
        expert = Opponent("expert", evaluator=program)
        times, _, used = run_level(expert, cases[: args.gnubg_positions], None)
        expert.close()
        result["expert_gnubg_think_p99_ms"] = round(p99(times), 1)
        print(
            f"expert with the gnubg program ({'+'.join(sorted(used))}): think p99 "
            f"{p99(times):.0f} ms over {len(times)} positions"
        )
    else:
        result["expert_gnubg_think_p99_ms"] = None
        print("the gnubg program is not installed: expert not timed with it")
    ref.close()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
