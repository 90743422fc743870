"""The scan board a maker can order (``hardware/kicad/``): the KiCad files are what
``hardware/pcb.py`` writes from the stripboard's netlist, and the Gerbers and drill files
KiCad made from them, read back by a Gerber library (gerbonara), carry exactly that netlist
in their copper, on a board of the size the generator drew. KiCad's own ERC and DRC run in
``.ci/kicad-check.sh``."""

from __future__ import annotations

import warnings

import drawings
import pcb
import pytest
from gerbonara import ExcellonFile, GerberFile
from gerbonara.graphic_objects import Flash, Line
from gerbonara.utils import MM

GERBERS = pcb.KICAD / "gerbers"
NAME = pcb.NAME


def _gerber(suffix: str) -> GerberFile:
    return GerberFile.open(GERBERS / f"{NAME}-{suffix}")


def _drills(which: str) -> ExcellonFile:
    with warnings.catch_warnings():  # KiCad writes G90 after the header; harmless
        warnings.simplefilter("ignore", SyntaxWarning)
        return ExcellonFile.open(GERBERS / f"{NAME}-{which}.drl")


def _groups(nets: dict[str, set[tuple[str, int]]]) -> set[frozenset[tuple[str, int]]]:
    return {frozenset(pins) for pins in nets.values()}


@pytest.fixture(scope="module")
def board_text() -> str:
    return (pcb.KICAD / f"{NAME}.kicad_pcb").read_text()


def test_the_kicad_files_are_what_the_generator_writes() -> None:
    for path, text in pcb.files().items():
        assert path.read_text() == text, f"{path.name} is out of date: run python hardware/pcb.py"


def test_every_pad_of_the_board_carries_its_net_from_the_stripboards_netlist(
    board_text: str,
) -> None:
    nets: dict[str, set[tuple[str, int]]] = {}
    for pin, (net, _) in pcb.board_pads(board_text).items():
        nets.setdefault(net, set()).add(pin)
    assert nets == drawings.scan_netlist()
    # and the parts are the stripboard's, pin for pin
    stripboard = {
        (ref, pin) for ref, (_, holes) in drawings.scan_board().placed.items() for pin in holes
    }
    placed = {(p.ref, pin) for p in pcb.parts() for pin in p.pads}
    assert placed == stripboard


def test_the_boards_copper_joins_exactly_the_netlists_pins(board_text: str) -> None:
    assert {frozenset(g) for g in pcb.copper_groups(board_text)} == _groups(drawings.scan_netlist())


def test_the_outline_is_the_boards_size() -> None:
    (x1, y1), (x2, y2) = _gerber("Edge_Cuts.gm1").bounding_box(MM)
    width, height = pcb.BOARD[0] * pcb.PITCH, pcb.BOARD[1] * pcb.PITCH
    line = 0.1  # the outline's stroke
    assert x2 - x1 == pytest.approx(width + line, abs=0.01)
    assert y2 - y1 == pytest.approx(height + line, abs=0.01)


def test_the_drill_files_hold_every_pad_via_and_mounting_hole(board_text: str) -> None:
    pads = pcb.board_pads(board_text)
    plated = _drills("PTH")
    unplated = _drills("NPTH")
    unconnected = sum(p.pins for p in pcb.parts()) - len(pads)
    vias = board_text.count("(via ")
    assert len(plated.objects) == len(pads) + unconnected + vias
    holes = {(round(o.x, 2), round(-o.y, 2)) for o in plated.objects}
    assert {(round(x, 2), round(y, 2)) for _, (x, y) in pads.values()} <= holes
    sizes = sorted({o.aperture.diameter for o in plated.objects})
    assert sizes == [pcb.VIA[1], 0.8, 1.0]
    assert len(unplated.objects) == 4
    assert {o.aperture.diameter for o in unplated.objects} == {pcb.MOUNTING}


def test_the_gerbers_copper_read_back_joins_exactly_the_netlists_pins() -> None:
    """From the fabrication files alone: pads are flashes naming their pin (Gerber X2),
    tracks are lines, a plated hole joins the two layers."""
    parent: dict[object, object] = {}

    def find(a: object) -> object:
        parent.setdefault(a, a)
        while parent[a] != a:
            a = parent[a]
        return a

    def join(a: object, b: object) -> None:
        parent[find(a)] = find(b)

    def spot(layer: str, x: float, y: float) -> tuple[str, int, int]:
        return layer, round(x * 100), round(y * 100)

    pins = set()
    for layer, suffix in (("F", "F_Cu.gtl"), ("B", "B_Cu.gbl")):
        objects = _gerber(suffix).objects
        flashes = [o for o in objects if isinstance(o, Flash)]
        for obj in flashes:
            here = spot(layer, obj.x, obj.y)
            find(here)
            if ".P" in obj.attrs:
                ref, pin = obj.attrs[".P"][:2]
                pins.add((ref, int(pin)))
                join(here, (ref, int(pin)))
        lines = [o for o in objects if isinstance(o, Line)]
        points = [(f.x, f.y) for f in flashes]
        points += [(o.x1, o.y1) for o in lines] + [(o.x2, o.y2) for o in lines]
        for line in lines:
            for x, y in points:  # a pad, a via or another track's end the track runs over
                if _on(line, x, y):
                    join(spot(layer, line.x1, line.y1), spot(layer, x, y))
    for hole in _drills("PTH").objects:
        join(spot("F", hole.x, hole.y), spot("B", hole.x, hole.y))
    groups: dict[object, set[tuple[str, int]]] = {}
    for pin in pins:
        groups.setdefault(find(pin), set()).add(pin)
    joined = {frozenset(g) for g in groups.values() if len(g) > 1}
    assert joined == _groups(drawings.scan_netlist())


def _on(line: Line, x: float, y: float) -> bool:
    x1, y1, x2, y2 = line.x1, line.y1, line.x2, line.y2
    across = abs((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) < 1e-6
    return across and min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2)


def test_the_bom_orders_the_board_at_the_generators_size() -> None:
    lines = [line for line in drawings.bom(10, 10) if "printed circuit board" in line.part]
    assert len(lines) == 1
    (x1, y1), (x2, y2) = _gerber("Edge_Cuts.gm1").bounding_box(MM)
    width, height = round(x2 - x1 - 0.1, 2), round(y2 - y1 - 0.1, 2)  # less the stroke
    assert f"{width:g} x {height:g} mm" in lines[0].part
    assert "estimate" in lines[0].note


def test_the_copper_read_back_sees_a_cut_track_and_a_short(board_text: str) -> None:
    want = _groups(drawings.scan_netlist())
    lines = board_text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("(segment"))
    cut = "".join(lines[:first] + lines[first + 1 :])
    assert {frozenset(g) for g in pcb.copper_groups(cut)} != want
    pads = pcb.board_pads(board_text)
    (_, (x1, y1)), (_, (x2, y2)) = pads[("J5", 1)], pads[("J5", 2)]  # MAINT and GND
    shorted = board_text.replace(
        "\n)\n",
        f'\n  (segment (start {x1} {y1}) (end {x2} {y2}) (width 0.25) (layer "F.Cu") (net 0))\n)\n',
    )
    assert {frozenset(g) for g in pcb.copper_groups(shorted)} != want


def test_the_router_routes_a_net_around_a_pad_in_its_way() -> None:
    row = [pcb.Placed("X1", "test", 3, False, 0, {1: (2, 2), 2: (3, 2), 3: (4, 2)})]
    nets = {"A": {("X1", 1), ("X1", 3)}}
    routed = pcb.route(row, nets)
    (path,) = routed.paths["A"]
    assert (path[0][1:], path[-1][1:]) in {((4, 4), (8, 4)), ((8, 4), (4, 4))}
    assert all(node[1:] != (6, 4) for node in path)  # never through X1's pin 2
