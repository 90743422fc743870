"""What a Bluetooth die says, whoever made it: the events both vendors' messages decode to.

A die is rolling (or in the hand), at rest on a face, or at rest cocked (not flat); it
may also say its battery level and who it is. :func:`reading` turns a roll into what a
dice well reads (:class:`~kiosk.table.DieReading`), so that the referee judges a
Bluetooth die exactly as it judges a die in a well.

>>> reading(Roll(DieState.AT_REST, 5)), reading(Roll(DieState.COCKED))
(<DieReading.FIVE: 5>, <DieReading.COCKED: 7>)
>>> reading(Roll(DieState.ROLLING))
<DieReading.EMPTY: 0>
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from kiosk.errors import TableError
from kiosk.table import DieReading


class DiceProtocolError(TableError, ValueError):
    """A message from a die that cannot be read (too short, a value out of range); the
    message says what was wrong in words."""


class DieState(Enum):
    """Where a die is in its roll."""

    UNKNOWN = "unknown"  # the die does not know (just woken)
    ROLLING = "rolling"  # rolling, or being handled: no face yet
    AT_REST = "at rest"  # lying flat on a face
    COCKED = "cocked"  # at rest, but not flat: the throw is void


@dataclass(frozen=True)
class Roll:
    """A die's roll state; ``face`` (1-6) when it is at rest; ``thrown`` is false when
    the die says it came to rest without a proper roll (moved, turned or slid)."""

    state: DieState
    face: int | None = None
    thrown: bool = True


@dataclass(frozen=True)
class Battery:
    """A die's battery: percent charged, and whether it is on its charger."""

    percent: int
    charging: bool = False


@dataclass(frozen=True)
class Identity:
    """Who a die is: its maker, its own id, the kind of die and its firmware's date
    (``""`` where the die does not say), and what it reported with it."""

    vendor: str
    ident: str
    kind: str  # "d6", "d20"... as the maker names it
    firmware: str = ""
    roll: Roll | None = None
    battery: Battery | None = None

    @property
    def six_sided(self) -> bool:
        """Whether the die has six faces numbered 1 to 6 (a backgammon die)."""
        return self.kind in ("d6", "d6pipped")


DieEvent = Roll | Battery | Identity


class Decoder(Protocol):
    """Turns one die's notifications (bytes) into events. A decoder keeps what a die
    said about itself (its firmware) for later messages, so each connected die has its
    own."""

    def decode(self, data: bytes) -> DieEvent | None:
        """The event ``data`` says (``None``: nothing the table uses); raises
        :class:`DiceProtocolError` for bytes it cannot read."""


@dataclass(frozen=True)
class Vendor:
    """One maker's dice over Bluetooth LE: the GATT service and characteristics, how to
    recognise a die in a scan, what to send once connected and how to make it blink."""

    name: str  # as [dice] source names it: "pixels", "godice"
    title: str  # as people know the dice: "Pixels", "GoDice"
    service: str
    notify: str
    write: str
    decoder: Callable[[], Decoder]
    hello: tuple[bytes, ...]  # sent on connecting: who are you, battery...
    blink: Callable[[int], bytes]  # the die lights up n times: die 1 once, die 2 twice
    recognise: Callable[[str, list[str], dict[int, bytes]], bool]  # name, services, maker data
    # whether a die says its face once connected (answering ``hello``); if not, it has no
    # face until it is first thrown
    tells_face: bool = True
    write_response: bool = False  # whether writes ask the die to acknowledge them


def reading(roll: Roll) -> DieReading:
    """What a well would read for a die in this state: its face, cocked, or nothing."""
    if roll.state is DieState.AT_REST and roll.face is not None:
        return DieReading(roll.face)
    if roll.state is DieState.COCKED:
        return DieReading.COCKED
    return DieReading.EMPTY


def need(data: bytes, size: int, what: str) -> None:
    """Raise :class:`DiceProtocolError` unless ``data`` holds at least ``size`` bytes."""
    if len(data) < size:
        raise DiceProtocolError(f"{what} is {len(data)} bytes long; at least {size} expected")
