"""Coach benchmark: the built-in evaluator against GNU Backgammon, and the time per rating.

It also asks ``kiosk coach-cube``'s coach (with gnubg-nn at 2-ply where it is installed,
and with the built-in net at 1-ply) for the cube decisions of a fixed set
(``cube_positions.txt``: 100 in money play, 100 at match scores, each with a clear answer)
and reports how often action (double or not) and response (take or pass) are GNU
Backgammon's own cubeful 2-ply ones (``cube_agreement_money``, ``cube_agreement_match``),
asked of the ``gnubg`` program where it is installed, else as recorded in the file.

Over a fixed set of positions (``coach_positions.txt``: Position ID and roll, drawn from
games of GNU Backgammon's net with a seed of their own, not the built-in evaluator's
training seed), it prints how often the built-in evaluator's choice is GNU Backgammon's
(at the coach's default look-ahead), the mean equity the built-in choice gives up by
GNU Backgammon's reckoning, and the coach's time per rating with each evaluator present.
``agreement_with_ties`` also counts the positions where the built-in evaluator's play is not
GNU Backgammon's first but GNU Backgammon gives it the same equity (won or lost races).

``table_play``: the milliseconds from the table's dice landing (in a game against it) to
its play chosen, p50 and p99 with each evaluator at the table's depth (its levels' 0-ply),
with its plays ranked ahead while its dice are thrown and without.

The last line is one JSON object.

    python benchmarks/bench_coach.py [--plies 2] [--limit N] [--regenerate] [--quick]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.rules import Position  # noqa: E402
from kiosk.tutor.coach import Coach  # noqa: E402
from kiosk.tutor.cube import CubeState  # noqa: E402
from kiosk.tutor.evaluators import Evaluator  # noqa: E402
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator  # noqa: E402
from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program  # noqa: E402
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module  # noqa: E402
from kiosk.tutor.opponent import DEFAULT_LEVEL, LEVELS, Opponent, OpponentWorker  # noqa: E402

POSITIONS_FILE = Path(__file__).with_name("coach_positions.txt")
CUBE_FILE = Path(__file__).with_name("cube_positions.txt")
SEED = 7_100
GAMES = 40
THINK_S = 2.0  # a player's thinking before Done, in the verdict-after-Done figures
THROW_S = 2.0  # the visitor throwing the table's dice, in the table's-play figures
EVERY = 5  # keep one position in five, so the set spans many games


def regenerate() -> None:
    """Draw the fixed positions again (needs gnubg-nn)."""
    from kiosk.tutor.evaluators.train import draw_positions

    drawn = draw_positions(SEED, GAMES)[::EVERY]
    POSITIONS_FILE.write_text(
        "# Position ID (side on roll to move) and roll; drawn by bench_coach.py --regenerate\n"
        + "".join(f"{p.position_id()} {d1} {d2}\n" for p, d1, d2 in drawn)
    )


#: Match scores (side on roll away, opponent away) the cube decisions are asked at.
MATCH_SCORES = [
    (3, 3), (3, 2), (2, 3), (4, 2), (2, 4), (5, 3), (3, 5), (4, 4),
    (5, 5), (7, 4), (4, 7), (2, 2), (6, 3), (3, 6), (9, 9),
]  # fmt: skip
#: A decision is kept only if GNU Backgammon's answer is clear: the chosen action beats the
#: other by at least this much, and so does the chosen response (its equity units).
CLEAR = 0.02
CUBE_EACH = 100  # money decisions, and as many at match scores


@dataclass(frozen=True)
class CubeCase:
    """One cube decision of the benchmark: the position (side on roll, before throwing),
    the match (0: money) and each side's points away, the cube and its owner."""

    position_id: str
    match: int = 0
    away: int = 0
    opp_away: int = 0
    value: int = 1
    owner: str = "centre"  # centre or me (the side on roll); never the other's
    answer: tuple[str, str] = ("", "")  # GNU Backgammon's, as recorded

    def state(self) -> CubeState:
        from kiosk.rules import WHITE

        owner = WHITE if self.owner == "me" else None
        score = (self.match - self.away, self.match - self.opp_away) if self.match else (0, 0)
        return CubeState(self.value, owner, self.match, score)

    def line(self) -> str:
        return (
            f"{self.position_id} {self.match} {self.away} {self.opp_away} {self.value} "
            f"{self.owner} {self.answer[0]} {self.answer[1]}"
        )


def gnubg_cube_analysis(cases: list[CubeCase], plies: int = 2) -> list[tuple[str, str, float]]:
    """GNU Backgammon's own cube analysis of each case at ``plies`` (its ``hint``, as the
    ``gnubg`` program prints it; Jacoby off): ``(action, response, margin)``, the action
    ``double`` or ``no-double`` (too good counts as no double), the response ``take`` or
    ``pass``, and by how much the closer of the two choices is settled."""
    import re
    import subprocess

    lines = ["set jacoby off", f"set evaluation cubedecision evaluation plies {plies}"]
    for case in cases:
        if case.match:
            score = f"{case.match - case.opp_away} {case.match - case.away}"  # gnubg, then us
            lines += [f"new match {case.match}", f"set score {score}"]
        else:
            lines.append("new session")
        lines += [f"set board {case.position_id}", "set turn 1"]
        if case.value > 1:
            lines.append(f"set cube value {case.value}")
        if case.owner == "me":
            lines.append("set cube owner 1")
        lines += ["hint", "show score"]
    done = subprocess.run(
        [str(find_program()), "-t", "-q"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    )
    pieces = done.stdout.split("The score (after")
    found = re.compile(r"Proper cube action: ([^(\n]*)")
    equity = re.compile(
        r"\d\. (No double|No redouble|(?:Re)?[Dd]ouble, (?:pass|take))\s+([+-]\d\.\d+)"
    )
    out, at = [], 0
    for case in cases:
        at += bool(case.match)  # "set score" says the score too
        text = pieces[at].partition("Cube analysis")[2]
        at += 1
        proper = found.search(text)
        equities = {
            name.replace("No redouble", "No double").replace("Redouble", "Double"): float(value)
            for name, value in equity.findall(text)
        }
        if not proper or len(equities) != 3:
            out.append(("", "", 0.0))
            continue
        words = proper.group(1).strip()
        nd, dt, dp = (equities[k] for k in ("No double", "Double, take", "Double, pass"))
        action = "double" if words.startswith(("Double", "Redouble", "Optional")) else "no-double"
        response = "pass" if "pass" in words else "take"
        out.append((action, response, min(abs(nd - min(dt, dp)), abs(dt - dp))))
    return out


def regenerate_cube() -> None:
    """Pick the cube decisions again (needs gnubg-nn and the gnubg program): positions of
    the checker-play set where the side on roll wins 50% to 97% cubeless, in money play
    (cube in the middle, or its own at 2) and at two match scores each, kept where GNU
    Backgammon's 2-ply answer is clear (:data:`CLEAR`)."""
    from kiosk.tutor.evaluators.gnubg_nn import tan_board

    module = load_module()
    rng = random.Random(SEED)
    cases: list[CubeCase] = []
    seen: set[str] = set()
    for position, _d1, _d2 in load():
        pid = position.position_id()
        win = module.probabilities(tan_board(position), 0)[0]
        if pid in seen or not 0.5 <= win <= 0.97:
            continue
        seen.add(pid)
        cases.append(CubeCase(pid))
        if rng.random() < 0.3:
            cases.append(CubeCase(pid, value=2, owner="me"))
        for _ in range(2):
            away, opp_away = rng.choice(MATCH_SCORES)
            match = max(3, max(away, opp_away) + rng.choice([0, 0, 2]))
            cases.append(CubeCase(pid, match, away, opp_away))
    kept: dict[bool, list[CubeCase]] = {False: [], True: []}
    for case, (action, response, margin) in zip(cases, gnubg_cube_analysis(cases), strict=True):
        chosen = kept[bool(case.match)]
        if action and margin >= CLEAR and len(chosen) < CUBE_EACH:
            chosen.append(
                CubeCase(
                    case.position_id,
                    case.match,
                    case.away,
                    case.opp_away,
                    case.value,
                    case.owner,
                    (action, response),
                )
            )
    CUBE_FILE.write_text(
        "# Cube decisions: Position ID (side on roll, before throwing), match length (0: money),\n"
        "# points away (side on roll, opponent), cube value and owner (centre or me), and GNU\n"
        "# Backgammon 1.07's 2-ply answer (action, response), clear by at least "
        f"{CLEAR} in equity;\n# drawn by bench_coach.py --regenerate\n"
        + "".join(c.line() + "\n" for c in kept[False] + kept[True])
    )


def load_cube() -> list[CubeCase]:
    """The benchmark's cube decisions."""
    cases = []
    for line in CUBE_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            pid, match, away, opp_away, value, owner, action, response = line.split()
            cases.append(
                CubeCase(
                    pid,
                    int(match),
                    int(away),
                    int(opp_away),
                    int(value),
                    owner,
                    (action, response),
                )
            )
    return cases


def cube_agreement(
    evaluator: str, cases: list[CubeCase], answers: list[tuple[str, str]]
) -> tuple[float, float, float]:
    """How often ``kiosk coach-cube``'s coach (with ``evaluator``'s net, at its look-ahead)
    gives GNU Backgammon's action (double or not) and response, in money play and at match
    scores, and its milliseconds per decision."""
    from kiosk.tutor.cube import cube_coach

    coach = cube_coach(evaluator)
    same = {False: 0, True: 0}
    count = {False: 0, True: 0}
    start = time.perf_counter()
    for case, (action, response) in zip(cases, answers, strict=True):
        mine = coach.decide(Position.from_id(case.position_id), case.state())
        kind = bool(case.match)
        count[kind] += 1
        same[kind] += (mine.action == "double") == (action == "double") and (
            mine.response == response
        )
    ms = 1000 * (time.perf_counter() - start) / max(1, len(cases))
    return same[False] / max(1, count[False]), same[True] / max(1, count[True]), ms


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


#: Noisy self-play for the reasons check: fresh games, a seed of their own.
REASONS_SEED = 33_033
REASONS_GAMES = 8


def errors_without_reason(
    evaluator: Evaluator, games: int = REASONS_GAMES
) -> tuple[int, int, list[str]]:
    """Over positions from ``games`` fresh games of noisy self-play, the coach's errors (a
    play giving up 0.03 or more: the second to fourth best of each roll and one legal play
    at random) and how many get no reason naming what the play does wrong; with those."""
    from kiosk.tutor.evaluators.train import draw_positions
    from kiosk.tutor.features import WRONG_CODES

    coach = Coach(evaluator)
    rng = random.Random(REASONS_SEED)
    errors, missing = 0, []
    for position, d1, d2 in draw_positions(REASONS_SEED, games)[::3]:
        ranked = [p for p, _e in evaluator.evaluate_plays(position, d1, d2)[1:4]]
        for play in dict.fromkeys([*ranked, rng.choice(position.legal_plays(d1, d2))]):
            rating = coach.rate(position, (d1, d2), play)
            if rating.equity_loss is None or rating.equity_loss < coach.thresholds[0]:
                continue
            errors += 1
            if not any(r["code"] in WRONG_CODES for r in rating.reasons):
                missing.append(f"{position.position_id()} {d1}-{d2} {play}")
    coach.close()
    return errors, len(missing), missing


def verdict_after_done(
    evaluator: Evaluator, cases, limit: int, think_s: float = THINK_S
) -> dict[str, float]:
    """Milliseconds from Done to the verdict on a random legal play, over the first
    ``limit`` cases: in every other case the coach rated the roll's plays when the dice
    landed (``Coach.prepare``, as the table does, for ``think_s`` seconds at most: the
    player thinking; not timed here) and in the others not (as before), so that an
    evaluator's own cache of evaluations favours neither."""
    coach = Coach(evaluator)
    rng = random.Random(2)
    ahead: list[float] = []
    fresh: list[float] = []
    for i, (position, d1, d2) in enumerate(cases[:limit]):
        play = rng.choice(position.legal_plays(d1, d2))
        if i % 2:
            until = time.monotonic() + think_s
            coach.prepare(position, (d1, d2), more=lambda until=until: time.monotonic() < until)
        start = time.perf_counter()
        coach.rate(position, (d1, d2), play)
        (ahead if i % 2 else fresh).append((time.perf_counter() - start) * 1000)
    coach.close()
    figures = {}
    for label, times in (("", ahead), ("_from_scratch", fresh)):
        times.sort()
        figures[f"verdict_after_done_ms_p50{label}"] = round(statistics.median(times), 1)
        figures[f"verdict_after_done_ms_p99{label}"] = round(
            times[max(0, math.ceil(len(times) * 0.99) - 1)], 1
        )
    return figures


def table_play_after_dice(
    make: Callable[[], Evaluator],
    cases: list[tuple[Position, int, int]],
    limit: int,
    throw_s: float = THROW_S,
) -> dict[str, float]:
    """Milliseconds from the table's dice landing to its play chosen (wall clock: the table
    thinks in its worker), over the first ``limit`` cases with the table on roll: in every
    other case its worker ranked every throw's plays from the start of its turn for
    ``throw_s`` seconds at most (the visitor throwing for it; not timed), in the others
    not (as before)."""
    worker = OpponentWorker(Opponent(DEFAULT_LEVEL, make(), seed=1), time_limit=60)
    ahead: list[float] = []
    fresh: list[float] = []
    try:
        for i, (position, d1, d2) in enumerate(cases[:limit]):
            if i % 2:
                worker.submit_ahead(position)
                until = time.monotonic() + throw_s
                while time.monotonic() < until and not all(f.done() for f in worker._ahead):
                    time.sleep(0.01)
            start = time.perf_counter()
            worker.submit(position, (d1, d2)).result(120)
            (ahead if i % 2 else fresh).append((time.perf_counter() - start) * 1000)
    finally:
        worker.close()
    figures = {}
    for label, times in (("", ahead), ("_without_ahead", fresh)):
        times.sort()
        figures[f"table_play_ms_p50{label}"] = round(statistics.median(times), 1)
        figures[f"table_play_ms_p99{label}"] = round(
            times[max(0, math.ceil(len(times) * 0.99) - 1)], 1
        )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's look-ahead")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N positions")
    parser.add_argument(
        "--program-limit", type=int, default=20, help="positions timed with the gnubg program"
    )
    parser.add_argument(
        "--done-limit", type=int, default=120, help="positions for the gnubg program's verdicts"
    )
    parser.add_argument("--only-done", action="store_true", help="only the verdicts after Done")
    parser.add_argument("--regenerate", action="store_true", help="draw the positions again")
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    parser.add_argument(
        "--reasons-games", type=int, default=REASONS_GAMES, help="self-play games for the reasons"
    )
    parser.add_argument(
        "--reasons-only", action="store_true", help="only the errors-without-reason figures"
    )
    args = parser.parse_args()
    if args.quick:
        args.limit, args.program_limit = args.limit or 3, min(args.program_limit, 2)
        args.reasons_games = 1
    if args.reasons_only:
        reasons_evaluator: Evaluator = (
            GnubgNNEvaluator(plies=args.plies) if load_module() else BuiltinEvaluator()
        )
        errs, bare, which = errors_without_reason(reasons_evaluator, args.reasons_games)
        for line in which:
            print(f"no reason names what is wrong: {line}")
        print(json.dumps({"errors": errs, "errors_without_reason": bare}))
        return 0
    if args.regenerate:
        regenerate()
        regenerate_cube()
    cases = load()
    if args.limit:
        cases = cases[: args.limit]

    done = {"builtin": verdict_after_done(BuiltinEvaluator(), cases, len(cases))}
    if load_module() is not None:
        done["gnubg-nn"] = verdict_after_done(GnubgNNEvaluator(plies=args.plies), cases, len(cases))
    if find_program() is not None:
        program = GnubgExternalEvaluator(plies=args.plies)
        program.equity(Position.standard().swap_turn())  # start it outside the timing
        done[f"gnubg {args.plies}-ply"] = verdict_after_done(program, cases, args.done_limit)
    for evaluator_name, figures_done in done.items():
        print(
            f"verdict after Done with {evaluator_name}: p50 "
            f"{figures_done['verdict_after_done_ms_p50']} ms, p99 "
            f"{figures_done['verdict_after_done_ms_p99']} ms (rated from scratch: p50 "
            f"{figures_done['verdict_after_done_ms_p50_from_scratch']} ms, p99 "
            f"{figures_done['verdict_after_done_ms_p99_from_scratch']} ms)"
        )
    # The table plays at its level's depth (every level: 0-ply), with the strongest here.
    depth = LEVELS[DEFAULT_LEVEL].plies
    table = {"builtin": table_play_after_dice(BuiltinEvaluator, cases, len(cases))}
    if load_module() is not None:
        table[f"gnubg-nn {depth}-ply"] = table_play_after_dice(
            lambda: GnubgNNEvaluator(plies=depth), cases, len(cases)
        )
    if find_program() is not None:
        table[f"gnubg {depth}-ply"] = table_play_after_dice(
            lambda: GnubgExternalEvaluator(plies=depth), cases, args.program_limit * 2
        )
    for evaluator_name, figures_table in table.items():
        print(
            f"the table's play after its dice land with {evaluator_name}: p50 "
            f"{figures_table['table_play_ms_p50']} ms, p99 {figures_table['table_play_ms_p99']}"
            f" ms (without ranking ahead: p50 {figures_table['table_play_ms_p50_without_ahead']}"
            f" ms, p99 {figures_table['table_play_ms_p99_without_ahead']} ms)"
        )
    if args.only_done:
        print(json.dumps({"verdict_after_done": done, "table_play": table}))
        return 0

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

    cube_cases = load_cube()
    if args.quick:  # the first few of money play and of match play
        cube_cases = [c for c in cube_cases if not c.match][:8] + [
            c for c in cube_cases if c.match
        ][:8]
    answers = [c.answer for c in cube_cases]
    live = None
    if find_program() is not None:  # ask GNU Backgammon again rather than trust the record
        fresh = gnubg_cube_analysis(cube_cases)
        live = sum((a, r) == c.answer for (a, r, _m), c in zip(fresh, cube_cases, strict=True))
        answers = [(a, r) for a, r, _m in fresh]
    cube = {"builtin": cube_agreement("builtin", cube_cases, answers)}
    if load_module() is not None:
        cube["gnubg-nn"] = cube_agreement("gnubg-nn", cube_cases, answers)
    best = cube.get("gnubg-nn", cube["builtin"])
    reasons_evaluator = GnubgNNEvaluator(plies=args.plies) if load_module() else builtin
    errors, bare, _which = errors_without_reason(reasons_evaluator, args.reasons_games)
    figures = {
        "positions": len(cases),
        "reference": name,
        "agreement": round(agree / len(cases), 4) if losses else None,
        "agreement_with_ties": round((agree + tied) / len(cases), 4) if losses else None,
        "mean_equity_loss": round(statistics.fmean(losses), 4) if losses else None,
        "ms_per_rating": timings,
        "verdict_after_done": done,
        "table_play": table,
        "cube_decisions": {
            "money": sum(not c.match for c in cube_cases),
            "match": sum(bool(c.match) for c in cube_cases),
        },
        "cube_reference": "gnubg 1.07 2-ply " + ("(live)" if live is not None else "(recorded)"),
        "cube_record_still_agrees": live,
        "cube_agreement_money": round(best[0], 4),
        "cube_agreement_match": round(best[1], 4),
        "cube_evaluator": "gnubg-nn" if "gnubg-nn" in cube else "builtin",
        "cube_agreement_money_builtin": round(cube["builtin"][0], 4),
        "cube_agreement_match_builtin": round(cube["builtin"][1], 4),
        "ms_per_cube_decision": {name: round(v[2], 1) for name, v in cube.items()},
        "errors_rated": errors,
        "errors_without_reason": bare,
    }
    print(f"{len(cases)} positions; reference {name or 'none available'}")
    if losses:
        print(f"built-in picks GNU Backgammon's play in {agree} of {len(cases)}")
        print(f"and in {tied} more a play GNU Backgammon rates equal to its own")
        print(f"built-in mean equity loss {figures['mean_equity_loss']}")
    for evaluator, ms in timings.items():
        print(f"coach rating with {evaluator}: {ms} ms")
    for name, (money, match, ms) in cube.items():
        print(
            f"coach-cube with {name}: agrees with GNU Backgammon's 2-ply cube decision on "
            f"{money:.0%} of money and {match:.0%} of match decisions ({ms:.0f} ms each)"
        )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
