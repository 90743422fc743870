"""The scan board as a KiCad project a maker can order, generated from ``drawings.scan_netlist()``.

    python hardware/pcb.py            # write hardware/kicad/scan-board.kicad_{pro,sch,pcb}
    python hardware/pcb.py --check    # exit 1 if they are out of date

The same netlist as the stripboard (``drawings.scan_board()``), so the two cannot drift: a
schematic with its symbols embedded (every pin labelled with its net, unused pins flagged),
and a two-layer through-hole board with its footprints embedded, every net routed here by a
grid maze router (A* on a 1.27 mm grid, both layers, vias), tracks 0.25 mm with at least
0.2 mm clearance. ``.ci/kicad-check.sh`` runs KiCad's ERC and DRC on them and makes the
Gerbers and drill file; ``copper_groups()`` reads the copper back to the pins it joins.
"""

from __future__ import annotations

import argparse
import heapq
import json
import re
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import drawings

HERE = Path(__file__).resolve().parent
KICAD = HERE / "kicad"
NAME = "scan-board"

PITCH = 2.54  # the parts' pin pitch; pads sit on it
STEP = PITCH / 2  # the routing grid: a track may pass between two pads
ORIGIN = (20.0, 20.0)  # the board's top left corner on the drawing sheet, mm
BOARD = (37, 37)  # board size in pitches (93.98 x 93.98 mm)
TRACK = 0.25
CLEARANCE = 0.2
VIA = (0.6, 0.3)  # diameter, drill
MOUNTING = 3.2  # M3 holes at the corners, one pitch in
THICKNESS = 1.6

# Where each part's pin 1 sits, in pitches from the board's corner, and how a single row
# runs: "v" down, "h" to the right. DIPs always have pin 1 top left, pins down then up.
PLACEMENT: dict[str, tuple[int, int, str]] = {
    "U1": (3, 3, "v"),
    "RN2": (9, 30, "h"),
    "RN1": (3, 32, "h"),
    "J2": (4, 34, "h"),
    "U4": (14, 4, "v"),
    "U5": (20, 4, "v"),
    "U7": (26, 4, "v"),
    "C4": (15, 2, "h"),
    "C5": (21, 2, "h"),
    "C6": (27, 2, "h"),
    "RN3": (14, 14, "h"),
    "RN5": (14, 16, "h"),
    "RN4": (24, 16, "h"),
    "J3": (33, 4, "v"),
    "J4": (35, 4, "v"),
    "J5": (12, 15, "v"),
    "U2": (14, 21, "v"),
    "U3": (20, 21, "v"),
    "U6": (26, 21, "v"),
    "C1": (15, 19, "h"),
    "C2": (21, 19, "h"),
    "C3": (27, 19, "h"),
    "J1": (14, 32, "h"),
}

PIN_NAMES = {
    "74HC595": "QB QC QD QE QF QG QH GND QH' ~SRCLR SRCLK RCLK ~OE SER QA VCC",
    "74HC165": "SH/~LD CLK E F G H ~QH GND QH SER A B C D CLK_INH VCC",
    "Raspberry Pi Pico": (
        "GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 "
        "GP15 GP16 GP17 GND GP18 GP19 GP20 GP21 GND GP22 RUN GP26 GP27 AGND GP28 ADC_VREF "
        "3V3 3V3_EN GND VSYS VBUS"
    ),
}


# Each chip's pins' electrical types for KiCad's ERC ("o" output, "i" input, "p" power
# input, "P" power output, "b" bidirectional); the others' pins are passive.
PIN_TYPES = {
    "74HC595": "oooooooponiiiiop",
    "74HC165": "iiiiiiopoiiiiiip",
}


def _pin_type(value: str, pin: int) -> str:
    """A pin's type as KiCad names it."""
    names = {
        "o": "output",
        "i": "input",
        "p": "power_in",
        "P": "power_out",
        "b": "bidirectional",
        "n": "passive",
    }
    if value == "Raspberry Pi Pico":
        name = PIN_NAMES[value].split()[pin - 1]
        code = "b" if name.startswith("GP") else "P" if name == "3V3" else "i"
        code = "p" if name in ("GND", "AGND", "VSYS", "VBUS", "ADC_VREF") else code
    else:
        code = PIN_TYPES.get(value, "n" * 40)[pin - 1]
    return names[code]


def _uid(*names: object) -> str:
    """A stable UUID for one item, so the files are the same each time they are written."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "bgtable/scan-board/" + "/".join(map(str, names))))


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _mm(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# -- the parts and where their pads are ----------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """One part on the board: its pads' positions in pitches from the board's corner."""

    ref: str
    value: str
    pins: int
    dip: bool
    span: int
    pads: dict[int, tuple[int, int]]


def parts() -> list[Placed]:
    """Every part of the stripboard's list, placed on the PCB (``PLACEMENT``)."""
    found = []
    for part, _ in drawings.scan_board().placed.values():
        x, y, run = PLACEMENT[part.ref]
        pads: dict[int, tuple[int, int]] = {}
        if part.columns == 2:
            for pin, (row, column) in part.holes(0, 0).items():
                pads[pin] = (x + column, y + row)
        else:
            for pin in range(1, part.pins + 1):
                pads[pin] = (x + pin - 1, y) if run == "h" else (x, y + pin - 1)
        found.append(Placed(part.ref, part.value, part.pins, part.columns == 2, part.span, pads))
    return found


def pin_nets() -> dict[tuple[str, int], str]:
    """Each connected pin's net, from the netlist."""
    return {pin: net for net, pins in drawings.scan_netlist().items() for pin in pins}


def mounting_holes() -> list[tuple[int, int]]:
    """The four M3 holes, one pitch in from each corner (in pitches)."""
    w, h = BOARD
    return [(1, 1), (w - 1, 1), (1, h - 1), (w - 1, h - 1)]


# -- the router -----------------------------------------------------------------------------------

Node = tuple[int, int, int]  # layer (0 front, 1 back), x, y in routing steps


class Unroutable(RuntimeError):
    """The router found no path for a connection."""


@dataclass
class Routed:
    """The copper of every net: each track as a list of grid nodes, and the vias."""

    paths: dict[str, list[list[Node]]]
    vias: dict[str, list[tuple[int, int]]]


def route(placed: list[Placed], nets: dict[str, set[tuple[str, int]]]) -> Routed:
    """Route every net on the 1.27 mm grid, front tracks preferring to run across and back
    tracks down; a net that fails is routed first on the next pass (at most 30 passes)."""
    order = sorted(nets, key=lambda n: (len(nets[n]) > 8, _spread(placed, nets[n]), n))
    for _ in range(30):
        failed, routed = _route_once(placed, nets, order)
        if not failed:
            return routed
        order = failed + [n for n in order if n not in failed]
    raise Unroutable(f"nets left unrouted: {', '.join(failed)}")


def _spread(placed: list[Placed], pins: set[tuple[str, int]]) -> int:
    where = {p.ref: p.pads for p in placed}
    xs = [where[ref][pin][0] for ref, pin in pins]
    ys = [where[ref][pin][1] for ref, pin in pins]
    return max(xs) - min(xs) + max(ys) - min(ys)


def _route_once(
    placed: list[Placed], nets: dict[str, set[tuple[str, int]]], order: list[str]
) -> tuple[list[str], Routed]:
    nx, ny = 2 * BOARD[0], 2 * BOARD[1]
    owner: dict[tuple[int, int, int], str] = {}  # (layer, x, y) -> net ("" blocked)
    pad_net: dict[tuple[int, int], str] = {}
    net_of = {pin: net for net, pins in nets.items() for pin in pins}
    for part in placed:
        for pin, (x, y) in part.pads.items():
            net = net_of.get((part.ref, pin), "")
            pad_net[(2 * x, 2 * y)] = net
            for layer in (0, 1):
                owner[(layer, 2 * x, 2 * y)] = net
    for hx, hy in mounting_holes():
        for x in range(2 * hx - 3, 2 * hx + 4):
            for y in range(2 * hy - 3, 2 * hy + 4):
                if ((x - 2 * hx) ** 2 + (y - 2 * hy) ** 2) * STEP**2 < 2.3**2:
                    owner[(0, x, y)] = owner[(1, x, y)] = ""

    def free(node: Node, net: str) -> bool:
        _, x, y = node
        if not (0 < x < nx and 0 < y < ny):
            return False
        return owner.get(node, net) == net

    def via_ok(x: int, y: int, net: str) -> bool:
        if not (free((0, x, y), net) and free((1, x, y), net)) or (x, y) in pad_net:
            return False
        near = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return all(pad_net.get(n, net) == net for n in near)

    where = {p.ref: p.pads for p in placed}
    paths: dict[str, list[list[Node]]] = {}
    vias: dict[str, list[tuple[int, int]]] = {}
    failed = []
    for net in order:
        pads = sorted((2 * where[r][p][0], 2 * where[r][p][1]) for r, p in nets[net])
        tree = {(layer, *pads[0]) for layer in (0, 1)}
        left = pads[1:]
        paths[net], vias[net] = [], []
        while left:
            left.sort(key=lambda t: min(abs(t[0] - n[1]) + abs(t[1] - n[2]) for n in tree))
            target = left.pop(0)
            if (0, *target) in tree:
                continue
            path = _astar(tree, target, net, free, via_ok)
            if path is None:
                failed.append(net)
                break
            for a, b in zip(path, path[1:], strict=False):
                if a[0] != b[0]:
                    vias[net].append((a[1], a[2]))
            for node in path:
                owner[node] = net
            tree.update(path)
            tree.update((layer, *target) for layer in (0, 1))
            paths[net].append(path)
    return failed, Routed(paths, vias)


def _astar(
    tree: set[Node],
    target: tuple[int, int],
    net: str,
    free: Callable[[Node, str], bool],
    via_ok: Callable[[int, int, str], bool],
) -> list[Node] | None:
    tx, ty = target
    best: dict[Node, int] = {}
    came: dict[Node, Node | None] = {}
    heap: list[tuple[int, int, Node]] = []
    for node in tree:
        best[node] = 0
        came[node] = None
        heapq.heappush(heap, (abs(node[1] - tx) + abs(node[2] - ty), 0, node))
    while heap:
        _, cost, node = heapq.heappop(heap)
        if cost > best.get(node, 1 << 30):
            continue
        layer, x, y = node
        if (x, y) == (tx, ty):
            path = [node]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])  # type: ignore[arg-type]
            return path[::-1]
        steps = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            across = dy == 0
            steps.append(((layer, x + dx, y + dy), 2 if across == (layer == 0) else 5))
        if via_ok(x, y, net):
            steps.append(((1 - layer, x, y), 8))
        for nxt, price in steps:
            if not free(nxt, net):
                continue
            total = cost + price
            if total < best.get(nxt, 1 << 30):
                best[nxt] = total
                came[nxt] = node
                heapq.heappush(
                    heap, (total + 2 * (abs(nxt[1] - tx) + abs(nxt[2] - ty)), total, nxt)
                )
    return None


def _segments(path: list[Node]) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    """A path as straight runs: (layer, start, end) in grid steps (a via between runs)."""
    runs = []
    i = 0
    while i < len(path) - 1:
        a, b = path[i], path[i + 1]
        if a[0] != b[0]:
            i += 1
            continue
        step = (b[1] - a[1], b[2] - a[2])
        j = i + 1
        while (
            j + 1 < len(path)
            and path[j + 1][0] == a[0]
            and (path[j + 1][1] - path[j][1], path[j + 1][2] - path[j][2]) == step
        ):
            j += 1
        runs.append((a[0], (a[1], a[2]), (path[j][1], path[j][2])))
        i = j
    return runs


# -- the KiCad files ------------------------------------------------------------------------------


def _board_mm(x: float, y: float) -> tuple[float, float]:
    return ORIGIN[0] + x * PITCH, ORIGIN[1] + y * PITCH


def _footprint_name(part: Placed) -> str:
    if part.dip:
        return f"bgtable:DIP-{part.pins}_W{part.span * PITCH:.2f}mm"
    return f"bgtable:PinRow_1x{part.pins:02d}_P2.54mm"


def _footprint(part: Placed, nets: dict[str, int], net_of: dict[tuple[str, int], str]) -> str:
    x0, y0 = _board_mm(*part.pads[1])
    pico = part.value == "Raspberry Pi Pico"
    size, drill = (1.7, 1.0) if (pico or part.ref.startswith("J")) else (1.6, 0.8)
    xs = [p[0] for p in part.pads.values()]
    ys = [p[1] for p in part.pads.values()]
    w = (max(xs) - min(xs)) * PITCH
    h = (max(ys) - min(ys)) * PITCH
    lines = [
        f"  (footprint {_q(_footprint_name(part))}",
        '    (layer "F.Cu")',
        f"    (uuid {_q(_uid('fp', part.ref))})",
        f"    (at {_mm(x0)} {_mm(y0)})",
    ]
    if part.dip:
        # the reference inside the body, between the two rows of pads
        tx, ty, angle = w / 2, h / 2, 90 if h > 6 else 0
        body = (1.2, -1.2, w - 1.2, h + 1.2)
    else:
        tx, ty, angle = (-2.4, h / 2, 90) if w == 0 else (w / 2, -2.2, 0)
        body = (-1.3, -1.3, w + 1.3, h + 1.3)
    lines += [
        f'    (property "Reference" {_q(part.ref)} (at {_mm(tx)} {_mm(ty)} {angle}) '
        '(layer "F.SilkS")',
        f"      (uuid {_q(_uid('ref', part.ref))})",
        "      (effects (font (size 1 1) (thickness 0.15))))",
        f'    (property "Value" {_q(part.value)} (at {_mm(tx)} {_mm(ty + 1.5)} {angle}) '
        '(layer "F.Fab")',
        f"      (uuid {_q(_uid('value', part.ref))})",
        "      (effects (font (size 1 1) (thickness 0.15))))",
        "    (attr through_hole)",
        f"    (fp_rect (start {_mm(body[0])} {_mm(body[1])}) (end {_mm(body[2])} {_mm(body[3])})",
        '      (stroke (width 0.12) (type solid)) (fill no) (layer "F.SilkS")',
        f"      (uuid {_q(_uid('silk', part.ref))}))",
        f"    (fp_rect (start {_mm(body[0] - 0.3)} {_mm(body[1] - 0.3)}) "
        f"(end {_mm(body[2] + 0.3)} {_mm(body[3] + 0.3)})",
        '      (stroke (width 0.05) (type solid)) (fill no) (layer "F.CrtYd")',
        f"      (uuid {_q(_uid('crtyd', part.ref))}))",
    ]
    if part.dip and not pico:
        lines += [
            f"    (fp_circle (center {_mm(w / 2)} -0.3) (end {_mm(w / 2 + 0.5)} -0.3)",
            '      (stroke (width 0.12) (type solid)) (fill no) (layer "F.SilkS")',
            f"      (uuid {_q(_uid('notch', part.ref))}))",
        ]
    for pin, (px, py) in sorted(part.pads.items()):
        dx, dy = (px - part.pads[1][0]) * PITCH, (py - part.pads[1][1]) * PITCH
        shape = "rect" if pin == 1 else "circle"
        net = net_of.get((part.ref, pin))
        net_text = f" (net {nets[net]} {_q(net)})" if net else ""
        lines += [
            f'    (pad "{pin}" thru_hole {shape} (at {_mm(dx)} {_mm(dy)}) (size {size} {size}) '
            f'(drill {drill}) (layers "*.Cu" "*.Mask"){net_text}',
            f"      (uuid {_q(_uid('pad', part.ref, pin))}))",
        ]
    lines.append("  )")
    return "\n".join(lines)


def _mounting_hole(n: int, x: int, y: int) -> str:
    mx, my = _board_mm(x, y)
    return "\n".join(
        [
            '  (footprint "bgtable:MountingHole_3.2mm_M3"',
            '    (layer "F.Cu")',
            f"    (uuid {_q(_uid('hole', n))})",
            f"    (at {_mm(mx)} {_mm(my)})",
            f'    (property "Reference" "H{n}" (at 0 -3 0) (layer "F.Fab")',
            f"      (uuid {_q(_uid('hole-ref', n))})",
            "      (effects (font (size 1 1) (thickness 0.15))))",
            '    (property "Value" "M3" (at 0 3 0) (layer "F.Fab")',
            f"      (uuid {_q(_uid('hole-value', n))})",
            "      (effects (font (size 1 1) (thickness 0.15))))",
            "    (attr exclude_from_pos_files exclude_from_bom board_only)",
            f'    (pad "" np_thru_hole circle (at 0 0) (size {MOUNTING} {MOUNTING}) '
            f'(drill {MOUNTING}) (layers "*.Cu" "*.Mask")',
            f"      (uuid {_q(_uid('hole-pad', n))}))",
            "  )",
        ]
    )


LAYERS = """  (layers
    (0 "F.Cu" signal)
    (2 "B.Cu" signal)
    (9 "F.Adhes" user "F.Adhesive")
    (11 "B.Adhes" user "B.Adhesive")
    (13 "F.Paste" user)
    (15 "B.Paste" user)
    (5 "F.SilkS" user "F.Silkscreen")
    (7 "B.SilkS" user "B.Silkscreen")
    (1 "F.Mask" user)
    (3 "B.Mask" user)
    (17 "Dwgs.User" user "User.Drawings")
    (19 "Cmts.User" user "User.Comments")
    (25 "Edge.Cuts" user)
    (27 "Margin" user)
    (31 "F.CrtYd" user "F.Courtyard")
    (29 "B.CrtYd" user "B.Courtyard")
    (35 "F.Fab" user)
    (33 "B.Fab" user)
  )"""


def _board_nets(placed: list[Placed]) -> dict[tuple[str, int], str]:
    """Every pad's net named as KiCad names the schematic's: a labelled net on the root
    sheet "/NAME", an unused pin "unconnected-(REF-PIN NAME-PadN)" (so the DRC's schematic
    parity check holds them equal)."""
    net_of = pin_nets()
    found = {}
    for part in placed:
        names = PIN_NAMES.get(part.value, "").split()
        for pin in part.pads:
            if (part.ref, pin) in net_of:
                found[(part.ref, pin)] = "/" + net_of[(part.ref, pin)]
            else:
                name = f"-{names[pin - 1]}" if names else ""
                found[(part.ref, pin)] = f"unconnected-({part.ref}{name}-Pad{pin})"
    return found


def pcb_text(placed: list[Placed], routed: Routed) -> str:
    """The board file (KiCad 9's format): outline, footprints, tracks and vias."""
    net_of = _board_nets(placed)
    names = sorted(set(net_of.values()), key=lambda n: (n.startswith("unconnected-"), n))
    nets = {name: i + 1 for i, name in enumerate(names)}
    w, h = BOARD
    out = [
        "(kicad_pcb",
        "  (version 20241229)",
        '  (generator "bgtable")',
        '  (generator_version "9.0")',
        f"  (general (thickness {THICKNESS}) (legacy_teardrops no))",
        '  (paper "A4")',
        '  (title_block (title "Backgammon Table scan board") (comment 1 "generated by '
        'hardware/pcb.py from drawings.scan_netlist(); do not edit"))',
        LAYERS,
        "  (setup (pad_to_mask_clearance 0) (allow_soldermask_bridges_in_footprints no)",
        "    (pcbplotparams (layerselection 0x00000000_00000000_55555555_5755f5ff)",
        "      (plotframeref no) (mode 1) (useauxorigin no) (outputformat 1) (mirror no)",
        '      (drillshape 0) (scaleselection 1) (outputdirectory "gerbers/")))',
        '  (net 0 "")',
        *[f"  (net {i} {_q(name)})" for name, i in nets.items()],
    ]
    for part in placed:
        out.append(_footprint(part, nets, net_of))
    for n, (x, y) in enumerate(mounting_holes(), start=1):
        out.append(_mounting_hole(n, x, y))
    x1, y1 = _board_mm(0, 0)
    x2, y2 = _board_mm(w, h)
    out.append(
        f"  (gr_rect (start {_mm(x1)} {_mm(y1)}) (end {_mm(x2)} {_mm(y2)}) "
        '(stroke (width 0.1) (type default)) (fill no) (layer "Edge.Cuts") '
        f"(uuid {_q(_uid('edge'))}))"
    )
    out.append(
        f'  (gr_text "BACKGAMMON TABLE SCAN BOARD  {w * PITCH:g} x {h * PITCH:g} mm" '
        f"(at {_mm((x1 + x2) / 2)} {_mm(y2 - 1.4)} 0) "
        f'(layer "F.SilkS") (uuid {_q(_uid("title"))})'
        " (effects (font (size 1 1) (thickness 0.15))))"
    )
    for net in sorted(routed.paths):
        count = 0
        for path in routed.paths[net]:
            for layer, a, b in _segments(path):
                ax, ay = ORIGIN[0] + a[0] * STEP, ORIGIN[1] + a[1] * STEP
                bx, by = ORIGIN[0] + b[0] * STEP, ORIGIN[1] + b[1] * STEP
                count += 1
                out.append(
                    f"  (segment (start {_mm(ax)} {_mm(ay)}) (end {_mm(bx)} {_mm(by)}) "
                    f'(width {TRACK}) (layer "{("F.Cu", "B.Cu")[layer]}") (net {nets["/" + net]}) '
                    f"(uuid {_q(_uid('seg', net, count))}))"
                )
        for k, (vx, vy) in enumerate(routed.vias[net]):
            out.append(
                f"  (via (at {_mm(ORIGIN[0] + vx * STEP)} {_mm(ORIGIN[1] + vy * STEP)}) "
                f'(size {VIA[0]}) (drill {VIA[1]}) (layers "F.Cu" "B.Cu") (net {nets["/" + net]}) '
                f"(uuid {_q(_uid('via', net, k))}))"
            )
    out.append(")")
    return "\n".join(out) + "\n"


# -- the schematic --------------------------------------------------------------------------------

FONT = "(effects (font (size 1.27 1.27)))"
PWR_FLAG = """    (symbol "bgtable:PWR_FLAG" (power) (pin_numbers (hide yes))
      (pin_names (offset 0) (hide yes)) (exclude_from_sim no) (in_bom yes) (on_board yes)
      (property "Reference" "#FLG" (at 0 1.905 0) (effects (font (size 1.27 1.27)) (hide yes)))
      (property "Value" "PWR_FLAG" (at 0 3.81 0) (effects (font (size 1.27 1.27))))
      (property "Footprint" "" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
      (property "Datasheet" "" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
      (symbol "PWR_FLAG_0_0"
        (pin power_out line (at 0 0 90) (length 0)
          (name "pwr" (effects (font (size 1.27 1.27))))
          (number "1" (effects (font (size 1.27 1.27))))))
      (symbol "PWR_FLAG_0_1"
        (polyline (pts (xy 0 0) (xy 0 1.27) (xy -1.016 1.905) (xy 0 2.54) (xy 1.016 1.905)
          (xy 0 1.27)) (stroke (width 0) (type default)) (fill (type none)))))"""


def _symbol_kind(part: Placed) -> str:
    return {"74HC595": "74HC595", "74HC165": "74HC165", "Raspberry Pi Pico": "Pico"}.get(
        part.value, f"{part.ref.rstrip('0123456789')}_{part.pins}"
    )


def _pin_spots(part: Placed) -> dict[int, tuple[float, float, int]]:
    """Each pin's end in the symbol (x, y up) and the side it leaves from (0 left, 1 right)."""
    if not part.dip:
        return {pin: (-5.08, -(pin - 1) * PITCH, 0) for pin in range(1, part.pins + 1)}
    half = part.pins // 2
    spots = {}
    for k in range(half):
        spots[k + 1] = (-12.7, -k * PITCH, 0)
        spots[part.pins - k] = (12.7, -k * PITCH, 1)
    return spots


def _lib_symbol(kind: str, part: Placed) -> str:
    spots = _pin_spots(part)
    names = PIN_NAMES.get(part.value, "").split()
    rows = max(1, (part.pins // 2) if part.dip else part.pins)
    half_w = 10.16 if part.dip else 2.54
    top, bottom = PITCH, -rows * PITCH
    ref = part.ref.rstrip("0123456789")
    lines = [
        f'    (symbol "bgtable:{kind}" (pin_names (offset 1.016)) (exclude_from_sim no) '
        "(in_bom yes) (on_board yes)",
        f'      (property "Reference" "{ref}" (at 0 {_mm(top + 1.27)} 0) {FONT})',
        f'      (property "Value" {_q(part.value)} (at 0 {_mm(bottom - 1.27)} 0) {FONT})',
        f'      (property "Footprint" {_q(_footprint_name(part))} (at 0 0 0) '
        "(effects (font (size 1.27 1.27)) (hide yes)))",
        '      (property "Datasheet" "" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))',
        f'      (symbol "{kind}_0_1"',
        f"        (rectangle (start {_mm(-half_w)} {_mm(top)}) (end {_mm(half_w)} {_mm(bottom)})",
        "          (stroke (width 0.254) (type default)) (fill (type background))))",
        f'      (symbol "{kind}_1_1"',
    ]
    for pin, (x, y, side) in sorted(spots.items()):
        name = names[pin - 1] if names else "~"
        lines.append(
            f"        (pin {_pin_type(part.value, pin)} line "
            f"(at {_mm(x)} {_mm(y)} {0 if side == 0 else 180}) "
            f'(length 2.54) (name {_q(name)} {FONT}) (number "{pin}" {FONT}))'
        )
    lines.append("      )\n    )")
    return "\n".join(lines)


def _schematic_spots(placed: list[Placed]) -> dict[str, tuple[float, float]]:
    """Where each symbol sits on the A2 sheet (on the 2.54 mm grid): chips on the first
    row, the rest in columns below."""
    spots = {}
    x = 30 * PITCH
    for part in [p for p in placed if p.dip]:
        spots[part.ref] = (x, 16 * PITCH)
        x += (28 if part.value == "Raspberry Pi Pico" else 22) * PITCH
    x, y = 10 * PITCH, 50 * PITCH
    for part in [p for p in placed if not p.dip]:
        if y + part.pins * PITCH > 150 * PITCH:
            x, y = x + 18 * PITCH, 50 * PITCH
        spots[part.ref] = (x, y)
        y += (part.pins + 6) * PITCH
    return spots


def sch_text(placed: list[Placed]) -> str:
    """The schematic (KiCad 9's format): one sheet, symbols embedded, every connected pin
    carrying a label of its net and every unused pin a no-connect flag."""
    root = _uid("schematic")
    net_of = pin_nets()
    kinds: dict[str, Placed] = {}
    for part in placed:
        kinds.setdefault(_symbol_kind(part), part)
    out = [
        "(kicad_sch",
        "  (version 20250114)",
        '  (generator "bgtable")',
        '  (generator_version "9.0")',
        f"  (uuid {_q(root)})",
        '  (paper "A2")',
        '  (title_block (title "Backgammon Table scan board") (comment 1 "generated by '
        'hardware/pcb.py from drawings.scan_netlist(); do not edit"))',
        "  (lib_symbols",
        *[_lib_symbol(kind, part) for kind, part in sorted(kinds.items())],
        PWR_FLAG,
        "  )",
    ]
    # GND comes in over the Pico's USB: a power flag tells the ERC it is driven
    fx, fy = 30 * PITCH, 40 * PITCH
    out += [
        f'  (symbol (lib_id "bgtable:PWR_FLAG") (at {_mm(fx)} {_mm(fy)} 0) (unit 1) '
        "(exclude_from_sim no) (in_bom yes) (on_board yes) (dnp no)",
        f"    (uuid {_q(_uid('flag'))})",
        f'    (property "Reference" "#FLG01" (at {_mm(fx)} {_mm(fy - 1.905)} 0) '
        "(effects (font (size 1.27 1.27)) (hide yes)))",
        f'    (property "Value" "PWR_FLAG" (at {_mm(fx)} {_mm(fy - 3.81)} 0) {FONT})',
        f'    (property "Footprint" "" (at {_mm(fx)} {_mm(fy)} 0) '
        "(effects (font (size 1.27 1.27)) (hide yes)))",
        f'    (property "Datasheet" "" (at {_mm(fx)} {_mm(fy)} 0) '
        "(effects (font (size 1.27 1.27)) (hide yes)))",
        f'    (pin "1" (uuid {_q(_uid("flag-pin"))}))',
        f'    (instances (project "{NAME}" (path "/{root}" (reference "#FLG01") (unit 1))))',
        "  )",
        f'  (label "GND" (at {_mm(fx)} {_mm(fy)} 180) (fields_autoplaced yes) '
        "(effects (font (size 1.27 1.27)) (justify right bottom)) "
        f"(uuid {_q(_uid('flag-label'))}))",
    ]
    spots = _schematic_spots(placed)
    for part in placed:
        sx, sy = spots[part.ref]
        kind = _symbol_kind(part)
        out += [
            f'  (symbol (lib_id "bgtable:{kind}") (at {_mm(sx)} {_mm(sy)} 0) (unit 1) '
            "(exclude_from_sim no) (in_bom yes) (on_board yes) (dnp no)",
            f"    (uuid {_q(_uid('symbol', part.ref))})",
            f'    (property "Reference" {_q(part.ref)} (at {_mm(sx)} {_mm(sy - 2 * PITCH)} 0) '
            f"{FONT})",
            f'    (property "Value" {_q(part.value)} (at {_mm(sx)} '
            f"{_mm(sy + ((part.pins // 2 if part.dip else part.pins) + 1) * PITCH)} 0) {FONT})",
            f'    (property "Footprint" {_q(_footprint_name(part))} (at {_mm(sx)} {_mm(sy)} 0) '
            "(effects (font (size 1.27 1.27)) (hide yes)))",
            f'    (property "Datasheet" "" (at {_mm(sx)} {_mm(sy)} 0) '
            "(effects (font (size 1.27 1.27)) (hide yes)))",
        ]
        for pin in range(1, part.pins + 1):
            out.append(f'    (pin "{pin}" (uuid {_q(_uid("pin", part.ref, pin))}))')
        out += [
            f'    (instances (project "{NAME}" (path "/{root}" (reference {_q(part.ref)}) '
            "(unit 1))))",
            "  )",
        ]
        for pin, (px, py, side) in sorted(_pin_spots(part).items()):
            x, y = sx + px, sy - py
            net = net_of.get((part.ref, pin))
            if net is None:
                out.append(
                    f"  (no_connect (at {_mm(x)} {_mm(y)}) (uuid {_q(_uid('nc', part.ref, pin))}))"
                )
                continue
            angle, justify = (180, "right") if side == 0 else (0, "left")
            out.append(
                f"  (label {_q(net)} (at {_mm(x)} {_mm(y)} {angle}) (fields_autoplaced yes) "
                f"(effects (font (size 1.27 1.27)) (justify {justify} bottom)) "
                f"(uuid {_q(_uid('label', part.ref, pin))}))"
            )
    out += ['  (sheet_instances (path "/" (page "1")))', "  (embedded_fonts no)", ")"]
    return "\n".join(out) + "\n"


def pro_text() -> str:
    """The project file: the fab's usual two-layer rules (0.2 mm clearance, 0.25 mm
    tracks, 0.6/0.3 mm vias, 0.5 mm to the edge)."""
    project = {
        "board": {
            "design_settings": {
                "defaults": {"board_outline_line_width": 0.1, "copper_line_width": 0.2},
                "rules": {
                    "min_clearance": CLEARANCE,
                    "min_track_width": 0.2,
                    "min_via_diameter": 0.5,
                    "min_via_annular_width": 0.1,
                    "min_through_hole_diameter": 0.3,
                    "min_hole_clearance": 0.25,
                    "min_hole_to_hole": 0.25,
                    "min_copper_edge_clearance": 0.5,
                    "min_silk_clearance": 0.0,
                },
                # the project carries its parts in its files, with no library to compare
                # them with: KiCad's checks of the library tables are off
                "rule_severities": {
                    "lib_footprint_issues": "ignore",
                    "lib_footprint_mismatch": "ignore",
                },
                "track_widths": [0.0, TRACK],
                "via_dimensions": [
                    {"diameter": 0.0, "drill": 0.0},
                    {"diameter": VIA[0], "drill": VIA[1]},
                ],
            }
        },
        "erc": {
            "rule_severities": {"lib_symbol_issues": "ignore", "footprint_link_issues": "ignore"}
        },
        "meta": {"filename": f"{NAME}.kicad_pro", "version": 3},
        "net_settings": {
            "classes": [
                {
                    "name": "Default",
                    "clearance": CLEARANCE,
                    "track_width": TRACK,
                    "via_diameter": VIA[0],
                    "via_drill": VIA[1],
                    "microvia_diameter": 0.3,
                    "microvia_drill": 0.1,
                    "diff_pair_gap": 0.25,
                    "diff_pair_via_gap": 0.25,
                    "diff_pair_width": 0.2,
                    "line_style": 0,
                    "pcb_color": "rgba(0, 0, 0, 0.000)",
                    "schematic_color": "rgba(0, 0, 0, 0.000)",
                    "wire_width": 6,
                    "bus_width": 12,
                    "priority": 2147483647,
                }
            ],
            "meta": {"version": 4},
        },
        "sheets": [[_uid("schematic"), "Root"]],
    }
    return json.dumps(project, indent=2, sort_keys=True) + "\n"


def files() -> dict[Path, str]:
    """Every file of the KiCad project, as it should be."""
    placed = parts()
    routed = route(placed, {n: p for n, p in drawings.scan_netlist().items() if len(p) > 1})
    return {
        KICAD / f"{NAME}.kicad_pro": pro_text(),
        KICAD / f"{NAME}.kicad_sch": sch_text(placed),
        KICAD / f"{NAME}.kicad_pcb": pcb_text(placed, routed),
    }


# -- reading a board back -------------------------------------------------------------------------

Sexpr = list["Sexpr"] | str


def parse(text: str) -> Sexpr:
    """A KiCad s-expression file as nested lists of strings."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+', text)
    stack: list[list[Sexpr]] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token[1:-1].replace('\\"', '"') if token[0] == '"' else token)
    return stack[0][0]


def _children(node: Sexpr, head: str) -> list[list[Sexpr]]:
    return [c for c in node if isinstance(c, list) and c and c[0] == head]


def _xy(node: list[Sexpr], head: str) -> tuple[float, float]:
    item = _children(node, head)[0]
    return float(item[1]), float(item[2])  # type: ignore[arg-type]


def board_pads(text: str) -> dict[tuple[str, int], tuple[str, tuple[float, float]]]:
    """Each pad of a board file on a net of the netlist: its net (without KiCad's sheet
    path "/") and where it is (mm); unused pins' pads left out."""
    found = {}
    for fp in _children(parse(text), "footprint"):
        ref = next(p[2] for p in _children(fp, "property") if p[1] == "Reference")
        ox, oy = _xy(fp, "at")
        for pad in _children(fp, "pad"):
            net = _children(pad, "net")
            if net and pad[1] and not str(net[0][2]).startswith("unconnected-"):
                dx, dy = _xy(pad, "at")
                name = str(net[0][2]).removeprefix("/")
                found[(str(ref), int(str(pad[1])))] = (name, (ox + dx, oy + dy))
    return found


def copper_groups(text: str) -> list[set[tuple[str, int]]]:
    """The pads that the board's tracks and vias join, read back from the copper alone
    (a track joins what its ends touch on its layer; pads and vias go through both)."""
    root = parse(text)
    parent: dict[object, object] = {}

    def find(a: object) -> object:
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def key(layer: str, x: float, y: float) -> tuple[str, int, int]:
        return layer, round(x * 1000), round(y * 1000)

    pads = board_pads(text)
    for pin, (_, (x, y)) in pads.items():
        for layer in ("F.Cu", "B.Cu"):
            parent[find(key(layer, x, y))] = find(pin)
    for via in _children(root, "via"):
        x, y = _xy(via, "at")
        parent[find(key("F.Cu", x, y))] = find(key("B.Cu", x, y))
    tracks = []
    for seg in _children(root, "segment"):
        layer = str(_children(seg, "layer")[0][1])
        tracks.append((key(layer, *_xy(seg, "start")), key(layer, *_xy(seg, "end"))))
        find(tracks[-1][0])
        find(tracks[-1][1])
    points = [p for p in parent if isinstance(p, tuple) and len(p) == 3]
    for a, b in tracks:
        # a track joins every point it runs over: its ends, a pad, a via, another's end
        for point in points:
            if point[0] == a[0] and _between(a, b, point):
                parent[find(point)] = find(a)
    groups: dict[object, set[tuple[str, int]]] = {}
    for pin in pads:
        groups.setdefault(find(pin), set()).add(pin)
    return [g for g in groups.values() if len(g) > 1]


def _between(a: tuple[str, int, int], b: tuple[str, int, int], p: tuple[str, int, int]) -> bool:
    (_, ax, ay), (_, bx, by), (_, px, py) = a, b, p
    if (bx - ax) * (py - ay) != (by - ay) * (px - ax):
        return False
    return min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by)


def kicad_netlist(text: str) -> dict[str, set[tuple[str, int]]]:
    """The nets of a netlist KiCad exported from the schematic (``kicad-cli sch export
    netlist``): each labelled net's pins, the unused pins' one-pin nets left out."""
    found = {}
    for nets in _children(parse(text), "nets"):
        for net in _children(nets, "net"):
            name = str(_children(net, "name")[0][1]).lstrip("/")
            pins = set()
            for node in _children(net, "node"):
                ref = str(_children(node, "ref")[0][1])
                pins.add((ref, int(str(_children(node, "pin")[0][1]))))
            pins = {pin for pin in pins if not pin[0].startswith("#")}  # power flags
            if not name.startswith("unconnected-"):
                found[name] = pins
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check they are up to date")
    parser.add_argument(
        "--netlist", type=Path, help="check a netlist KiCad exported against scan_netlist()"
    )
    args = parser.parse_args(argv)
    if args.netlist:
        got, want = kicad_netlist(args.netlist.read_text()), drawings.scan_netlist()
        if got != want:
            for name in sorted(set(got) | set(want)):
                if got.get(name) != want.get(name):
                    print(
                        f"net {name}: schematic {sorted(got.get(name, ()))}, "
                        f"netlist {sorted(want.get(name, ()))}"
                    )
            return 1
        print(f"netlist: the schematic's {len(got)} nets are drawings.scan_netlist()'s")
        return 0
    stale = []
    for path, text in files().items():
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(HERE.parent)}")
    for path in stale:
        print(f"out of date: {path.relative_to(HERE.parent)} (run python hardware/pcb.py)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
