"""The Raspberry Pi Pico hardware layer: pins, watchdog and USB serial around bgtable.

Only this module imports MicroPython's ``machine``; everything it drives lives in the
``bgtable`` package, which the kiosk also runs under CPython. Pin numbers follow
``hardware/README.md``.
"""

import gc
import select
import sys
import time

import machine
import micropython
from bgtable.core import TableFirmware
from bgtable.layout import Layout
from bgtable.outbox import Outbox

if sys.platform == "rp2":
    import fast  # the scan, the wells and the checksum in native code, on the Pico
else:
    fast = None  # the vectors, under CPython and MicroPython's WebAssembly port

SCAN_HZ = 250
DEBOUNCE_SCANS = 3
WATCHDOG_MS = 2000
ROWS = 24  # three 74HC595 in a chain, Q0 of the first is row 0 (a layout scans its own)
COLUMNS = 16  # GP6..GP21, pulled up, low = closed
PIN_SER = 2
PIN_SRCLK = 3
PIN_RCLK = 4
PIN_FIRST_COLUMN = 6
PIN_MAINTENANCE = 22  # jumper to GND: do not start, leave the REPL to mpremote
PIN_LED = 25
# The dice wells' Hall switches, through three 74HC165 in a chain (hardware/WIRING.md): the
# first holds well 1's ring, the second well 2's, the third both centres (its H and G).
PIN_WELL_LOAD = 26  # SH/LD (pin 1) of both: low loads the inputs
PIN_WELL_CLOCK = 27  # CLK (pin 2) of both
PIN_WELL_DATA = 28  # QH (pin 9) of the first; the second's QH feeds the first's SER
WELL_BITS = 24
RING_MASK = 0xFF  # a well's eight ring cells, on inputs H-A of its 74HC165
# A write to the USB line is a piece of up to 64 bytes, made only when the line has room;
# one that still took this long is counted as a stall (heartbeat ``stall=``) and single
# bytes, which never wait, follow it for a while (bgtable/outbox.py).
STALL_US = 1000
SENSING = "occupancy"  # one reed per slot, the design in hardware/README.md
SIO_GPIO_IN = 0xD0000004  # RP2040 SIO register holding every GPIO input level
COLUMN_MASK = (1 << COLUMNS) - 1
# A column released by an opening reed rises through its ~50 kohm pull-up into the
# strip's wiring (about 100 pF per metre): tau ~ 5-10 us. Read three tau after the row
# changes; 24 rows cost 0.5 ms of the 4 ms scan period.
SETTLE_US = 20
# Watchdog scratch register 0 survives a watchdog reset (the SDK uses 4-7). The firmware
# writes RUNNING when it starts its watchdog and DELIBERATE just before ``reset()``, so a
# deliberate reset, which the RP2040 also performs through the watchdog, is told apart.
WATCHDOG_SCRATCH0 = 0x4005800C
RUNNING = 0x42475431  # "BGT1"
DELIBERATE = 0x42475244  # "BGRD"


class DiodeMatrix:
    """The switch matrix: rows selected by walking a low bit through the 74HC595 chain.

    Only the first ``rows`` rows are scanned: those the layout's switches are on (12 of the
    24 for the table as designed, one reed a slot).
    """

    columns = COLUMNS

    def __init__(self, rows=ROWS):
        self.rows = rows
        self._ser = machine.Pin(PIN_SER, machine.Pin.OUT, value=1)
        self._clk = machine.Pin(PIN_SRCLK, machine.Pin.OUT, value=0)
        self._latch = machine.Pin(PIN_RCLK, machine.Pin.OUT, value=0)
        for pin in range(PIN_FIRST_COLUMN, PIN_FIRST_COLUMN + COLUMNS):
            machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self._load = machine.Pin(PIN_WELL_LOAD, machine.Pin.OUT, value=1)
        self._well_clock = machine.Pin(PIN_WELL_CLOCK, machine.Pin.OUT, value=0)
        self._well_data = machine.Pin(PIN_WELL_DATA, machine.Pin.IN)
        self._rows = [0] * rows
        self._cells = [0, 0]
        if fast:
            self._settings = fast.scan_settings(
                rows, PIN_SER, PIN_SRCLK, PIN_RCLK, PIN_FIRST_COLUMN, COLUMN_MASK, SETTLE_US
            )
        self._deselect()

    def _shift(self, bit):
        self._ser.value(bit)
        self._clk.value(1)
        self._clk.value(0)
        self._latch.value(1)
        self._latch.value(0)

    def _deselect(self):
        for _ in range(ROWS):
            self._shift(1)

    def _columns(self):
        return ~(machine.mem32[SIO_GPIO_IN] >> PIN_FIRST_COLUMN) & COLUMN_MASK

    def scan(self):
        """One column bitmask per row, bit set = switch closed."""
        rows = self._rows
        if fast:
            fast.scan_rows(rows, self._settings)
            return rows
        settle = time.sleep_us
        self._shift(0)
        for row in range(self.rows):
            if row:
                self._shift(1)
            settle(SETTLE_US)
            rows[row] = self._columns()
        self._shift(1)
        return rows

    def idle(self):
        """Columns that read closed while no row is selected: a shorted or stuck line."""
        self._deselect()
        time.sleep_us(SETTLE_US)
        return self._columns()

    def wells(self):
        """Each dice well's cell mask, bit set = Hall switch on (its output pulls low)."""
        if fast:
            bits = fast.shift_in(PIN_WELL_LOAD, PIN_WELL_CLOCK, PIN_WELL_DATA, WELL_BITS)
        else:
            self._load.value(0)
            self._load.value(1)
            bits = 0
            data = self._well_data
            clock = self._well_clock
            for bit in range(WELL_BITS):
                bits |= (data.value() ^ 1) << bit
                clock.value(1)
                clock.value(0)
        cells = self._cells
        cells[0] = (bits & RING_MASK) | ((bits >> 16) & 1) << 8
        cells[1] = ((bits >> 8) & RING_MASK) | ((bits >> 17) & 1) << 8
        return cells


def chip():
    """The microcontroller this MicroPython was built for: ``RP2040``, ``RP2350`` or its name."""
    name = getattr(sys.implementation, "_machine", "")
    for known in ("RP2040", "RP2350"):
        if known in name:
            return known
    return name or "unknown"


def reset_cause():
    """Why the Pico last started: ``power``, ``wdt`` (a hung firmware) or ``reset``.

    The RP2040's ``machine.reset()`` goes through the watchdog too; the scratch register
    says whether the firmware's own watchdog fired or a reset was asked for.
    """
    marker = machine.mem32[WATCHDOG_SCRATCH0]
    machine.mem32[WATCHDOG_SCRATCH0] = 0
    if machine.reset_cause() != machine.WDT_RESET:
        return "power"
    return "wdt" if marker == RUNNING else "reset"


def reset():
    """Restart the Pico on purpose; the next identify says ``reset=reset``."""
    machine.mem32[WATCHDOG_SCRATCH0] = DELIBERATE
    machine.reset()


def run(stdin=None, stdout=None, poll=None, chip_name=None):
    """Start the firmware unless the maintenance jumper is fitted; never returns.

    ``stdin``/``stdout`` (the USB serial streams), ``poll`` (``select.poll``) and
    ``chip_name`` are parameters only so that a test can run this loop against fakes.
    The firmware reads the RP2040's registers directly (its SIO input register, the
    watchdog's scratch register): on any other chip it does not start, and says so.
    """
    found = chip_name or chip()
    if found != "RP2040":
        print("backgammon table: this firmware is for the RP2040 (a Raspberry Pi Pico);")
        print("this board is", found, "- its registers differ: firmware not started")
        return
    cause = reset_cause()
    if machine.Pin(PIN_MAINTENANCE, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        print("backgammon table: maintenance jumper fitted, firmware not started")
        return
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    machine.mem32[WATCHDOG_SCRATCH0] = RUNNING
    led = machine.Pin(PIN_LED, machine.Pin.OUT, value=1)
    micropython.kbd_intr(-1)  # a 0x03 in line noise must not stop the firmware
    board_id = "".join([f"{b:02x}" for b in machine.unique_id()])
    out = stdout or sys.stdout.buffer
    stdin = stdin or sys.stdin.buffer
    poll = poll or select.poll
    reading = poll()
    reading.register(stdin, select.POLLIN)
    writing = poll()
    writing.register(out, select.POLLOUT)
    outbox = Outbox()
    layout = Layout(sensing=SENSING)
    firmware = TableFirmware(
        DiodeMatrix(rows=-(-layout.switches // COLUMNS)),
        time,
        outbox.write,
        layout=layout,
        debounce_scans=DEBOUNCE_SCANS,
        scan_hz=SCAN_HZ,
        reset_cause=cause,
        board_id=board_id,
        heap_free=getattr(gc, "mem_free", None),  # MicroPython's; CPython has none
        crc16=fast.crc16 if fast else None,
    )
    firmware.start()

    def ready(poller):
        # ipoll allocates nothing, unlike poll: the loop runs 250 times a second
        for _ in poller.ipoll(0):
            return True
        return False

    def can_write():
        return ready(writing)

    # A write to a host that stopped reading part-way can wait up to a second inside
    # MicroPython's USB code, which runs scheduled callbacks while it waits: this timer's
    # callback keeps the scan going then, and does nothing otherwise.
    blocked = [False]

    def scan_while_blocked(_timer):
        if blocked[0]:
            firmware.step()
            watchdog.feed()

    def line(data):
        blocked[0] = True
        try:
            return out.write(data)
        finally:
            blocked[0] = False

    machine.Timer(period=1000 // SCAN_HZ, callback=scan_while_blocked)
    period_us = 1000000 // SCAN_HZ
    deadline = time.ticks_add(time.ticks_us(), period_us)
    while True:
        firmware.step()
        received = 0
        while received < 64 and ready(reading):
            firmware.feed(stdin.read(1))
            received += 1
        outbox.pump(can_write, line, time, STALL_US)
        firmware.tx_stalls = outbox.stalls
        watchdog.feed()
        led.value((firmware.scans >> 7) & 1)
        wait = time.ticks_diff(deadline, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
            deadline = time.ticks_add(deadline, period_us)
        else:
            firmware.overruns += 1
            deadline = time.ticks_add(time.ticks_us(), period_us)
