"""Where every sensing slot of the table lies on the screen under it.

The display lies under the clear top sheet, so everything it draws for a location (the
point, a glow under a man, a target) must land under that location's slots. A
:class:`Calibration` holds the screen position of the centre of every slot, edge slot
first, for a screen of ``width`` x ``height`` pixels. :meth:`Calibration.default` gives a
sensible starting geometry; ``kiosk calibrate`` lets the installer nudge every mark onto
its slot and saves the result with :func:`save_calibration` to ``calibration.toml``.

>>> cal = Calibration.default(1920, 1080)
>>> cal.slot_xy("1", 0)[0] > cal.slot_xy("12", 0)[0]  # white's ace point on the right
True
>>> cal.slot_xy("1", 0)[1] > cal.slot_xy("1", 5)[1]  # slots run from the edge inwards
True
>>> Calibration.from_dict(cal.to_dict()) == cal
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kiosk.files import read_toml, shorten, write_atomically
from kiosk.link import LOCATIONS, TableLayout

Point = tuple[int, int]

# The default geometry, as fractions of the screen.
BAND = 0.125  # each player's text band along their edge
SIDE = 0.07  # the left column (the doubling cube)
TRAY = 0.065  # the trays' column at the right edge
GAP = 0.2  # the gap between the two rows of points, of the board's height
BAR = 0.8  # the bar's width in point widths

CALIBRATION_FILE = "calibration.toml"
DEFAULT_DIR = Path("~/.config/backgammon-table")


def _row_columns() -> dict[str, tuple[int, bool]]:
    """Each point's column (0-11 from the screen's left) and whether it is in the top row."""
    columns: dict[str, tuple[int, bool]] = {}
    for n in range(1, 13):
        columns[str(n)] = (12 - n, False)  # 12 at the bottom left .. 1 at the bottom right
    for n in range(13, 25):
        columns[str(n)] = (n - 13, True)  # 13 at the top left .. 24 at the top right
    return columns


COLUMNS = _row_columns()


@dataclass(frozen=True)
class Calibration:
    """The screen position of every slot, edge slot first, and the drawn radius of a man."""

    width: int
    height: int
    slots: Mapping[str, tuple[Point, ...]]
    slot_radius: int

    def __post_init__(self) -> None:
        frozen = {where: tuple((int(x), int(y)) for x, y in xy) for where, xy in self.slots.items()}
        object.__setattr__(self, "slots", MappingProxyType(frozen))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Calibration):
            return NotImplemented
        return (self.width, self.height, self.slot_radius, dict(self.slots)) == (
            other.width,
            other.height,
            other.slot_radius,
            dict(other.slots),
        )

    def __hash__(self) -> int:
        return hash((self.width, self.height, self.slot_radius, tuple(self.slots.items())))

    @classmethod
    def default(cls, width: int, height: int, layout: TableLayout | None = None) -> Calibration:
        """A board filling the screen as white, sitting at the bottom edge, sees it.

        White's points 1-6 are at the bottom right, 7-12 bottom left, 13-18 top left and
        19-24 top right; the bar is the middle column (white's half at the bottom); the
        trays are at the right edge (white's at the bottom).
        """
        layout = layout or TableLayout()
        if width < 320 or height < 240:
            raise ValueError(f"the screen must be at least 320x240, not {width}x{height}")
        band = round(height * BAND)
        top, bottom = band, height - band
        left, right = round(width * SIDE), width - round(width * TRAY)
        point_w = (right - left) / (12 + BAR)
        bar_w = point_w * BAR
        board_h = bottom - top
        point_len = board_h * (1 - GAP) / 2
        pitch = point_len / max(layout.point_slots, 1)
        radius = max(4, round(min(pitch, point_w) * 0.46))

        def column_x(column: int) -> float:
            x = left + point_w * (column + 0.5)
            return x + bar_w if column >= 6 else x

        def strip(x: float, from_top: bool, count: int, step: float) -> tuple[Point, ...]:
            sign = 1 if from_top else -1
            edge = top if from_top else bottom
            return tuple((round(x), round(edge + sign * step * (i + 0.5))) for i in range(count))

        slots: dict[str, tuple[Point, ...]] = {}
        for where, (column, top_row) in COLUMNS.items():
            slots[where] = strip(column_x(column), top_row, layout.point_slots, pitch)
        bar_x = left + point_w * 6 + bar_w / 2
        slots["bar-white"] = strip(bar_x, False, layout.bar_slots, pitch)
        slots["bar-black"] = strip(bar_x, True, layout.bar_slots, pitch)
        tray_x = (right + width) / 2
        tray_pitch = (board_h / 2 - radius) / layout.tray_slots
        slots["off-white"] = strip(tray_x, False, layout.tray_slots, tray_pitch)
        slots["off-black"] = strip(tray_x, True, layout.tray_slots, tray_pitch)
        return cls(width, height, slots, radius)

    def slot_xy(self, location: str, slot: int) -> Point:
        """The screen position of one slot's centre (slot 0 is at the edge)."""
        strip = self._strip(location)
        if not 0 <= slot < len(strip):
            raise IndexError(f"{location} has slots 0-{len(strip) - 1}, not {slot}")
        return strip[slot]

    def slot_count(self, location: str) -> int:
        """How many slots the calibration has for ``location``."""
        return len(self._strip(location))

    def location_rect(self, location: str) -> tuple[int, int, int, int]:
        """The ``(x, y, w, h)`` box around a location's slots, a man's radius beyond them."""
        strip = self._strip(location)
        r = self.slot_radius
        xs = [x for x, _ in strip]
        ys = [y for _, y in strip]
        return (min(xs) - r, min(ys) - r, max(xs) - min(xs) + 2 * r, max(ys) - min(ys) + 2 * r)

    def nudged(self, location: str, slot: int, dx: int, dy: int) -> Calibration:
        """This calibration with one slot moved by ``(dx, dy)``, kept on the screen."""
        self.slot_xy(location, slot)
        strip = list(self._strip(location))
        x, y = strip[slot]
        strip[slot] = self._clamp(x + dx, y + dy)
        return self._with(location, tuple(strip))

    def shifted(self, location: str, dx: int, dy: int) -> Calibration:
        """This calibration with all of a location's slots moved by ``(dx, dy)``."""
        strip = tuple(self._clamp(x + dx, y + dy) for x, y in self._strip(location))
        return self._with(location, strip)

    def scaled(self, width: int, height: int) -> Calibration:
        """The same geometry on a screen of another size."""
        sx, sy = width / self.width, height / self.height
        slots = {
            where: tuple((round(x * sx), round(y * sy)) for x, y in strip)
            for where, strip in self.slots.items()
        }
        radius = max(4, round(self.slot_radius * min(sx, sy)))
        return Calibration(width, height, slots, radius)

    def check(self, layout: TableLayout) -> None:
        """Raise ``ValueError`` unless every location has as many slots as the table."""
        for where in LOCATIONS:
            have, want = self.slot_count(where), layout.physical_slots(where)
            if have != want:
                raise ValueError(
                    f"the calibration has {have} slots for {where} but the table has {want}: "
                    "run 'kiosk calibrate' again"
                )

    def to_dict(self) -> dict[str, Any]:
        """Plain data (ints, lists, strings) for the configuration file."""
        return {
            "width": self.width,
            "height": self.height,
            "slot_radius": self.slot_radius,
            "slots": {where: [[x, y] for x, y in self.slots[where]] for where in LOCATIONS},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibration:
        """Read :meth:`to_dict`'s data; ``ValueError`` names the first bad key or value."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a calibration is a table of keys, not {type(data).__name__}")
        unknown = sorted(set(data) - {"width", "height", "slot_radius", "slots"})
        if unknown:
            raise ValueError(f"unknown calibration key {unknown[0]!r}")
        width = _positive(data, "width")
        height = _positive(data, "height")
        radius = _positive(data, "slot_radius")
        slots = data.get("slots")
        if not isinstance(slots, Mapping):
            raise ValueError("calibration key 'slots' is missing or not a table of locations")
        extra = sorted(set(slots) - set(LOCATIONS))
        if extra:
            raise ValueError(f"calibration 'slots' has an unknown location {extra[0]!r}")
        parsed: dict[str, tuple[Point, ...]] = {}
        for where in LOCATIONS:
            strip = slots.get(where)
            if not isinstance(strip, list | tuple) or not strip:
                raise ValueError(f"calibration 'slots.{where}' is missing or empty")
            points = []
            for i, pair in enumerate(strip):
                name = f"slots.{where}[{i}]"
                if (
                    not isinstance(pair, list | tuple)
                    or len(pair) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
                ):
                    shown = shorten(repr(pair), 40)
                    raise ValueError(f"calibration {name!r} must be [x, y] in pixels, not {shown}")
                x, y = pair
                if not (0 <= x < width and 0 <= y < height):
                    raise ValueError(
                        f"calibration {name!r} = {list(pair)} is off the {width}x{height} screen"
                    )
                points.append((x, y))
            parsed[where] = tuple(points)
        return cls(width, height, parsed, radius)

    def _strip(self, location: str) -> tuple[Point, ...]:
        try:
            return self.slots[location]
        except KeyError:
            raise KeyError(f"no such location: {location!r}") from None

    def _clamp(self, x: int, y: int) -> Point:
        return (min(max(x, 0), self.width - 1), min(max(y, 0), self.height - 1))

    def _with(self, location: str, strip: tuple[Point, ...]) -> Calibration:
        slots = dict(self.slots)
        slots[location] = strip
        return Calibration(self.width, self.height, slots, self.slot_radius)


MAX_PIXELS = 16384  # wider or taller than any screen a table has


def _positive(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_PIXELS:
        raise ValueError(
            f"calibration key {key!r} must be a whole number 1-{MAX_PIXELS}, "
            f"not {shorten(repr(value), 40)}"
        )
    return value


def calibration_path(config: str | os.PathLike[str] | None = None) -> Path:
    """``calibration.toml`` beside the configuration file, or in the user's config folder."""
    if config is not None:
        return Path(config).expanduser().parent / CALIBRATION_FILE
    return DEFAULT_DIR.expanduser() / CALIBRATION_FILE


def to_toml(calibration: Calibration) -> str:
    """The calibration as a ``[calibration]`` TOML section."""
    data = calibration.to_dict()
    lines = [
        "# Backgammon Table: where each sensing slot lies on the screen, in pixels.",
        "# Written by 'kiosk calibrate'; each location lists its slots from the edge inwards.",
        "[calibration]",
        f"width = {data['width']}",
        f"height = {data['height']}",
        f"slot_radius = {data['slot_radius']}",
        "",
        "[calibration.slots]",
    ]
    for where, strip in data["slots"].items():
        pairs = ", ".join(f"[{x}, {y}]" for x, y in strip)
        lines.append(f'"{where}" = [{pairs}]')
    return "\n".join(lines) + "\n"


def save_calibration(path: str | os.PathLike[str], calibration: Calibration) -> Path:
    """Write the calibration to ``path`` atomically (a power cut leaves the old or the new)."""
    return write_atomically(path, to_toml(calibration))


def load_calibration(
    path: str | os.PathLike[str], layout: TableLayout | None = None
) -> Calibration:
    """Read a calibration file; ``ValueError`` says what is wrong and where.

    A missing file raises ``FileNotFoundError``. With ``layout``, the slot counts must
    match the table's.
    """
    source = Path(path).expanduser()
    data = read_toml(source)  # FileProblem (a ValueError) in words for a damaged file
    section = data.get("calibration")
    if not isinstance(section, dict):
        raise ValueError(f"{source}: no [calibration] section")
    try:
        calibration = Calibration.from_dict(section)
        if layout is not None:
            calibration.check(layout)
    except ValueError as error:
        raise ValueError(f"{source}: {error}") from None
    return calibration


def load_or_default(
    path: str | os.PathLike[str], width: int, height: int, layout: TableLayout | None = None
) -> tuple[Calibration, str | None]:
    """The saved calibration, or the default one and a sentence saying why it was not used."""
    try:
        return load_calibration(path, layout), None
    except FileNotFoundError:
        return Calibration.default(width, height, layout), (
            f"No calibration saved at {path} yet: the default layout is drawn "
            "('kiosk calibrate' lines it up under a real table's slots)."
        )
    except (OSError, ValueError) as error:
        return Calibration.default(width, height, layout), f"Calibration not used: {error}"
