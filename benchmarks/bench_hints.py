"""Graded destinations benchmark: the time to weigh every play of a roll (in the coach's
thread, as the dice land) and the time to grade one lifted man (on the loop, a walk over
the roll's partial plays), over the coach benchmark's positions (``coach_positions.txt``).

It prints, for the built-in evaluator and for gnubg-nn where it is installed (at the
coach's default look-ahead), the mean and the slowest weighing of a roll in
milliseconds, and the mean and slowest grading of a lift in microseconds (every man
that may move, from the start of the play). The last line is one JSON object.

``landed_ms_p50``/``landed_ms_p99``: when a person's dice land, the coach's thread both
prepares the verdict (:meth:`Coach.prepare`, ranking the roll's plays) and weighs them for
the graded hints (:meth:`Coach.grade_roll`); the CPU milliseconds until both are done, and
``rankings_per_roll``, how many times the evaluator was asked to rank the roll for them
(2 when each did its own, 1 when one serves the other).

    python benchmarks/bench_hints.py [--limit N] [--plies 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.rules import Position  # noqa: E402
from kiosk.tutor.evaluators import Evaluator  # noqa: E402
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator  # noqa: E402
from kiosk.tutor.hints import RollGrades  # noqa: E402

POSITIONS_FILE = Path(__file__).with_name("coach_positions.txt")


def load(limit: int) -> list[tuple[Position, tuple[int, int]]]:
    """The first ``limit`` of the coach benchmark's positions and rolls."""
    cases = []
    for line in POSITIONS_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pid, d1, d2 = line.split()
            cases.append((Position.from_id(pid), (int(d1), int(d2))))
    return cases[:limit]


def measure(
    evaluator: Evaluator, cases: list[tuple[Position, tuple[int, int]]]
) -> dict[str, float]:
    """Milliseconds a roll's weighing takes, microseconds a lift's grading takes."""
    weigh_ms: list[float] = []
    lift_us: list[float] = []
    for position, dice in cases:
        start = time.perf_counter()
        grades = RollGrades.rate(position, dice, evaluator)
        weigh_ms.append((time.perf_counter() - start) * 1000)
        for src in grades.tree.movable(position):
            start = time.perf_counter()
            grades.destinations(position, src)
            lift_us.append((time.perf_counter() - start) * 1e6)
    return {
        "weigh_ms_mean": round(statistics.mean(weigh_ms), 1),
        "weigh_ms_max": round(max(weigh_ms), 1),
        "lift_us_mean": round(statistics.mean(lift_us), 1) if lift_us else 0.0,
        "lift_us_max": round(max(lift_us), 1) if lift_us else 0.0,
    }


def measure_landed(
    evaluator: Evaluator, cases: list[tuple[Position, tuple[int, int]]]
) -> dict[str, float]:
    """The coach's work when the dice land (its preparation and the hints' grades): the
    milliseconds a roll, and the rankings of the roll the evaluator was asked for."""
    from kiosk.tutor.coach import Coach

    asked = 0
    rank = evaluator.evaluate_plays

    def counted(*args: object, **kw: object) -> object:
        nonlocal asked
        asked += 1
        return rank(*args, **kw)  # type: ignore[arg-type]

    evaluator.evaluate_plays = counted  # type: ignore[method-assign,assignment]
    coach = Coach(evaluator)
    times: list[float] = []
    weighed = 0
    for position, dice in cases:
        start = time.thread_time()  # CPU time: other work on the machine does not count
        coach.prepare(position, dice)
        coach.grade_roll(position, dice)
        times.append((time.thread_time() - start) * 1000)
        weighed += len(position.legal_plays(*dice)) > 1
    times.sort()
    return {
        "landed_ms_p50": round(statistics.median(times), 1),
        "landed_ms_p99": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "rankings_per_roll": round(asked / max(1, weighed), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=60, help="positions to use")
    parser.add_argument("--plies", type=int, default=2, help="gnubg-nn's look-ahead")
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    if args.quick:
        args.limit = min(args.limit, 5)
    cases = load(args.limit)
    result: dict[str, object] = {"positions": len(cases)}
    evaluators: list[tuple[str, Callable[[], Evaluator]]] = [("builtin", BuiltinEvaluator)]
    from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module

    if load_module() is not None:
        evaluators.append(("gnubg_nn", lambda: GnubgNNEvaluator(plies=args.plies)))
    for name, make in evaluators:
        evaluator = make()
        figures = measure(evaluator, cases)
        figures.update(measure_landed(make(), cases))
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
        result.update({f"{name}_{k}": v for k, v in figures.items()})
        evaluator.close()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
