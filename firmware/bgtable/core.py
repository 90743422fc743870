"""The table's firmware logic: scan, debounce, report and answer the host.

``TableFirmware`` owns no hardware. It takes a matrix reader (``rows``, ``columns``,
``scan()`` returning one column bitmask per row with bit set = switch closed, ``idle()``
returning the columns that read closed with no row selected, and ``wells()`` returning
each dice well's cell mask, bit set = Hall switch on), a clock with
``ticks_ms()`` and ``ticks_diff(a, b)`` (MicroPython's ``time`` module is one) and a
``write(bytes)`` function for the serial line that returns ``False`` when it had to drop
the message (the host is not reading); the drops are counted and reported.

A scan that changes nothing allocates nothing, and the frame's payload is kept up to date
as slots settle rather than built for each frame: on the Pico every interpreted line
costs about 10 µs of the 4 ms scan period.
"""

import sys

from bgtable import dice, protocol
from bgtable.layout import WELLS, Layout

FIRMWARE_VERSION = "1.2.0"
FAULT = 3  # both reeds of one slot closed: not a state a checker can cause
OCCUPIED = 4  # the reed of an occupancy-sensing slot is closed: a man of either colour
_SLOT_CHARS = b".WB?O"  # by slot value; FAULT is never sent
_DIE_CHARS = b".123456C"
RUNTIME = sys.implementation.name  # "micropython" on the Pico, "cpython" in the simulator
SELF_TEST_MODES = (b"", b"empty", b"full")


class TableFirmware:
    """Scans the switch matrix, debounces every slot and dice well, and speaks the protocol."""

    def __init__(
        self,
        matrix,
        clock,
        write,
        layout=None,
        debounce_scans=3,
        heartbeat_ms=500,
        scan_hz=200,
        selftest_scans=100,
        chatter_toggles=4,
        reset_cause="power",
        board_id="",
        heap_free=None,
        crc16=None,
    ):
        self.layout = layout or Layout()
        if matrix.rows * matrix.columns < self.layout.switches:
            raise ValueError("the matrix has fewer switches than the layout needs")
        self.debounce_scans = max(1, debounce_scans)
        self.heartbeat_ms = heartbeat_ms
        self.scan_hz = scan_hz
        self.selftest_scans = selftest_scans
        self.chatter_toggles = chatter_toggles
        self.reset_cause = reset_cause
        self.board_id = board_id
        self._heap_free = heap_free  # () -> free heap bytes, for the heartbeat's ``free=``
        self._crc16 = crc16 or protocol.crc16
        self._matrix = matrix
        self._clock = clock
        self._write = write
        self._width = matrix.columns
        slots = self.layout.total_slots
        self._slots = slots
        self._units = slots + WELLS
        unit_of = []
        for index in range(slots):
            unit_of.extend([index] * self.layout.reeds_per_slot)
        self._unit_of = unit_of
        self._raw = [0] * matrix.rows
        self._wells = [0] * WELLS
        self._touched = set()
        self._stable = bytearray(self._units)
        # the frame's payload as it stands, and where each unit's character is in it
        self._payload = bytearray()
        self._where = []
        for count in self.layout.slots:
            for _ in range(count):
                self._where.append(len(self._payload))
                self._payload.append(_SLOT_CHARS[0])
            self._payload.append(0x20)
        for _ in range(WELLS):
            self._where.append(len(self._payload))
            self._payload.append(_DIE_CHARS[0])
        self._pending = {}
        self._faults = set()
        self._toggles = None
        self._test_left = 0
        self._commands = protocol.CommandReader()
        self._seq = 0
        now = clock.ticks_ms()
        self._last_tick = now
        self._last_heartbeat = now
        self.uptime_ms = 0
        self.scans = 0
        self.bounces = 0
        self.faults = 0
        self.overruns = 0
        self.tx_bytes = 0
        self.tx_dropped = 0
        self.tx_stalls = 0  # writes to the USB line that took long (the board counts them)
        self._test_mode = b""

    # -- the scan loop -------------------------------------------------------------------

    def start(self):
        """Announce the firmware after a reset."""
        self.send_identify()

    def step(self):
        """One scan of the matrix: debounce, then send a frame if anything settled."""
        clock = self._clock
        now = clock.ticks_ms()
        self.uptime_ms += max(0, clock.ticks_diff(now, self._last_tick))
        self._last_tick = now
        self.scans += 1
        touched = self._read_changes()
        changed = self._debounce(touched)
        if self.scans == self.debounce_scans:
            changed = True  # the first settled picture after a reset
        if changed:
            self.send_frame()
        if self._toggles is not None:
            for unit in touched:
                if self._toggles[unit] < 255:
                    self._toggles[unit] += 1
            self._test_left -= 1
            if self._test_left <= 0:
                self._finish_self_test()
        if clock.ticks_diff(now, self._last_heartbeat) >= self.heartbeat_ms:
            self.send_heartbeat()

    def _read_changes(self):
        rows = self._matrix.scan()
        raw = self._raw
        touched = self._touched
        touched.clear()
        if rows != raw:  # one comparison in C when nothing moved, the usual scan
            unit_of = self._unit_of
            last = len(unit_of)
            width = self._width
            for row in range(len(raw)):
                diff = rows[row] ^ raw[row]
                if diff:
                    raw[row] = rows[row]
                    switch = row * width
                    while diff:
                        if diff & 1 and switch < last:
                            touched.add(unit_of[switch])
                        diff >>= 1
                        switch += 1
        wells = self._matrix.wells()
        if wells != self._wells:
            for well in range(WELLS):
                if wells[well] != self._wells[well]:
                    self._wells[well] = wells[well]
                    touched.add(self._slots + well)
        return touched

    def _debounce(self, touched):
        pending = self._pending
        stable = self._stable
        slots = self._slots
        for unit in touched:
            value = self._unit_value(unit)
            if value == FAULT and unit < slots:
                if unit not in self._faults:
                    self._faults.add(unit)
                    self.faults += 1
                if unit in pending:
                    del pending[unit]
                continue
            self._faults.discard(unit)
            if value == stable[unit]:
                if unit in pending:
                    del pending[unit]
                    self.bounces += 1
            elif unit not in pending:
                pending[unit] = [value, 0]
            elif pending[unit][0] != value:
                pending[unit] = [value, 0]
                self.bounces += 1
        changed = False
        for unit in list(pending):
            entry = pending[unit]
            entry[1] += 1
            if entry[1] >= self.debounce_scans:
                self._settle(unit, entry[0])
                del pending[unit]
                changed = True
        return changed

    def _settle(self, unit, value):
        self._stable[unit] = value
        chars = _SLOT_CHARS if unit < self._slots else _DIE_CHARS
        self._payload[self._where[unit]] = chars[value]

    def _bit(self, switch):
        return (self._raw[switch // self._width] >> (switch % self._width)) & 1

    def _unit_value(self, unit):
        if unit < self._slots:
            if self.layout.reeds_per_slot == 1:
                return OCCUPIED if self._bit(unit) else 0
            white = self._bit(2 * unit)
            black = self._bit(2 * unit + 1)
            return white | (black << 1)
        return dice.read_well(self._wells[unit - self._slots])

    # -- host commands -------------------------------------------------------------------

    @property
    def rx_errors(self):
        """Host bytes that did not form a valid command."""
        return self._commands.errors

    def feed(self, data):
        """Handle bytes received from the host."""
        for kind, _seq, payload in self._commands.feed(data):
            if kind == "i":
                self.send_identify()
            elif kind == "d":
                if self.scans >= self.debounce_scans:
                    self.send_frame()  # before that, the first settled picture answers
            elif kind == "t":
                if payload not in SELF_TEST_MODES:
                    self._send("E", b"selftest=" + payload)
                    continue
                self._toggles = bytearray(self._units)
                self._test_left = self.selftest_scans
                self._test_mode = payload
            elif kind == "h":
                self.send_heartbeat(asked=True)
            else:
                self._send("E", b"unknown=" + kind.encode())

    # -- messages ------------------------------------------------------------------------

    def _send(self, kind, payload):
        data = protocol.encode(kind, self._seq, payload, self._crc16)
        self._seq = (self._seq + 1) & 0xFFFF
        if self._write(data) is False:
            self.tx_dropped += 1  # the host sees a gap in the sequence and asks for a dump
        else:
            self.tx_bytes += len(data)

    def send_identify(self):
        """``I``: firmware and protocol version, layout, scan settings and interpreter."""
        self._send(
            "I",
            (
                "fw={} proto={} layout={} sense={} scan={} debounce={} reset={} id={} rt={}".format(
                    FIRMWARE_VERSION,
                    protocol.PROTOCOL_VERSION,
                    self.layout.wire(),
                    self.layout.sensing,
                    self.scan_hz,
                    self.debounce_scans,
                    self.reset_cause,
                    self.board_id or "-",
                    RUNTIME,
                )
            ).encode(),
        )

    def frame_payload(self):
        """The settled picture: every location's slots, then the two dice wells."""
        return bytes(self._payload)

    def send_frame(self):
        """``F``: the full settled picture."""
        self._send("F", self.frame_payload())

    def send_heartbeat(self, asked=False):
        """``H``: uptime and error counters; when the host ``asked``, the free heap too
        (``free=``, if the board gives it: MicroPython counts it by walking the heap,
        about 7 ms on the Pico, too long for every heartbeat)."""
        self._last_heartbeat = self._clock.ticks_ms()
        text = (
            f"up={self.uptime_ms} scans={self.scans} bounce={self.bounces} "
            f"fault={self.faults} rxerr={self.rx_errors} overrun={self.overruns} "
            f"txdrop={self.tx_dropped} stall={self.tx_stalls}"
        )
        if asked and self._heap_free is not None:
            text += f" free={self._heap_free()}"
        self._send("H", text.encode())

    def _unit_name(self, unit):
        if unit < self._slots:
            return self.layout.slot_name(unit)
        return f"die{unit - self._slots + 1}"

    def _names(self, units):
        return ",".join([self._unit_name(u) for u in units]) or "-"

    def _cells_on(self):
        """``dieN/cell`` for every dice-well Hall switch that is on."""
        found = []
        for well in range(WELLS):
            for cell in range(dice.CELLS):
                if self._wells[well] >> cell & 1:
                    found.append(f"die{well + 1}/{dice.NAMES[cell]}")
        return found

    def _finish_self_test(self):
        toggles = self._toggles
        self._toggles = None
        chatter = [u for u in range(self._units) if toggles[u] >= self.chatter_toggles]
        stuck = sorted(self._faults)
        lines = self._matrix.idle()
        text = "ok={} stuck={} chatter={} lines={:X}"
        found = []
        if self._test_mode == b"empty":
            # The installer cleared the table: any slot that reads is a reed that closes
            # without a man (welded, or a stray magnet); any well cell that is on, a Hall
            # switch that answers nothing there (or a magnet: the well jig on its cell).
            found = [u for u in range(self._slots) if self._unit_value(u)]
            cells = self._cells_on()
            names = [self._unit_name(u) for u in found] + cells
            found += cells
            text += " closed=" + (",".join(names) or "-")
        elif self._test_mode == b"full":
            # A man on every slot: a slot that reads empty has a dead reed (or a man off
            # centre). Wells are not checked: a die cannot lie in both at once here.
            found = [u for u in range(self._slots) if not self._unit_value(u)]
            text += " dead=" + self._names(found)
        ok = not chatter and not stuck and not lines and not found
        self._send(
            "T",
            text.format(1 if ok else 0, self._names(stuck), self._names(chatter), lines).encode(),
        )
