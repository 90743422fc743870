"""Issue 31: Bluetooth dice (Pixels, GoDice) as the table's dice, through the application
as ``kiosk run`` builds it, over a simulated transport handing it the bytes the makers
document: a throw counts once both dice rest, a cocked die voids it, dice lying there when
they connect are no throw, and without Bluetooth the buttons take over."""

from __future__ import annotations

import struct
import time

import pytest

from kiosk.app.dice import bluetooth_dice
from kiosk.bledice import VENDORS, BleDice
from kiosk.bledice.godice import D6_VECTORS
from kiosk.bledice.simulated import SimulatedDice
from kiosk.bledice.transport import BleakTransport
from kiosk.config import Config
from kiosk.simtable import STARTING_POSITION

ROLLED, ROLLING, CROOKED, ON_FACE = 1, 3, 4, 5  # Pixels' PixelRollState.ts


def table(harness, source: str):
    """The app with ``source``'s dice over a simulated transport, men set out."""
    config = Config()
    config.dice.source = source
    config.referee.settle_ms = 200
    sim = SimulatedDice()
    h = harness(config, bluetooth=BleDice(VENDORS[source], sim))
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    assert "setup-ok" in h.kinds() and h.app.dice_source == source
    return h, sim


def pixels_roll(state: int, index: int = 0) -> bytes:
    return bytes([3, state, index])  # DieMessages.ts RollState: type, state, face index


def godice_stable(face: int, prefix: bytes = b"S") -> bytes:
    return prefix + struct.pack(">bbb", *D6_VECTORS[face])  # dice.py: "S" x y z


def test_pixels_thrown_dice_make_the_opening_throw(harness) -> None:
    h, sim = table(harness, "pixels")
    sim.connect(0)
    sim.connect(1)
    h.wait(100)
    assert sim.sent[:2] == [(0, b"\x01"), (0, b"\x21")]  # whoAreYou, requestBatteryLevel
    sim.notify(0, pixels_roll(ON_FACE, 3))  # lying there when connected: no throw
    sim.notify(1, pixels_roll(ON_FACE, 5))
    h.wait(1000)
    assert "opening" not in h.kinds()
    for slot in (0, 1):
        sim.notify(slot, pixels_roll(ROLLING))
    h.wait(100)
    sim.notify(0, pixels_roll(ROLLED, 4))
    sim.notify(1, pixels_roll(ROLLED, 0))
    h.wait(100)
    sim.notify(1, pixels_roll(ROLLING))  # die 2 still tumbling: wait
    h.wait(100)
    assert h.last("notice")["about"] == "dice-settling"
    assert "opening" not in h.kinds()
    sim.notify(1, pixels_roll(ROLLED, 1))
    h.wait(600)
    opening = h.last("opening")
    assert opening["dice"] == [5, 2] and opening["starter"] == "white"


def test_a_crooked_pixel_voids_the_throw(harness) -> None:
    h, sim = table(harness, "pixels")
    sim.connect(0)
    sim.connect(1)
    for slot in (0, 1):
        sim.notify(slot, pixels_roll(ROLLING))
    sim.notify(0, pixels_roll(ROLLED, 2))
    sim.notify(1, pixels_roll(CROOKED, 0))
    h.wait(800)
    cocked = h.last("cocked")
    assert cocked["well"] == 2 and "throw both dice again" in cocked["message"]
    assert "opening" not in h.kinds()
    sim.notify(1, pixels_roll(ROLLING))
    sim.notify(0, pixels_roll(ROLLING))
    sim.notify(0, pixels_roll(ROLLED, 0))
    sim.notify(1, pixels_roll(ROLLED, 5))
    h.wait(600)
    assert h.last("opening")["dice"] == [1, 6]


def test_godice_tilted_then_stable(harness) -> None:
    h, sim = table(harness, "godice")
    sim.connect(0)
    sim.connect(1)
    h.wait(100)
    assert (0, bytes([23])) in sim.sent and (1, bytes([3])) in sim.sent  # colour, battery
    sim.notify(0, b"R")
    sim.notify(1, b"R")
    sim.notify(0, godice_stable(6))
    sim.notify(1, b"TS" + struct.pack(">bbb", 45, 45, 0))  # resting on an edge
    h.wait(800)
    assert h.last("cocked")["well"] == 2 and "opening" not in h.kinds()
    sim.notify(1, b"R")
    sim.notify(1, godice_stable(2))
    h.wait(600)
    assert h.last("opening")["dice"] == [6, 2]


def test_bad_bytes_are_logged_in_one_line_and_the_game_goes_on(harness, caplog) -> None:
    h, sim = table(harness, "pixels")
    sim.connect(0)
    sim.connect(1)
    sim.notify(0, pixels_roll(ON_FACE, 0))  # each die answers whoAreYou with where it lies
    sim.notify(1, pixels_roll(ON_FACE, 0))
    sim.notify(0, bytes([3, 9]))  # a roll state cut short
    sim.notify(1, bytes([3, 77, 0]))  # no such state
    h.wait(200)
    lines = [r.getMessage() for r in caplog.records if "cannot be read" in r.getMessage()]
    assert len(lines) == 2 and all("\n" not in line for line in lines)
    assert lines[0].startswith("Pixels die 1 sent a message that cannot be read")
    for slot, index in ((0, 2), (1, 3)):
        sim.notify(slot, pixels_roll(ROLLING))
        sim.notify(slot, pixels_roll(ROLLED, index))
    h.wait(600)
    assert h.last("opening")["dice"] == [3, 4]


def test_without_bluetooth_the_buttons_take_over(harness, caplog) -> None:
    h, sim = table(harness, "godice")
    sim.fail("no Bluetooth adapter found")
    h.wait(100)
    assert h.app.dice_source == "buttons"
    said = h.last("message")["text"]
    assert said == "The GoDice dice cannot be used: enter each throw with the buttons."
    assert "No GoDice dice: no Bluetooth adapter found." in h.app.installer_notes
    warned = [r.getMessage() for r in caplog.records if "cannot be used" in r.getMessage()]
    assert warned == [
        "the GoDice dice cannot be used: no Bluetooth adapter found; the dice are entered "
        "with the buttons"
    ]
    h.press("done", "white")  # the throw is entered with the buttons now
    assert h.app.modes.top.__class__.__name__ == "DiceEntryMode"


def test_kiosk_runs_dice_over_real_bleak_and_falls_back_without_bluetooth(harness) -> None:
    """The dice as ``kiosk run`` builds them (bleak's transport): on a machine without
    Bluetooth (or without bleak) the table says why once and takes the buttons."""
    config = Config()
    config.dice.source = "pixels"
    dice = bluetooth_dice(config)
    assert dice is not None and isinstance(dice.transport, BleakTransport)
    h = harness(config, bluetooth=dice)
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    deadline = time.monotonic() + 20
    while h.app.dice_source == "pixels" and time.monotonic() < deadline:
        h.wait(50)
        time.sleep(0.05)
    if not dice.unavailable:
        pytest.skip("this machine has Bluetooth: a scan is under way")
    assert h.app.dice_source == "buttons"
    assert h.app.installer_notes[-1] == f"No Pixels dice: {dice.unavailable}."
    assert "\n" not in dice.unavailable
