"""The board's fixed terms: the two colours, the numbering of points, and Position IDs.

The lowest layer of :mod:`kiosk.rules`: no other module of the package is imported
here. Points are counted from each side's own point of view (1 its ace point, 24 the
adversary's ace point); ``BAR`` (25) and ``OFF`` (0) complete the numbering.

>>> Colour.parse("Black").other
<Colour.WHITE: 0>
"""

from __future__ import annotations

import base64
from binascii import b2a_base64
from enum import IntEnum
from functools import lru_cache

from kiosk.errors import TableError

MEN = 15
BAR = 25
OFF = 0


class Colour(IntEnum):
    """The two sides. White plays first unless the opening throw says otherwise."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Colour:
        """The adversary."""
        return BLACK if self is WHITE else WHITE

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """``"white"`` or ``"black"`` (any case) as a colour."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown colour {text!r}: say white or black") from None


WHITE = Colour.WHITE
BLACK = Colour.BLACK


class InvalidPositionError(TableError, ValueError):
    """A position that cannot stand on a backgammon board."""


class InvalidPositionIdError(InvalidPositionError):
    """Text that is not a GNU Backgammon Position ID (wrong length, characters or bits)."""


# -- GNU Backgammon Position ID --------------------------------------------------


def encode_position_id(roller: tuple[int, ...], other: tuple[int, ...]) -> str:
    """Encode two 25-count sides as GNU Backgammon writes them: the side not on roll first.

    >>> side = [0] * 25
    >>> for p, n in {6: 5, 8: 3, 13: 5, 24: 2}.items():
    ...     side[p - 1] = n
    >>> encode_position_id(side, side)
    '4HPwATDgc/ABMA'
    """
    # each point: a run of ones (its men) closed by a zero, least significant bit first;
    # written here most significant first, so the side on roll's points, reversed, lead
    return position_id_of_bits(_side_bits(tuple(roller)) + _side_bits(tuple(other)))


def position_id_of_bits(bits: str) -> str:
    """The Position ID of its bits, most significant first: the side on roll's
    :func:`side_bits`, then the other side's."""
    if len(bits) > 80:
        raise InvalidPositionError(f"{len(bits) - 50} men do not fit in a Position ID (30 at most)")
    return b2a_base64(int(bits, 2).to_bytes(10, "little"), newline=False).decode("ascii")[:14]


_RUNS = tuple("1" * n + "0" for n in range(31))
_RUN = _RUNS.__getitem__


def side_bits(side: tuple[int, ...]) -> str:
    """One side's part of a Position ID (25 counts: its points from its own ace point, and
    its bar), most significant bit first.

    >>> side_bits((2,) + (0,) * 24)
    '000000000000000000000000011'
    """
    return "".join(map(_RUN, side))[::-1]


_side_bits = lru_cache(maxsize=4096)(side_bits)  # the side not on roll keeps its men through
# a whole roll's plays, so most look-ups find it


_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def decode_position_id(position_id: str) -> tuple[list[int], list[int]]:
    """Decode a Position ID into (side on roll, side not on roll), each 25 counts.

    Raises :class:`InvalidPositionIdError` with a plain reason for text that is not a
    valid ID (never anything else).

    >>> try:
    ...     decode_position_id('4HPwATDgc/AB==')
    ... except InvalidPositionIdError as err:
    ...     print(err)
    '4HPwATDgc/AB==' is not a Position ID (bad characters '=': ...)
    """
    if not isinstance(position_id, str):
        raise InvalidPositionIdError(f"a Position ID is text, not {type(position_id).__name__}")
    text = position_id.strip()
    if len(text) != 14:
        raise InvalidPositionIdError(f"a Position ID has 14 characters, {text!r} has {len(text)}")
    bad = "".join(sorted(set(text) - _ID_ALPHABET))
    if bad:
        raise InvalidPositionIdError(
            f"{text!r} is not a Position ID (bad characters {bad!r}: it is written with "
            "letters, digits, + and / only)"
        )
    key = int.from_bytes(base64.b64decode(text + "=="), "little")
    # 80 bits, least significant first: each point a run of ones (its men) closed by a zero
    runs = format(key, "080b")[::-1].split("0")
    if len(runs) < 51:
        raise InvalidPositionIdError(f"{text!r} does not describe two complete sides")
    if any(runs[50:]):
        raise InvalidPositionIdError(f"{text!r} has men beyond both sides")
    other = [len(r) for r in runs[:25]]
    roller = [len(r) for r in runs[25:50]]
    for name, s in (("the side on roll", roller), ("the side not on roll", other)):
        if sum(s) > MEN:
            raise InvalidPositionIdError(f"{text!r} gives {name} {sum(s)} men (at most 15)")
    return roller, other
