"""The simulated table under the mouse: lift a man, put it down, hit a blot as a hand would.

In the window, the mouse plays the men of the simulated table; the referee then sees the
board change just as it would see real men moved on the real table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.table.layout import LOCATIONS, POINTS

if TYPE_CHECKING:
    from kiosk.display import Calibration
    from kiosk.simtable import SimulatedTable


def location_at(calibration: Calibration, pos: tuple[int, int]) -> str | None:
    """The table location nearest a screen position, if a man's width or so away."""
    x, y = pos
    best, best_d = None, float("inf")
    for where in LOCATIONS:
        for slot in range(calibration.slot_count(where)):
            sx, sy = calibration.slot_xy(where, slot)
            d = (sx - x) ** 2 + (sy - y) ** 2
            if d < best_d:
                best, best_d = where, d
    reach = 2 * calibration.slot_radius
    return best if best_d <= reach * reach else None


def lift_at(
    table: SimulatedTable, calibration: Calibration, pos: tuple[int, int]
) -> tuple[str, str] | None:
    """Lift the top man under ``pos``: (where it was, its colour), or None if none is there."""
    where = location_at(calibration, pos)
    if where is None or not table.men(where):
        return None
    man = table.lift(where)
    return where, "white" if man.name == "WHITE" else "black"


def put_down(
    table: SimulatedTable, calibration: Calibration, drag: tuple[str, str], pos: tuple[int, int]
) -> None:
    """Put the lifted man down under ``pos`` (back where it was if off the table); a lone man
    of the other side there is hit and goes to its bar."""
    origin, colour = drag
    where = location_at(calibration, pos) or origin
    men = table.men(where)
    other = "black" if colour == "white" else "white"
    if where in POINTS and len(men) == 1 and men[0].name.lower() == other:
        table.lift(where)
        table.place(f"bar-{other}", other)
    table.place(where, colour)
