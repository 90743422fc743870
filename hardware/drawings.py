"""The mechanical half and the boards as files, generated from ``geometry.py``.

- Laser-cutter files (DXF, through ezdxf): the sheets of the stack-up, the frame's ledge,
  the dice tower with its two wells, the die's face and the well jig.
- The stack-up drawing (SVG) with the display class it needs.
- The scan board as a stripboard layout drawn to scale (SVG), from a netlist; ``nets()``
  reads the connections back from the layout itself, so a test can hold them equal.
- The bill of materials.

``documents.py`` writes them all; ``tests/hardware`` audits them.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import ezdxf
import geometry as g

CUT, ENGRAVE, NOTE = "CUT", "ENGRAVE", "NOTE"
DOWEL = 6.0  # dowel pin holes through every sheet: registration
DOWEL_INSET = 10.0
FRAME_WALL = 18.0  # the cabinet's side walls and base (plywood)
LEDGE_RING = 6.0  # the plywood ring inside the walls that the sheets rest on


# -- DXF ---------------------------------------------------------------------------------------


def _document() -> ezdxf.document.Drawing:
    doc = ezdxf.new("R2010", units=4)  # millimetres
    doc.layers.add(CUT, color=1)
    doc.layers.add(ENGRAVE, color=5)
    doc.layers.add(NOTE, color=3)
    return doc


def _rect(msp, x: float, y: float, w: float, h: float, layer: str = CUT) -> None:
    msp.add_lwpolyline(
        [(x, y), (x + w, y), (x + w, y + h), (x, y + h)], close=True, dxfattribs={"layer": layer}
    )


def _text(msp, text: str, x: float, y: float, size: float = 4.0) -> None:
    msp.add_text(text, height=size, dxfattribs={"layer": NOTE}).set_placement((x, y))


def _dowels(msp, width: float, height: float) -> None:
    for x in (DOWEL_INSET, width - DOWEL_INSET):
        for y in (DOWEL_INSET, height - DOWEL_INSET):
            msp.add_circle((x, y), DOWEL / 2, dxfattribs={"layer": CUT})


def _flip(y: float, height: float) -> float:
    """The template's y runs down the page; DXF's runs up."""
    return height - y


def sheet_dxf(kind: str, slots: list, table: Any) -> str:
    """One sheet of the stack-up as DXF text: ``guide``, ``top``, ``spacer`` or ``carrier``,
    for the table built around one display (``documents.Build``)."""
    width, height = table.sheet
    doc = _document()
    msp = doc.modelspace()
    _rect(msp, 0, 0, width, height)
    _dowels(msp, width, height)
    if kind == "guide":
        for slot in slots:
            msp.add_circle((slot.x, _flip(slot.y, height)), g.HOLE / 2, dxfattribs={"layer": CUT})
        _text(msp, f"guide sheet, {g.GUIDE:g} mm clear acrylic: {len(slots)} holes", 30, 5)
    elif kind == "top":
        _text(msp, f"top sheet, {g.TOP:g} mm clear polycarbonate", 30, 5)
    elif kind == "spacer":
        for x, y, w, h in spacer_windows(slots):
            _rect(msp, x, _flip(y + h, height), w, h)
        _text(msp, f"spacer frame, {g.SPACER:g} mm clear acrylic: windows over the strips", 30, 5)
    elif kind == "carrier":
        for slot in slots:
            rx, ry = slot.reed
            w, h = (g.REED_WIDTH, g.REED_LENGTH)
            _rect(msp, rx - w / 2, _flip(ry + h / 2, height), w, h, ENGRAVE)
        _text(msp, f"carrier, {table.carrier:g} mm clear acrylic: reed outlines engraved", 30, 5)
    else:
        raise ValueError(f"no sheet {kind!r}")
    return _dxf_text(doc)


RIB = g.RIB


def spacer_windows(slots: list) -> list[tuple[float, float, float, float]]:
    """The spacer frame's windows (x, y, width, height; template coordinates): one per
    location, over its line of slots, leaving ribs between for the top sheet to rest on."""
    windows = []
    for location in dict.fromkeys(s.location for s in slots):
        mine = [s for s in slots if s.location == location]
        xs, ys = [s.x for s in mine], [s.y for s in mine]
        x0, x1 = min(xs) - g.PITCH / 2 + RIB / 2, max(xs) + g.PITCH / 2 - RIB / 2
        y0, y1 = min(ys) - g.PITCH / 2 + RIB / 2, max(ys) + g.PITCH / 2 - RIB / 2
        windows.append((x0, y0, x1 - x0, y1 - y0))
    return windows


def frame_dxf(table: Any) -> str:
    """The frame around one display (``documents.Build``): the ledge ring the sheets rest
    on, the base board the display lies on (its VESA holes), and the four walls, as high as
    the display's case, the air gap and the sheets."""
    width, height = table.inside
    shown = table.display
    doc = _document()
    msp = doc.modelspace()
    lx, ly, lw, lh = table.opening
    clear = (width - table.sheet[0]) / 2
    _rect(msp, 0, 0, width, height)
    _rect(msp, clear + lx, _flip(ly + lh, table.sheet[1]) + clear, lw, lh)
    _text(
        msp,
        f"ledge ring, {LEDGE_RING:g} mm plywood, glued inside the walls with its top "
        f"{g.PANEL_GAP:g} mm above the display's glass: the carrier rests on it",
        30,
        4,
    )
    base = height + 20
    _rect(msp, 0, base, width, height)
    cx, cy = width / 2, base + height / 2
    vw, vh = shown.vesa
    for dx in (-vw / 2, vw / 2):
        for dy in (-vh / 2, vh / 2):
            msp.add_circle((cx + dx, cy + dy), 4.5, dxfattribs={"layer": CUT})
    _text(
        msp,
        f"base board, {FRAME_WALL:g} mm plywood: the {shown.model} lies on it, screen up, "
        f"held by its VESA {vw} x {vh} holes ({shown.vesa_screw}; centred here: "
        "check yours)",
        5,
        base + 4,
        3.0,
    )
    depth = FRAME_WALL + shown.outline[2] + g.PANEL_GAP + table.stack
    y = base + height + 20
    for n, length in enumerate((width + 2 * FRAME_WALL, width + 2 * FRAME_WALL, height, height)):
        _rect(msp, 0, y, length, depth)
        _text(
            msp, f"wall {n + 1}: {length:g} x {depth:.1f} mm, {FRAME_WALL:g} mm plywood", 5, y + 3
        )
        y += depth + 10
    return _dxf_text(doc)


def tower_dxf() -> str:
    """The dice tower and its two wells, as ``throws.py`` simulates them: for each die a
    square chute with three baffles, a ramp falling along and across, its side walls closing
    in to the well's channel, and the well's end wall; sides and divider cut as one set."""
    import throws

    doc = _document()
    msp = doc.modelspace()
    chute = throws.CHUTE
    height = throws.TOWER
    ramp = throws.RAMP_LENGTH + chute
    y = 0.0
    for side in (1, 2, 3):
        _rect(msp, 0, y, chute + ramp, height)
        for k, (level, _hang) in enumerate(throws.BAFFLES):
            x = 3.0 if k % 2 == 0 else chute - 3.0 - 3.0
            _rect(msp, x, y + level, 3.0, 3.0)
        _text(
            msp,
            f"chute wall {side} (two outer, one divider): chute {chute:g} mm square, baffle "
            f"slots at {', '.join(f'{lv:g}' for lv, _ in throws.BAFFLES)} mm; on a chute's "
            f"low side it ends {throws.CLEAR:g} mm above the ramp, the ramp's wall runs on",
            5,
            y + 5,
            3.0,
        )
        y += height + 10
    for k, (level, _hang) in enumerate(throws.BAFFLES * 2):
        _rect(msp, 0, y, throws.BAFFLE_REACH, chute)
        _text(
            msp,
            f"baffle {k % 3 + 1} of chute {k // 3 + 1}: {throws.BAFFLE_REACH:g} x {chute:g} mm, "
            f"{throws.BAFFLE_ANGLE:g} degrees down, at {level:g} mm",
            throws.BAFFLE_REACH + 5,
            y + 3,
            3.0,
        )
        y += chute + 10
    for n in (1, 2):
        _rect(msp, 0, y, ramp, chute)
        _text(
            msp,
            f"ramp {n}: falls {g.RAMP_ANGLE:g} degrees along, {throws.RAMP_CROSS:g} across; "
            f"side walls {throws.CHANNEL:g} mm apart, straight to the end wall; the well in "
            f"the low corner (end wall and low side wall lined with PTFE tape), the floor under "
            f"the die {g.WELL_FLOOR:g} mm film on the sensors",
            ramp + 5,
            y + 3,
            3.0,
        )
        y += chute + 10
    for n in (1, 2):
        _rect(msp, 0, y, throws.CHANNEL, 80.0)
        _text(msp, f"end wall of well {n}", throws.CHANNEL + 5, y + 3)
        y += 90.0
    return _dxf_text(doc)


def die_dxf() -> str:
    """A die's six faces: where their nine magnets sit (the same on every face) and which
    pole each shows, as seen on the face; and the well jig's three faces."""
    doc = _document()
    msp = doc.modelspace()
    import field

    centre = g.DIE / 2
    y = -8.0
    for face in range(1, 7):  # each face as the builder sees it, looking at it from outside
        x = (face - 1) * (g.DIE + 8)
        _rect(msp, x, 0, g.DIE, g.DIE, ENGRAVE)
        _text(msp, f"face {face}", x, g.DIE + 2, 2.5)
        for (u, v), pole in field.face_poles(face):
            msp.add_circle(
                (x + centre + u, centre + v), g.DIE_MAGNET[0] / 2, dxfattribs={"layer": CUT}
            )
            _text(msp, pole, x + centre + u + 1.2, centre + v + 1.2, 1.5)
    _text(
        msp,
        f"the die: nine magnets a face, {g.DIE_MAGNET[0]:g} x {g.DIE_MAGNET[1]:g} mm N35, "
        f"{g.DIE_SKIN:g} mm under the face, the pole out marked; a {g.DIE_CORE:g} mm brass cube "
        "at its centre; each face seen from outside, its u axis to the right "
        "(field.face_poles). The face down shows 7 minus it up.",
        0,
        y,
        2.0,
    )
    x = 0.0
    base = -20.0 - g.DIE
    for name, _normal, cell in field.JIG_FACES:
        _rect(msp, x, base, g.DIE, g.DIE, ENGRAVE)
        _, (cx, cy), _ = g.WELL_CELLS[cell]
        msp.add_circle(
            (x + centre + cx, base + centre + cy), g.DIE_MAGNET[0] / 2, dxfattribs={"layer": CUT}
        )
        _text(msp, f"jig face {name}: S out", x, base - 4, 2.0)
        x += g.DIE + 10
    return _dxf_text(doc)


def _dxf_text(doc: ezdxf.document.Drawing) -> str:
    stream = io.StringIO()
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # no dates or random ids
    try:
        doc.write(stream)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed
    return stream.getvalue()


def dxf_signature(text: str) -> list[tuple]:
    """What a DXF file draws, entity by entity (type, layer, points, text), so that two
    files can be compared whatever order ezdxf wrote its tables and objects in."""
    doc = ezdxf.read(io.StringIO(text))
    found = []
    for entity in doc.modelspace():
        kind = entity.dxftype()
        layer = entity.dxf.layer
        if kind == "LWPOLYLINE":
            shape = tuple((round(x, 3), round(y, 3)) for x, y in entity.get_points("xy"))
        elif kind == "CIRCLE":
            shape = (
                round(entity.dxf.center.x, 3),
                round(entity.dxf.center.y, 3),
                round(entity.dxf.radius, 3),
            )
        elif kind == "LINE":
            shape = (
                tuple(round(v, 3) for v in entity.dxf.start),
                tuple(round(v, 3) for v in entity.dxf.end),
            )
        elif kind == "TEXT":
            shape = (entity.dxf.text,)
        else:
            shape = ()
        found.append((kind, layer, shape))
    return found


# -- the stack-up ------------------------------------------------------------------------------


def stackup_svg(table: Any) -> str:
    """The stack-up in section, to scale (5 px a millimetre) and with every height, over
    the display chosen (``documents.Build``)."""
    sheet = table.sheet
    shown = table.display
    carrier = table.carrier
    layers = [
        (f"display glass ({shown.model}, lying flat, screen up)", 0.0, 2.0, "#333"),
        (f"air: nothing rests on the panel ({g.PANEL_GAP:g} mm)", 2.0, g.PANEL_GAP, "#fff"),
        (
            f"carrier: {carrier:g} mm clear acrylic on the frame's ledge; reeds and wires on it",
            2.0 + g.PANEL_GAP,
            carrier,
            "#cde",
        ),
        (
            f"spacer frame: {g.SPACER:g} mm clear acrylic ribs between the strips",
            2.0 + g.PANEL_GAP + carrier,
            g.SPACER,
            "#bcd",
        ),
        (
            f"top sheet: {g.TOP:g} mm clear polycarbonate, on the ribs, never on a reed",
            2.0 + g.PANEL_GAP + carrier + g.SPACER,
            g.TOP,
            "#abc",
        ),
        (
            f"guide sheet: {g.GUIDE:g} mm clear acrylic, {g.HOLE:g} mm holes, {g.WEB:g} mm webs",
            2.0 + g.PANEL_GAP + carrier + g.SPACER + g.TOP,
            g.GUIDE,
            "#9ab",
        ),
    ]
    scale = 5.0
    total = layers[-1][1] + layers[-1][2] + 10
    height = total * scale + 120
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{height:g}" '
        'font-family="sans-serif" font-size="12">',
        '<rect width="900" height="100%" fill="white"/>',
        "<title>Backgammon Table stack-up, in section</title>",
    ]
    for name, z, thick, colour in layers:
        top = height - 60 - (z + thick) * scale
        out.append(
            f'<rect class="layer" x="40" y="{top:g}" width="300" height="{thick * scale:g}" '
            f'fill="{colour}" stroke="black" stroke-width="0.5"/>'
        )
        out.append(f'<text x="350" y="{top + thick * scale / 2 + 4:g}">{name}</text>')
    reed_z = height - 60 - (2.0 + g.PANEL_GAP + carrier + g.REED_Z) * scale
    out.append(
        f'<rect class="reed" x="150" y="{reed_z - g.REED_WIDTH * scale / 2:g}" '
        f'width="{g.REED_LENGTH * scale:g}" height="{g.REED_WIDTH * scale:g}" fill="#36c"/>'
    )
    man_z = height - 60 - (2.0 + g.PANEL_GAP + carrier + g.SURFACE) * scale
    out.append(
        f'<rect class="man" x="110" y="{man_z - g.MAN_THICKNESS * scale:g}" '
        f'width="{g.MAN * scale / 2:g}" height="{g.MAN_THICKNESS * scale:g}" fill="none" '
        'stroke="#963" stroke-dasharray="4 2"/>'
    )
    out.append(
        f'<text x="40" y="{height - 30:g}">A man (dashed, half shown) on the top sheet; his reed '
        f"(blue) {g.SURFACE - g.REED_Z:g} mm below his magnet's face. "
        f"Frame: {FRAME_WALL:g} mm walls, "
        f"the sheets on a {table.opening[0]:g} mm ledge.</text>"
    )
    out.append(
        f'<text x="40" y="{height - 12:g}">The sheets are {sheet[0]:g} x {sheet[1]:g} mm; the '
        f"picture, {shown.picture[0]:.1f} x {shown.picture[1]:.1f} mm, covers the playing "
        f"area with {table.fits()['picture_spare_mm']:g} mm to spare.</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the scan board on stripboard --------------------------------------------------------------


@dataclass
class Part:
    """A part on the board: its pins in one or two vertical columns, pin 1 at the top left."""

    ref: str
    value: str
    pins: int
    columns: int = 2  # 2: a DIP (pins down the left, then up the right); 1: a single row
    span: int = 3  # holes between the two columns
    names: dict[int, str] = field(default_factory=dict)

    def holes(self, row: int, column: int) -> dict[int, tuple[int, int]]:
        """Each pin's hole with the part's pin 1 at (row, column)."""
        found = {}
        if self.columns == 1:
            for pin in range(1, self.pins + 1):
                found[pin] = (row + pin - 1, column)
            return found
        half = self.pins // 2
        for pin in range(1, half + 1):
            found[pin] = (row + pin - 1, column)
            found[self.pins + 1 - pin] = (row + pin - 1, column + self.span)
        return found


@dataclass
class Stripboard:
    """A stripboard layout: copper strips run along the rows; parts, cuts and wire links."""

    name: str
    rows: int
    columns: int
    placed: dict[str, tuple[Part, dict[int, tuple[int, int]]]]
    cuts: set[tuple[int, int]]
    links: list[tuple[tuple[int, int], tuple[int, int], str]]
    netlist: dict[str, set[tuple[str, int]]]

    def nets(self) -> list[set[tuple[str, int]]]:
        """The part pins that the copper and links connect, as groups (read back from the
        layout: strips, cuts and links)."""
        parent: dict[tuple[int, int], tuple[int, int]] = {}

        def find(hole: tuple[int, int]) -> tuple[int, int]:
            parent.setdefault(hole, hole)
            while parent[hole] != hole:
                parent[hole] = parent[parent[hole]]
                hole = parent[hole]
            return hole

        def join(a: tuple[int, int], b: tuple[int, int]) -> None:
            parent[find(a)] = find(b)

        for row in range(self.rows):
            for column in range(self.columns - 1):
                here, there = (row, column), (row, column + 1)
                if here not in self.cuts and there not in self.cuts:
                    join(here, there)
        for a, b, _ in self.links:
            join(a, b)
        groups: dict[tuple[int, int], set[tuple[str, int]]] = {}
        for ref, (_, holes) in self.placed.items():
            for pin, hole in holes.items():
                groups.setdefault(find(hole), set()).add((ref, pin))
        return [group for group in groups.values() if len(group) > 1]

    def used_holes(self) -> list[tuple[int, int]]:
        """Every hole a part pin or a link end takes (each may take one)."""
        found = [hole for _, holes in self.placed.values() for hole in holes.values()]
        for a, b, _ in self.links:
            found += [a, b]
        return found


BAND_COLUMNS = 60  # parts are laid in bands at most this many holes wide


def layout_stripboard(
    name: str, parts: list[Part], netlist: dict[str, set[tuple[str, int]]]
) -> Stripboard:
    """Lay the parts out in bands, each pin on its own piece of strip two holes long beside
    it; wire links chain each net's pins, piece to piece (the power nets too)."""
    placed: dict[str, tuple[Part, dict[int, tuple[int, int]]]] = {}
    cuts: set[tuple[int, int]] = set()
    exits: dict[tuple[str, int], list[tuple[int, int]]] = {}
    bands: list[list[Part]] = [[]]
    width = 0
    for part in parts:
        need = _part_width(part)
        if width + need > BAND_COLUMNS and bands[-1]:
            bands.append([])
            width = 0
        bands[-1].append(part)
        width += need
    top = 1
    links: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    widest = 0
    for band in bands:
        tallest = max(p.pins if p.columns == 1 else p.pins // 2 for p in band)
        column = 1
        for part in band:
            # cut | exit2 exit1 | pins | cut... | pins | exit1 exit2 | cut
            pins_left = column + 3
            holes = part.holes(top, pins_left)
            placed[part.ref] = (part, holes)
            pins_right = pins_left + (part.span if part.columns == 2 else 0)
            for pin, (row, col) in holes.items():
                if col == pins_left:
                    cuts.add((row, column))
                    exits[(part.ref, pin)] = [(row, col - 1), (row, col - 2)]
                if part.columns == 2 and col == pins_right:
                    for c in range(pins_left + 1, pins_right):
                        cuts.add((row, c))
                    cuts.add((row, col + 3))
                    exits[(part.ref, pin)] = [(row, col + 1), (row, col + 2)]
            column = pins_right + (4 if part.columns == 2 else 1)
        widest = max(widest, column)
        top += tallest + 2
    for net, pins in netlist.items():
        chain = sorted(pins)
        for a, b in zip(chain, chain[1:], strict=False):
            links.append((exits[a][1], exits[b][0], net))
    return Stripboard(
        name=name,
        rows=top,
        columns=widest + 1,
        placed=placed,
        cuts=cuts,
        links=links,
        netlist={net: pins for net, pins in netlist.items() if len(pins) > 1},
    )


def _part_width(part: Part) -> int:
    return (part.span + 7) if part.columns == 2 else 4


PITCH_IN = 2.54


def stripboard_svg(board: Stripboard) -> str:
    """The layout seen from the parts' side, 1:1 (0.1 inch pitch), cuts marked with x."""
    w, h = (board.columns + 1) * PITCH_IN, (board.rows + 1) * PITCH_IN
    legend = 40.0
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h + legend:g}mm" '
        f'viewBox="0 0 {w:g} {h + legend:g}" font-family="sans-serif">',
        f"<title>{board.name}: stripboard, parts side, 1:1</title>",
        f'<rect width="{w:g}" height="{h + legend:g}" fill="white"/>',
    ]

    def xy(hole: tuple[int, int]) -> tuple[float, float]:
        return (hole[1] + 1) * PITCH_IN, (hole[0] + 1) * PITCH_IN

    for row in range(board.rows):
        y = (row + 1) * PITCH_IN
        out.append(
            f'<rect class="strip" x="{PITCH_IN / 2:g}" y="{y - 0.9:g}" '
            f'width="{board.columns * PITCH_IN:g}" height="1.8" fill="#e8b07a"/>'
        )
    for hole in sorted(board.cuts):
        x, y = xy(hole)
        out.append(
            f'<path class="cut" d="M{x - 0.9:g} {y - 0.9:g}l1.8 1.8m0 -1.8l-1.8 1.8" '
            'stroke="red" stroke-width="0.4"/>'
        )
    for a, b, net in board.links:
        (x1, y1), (x2, y2) = xy(a), xy(b)
        out.append(
            f'<line class="link" data-net="{net}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
            'stroke="#36c" stroke-width="0.5"/>'
        )
    for ref, (part, holes) in board.placed.items():
        rows = [r for r, _ in holes.values()]
        cols = [c for _, c in holes.values()]
        x0, y0 = xy((min(rows), min(cols)))
        x1, y1 = xy((max(rows), max(cols)))
        out.append(
            f'<rect class="part" data-ref="{ref}" x="{x0 - 1.2:g}" y="{y0 - 1.2:g}" '
            f'width="{x1 - x0 + 2.4:g}" height="{y1 - y0 + 2.4:g}" fill="none" stroke="black" '
            'stroke-width="0.3"/>'
        )
        out.append(f'<text x="{x0:g}" y="{y0 - 1.6:g}" font-size="1.8">{ref} {part.value}</text>')
        for hole in holes.values():
            x, y = xy(hole)
            out.append(f'<circle class="pin" cx="{x:g}" cy="{y:g}" r="0.6" fill="black"/>')
    out.append(
        f'<text x="2" y="{h + 8:g}" font-size="3">{board.name}: {board.columns} x {board.rows} '
        f"holes ({board.columns * PITCH_IN:.0f} x {board.rows * PITCH_IN:.0f} mm), "
        f"{len(board.cuts)} track cuts (red x), {len(board.links)} wire links (blue).</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def scan_board() -> Stripboard:
    """The scan board: the Pico, the row drivers (three 74HC595), the dice wells' shift
    registers (two 74HC165), the pull-ups, decoupling and the harness headers."""
    pico = Part("U1", "Raspberry Pi Pico", 40, span=7)
    parts = [
        pico,
        Part("U2", "74HC595", 16),
        Part("U3", "74HC595", 16),
        Part("U6", "74HC595", 16),
        Part("U4", "74HC165", 16),
        Part("U5", "74HC165", 16),
        Part("U7", "74HC165", 16),
        Part("RN1", "10k x8 bussed (cols 0-7)", 9, columns=1),
        Part("RN2", "10k x8 bussed (cols 8-15)", 9, columns=1),
        Part("RN3", "10k x8 bussed (well 1 ring)", 9, columns=1),
        Part("RN4", "10k x8 bussed (well 2 ring)", 9, columns=1),
        Part("RN5", "10k x8 bussed (centres)", 9, columns=1),
        Part("J1", "rows 0-11 (1x14: rows, -, -)", 14, columns=1),
        Part("J2", "columns 0-15 (1x16)", 16, columns=1),
        Part("J3", "dice well 1 (1x11)", 11, columns=1),
        Part("J4", "dice well 2 (1x11)", 11, columns=1),
        Part("J5", "maintenance jumper", 2, columns=1),
        *[Part(f"C{n}", "100 nF", 2, columns=1) for n in range(1, 7)],
    ]
    return layout_stripboard("scan board", parts, scan_netlist())


def _pico_gp(gp: int) -> int:
    """The Pico's header pin for GPIO ``gp`` (GP0-GP22, GP26-GP28)."""
    order = [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 29]
    if gp <= 22:
        return order[gp]
    return {26: 31, 27: 32, 28: 34}[gp]


# 74HC165 inputs (pin numbers) in the order it shifts them out: H first.
_SHIFT_PINS = {"H": 6, "G": 5, "F": 4, "E": 3, "D": 14, "C": 13, "B": 12, "A": 11}


def well_input(well: int, cell: int) -> tuple[str, str, int]:
    """Where Hall switch ``cell`` of ``well`` (0 or 1) enters the chain: the 74HC165, its
    input letter, and the bit the firmware reads it as (``firmware/board.py``): each well's
    ring on a chip of its own, the two centres on the third."""
    if cell == g.CENTRE:
        bit = 16 + well
    else:
        bit = 8 * well + cell
    chip = ("U4", "U5", "U7")[bit // 8]
    return chip, "HGFEDCBA"[bit % 8], bit


def scan_netlist() -> dict[str, set[tuple[str, int]]]:
    """Every connection of the scan board, from hardware/README.md's pin map."""
    nets: dict[str, set[tuple[str, int]]] = {}

    def add(net: str, *pins: tuple[str, int]) -> None:
        nets.setdefault(net, set()).update(pins)

    add("3V3", ("U1", 36))
    add("GND", ("U1", 38))
    for chip in ("U2", "U3", "U6", "U4", "U5", "U7"):
        add("3V3", (chip, 16))
        add("GND", (chip, 8))
    for chip in ("U2", "U3", "U6"):
        add("SRCLK", (chip, 11))
        add("RCLK", (chip, 12))
        add("3V3", (chip, 10))  # SRCLR high
        add("GND", (chip, 13))  # OE low
    add("SER", ("U1", _pico_gp(2)), ("U2", 14))
    add("SRCLK", ("U1", _pico_gp(3)))
    add("RCLK", ("U1", _pico_gp(4)))
    add("CHAIN1", ("U2", 9), ("U3", 14))
    add("CHAIN2", ("U3", 9), ("U6", 14))
    outputs = [15, 1, 2, 3, 4, 5, 6, 7]  # Q0-Q7
    for row in range(12):
        chip = ("U2", "U3")[row // 8]
        add(f"ROW{row}", (chip, outputs[row % 8]), ("J1", row + 1))
    add("GND", ("J1", 13))
    add("3V3", ("J1", 14))
    for column in range(16):
        network = ("RN1", "RN2")[column // 8]
        add(
            f"COL{column}",
            ("U1", _pico_gp(6 + column)),
            (network, 2 + column % 8),
            ("J2", column + 1),
        )
    add("3V3", ("RN1", 1), ("RN2", 1), ("RN3", 1), ("RN4", 1), ("RN5", 1))
    # 74HC165: SH/LD 1, CLK 2, E 3, F 4, G 5, H 6, QH 9, SER 10, D 14, CLK INH 15
    for chip in ("U4", "U5", "U7"):
        add("LOAD", (chip, 1))
        add("WCLK", (chip, 2))
        add("GND", (chip, 15))
    add("LOAD", ("U1", _pico_gp(26)))
    add("WCLK", ("U1", _pico_gp(27)))
    add("WDATA", ("U1", _pico_gp(28)), ("U4", 9))
    add("WCHAIN", ("U5", 9), ("U4", 10))
    add("WCHAIN2", ("U7", 9), ("U5", 10))
    add("GND", ("U7", 10))  # nothing beyond the third: its SER reads a steady level
    used = set()
    for well in (0, 1):
        for cell in range(len(g.WELL_CELLS)):
            chip, pin, _ = well_input(well, cell)
            used.add((chip, pin))
            net = f"HALL{well + 1}.{cell + 1}"
            network = ("RN3", "RN4")[well] if cell != g.CENTRE else "RN5"
            resistor = 2 + (cell if cell != g.CENTRE else well)
            add(net, (chip, _SHIFT_PINS[pin]), (network, resistor), (f"J{3 + well}", cell + 1))
        add("3V3", (f"J{3 + well}", 10))
        add("GND", (f"J{3 + well}", 11))
    for pin in "HGFEDCBA":  # the third chip's inputs left over read high: no cell
        if ("U7", pin) not in used:
            add("3V3", ("U7", _SHIFT_PINS[pin]))
    add("MAINT", ("U1", _pico_gp(22)), ("J5", 1))
    add("GND", ("J5", 2))
    for n in range(1, 7):
        add("3V3", (f"C{n}", 1))
        add("GND", (f"C{n}", 2))
    return nets


# -- the bill of materials ---------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of the bill of materials; ``price`` is an estimate per unit in euros."""

    qty: int
    part: str
    order_code: str
    price: float
    note: str = ""


CATALOGUE = (
    "prices are estimates in euros made without a catalogue (none could be reached from the "
    "machine these documents are built on): look each order code up in one catalogue on one "
    "day and replace them"
)


# Sheet prices, estimates: euros a square metre and millimetre of thickness, cut to size.
ACRYLIC_EUR = 14.0
POLYCARBONATE_EUR = 20.0
PLYWOOD_EUR = 1.5


def _sheet_lines(table: Any) -> list[Line]:
    """The stack's sheets and the frame's plywood for the table built around one display
    (``documents.Build``), sized and priced from its cut files' outlines."""
    key = table.display.key
    area = table.sheet[0] * table.sheet[1] * 1e-6
    size = f"{table.sheet[0]:g} x {table.sheet[1]:g} mm"
    inside = table.inside
    depth = FRAME_WALL + table.display.outline[2] + g.PANEL_GAP + table.stack
    walls = 2 * (inside[0] + 2 * FRAME_WALL + inside[1]) * depth * 1e-6
    boards = inside[0] * inside[1] * 1e-6  # base board; the ledge ring is cut from its like
    lines = []
    for name, material, price, thickness, note in (
        ("carrier", "acrylic", ACRYLIC_EUR, table.carrier, "thickness from plate.py"),
        ("spacer frame", "acrylic", ACRYLIC_EUR, g.SPACER, ""),
        ("top sheet", "polycarbonate", POLYCARBONATE_EUR, g.TOP, ""),
        ("guide sheet", "acrylic", ACRYLIC_EUR, g.GUIDE, ""),
    ):
        cut = {"carrier": "carrier", "spacer frame": "spacer", "top sheet": "top"}.get(
            name, "guide"
        )
        lines.append(
            Line(
                1,
                f"clear {material}, {thickness:g} mm, {size}, {name}",
                f"laser cut from cut/{key}/{cut}.dxf",
                round(area * thickness * price, 2),
                note,
            )
        )
    lines.append(
        Line(
            1,
            f"plywood: 18 mm walls ({walls:.2f} m2) and base, 6 mm ledge ring ({boards:.2f} m2)",
            f"cut from cut/{key}/frame.dxf",
            round((walls + boards) * 18 * PLYWOOD_EUR + boards * 6 * PLYWOOD_EUR, 2),
        )
    )
    return lines


def bom(reeds: int, locations: int, table: Any = None) -> list[Line]:
    """Everything one table needs, counted from the layout, around the display of ``table``
    (``documents.Build``; the display chosen by default)."""
    if table is None:
        import documents

        table = documents.build()
    shown = table.display
    cells = len(g.WELL_CELLS)
    import documents
    import field

    ribbon = int(documents.harness(documents.LAYOUT, shown.key)["ribbon_mm"])  # type: ignore[call-overload]
    at_low = math.ceil(field.ampere_turns(g.ORDER_PULL_IN_MT[0]))
    at_high = math.floor(field.ampere_turns(g.ORDER_PULL_IN_MT[1]))
    parts = [part for part, _ in scan_board().placed.values()]
    values = {value: sum(1 for p in parts if p.value == value) for value in ("74HC595", "74HC165")}

    import pcb

    board_mm = tuple(round(n * pcb.PITCH, 2) for n in pcb.BOARD)
    headers = sum(p.pins for p in parts if p.ref.startswith(("J", "U1")))

    def count(prefix: str) -> int:
        return sum(1 for p in parts if p.ref.rstrip("0123456789") == prefix)

    return [
        Line(1, "Raspberry Pi 4 Model B, 2 GB", "Raspberry Pi SC0193", 50.0),
        Line(1, "Pi power supply, 5.1 V 3 A, USB-C", "Raspberry Pi SC0218", 9.0),
        Line(1, "microSD card, 32 GB, A1", "SanDisk SDSQUA4-032G-GN6MA", 8.0),
        Line(
            1,
            f"television, {shown.visible_inches:g}-inch visible, 16:9, HDMI",
            shown.model,
            shown.price,
            f"lies screen up in the frame (cut/{shown.key}/); check its case against "
            "displays.py before cutting",
        ),
        Line(1, "HDMI cable, micro-HDMI to HDMI, 1 m", "Raspberry Pi SC0307", 6.0),
        Line(
            1,
            "Raspberry Pi Pico",
            "Raspberry Pi SC0915",
            4.0,
            "RP2040 only: the firmware refuses an RP2350",
        ),
        Line(1, "USB-A to micro-USB cable, 0.5 m", "generic", 3.0, "Pi to Pico"),
        Line(
            reeds,
            "reed switch, axial, MITI-3V1",
            f"Littelfuse/Hamlin MITI-3V1, pull-in {at_low}-{at_high} AT",
            0.6,
            f"one AT band inside {at_low}-{at_high} AT (= {g.ORDER_PULL_IN_MT[0]:g}-"
            f"{g.ORDER_PULL_IN_MT[1]:g} mT, field.ampere_turns)",
        ),
        Line(
            reeds,
            "Schottky diode, axial DO-34",
            "Vishay BAT85S-TR",
            0.05,
            "one per reed, 10 mm or more from it",
        ),
        Line(
            2 * cells, "Hall switch, unipolar, TO-92", f"TI {g.HALL_PART}QLPG", 0.9, "nine a well"
        ),
        Line(values["74HC595"], "8-bit shift register, DIP-16", "TI SN74HC595N", 0.5, "row drive"),
        Line(
            values["74HC165"],
            "8-bit parallel-in shift register, DIP-16",
            "TI SN74HC165N",
            0.6,
            "dice wells",
        ),
        Line(
            count("RN"),
            "10 kOhm bussed resistor network, SIP-9",
            "Bourns 4609X-101-103LF",
            0.3,
            "column and Hall pull-ups",
        ),
        Line(count("C"), "100 nF ceramic capacitor, 2.54 mm", "KEMET C320C104K5R5TA", 0.15),
        Line(
            2 * cells,
            "10 nF ceramic capacitor, 2.54 mm",
            "KEMET C320C103K5R5TA",
            0.15,
            "across each Hall switch's supply",
        ),
        Line(
            1,
            f"printed circuit board, 2 layers, {board_mm[0]:g} x {board_mm[1]:g} mm, "
            "1.6 mm FR-4, through-hole",
            "any PCB fab, from kicad/gerbers/ (Gerbers, PTH and NPTH drill files)",
            25.0,
            "the scan board as ordered (kicad/, pcb.py); price an estimate for the fab's "
            "minimum order of five with shipping; or the stripboard below instead",
        ),
        Line(
            0,
            "stripboard, Eurocard 160 x 233 mm, 2.54 mm pitch",
            "generic",
            12.0,
            "the hand-built scan board instead of the PCB (scan-board.svg), cut to size",
        ),
        Line(
            math.ceil(headers / 40),
            "pin header strip, 1 x 40, 2.54 mm",
            "generic",
            0.5,
            f"J1-J5 and the Pico: {headers} pins",
        ),
        Line(
            locations,
            "IDC socket, 2 x 15, 2.54 mm, for 1.27 mm ribbon",
            "Amphenol FCI 71600-030LF (or equal)",
            0.6,
            "one pressed on the bus at each strip (WIRING.md)",
        ),
        Line(
            locations,
            "box header, 2 x 15, 2.54 mm, straight",
            "Amphenol FCI 75869-131LF (or equal)",
            0.5,
            "on each strip's tap board",
        ),
        Line(
            locations,
            "stripboard offcut, 10 x 8 holes",
            "generic",
            0.3,
            "a strip's tap board",
        ),
        Line(
            math.ceil(ribbon / 1000),
            "flat ribbon cable, 30 way, 1.27 mm, per metre",
            "3M 3302/30 (or equal)",
            3.0,
            f"two buses, {ribbon} mm in all (WIRING.md)",
        ),
        Line(
            2 * 30 + 2 * 11,
            "crimp contact, female, 2.54 mm (Dupont)",
            "generic",
            0.03,
            "the buses' ends onto J1/J2, the wells' harnesses onto J3/J4",
        ),
        Line(
            2 * 2 + 2,
            "crimp housing, 1 x 14 / 1 x 16 / 1 x 11, 2.54 mm (Dupont)",
            "generic",
            0.2,
            "J1 and J2 for each bus, J3 and J4",
        ),
        Line(1, "crimp tool for 2.54 mm contacts", "Engineer PA-09 (or equal)", 35.0),
        Line(1, "IDC press (a bench vice will do)", "generic", 0.0, "to press the sockets"),
        Line(4, "nylon standoff M3 x 10 with screws", "generic", 0.3, "the scan board"),
        Line(
            4,
            f"machine screw {table.display.vesa_screw} x 16 with washer",
            "generic",
            0.2,
            "the display to the base board (VESA)",
        ),
        Line(40, "wood screw 4 x 40", "generic", 0.05, "the frame's walls, base and ledge ring"),
        Line(20, "adhesive cable clip", "generic", 0.1, "the buses under the carrier's edge"),
        Line(
            1,
            "wire, 30 AWG, wire-wrap, 3 colours x 15 m",
            "generic",
            12.0,
            "strip wiring on the carrier",
        ),
        Line(
            30,
            "checker, 38 x 8 mm, with a recess for the magnet",
            "printed or turned",
            0.5,
            "15 a side",
        ),
        Line(
            30,
            "checker magnet, 8 x 2 mm, N35, axial",
            "generic",
            0.15,
            "north down, set with the gluing jig",
        ),
        Line(
            3,
            "die or jig, 30 mm printed cube (PLA, solid)",
            "printed from die.dxf",
            0.8,
            "two dice and the well jig",
        ),
        Line(
            2 * 6 * cells + 3,
            f"die magnet, {g.DIE_MAGNET[0]:g} x {g.DIE_MAGNET[1]:g} mm, N35, axial",
            "generic",
            0.05,
            f"{6 * cells} a die, 3 in the jig",
        ),
        Line(
            2,
            f"brass cube, {g.DIE_CORE:g} mm (cut from square bar), a die's core",
            "generic",
            1.5,
            "printed in at the die's centre",
        ),
        *_sheet_lines(table),
        Line(1, "clear acrylic, 3 mm, dice tower", "laser cut from tower.dxf", 15.0),
        Line(1, "PTFE tape, self-adhesive, 0.1 x 25 mm, 1 m", "generic", 4.0, "lines the seats"),
        Line(1, f"polyester (PET) film, {g.WELL_FLOOR:g} mm, the wells' floors", "generic", 3.0),
        Line(
            4, "dowel pin, 6 x 30 mm, steel-free (brass)", "generic", 0.5, "registers every sheet"
        ),
        Line(
            5,
            "momentary push button, panel mount (2 with an LED)",
            "generic",
            2.0,
            "Done x2, Menu, Back, Select",
        ),
        Line(4, "LED with 330 Ohm resistor", "generic", 0.2),
    ]


def bom_markdown(lines: list[Line]) -> str:
    """The bill of materials as a Markdown table with the total."""
    out = [
        "# Bill of materials (generated by `python hardware/documents.py`; do not edit)",
        "",
        f"One table. Quantities are counted from the layout. Prices: {CATALOGUE}.",
        "",
        "| qty | part | order code | each (EUR, estimate) | line | note |",
        "|-----|------|------------|----------------------|------|------|",
    ]
    total = 0.0
    for line in lines:
        cost = line.qty * line.price
        total += cost
        out.append(
            f"| {line.qty} | {line.part} | {line.order_code} | {line.price:.2f} | "
            f"{cost:.2f} | {line.note} |"
        )
    out += ["", f"**Total (estimate): EUR {total:.2f}**", ""]
    return "\n".join(out)


def bom_total(lines: Iterable[Line]) -> float:
    """The bill's total."""
    return round(sum(line.qty * line.price for line in lines), 2)
