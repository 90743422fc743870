"""The host-side frame parser and payload decoders."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.link.frames import decode_frame, decode_identify
from kiosk.link.protocol import MAX_LINE, FrameParser, Message, encode
from kiosk.table.layout import LOCATIONS, SENSINGS, DieReading, SlotState, TableLayout

PRINTABLE = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E)).filter(
    lambda text: "$" not in text
)
EMPTY_FRAME = " ".join("." * TableLayout().slots(loc) for loc in LOCATIONS) + " .."


def test_a_message_round_trips() -> None:
    parser = FrameParser()
    assert parser.feed(encode("H", 0x1234, "up=5")) == [Message("H", 0x1234, "up=5")]


def test_messages_split_anywhere_reassemble() -> None:
    data = encode("F", 1, "a") + encode("H", 2, "b c")
    parser = FrameParser()
    found = []
    for byte in data:
        found += parser.feed(bytes([byte]))
    assert [m.seq for m in found] == [1, 2]
    assert parser.counters.corrupt == 0


def test_truncated_frame_resynchronises_on_the_next_start() -> None:
    parser = FrameParser()
    whole = encode("H", 7, "up=1")
    assert parser.feed(whole[:9] + whole) == [Message("H", 7, "up=1")]
    assert parser.counters.corrupt == 1


def test_every_single_bit_flip_is_caught() -> None:
    whole = encode("F", 3, EMPTY_FRAME)
    for index in range(len(whole) - 2):
        for bit in range(8):
            damaged = bytearray(whole)
            damaged[index] ^= 1 << bit
            found = FrameParser().feed(bytes(damaged) + encode("H", 4, ""))
            assert found == [Message("H", 4, "")]


def test_an_endless_line_is_dropped() -> None:
    parser = FrameParser()
    parser.feed(b"$F0001 " + b"." * (MAX_LINE + 10))
    assert parser.feed(encode("H", 1, "")) == [Message("H", 1, "")]
    assert parser.counters.corrupt == 1


@given(st.binary(max_size=2000))
def test_the_parser_never_raises(data: bytes) -> None:
    parser = FrameParser()
    for message in parser.feed(data):
        assert isinstance(message, Message)


@given(st.lists(st.tuples(st.binary(max_size=40), PRINTABLE), max_size=8), st.integers(1, 50))
def test_frames_survive_surrounding_garbage(chunks: list[tuple[bytes, str]], cut: int) -> None:
    stream = b""
    sent = []
    for n, (garbage, payload) in enumerate(chunks):
        stream += garbage.replace(b"$", b"") + b"\n" + encode("F", n, payload)
        sent.append(Message("F", n, payload))
    parser = FrameParser()
    found = []
    for start in range(0, len(stream), cut):
        found += parser.feed(stream[start : start + cut])
    assert found == sent


@pytest.mark.parametrize("sensing", SENSINGS)
def test_a_frame_decodes_slots_and_dice(sensing: str) -> None:
    layout = TableLayout(sensing=sensing)
    polarity = sensing == "polarity"
    white, black = (SlotState.WHITE, SlotState.BLACK) if polarity else (SlotState.OCCUPIED,) * 2
    groups = ["." * layout.slots(loc) for loc in LOCATIONS]
    groups[0] = ("BB" if polarity else "OO") + "...."
    groups[LOCATIONS.index("off-white")] = ("WWW" if polarity else "OOO") + "." * 12
    frame = decode_frame(9, " ".join(groups) + " 4C", layout)
    assert frame.slots["1"] == (black,) * 2 + (SlotState.EMPTY,) * 4
    assert frame.counts()["off-white"] == (white, 3)
    assert frame.occupancy()["1"] == 2 and frame.occupancy()["off-white"] == 3
    reading = frame.reading(sensing)
    assert reading.counts == frame.occupancy()
    assert reading.colours == (frame.sensed() if polarity else None)
    assert frame.sensed()["1"] == ((0, 2) if polarity else (0, 0))
    assert frame.dice == (DieReading.FOUR, DieReading.COCKED)
    assert frame.dice[0].face == 4 and frame.dice[1].face is None
    assert frame.to_payload() == " ".join(groups) + " 4C"


@pytest.mark.parametrize(
    "payload",
    ["", EMPTY_FRAME[:-3], EMPTY_FRAME.replace(".", "X", 1), EMPTY_FRAME[:-2] + "9.", "...... "],
)
def test_a_frame_that_does_not_fit_is_refused(payload: str) -> None:
    with pytest.raises(ValueError):
        decode_frame(1, payload, TableLayout())


def test_identify_needs_its_versions() -> None:
    with pytest.raises(ValueError, match="proto"):
        decode_identify("fw=1.0.0 layout=6,4,15")
    found = decode_identify("fw=1.1.0 proto=2 layout=5,4,15 sense=occupancy").layout
    assert found == TableLayout(point_slots=5) and found.sensing == "occupancy"
    with pytest.raises(ValueError, match="sensing"):
        decode_identify("fw=1.1.0 proto=2 layout=6,4,15 sense=magnetic")


def test_an_identify_without_a_sensing_is_a_table_that_tells_colour() -> None:
    """Before protocol 2 (which added ``sense=`` and the slot character ``O``) every table
    read a man's colour."""
    old = decode_identify("fw=1.0.0 proto=1 layout=5,4,15").layout
    assert old == TableLayout(point_slots=5, sensing="polarity")


def _cpu_seconds(chunks: list[bytes]) -> float:
    parser = FrameParser()
    started = time.process_time()
    for chunk in chunks:
        parser.feed(chunk)
    return time.process_time() - started


def test_one_large_read_costs_what_the_same_bytes_in_small_reads_cost() -> None:
    """Issue 27, item 14: ``$`` x 1 MB in one ``feed()`` took 9.3 s (quadratic). The cost is
    compared with the same bytes fed in sixteen parts, so the machine's speed cancels out:
    linear parsing makes them equal, quadratic parsing makes one read many times dearer."""
    size = 1024 * 1024
    whole = _cpu_seconds([b"$" * size])
    parts = _cpu_seconds([b"$" * (size // 16)] * 16)
    assert whole < 3 * parts


def test_a_flood_of_starts_and_a_long_line_are_each_counted() -> None:
    parser = FrameParser()
    assert parser.feed(b"$" * 1000 + encode("H", 1)) == [Message("H", 1, "")]
    assert parser.corrupt == 1000
    long = b"$F0001 " + b"." * (4 * MAX_LINE)
    assert parser.feed(long[:1500]) == [] and parser.corrupt == 1001
    assert parser.feed(long[1500:] + b"\r\n" + encode("H", 2)) == [Message("H", 2, "")]
    assert parser.corrupt == 1001 and parser.garbage_bytes == 0
