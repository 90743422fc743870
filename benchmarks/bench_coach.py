"""Coach benchmark: the built-in evaluator against GNU Backgammon, and the time per rating.

It also asks ``kiosk coach-cube``'s coach (with the built-in net's chances, and with
gnubg-nn's) for the cube decision in a fixed set of positions (``cube_positions.txt``) and
reports how often action and response are the ``gnubg`` program's own (``cube_agreement``).

Over a fixed set of positions (``coach_positions.txt``: Position ID and roll, drawn from
games of GNU Backgammon's net with a seed of their own, not the built-in evaluator's
training seed), it prints how often the built-in evaluator's choice is GNU Backgammon's
(at the coach's default look-ahead), the mean equity the built-in choice gives up by
GNU Backgammon's reckoning, and the coach's time per rating with each evaluator present.
``agreement_with_ties`` also counts the positions where the built-in evaluator's play is not
GNU Backgammon's first but GNU Backgammon gives it the same equity (won or lost races).

The last line is one JSON object.

    python benchmarks/bench_coach.py [--plies 2] [--limit N] [--regenerate]
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

from kiosk.rules import Position  # noqa: E402
from kiosk.tutor.coach import Coach  # noqa: E402
from kiosk.tutor.evaluators import Evaluator  # noqa: E402
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator  # noqa: E402
from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program  # noqa: E402
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module  # noqa: E402

POSITIONS_FILE = Path(__file__).with_name("coach_positions.txt")
CUBE_FILE = Path(__file__).with_name("cube_positions.txt")
CUBE_CASES = 80
SEED = 7_100
GAMES = 40
EVERY = 5  # keep one position in five, so the set spans many games


def regenerate() -> None:
    """Draw the fixed positions again (needs gnubg-nn)."""
    from kiosk.tutor.evaluators.train import draw_positions

    drawn = draw_positions(SEED, GAMES)[::EVERY]
    POSITIONS_FILE.write_text(
        "# Position ID (side on roll to move) and roll; drawn by bench_coach.py --regenerate\n"
        + "".join(f"{p.position_id()} {d1} {d2}\n" for p, d1, d2 in drawn)
    )


def regenerate_cube() -> None:
    """Pick the fixed cube decisions again (needs gnubg-nn): positions of the checker-play
    set where the side on roll wins 55% to 95% cubeless, so a double is in question."""
    from kiosk.tutor.evaluators.gnubg_nn import tan_board

    module = load_module()
    chosen: list[str] = []
    for position, _d1, _d2 in load():
        win = module.probabilities(tan_board(position), 0)[0]
        if 0.55 <= win <= 0.95 and position.position_id() not in chosen:
            chosen.append(position.position_id())
    CUBE_FILE.write_text(
        "# Position ID (side on roll, before throwing), money play, cube in the middle;\n"
        "# drawn by bench_coach.py --regenerate\n" + "".join(f"{p}\n" for p in chosen[:CUBE_CASES])
    )


def cube_agreement(evaluator: str) -> tuple[float | None, int, float]:
    """How often ``kiosk coach-cube``'s action and response are GNU Backgammon's (the
    ``gnubg`` program's own cube decisions over its external-player socket), and the
    milliseconds per decision. None without the program."""
    from kiosk.tutor.cube import CubeCoach, chances_function
    from kiosk.tutor.evaluators.gnubg_external import fibs_board

    ids = [line for line in CUBE_FILE.read_text().splitlines() if line and line[0] != "#"]
    coach = CubeCoach(*chances_function(evaluator))
    start = time.perf_counter()
    decisions = [coach.decide(Position.from_id(pid)) for pid in ids]
    ms = 1000 * (time.perf_counter() - start) / max(1, len(ids))
    if find_program() is None:
        return None, len(ids), ms
    # Money play as the coach teaches it: gammons count with the cube in the middle.
    program = GnubgExternalEvaluator(plies=0, settings=("set jacoby off",))
    same = 0
    try:
        for pid, mine in zip(ids, decisions, strict=True):
            fields = fibs_board(Position.from_id(pid)).split(":")
            action = program.request(":".join(fields))
            fields[40] = "1"  # the side on roll has doubled: the other side answers
            response = program.request(":".join(fields))
            same += (action == "double") == (mine.action == "double") and (
                (response in ("take", "beaver")) == (mine.response == "take")
            )
    finally:
        program.close()
    return same / max(1, len(ids)), len(ids), ms


def load() -> list[tuple[Position, int, int]]:
    """The benchmark's positions."""
    cases = []
    for line in POSITIONS_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pid, d1, d2 = line.split()
            cases.append((Position.from_id(pid), int(d1), int(d2)))
    return cases


def time_ratings(evaluator: Evaluator, cases, limit: int) -> float:
    """Milliseconds per coach rating (of a random legal play) over the first ``limit`` cases."""
    coach = Coach(evaluator)
    rng = random.Random(1)
    chosen = cases[:limit]
    start = time.perf_counter()
    for position, d1, d2 in chosen:
        play = rng.choice(position.legal_plays(d1, d2))
        coach.rate(position, (d1, d2), play)
    elapsed = time.perf_counter() - start
    coach.close()
    return 1000 * elapsed / max(1, len(chosen))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's look-ahead")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N positions")
    parser.add_argument(
        "--program-limit", type=int, default=20, help="positions timed with the gnubg program"
    )
    parser.add_argument("--regenerate", action="store_true", help="draw the positions again")
    args = parser.parse_args()
    if args.regenerate:
        regenerate()
        regenerate_cube()
    cases = load()
    if args.limit:
        cases = cases[: args.limit]

    reference: Evaluator | None = None
    if load_module() is not None:
        reference = GnubgNNEvaluator(plies=args.plies)
    elif find_program() is not None:
        reference = GnubgExternalEvaluator(plies=args.plies)
    builtin = BuiltinEvaluator()

    agree = tied = 0
    losses = []
    for position, d1, d2 in cases:
        mine = builtin.evaluate_plays(position, d1, d2)[0][0]
        if reference is None:
            continue
        ranked = reference.evaluate_plays(position, d1, d2, keep=mine)
        best, best_equity = ranked[0]
        equity = next(e for p, e in ranked if p == mine)
        agree += mine == best
        tied += mine != best and best_equity - equity < 1e-6  # GNU Backgammon rates them equal
        losses.append(max(0.0, best_equity - equity))
    name = f"{reference.name} {args.plies}-ply" if reference else None
    if reference is not None:
        reference.close()

    timings = {"builtin": round(time_ratings(builtin, cases, len(cases)), 2)}
    if load_module() is not None:
        nn = GnubgNNEvaluator(plies=args.plies)
        timings["gnubg-nn"] = round(time_ratings(nn, cases, len(cases)), 2)
    if find_program() is not None:
        program = GnubgExternalEvaluator(plies=args.plies)
        program.equity(Position.standard().swap_turn())  # start it outside the timing
        timings["gnubg"] = round(time_ratings(program, cases, args.program_limit), 2)

    cube, cube_cases, cube_ms = cube_agreement("builtin")
    cube_nn = cube_agreement("gnubg-nn")[0] if load_module() is not None else None
    figures = {
        "positions": len(cases),
        "reference": name,
        "agreement": round(agree / len(cases), 4) if losses else None,
        "agreement_with_ties": round((agree + tied) / len(cases), 4) if losses else None,
        "mean_equity_loss": round(statistics.fmean(losses), 4) if losses else None,
        "ms_per_rating": timings,
        "cube_decisions": cube_cases,
        "cube_agreement": None if cube is None else round(cube, 4),
        "cube_agreement_gnubg_nn": None if cube_nn is None else round(cube_nn, 4),
        "ms_per_cube_decision": round(cube_ms, 2),
    }
    print(f"{len(cases)} positions; reference {name or 'none available'}")
    if losses:
        print(f"built-in picks GNU Backgammon's play in {agree} of {len(cases)}")
        print(f"and in {tied} more a play GNU Backgammon rates equal to its own")
        print(f"built-in mean equity loss {figures['mean_equity_loss']}")
    for evaluator, ms in timings.items():
        print(f"coach rating with {evaluator}: {ms} ms")
    print(f"coach-cube (built-in chances) agrees with GNU Backgammon on {cube} of {cube_cases}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
