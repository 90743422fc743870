"""The table's coordinate system: its locations, slot states, dice readings, layout and
the sensed board (men per location as the slots read them).

Everything above the rules talks about the physical table in these terms: the link
decodes frames into them, the referee judges them, the display draws under them. This
package imports nothing from the kiosk but :mod:`kiosk.rules`.

Locations are strings in WHITE's numbering: ``"1"``..``"24"`` are the points (white's ace
point is ``"1"``; black's point n is ``str(25 - n)``), then ``"bar-white"``,
``"bar-black"``, ``"off-white"``, ``"off-black"``. ``LOCATIONS`` lists them in wire order.
"""

from kiosk.table.layout import (
    BARS,
    LOCATIONS,
    POINTS,
    TRAYS,
    DieReading,
    SlotState,
    TableLayout,
    colour,
)
from kiosk.table.sensing import (
    Occupancy,
    Sensed,
    TableReading,
    cap,
    describe,
    key,
    location,
    occupancy,
    point_of,
    project,
    true_counts,
)

__all__ = [
    "BARS",
    "LOCATIONS",
    "POINTS",
    "TRAYS",
    "DieReading",
    "Occupancy",
    "Sensed",
    "SlotState",
    "TableLayout",
    "TableReading",
    "cap",
    "colour",
    "describe",
    "key",
    "location",
    "occupancy",
    "point_of",
    "project",
    "true_counts",
]
