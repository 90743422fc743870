"""A plain listing of the ``kiosk`` sub-commands, for ``kiosk run`` before the display exists."""

from __future__ import annotations


def describe_commands() -> str:
    """One line per sub-command: its name and help text."""
    from kiosk.cli import build_parser

    parser = build_parser()
    lines = []
    for action in parser._subparsers._group_actions:  # the sub-command group
        for choice in action._choices_actions:
            lines.append(f"  kiosk {choice.dest:<16} {choice.help}")
    return "\n".join(lines)
