"""Locations, slot states, dice readings and the table layout shared by the whole kiosk."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

# The defaults repeat firmware/bgtable/layout.py; tests/firmware checks that they agree.
DEFAULT_POINT_SLOTS = 6
DEFAULT_BAR_SLOTS = 4
DEFAULT_TRAY_SLOTS = 15
MAX_SLOTS = 15
#: How a slot senses its man (see ``TableLayout.sensing``).
SENSINGS: tuple[str, ...] = ("polarity", "occupancy")
DEFAULT_SENSING = "occupancy"

POINTS: tuple[str, ...] = tuple(str(n) for n in range(1, 25))
BARS: tuple[str, ...] = ("bar-white", "bar-black")
TRAYS: tuple[str, ...] = ("off-white", "off-black")
LOCATIONS: tuple[str, ...] = POINTS + BARS + TRAYS


class SlotState(IntEnum):
    """What one sensing slot reads; also used as the colour of a man."""

    EMPTY = 0
    WHITE = 1
    BLACK = 2
    #: A man of unknown colour, read by a table that senses occupancy only.
    OCCUPIED = 3


class DieReading(IntEnum):
    """What one dice well reads: the face up (1-6), a cocked die, or nothing."""

    EMPTY = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    COCKED = 7

    @property
    def face(self) -> int | None:
        """The face up, or ``None`` when the well is empty or the die is cocked."""
        return int(self) if 1 <= self <= 6 else None


def colour(value: SlotState | str) -> SlotState:
    """A man's colour from a ``SlotState`` or a word (``white``/``w``, ``black``/``b``)."""
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("white", "w"):
            return SlotState.WHITE
        if word in ("black", "b"):
            return SlotState.BLACK
        raise ValueError(f"not a colour: {value!r} (use white or black)")
    state = SlotState(value)
    if state is SlotState.EMPTY:
        raise ValueError("a man is white or black, not empty")
    return state


@dataclass(frozen=True)
class TableLayout:
    """How many sensing slots each location has, and how a slot senses its man.

    Points share one count, the two bars another, the two borne-off trays a third.
    ``sensing`` is ``"polarity"`` (each slot reads a white or a black man) or
    ``"occupancy"`` (one reed per slot: it reads ``SlotState.OCCUPIED``, a man of either
    colour; colour follows from where he is and from the game).

    ``dropped`` holds ``(location, slot)`` pairs (slot 0 at the edge) that commissioning
    found reading wrong: the link leaves them out of every frame, so that location has
    one fewer slot for everything above the link. The table itself still reports them;
    ``physical()`` is the layout the table states.
    """

    point_slots: int = DEFAULT_POINT_SLOTS
    bar_slots: int = DEFAULT_BAR_SLOTS
    tray_slots: int = DEFAULT_TRAY_SLOTS
    sensing: str = DEFAULT_SENSING
    dropped: frozenset[tuple[str, int]] = frozenset()

    def __post_init__(self) -> None:
        for count in (self.point_slots, self.bar_slots, self.tray_slots):
            if not 1 <= count <= MAX_SLOTS:
                raise ValueError(f"slot counts must be between 1 and {MAX_SLOTS}, not {count}")
        if self.sensing not in SENSINGS:
            raise ValueError(f"sensing is polarity or occupancy, not {self.sensing!r}")
        for where, slot in self.dropped:
            if not 0 <= slot < self.physical_slots(where):
                raise ValueError(f"{where} has no slot {slot + 1} to leave out")
        for where in LOCATIONS:
            if self.slots(where) < 1:
                raise ValueError(f"every slot at {where} is left out; it could sense nothing")

    def physical(self) -> TableLayout:
        """This layout as the table states it: every slot, none dropped."""
        return replace(self, dropped=frozenset()) if self.dropped else self

    def without(self, location: str, slot: int) -> TableLayout:
        """This layout with ``location``'s slot ``slot`` (0 at the edge) left out."""
        return replace(self, dropped=self.dropped | {(location, slot)})

    def physical_slots(self, location: str) -> int:
        """The number of slots the table has at ``location``, dropped ones included."""
        if location in POINTS:
            return self.point_slots
        if location in BARS:
            return self.bar_slots
        if location in TRAYS:
            return self.tray_slots
        raise KeyError(f"no such location: {location!r}")

    def kept(self, location: str) -> tuple[int, ...]:
        """The physical slot numbers at ``location`` that are not dropped, edge first."""
        return tuple(
            s for s in range(self.physical_slots(location)) if (location, s) not in self.dropped
        )

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location, in wire order."""
        return LOCATIONS

    def slots(self, location: str) -> int:
        """The number of sensing slots at ``location`` (dropped ones left out)."""
        total = self.physical_slots(location)
        if self.dropped:
            total -= sum(1 for where, _ in self.dropped if where == location)
        return total

    @property
    def total_slots(self) -> int:
        """The number of sensing slots on the whole table (dropped ones left out)."""
        return sum(self.slots(where) for where in LOCATIONS)

    def wire(self) -> str:
        """The layout as the table's identify message states it: ``points,bars,trays``."""
        return f"{self.point_slots},{self.bar_slots},{self.tray_slots}"

    @classmethod
    def from_wire(cls, text: str, sensing: str = DEFAULT_SENSING) -> TableLayout:
        """Parse ``points,bars,trays``; raises ``ValueError`` if it is not that."""
        parts = text.split(",")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ValueError(f"not a layout: {text!r}")
        points, bars, trays = (int(p) for p in parts)
        return cls(points, bars, trays, sensing)
