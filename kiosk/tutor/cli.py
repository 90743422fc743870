"""``kiosk coach``: rate one play as the coach would, printed as one JSON object."""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.rules import Position
from kiosk.rules.profiles import PROFILES
from kiosk.tutor.coach import EVALUATOR_NAMES, Coach, CoachConfig, choose_evaluator
from kiosk.tutor.evaluators import EvaluatorError
from kiosk.tutor.features import REASON_CODES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``coach`` sub-command."""
    parser = subparsers.add_parser(
        "coach",
        help="rate a play: fine, doubtful, bad or very bad, with reasons from the books",
        description="Rate MOVE (GNU Backgammon notation) of the roll D1 D2 in the position "
        "POSITION_ID (side on roll to move). Prints one JSON object with rating, "
        'equity_loss, best and reasons; on bad input prints {"error": ...} and exits 2. '
        "Each reason is an object with a code, the facts it rests on and its words (text).",
        epilog="reason codes: "
        + "; ".join(f"{code}: {meaning}" for code, meaning in REASON_CODES.items()),
    )
    parser.add_argument("position_id", help="GNU Backgammon Position ID")
    parser.add_argument("d1", help="first die")
    parser.add_argument("d2", help="second die")
    parser.add_argument("move", help='the play, e.g. "8/5 6/5"; "" when no play is possible')
    parser.add_argument(
        "--evaluator",
        default="auto",
        choices=EVALUATOR_NAMES,
        help="who judges (default auto: gnubg-nn, else the gnubg program, else builtin)",
    )
    parser.add_argument(
        "--plies", type=int, default=2, choices=range(4), help="GNU Backgammon look-ahead"
    )
    parser.add_argument(
        "--profile", default="modern", choices=sorted(PROFILES), help="rule profile"
    )
    parser.add_argument(
        "--teaching", action="store_true", help="a teaching game: offer to take bad plays back"
    )
    parser.set_defaults(func=_run, json_errors=True)


def _fail(message: str) -> int:
    print(json.dumps({"error": message}))
    print(f"kiosk coach: {message}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    try:
        position = Position.from_id(args.position_id)
    except ValueError as err:
        return _fail(str(err))
    try:
        d1, d2 = int(args.d1), int(args.d2)
    except ValueError:
        return _fail(f"dice are numbers 1 to 6, not {args.d1!r} and {args.d2!r}")
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        return _fail(f"dice show 1 to 6, not {d1} and {d2}")
    try:
        evaluator = choose_evaluator(CoachConfig(evaluator=args.evaluator, plies=args.plies))
    except EvaluatorError as err:
        return _fail(str(err))
    coach = Coach(evaluator, profile=args.profile)
    try:
        rating = coach.rate(position, (d1, d2), args.move, teaching=args.teaching)
    except EvaluatorError as err:
        return _fail(f"the evaluator failed: {err}")
    except ValueError as err:
        return _fail(str(err))
    finally:
        coach.close()
    print(json.dumps(rating.as_dict()))
    return 0
