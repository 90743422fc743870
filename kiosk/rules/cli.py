"""``kiosk plays``: the legal plays for a position and a roll (a stable contract)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from kiosk.rules.moves import generate
from kiosk.rules.position import Position
from kiosk.rules.profiles import PROFILES, RuleProfile, get_profile


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``plays`` sub-command."""
    parser = subparsers.add_parser(
        "plays",
        help="list the legal plays for a Position ID and a roll",
        description="Print each legal play in GNU Backgammon notation, one a line. "
        "With --batch, read 'POSITION_ID D1 D2' lines on standard input and write one "
        "JSON object a line.",
    )
    parser.add_argument(
        "position_id", nargs="?", help="GNU Backgammon Position ID, side on roll to move"
    )
    parser.add_argument("dice", nargs="*", type=str, help="the two dice")
    parser.add_argument("--batch", action="store_true", help="read lines from standard input")
    parser.add_argument(
        "--profile",
        default="modern",
        choices=sorted(PROFILES),
        help="rule profile (default modern)",
    )
    parser.set_defaults(func=_run)


def _dice(words: list[str]) -> tuple[int, int]:
    if len(words) != 2:
        raise ValueError(f"give two dice, not {len(words)}")
    try:
        d1, d2 = (int(w) for w in words)
    except ValueError:
        raise ValueError(f"dice are numbers 1 to 6, not {' '.join(words)!r}") from None
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice show 1 to 6, not {d1} and {d2}")
    return d1, d2


def batch_line(line: str, profile: RuleProfile) -> dict:
    """The JSON answer for one ``POSITION_ID D1 D2`` line (``{"error": ...}`` if unreadable)."""
    words = line.split()
    try:
        if not words:
            raise ValueError("empty line: expected POSITION_ID D1 D2")
        position = Position.from_id(words[0])
        d1, d2 = _dice(words[1:])
    except ValueError as err:
        return {"error": f"{line.strip()!r}: {err}"}
    # each line is a new question: the generator directly, not the cache of recent answers
    plays = generate(position, d1, d2, profile.larger_die)
    return {
        "position": words[0],
        "dice": [d1, d2],
        "plays": [{"move": str(p), "result": p.result.position_id()} for p in plays],
    }


def run_batch(source: TextIO, sink: TextIO, profile: RuleProfile) -> None:
    """Answer every line of ``source`` on ``sink``, one JSON object a line, in order."""
    for line in source:
        if line.strip():
            sink.write(json.dumps(batch_line(line, profile)) + "\n")
    sink.flush()


def _run(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    if args.batch:
        run_batch(sys.stdin, sys.stdout, profile)
        return 0
    if args.position_id is None:
        print("kiosk plays: give POSITION_ID D1 D2, or --batch", file=sys.stderr)
        return 2
    answer = batch_line(" ".join([args.position_id, *args.dice]), profile)
    if "error" in answer:
        print(f"kiosk plays: {answer['error']}", file=sys.stderr)
        return 2
    if answer["plays"] == [{"move": "", "result": answer["plays"][0]["result"]}]:
        print("no legal play: the roll is lost", file=sys.stderr)
        return 0
    for play in answer["plays"]:
        print(play["move"])
    return 0
