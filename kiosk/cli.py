"""The ``kiosk`` command: one sub-command per concern, each registered by its own sub-package."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

# Each module named here exposes ``register(subparsers)`` adding its sub-commands.
COMMAND_MODULES: tuple[str, ...] = (
    "kiosk.rules.cli",
    "kiosk.app_cli",
    "kiosk.link.cli",
    "kiosk.rig.cli",
    "kiosk.tutor.cli",
    "kiosk.tutor.cube_cli",
    "kiosk.tutor.lessons.cli",
    "kiosk.store.cli",
    "kiosk.display.cli",
    "kiosk.commission_cli",
)

# Commands that other tools run in a loop start with only their own module loaded.
QUICK_COMMANDS: dict[str, str] = {"plays": "kiosk.rules.cli"}


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on standard error; a command
    that answers in JSON (``set_defaults(json_errors=True)``) also prints
    ``{"error": ...}`` on standard output, as for its other bad input."""

    def error(self, message: str) -> NoReturn:
        """Say what is wrong in one line and exit with status 2."""
        if self.get_default("json_errors"):
            print(json.dumps({"error": message}))
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command (only ``command``'s own, if
    it is one of the quick commands)."""
    parser = Parser(
        prog="kiosk", description="Backgammon Table: the kiosk that referees and teaches."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = (QUICK_COMMANDS[command],) if command in QUICK_COMMANDS else COMMAND_MODULES
    for name in modules:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kiosk`` command line; returns the process exit status."""
    # Standard output belongs to the commands (``kiosk plays --batch`` writes JSON lines):
    # pygame must not greet it.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # pygame looks for its own files through setuptools' pkg_resources when it can import
    # it (9 MB, a sixth of a second, and a deprecation warning with recent setuptools);
    # without it pygame reads them from its package directory, as it does in a wheel.
    sys.modules.setdefault("pkg_resources", None)  # type: ignore[arg-type]
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
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
