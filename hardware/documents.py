"""Generate the builder's documents from the code, so drawings and code cannot disagree.

    python hardware/documents.py          # write top-sheet.svg, WIRING.md, top-sheet.png
    python hardware/documents.py --check  # exit 1 if a written document is out of date;
                                          # last line: the field model's figures (JSON)

Slot counts, locations and the switch numbering come from ``kiosk/table/layout.py`` and
``firmware/bgtable/layout.py`` (occupancy sensing, one reed per slot: the design). The
geometry below is the one place the physical sizes are set; ``tests/firmware`` checks the
written files against this module.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.simtable.firmware import load_firmware  # noqa: E402
from kiosk.table.layout import BARS, LOCATIONS, POINTS, TRAYS, TableLayout  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import plate  # noqa: E402
from displays import CHOSEN, DISPLAYS, PLACEMENT, Display, display  # noqa: E402
from geometry import (  # noqa: E402
    BAR,
    CARRIER,
    CARRIER_STOCK,
    GAP,
    GUIDE,
    HALL_OFF_MT,
    HALL_ON_MT,
    HALL_PART,
    HOLE,
    MAN,
    MARGIN,
    MIN_MARGIN,
    PANEL_GAP,
    PITCH,
    REED_LENGTH,
    REED_OFFSET,
    REED_WIDTH,
    RIB,
    SPACER,
    TOP,
    TRAY_COLUMNS,
    WELL_CELLS,
)

SVG = HERE / "top-sheet.svg"
WIRING = HERE / "WIRING.md"
PNG = HERE / "top-sheet.png"
CUT_DIR = HERE / "cut"  # the laser cutter's files
STACKUP = HERE / "stackup.svg"
SCAN_BOARD = HERE / "scan-board.svg"
BOM = HERE / "BOM.md"
FIGURES = HERE / "FIGURES.md"
LAYOUT = TableLayout(sensing="occupancy")
STRIP_WIDTH = 8.0
TILE_W, TILE_H = 190.0, 277.0  # printable part of an A4 sheet
# The matrix bus: one 30-way ribbon along each long edge of the table, an IDC socket pressed
# on it at each strip (no wire ends to strip or crimp), ending at the scan board's J1 and J2.
BUS_WAYS = 30
BUS_PINS = (
    *(f"ROW{n}" for n in range(12)),
    *(f"COL{n}" for n in range(16)),
    "GND",
    "3V3",
)
BUS_SLACK = 150.0  # mm of ribbon left at the board and for the sockets' own length


@dataclass(frozen=True)
class Slot:
    """One sensing slot: where its centre is and which way its edge lies."""

    location: str
    index: int  # 0 at the edge
    x: float
    y: float
    edge: tuple[float, float]  # unit vector from the slot centre toward the table's edge

    @property
    def reed(self) -> tuple[float, float]:
        """The reed's centre: ``REED_OFFSET`` toward the edge, its axis along ``edge``."""
        return self.x + REED_OFFSET * self.edge[0], self.y + REED_OFFSET * self.edge[1]


FRAME_CLEAR = 3.0  # the display's case to the frame's walls, each side
SHEET_CLEAR = 1.0  # the sheets to the walls, each side
LEDGE = 10.0  # the sheets rest on this ledge inside the walls


@dataclass(frozen=True)
class Build:
    """The table as built around one display: every size that follows from it.

    Template coordinates: x to the right, y down the page, from the sheets' top left."""

    display: Display
    rows: int  # slots along a point
    gap: float  # between the two halves' point rows
    carrier: float = CARRIER  # the carrier sheet's thickness

    @property
    def stack(self) -> float:
        """The sheets' height on the ledge: carrier, spacer, top and guide."""
        return self.carrier + SPACER + TOP + GUIDE

    @property
    def inside(self) -> tuple[float, float]:
        """The frame's walls, inside: the display's case with its clearance."""
        return (
            self.display.outline[0] + 2 * FRAME_CLEAR,
            self.display.outline[1] + 2 * FRAME_CLEAR,
        )

    @property
    def sheet(self) -> tuple[float, float]:
        """Every sheet of the stack-up: the walls' inside less the sheets' clearance."""
        return self.inside[0] - 2 * SHEET_CLEAR, self.inside[1] - 2 * SHEET_CLEAR

    @property
    def opening(self) -> tuple[float, float, float, float]:
        """The ledge ring's opening (x, y, width, height): where the sheets span free."""
        width, height = self.sheet
        return LEDGE, LEDGE, width - 2 * LEDGE, height - 2 * LEDGE

    @property
    def picture(self) -> tuple[float, float, float, float]:
        """The display's picture under the sheets (x, y, width, height), centred."""
        width, height = self.display.picture
        return (self.sheet[0] - width) / 2, (self.sheet[1] - height) / 2, width, height

    @property
    def field(self) -> tuple[float, float]:
        """Width and height of the playing field (points and bar)."""
        return 12 * PITCH + BAR, 2 * self.rows * PITCH + self.gap

    @property
    def area(self) -> tuple[float, float, float, float]:
        """The playing field and the trays at its right (x, y, width, height), centred on
        the picture: all of it must lie on the picture."""
        width = self.field[0] + MARGIN + TRAY_COLUMNS * PITCH
        height = self.field[1]
        px, py, pw, ph = self.picture
        return px + (pw - width) / 2, py + (ph - height) / 2, width, height

    def fits(self) -> dict[str, object]:
        """Whether the picture covers the playing area (with the builder's ``PLACEMENT``),
        the ledge leaves it in view, and the gap between the rows is one a man can see."""
        ax, ay, aw, ah = self.area
        px, py, pw, ph = self.picture
        lx, ly, lw, lh = self.opening
        spare = min(ax - px, ay - py, px + pw - ax - aw, py + ph - ay - ah)
        in_view = min(ax - lx, ay - ly, lx + lw - ax - aw, ly + lh - ay - ah)
        return {
            "model": self.display.model,
            "picture_mm": [round(pw, 1), round(ph, 1)],
            "outline_mm": list(self.display.outline),
            "sheet_mm": [round(v, 1) for v in self.sheet],
            "gap_mm": round(self.gap, 1),
            "picture_spare_mm": round(spare, 1),
            "fits": spare >= PLACEMENT - 1e-9 and in_view >= 0 and self.gap >= MIN_GAP - 1e-9,
        }


MIN_GAP = 5.0  # the least gap between the two rows of points (the men's holes 9 mm apart)


@cache
def build(key: str = CHOSEN) -> Build:
    """The table around display ``key``: the gap between the point rows is as wide as the
    picture leaves (at most ``GAP``), with the picture centred under the playing area; the
    carrier the thinnest stock sheet that holds a lean (``surface``)."""
    chosen = display(key)
    rows = LAYOUT.physical_slots(POINTS[0])
    room = chosen.picture[1] - 2 * PLACEMENT - 2 * rows * PITCH
    table = Build(chosen, rows, max(MIN_GAP, min(GAP, room)))
    for thickness in CARRIER_STOCK:
        table = replace(table, carrier=thickness)
        if surface(table)["carrier_deflection_mm"] <= PANEL_GAP / 2:
            break
    return table


def stack_sheets(table: Build) -> list[plate.Sheet]:
    """The loose sheets on the ledge, bottom up: carrier, spacer, top, guide."""
    return [
        plate.Sheet(plate.ACRYLIC, table.carrier, True),
        plate.Sheet(plate.ACRYLIC, SPACER, False),  # mostly windows: weighs, not counted
        plate.Sheet(plate.POLYCARBONATE, TOP, True),
        plate.Sheet(plate.ACRYLIC, GUIDE, False),  # mostly holes
    ]


def surface(table: Build) -> dict[str, float]:
    """How far the sheets sag (mm) under a 50 N forearm and a 150 N lean at the worst place,
    on top of their own weight, against the air gap over the panel; and how far the top
    sheet bends into a spacer window under the forearm, against its clearance over the
    reeds' glass (plate.py: Kirchhoff plates, Navier's series)."""
    span = table.opening[2:]
    sheets = stack_sheets(table)
    lean = plate.worst_sag(span, sheets, plate.LEAN)
    forearm = plate.worst_sag(span, sheets, plate.FOREARM)
    window = (PITCH - RIB, table.rows * PITCH - RIB)
    force, (_, depth) = plate.FOREARM  # all of it on the part of the patch over the window
    pressed = plate.Patch(force, (window[0] / 2, window[1] / 2), (window[0], depth))
    top = plate.deflection(
        window, plate.rigidity(plate.POLYCARBONATE, TOP), [pressed], plate.grid(window)
    )
    return {
        "carrier_mm": table.carrier,
        "carrier_deflection_mm": round(max(lean["sag_mm"], forearm["sag_mm"]), 2),
        "forearm_deflection_mm": round(forearm["sag_mm"], 2),
        "lean_deflection_mm": round(lean["sag_mm"], 2),
        "own_weight_mm": round(lean["own_weight_mm"], 2),
        "air_gap_mm": PANEL_GAP,
        "top_sheet_deflection_mm": round(float(top.max()), 2),
        "top_sheet_clearance_mm": round(SPACER - REED_WIDTH, 2),
    }


def field_size(key: str = CHOSEN) -> tuple[float, float]:
    """Width and height of the playing field (points and bar)."""
    return build(key).field


def sheet_size(layout: TableLayout, key: str = CHOSEN) -> tuple[float, float]:
    """Every sheet of the stack-up (template and cut files), for display ``key``."""
    return build(key).sheet


def _point_column(point: int) -> tuple[int, bool]:
    """Column 0-11 from the left and whether the point is in the bottom row."""
    if point <= 12:
        return 12 - point, True
    return point - 13, False


def slots(layout: TableLayout, key: str = CHOSEN) -> list[Slot]:
    """Every slot of the layout, in wire order, on the sheets for display ``key``."""
    table = build(key)
    width, height = table.field
    left, top = table.area[:2]
    bottom = top + height

    def column_x(column: int) -> float:
        return left + column * PITCH + PITCH / 2 + (BAR if column >= 6 else 0)

    found = []
    for location in LOCATIONS:
        count = layout.physical_slots(location)
        if location in POINTS or location in BARS:
            if location in POINTS:
                column, low = _point_column(int(location))
                x = column_x(column)
            else:
                x, low = left + 6 * PITCH + BAR / 2, location == "bar-white"
            for i in range(count):
                y = bottom - PITCH / 2 - i * PITCH if low else top + PITCH / 2 + i * PITCH
                found.append(Slot(location, i, x, y, (0.0, 1.0) if low else (0.0, -1.0)))
        else:
            low = location == "off-white"
            tray_left = left + width + MARGIN
            for i in range(count):
                column, row = i % TRAY_COLUMNS, i // TRAY_COLUMNS
                x = tray_left + column * PITCH + PITCH / 2
                y = bottom - PITCH / 2 - row * PITCH if low else top + PITCH / 2 + row * PITCH
                found.append(Slot(location, i, x, y, (0.0, 1.0) if low else (0.0, -1.0)))
    return found


@dataclass(frozen=True)
class Strip:
    """One flex strip: its reeds' switches, the matrix lines it carries, its connector."""

    name: str
    switches: tuple[int, ...]

    @property
    def rows(self) -> tuple[int, ...]:
        return tuple(sorted({s // 16 for s in self.switches}))

    @property
    def columns(self) -> tuple[int, ...]:
        return tuple(sorted({s % 16 for s in self.switches}))

    @property
    def wires(self) -> int:
        return len(self.rows) + len(self.columns)

    @property
    def connector(self) -> str:
        """The strip's tap on its bus: a 2x15 box header on a tap board at its edge."""
        if self.wires > BUS_WAYS - 2:
            raise ValueError(f"{self.name} needs {self.wires} wires: the bus has {BUS_WAYS - 2}")
        return "2x15 IDC box header (bus tap)"

    @property
    def bus_pins(self) -> tuple[int, ...]:
        """The bus pins (1-30) the strip's tap board wires to its reeds' lines."""
        names = [f"ROW{r}" for r in self.rows] + [f"COL{c}" for c in self.columns]
        return tuple(BUS_PINS.index(name) + 1 for name in names)


def strips(layout: TableLayout) -> list[Strip]:
    """One strip per location, with the occupancy numbering."""
    firmware = load_firmware("layout").Layout(
        layout.point_slots, layout.bar_slots, layout.tray_slots, "occupancy"
    )
    found = []
    for location in LOCATIONS:
        first = firmware.first[LOCATIONS.index(location)]
        count = layout.physical_slots(location)
        found.append(Strip(location, tuple(range(first, first + count))))
    return found


# -- the SVG ------------------------------------------------------------------------------


def svg(layout: TableLayout) -> str:
    """The 1:1 top-sheet template (units: mm), with A4 tile lines to print it in pieces."""
    table = build()
    width, height = table.sheet
    fw, fh = table.field
    ax, ay = table.area[:2]
    px, py, pw, ph = table.picture
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">',
        f"<title>Backgammon Table top sheet, 1:1, layout {layout.wire()}, "
        "one reed per slot</title>",
        f'<rect width="{width:g}" height="{height:g}" fill="white"/>',
        f'<rect class="picture" x="{px:.1f}" y="{py:.1f}" width="{pw:.1f}" height="{ph:.1f}" '
        'fill="none" stroke="#c3c" stroke-width="0.5" stroke-dasharray="6 3"/>',
        f'<text x="{px + 3:.1f}" y="{py + 8:.1f}" font-size="5" fill="#c3c">the picture of '
        f"the {table.display.model}</text>",
        f'<rect x="{ax:.1f}" y="{ay:.1f}" width="{fw:g}" height="{fh:g}" fill="none" '
        'stroke="black" stroke-width="0.5"/>',
    ]
    placed = slots(layout)
    for location in LOCATIONS:
        mine = [s for s in placed if s.location == location]
        xs, ys = [s.x for s in mine], [s.y for s in mine]
        x0, x1 = min(xs) - STRIP_WIDTH / 2, max(xs) + STRIP_WIDTH / 2
        y0, y1 = min(ys) - PITCH / 2, max(ys) + PITCH / 2
        if location in TRAYS:
            x0, x1 = min(xs) - PITCH / 2, max(xs) + PITCH / 2
        out.append(
            f'<rect class="strip" id="strip-{location}" x="{x0:g}" y="{y0:g}" '
            f'width="{x1 - x0:g}" height="{y1 - y0:g}" fill="none" stroke="#3a7" '
            'stroke-width="0.3"/>'
        )
        edge = mine[0].edge
        cy = y1 + 3 if edge[1] > 0 else y0 - 7
        out.append(
            f'<rect class="connector" id="conn-{location}" x="{min(xs) - 5:g}" y="{cy:g}" '
            'width="10" height="4" fill="#3a7"/>'
        )
        label_y = y1 + 12 if edge[1] > 0 else y0 - 10
        out.append(
            f'<text x="{min(xs):g}" y="{label_y:g}" font-size="5" text-anchor="middle">'
            f"{location}</text>"
        )
    for slot in placed:
        rx, ry = slot.reed
        w, h = (REED_WIDTH, REED_LENGTH) if slot.edge[0] == 0 else (REED_LENGTH, REED_WIDTH)
        out += [
            f'<circle class="man" cx="{slot.x:g}" cy="{slot.y:g}" r="{MAN / 2:g}" fill="none" '
            'stroke="#999" stroke-width="0.2" stroke-dasharray="2 1"/>',
            f'<circle class="hole" cx="{slot.x:g}" cy="{slot.y:g}" r="{HOLE / 2:g}" '
            'fill="none" stroke="#c33" stroke-width="0.3"/>',
            f'<path class="centre" d="M{slot.x - 2:g} {slot.y:g}h4M{slot.x:g} {slot.y - 2:g}v4" '
            'stroke="black" stroke-width="0.2"/>',
            f'<rect class="reed" data-slot="{slot.location}/{slot.index + 1}" '
            f'x="{rx - w / 2:g}" y="{ry - h / 2:g}" width="{w:g}" height="{h:g}" '
            'fill="#36c"/>',
        ]
    columns, rows = int(-(-width // TILE_W)), int(-(-height // TILE_H))
    for column in range(columns):
        for row in range(rows):
            x, y = column * TILE_W, row * TILE_H
            out.append(
                f'<rect class="tile" x="{x:g}" y="{y:g}" width="{TILE_W:g}" height="{TILE_H:g}" '
                'fill="none" stroke="#f90" stroke-width="0.2" stroke-dasharray="4 4"/>'
            )
            out.append(
                f'<text x="{x + 3:g}" y="{y + 6:g}" font-size="4" fill="#f90">'
                f"A4 tile {chr(65 + row)}{column + 1}</text>"
            )
    out.append(
        f'<path d="M{ax:.1f} {height - 5:g}h100" stroke="black" stroke-width="0.5"/>'
        f'<text x="{ax:.1f}" y="{height - 7:g}" font-size="4">100 mm: check the print</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the wiring table ---------------------------------------------------------------------


def harness(layout: TableLayout, key: str = CHOSEN) -> dict[str, object]:
    """The strips' harness: two 30-way ribbon buses, one along the top edge (the top row of
    points, black's bar and tray) and one along the bottom, each from the strip farthest
    left to the scan board at the right wall's middle; each strip's tap and its distance
    along its bus from the board (mm), and each bus's length."""
    table = build(key)
    placed = slots(layout, key)
    width, height = table.sheet
    board = (width, height / 2)
    taps: dict[str, tuple[str, float]] = {}
    buses: dict[str, list[float]] = {"top": [], "bottom": []}
    for strip in strips(layout):
        mine = [s for s in placed if s.location == strip.name]
        bus = "top" if mine[0].edge[1] < 0 else "bottom"
        x = min(s.x for s in mine)
        edge_y = 0.0 if bus == "top" else height
        along = (board[0] - x) + abs(board[1] - edge_y)
        taps[strip.name] = (bus, round(along))
        buses[bus].append(along)
    lengths = {bus: round(max(found) + BUS_SLACK) for bus, found in buses.items()}
    return {"taps": taps, "bus_mm": lengths, "ribbon_mm": sum(lengths.values())}


def wiring(layout: TableLayout) -> str:
    """The wiring table: per strip its reeds, matrix lines, its tap on the bus, and the
    bus's pinout, from the switch numbering (the netlist's ROW and COL nets)."""
    found = harness(layout)
    lines = [
        "# Wiring table (generated by `python hardware/documents.py`; do not edit)",
        "",
        f"Layout {layout.wire()} (points, bars, trays), one reed per slot (occupancy",
        "sensing), the switch numbering of `firmware/bgtable/layout.py`: switch *n* is at",
        "matrix row *n* // 16, column *n* % 16.",
        "",
        "**The harness.** Two 30-way ribbon cables (1.27 mm pitch) are the matrix bus, one",
        "along each long edge of the carrier's underside: an IDC socket (2x15, 2.54 mm) is",
        "pressed onto the ribbon at each strip, and plugs into a 2x15 box header on a small",
        "tap board (stripboard) at the strip's edge, where the strip's row wire and column",
        "wires are soldered to the pins below. At the board end each ribbon is split into",
        "two crimped housings onto J1 (rows, GND, 3V3) and J2 (columns); the two buses'",
        "like pins join there (every ROW and COL line is one net). No wire end is stripped",
        "twice: each strip's wires end on its tap board.",
        "",
        f"Bus lengths (table {CHOSEN}): top {found['bus_mm']['top']} mm, bottom "
        f"{found['bus_mm']['bottom']} mm (with {BUS_SLACK:g} mm slack).",
        "",
        "| bus pin | " + " | ".join(str(n) for n in range(1, 16)) + " |",
        "|---" * 16 + "|",
        "| line | " + " | ".join(BUS_PINS[:15]) + " |",
        "| bus pin | " + " | ".join(str(n) for n in range(16, 31)) + " |",
        "| line | " + " | ".join(BUS_PINS[15:]) + " |",
        "",
        "| strip | reeds | switches | rows | columns | wires | bus | tap from the board (mm) "
        "| tap pins |",
        "|-------|-------|----------|------|---------|-------|-----|----------------------|"
        "----------|",
    ]
    total = 0
    for strip in strips(layout):
        total += len(strip.switches)
        bus, along = found["taps"][strip.name]  # type: ignore[index]
        lines.append(
            f"| {strip.name} | {len(strip.switches)} | {strip.switches[0]}-{strip.switches[-1]} "
            f"| {','.join(map(str, strip.rows))} | {','.join(map(str, strip.columns))} "
            f"| {strip.wires} | {bus} | {along} | {','.join(map(str, strip.bus_pins))} |"
        )
    lines += ["", f"{total} reeds in all.", ""]
    lines += well_wiring()
    return "\n".join(lines)


def well_wiring() -> list[str]:
    """The dice wells' Hall sensors: which 74HC165 input each drives, in firmware order."""
    import drawings

    lines = [
        "## Dice wells",
        "",
        f"Nine Hall switches (TI {HALL_PART}, TO-92, lying flat, branded face up: each answers a",
        "south pole) under each well, read through three 74HC165 in a chain (the first's QH to",
        "the Pico): U4 holds well 1's ring, U5 well 2's, U7 both centres. Inputs are active",
        "low (an open-drain output pulls its input low when a south pole is above it; 10 kOhm",
        "pull-ups to 3.3 V). *Bit* is the order the firmware shifts them in",
        "(`firmware/board.py`); each well has its own harness, J3 and J4.",
        "",
        "| well | cell | sensor at | 74HC165 | input | bit | harness pin |",
        "|------|------|-----------|---------|-------|-----|-------------|",
    ]
    for well in (0, 1):
        for cell, (name, (x, y), _pole) in enumerate(WELL_CELLS):
            chip, pin, bit = drawings.well_input(well, cell)
            lines.append(
                f"| die{well + 1} | {cell} ({name}) | ({x:+g}, {y:+g}) mm | {chip} | {pin} | {bit} "
                f"| J{3 + well}.{cell + 1} |"
            )
    lines += ["", "J3 and J4: pins 1-9 the cells, 10 3.3 V, 11 GND (a 1 x 11 harness each).", ""]
    return lines


def figures_markdown(found: dict) -> str:
    """The field model's figures as the builder reads them (hardware/FIGURES.md)."""
    low, high = found["pull_in_ordered_mT"]
    lines = [
        "# What the field model finds (generated by `python hardware/documents.py`; do not edit)",
        "",
        "From `hardware/field.py` (magpylib) on the layout of the template, with every",
        "tolerance of `hardware/geometry.py`. A reed's *signal* is the field along it",
        "(mT, see field.py); it closes above its pull-in. Margins are the factor by which",
        f"each case clears its threshold; `tests/hardware` fails any below {MIN_MARGIN}.",
        "",
        "## Slots (reeds)",
        "",
        f"Order reeds whose pull-in lies between {low} and {high} mT (the whole MITI-3V1 range is "
        f"estimated at {found['pull_in_estimate_mT'][0]}-{found['pull_in_estimate_mT'][1]} mT).",
        "",
        "| case | figure | margin |",
        "|------|--------|--------|",
        f"| own man, anywhere in his tolerance | {found['slot_read_min_mT']}-"
        f"{found['slot_read_max_mT']} mT | {found['slot_read_margin']} over {high} mT, with "
        f"neighbours taking up to {found['slot_neighbours_against_mT']} mT and a die |",
        f"| the most any men elsewhere (30 at most, stacks included) drive an empty slot's reed "
        f"(worst: {found['slot_worst_reed']}) | {found['slot_neighbours_max_mT']} mT | "
        f"{found['slot_ignore_margin']} under {low} mT, with a die on it too |",
        f"| own man under the tallest stack | {found['slot_stack_min_mT']} mT | |",
        f"| a die lying anywhere on a reed, any face, any turn | {found['die_on_point_max_mT']} mT "
        f"(magpylib exact: {found['die_on_point_exact_mT']}) | {found['die_on_point_margin']} "
        f"under {low} mT: a die is never a man |",
        "",
        f"## Dice wells (Hall switches, {HALL_PART})",
        "",
        "| case | figure | margin |",
        "|------|--------|--------|",
        f"| weakest field at a switch that must turn on, every face and turn over the seat's "
        f"tolerance ({found['well_placements']} placements) | {found['well_on_min_mT']} mT | "
        f"{found['well_on_margin']} over {HALL_ON_MT:g} mT |",
        f"| strongest at a switch that must stay off (the other well's die included: "
        f"{found['well_beside_mT']} mT) | {found['well_off_max_mT']} mT | "
        f"below {HALL_OFF_MT:g} mT (negative: it points away) |",
        f"| the well jig on the cell tested | {found['jig_on_min_mT']} mT | "
        f"{found['jig_on_margin']} over {HALL_ON_MT:g} mT |",
        f"| the jig at any other cell | {found['jig_off_max_mT']} mT | "
        f"{found['jig_off_margin']} under {HALL_OFF_MT:g} mT |",
        "",
        "## Lead forming (a centred man)",
        "",
        "| leads | signal |",
        "|-------|--------|",
    ]
    lines += [f"| {name} | {value} mT |" for name, value in found["lead_forming_mT"].items()]
    lines += [
        "",
        "## The displays offered (the frame, sheets and cut files follow from each)",
        "",
        "| display | picture (mm) | case (mm) | gap between the rows | picture to spare | "
        "reeds to order | fits |",
        "|---------|--------------|-----------|----------------------|------------------|"
        "---------------|------|",
    ]
    for key, fit in found["display_fits"].items():
        pw, ph = fit["picture_mm"]
        cw, ch, cd = fit["outline_mm"]
        wl, wh = fit["reed_window_mT"]
        lines.append(
            f"| {fit['model']}{' (chosen)' if fit['chosen'] else ''}, `cut/{key}/` | {pw} x {ph} "
            f"| {cw} x {ch} x {cd} | {fit['gap_mm']} mm | {fit['picture_spare_mm']} mm | "
            f"{wl}-{wh} mT (ignore margin {fit['slot_ignore_margin']}) | "
            f"{'yes' if fit['fits'] else 'NO'} |"
        )
    miss = found["wells"]
    lines += [
        "",
        "## A well never misreads (field.well_misreads)",
        "",
        f"Every face in every turn, yawed {miss['yaws_deg']} degrees, tilted "
        f"{miss['tilts_deg'][0]:g} to {miss['tilts_deg'][1]:g} degrees about both axes of the "
        f"floor ({miss['tilts']} tilts) and pushed {miss['offsets_mm'][0]:g} to "
        f"{miss['offsets_mm'][1]:g} mm off its seat ({miss['positions']} positions): "
        f"{miss['placements']} placements, with {miss['sensor_corners']}.",
        "",
        "| case | placements reading a wrong face |",
        "|------|---------------------------------|",
        f"| thresholds anywhere in their range | {miss['wrong_faces_thresholds_only']} |",
        f"| and one switch dead or stuck besides | "
        f"{miss['wrong_faces_with_a_dead_or_stuck_switch']} |",
        "",
        f"A die on its seat reads right for sure in {miss['read_right_seated']:.0%} of the "
        f"seated placements; off its seat or tilted it reads cocked (throw again).",
    ]
    rolled = found["dice"]
    lines += [
        "",
        "## Dice that roll fair (throws.py: pybullet)",
        "",
        f"{rolled['throws']} throws down the tower (random turn, spin and drop), each face's "
        f"share against 1/6 +- {rolled['share_bound']} (three standard errors):",
        "",
        "| face up | " + " | ".join(rolled["dice_face_shares"]) + " |",
        "|---" * (1 + len(rolled["dice_face_shares"])) + "|",
        "| share | " + " | ".join(str(v) for v in rolled["dice_face_shares"].values()) + " |",
        "",
        f"Chi-square {rolled['chi_square']} (limit {rolled['chi_square_limit']} at p = 0.001). "
        f"{rolled['seated_share']:.1%} came to rest flat in their seat; the others stopped "
        "short of it (a die arriving turned near 45 degrees can stop across the corner of "
        "the end wall and the low side wall), which the well reads as empty or cocked.",
        "",
        f"Magnetic pull, worst case (field.cling: every face against every face, turned and "
        f"slid; a man's magnet anywhere over any face): two dice face to face "
        f"{found['force_die_die_N']} N, a man's base on a die {found['force_die_man_N']} N, "
        f"against a die's weight of {found['die_weight_N']} N (bound: "
        f"{found['cling_bound']} of it): "
        + (
            "neither lifts a die."
            if max(found["force_die_die_N"], found["force_die_man_N"])
            <= found["cling_bound"] * found["die_weight_N"]
            else "**the dice cling** (open problem)."
        ),
    ]
    sag = found["surface"]
    lines += [
        "",
        "## The surface (Kirchhoff plates, Navier's series: plate.py)",
        "",
        "The sheets rest loose on the ledge ring (simply supported), the carrier and top sheet "
        "bending together; their own weight and thirty men with the creep moduli, a load "
        "pressed at the worst place with the short-term ones.",
        "",
        "| case | sag | limit |",
        "|------|-----|-------|",
        f"| own weight alone | {sag['own_weight_mm']} mm | |",
        f"| a 50 N forearm (60 x 100 mm) at the worst place | {sag['forearm_deflection_mm']} mm "
        f"| {sag['air_gap_mm'] / 2:g} mm (half the air gap) |",
        f"| a 150 N lean (100 x 100 mm) at the worst place | {sag['lean_deflection_mm']} mm | "
        f"{sag['air_gap_mm'] / 2:g} mm |",
        f"| the top sheet into a spacer window under the forearm | "
        f"{sag['top_sheet_deflection_mm']} mm | {sag['top_sheet_clearance_mm'] / 2:g} mm (half "
        "its clearance over a reed) |",
        "",
        f"So the carrier is {sag['carrier_mm']:g} mm acrylic: the thinnest stock sheet that "
        "keeps the lean within half the air gap (6 mm sags about 20 mm).",
    ]
    balance = found["die_com_offset_mm"]
    lines += [
        "",
        "## The die's balance",
        "",
        f"Centre of mass off the centre: {balance['magnets']} mm from the magnets (the same",
        f"on every face); {balance['unfilled_pips']} mm with the pips engraved, not yet painted.",
        "",
    ]
    return "\n".join(lines)


def _same(path: Path, text: str) -> bool:
    """Whether ``path`` holds ``text`` (for DXF: draws the same, in any order of objects)."""
    if not path.exists():
        return False
    old = path.read_text(encoding="utf-8")
    if path.suffix == ".dxf":
        import drawings

        return drawings.dxf_signature(old) == drawings.dxf_signature(text)
    return old == text


def write(check: bool = False) -> bool:
    """Write (or with ``check`` compare) the generated documents; ``True`` if up to date."""
    import drawings
    from field import figures

    layout = LAYOUT
    wanted = {SVG: svg(layout), WIRING: wiring(layout)}
    for choice in DISPLAYS:
        table, placed = build(choice.key), slots(layout, choice.key)
        for kind in ("guide", "top", "spacer", "carrier"):
            wanted[CUT_DIR / choice.key / f"{kind}.dxf"] = drawings.sheet_dxf(kind, placed, table)
        wanted[CUT_DIR / choice.key / "frame.dxf"] = drawings.frame_dxf(table)
    wanted[CUT_DIR / "tower.dxf"] = drawings.tower_dxf()
    wanted[CUT_DIR / "die.dxf"] = drawings.die_dxf()
    wanted[STACKUP] = drawings.stackup_svg(build())
    wanted[SCAN_BOARD] = drawings.stripboard_svg(drawings.scan_board())
    wanted[BOM] = drawings.bom_markdown(drawings.bom(layout.total_slots, len(LOCATIONS)))
    wanted[FIGURES] = figures_markdown(figures())
    fresh = True
    for path, text in wanted.items():
        if not _same(path, text):
            fresh = False
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(ROOT)}")
    if not check:
        render_png(wanted[SVG])
        print(f"wrote {PNG.relative_to(ROOT)}")
    return fresh


def render_png(text: str) -> None:
    """The template as a picture for the README, rendered from the SVG by ImageMagick
    (whose own SVG reader takes no ``class``, ``id`` or ``data-`` attributes)."""
    plain = re.sub(r' (class|id|data-slot)="[^"]*"', "", text)
    subprocess.run(
        ["convert", "-density", "48", "svg:-", "-background", "white", "-alpha", "remove"]
        + ["-colors", "64", f"PNG8:{PNG}"],
        input=plain.encode(),
        check=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check they are up to date")
    args = parser.parse_args()
    fresh = write(args.check)
    if args.check and not fresh:
        print("the documents are out of date: run python hardware/documents.py")
        return 1
    if args.check:
        import json

        from field import figures

        print(json.dumps(figures()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
