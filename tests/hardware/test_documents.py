"""The builder's documents are generated from the code and agree with it."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kiosk.config import PinsSection
from kiosk.table.layout import LOCATIONS, TRAYS, TableLayout

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("documents", ROOT / "hardware" / "documents.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["documents"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


LAYOUT = TableLayout(sensing="occupancy")


def test_the_written_documents_are_what_the_code_generates(docs: ModuleType) -> None:
    assert docs.write(check=True), "run python hardware/documents.py"
    assert (ROOT / "hardware" / "top-sheet.png").stat().st_size > 10_000
    assert "hardware/top-sheet.png" in (ROOT / "README.md").read_text()


def test_one_reed_per_slot_on_the_template(docs: ModuleType) -> None:
    svg = docs.svg(LAYOUT)
    assert svg.count('class="reed"') == LAYOUT.total_slots == 182
    assert svg.count('class="strip"') == len(LOCATIONS)
    width, height = docs.sheet_size(LAYOUT)
    assert f'width="{width:g}mm" height="{height:g}mm"' in svg  # printed 1:1


def test_the_geometry_holds_the_men_and_fits_the_frame(docs: ModuleType) -> None:
    assert docs.MAN < docs.HOLE <= docs.PITCH  # a man sits in his hole, holes do not touch
    assert docs.HOLE - docs.MAN <= 1.0  # he cannot drift more than half a millimetre
    assert docs.PITCH - docs.HOLE >= 4.0  # the guide sheet's webs hold together
    for choice in docs.DISPLAYS:
        table = docs.build(choice.key)
        for tray in TRAYS:
            rows = -(-LAYOUT.slots(tray) // docs.TRAY_COLUMNS)
            assert rows * docs.PITCH <= (table.field[1] - table.gap) / 2  # within its half
    slots = docs.slots(LAYOUT)
    assert len({(s.x, s.y) for s in slots}) == len(slots)  # no two slots on one spot
    for a in slots:  # neighbouring holes never overlap
        for b in slots:
            if a is not b:
                assert (a.x - b.x) ** 2 + (a.y - b.y) ** 2 >= (docs.HOLE + 4.0) ** 2 - 1e-6


def test_every_strip_has_a_connector_that_takes_its_wires(docs: ModuleType) -> None:
    for strip in docs.strips(LAYOUT):
        assert strip.wires <= docs.BUS_WAYS - 2 and "2x15" in strip.connector, strip.name
        pins = [docs.BUS_PINS[n - 1] for n in strip.bus_pins]  # the tap wires its own lines
        assert pins == [f"ROW{r}" for r in strip.rows] + [f"COL{c}" for c in strip.columns]
    assert sum(len(s.switches) for s in docs.strips(LAYOUT)) == LAYOUT.total_slots
    table = docs.wiring(LAYOUT)
    assert re.search(r"\| off-white \| 15 \| 152-166 \| 9,10 \|", table)
    found = docs.harness(LAYOUT)
    assert set(found["taps"]) == set(LOCATIONS)
    width, height = docs.sheet_size(LAYOUT)
    for bus, length in found["bus_mm"].items():  # along its edge and down to the board
        assert width / 2 < length <= width + height / 2 + docs.BUS_SLACK, bus
    assert all(0 < along < found["bus_mm"][bus] for bus, along in found["taps"].values())


def test_the_pi_pins_avoid_i2c_spi_uart_and_i2s() -> None:
    reserved = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21}
    pins = PinsSection()
    used = [getattr(pins, name) for name in vars(pins) if getattr(pins, name)]
    assert not set(used) & reserved
    readme = (ROOT / "hardware" / "README.md").read_text()
    for name in vars(pins):
        number = getattr(pins, name)
        if number:
            assert re.search(rf"GPIO{number} \(\d+\)[^\n]*`{name}`", readme), name
