"""The ``kiosk`` command: one sub-command per concern, each registered by its own sub-package."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Each module named here exposes ``register(subparsers)`` adding its sub-commands.
COMMAND_MODULES: tuple[str, ...] = (
    "kiosk.rules.cli",
    "kiosk.app_cli",
    "kiosk.link.cli",
    "kiosk.referee.cli",
    "kiosk.tutor.cli",
    "kiosk.tutor.lessons.cli",
    "kiosk.store.cli",
    "kiosk.display.cli",
    "kiosk.commission_cli",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="kiosk", description="Backgammon Table: the kiosk that referees and teaches."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kiosk`` command line; returns the process exit status."""
    # Standard output belongs to the commands (``kiosk plays --batch`` writes JSON lines):
    # pygame must not greet it.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
