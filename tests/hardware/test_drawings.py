"""The laser cutter's files, the stack-up, the scan board and the bill of materials, as
``python hardware/documents.py`` writes them: they open in their tools and agree with the
design."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from pathlib import Path

import displays
import drawings
import ezdxf
import geometry as g
import pytest

from kiosk.table.layout import TableLayout

ROOT = Path(__file__).resolve().parents[2]
CUT = ROOT / "hardware" / "cut"
LAYOUT = TableLayout(sensing="occupancy")


SHEETS = ["guide", "top", "spacer", "carrier", "frame"]
DXF = [f"{d.key}/{name}" for d in displays.DISPLAYS for name in SHEETS] + ["tower", "die"]
CHOSEN = displays.CHOSEN


@pytest.mark.parametrize("name", DXF)
def test_each_dxf_opens_and_passes_ezdxfs_audit(name: str) -> None:
    doc = ezdxf.readfile(CUT / f"{name}.dxf")
    auditor = doc.audit()
    assert not auditor.has_errors, [str(e) for e in auditor.errors]
    assert doc.units == 4  # millimetres
    assert len(doc.modelspace().query("LWPOLYLINE CIRCLE")) > 0


def _outline(doc: ezdxf.document.Drawing) -> tuple[float, float]:
    first = doc.modelspace().query("LWPOLYLINE")[0]
    xs, ys = zip(*first.get_points("xy"), strict=True)
    return max(xs) - min(xs), max(ys) - min(ys)


def test_the_guide_sheet_has_a_hole_a_slot_with_webs_of_four_millimetres() -> None:
    doc = ezdxf.readfile(CUT / CHOSEN / "guide.dxf")
    holes = [c for c in doc.modelspace().query("CIRCLE") if math.isclose(c.dxf.radius, g.HOLE / 2)]
    assert len(holes) == LAYOUT.total_slots
    width, height = _outline(doc)
    webs = min(
        math.dist(a.dxf.center.vec2, b.dxf.center.vec2) - g.HOLE
        for a, b in itertools.combinations(holes, 2)
    )
    assert webs >= 4.0 - 1e-6
    for hole in holes:
        x, y = hole.dxf.center.x, hole.dxf.center.y
        assert g.HOLE / 2 < x < width - g.HOLE / 2 and g.HOLE / 2 < y < height - g.HOLE / 2


def test_the_carrier_engraves_every_reed_and_the_spacer_leaves_ribs() -> None:
    carrier = ezdxf.readfile(CUT / CHOSEN / "carrier.dxf").modelspace()
    assert len(carrier.query('LWPOLYLINE[layer=="ENGRAVE"]')) == LAYOUT.total_slots
    spacer = ezdxf.readfile(CUT / CHOSEN / "spacer.dxf").modelspace()
    windows = [[p for p in w.get_points("xy")] for w in spacer.query("LWPOLYLINE")][1:]
    assert len(windows) == len(LAYOUT.locations)
    boxes = [
        (min(x for x, _ in w), min(y for _, y in w), max(x for x, _ in w), max(y for _, y in w))
        for w in windows
    ]
    for a, b in itertools.combinations(boxes, 2):
        apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
        assert apart >= drawings.RIB - 1e-6  # a rib between any two windows


@pytest.mark.parametrize("choice", displays.DISPLAYS, ids=lambda d: d.key)
def test_each_display_fits_its_frame_and_its_picture_covers_every_hole(
    choice: displays.Display,
) -> None:
    """Read back from the cut files against the display's own published figures."""
    frame = ezdxf.readfile(CUT / choice.key / "frame.dxf")
    inside = _outline(frame)
    assert inside[0] >= choice.outline[0] + 2 and inside[1] >= choice.outline[1] + 2
    walls = [_outline_of(e) for e in frame.modelspace().query("LWPOLYLINE")[-4:]]
    assert min(h for _, h in walls) >= choice.outline[2] + g.PANEL_GAP + g.CARRIER
    guide = ezdxf.readfile(CUT / choice.key / "guide.dxf")
    width, height = _outline(guide)
    assert width <= inside[0] and height <= inside[1]  # the sheets drop in on the ledge
    pw, ph = choice.picture
    x0, y0 = (width - pw) / 2 + displays.PLACEMENT, (height - ph) / 2 + displays.PLACEMENT
    x1, y1 = (width + pw) / 2 - displays.PLACEMENT, (height + ph) / 2 - displays.PLACEMENT
    holes = [
        c for c in guide.modelspace().query("CIRCLE") if math.isclose(c.dxf.radius, g.HOLE / 2)
    ]
    assert len(holes) == LAYOUT.total_slots
    for hole in holes:  # a man anywhere in any hole lies on the picture
        x, y, r = hole.dxf.center.x, hole.dxf.center.y, g.HOLE / 2
        assert x0 <= x - r and x + r <= x1 and y0 <= y - r and y + r <= y1, (x, y)


def _outline_of(entity: ezdxf.entities.LWPolyline) -> tuple[float, float]:
    xs, ys = zip(*entity.get_points("xy"), strict=True)
    return max(xs) - min(xs), max(ys) - min(ys)


def test_a_display_too_small_for_the_field_is_refused() -> None:
    import documents

    small = displays.Display(
        "40in", "a 40-inch set", "test", 40.0, (900, 520, 60), (100, 100), "M6", 1
    )
    table = documents.Build(small, 6, max(documents.MIN_GAP, 0.0))
    assert not table.fits()["fits"]
    with pytest.raises(ValueError, match="no display"):
        displays.display("99in")


def test_the_stackup_names_the_display_chosen() -> None:
    svg = (ROOT / "hardware" / "stackup.svg").read_text()
    assert displays.display().model in svg


def test_the_scan_board_connects_exactly_its_netlist() -> None:
    board = drawings.scan_board()
    assert sorted(map(sorted, board.nets())) == sorted(map(sorted, board.netlist.values()))
    holes = board.used_holes()
    assert not [hole for hole, n in Counter(holes).items() if n > 1]  # one lead a hole
    assert all(0 <= r < board.rows and 0 <= c < board.columns for r, c in holes)
    assert board.columns * drawings.PITCH_IN <= 160 and board.rows * drawings.PITCH_IN <= 233


def test_the_scan_boards_pico_pins_are_the_firmwares() -> None:
    source = (ROOT / "firmware" / "board.py").read_text()
    pins = {k: int(v) for k, v in re.findall(r"^(PIN_\w+) = (\d+)", source, re.M)}
    nets = drawings.scan_netlist()
    pico = drawings._pico_gp
    assert ("U1", pico(pins["PIN_SER"])) in nets["SER"]
    assert ("U1", pico(pins["PIN_SRCLK"])) in nets["SRCLK"]
    assert ("U1", pico(pins["PIN_RCLK"])) in nets["RCLK"]
    assert ("U1", pico(pins["PIN_WELL_LOAD"])) in nets["LOAD"]
    assert ("U1", pico(pins["PIN_WELL_CLOCK"])) in nets["WCLK"]
    assert ("U1", pico(pins["PIN_WELL_DATA"])) in nets["WDATA"]
    assert ("U1", pico(pins["PIN_MAINTENANCE"])) in nets["MAINT"]
    for column in range(16):
        assert ("U1", pico(pins["PIN_FIRST_COLUMN"] + column)) in nets[f"COL{column}"]


def test_the_bill_counts_what_the_design_has() -> None:
    lines = drawings.bom(LAYOUT.total_slots, len(LAYOUT.locations))
    by_code = {line.order_code.split(" (")[0].split(",")[0]: line.qty for line in lines}
    assert by_code["Littelfuse/Hamlin MITI-3V1"] == LAYOUT.total_slots
    assert by_code["Amphenol FCI 71600-030LF"] == len(LAYOUT.locations)  # an IDC tap a strip
    import field

    reeds = [line for line in lines if line.part.startswith("reed switch")][0]
    low, high = g.ORDER_PULL_IN_MT  # the AT band ordered lies inside the field window
    at = re.search(r"(\d+)-(\d+) AT", reeds.order_code)
    assert at and field.ampere_turns(low) <= int(at[1]) < int(at[2]) <= field.ampere_turns(high)
    assert field.ampere_turns(1.0) == pytest.approx(5.57, abs=0.01)  # 1 mT over 7 mm of glass
    assert by_code["Vishay BAT85S-TR"] == LAYOUT.total_slots
    assert by_code[f"TI {g.HALL_PART}QLPG"] == 2 * len(g.WELL_CELLS) == 18
    assert by_code["TI SN74HC165N"] == 3  # 18 Hall switches, 8 inputs a chip
    assert by_code["generic"] >= 1
    magnets = [line for line in lines if line.part.startswith("die magnet")]
    assert magnets[0].qty == 2 * 6 * 9 + 3  # two dice and the jig
    text = (ROOT / "hardware" / "BOM.md").read_text()
    assert f"**Total (estimate): EUR {drawings.bom_total(lines):.2f}**" in text
