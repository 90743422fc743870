"""Rules benchmark: legal-play generation throughput, ours against OpenSpiel and GNU Backgammon.

Run ``.venv/bin/python benchmarks/bench_rules.py`` (``--profile`` to always profile the
slowest cases, ``--quick`` for a short run). Over the fixed set of ``benchmarks/positions.py``
(a few thousand position+roll pairs from fixed-seed games: contact, races, bar, bear-off,
doublets; ``--quick``: 150) it times:

1. ``kiosk.rules.generate`` in process (not the cached ``legal_plays``): plays per second
   (plays generated / time spent generating), median and worst time per position+roll,
   each case timed as the best of ``REPEATS`` runs so that a stray pause does not count;
2. ``kiosk plays --batch`` as a subprocess: every line piped in at once (wall time,
   interpreter start included, best of ``REPEATS`` runs, and plays per second), then one
   line at a time with unbuffered output for the latency per line (median and worst, pipe
   round trip included);
3. OpenSpiel through its Python API: per case, throw the dice on a copy of the chance-node
   state reached beforehand (OpenSpiel cannot set a position directly; see
   ``tests/rules/oracles.py``), ``legal_actions()``, apply each action (and the second half
   of a doublet) on a copy and count the distinct boards;
4. GNU Backgammon's C generator (``gnubg_nn.moves``), where ``gnubg-nn`` is installed.

Each engine's count of plays is checked against ours. The figures are printed with the
ratios (ours / theirs in plays per second). ``ratio_batch_openspiel`` sets the whole
``kiosk plays --batch`` run, start-up included, against a whole OpenSpiel pass over the same
cases, the two timed turn about (best of ``REPEATS`` each) so that load from other work on
the machine falls on both alike, the median of ``TURN_ABOUT`` runs each
(``ratio_batch_openspiel_cpu``: the same by CPU seconds, which a busy machine disturbs
least); ``ratio_batch_openspiel_played``/``_played_cpu``: the same on a second mix, the
positions of whole games with only the rolls thrown in them (no extra rolls in interesting
positions, so openings and the common middle game weigh as in play);
``ratio_batch_openspiel_sequential`` is the batch's rate
against OpenSpiel's best-per-case rate, timed one after the other. The last line is one
JSON object. Targets: faster than OpenSpiel through Python, the batch at least
2 times OpenSpiel, median under 0.5 ms, worst under 20 ms; if one is missed the slowest
cases are profiled with cProfile.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import positions  # noqa: E402  (puts the repo root and tests/rules on sys.path)
from oracles import OpenSpielOracle, categories, gnubg_board  # noqa: E402

from kiosk.rules import generate  # noqa: E402

REPEATS = 3
QUICK_CASES = 150  # the cases of a short run (``--quick``)
TURN_ABOUT = 5  # runs of each, the batch and OpenSpiel, taken turn about: their medians
PLAYED_SEED = 34_034  # games whose thrown rolls alone make the second mix (no extra rolls)
TARGET_MEDIAN_MS = 0.5
TARGET_WORST_MS = 20.0
TARGET_BATCH_RATIO = 2.0  # kiosk plays --batch (start-up included) against OpenSpiel
KIOSK = [sys.executable, "-m", "kiosk", "plays", "--batch"]


def summary(name: str, plays: int, times: list[float]) -> dict:
    total = sum(times)
    row = {
        "plays_per_s": plays / total,
        "median_ms": statistics.median(times) * 1e3,
        "worst_ms": max(times) * 1e3,
        "total_s": total,
    }
    print(
        f"{name:<22} {row['plays_per_s']:>11,.0f} plays/s   median {row['median_ms']:7.3f} ms"
        f"   worst {row['worst_ms']:8.3f} ms   total {total:7.3f} s"
    )
    return row


def best_of(cases: list, run) -> tuple[list[int], list[float]]:
    """Each case's count from ``run(i, case)`` and its best time over ``REPEATS`` runs."""
    counts = [0] * len(cases)
    best = [float("inf")] * len(cases)
    clock = time.perf_counter
    for _ in range(REPEATS):
        for i, case in enumerate(cases):
            t0 = clock()
            n = run(i, case)
            dt = clock() - t0
            if dt < best[i]:
                best[i] = dt
            counts[i] = n
    return counts, best


def bench_ours(cases: list) -> tuple[list[int], list[float]]:
    return best_of(cases, lambda i, c: len(generate(*c)))


def bench_batch(cases: list, expected: list[int]) -> dict:
    lines = "".join(f"{p.position_id()} {d1} {d2}\n" for p, d1, d2 in cases)
    # each timed as the best of REPEATS runs, as the in-process figures are
    startup = wall = float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        subprocess.run(KIOSK, input="", capture_output=True, text=True, check=True)
        startup = min(startup, time.perf_counter() - t0)
        t0 = time.perf_counter()
        done = subprocess.run(KIOSK, input=lines, capture_output=True, text=True, check=True)
        wall = min(wall, time.perf_counter() - t0)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    counts = [len(a["plays"]) for a in answers]
    plays = sum(counts)
    mismatched = sum(1 for a, b in zip(counts, expected, strict=True) if a != b)

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    latencies = []
    with subprocess.Popen(
        KIOSK, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        # start-up (interpreter, imports) is timed above; warm up before timing lines
        proc.stdin.write("4HPwATDgc/ABMA 3 1\n")
        proc.stdin.flush()
        proc.stdout.readline()
        for line in lines.splitlines(keepends=True):
            t0 = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            proc.stdout.readline()
            latencies.append(time.perf_counter() - t0)
        proc.stdin.close()
    row = {
        "plays_per_s": plays / wall,
        "plays_per_s_after_startup": plays / max(wall - startup, 1e-9),
        "wall_s": wall,
        "startup_s": startup,
        "median_ms": statistics.median(latencies) * 1e3,
        "worst_ms": max(latencies) * 1e3,
        "mismatched": mismatched,
    }
    print(
        f"{'kiosk plays --batch':<22} {row['plays_per_s']:>11,.0f} plays/s   "
        f"(wall {wall:.2f} s incl. start-up {startup:.2f} s; "
        f"{row['plays_per_s_after_startup']:,.0f} plays/s after start-up)"
    )
    print(
        f"{'  one line at a time':<22} median {row['median_ms']:7.3f} ms   "
        f"worst {row['worst_ms']:8.3f} ms   (pipe round trip included)"
    )
    return row


def bench_openspiel(
    records: list, cases: list, per_case: bool = True
) -> tuple[list[int], list[float], Callable[[], tuple[float, float]]] | None:
    """OpenSpiel's counts and best time per case (unless not ``per_case``: empty), and a
    function timing one whole pass."""
    try:
        oracle = OpenSpielOracle()
    except ImportError:
        print("OpenSpiel (pyspiel) not installed: skipped")
        return None
    prepared = []  # (chance-node state, d1, d2, opening) for each case, in order
    for game in records:
        for i, (turn, state) in enumerate(oracle.replay(game)):
            for d1, d2 in turn.rolls:
                prepared.append((state, d1, d2, i == 0))
    assert len(prepared) == len(cases)

    def run(i: int, case: tuple) -> int:
        state, d1, d2, opening = case
        return oracle.count_plays(oracle.roll(state, d1, d2, opening=opening))

    def one_pass() -> tuple[float, float]:
        """Wall and CPU seconds of one whole pass."""
        t0, c0 = time.perf_counter(), time.process_time()
        for i, case in enumerate(prepared):
            run(i, case)
        return time.perf_counter() - t0, time.process_time() - c0

    return (*(best_of(prepared, run) if per_case else ([], [])), one_pass)


def children_cpu() -> float:
    """CPU seconds used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def turn_about(cases: list, plays: int, openspiel_pass: Callable[[], tuple[float, float]]) -> dict:
    """``kiosk plays --batch`` (a whole run, start-up included) against OpenSpiel (a whole
    pass), each the median of ``TURN_ABOUT`` runs taken turn about, so that whatever else
    loads the machine falls on both alike; by wall time and by CPU time (the CPU time a
    busy machine disturbs least)."""
    lines = "".join(f"{p.position_id()} {d1} {d2}\n" for p, d1, d2 in cases)
    batches, openspiels = [], []  # (wall, CPU) of each run
    for _ in range(TURN_ABOUT):
        t0, c0 = time.perf_counter(), children_cpu()
        subprocess.run(KIOSK, input=lines, capture_output=True, text=True, check=True)
        batches.append((time.perf_counter() - t0, children_cpu() - c0))
        openspiels.append(openspiel_pass())
    batch = [statistics.median(run[i] for run in batches) for i in (0, 1)]
    openspiel = [statistics.median(run[i] for run in openspiels) for i in (0, 1)]
    row = {
        "batch_plays_per_s": plays / batch[0],
        "openspiel_plays_per_s": plays / openspiel[0],
        "ratio": openspiel[0] / batch[0],
        "ratio_cpu": openspiel[1] / batch[1],
    }
    print(
        f"  turn about: kiosk plays --batch {row['batch_plays_per_s']:,.0f} plays/s, "
        f"OpenSpiel {row['openspiel_plays_per_s']:,.0f} plays/s: {row['ratio']:.3f} x by wall "
        f"time, {row['ratio_cpu']:.3f} x by CPU time (target at least {TARGET_BATCH_RATIO})"
    )
    return row


def bench_gnubg(cases: list) -> tuple[list[int], list[float]] | None:
    try:
        import gnubg_nn
    except ImportError:
        print("GNU Backgammon (gnubg-nn) not installed: skipped")
        return None
    moves = gnubg_nn.moves

    def run(i: int, case: tuple) -> int:
        position, d1, d2 = case
        return len(moves(gnubg_board(position), d1, d2)) or 1  # no play: one empty play

    return best_of(cases, run)


def profile_worst(cases: list, times: list[float], n: int = 20) -> None:
    worst = sorted(range(len(cases)), key=times.__getitem__, reverse=True)[:n]
    print(f"\nProfile of the {n} slowest cases (x20 each):")
    for i in worst[:5]:
        p, d1, d2 = cases[i]
        print(f"  {p.position_id()} {p.turn} {d1}-{d2}: {times[i] * 1e3:.3f} ms")
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(20):
        for i in worst:
            generate(*cases[i])
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(10)
    print(out.getvalue())


def main(argv: list[str]) -> int:
    global REPEATS, TURN_ABOUT
    started = time.perf_counter()
    quick = "--quick" in argv
    if quick:  # a short run (make test, make bench QUICK=1): fewer cases, each run once
        REPEATS = TURN_ABOUT = 1
    records = positions.games(QUICK_CASES if quick else positions.N_CASES)
    cases = positions.position_rolls(records)
    doublets = sum(1 for _, d1, d2 in cases if d1 == d2)
    print(f"{len(cases)} position+roll pairs ({doublets} doublets), best of {REPEATS} runs each\n")

    kinds: Counter = Counter()
    for p, d1, d2 in cases:
        kinds.update(categories(p, d1, d2, generate(p, d1, d2)))
    print("cases: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) + "\n")

    counts, times = bench_ours(cases)
    plays = sum(counts)
    ours = summary("ours (generate)", plays, times)
    result = {
        "plays_per_s": round(ours["plays_per_s"]),
        "median_ms": round(ours["median_ms"], 4),
        "worst_ms": round(ours["worst_ms"], 3),
        "positions": len(cases),
        "plays": plays,
    }

    batch = bench_batch(cases, counts)
    result["batch_plays_per_s"] = round(batch["plays_per_s"])
    result["batch_median_ms"] = round(batch["median_ms"], 4)
    result["batch_worst_ms"] = round(batch["worst_ms"], 3)
    if batch["mismatched"]:
        print(f"  !! {batch['mismatched']} cases where the batch answer's count differs")

    for name, found in (
        ("openspiel", bench_openspiel(records, cases)),
        ("gnubg", bench_gnubg(cases)),
    ):
        if found is None:
            continue
        their_counts, their_times = found[:2]
        row = summary(f"{name}", sum(their_counts), their_times)
        differ = sum(1 for a, b in zip(counts, their_counts, strict=True) if a != b)
        if differ:
            print(f"  !! {name} counts differ from ours in {differ} cases")
        result[f"{name}_plays_per_s"] = round(row["plays_per_s"])
        result[f"{name}_median_ms"] = round(row["median_ms"], 4)
        result[f"ratio_{name}"] = round(ours["plays_per_s"] / row["plays_per_s"], 3)
        print(f"  ours / {name}: {result[f'ratio_{name}']:.3f} x (plays per second)")
        if name == "openspiel":
            sequential = batch["plays_per_s"] / row["plays_per_s"]
            result["ratio_batch_openspiel_sequential"] = round(sequential, 3)
            print(f"  kiosk plays --batch / {name} (timed one after the other): {sequential:.3f} x")
            both = turn_about(cases, plays, found[2])
            result["batch_turn_about_plays_per_s"] = round(both["batch_plays_per_s"])
            result["openspiel_turn_about_plays_per_s"] = round(both["openspiel_plays_per_s"])
            result["ratio_batch_openspiel"] = round(both["ratio"], 3)
            result["ratio_batch_openspiel_cpu"] = round(both["ratio_cpu"], 3)
            games = QUICK_CASES if quick else positions.N_CASES
            played = positions.draw_games(PLAYED_SEED, games, extra_rolls=0)
            played_cases = list(positions.cases(played))
            found_played = bench_openspiel(played, played_cases, per_case=False)
            assert found_played is not None
            print(f"  the mix of rolls thrown in {len(played)} games ({len(played_cases)} cases):")
            also = turn_about(
                played_cases,
                sum(len(generate(*c)) for c in played_cases),
                found_played[2],
            )
            result["ratio_batch_openspiel_played"] = round(also["ratio"], 3)
            result["ratio_batch_openspiel_played_cpu"] = round(also["ratio_cpu"], 3)

    met = {
        "faster_than_openspiel": result.get("ratio_openspiel", float("inf")) > 1,
        "batch_2x_openspiel": min(
            result.get(f"ratio_batch_openspiel{kind}", float("inf"))
            for kind in ("", "_cpu", "_played", "_played_cpu")
        )
        >= TARGET_BATCH_RATIO,
        "median_under_0.5ms": ours["median_ms"] < TARGET_MEDIAN_MS,
        "worst_under_20ms": ours["worst_ms"] < TARGET_WORST_MS,
    }
    result["targets_met"] = all(met.values())
    print("\ntargets: " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in met.items()))
    if not (result["targets_met"] or quick) or "--profile" in argv:
        profile_worst(cases, times)
    print(f"benchmark took {time.perf_counter() - started:.1f} s")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
