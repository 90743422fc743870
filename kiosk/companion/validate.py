"""Every value a web page sends, checked: one clear message for each thing that is wrong.

Each reader takes the text a form or a request sent (or None when it was left out) and
returns the value, or raises :class:`InputError` whose message the page shows as it is.

>>> position("4HPwATDgc/ABMA", "white").position_id()
'4HPwATDgc/ABMA'
>>> dice("3-1"), dice("6 6")
((3, 1), (6, 6))
>>> try:
...     dice("7-1")
... except InputError as err:
...     print(err)
The dice are two numbers from 1 to 6, such as 3-1; not '7-1'.
>>> name("  Ann  Lee ")
'Ann Lee'
"""

from __future__ import annotations

import re
import unicodedata

from kiosk.errors import TableError
from kiosk.rules import Colour, InvalidPositionError, Position

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector
JOIN_LENGTH = 6
MAX_TEXT = 200  # characters a single field may carry


class InputError(TableError, ValueError):
    """A value sent by a page that cannot be used; the message says what was expected."""


def _text(value: object, what: str) -> str:
    verb = "are" if what.endswith("dice") else "is"
    if value is None or (isinstance(value, str) and not value.strip()):
        raise InputError(f"{what} {verb} missing.")
    if not isinstance(value, str):
        raise InputError(f"{what} must be text.")
    if len(value) > MAX_TEXT:
        raise InputError(f"{what} {verb} too long.")
    return value.strip()


def position(value: object, turn: object = "white") -> Position:
    """A GNU Backgammon Position ID with the side on roll (``white`` or ``black``)."""
    text = _text(value, "The Position ID")
    side = colour(turn, "The side on roll")
    if not re.fullmatch(r"[A-Za-z0-9+/]{14}", text):
        raise InputError(
            f"A Position ID is 14 letters, digits, + or / (such as 4HPwATDgc/ABMA); not {text!r}."
        )
    try:
        found = Position.from_id(text, side)
        found.validate()
    except (InvalidPositionError, ValueError) as err:
        raise InputError(f"{text} is not a position that can be played: {err}.") from None
    if found.winner() is not None:
        raise InputError(f"{text} is a game already over: {found.winner()} has borne all off.")
    return found


def dice(value: object) -> tuple[int, int]:
    """Two dice written ``3-1``, ``3 1``, ``31`` or ``3,1``."""
    text = _text(value, "The dice")
    match = re.fullmatch(r"([1-6])\s*[-, ]?\s*([1-6])", text)
    if match is None:
        raise InputError(f"The dice are two numbers from 1 to 6, such as 3-1; not {text!r}.")
    return int(match.group(1)), int(match.group(2))


def opening(value: object) -> tuple[int, int]:
    """One of the 21 opening throws, the higher die first (``3-1`` and ``1-3`` are one)."""
    d1, d2 = dice(value)
    return max(d1, d2), min(d1, d2)


def number(value: object, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` (as text, or a JSON number).

    >>> number(3, "The die", 1, 6), number("4", "The die", 1, 6)
    (3, 4)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    text = _text(value, what)
    if not re.fullmatch(r"\d{1,4}", text) or not low <= int(text) <= high:
        raise InputError(f"{what} is a number from {low} to {high}; not {text!r}.")
    return int(text)


def colour(value: object, what: str = "The side") -> Colour:
    """``white`` or ``black``."""
    text = _text(value, what).lower()
    if text not in ("white", "black"):
        raise InputError(f"{what} is white or black; not {text!r}.")
    return Colour.parse(text)


def name(value: object, what: str = "Your name") -> str:
    """A learner's name: 1 to 24 letters, digits, spaces, ``-``, ``.`` or ``'``."""
    text = " ".join(_text(value, what).split())
    text = unicodedata.normalize("NFC", text)
    ok = all(c.isalnum() or c in " -.'" for c in text)
    if not ok or not 1 <= len(text) <= 24:
        raise InputError(f"{what} is 1 to 24 letters, digits, spaces, - . or '.")
    return text


def pin(value: object) -> str:
    """The teacher's PIN: 4 to 8 digits."""
    text = _text(value, "The PIN")
    if not re.fullmatch(r"\d{4,8}", text):
        raise InputError("The PIN is 4 to 8 digits.")
    return text


def join_code(value: object) -> str:
    """A class's join code as shown on the projector (case and spaces do not matter)."""
    text = "".join(_text(value, "The class code").split()).upper()
    if len(text) != JOIN_LENGTH or any(c not in JOIN_ALPHABET for c in text):
        raise InputError(
            f"The class code is the {JOIN_LENGTH} letters and digits shown on the projector."
        )
    return text


def choice(value: object, options: int) -> int:
    """The index of one of ``options`` choices, as the page numbers them (from 0)."""
    if options <= 0:
        raise InputError("There is nothing to vote on now.")
    return number(value, "The choice", 0, options - 1)
