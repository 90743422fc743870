"""Test vectors for the firmware's own logic, run unchanged under CPython and MicroPython.

Every ``case_*`` function raises ``AssertionError`` on failure. ``test_vectors.py`` runs
each one under CPython (imported as usual) and under real MicroPython (the WebAssembly
port, through ``kiosk.simtable.micropython``), so both interpreters see the same vectors.
Keep this file to what MicroPython accepts: no dataclasses, typing or f"{x=}".

The vectors run on the table as designed (``Layout()``: occupancy sensing, one reed a
slot); those about a table built to sense colour (two reeds a slot: frames of ``W`` and
``B``, both reeds closed a fault, stuck slots) ask for ``Layout(sensing="polarity")``.
"""

import sys

from bgtable import dice, protocol
from bgtable.core import TableFirmware
from bgtable.layout import Layout
from bgtable.outbox import Outbox

COLUMNS = 16


class Matrix:
    """A virtual switch matrix: ``closed`` holds the switch numbers that read closed."""

    columns = COLUMNS

    def __init__(self, switches):
        self.rows = (switches + COLUMNS - 1) // COLUMNS
        self.closed = set()
        self.lines = 0
        self.cells = [0, 0]

    def wells(self):
        return list(self.cells)

    def scan(self):
        rows = [0] * self.rows
        for switch in self.closed:
            rows[switch // COLUMNS] |= 1 << (switch % COLUMNS)
        return rows

    def idle(self):
        return self.lines


class Clock:
    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms

    def ticks_diff(self, a, b):
        return a - b


class Rig:
    """The firmware core on a virtual matrix and clock, its output captured."""

    def __init__(self, accept=True, layout=None, **options):
        self.layout = layout or Layout()
        self.matrix = Matrix(self.layout.switches)
        self.clock = Clock()
        self.out = bytearray()
        self.accept = accept
        self.firmware = TableFirmware(
            self.matrix, self.clock, self._write, layout=self.layout, **options
        )

    def _write(self, data):
        if not self.accept:
            return False
        self.out.extend(data)
        return True

    def scan(self, times=1, ms=5):
        for _ in range(times):
            self.clock.ms += ms
            self.firmware.step()
        return self.take()

    def take(self):
        found = messages(bytes(self.out))
        self.out = bytearray()
        return found

    def reed(self, location, slot, black=False):
        return self.layout.reed_switch(self.layout.slot_index(location, slot), black)


def messages(data):
    """``(kind, seq, payload)`` of every line in ``data``, parsed by the firmware's parser."""
    found = []
    for line in data.split(b"\n"):
        if line:
            assert line[0] == protocol.START, line
            message = protocol.parse_line(bytearray(line[1:]))
            assert message is not None, line
            found.append(message)
    return found


def fields(payload):
    result = {}
    for word in payload.split():
        key, _, value = word.partition(b"=")
        result[key.decode()] = value.decode()
    return result


def frames(found):
    return [payload for kind, _, payload in found if kind == "F"]


def ready(**options):
    rig = Rig(**options)
    rig.scan(3)
    return rig


# -- protocol ------------------------------------------------------------------------------


def case_crc_check_value():
    assert protocol.crc16(b"123456789") == 0x29B1


def case_commands_encode_as_documented():
    assert protocol.encode("i", 0, b"") == b"$i0000 *DDBF\r\n"
    assert protocol.encode("d", 0, b"") == b"$d0000 *93FC\r\n"
    assert protocol.encode("t", 0, b"") == b"$t0000 *8978\r\n"
    assert protocol.encode("h", 0, b"") == b"$h0000 *981F\r\n"
    assert protocol.encode("F", 0x1A2B, b"x y")[:8] == b"$F1A2B x"


def case_parse_line_takes_a_bytearray():
    line = bytearray(protocol.encode("H", 0xBEEF, b"up=1")[1:-1])  # up to the LF
    assert protocol.parse_line(line) == ("H", 0xBEEF, b"up=1")
    assert protocol.parse_line(bytes(line)) == ("H", 0xBEEF, b"up=1")


def case_parse_line_refuses_damage():
    good = protocol.encode("d", 7, b"")[1:-2]
    assert protocol.parse_line(good) == ("d", 7, b"")
    for bad in (
        good[:-1] + b"0",  # checksum
        good.replace(b"0007", b"000g"),  # not hex
        good.lower(),  # lower-case hex
        b"d0007 \x01*0000",  # not printable
        b"d0007",  # too short
        b"10007 *0000",  # kind not a letter
    ):
        assert protocol.parse_line(bytearray(bad)) is None, bad


def case_hex_values():
    assert protocol.hex_value(b"00FF") == 255
    assert protocol.hex_value(bytearray(b"BEEF")) == 0xBEEF
    assert protocol.hex_value(b"00fF") == -1
    assert protocol.hex_value(b"") == 0


def case_command_reader_finds_commands_in_noise():
    reader = protocol.CommandReader()
    noise = b"\x00\xff garbage \r\n"
    found = reader.feed(noise + protocol.encode("i", 1, b"") + noise)
    assert found == [("i", 1, b"")]
    assert reader.errors == 0


def case_command_reader_counts_truncated_and_long_commands():
    reader = protocol.CommandReader()
    whole = protocol.encode("h", 2, b"")
    found = reader.feed(whole[:5] + whole)  # a truncated command, then a whole one
    assert found == [("h", 2, b"")] and reader.errors == 1
    found = reader.feed(b"$" + b"x" * 100 + b"\n" + whole)
    assert found == [("h", 2, b"")] and reader.errors == 2


def case_command_reader_survives_every_byte():
    reader = protocol.CommandReader()
    data = bytes(range(256)) * 3
    for start in range(0, len(data), 7):
        reader.feed(data[start : start + 7])
    assert reader.feed(protocol.encode("d", 3, b"")) == [("d", 3, b"")]


# -- debounce ------------------------------------------------------------------------------


def case_first_picture_after_the_debounce_time():
    rig = Rig()
    rig.matrix.closed = {rig.reed("6", 0)}
    assert frames(rig.scan(2)) == []
    (frame,) = frames(rig.scan())
    groups = frame.split(b" ")
    assert groups[5] == b"O....." and groups[-1] == b".."


def case_a_change_settles_after_the_configured_scans():
    rig = Rig(debounce_scans=5)
    rig.scan(5)
    rig.matrix.closed = {rig.reed("13", 0)}
    assert frames(rig.scan(4)) == []
    (frame,) = frames(rig.scan())
    assert frame.split(b" ")[12] == b"O....."
    assert frames(rig.scan(20)) == []


def case_chatter_shorter_than_the_debounce_never_settles():
    rig = ready()
    switch = rig.reed("8", 2)
    for _ in range(10):
        rig.matrix.closed = {switch}
        assert frames(rig.scan(2)) == []
        rig.matrix.closed = set()
        assert frames(rig.scan()) == []
    assert rig.firmware.bounces == 10


def case_both_reeds_closed_is_a_fault():
    rig = ready(layout=Layout(sensing="polarity"))
    rig.matrix.closed = {rig.reed("1", 0), rig.reed("1", 0, True)}
    assert frames(rig.scan(10)) == []
    assert rig.firmware.faults == 1


# -- dice ----------------------------------------------------------------------------------


def case_every_die_face_reads_in_every_turn():
    for down in range(1, 7):
        for turn in range(4):
            assert dice.read_well(dice.cells(down, turn)) == 7 - down, (down, turn)
    faces = {}
    for down in range(1, 7):
        for mask in dice.orientations(down):
            assert mask not in faces  # no two faces share a reading
            faces[mask] = 7 - down
    assert len(faces) == 14  # 4 + 2 + 1 + 1 + 4 + 2 turns that read differently
    for mask in range(1 << dice.CELLS):
        expected = faces.get(mask, dice.EMPTY if mask == 0 else dice.COCKED)
        assert dice.read_well(mask) == expected, mask


def case_no_single_wrong_cell_turns_one_face_into_another():
    for down in range(1, 7):
        for mask in dice.orientations(down):
            for cell in range(dice.CELLS):
                assert dice.read_well(mask ^ (1 << cell)) == dice.COCKED, (down, mask, cell)


def case_a_die_without_its_centre_is_cocked():
    ring = dice.cells(1, 0) & dice.RING
    assert dice.read_well(ring) == dice.COCKED  # pushed off its seat: the centre is off
    assert dice.read_well(ring ^ dice.RING) == dice.COCKED  # ... and the ring reversed
    assert dice.read_well(1 << dice.CENTRE) == dice.COCKED
    assert dice.read_well(0) == dice.EMPTY


def case_wells_in_the_frame():
    rig = ready()
    rig.matrix.cells = [dice.cells(2, 1), 0b000000100]
    (frame,) = frames(rig.scan(3))
    assert frame.split(b" ")[-1] == b"5C"


# -- messages ------------------------------------------------------------------------------


def case_commands_are_answered():
    rig = ready()
    rig.firmware.feed(
        protocol.encode("i", 0, b"")
        + protocol.encode("d", 1, b"")
        + protocol.encode("h", 2, b"")
        + protocol.encode("x", 3, b"")
    )
    found = rig.take()
    assert [kind for kind, _, _ in found] == ["I", "F", "H", "E"]
    assert found[-1][2] == b"unknown=x"
    seqs = [seq for _, seq, _ in found]
    assert seqs == list(range(seqs[0], seqs[0] + 4))


def case_identify_names_the_interpreter():
    rig = Rig(scan_hz=250, debounce_scans=4)
    rig.firmware.start()
    ((kind, seq, payload),) = rig.take()
    values = fields(payload)
    assert (kind, seq) == ("I", 0)
    assert values["proto"] == str(protocol.PROTOCOL_VERSION)
    assert values["layout"] == "6,4,15" and values["scan"] == "250"
    assert values["rt"] == sys.implementation.name


def case_heartbeat_every_half_second_with_counters():
    rig = Rig(heartbeat_ms=500)
    beats = [p for k, _, p in rig.scan(400) if k == "H"]
    assert len(beats) == 4
    values = fields(beats[-1])
    assert values["up"] == "2000" and values["scans"] == "400" and values["txdrop"] == "0"
    assert values["stall"] == "0"


def case_a_host_that_does_not_read_costs_drops_not_time():
    rig = ready()
    rig.accept = False
    rig.firmware.feed(protocol.encode("h", 0, b"") + protocol.encode("d", 1, b""))
    assert rig.firmware.tx_dropped == 2
    rig.accept = True
    rig.firmware.feed(protocol.encode("h", 2, b""))
    ((kind, _, payload),) = rig.take()
    assert kind == "H" and fields(payload)["txdrop"] == "2"


# -- self-test -----------------------------------------------------------------------------


def self_test(rig, mode=b"", closed_every_other=None):
    rig.firmware.feed(protocol.encode("t", 0, mode))
    stuck = set(rig.matrix.closed)
    reports = []
    for n in range(100):
        if closed_every_other is not None:
            rig.matrix.closed = stuck | ({closed_every_other} if n % 2 else set())
        reports += [fields(p) for k, _, p in rig.scan() if k == "T"]
    (report,) = reports
    return report


def case_self_test_reports_stuck_chattering_and_lines():
    rig = ready(layout=Layout(sensing="polarity"))
    rig.matrix.closed = {rig.reed("3", 1), rig.reed("3", 1, True)}
    rig.matrix.lines = 0b100
    report = self_test(rig, closed_every_other=rig.reed("bar-white", 0))
    assert report == {"ok": "0", "stuck": "3/2", "chatter": "bar-white/1", "lines": "4"}


def case_self_test_of_the_designed_table_reports_chattering_and_lines():
    rig = ready()
    rig.matrix.closed = {rig.reed("3", 1)}  # one reed a slot: a closed reed is a man
    rig.matrix.lines = 0b100
    report = self_test(rig, closed_every_other=rig.reed("bar-white", 0))
    assert report == {"ok": "0", "stuck": "-", "chatter": "bar-white/1", "lines": "4"}


def case_self_test_of_a_quiet_table_passes():
    report = self_test(ready())
    assert report == {"ok": "1", "stuck": "-", "chatter": "-", "lines": "0"}


def case_self_test_of_an_empty_table_finds_reeds_closed_without_a_man():
    rig = ready()
    rig.matrix.closed = {rig.reed("20", 4)}
    report = self_test(rig, b"empty")
    assert report["ok"] == "0" and report["closed"] == "20/5"
    assert self_test(ready(), b"empty")["closed"] == "-"


def case_self_test_of_an_empty_table_sensing_colour_finds_a_black_reed_closed():
    rig = ready(layout=Layout(sensing="polarity"))
    rig.matrix.closed = {rig.reed("20", 4, True)}  # a black reed alone
    report = self_test(rig, b"empty")
    assert report["ok"] == "0" and report["closed"] == "20/5"


def full_table_dead_reeds(layout):
    """What ``t full`` reports of a table with a man on every slot but 7/3."""
    rig = ready(layout=layout)
    dead = rig.reed("7", 2)
    every = set()
    for index in range(layout.total_slots):
        every.add(layout.reed_switch(index, index % 2 == 1))  # colours alternate
    rig.matrix.closed = every - {dead}
    rig.scan(3)
    report = self_test(rig, b"full")
    return report["ok"], report["dead"]


def case_self_test_of_a_full_table_finds_dead_reeds():
    assert full_table_dead_reeds(Layout()) == ("0", "7/3")


def case_self_test_of_a_full_table_sensing_colour_finds_dead_reeds():
    assert full_table_dead_reeds(Layout(sensing="polarity")) == ("0", "7/3")


def case_self_test_of_an_empty_table_names_each_well_cell_on():
    rig = ready()
    rig.matrix.cells = [0, 1 << 4]  # the jig over die2's corner 3
    report = self_test(rig, b"empty")
    assert report["ok"] == "0" and report["closed"] == "die2/3"
    rig.matrix.cells = [1 << dice.CENTRE, 0]
    rig.matrix.closed = {rig.reed("9", 0)}
    assert self_test(rig, b"empty")["closed"] == "9/1,die1/m"


def case_self_test_refuses_an_unknown_mode():
    rig = ready()
    rig.firmware.feed(protocol.encode("t", 0, b"half"))
    ((kind, _, payload),) = rig.take()
    assert (kind, payload) == ("E", b"selftest=half")


# -- the outbox ----------------------------------------------------------------------------


def case_outbox_drops_whole_messages_when_full():
    box = Outbox(limit=100, chunk=16)
    assert box.write(b"a" * 60) and not box.write(b"b" * 60) and box.write(b"c" * 40)
    assert len(box) == 100 and box.dropped == 1


def case_outbox_writes_pieces_only_when_the_line_has_room():
    box = Outbox(limit=100, chunk=40, piece=16)
    box.write(b"0123456789" * 5)
    line = []
    assert box.pump(lambda: False, line.append) == 0
    room = [2]

    def writable():
        return room[0] > 0

    def sink(data):
        room[0] -= 1
        line.append(bytes(data))

    assert box.pump(writable, sink) == 32  # room twice: two pieces
    assert line == [b"0123456789012345", b"6789012345678901"]
    room[0] = 100
    assert box.pump(writable, sink) == 18  # the rest: a piece and two bytes
    assert line[2:] == [b"2345678901234567", b"89"] and len(box) == 0 and box.stalls == 0


def case_outbox_keeps_a_chunk_a_loop():
    box = Outbox(limit=200, chunk=40, piece=16)
    box.write(b"x" * 100)
    sizes = []
    assert box.pump(lambda: True, lambda data: sizes.append(len(data))) == 40
    assert sizes == [16, 16, 8] and len(box) == 60


def case_outbox_takes_what_the_line_took():
    box = Outbox(limit=100, chunk=64, piece=16)
    box.write(b"abcdefghij")
    line = bytearray()

    def sink(data):
        if len(line) >= 9:
            return 0  # the line is full: the pump stops
        line.extend(data[:3])
        return 3

    assert box.pump(lambda: True, sink) == 9  # three bytes a write were taken
    assert line == b"abcdefghi" and len(box) == 1


class _Ticks:
    """A microsecond clock that a write moves on by ``cost`` (a USB write that waits)."""

    def __init__(self):
        self.us = 0

    def ticks_us(self):
        return self.us

    def ticks_diff(self, a, b):
        return a - b


def case_outbox_after_a_write_that_waited_hands_on_a_byte_a_loop():
    box = Outbox(limit=200, chunk=200, piece=8)
    box.write(b"a" * 8 + b"b" * 40)
    ticks = _Ticks()
    sizes = []

    def line(data):
        sizes.append(len(data))
        ticks.us += 1500 if len(sizes) == 1 else 10  # the first piece waited 1.5 ms

    assert box.pump(lambda: True, line, ticks, 1000) == 9  # the piece, then one byte
    assert box.stalls == 1 and sizes == [8, 1]
    for _ in range(7):
        assert box.pump(lambda: True, line, ticks, 1000) == 1  # one byte a loop
    assert box.pump(lambda: True, line, ticks, 1000) == 32  # a piece's worth went: pieces
    assert sizes[2:] == [1] * 7 + [8] * 4


# -- sensing -------------------------------------------------------------------------------


def case_occupancy_is_the_default_sensing_and_polarity_is_on_request():
    rig = Rig()
    rig.firmware.start()
    ((_, _, payload),) = rig.take()
    assert fields(payload)["sense"] == "occupancy"
    assert rig.layout.switches == rig.layout.total_slots
    rig = Rig(layout=Layout(sensing="polarity"))
    rig.firmware.start()
    ((_, _, payload),) = rig.take()
    assert fields(payload)["sense"] == "polarity"
    assert rig.layout.switches == 2 * rig.layout.total_slots
    try:
        Layout(sensing="colour")
    except ValueError:
        pass
    else:
        raise AssertionError("a sensing other than polarity or occupancy was accepted")


def case_occupancy_sensing_has_one_reed_per_slot():
    layout = Layout(sensing="occupancy")
    assert layout.switches == layout.total_slots
    assert layout.reed_switch(5, True) == layout.reed_switch(5, False) == 5
    rig = Rig(layout=layout)
    rig.firmware.start()
    ((_, _, payload),) = rig.take()
    assert fields(payload)["sense"] == "occupancy"
    rig.matrix.closed = {rig.reed("6", 0), rig.reed("6", 1)}
    rig.matrix.cells = [dice.cells(1, 0), 0]
    (frame,) = frames(rig.scan(3))
    groups = frame.split(b" ")
    assert groups[5] == b"OO...." and groups[-1] == b"6."


def case_polarity_sensing_reads_each_colour():
    layout = Layout(sensing="polarity")
    assert layout.switches == 2 * layout.total_slots
    assert (layout.reed_switch(5, False), layout.reed_switch(5, True)) == (10, 11)
    rig = Rig(layout=layout)
    rig.matrix.closed = {rig.reed("6", 0), rig.reed("6", 1, True), rig.reed("13", 0, True)}
    (frame,) = frames(rig.scan(3))
    groups = frame.split(b" ")
    assert groups[5] == b"WB...." and groups[12] == b"B....." and groups[-1] == b".."


# Live heap of the firmware of a full table (every slot and both wells busy, a self-test
# running): under MicroPython the gc's count after a collection, under CPython the peak
# of what tracemalloc saw allocated (CPython's objects are larger).
HEAP_BUDGET = {"micropython": 64 * 1024, "cpython": 512 * 1024}
# MicroPython's WebAssembly port frees little within one call, so there the count is of
# everything allocated (an upper bound of what is live) over fewer scans.
BUSY_SCANS = {"micropython": 30, "cpython": 300}


def _busy(rig, scans):
    every = set()
    for index in range(rig.layout.total_slots):
        every.add(rig.layout.reed_switch(index, False))
    for n in range(scans):
        rig.matrix.closed = every if n % 40 < 20 else set()
        rig.matrix.cells = [dice.cells(1 + n % 6, n % 4), dice.cells(6 - n % 6, 0)]
        if n % 50 == 0:
            rig.firmware.feed(protocol.encode("t", n, b"empty") + protocol.encode("h", n, b""))
        yield rig.scan()


def case_peak_heap_within_budget():
    rig = Rig()
    runtime = sys.implementation.name
    if runtime == "micropython":
        import gc

        del rig
        gc.collect()
        start = gc.mem_alloc()
        rig = Rig()
        peak = 0
        for _ in _busy(rig, BUSY_SCANS[runtime]):
            peak = max(peak, gc.mem_alloc() - start)
    else:
        import tracemalloc

        tracemalloc.start()
        for _ in _busy(rig, BUSY_SCANS[runtime]):
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak <= HEAP_BUDGET[runtime], (runtime, peak)
