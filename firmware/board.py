"""The Raspberry Pi Pico hardware layer: pins, watchdog and USB serial around bgtable.

Only this module imports MicroPython's ``machine``; everything it drives lives in the
``bgtable`` package, which the kiosk also runs under CPython. Pin numbers follow
``hardware/README.md``.
"""

import select
import sys
import time

import machine
import micropython
from bgtable.core import TableFirmware
from bgtable.layout import Layout

SCAN_HZ = 250
DEBOUNCE_SCANS = 3
WATCHDOG_MS = 2000
ROWS = 24  # three 74HC595 in a chain, Q0 of the first is row 0
COLUMNS = 16  # GP6..GP21, pulled up, low = closed
PIN_SER = 2
PIN_SRCLK = 3
PIN_RCLK = 4
PIN_FIRST_COLUMN = 6
PIN_MAINTENANCE = 22  # jumper to GND: do not start, leave the REPL to mpremote
PIN_LED = 25
SIO_GPIO_IN = 0xD0000004  # RP2040 SIO register holding every GPIO input level
COLUMN_MASK = (1 << COLUMNS) - 1


class DiodeMatrix:
    """The switch matrix: rows selected by walking a low bit through the 74HC595 chain."""

    rows = ROWS
    columns = COLUMNS

    def __init__(self):
        self._ser = machine.Pin(PIN_SER, machine.Pin.OUT, value=1)
        self._clk = machine.Pin(PIN_SRCLK, machine.Pin.OUT, value=0)
        self._latch = machine.Pin(PIN_RCLK, machine.Pin.OUT, value=0)
        for pin in range(PIN_FIRST_COLUMN, PIN_FIRST_COLUMN + COLUMNS):
            machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self._rows = [0] * ROWS
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

    @micropython.native
    def _columns(self):
        return ~(machine.mem32[SIO_GPIO_IN] >> PIN_FIRST_COLUMN) & COLUMN_MASK

    def scan(self):
        """One column bitmask per row, bit set = switch closed."""
        rows = self._rows
        self._shift(0)
        for row in range(ROWS):
            if row:
                self._shift(1)
            rows[row] = self._columns()
        self._shift(1)
        return rows

    def idle(self):
        """Columns that read closed while no row is selected: a shorted or stuck line."""
        self._deselect()
        return self._columns()


def run():
    """Start the firmware unless the maintenance jumper is fitted; never returns."""
    if machine.Pin(PIN_MAINTENANCE, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        print("backgammon table: maintenance jumper fitted, firmware not started")
        return
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    cause = "wdt" if machine.reset_cause() == machine.WDT_RESET else "power"
    led = machine.Pin(PIN_LED, machine.Pin.OUT, value=1)
    micropython.kbd_intr(-1)  # a 0x03 in line noise must not stop the firmware
    board_id = "".join([f"{b:02x}" for b in machine.unique_id()])
    out = sys.stdout.buffer
    stdin = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    firmware = TableFirmware(
        DiodeMatrix(),
        time,
        out.write,
        layout=Layout(),
        debounce_scans=DEBOUNCE_SCANS,
        scan_hz=SCAN_HZ,
        reset_cause=cause,
        board_id=board_id,
    )
    firmware.start()
    period_us = 1000000 // SCAN_HZ
    deadline = time.ticks_add(time.ticks_us(), period_us)
    while True:
        firmware.step()
        received = 0
        while received < 64 and poller.poll(0):
            firmware.feed(stdin.read(1))
            received += 1
        watchdog.feed()
        led.value((firmware.scans >> 7) & 1)
        wait = time.ticks_diff(deadline, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
            deadline = time.ticks_add(deadline, period_us)
        else:
            firmware.overruns += 1
            deadline = time.ticks_add(time.ticks_us(), period_us)
