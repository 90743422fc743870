"""``kiosk plays``: the legal plays for a position and a roll (a stable contract)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from kiosk.files import shorten
from kiosk.rules.board import position_id_of_bits, side_bits
from kiosk.rules.notation import format_play
from kiosk.rules.position import Position, legal_ends
from kiosk.rules.profiles import PROFILES, RuleProfile, get_profile
from kiosk.rules.russian import (
    RussianPosition,
    RussianProfile,
    RussianTurn,
    get_russian_profile,
)
from kiosk.rules.variants import VARIANTS


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``plays`` sub-command."""
    parser = subparsers.add_parser(
        "plays",
        help="list the legal plays for a Position ID and a roll",
        description="Print each legal play in GNU Backgammon notation, one a line. "
        "With --batch, read 'POSITION_ID D1 D2' lines on standard input and write one "
        "JSON object a line. With --variant russian-cady or russian-foster the position is "
        "a Russian position (R:<w|b>:<white>:<black>, see kiosk.rules.russian) and the "
        "plays are those of the throw's first part; the parts that follow are named on "
        "standard error (in the batch: 'parts' and 'throw_again').",
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
        help="rule profile of the standard game (default modern)",
    )
    parser.add_argument(
        "--variant",
        default="standard",
        choices=VARIANTS,
        help="the game (default standard; the Russian game's profile is in its name)",
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


def _error(line: str, err: Exception, limit: int = 60) -> str:
    """The error for a line, both cut short: a long bad line is not echoed in full."""
    return f"{shorten(line.strip(), limit)!r}: {shorten(str(err), 2 * limit)}"


def batch_line(line: str, profile: RuleProfile) -> dict[str, Any]:
    """The JSON answer for one ``POSITION_ID D1 D2`` line (``{"error": ...}`` if unreadable)."""
    read = _read_line(line)
    if isinstance(read, str):
        return {"error": read}
    position, d1, d2 = read
    return {
        "position": line.split()[0],
        "dice": [d1, d2],
        "plays": [
            {"move": move, "result": result}
            for move, result in plays_of(position, d1, d2, profile.larger_die)
        ],
    }


def batch_text(line: str, profile: RuleProfile) -> str:
    """:func:`batch_line`'s answer as the JSON text ``json.dumps`` writes of it, written
    straight out: the notation and Position IDs need no escaping, the echoed Position ID
    is escaped by ``json.dumps`` itself.

    >>> from kiosk.rules.profiles import get_profile
    >>> line, modern = "4HPwATDgc/ABMA 2 1", get_profile("modern")
    >>> batch_text(line, modern) == json.dumps(batch_line(line, modern))
    True
    """
    read = _read_line(line)
    if isinstance(read, str):
        return json.dumps({"error": read})
    position, d1, d2 = read
    plays = ", ".join(
        [
            f'{{"move": "{move}", "result": "{result}"}}'
            for move, result in plays_of(position, d1, d2, profile.larger_die)
        ]
    )
    echoed = json.dumps(line.split()[0])
    return f'{{"position": {echoed}, "dice": [{d1}, {d2}], "plays": [{plays}]}}'


def _read_line(line: str) -> tuple[Position, int, int] | str:
    """The position and dice of a ``POSITION_ID D1 D2`` line, or why it cannot be read."""
    words = line.split()
    try:
        if not words:
            raise ValueError("empty line: expected POSITION_ID D1 D2")
        position = Position.from_id(words[0])
        d1, d2 = _dice(words[1:])
    except ValueError as err:
        return _error(line, err)
    return position, d1, d2


def plays_of(
    position: Position, d1: int, d2: int, larger_die: bool = True
) -> list[tuple[str, str]]:
    """Each legal play's notation and the Position ID it leads to, in the order of
    :func:`~kiosk.rules.moves.generate`, from the search's results without building the
    plays' positions. Each line is a new question: the search directly, not the cache of
    recent answers.

    >>> plays_of(Position.standard(), 6, 5)[:2]
    [('24/13', '4HPwAyDgc/ABMA'), ('24/18 13/8', '4PPgQSDgc/ABMA')]
    """
    found = []
    theirs: dict[tuple[int, ...], str] = {}  # the adversary's part of the IDs, by his men
    for key, steps in legal_ends(position, d1, d2, larger_die):
        # the result, adversary on roll: his side (the mover's arrays turned round) first
        op = key[26:]
        first = theirs.get(op)
        if first is None:
            first = theirs[op] = side_bits((*key[50:26:-1], key[26]))
        found.append((format_play(steps), position_id_of_bits(first + side_bits(key[1:26]))))
    return found


def russian_line(line: str, profile: RussianProfile) -> dict[str, Any]:
    """The JSON answer for one ``RUSSIAN_POSITION D1 D2`` line: the plays of the throw's
    first part, each with the position it leads to (the caster still on roll while parts
    or a new throw remain), and the parts of the throw."""
    words = line.split()
    try:
        if not words:
            raise ValueError("empty line: expected RUSSIAN_POSITION D1 D2")
        position = RussianPosition.from_notation(words[0])
        d1, d2 = _dice(words[1:])
        if position.winner() is not None:
            raise ValueError(f"{words[0]}: the game is over")
    except ValueError as err:
        return {"error": _error(line, err)}
    turn = RussianTurn(position, d1, d2, profile)
    plays = turn.legal_plays() if turn.part else []
    return {
        "variant": profile.name,
        "position": words[0],
        "dice": [d1, d2],
        "parts": [list(part.dice) for part in turn.parts],
        "choose_doublet": turn.deuce_ace,
        "throw_again": turn.throws_again,
        "sequence": turn.describe(),
        "plays": [{"move": str(p), "result": turn.after(p).notation()} for p in plays],
    }


def run_batch(
    source: Iterable[str], sink: TextIO, profile: RuleProfile, variant: str = "standard"
) -> None:
    """Answer every line of ``source`` on ``sink``, one JSON object a line, in order."""
    answer: Callable[[str, RuleProfile], str] = batch_text
    if variant != "standard":
        russian = get_russian_profile(variant)

        def answer(line: str, _: RuleProfile) -> str:
            return json.dumps(russian_line(line, russian))

    write = sink.write
    for line in source:  # one answer a line, a blank one too: answers stay in step
        write(answer(line, profile) + "\n")
    sink.flush()


def _run(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    if args.batch:
        if hasattr(sys.stdin, "reconfigure"):  # bytes that are not UTF-8: a bad line, no more
            sys.stdin.reconfigure(errors="replace")
        run_batch(sys.stdin, sys.stdout, profile, args.variant)
        return 0
    if args.position_id is None:
        print("kiosk plays: give POSITION_ID D1 D2, or --batch", file=sys.stderr)
        return 2
    line = " ".join([args.position_id, *args.dice])
    if args.variant != "standard":
        answer = russian_line(line, get_russian_profile(args.variant))
    else:
        answer = batch_line(line, profile)
    if "error" in answer:
        print(f"kiosk plays: {answer['error']}", file=sys.stderr)
        return 2
    if "sequence" in answer and (len(answer["parts"]) > 1 or answer["throw_again"]):
        print(f"this throw: {answer['sequence']}", file=sys.stderr)
    if [play["move"] for play in answer["plays"]] == [""]:
        print("no legal play: the roll is lost", file=sys.stderr)
        return 0
    for play in answer["plays"]:
        print(play["move"])
    return 0
