"""``kiosk run``: start the table application."""

from __future__ import annotations

import argparse

from kiosk.cli_help import describe_commands


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``run`` sub-command."""
    parser = subparsers.add_parser("run", help="start the table")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    print("Backgammon Table: the display and referee are not built yet.")
    print("What this kiosk can do today:")
    print(describe_commands())
    return 0
