"""The firmware core's scanning, debounce, messages and self-test, run under CPython.

The tests run on the table as designed (occupancy sensing, one reed a slot); those about
a table built to sense colour use ``polarity_bench`` or ``Bench(sensing="polarity")``.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from kiosk.link.frames import decode_frame, decode_heartbeat, decode_identify, decode_self_test
from kiosk.link.protocol import crc16, encode
from kiosk.simtable.firmware import load_firmware
from kiosk.table.layout import SENSINGS, DieReading, SlotState, TableLayout


def test_first_settled_picture_is_sent_after_the_debounce_time(make_bench) -> None:
    rig = make_bench()
    rig.closed = {rig.reed("6", 0)}
    assert rig.frames(rig.scan(2)) == []
    (frame,) = rig.frames(rig.scan())
    assert frame.slots["6"][0] is SlotState.OCCUPIED


def test_a_change_settles_after_the_configured_number_of_scans(make_bench) -> None:
    rig = make_bench(debounce_scans=5)
    rig.scan(5)
    rig.closed = {rig.reed("13", 0)}
    assert rig.frames(rig.scan(4)) == []
    (frame,) = rig.frames(rig.scan())
    assert frame.occupancy()["13"] == 1
    assert rig.frames(rig.scan(20)) == []


def test_a_table_sensing_colour_reads_each_man_s_colour(make_bench) -> None:
    rig = make_bench(sensing="polarity")
    rig.closed = {rig.reed("6", 0)}
    (frame,) = rig.frames(rig.scan(3))
    assert frame.slots["6"][0] is SlotState.WHITE
    rig.closed = {rig.reed("13", 0, black=True)}
    (frame,) = rig.frames(rig.scan(3))
    assert frame.counts()["13"] == (SlotState.BLACK, 1)
    assert frame.counts()["6"] == (SlotState.EMPTY, 0)


def test_chatter_shorter_than_the_debounce_never_settles(bench) -> None:
    switch = bench.reed("8", 2)
    for _ in range(10):
        bench.closed = {switch}
        assert bench.frames(bench.scan(2)) == []
        bench.closed = set()
        assert bench.frames(bench.scan()) == []
    assert bench.firmware.bounces == 10


def test_both_reeds_closed_is_a_fault_not_a_state(polarity_bench) -> None:
    bench = polarity_bench
    bench.closed = {bench.reed("1", 0), bench.reed("1", 0, black=True)}
    assert bench.frames(bench.scan(10)) == []
    assert bench.firmware.faults == 1


def test_dice_wells_read_faces_up_cocked_and_empty(bench) -> None:
    dice = load_firmware("dice")
    bench.matrix.well_cells = [dice.orientations(2)[1], 0b000000110]
    (frame,) = bench.frames(bench.scan(3))
    assert frame.dice == (DieReading.FIVE, DieReading.COCKED)


def test_commands_are_answered(bench) -> None:
    bench.firmware.feed(encode("i", 0) + encode("d", 1) + encode("h", 2) + encode("x", 3))
    kinds = [m.kind for m in bench.take()]
    assert kinds == ["I", "F", "H", "E"]


def test_identify_states_versions_and_layout(make_bench) -> None:
    rig = make_bench(scan_hz=250, debounce_scans=4)
    rig.firmware.start()
    (message,) = rig.take()
    info = decode_identify(message.payload)
    assert (info.firmware, info.protocol, info.layout) == ("1.2.0", 2, TableLayout())
    assert (info.scan_hz, info.debounce_scans, info.reset_cause) == (250, 4, "power")
    rig = make_bench(sensing="polarity")
    rig.firmware.start()
    (message,) = rig.take()
    assert decode_identify(message.payload).layout == TableLayout(sensing="polarity")


def test_a_damaged_command_is_counted_and_ignored(bench) -> None:
    good = bytearray(encode("i", 0))
    good[2] ^= 1
    bench.firmware.feed(bytes(good) + b"line noise\n")
    assert bench.take() == []
    assert bench.firmware.rx_errors == 1


def test_heartbeat_at_least_once_a_second_with_counters(make_bench) -> None:
    rig = make_bench(heartbeat_ms=500)
    beats = [m for m in rig.scan(400) if m.kind == "H"]  # two seconds
    assert len(beats) == 4
    beat = decode_heartbeat(beats[-1].seq, beats[-1].payload)
    assert beat.uptime_ms == 2000
    assert beat.counters["scans"] == 400


def test_sequence_numbers_count_up(bench) -> None:
    for n in range(5):
        bench.firmware.feed(encode("h", n))
    seqs = [m.seq for m in bench.take()]
    assert seqs == list(range(seqs[0], seqs[0] + 5))


def test_self_test_reports_stuck_and_chattering_switches(polarity_bench) -> None:
    bench = polarity_bench
    stuck = {bench.reed("3", 1), bench.reed("3", 1, black=True)}
    bench.closed = set(stuck)
    bench.matrix.stuck_lines = 0b100
    bench.firmware.feed(encode("t", 0))
    chatter = bench.reed("bar-white", 0)
    reports = []
    for n in range(100):
        bench.closed = stuck | ({chatter} if n % 2 else set())
        reports += [m for m in bench.scan() if m.kind == "T"]
    (report,) = [decode_self_test(m.payload) for m in reports]
    assert not report.ok
    assert report.stuck == ("3/2",)
    assert report.chattering == ("bar-white/1",)
    assert report.stuck_lines == 0b100


def test_self_test_of_a_quiet_table_passes(bench) -> None:
    bench.firmware.feed(encode("t", 0))
    (report,) = [decode_self_test(m.payload) for m in bench.scan(100) if m.kind == "T"]
    assert report.ok and report.stuck == () and report.chattering == ()


def test_crc_is_ccitt_false_in_both_implementations() -> None:
    protocol = load_firmware("protocol")
    assert protocol.crc16(b"123456789") == crc16(b"123456789") == 0x29B1


PRINTABLE = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E))


@given(PRINTABLE, st.integers(0, 0xFFFF))
def test_firmware_and_kiosk_encode_alike(payload: str, seq: int) -> None:
    protocol = load_firmware("protocol")
    assert protocol.encode("F", seq, payload.encode()) == encode("F", seq, payload)


@given(st.binary(max_size=300))
def test_command_reader_never_raises(data: bytes) -> None:
    reader = load_firmware("protocol").CommandReader()
    for kind, seq, payload in reader.feed(data):
        assert kind.isalpha() and 0 <= seq <= 0xFFFF and isinstance(payload, bytes)


def test_default_layout_agrees_with_the_kiosk() -> None:
    firmware = load_firmware("layout")
    kiosk = TableLayout()
    assert (firmware.POINT_SLOTS, firmware.BAR_SLOTS, firmware.TRAY_SLOTS) == (
        kiosk.point_slots,
        kiosk.bar_slots,
        kiosk.tray_slots,
    )
    assert firmware.LOCATIONS == kiosk.locations
    assert firmware.SENSINGS == SENSINGS
    assert firmware.SENSING == firmware.Layout().sensing == kiosk.sensing == "occupancy"
    assert firmware.Layout().total_slots == kiosk.total_slots
    assert firmware.Layout().switches == kiosk.total_slots  # one reed a slot


def test_every_orientation_of_every_face_reads_and_nothing_else_does() -> None:
    dice = load_firmware("dice")
    faces = {}
    for down in range(1, 7):
        for mask in dice.orientations(down):
            faces[mask] = 7 - down
    for mask in range(1 << dice.CELLS):
        expected = faces.get(mask, dice.EMPTY if mask == 0 else dice.COCKED)
        assert dice.read_well(mask) == expected


def test_every_message_in_the_protocol_document_checks_and_decodes() -> None:
    from pathlib import Path

    from kiosk.link.protocol import FrameParser

    text = (Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md").read_text()
    lines = [line for line in text.splitlines() if re.match(r"\$[A-Za-z][0-9A-F]{4} ", line)]
    messages = FrameParser().feed(("\r\n".join(lines) + "\r\n").encode())
    assert len(messages) == len(lines) >= 4  # every example's checksum is right
    frames = [m for m in messages if m.kind == "F"]
    occupancy = decode_frame(frames[0].seq, frames[0].payload, TableLayout())
    assert occupancy.occupancy()["6"] == 5 and occupancy.dice == (DieReading.FIVE, DieReading.TWO)
    assert set(occupancy.slots["6"]) == {SlotState.OCCUPIED, SlotState.EMPTY}
    colour = decode_frame(frames[1].seq, frames[1].payload, TableLayout(sensing="polarity"))
    assert colour.counts()["6"] == (SlotState.WHITE, 5)
    tests = [decode_self_test(m.payload) for m in messages if m.kind == "T"]
    assert tests[-1].closed == ("9/1", "die2/3")
