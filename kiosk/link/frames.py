"""Decoded table messages: board frames, identify, heartbeat and self-test reports."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from kiosk.link.protocol import fields
from kiosk.table import (
    LOCATIONS,
    DieReading,
    Occupancy,
    Sensed,
    SlotState,
    TableLayout,
    TableReading,
)

_SLOT_CHARS = {
    ".": SlotState.EMPTY,
    "W": SlotState.WHITE,
    "B": SlotState.BLACK,
    "O": SlotState.OCCUPIED,  # a table that senses occupancy: a man of either colour
}
_DIE_CHARS = {".": DieReading.EMPTY, "C": DieReading.COCKED} | {
    str(n): DieReading(n) for n in range(1, 7)
}
_SLOT_TEXT = {state: char for char, state in _SLOT_CHARS.items()}
_DIE_TEXT = {reading: char for char, reading in _DIE_CHARS.items()}


@dataclass(frozen=True)
class BoardFrame:
    """One settled picture of the table: every slot of every location and both dice wells.

    ``slots[location]`` lists the slot states from the edge of the table inwards.
    """

    seq: int
    slots: Mapping[str, tuple[SlotState, ...]]
    dice: tuple[DieReading, DieReading]
    received: float = field(default=0.0, compare=False)

    def counts(self) -> dict[str, tuple[SlotState, int]]:
        """Per location: the colour sensed there and how many of its slots show it.

        An empty location is ``(EMPTY, 0)``. Where both colours are sensed (a mistake on
        the table, see ``mixed``), the colour is that of the slot nearest the edge.
        """
        result = {}
        for location, states in self.slots.items():
            men = [s for s in states if s is not SlotState.EMPTY]
            if not men:
                result[location] = (SlotState.EMPTY, 0)
            else:
                result[location] = (men[0], men.count(men[0]))
        return result

    def sensed(self) -> Sensed:
        """Per location, ``(white men, black men)`` as the slots read them."""
        return {
            where: (states.count(SlotState.WHITE), states.count(SlotState.BLACK))
            for where, states in self.slots.items()
        }

    def occupancy(self) -> Occupancy:
        """Per location, how many of its slots hold a man of any colour."""
        return {
            where: sum(state is not SlotState.EMPTY for state in states)
            for where, states in self.slots.items()
        }

    def reading(self, sensing: str) -> TableReading:
        """The frame as the kiosk reads it from a table sensing ``sensing``: the men at
        every location, their colours only where the table tells them apart."""
        colours = self.sensed() if sensing == "polarity" else None
        slots = {where: tuple(int(s) for s in states) for where, states in self.slots.items()}
        return TableReading(self.occupancy(), colours, self.dice, slots)

    def mixed(self) -> tuple[str, ...]:
        """The locations where both colours are sensed."""
        return tuple(
            location
            for location, states in self.slots.items()
            if SlotState.WHITE in states and SlotState.BLACK in states
        )

    def to_payload(self) -> str:
        """The frame's payload text, as the table sends it."""
        groups = ["".join(_SLOT_TEXT[s] for s in self.slots[loc]) for loc in LOCATIONS]
        return " ".join(groups) + " " + "".join(_DIE_TEXT[d] for d in self.dice)


def decode_frame(seq: int, payload: str, layout: TableLayout) -> BoardFrame:
    """The ``BoardFrame`` in an ``F`` payload; ``ValueError`` if it does not fit ``layout``."""
    groups = payload.split(" ")
    if len(groups) != len(LOCATIONS) + 1:
        raise ValueError(f"frame has {len(groups)} groups, expected {len(LOCATIONS) + 1}")
    slots = {}
    for location, group in zip(LOCATIONS, groups, strict=False):
        expected = layout.physical_slots(location)
        if len(group) != expected:
            raise ValueError(f"{location} has {len(group)} slots, the layout says {expected}")
        try:
            states = tuple(_SLOT_CHARS[c] for c in group)
        except KeyError as exc:
            raise ValueError(f"bad slot state {exc} at {location}") from None
        if layout.dropped:  # slots commissioning found reading wrong are left out
            states = tuple(states[s] for s in layout.kept(location))
        slots[location] = states
    wells = groups[-1]
    if len(wells) != 2 or any(c not in _DIE_CHARS for c in wells):
        raise ValueError(f"bad dice wells {wells!r}")
    return BoardFrame(
        seq=seq,
        slots=MappingProxyType(slots),
        dice=(_DIE_CHARS[wells[0]], _DIE_CHARS[wells[1]]),
        received=time.monotonic(),
    )


@dataclass(frozen=True)
class TableInfo:
    """What the table says about itself when asked to identify."""

    firmware: str
    protocol: int
    layout: TableLayout
    scan_hz: int
    debounce_scans: int
    reset_cause: str
    board_id: str
    runtime: str = "-"  # the interpreter running the firmware: micropython, cpython


def decode_identify(payload: str) -> TableInfo:
    """The ``TableInfo`` in an ``I`` payload; ``ValueError`` if a field is missing or bad."""
    values = fields(payload)
    try:
        return TableInfo(
            firmware=values["fw"],
            protocol=int(values["proto"]),
            layout=TableLayout.from_wire(values["layout"], values.get("sense", "polarity")),
            scan_hz=int(values.get("scan", "0")),
            debounce_scans=int(values.get("debounce", "0")),
            reset_cause=values.get("reset", "-"),
            board_id=values.get("id", "-"),
            runtime=values.get("rt", "-"),
        )
    except KeyError as exc:
        raise ValueError(f"identify lacks {exc}") from None


@dataclass(frozen=True)
class Heartbeat:
    """The table's uptime and error counters."""

    seq: int
    uptime_ms: int
    counters: Mapping[str, int]


def decode_heartbeat(seq: int, payload: str) -> Heartbeat:
    """The ``Heartbeat`` in an ``H`` payload; ``ValueError`` if a value is not a number."""
    values = {key: int(value) for key, value in fields(payload).items()}
    uptime = values.pop("up", 0)
    return Heartbeat(seq=seq, uptime_ms=uptime, counters=MappingProxyType(values))


@dataclass(frozen=True)
class SelfTestReport:
    """The table's self-test: stuck slots (both reeds closed), chattering ones, stuck lines.

    After a self-test of an empty table, ``closed`` names the slots and wells that read a
    man (a welded reed, a stray magnet); after one of a full table, ``dead`` names the slots
    that read none (a dead reed, a man off centre).
    """

    ok: bool
    stuck: tuple[str, ...]
    chattering: tuple[str, ...]
    stuck_lines: int
    closed: tuple[str, ...] = ()
    dead: tuple[str, ...] = ()


def _names(text: str) -> tuple[str, ...]:
    return () if text in ("", "-") else tuple(text.split(","))


def decode_self_test(payload: str) -> SelfTestReport:
    """The ``SelfTestReport`` in a ``T`` payload; ``ValueError`` if it is malformed."""
    values = fields(payload)
    try:
        return SelfTestReport(
            ok=values["ok"] == "1",
            stuck=_names(values["stuck"]),
            chattering=_names(values["chatter"]),
            stuck_lines=int(values["lines"], 16),
            closed=_names(values.get("closed", "")),
            dead=_names(values.get("dead", "")),
        )
    except KeyError as exc:
        raise ValueError(f"self-test report lacks {exc}") from None
