"""A fake ``machine`` module for running ``firmware/board.py`` off the Pico.

Models the RP2040 as far as the board layer uses it, at register level: three 74HC595 in
a chain (SER GP2, SRCLK GP3, RCLK GP4), 16 pulled-up column inputs from GP6, the SIO
input register, the watchdog's scratch register and reset reason, and the dice wells' three
74HC165 (SH/LD GP26, CLK GP27, QH GP28) with active-low Hall switch inputs. Runs under CPython and
MicroPython alike. ``WDT.feed`` raises ``Halt`` after ``state["feeds_left"]`` feeds so a
test can stop ``board.run()``; a ``Timer`` fires when the test says.
"""

PWRON_RESET = 1
WDT_RESET = 3
SIO_GPIO_IN = 0xD0000004
WATCHDOG_SCRATCH0 = 0x4005800C
GPIO_MASK = (1 << 30) - 1


class Halt(Exception):
    """The test has seen enough of the board's loop."""


class Reset(Exception):
    """``machine.reset()`` was called."""


class Chip:
    """The shift-register chain and the column inputs."""

    def __init__(self, first_column=6):
        self.shift = 0
        self.latched = 0
        self.levels = {}
        self.closed = set()  # (row, column) pairs whose reed is closed
        self.first_column = first_column
        self.stuck_columns = 0
        self.log = None  # a list to record "latch" and "read" in order, when a test sets one
        self.hall = set()  # (well, cell) pairs whose Hall switch is on
        self.wells_register = 0xFFFFFF

    def set(self, pin, level):
        rising = level and not self.levels.get(pin, 0)
        self.levels[pin] = level
        if rising and pin == 3:  # SRCLK
            self.shift = ((self.shift << 1) | self.levels.get(2, 0)) & 0xFFFFFF
        if rising and pin == 4:  # RCLK
            self.latched = self.shift
            if self.log is not None:
                self.log.append("latch")
        if pin == 26 and not level:  # SH/LD low: load the Hall switches, active low
            register = 0xFFFFFF
            for well, cell in self.hall:  # rings on the first two chips, centres on the third
                register &= ~(1 << (16 + well if cell == 8 else 8 * well + cell))
            self.wells_register = register
        if rising and pin == 27:  # CLK: the next input to QH
            self.wells_register = (self.wells_register >> 1) | 0x800000

    def gpio_in(self):
        if self.log is not None:
            self.log.append("read")
        # 30 GPIOs: the register's top two bits read 0, so the value stays a small int
        value = GPIO_MASK
        for row, column in self.closed:
            if not (self.latched >> row) & 1:
                value &= ~(1 << (self.first_column + column))
        return value & ~(self.stuck_columns << self.first_column) & GPIO_MASK


chip = Chip()
state = {"cause": PWRON_RESET, "feeds": 0, "feeds_left": 100, "resets": 0}
_memory = {WATCHDOG_SCRATCH0: 0}


def fresh(cause=PWRON_RESET, scratch=0, feeds_left=100):
    """Power the fake Pico up afresh."""
    global chip
    chip = Chip()
    state["cause"] = cause
    state["feeds"] = 0
    state["feeds_left"] = feeds_left
    state["resets"] = 0
    _memory[WATCHDOG_SCRATCH0] = scratch
    timers.clear()


class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 1

    def __init__(self, pin, mode=0, pull=None, value=None):
        self.pin = pin
        if value is not None:
            chip.set(pin, value)

    def value(self, level=None):
        if level is None:
            if self.pin == 28:
                return chip.wells_register & 1
            return 1  # the maintenance jumper is not fitted
        chip.set(self.pin, level)
        return None


class _Memory:
    def __getitem__(self, address):
        if address == SIO_GPIO_IN:
            return chip.gpio_in()
        return _memory[address]

    def __setitem__(self, address, value):
        _memory[address] = value


mem32 = _Memory()


class Timer:
    """A periodic timer; it fires only when a test calls ``fire`` (see ``timers``)."""

    def __init__(self, period=0, callback=None):
        self.period = period
        self.callback = callback
        timers.append(self)

    def fire(self):
        self.callback(self)


timers = []


class WDT:
    def __init__(self, timeout=0):
        self.timeout = timeout

    def feed(self):
        state["feeds"] += 1
        if state["feeds"] >= state["feeds_left"]:
            raise Halt()


def reset_cause():
    return state["cause"]


def reset():
    state["resets"] += 1
    raise Reset()


def unique_id():
    return b"\xe6\x61\x38\x52\x83\x2b\x4a\x2f"
