"""Commissioning: the walk finds bad slots, stores them, and the link leaves them out.

The table is the designed one (one reed a slot); the walk's findings hold alike for a
table whose reeds tell a man's colour, and the tests of the walk run on both.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from kiosk.app.dice import source_after_commissioning
from kiosk.app.doctor import check_commissioning
from kiosk.commission_cli import simulated_installer
from kiosk.display.calibration import Calibration
from kiosk.display.commission import LIT, CommissionScreen
from kiosk.link import QueueListener, SlotState, TableLayout, TableLink
from kiosk.link.commission import Commissioning, apply, commission_path, load, save
from kiosk.link.frames import SelfTestReport, decode_frame
from kiosk.simtable import SimulatedTable
from kiosk.table.layout import SENSINGS

SMALL = TableLayout(2, 1, 2)
both_sensings = pytest.mark.parametrize("sensing", SENSINGS)


def _small(sensing: str) -> TableLayout:
    return replace(SMALL, sensing=sensing)


def _walk(
    dead: tuple[str, int] | None = None,
    welded: tuple[str, int] | None = None,
    dead_cell: tuple[int, int] | None = None,
    stuck_cell: tuple[int, int] | None = None,
    layout: TableLayout = SMALL,
) -> Commissioning:
    walk = Commissioning(layout)
    with SimulatedTable(layout) as sim:
        assert sim.layout.sensing == layout.sensing
        if dead:
            sim.kill_reed(*dead)
        if welded:
            sim.weld_reed(*welded)
        if dead_cell:
            sim.kill_cell(*dead_cell)
        if stuck_cell:
            sim.stick_cell(*stuck_cell)
        simulated_installer(walk, sim)
    return walk


@both_sensings
def test_a_sound_table_passes_every_slot_and_cell(sensing: str) -> None:
    walk = _walk(layout=_small(sensing))
    assert walk.phase == "done" and walk.findings == []
    assert len(walk.steps) == 24 * 2 + 2 * 1 + 2 * 2 + 2 * 9
    assert walk.instruction() == "Done: every slot and cell reads right."


def test_a_dead_and_a_stuck_well_cell_are_found_and_the_dice_go_to_the_buttons() -> None:
    walk = _walk(dead_cell=(1, 4), stuck_cell=(2, 8))
    found = {f.step.name(): f.reason for f in walk.findings}
    assert found == {
        "dice well 2, cell m (centre)": "switches with nothing there",
        "dice well 1, cell 3 (corner 3)": "does not switch for the jig",
    }
    assert walk.bad_slots() == []
    assert "entered with the buttons" in walk.instruction()
    names = [f.step.name() for f in walk.well_findings()]
    assert source_after_commissioning("wells", names)[0] == "buttons"
    assert source_after_commissioning("digital", names) == ("digital", "")


@both_sensings
def test_a_dead_and_a_welded_reed_are_found(sensing: str) -> None:
    walk = _walk(dead=("13", 1), welded=("off-black", 0), layout=_small(sensing))
    found = {(f.step.location, f.step.slot): f.reason for f in walk.findings}
    assert found == {
        ("13", 1): "does not read its man",
        ("off-black", 0): "reads a man with none there",
    }
    assert walk.bad_slots() == [("off-black", 0), ("13", 1)]


def test_the_result_is_stored_beside_the_calibration_and_read_back(tmp_path: Path) -> None:
    walk = _walk(dead=("7", 0))
    path = commission_path(tmp_path / "calibration.toml")
    assert path == tmp_path / "commission.toml"
    save(path, walk)
    (finding,) = load(path)
    assert (finding.step.location, finding.step.slot) == ("7", 0)
    assert not list(tmp_path.glob("*.tmp*"))  # written atomically
    path.write_text("[[bad]]\nlocation = 'nowhere'\nslot = 1\n")
    with pytest.raises(ValueError, match="run kiosk commission again"):
        load(path)
    assert load(tmp_path / "missing.toml") == []


@both_sensings
def test_a_known_bad_slot_is_left_out_of_every_frame(sensing: str) -> None:
    small = _small(sensing)
    black, letter = (SlotState.BLACK, "B") if sensing == "polarity" else (SlotState.OCCUPIED, "O")
    layout = apply(small, [f for f in _walk(dead=("13", 0), layout=small).findings])
    assert layout.slots("13") == 1 and layout.physical_slots("13") == 2
    assert layout.total_slots == small.total_slots - 1
    with SimulatedTable(layout) as sim:
        sim.kill_reed("13", 0)
        sim.place("13", "black")
        sim.place("13", "black")
        listener = QueueListener()
        with TableLink(sim.port_name, layout=layout, listener=listener) as link:
            assert link.wait_connected(5)
            sim.advance(50)
            frame = listener.frames.get(timeout=5)
            while frame.slots["13"] != (black,):
                sim.advance(20)
                frame = listener.frames.get(timeout=5)
    assert frame.counts()["13"] == (black, 1)
    # The table still sends both slots of 13; the kiosk keeps the second alone.
    payload = f"{letter}. " * 12 + "{} " + f"{letter}. " * 11 + ". . .. .. .."
    kept = decode_frame(1, payload.format("." + letter), layout)
    assert kept.slots["13"] == (black,) and kept.slots["12"] == (black, SlotState.EMPTY)
    assert decode_frame(1, payload.format(letter + "."), layout).slots["13"] == (SlotState.EMPTY,)
    with pytest.raises(ValueError):
        decode_frame(1, payload.format("X" + letter), layout)  # X is no state
    with pytest.raises(ValueError):
        decode_frame(1, payload.format(letter), layout)  # one slot is not what the table has


def test_doctor_lists_the_known_bad_slots(tmp_path: Path) -> None:
    path = tmp_path / "commission.toml"
    assert not check_commissioning(path).ok
    save(path, _walk(dead=("20", 1)))
    check = check_commissioning(path)
    assert check.ok and "point 20, slot 2 from the edge: does not read its man" in check.message


def test_the_screen_lights_the_slot_to_fill() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    calibration = Calibration.default(800, 480, SMALL)
    walk = Commissioning(SMALL)
    walk.table_is_clear()
    walk.self_test(SelfTestReport(ok=True, stuck=(), chattering=(), stuck_lines=0))
    CommissionScreen(surface, calibration).draw(walk)
    assert tuple(surface.get_at(calibration.slot_xy("1", 0)))[:3] == LIT
    assert tuple(surface.get_at(calibration.slot_xy("2", 0)))[:3] != LIT


def _commission(tmp_path: Path, *args: str, setting: str = "") -> subprocess.CompletedProcess:
    config = tmp_path / "config.toml"
    config.write_text("[table]\npoint_slots = 2\nbar_slots = 1\ntray_slots = 2\n" + setting)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "commission", "--config", str(config), *args],
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_kiosk_commission_simulated_finds_each_fault_and_leaves_the_real_file(
    tmp_path: Path,
) -> None:
    real = tmp_path / "commission.toml"  # beside the calibration, beside the config
    real.write_text("# the real table's findings\nlayout = \"2,1,2\"\n")
    before = real.read_bytes()
    done = _commission(
        tmp_path,
        "--simulate",
        "--headless",
        "--dead",
        "13/2",
        "--welded",
        "5/1",
        "--dead",
        "die2/4",
    )
    assert done.returncode == 0, done.stderr
    assert "point 13, slot 2 from the edge: does not read its man" in done.stdout
    assert "point 5, slot 1 from the edge: reads a man with none there" in done.stdout
    assert "dice well 2, cell 4 (corner 4): does not switch for the jig" in done.stdout
    assert "3 slot(s) or cell(s) read wrong" in done.stdout
    assert "entered with the buttons" in done.stdout
    assert "Simulated: nothing stored" in done.stdout
    assert real.read_bytes() == before
    kept = tmp_path / "simulated.toml"
    done = _commission(tmp_path, "--simulate", "--headless", "--out", str(kept))
    assert done.returncode == 0 and kept.exists() and real.read_bytes() == before
    refused = _commission(tmp_path, "--simulate", "--headless", "--out", str(real))
    assert refused.returncode == 2 and "never writes it" in refused.stderr
    assert real.read_bytes() == before


@pytest.mark.parametrize(
    ("setting", "sensing"),
    [("", "occupancy"), ('simulated_sensing = "polarity"\n', "polarity")],
    ids=["the design", "polarity on request"],
)
def test_kiosk_commission_simulates_the_designed_table_unless_told(
    tmp_path: Path, setting: str, sensing: str
) -> None:
    """Without a setting the simulated table is the designed one; polarity on request."""
    kept = tmp_path / "simulated.toml"
    done = _commission(
        tmp_path, "--simulate", "--headless", "--dead", "13/2", "--out", str(kept), setting=setting
    )
    assert done.returncode == 0, done.stderr
    assert "point 13, slot 2 from the edge: does not read its man" in done.stdout
    assert f"layout 2,1,2, {sensing} sensing" in kept.read_text()
