"""Vectors for ``firmware/board.py`` against the fake ``machine`` in ``fakes/``.

Run unchanged under CPython and MicroPython (see ``cases.py``): the row walk through the
74HC595 chain, the settling delay, the reset cause, and the loop answering an identify
and never waiting for a host that does not read.
"""

import sys

import board
import machine
from bgtable import protocol

IDENTIFY = b"$i0000 *DDBF\r\n"
DUMP = b"$d0000 *93FC\r\n"
HEARTBEAT = b"$h0000 *981F\r\n"


class Stream:
    """One direction of the USB serial line; ``after`` feeds must pass before it is ready."""

    def __init__(self, data=b"", after=0, later=b"", later_after=0):
        self.data = bytearray(data)
        self.after = after
        self.later = later
        self.later_after = later_after
        self.written = bytearray()

    def ready(self):
        if self.later and machine.state["feeds"] >= self.later_after:
            self.data.extend(self.later)
            self.later = b""
        return machine.state["feeds"] >= self.after

    def read(self, count):
        taken = bytes(self.data[:count])
        self.data = self.data[count:]
        return taken

    def write(self, data):
        self.written.extend(data)
        return len(data)


class SlowLine(Stream):
    """A line whose writes wait: each takes ``cost_us`` of the board's virtual time, during
    which the board's timers fire once a period, as MicroPython runs them while it waits."""

    def __init__(self, cost_us):
        Stream.__init__(self)
        self.cost_us = cost_us
        self.writes = 0

    def write(self, data):
        wait(self.cost_us)
        self.writes += 1
        return Stream.write(self, data)


def wait(us):
    """``us`` of the board's virtual time inside a write: its timers fire meanwhile."""
    waited = 0
    for timer in machine.timers:
        while waited + timer.period * 1000 <= us:
            waited += timer.period * 1000
            board.time.us += timer.period * 1000
            timer.fire()
    board.time.us += us - waited


class QuietLine(Stream):
    """A host that stops reading for ``cost_us`` at the first heartbeat, then reads again."""

    def __init__(self, cost_us):
        Stream.__init__(self)
        self.cost_us = cost_us

    def write(self, data):
        if b"$H" in bytes(data):
            wait(self.cost_us)
            self.cost_us = 0
        return Stream.write(self, data)


class Poll:
    """``select.poll`` over ``Stream`` objects (its ``ipoll``, which the board uses)."""

    def __init__(self):
        self.streams = []
        self._one = (None,)

    def register(self, stream, mask):
        self.streams.append((stream, mask))

    def ipoll(self, timeout):
        # like MicroPython's, allocates nothing: a reused tuple, or an empty one
        for stream, mask in self.streams:
            if stream.ready() and (stream.data or mask != 1):
                return self._one
        return ()


class VirtualTime:
    """MicroPython's ``time`` on a virtual clock: sleeping only moves the clock on."""

    def __init__(self):
        self.us = 0

    def ticks_us(self):
        return self.us

    def ticks_ms(self):
        return self.us // 1000

    def ticks_add(self, ticks, delta):
        return ticks + delta

    def ticks_diff(self, a, b):
        return a - b

    def sleep_us(self, us):
        self.us += us


# The board's loop and scans run on virtual time: fast, and the same under CPython
# (whose ``time`` has no ``sleep_us``) and MicroPython.
board.time = VirtualTime()


def run(stdin, stdout, feeds, chip_name="RP2040"):
    machine.state["feeds_left"] = feeds
    try:
        board.run(stdin, stdout, Poll, chip_name)
    except machine.Halt:
        pass
    return messages(bytes(stdout.written))


def messages(data):
    found = []
    for line in data.split(b"\n"):
        if line.startswith(b"$") and line.endswith(b"\r"):  # the loop may stop mid-line
            found.append(protocol.parse_line(line[1:]))
    return found


def fields(payload):
    result = {}
    for word in payload.split():
        key, _, value = word.partition(b"=")
        result[key.decode()] = value.decode()
    return result


def case_each_row_reads_only_its_own_switches():
    machine.fresh()
    matrix = board.DiodeMatrix()
    machine.chip.closed = {(0, 0), (5, 15), (23, 7), (23, 8)}
    rows = matrix.scan()
    assert rows[0] == 1 and rows[5] == 1 << 15 and rows[23] == 0b11 << 7
    assert len([r for r in rows if r]) == 3
    assert matrix.idle() == 0


def case_a_stuck_column_shows_with_no_row_selected():
    machine.fresh()
    matrix = board.DiodeMatrix()
    machine.chip.stuck_columns = 1 << 3
    assert matrix.idle() == 1 << 3


class _Recorder:
    """``time`` for the scan: records the settling delays between row changes and reads."""

    def sleep_us(self, us):
        machine.chip.log.append(us)


def case_the_columns_settle_after_each_row_change():
    machine.fresh()
    matrix = board.DiodeMatrix()
    real = board.time
    board.time = _Recorder()
    try:
        machine.chip.log = []
        matrix.scan()
    finally:
        board.time = real
    log = machine.chip.log
    reads = [i for i, what in enumerate(log) if what == "read"]
    assert len(reads) == board.ROWS
    for i in reads:
        last_latch = max([j for j in range(i) if log[j] == "latch"])
        waited = sum([w for w in log[last_latch:i] if not isinstance(w, str)])
        assert waited >= board.SETTLE_US, (i, log[last_latch:i])


def case_the_reset_cause_tells_a_hung_firmware_from_a_deliberate_reset():
    machine.fresh(machine.PWRON_RESET)
    assert board.reset_cause() == "power"
    machine.fresh(machine.WDT_RESET, scratch=board.RUNNING)
    assert board.reset_cause() == "wdt"
    machine.fresh(machine.WDT_RESET, scratch=0)
    try:
        board.reset()
    except machine.Reset:
        pass
    assert machine.state["resets"] == 1
    assert machine.mem32[board.WATCHDOG_SCRATCH0] == board.DELIBERATE
    machine.state["cause"] = machine.WDT_RESET  # the RP2040 resets through the watchdog
    assert board.reset_cause() == "reset"


def case_the_board_answers_an_identify():
    machine.fresh()
    found = run(Stream(IDENTIFY, after=3), Stream(), feeds=20)
    identifies = [fields(p) for k, _, p in found if k == "I"]
    assert len(identifies) == 2, found  # at start, and the answer
    answer = identifies[-1]
    assert answer["rt"] == sys.implementation.name and answer["reset"] == "power"
    assert answer["id"] == "e6613852832b4a2f"
    assert answer["proto"] == str(protocol.PROTOCOL_VERSION)
    assert answer["sense"] == board.SENSING == "occupancy"  # the board as designed
    assert [k for k, _, _ in found].count("F") == 1  # the first settled picture


def case_a_host_that_does_not_read_never_stalls_the_loop():
    machine.fresh()
    # Twelve dumps (2.7 KB of frames) asked at once while the host reads nothing for 20
    # loops: the 2 KB outbox keeps what fits and drops the rest; a heartbeat reports it.
    stdin = Stream(DUMP * 12, after=3, later=HEARTBEAT, later_after=30)
    stdout = Stream(after=20)
    found = run(stdin, stdout, feeds=100)
    assert machine.state["feeds"] == 100  # every loop ran and fed the watchdog
    kinds = [k for k, _, _ in found]
    assert 0 < kinds.count("F") < 12, kinds
    beat = [fields(p) for k, _, p in found if k == "H"][-1]
    assert int(beat["txdrop"]) > 0, (beat, kinds)


def case_the_wells_are_read_through_the_shift_registers():
    machine.fresh()
    matrix = board.DiodeMatrix()
    assert matrix.wells() == [0, 0]
    machine.chip.hall = {(0, 0), (0, 3), (1, 4), (1, 8)}
    assert matrix.wells() == [0b000001001, 0b100010000]


def case_a_die_in_a_well_reaches_the_frame():
    machine.fresh()
    # the centre and ring cells 0-3 (corner 1, edge a, corner 2, edge b): face 1 down, 6 up
    machine.chip.hall = {(0, cell) for cell in (0, 1, 2, 3, 8)}
    found = run(Stream(DUMP, after=5), Stream(), feeds=20)
    frames = [p for k, _, p in found if k == "F"]
    assert frames and frames[-1].split(b" ")[-1] == b"6.", frames


def case_the_scan_goes_on_while_a_write_waits():
    machine.fresh()
    line = QuietLine(cost_us=800000)  # the host goes quiet for 0.8 s as a heartbeat leaves
    found = run(Stream(HEARTBEAT, after=3), line, feeds=400)
    beats = [fields(p) for k, _, p in found if k == "H"]
    assert len(beats) >= 2 and int(beats[-1]["stall"]) >= 1, found
    up = int(beats[-1]["up"]) - int(beats[0]["up"])
    scans = int(beats[-1]["scans"]) - int(beats[0]["scans"])
    assert up >= 800 and scans >= up * board.SCAN_HZ // 1000 * 9 // 10, (up, scans)


def case_only_an_rp2040_starts_the_firmware():
    machine.fresh()
    found = run(Stream(IDENTIFY), Stream(), feeds=20, chip_name="RP2350")
    assert found == [] and machine.state["feeds"] == 0  # no watchdog, nothing sent
    assert board.chip() != "RP2040" or sys.implementation.name == "micropython"


def case_writes_are_pieces_and_a_slow_one_is_counted():
    machine.fresh()
    line = SlowLine(cost_us=board.STALL_US + 500)
    found = run(Stream(HEARTBEAT, after=60), line, feeds=80)
    assert line.writes < len(line.written)  # the first write is a piece; single bytes follow
    beat = [fields(p) for k, _, p in found if k == "H"][-1]
    assert int(beat["stall"]) > 0, beat
