"""Time from a settled frame to the referee's verdict, over many positions and rolls.

For each (position, roll) of the rules benchmark's fixed set (contact, race, bar,
bear-off, doublets) the referee is given the dice, then three settled boards: a
legal first step, a wrong placement, and a complete play. Each verdict is timed from
the frame arriving to the event. The time to prepare a roll (building the partial-play
index when the dice are read) is reported separately, in wall-clock time (the target:
p99 under 8 ms, worst under 25 ms here) and in the process's CPU time, which other
work on a shared machine does not inflate; the load average is printed beside them.
As the table's application does after start-up, the objects made before the timing
starts are frozen out of the garbage collector (``gc.freeze``), and the events are
counted, not kept, so that a collection pause measures the referee, not the bench's
own growing lists.

Run: .venv/bin/python benchmarks/bench_referee.py [--cases N] [--quick]
The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from positions import position_rolls  # noqa: E402

from kiosk.link import TableLayout  # noqa: E402
from kiosk.referee import Referee, RefereeConfig  # noqa: E402
from kiosk.rules import Game, Phase, Position  # noqa: E402
from kiosk.rules.moves import apply_step  # noqa: E402
from kiosk.table import (
    TableReading,
    project,  # noqa: E402
)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _wrong_board(position, layout, rng):
    """A board with one of the mover's men moved a distance no die fits (if one can be found)."""
    me = position.turn
    for _ in range(20):
        src = rng.choice([p for p in range(1, 25) if position.count(me, p)] or [0])
        if not src:
            return None
        dst = src - 7 if src > 7 else None
        if dst and position.count(me.other, 25 - dst) == 0:
            men = [list(position.men[0]), list(position.men[1])]
            men[me][src - 1] -= 1
            men[me][dst - 1] += 1
            return project(Position((men[0], men[1]), position.off, me, validate=False), layout)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    if args.quick:
        args.cases = min(args.cases, 100)
    layout = TableLayout()
    rng = random.Random(7)
    cases = position_rolls()[: args.cases]
    verdict_ms: list[float] = []
    prepare_ms: list[float] = []
    prepare_cpu_ms: list[float] = []
    events = 0

    def emit(event: dict) -> None:
        nonlocal events
        events += 1

    gc.collect()
    gc.freeze()
    for position, d1, d2 in cases:
        if position.winner() is not None:
            continue
        game = Game(position=position, phase=Phase.ROLL)
        referee = Referee(game, layout, RefereeConfig(settle_ms=0), emit=emit)
        t0, c0 = time.perf_counter(), time.process_time()
        referee.throw(d1, d2, 0)
        prepare_ms.append((time.perf_counter() - t0) * 1000)
        prepare_cpu_ms.append((time.process_time() - c0) * 1000)
        if game.phase != Phase.PLAY:
            continue  # no legal play: the turn ended by itself
        play = rng.choice(position.legal_plays(d1, d2))
        boards = [project(apply_step(position, play.steps[0]), layout)]
        wrong = _wrong_board(position, layout, rng)
        if wrong is not None:
            boards.append(wrong)
        boards.append(project(play.result.swap_turn(), layout))
        now = 1
        for board in boards:
            t0 = time.perf_counter()
            referee.sense(TableReading.of(board, "polarity"), now)
            referee.tick(now)
            verdict_ms.append((time.perf_counter() - t0) * 1000)
            now += 1
    figures = {
        "p50_ms": round(_percentile(verdict_ms, 0.50), 4),
        "p99_ms": round(_percentile(verdict_ms, 0.99), 4),
        "worst_ms": round(max(verdict_ms), 4),
        "mean_ms": round(statistics.fmean(verdict_ms), 4),
        "verdicts": len(verdict_ms),
        "prepare_p50_ms": round(_percentile(prepare_ms, 0.50), 3),
        "prepare_p99_ms": round(_percentile(prepare_ms, 0.99), 3),
        "prepare_worst_ms": round(max(prepare_ms), 3),
        "prepare_cpu_p99_ms": round(_percentile(prepare_cpu_ms, 0.99), 3),
        "prepare_cpu_worst_ms": round(max(prepare_cpu_ms), 3),
        "cases": len(prepare_ms),
        "events": events,
        "target_p99_ms": 5.0,
        "target_prepare_p99_ms": 8.0,
        "target_prepare_worst_ms": 25.0,
        "load_average": round(os.getloadavg()[0], 2),
    }
    print(
        f"frame -> verdict over {figures['verdicts']} settled boards: p50 {figures['p50_ms']} ms,"
        f" p99 {figures['p99_ms']} ms, worst {figures['worst_ms']} ms"
    )
    print(
        f"preparing a roll (dice read -> partial-play index) over {figures['cases']} cases: "
        f"p50 {figures['prepare_p50_ms']} ms, p99 {figures['prepare_p99_ms']} ms, "
        f"worst {figures['prepare_worst_ms']} ms "
        f"(CPU time: p99 {figures['prepare_cpu_p99_ms']} ms, "
        f"worst {figures['prepare_cpu_worst_ms']} ms; load average {figures['load_average']})"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
