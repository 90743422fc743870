"""``kiosk scenario``: run a scripted session headless through the whole stack."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.tutor.opponent import Opponent


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scenario`` sub-command."""
    parser = subparsers.add_parser(
        "scenario",
        help="run a scripted session (simulated table, link, referee) and print its events",
        description="Run a script of table actions and write one JSON object per event.",
    )
    parser.add_argument("file", help="the script ('-' for standard input)")
    parser.add_argument("--settle-ms", type=int, default=300, help="settle time (default 300)")
    parser.add_argument(
        "--firmware",
        choices=("cpython", "micropython", "rp2040"),
        default="cpython",
        help="the interpreter running the table's firmware (default cpython, the faster; "
        "rp2040: MicroPython's rp2 image on an emulated Pico)",
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from kiosk.rig.scenario import run_script
    from kiosk.rig.stepped import TableTimeout
    from kiosk.simtable.micropython import MicroPythonError

    try:
        # bytes from a file and from standard input alike: a line that is not UTF-8 is an
        # error line of its own, the others run
        source = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as err:
        print(f"kiosk scenario: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    try:
        with source:
            run_script(
                source,
                sys.stdout,
                settle_ms=args.settle_ms,
                firmware=args.firmware,
                opponents=_opponents,
            )
    except (TableTimeout, MicroPythonError) as err:
        print(f"kiosk scenario: {err}", file=sys.stderr)
        return 1
    return 0


def _opponents(level: str) -> Opponent:
    """The table's player at ``level`` (its strongest evaluator on this machine)."""
    from kiosk.tutor.opponent import Opponent

    return Opponent(level)
