# ruff: noqa: F821 - ptr8/ptr16/ptr32 are the viper emitter's built-ins
"""The Pico's hot paths in native code (MicroPython's viper emitter), for ``board.py``.

On the RP2040 at 125 MHz a line of interpreted MicroPython costs about 10 µs: walking 24
rows with ``Pin.value`` took 3 ms of the 4 ms scan period, reading the wells 0.7 ms and
checksumming a frame 7 ms. These functions do the same work on the chip's registers in
a few hundred microseconds. Only the Pico runs them: the firmware's vectors run
``board.py`` under CPython and MicroPython's WebAssembly port (which has no native
emitter), where ``board`` uses its interpreted versions of the same steps; the emulated
chip (``kiosk/simtable/rp2040.py``) runs these.
"""

from array import array

import micropython
from micropython import const

SIO_BASE = 0xD0000000  # words: 1 GPIO_IN, 5 GPIO_OUT_SET, 6 GPIO_OUT_CLR
TIMER_BASE = 0x40054000  # word 10: TIMERAWL, microseconds
# Native code changes a pin in one cycle (8 ns): each level is held for this many turns of
# an empty loop (about 0.3 µs on the emulated chip) so that the 74HC595/74HC165 see pulses
# longer than their minimum width and outputs settle past their propagation delay (about
# 30-50 ns at 3.3 V).
_HOLD = const(2)


def scan_settings(count, ser, clock, latch, first, mask, settle):
    """The words ``scan_rows`` reads its settings from (a viper function takes four
    arguments at most): rows, the SER/SRCLK/RCLK pins, the first column pin, the column
    mask and the settling time in µs."""
    return array("i", [count, 1 << ser, 1 << clock, 1 << latch, first, mask, settle])


@micropython.viper
def scan_rows(rows, settings):
    """Walk a low bit through the rows of the 74HC595 chain; ``rows[i]`` = row i's closed
    columns. Each read waits the settling time after its row was latched."""
    sio = ptr32(SIO_BASE)
    timer = ptr32(TIMER_BASE)
    word = ptr32(settings)
    count = word[0]
    ser_bit = word[1]
    clock_bit = word[2]
    latch_bit = word[3]
    first = word[4]
    mask = word[5]
    settle = word[6]
    sio[6] = ser_bit  # the low bit goes in first: row 0
    for row in range(count):
        for _ in range(_HOLD):  # SER set up before the clock rises
            pass
        sio[5] = clock_bit
        for _ in range(_HOLD):
            pass
        sio[6] = clock_bit
        sio[5] = latch_bit
        for _ in range(_HOLD):
            pass
        sio[6] = latch_bit
        sio[5] = ser_bit  # then ones behind it
        start = timer[10]
        while timer[10] - start < settle:
            pass
        rows[row] = (0 - 1 - (sio[1] >> first)) & mask
    sio[5] = clock_bit  # and out past the last row
    for _ in range(_HOLD):
        pass
    sio[6] = clock_bit
    sio[5] = latch_bit
    for _ in range(_HOLD):
        pass
    sio[6] = latch_bit


@micropython.viper
def shift_in(load: int, clock: int, data: int, bits: int) -> int:
    """Load a chain of 74HC165 and shift ``bits`` inputs in; bit i set = input i low."""
    sio = ptr32(SIO_BASE)
    load_bit = 1 << load
    clock_bit = 1 << clock
    sio[6] = load_bit
    for _ in range(_HOLD):
        pass
    sio[5] = load_bit
    value = 0
    for bit in range(bits):
        for _ in range(_HOLD):  # QH settles after the load or the last clock
            pass
        value |= (((sio[1] >> data) & 1) ^ 1) << bit
        sio[5] = clock_bit
        for _ in range(_HOLD):
            pass
        sio[6] = clock_bit
    return value


@micropython.viper
def _crc_table(table):
    out = ptr16(table)
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = (crc << 1) ^ 0x1021
            else:
                crc = crc << 1
        out[byte] = crc & 0xFFFF


_TABLE = array("H", bytes(512))
_crc_table(_TABLE)


@micropython.viper
def crc16(data) -> int:
    """CRC-16/CCITT-FALSE of ``data``, as ``bgtable.protocol.crc16``."""
    buf = ptr8(data)
    table = ptr16(_TABLE)
    n = int(len(data))
    crc = 0xFFFF
    for i in range(n):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc
