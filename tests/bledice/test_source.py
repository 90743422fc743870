"""Two Bluetooth dice read as two wells: nothing until both are heard, each change of the
pair in order, a die lost and found again is no throw, and what is wrong with a die (its
battery, its kind, its bytes) is said in one line; the real bleak transport, where this
machine has no Bluetooth, says why in one line, as it does without bleak."""

from __future__ import annotations

import logging
import queue
import random
import sys
import time

import pytest

from kiosk.app.doctor import check_bluetooth_dice
from kiosk.bledice import VENDORS, BleDice
from kiosk.bledice.godice import GODICE
from kiosk.bledice.pixels import PIXELS
from kiosk.bledice.protocol import Battery, DieState, Identity, Roll
from kiosk.bledice.simulated import SimulatedDice
from kiosk.bledice.source import Notice, Unavailable
from kiosk.bledice.transport import BleakTransport, Found, unavailable_because
from kiosk.config import Config
from kiosk.table import DieReading

E, C = DieReading.EMPTY, DieReading.COCKED


def pair(vendor=PIXELS) -> tuple[BleDice, SimulatedDice]:
    sim = SimulatedDice()
    dice = BleDice(vendor, sim)
    dice.start()
    sim.connect(0)
    sim.connect(1)
    return dice, sim


def test_pixels_give_no_reading_until_both_said_where_they_lie() -> None:
    dice, sim = pair()
    sim.notify(0, bytes([3, 5, 2]))  # onFace, a three
    assert dice.poll() == [] and dice.readings is None
    sim.notify(1, bytes([3, 3, 0]))  # rolling
    sim.notify(1, bytes([3, 1, 5]))  # rolled a six
    assert dice.poll() == [(DieReading.THREE, E), (DieReading.THREE, DieReading.SIX)]


def test_godice_are_read_from_connection_and_every_change_is_kept() -> None:
    dice, sim = pair(GODICE)
    assert dice.poll() == [(E, E)]  # no face until thrown: nothing lies in the "wells"
    sim.notify(0, b"S\x00\x40\x00")  # face 3
    sim.notify(1, b"TS\x30\x30\x00")
    sim.notify(1, b"R")
    sim.notify(1, b"S\xc0\x00\x00")  # face 1
    assert dice.poll() == [
        (DieReading.THREE, E),
        (DieReading.THREE, C),
        (DieReading.THREE, E),  # rolling again
        (DieReading.THREE, DieReading.ONE),
    ]


def test_a_die_lost_keeps_its_reading_and_its_slot() -> None:
    dice, sim = pair()
    sim.notify(0, bytes([3, 1, 0]))
    sim.notify(1, bytes([3, 1, 1]))
    dice.poll()
    sim.lose(1)
    sim.connect(1)
    sim.notify(1, bytes([3, 5, 1]))  # back, on the same face: no change, no throw
    assert dice.poll() == [] and dice.readings == (DieReading.ONE, DieReading.TWO)
    assert dice.said[-2:] == [
        "Pixels die 2 lost (out of range); looking for it again.",
        "Pixels die 2 connected (sim-1); it blinks twice.",
    ]
    assert sim.sent.count((1, b"\x01")) == 2  # whoAreYou again on reconnecting
    blinks = [data for slot, data in sim.sent if data[0] == 29]  # Blink: count is byte 1
    assert [b[1] for b in blinks] == [1, 2, 2]  # die 1 once, die 2 twice (and again)


def test_what_is_wrong_with_a_die_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    dice, sim = pair()
    sim.notify(0, bytes([34, 9, 0]))  # battery 9 %
    sim.notify(1, bytes([34, 9, 2]))  # 9 % but charging: nothing to say
    sim.notify(0, bytes([3]))
    dice.poll()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "Pixels die 1's battery is at 9 %: charge it.",
        "Pixels die 1 sent a message that cannot be read (a Pixels roll state is 1 bytes "
        "long; at least 3 expected); ignored.",
    ]


def test_a_die_of_another_kind_is_named(caplog: pytest.LogCaptureFixture) -> None:
    dice, sim = pair()
    d20 = bytes([2, 15, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 10, 1, 0, 0, 0, 1, 7, 20, 1, 0])
    d20 += bytes([2, 0, 2, 0, 13]) + bytes(12) + bytes([5, 90, 0, 1, 14])
    sim.notify(1, d20)
    dice.poll()
    assert dice.said[-1] == "Pixels die 2 is a d20, not a six-sided die: use a d6."
    assert dice.identities[1].kind == "d20" and dice.readings is None
    sim.notify(0, bytes([3, 1, 0]))
    sim.notify(1, bytes([3, 1, 4]))  # a d20 on its face 5 is no backgammon die's five
    assert dice.poll() == [] and dice.readings is None


def test_a_fault_repeated_is_said_once(caplog: pytest.LogCaptureFixture) -> None:
    dice, sim = pair()
    for _ in range(50):
        sim.notify(0, bytes([3, 1]))
    sim.notify(0, bytes([34, 9, 0]))
    sim.notify(0, bytes([34, 9, 0]))
    dice.poll()
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 2


def test_fuzzed_notifications_never_raise() -> None:
    rng = random.Random(3131)
    for vendor in (PIXELS, GODICE):
        dice, sim = pair(vendor)
        for _ in range(2000):
            sim.notify(rng.randrange(2), bytes(rng.randrange(256) for _ in range(rng.randrange(8))))
        for reading in dice.poll():
            assert all(isinstance(r, DieReading) for r in reading)
        assert all("\n" not in line for line in dice.said)


def first_notice(transport: BleakTransport) -> Notice:
    got: queue.Queue[Notice] = queue.Queue()
    transport.start(PIXELS, got.put)
    try:
        return got.get(timeout=20)
    finally:
        transport.stop()


def test_without_bleak_the_transport_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bleak", None)  # import bleak raises ImportError
    notice = first_notice(BleakTransport(scan_s=0.5))
    assert isinstance(notice, Unavailable)
    assert notice.why.startswith("the Bluetooth library bleak is not installed; install it")


def test_the_real_transport_without_bluetooth_says_why_in_one_line() -> None:
    pytest.importorskip("bleak")
    start = time.monotonic()
    notice = first_notice(BleakTransport(scan_s=0.5))
    if not isinstance(notice, Unavailable):
        pytest.skip("this machine has Bluetooth")
    assert "\n" not in notice.why and "Traceback" not in notice.why
    assert notice.why == unavailable_because(FileNotFoundError()) or "adapter" in notice.why
    assert time.monotonic() - start < 20


def test_unavailable_reasons() -> None:
    assert unavailable_because(Exception("No Bluetooth adapters found.")).startswith(
        "no Bluetooth adapter found"
    )
    assert "rfkill unblock" in unavailable_because(Exception("adapter not ready: powered off"))
    dbus = Exception(
        "[org.freedesktop.DBus.Error.ServiceUnknown] The name org.bluez was not provided"
    )
    assert "BlueZ" in unavailable_because(dbus)
    denied = Exception("[org.freedesktop.DBus.Error.AccessDenied] Rejected send message")
    assert "bluetooth group" in unavailable_because(denied)
    assert unavailable_because(Exception("boom\n  at line 3")) == "Bluetooth failed: boom at line 3"


def test_the_transport_keeps_each_die_in_its_slot() -> None:
    t = BleakTransport(addresses=("aa:00:00:00:00:02", "AA:00:00:00:00:01"))
    assert t._slot("AA:00:00:00:00:01") == 1 and t._slot("aa:00:00:00:00:02") == 0
    t = BleakTransport()
    assert t._slot("B1") == 0 and t._slot("B2") == 1 and t._slot("B3") is None
    t._clients[0] = None  # B1 connecting
    found = [Found(a, "", -50, None) for a in ("B1", "B2", "B3")]
    assert [f.address for f in t._wanted(found)] == ["B2", "B3"]


def doctor(source: str, found: list[Found], why: str = "", addresses: str = "") -> str:
    config = Config()
    config.dice.source, config.dice.addresses = source, addresses
    check = check_bluetooth_dice(config, 4.0, lambda vendor, seconds: (found, why))
    return check.line()


def test_kiosk_doctor_lists_the_dice_found() -> None:
    d6 = Identity("Pixels", "1234ABCD", "d6", "2025-01-01", Roll(DieState.AT_REST, 3), Battery(80))
    one = Found("AA:00:00:00:00:01", "Pixel A", -48, d6)
    two = Found("AA:00:00:00:00:02", "Pixel B", -61, d6)
    assert doctor("pixels", [one, two]) == (
        "OK      Bluetooth dice: 2 Pixels dice found: AA:00:00:00:00:01 'Pixel A' (d6, battery "
        "80 %, firmware 2025-01-01, -48 dBm); AA:00:00:00:00:02 'Pixel B' (d6, battery 80 %, "
        "firmware 2025-01-01, -61 dBm)"
    )
    assert doctor("pixels", [one]).endswith("A game needs two: wake the other")
    assert doctor("pixels", [one], addresses="AA:00:00:00:00:01, AA:00:00:00:00:09").endswith(
        "Not heard: AA:00:00:00:00:09 ([dice] addresses)"
    )
    d20 = Found("AA:00:00:00:00:03", "Pixel C", -70, Identity("Pixels", "1", "d20"))
    assert doctor("pixels", [one, d20]).endswith("Only six-sided dice (d6) can be used")
    assert doctor("godice", []).startswith("PROBLEM Bluetooth dice: no GoDice dice heard in 4 s")
    assert doctor("godice", [], why="no Bluetooth adapter found") == (
        "PROBLEM Bluetooth dice: no Bluetooth adapter found. Until then the dice are entered "
        "with the buttons."
    )
    assert doctor("buttons", []) == 'OK      Bluetooth dice: not used ([dice] source = "buttons")'
    assert set(VENDORS) == {"pixels", "godice"}
