"""``kiosk coach-cube``: rate a cube decision as the coach would, printed as one JSON object."""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.rules import Colour, Position
from kiosk.tutor.cube import CUBE_REASON_CODES, DECISIONS, CubeState, cube_coach
from kiosk.tutor.evaluators import EvaluatorError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``coach-cube`` sub-command."""
    parser = subparsers.add_parser(
        "coach-cube",
        help="rate a cube decision: double, no-double or too-good; take or pass",
        description="The cube decision for the side on roll in POSITION_ID, before it throws. "
        "Prints one JSON object with action (double, no-double, too-good), response (take, "
        "pass), equity_loss of --decision if one is given, equities and reasons; on bad "
        'input prints {"error": ...} and exits 2. Each reason is an object with a code, the '
        "facts it rests on and its words (text).",
        epilog="reason codes: "
        + "; ".join(f"{code}: {meaning}" for code, meaning in CUBE_REASON_CODES.items()),
    )
    parser.add_argument("position_id", help="GNU Backgammon Position ID (side on roll)")
    parser.add_argument("--cube", type=int, default=1, help="the cube's value (default 1)")
    parser.add_argument(
        "--owner", choices=("white", "black", "centre"), default="centre", help="who owns it"
    )
    parser.add_argument("--match", type=int, default=0, help="match length (default: money)")
    parser.add_argument(
        "--score",
        type=int,
        nargs=2,
        default=(0, 0),
        metavar=("A", "B"),
        help="the score: side on roll, then the opponent",
    )
    parser.add_argument("--crawford", action="store_true", help="this is the Crawford game")
    parser.add_argument(
        "--jacoby", action="store_true", help="money play under the Jacoby rule"
    )
    parser.add_argument("--decision", choices=DECISIONS, help="the decision to rate")
    parser.add_argument(
        "--evaluator",
        choices=("auto", "gnubg-nn", "builtin"),
        default="auto",
        help="whose chances (default: gnubg-nn if installed, else builtin)",
    )
    parser.set_defaults(func=_run, json_errors=True)


def _fail(message: str) -> int:
    print(json.dumps({"error": message}))
    print(f"kiosk coach-cube: {message}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    if not args.match and (tuple(args.score) != (0, 0) or args.crawford):
        return _fail("a score or the Crawford game needs --match N (money play has neither)")
    if args.match and args.jacoby:
        return _fail("the Jacoby rule is for money play, not a match")
    try:
        position = Position.from_id(args.position_id)
        owner = None if args.owner == "centre" else Colour.parse(args.owner)
        cube = CubeState(
            args.cube, owner, args.match, tuple(args.score), args.crawford, args.jacoby
        )
    except ValueError as err:
        return _fail(str(err))
    if position.winner() is not None:
        return _fail("the game is over in that position")
    try:
        coach = cube_coach(args.evaluator)
    except EvaluatorError as err:
        return _fail(str(err))
    try:
        decision = coach.decide(position, cube, args.decision)
    except ValueError as err:  # a match the equity table does not cover, in words
        return _fail(str(err))
    print(json.dumps(decision.as_dict()))
    return 0
