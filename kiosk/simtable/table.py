"""A virtual table: the real firmware logic scanning a virtual switch matrix, on a pty.

The model keeps the true men on every location (a point may hold more men than it has
slots) and derives the closed reeds from it, exactly as the magnets would. The firmware
core from ``firmware/bgtable`` scans that matrix and its output goes to a pseudo-terminal,
so the kiosk connects through the same pyserial code as to the real table.
"""

from __future__ import annotations

import binascii
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any

from kiosk.simtable.firmware import load_firmware
from kiosk.simtable.micropython import MicroPythonCore
from kiosk.simtable.rp2040 import ChipCore, ChipFirmware
from kiosk.table.layout import (
    LOCATIONS,
    POINTS,
    DieReading,
    SlotState,
    TableLayout,
    colour,
)

MATRIX_COLUMNS = 16
MAX_BACKLOG = 1 << 20  # bytes held for a reader that does not read
RUNTIMES = ("cpython", "micropython", "rp2040")

# White moves 24 -> 1; black's points are white's 25 - n.
STARTING_POSITION: Mapping[str, tuple[SlotState, int]] = {
    "24": (SlotState.WHITE, 2),
    "13": (SlotState.WHITE, 5),
    "8": (SlotState.WHITE, 3),
    "6": (SlotState.WHITE, 5),
    "1": (SlotState.BLACK, 2),
    "12": (SlotState.BLACK, 5),
    "17": (SlotState.BLACK, 3),
    "19": (SlotState.BLACK, 5),
}


class VirtualClock:
    """Virtual time for stepped mode, with MicroPython's ``ticks_ms``/``ticks_diff``."""

    def __init__(self) -> None:
        self.us = 0

    def ticks_ms(self) -> int:
        """Virtual milliseconds since the table was created."""
        return self.us // 1000

    def ticks_diff(self, a: int, b: int) -> int:
        """``a - b`` in ticks."""
        return a - b


class RealClock:
    """Wall-clock time for real-time mode, with MicroPython's ``ticks_ms``/``ticks_diff``."""

    def ticks_ms(self) -> int:
        """Milliseconds of the monotonic clock."""
        return int(time.monotonic() * 1000)

    def ticks_diff(self, a: int, b: int) -> int:
        """``a - b`` in ticks."""
        return a - b


class VirtualMatrix:
    """The switch matrix as the firmware reads it: one column bitmask per row."""

    columns = MATRIX_COLUMNS

    def __init__(self, switches: int) -> None:
        self.rows = -(-switches // MATRIX_COLUMNS)
        self.state = [0] * self.rows
        self.stuck_lines = 0
        self.well_cells = [0, 0]  # each dice well's Hall switches that are on

    def set_closed(self, closed: Iterable[int]) -> None:
        """Close exactly the switches numbered in ``closed``."""
        state = [0] * self.rows
        for switch in closed:
            state[switch // MATRIX_COLUMNS] |= 1 << (switch % MATRIX_COLUMNS)
        self.state = state

    def scan(self) -> list[int]:
        """The rows as they read now."""
        return list(self.state)

    def idle(self) -> int:
        """Columns that read closed with no row selected."""
        return self.stuck_lines

    def wells(self) -> list[int]:
        """Each dice well's cell mask, bit set = Hall switch on."""
        return list(self.well_cells)


class SimulatedTable:
    """A scriptable table serving the real firmware on a pseudo-terminal at ``port_name``.

    With ``realtime=True`` a thread scans at ``scan_hz``; otherwise time stands still
    until ``advance(ms)`` runs the scans for that much virtual time. Host commands are
    answered at once in both modes. ``port_name`` is a symlink that, like the udev rule's
    ``/dev/backgammon-table``, survives ``unplug()``/``replug()``. Wells are numbered 1
    and 2; colours are ``SlotState.WHITE``/``BLACK`` or the words ``white``/``black``.
    The dice wells are read by Hall switches (``kill_cell``/``stick_cell`` make them fail).
    ``firmware`` picks the interpreter running the firmware: ``cpython`` (this process,
    fast), ``micropython`` (the WebAssembly port under Node, as on the Pico) or ``rp2040``
    (MicroPython's real rp2 image on an emulated RP2040, ``kiosk.simtable.rp2040``: the
    whole of ``firmware/`` over emulated USB, in the chip's own time; slower).
    ``sensing`` (default: the layout's) is ``polarity`` or ``occupancy`` (one reed per
    slot: the frames read ``OCCUPIED``, a man of either colour).
    """

    def __init__(
        self,
        layout: TableLayout | None = None,
        *,
        realtime: bool = False,
        scan_hz: int = 200,
        debounce_scans: int = 3,
        heartbeat_ms: int = 500,
        seed: int = 0,
        firmware: str = "cpython",
        sensing: str | None = None,
    ) -> None:
        if sensing is not None:
            base = layout or TableLayout()
            layout = TableLayout(base.point_slots, base.bar_slots, base.tray_slots, sensing)
        if firmware not in RUNTIMES:
            raise ValueError(
                f"the firmware runs under cpython, micropython or rp2040, not {firmware!r}"
            )
        self.layout = (layout or TableLayout()).physical()  # a table has all its slots
        self.runtime = firmware
        self.realtime = realtime
        self.scan_hz = scan_hz
        self.debounce_scans = debounce_scans
        self.heartbeat_ms = heartbeat_ms
        self._core: Any = load_firmware("core")
        if firmware == "micropython":
            self._core = MicroPythonCore()
        elif firmware == "rp2040":
            self._core = ChipCore()
        self._dice = load_firmware("dice")
        self._protocol = load_firmware("protocol")
        self._fw_layout = load_firmware("layout").Layout(
            self.layout.point_slots,
            self.layout.bar_slots,
            self.layout.tray_slots,
            self.layout.sensing,
        )
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._men: dict[str, list[SlotState]] = {location: [] for location in LOCATIONS}
        self._wells = [0, 0]
        self._bounces: list[list[int]] = []
        self._quiet_scans = 0  # scans since a reed last flipped
        self._stuck: set[int] = set()
        self._dead: set[int] = set()
        self._cells_stuck = [0, 0]  # Hall switches always on, per well
        self._cells_dead = [0, 0]  # Hall switches never on
        self._off_centre: set[tuple[str, int]] = set()
        self.chatter = 0  # flips every reed makes when a man arrives or leaves (0: clean)
        self._matrix = VirtualMatrix(self._fw_layout.switches)
        self._closed_switches: set[int] = set()
        self._clock: VirtualClock | RealClock = RealClock() if realtime else VirtualClock()
        self._period_us = 1_000_000 // scan_hz
        self._next_scan = 0.0
        self._out = bytearray()
        self._corrupt: list[str] = []
        self.tx_dropped = 0
        self.firmware: Any = None  # the firmware core serving the table, once plugged in
        self._master: int | None = None
        self._slave: int | None = None
        self._generation = 0
        self._closed = False
        self._dir = tempfile.mkdtemp(prefix="bgtable-")
        self.port_name = os.path.join(self._dir, "backgammon-table")
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._plug()
        self._thread = threading.Thread(target=self._io_loop, name="simulated-table", daemon=True)
        self._thread.start()

    # -- life cycle ----------------------------------------------------------------------

    def close(self) -> None:
        """Stop the table and remove its pty."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._wake()
        self._thread.join(5)
        with self._lock:
            self._unplug()
            os.close(self._wake_r)
            os.close(self._wake_w)
            shutil.rmtree(self._dir, ignore_errors=True)
            if isinstance(self._core, (MicroPythonCore, ChipCore)):
                self._core.close()

    def __enter__(self) -> SimulatedTable:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def plugged(self) -> bool:
        """Whether the cable is in."""
        return self._master is not None

    def unplug(self) -> None:
        """Pull the USB cable: the port vanishes and the firmware loses power."""
        with self._lock:
            self._unplug()
        self._wake()

    def replug(self) -> None:
        """Plug the cable back in: a fresh pty behind ``port_name`` and a firmware reboot."""
        with self._lock:
            if self._master is None and not self._closed:
                self._plug()
        self._wake()

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._generation += 1
        self._out.clear()
        self._reported: str | None = None
        self.firmware = self._core.TableFirmware(
            self._matrix,
            self._clock,
            self._emit,
            layout=self._fw_layout,
            debounce_scans=self.debounce_scans,
            heartbeat_ms=self.heartbeat_ms,
            scan_hz=self.scan_hz,
            board_id="simulated",
        )
        self.firmware.start()
        self._next_scan = time.monotonic()
        # the port appears once the firmware is up (an emulated chip takes seconds to boot)
        link = self.port_name + ".new"
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.port_name)

    def _unplug(self) -> None:
        if self._master is None:
            return
        if isinstance(self._core, ChipCore) and not self._closed:
            self._core.prepare(  # the next chip boots now, while the cable is still in
                self._matrix,
                self._clock,
                debounce_scans=self.debounce_scans,
                heartbeat_ms=self.heartbeat_ms,
                scan_hz=self.scan_hz,
            )
        os.close(self._master)
        if self._slave is not None:
            os.close(self._slave)
        self._master = self._slave = None
        if isinstance(self.firmware, ChipFirmware):
            self.firmware.close()  # the chip loses power with the cable
        self.firmware = None
        self._out.clear()
        if os.path.lexists(self.port_name):
            os.unlink(self.port_name)

    # -- the men -------------------------------------------------------------------------

    def _check(self, location: str) -> None:
        if location not in self._men:
            raise ValueError(f"no such location: {location!r}")

    def men(self, location: str) -> tuple[SlotState, ...]:
        """Every man at ``location``, from the edge inwards (the true count, not the sensed)."""
        self._check(location)
        with self._lock:
            return tuple(self._men[location])

    def sensed(self, location: str) -> tuple[SlotState, ...]:
        """What the slots at ``location`` read, settled: the first men up to the slot count
        (``OCCUPIED`` with occupancy sensing), as dead, welded reeds and men pushed off
        centre leave them. A slot with both reeds closed keeps its man's colour (the
        firmware keeps the last settled state; this is it while nothing else changed)."""
        men = self.men(location)
        layout = self._fw_layout
        with self._lock:
            closed = self._closed_switches
        first = layout.first[LOCATIONS.index(location)]
        states = []
        for slot in range(self.layout.slots(location)):
            white = layout.reed_switch(first + slot, False) in closed
            black = layout.reed_switch(first + slot, True) in closed
            if self.layout.sensing == "occupancy":
                states.append(SlotState.OCCUPIED if white else SlotState.EMPTY)
            elif white and black:
                states.append(men[slot] if slot < len(men) else SlotState.EMPTY)
            else:
                states.append(
                    SlotState.WHITE if white else SlotState.BLACK if black else SlotState.EMPTY
                )
        return tuple(states)

    def place(self, location: str, man: SlotState | str, bounce: int = 0) -> None:
        """Put a man at ``location``; ``bounce`` makes its reed chatter that many times first."""
        self._check(location)
        man = colour(man)
        with self._lock:
            men = self._men[location]
            men.append(man)
            self._changed()
            bounce = bounce or self.chatter
            if bounce and len(men) <= self.layout.slots(location):
                self._add_bounce(location, len(men) - 1, man, bounce)

    def lift(self, location: str, man: SlotState | str | None = None, bounce: int = 0) -> SlotState:
        """Take the top man (of colour ``man`` if given) from ``location``; returns its colour."""
        self._check(location)
        wanted = None if man is None else colour(man)
        with self._lock:
            men = self._men[location]
            for index in range(len(men) - 1, -1, -1):
                if wanted is None or men[index] is wanted:
                    lifted = men.pop(index)
                    break
            else:
                what = "man" if wanted is None else f"{wanted.name.lower()} man"
                raise ValueError(f"no {what} at {location}")
            self._changed()
            bounce = bounce or self.chatter
            if bounce and index < self.layout.slots(location):
                self._add_bounce(location, index, lifted, bounce)
            return lifted

    def move(self, source: str, target: str, man: SlotState | str | None = None) -> None:
        """Lift a man from ``source`` and place it at ``target``."""
        self._check(target)
        self.place(target, self.lift(source, man))

    def set_position(self, position: Mapping[str, tuple[SlotState | str, int]]) -> None:
        """Clear the table and lay out ``position``: location -> (colour, count)."""
        for location in position:
            self._check(location)
        with self._lock:
            for men in self._men.values():
                men.clear()
            for location, (man, count) in position.items():
                if count < 0:
                    raise ValueError(f"negative count at {location}")
                self._men[location].extend([colour(man)] * count)
            self._changed()

    def lay_out(self, board: Mapping[str, tuple[int, int]]) -> None:
        """Clear the table and lay out ``board``: location -> (white men, black men)."""
        for location in board:
            self._check(location)
        with self._lock:
            for men in self._men.values():
                men.clear()
            for location, (white, black) in board.items():
                if white < 0 or black < 0:
                    raise ValueError(f"negative count at {location}")
                self._men[location].extend([SlotState.WHITE] * white + [SlotState.BLACK] * black)
            self._changed()

    def clear(self) -> None:
        """Take every man off the table."""
        self.set_position({})

    # -- the dice ------------------------------------------------------------------------

    def set_dice(self, first: int | None, second: int | None) -> None:
        """Lay the dice flat showing these faces up (``None`` leaves a well empty)."""
        faces = (first, second)
        for face in faces:
            if face is not None and not 1 <= face <= 6:
                raise ValueError(f"a die shows 1 to 6, not {face}")
        with self._lock:
            for well, face in enumerate(faces):
                if face is None:
                    self._wells[well] = 0
                else:
                    self._wells[well] = self._rng.choice(self._dice.orientations(7 - face))
            self._changed()

    def throw(self) -> tuple[int, int]:
        """Throw both dice at random (from the table's seed); returns the faces up."""
        faces = (self._rng.randint(1, 6), self._rng.randint(1, 6))
        self.set_dice(*faces)
        return faces

    def cock(self, well: int) -> None:
        """Leave the die in ``well`` (1 or 2) leaning: its centre magnet off its cell, two
        ring cells on."""
        with self._lock:
            self._wells[self._well(well)] = 0b000000011
            self._changed()

    def cover_cell(self, well: int, cell: int | None) -> None:
        """Put the well jig in ``well`` (1 or 2) over one Hall switch (cell 0-7: the ring
        going round, 8: the centre), or take it out (``None``): how commissioning tests a
        dice well's switches one by one (the field model shows the jig switches that cell
        alone)."""
        with self._lock:
            self._wells[self._well(well)] = 0 if cell is None else 1 << cell
            self._changed()

    def kill_cell(self, well: int, cell: int) -> None:
        """A dead Hall switch: cell ``cell`` of ``well`` (1 or 2) never switches."""
        with self._lock:
            self._cells_dead[self._well(well)] |= 1 << cell
            self._changed()

    def stick_cell(self, well: int, cell: int) -> None:
        """A Hall switch stuck on (or a stray magnet): cell ``cell`` of ``well`` always on."""
        with self._lock:
            self._cells_stuck[self._well(well)] |= 1 << cell
            self._changed()

    def clear_dice(self) -> None:
        """Take both dice out of their wells."""
        self.set_dice(None, None)

    def dice(self) -> tuple[DieReading, DieReading]:
        """What the wells would read now, settled."""
        with self._lock:
            read = self._dice.read_well
            first, second = self._matrix.well_cells
            return DieReading(read(first)), DieReading(read(second))

    @property
    def chattering(self) -> bool:
        """Whether a reed is still flipping (a bounce or ``chatter``) or flipped too few
        scans ago for the firmware's debounce to have settled on it."""
        with self._lock:
            return bool(self._bounces) or self._quiet_scans < self.debounce_scans

    def reported(self) -> str | None:
        """The payload of the last frame the firmware sent (what it reports now, while a
        chattering reed has not settled yet), or ``None`` before its first."""
        with self._lock:
            return self._reported

    @staticmethod
    def _well(well: int) -> int:
        if well not in (1, 2):
            raise ValueError(f"the wells are 1 and 2, not {well}")
        return well - 1

    # -- faults --------------------------------------------------------------------------

    def bounce(
        self,
        location: str,
        slot: int | None = None,
        man: SlotState | str | None = None,
        flips: int = 6,
    ) -> None:
        """Make one reed at ``location`` chatter ``flips`` times and return to its state.

        The slot defaults to the outermost occupied one (or the edge slot), the reed to
        the colour of the man there (or white; an occupancy slot has one reed, whatever
        ``man``). Each flip lasts one scan.
        """
        self._check(location)
        with self._lock:
            sensed = self.sensed(location)
            if slot is None:
                occupied = [i for i, s in enumerate(sensed) if s is not SlotState.EMPTY]
                slot = occupied[-1] if occupied else 0
            if not 0 <= slot < len(sensed):
                raise ValueError(f"{location} has no slot {slot}")
            if man is None:
                man = sensed[slot] if sensed[slot] is not SlotState.EMPTY else SlotState.WHITE
            self._add_bounce(location, slot, colour(man), flips)

    def _add_bounce(self, location: str, slot: int, man: SlotState, flips: int) -> None:
        index = self._fw_layout.slot_index(location, slot)
        switch = self._fw_layout.reed_switch(index, man is SlotState.BLACK)
        self._bounces.append([switch, 2 * ((flips + 1) // 2)])

    def stick_reed(self, location: str, slot: int, man: SlotState | str) -> None:
        """Weld one reed closed (for the self-test): ``man``'s colour's reed, or the slot's
        one reed on an occupancy table, whatever ``man``. Closing both reeds of a polarity
        slot is the fault the self-test names as stuck."""
        self._check(location)
        with self._lock:
            index = self._fw_layout.slot_index(location, slot)
            self._stuck.add(self._fw_layout.reed_switch(index, colour(man) is SlotState.BLACK))
            self._changed()

    def free_reeds(self) -> None:
        """Undo every ``stick_reed``, ``kill_reed`` and ``push_off_centre``."""
        with self._lock:
            self._stuck.clear()
            self._dead.clear()
            self._off_centre.clear()
            self._cells_stuck = [0, 0]
            self._cells_dead = [0, 0]
            self._changed()

    def _slot_switches(self, location: str, slot: int, man: SlotState | str | None) -> set[int]:
        self._check(location)
        index = self._fw_layout.slot_index(location, slot)
        if man is not None:
            return {self._fw_layout.reed_switch(index, colour(man) is SlotState.BLACK)}
        return {self._fw_layout.reed_switch(index, False), self._fw_layout.reed_switch(index, True)}

    def kill_reed(self, location: str, slot: int, man: SlotState | str | None = None) -> None:
        """A dead reed: slot ``slot`` (0 = edge) never closes (for ``man``'s colour, or any;
        an occupancy slot has one reed)."""
        with self._lock:
            self._dead |= self._slot_switches(location, slot, man)
            self._changed()

    def weld_reed(self, location: str, slot: int, man: SlotState | str = "white") -> None:
        """A welded reed: slot ``slot`` reads a man of ``man``'s colour (of either colour,
        ``OCCUPIED``, on an occupancy table) with none there."""
        self.stick_reed(location, slot, man)

    def push_off_centre(self, location: str) -> None:
        """The top man sensed at ``location`` is pushed off his reed: his slot reads empty."""
        with self._lock:
            sensed = min(len(self.men(location)), self.layout.slots(location))
            if not sensed:
                raise ValueError(f"no man at {location}")
            self._off_centre.add((location, sensed - 1))
            self._changed()

    def recentre(self, location: str) -> None:
        """Push the men at ``location`` back over their reeds."""
        with self._lock:
            self._off_centre = {(where, s) for where, s in self._off_centre if where != location}
            self._changed()

    def _hold(self, ms: int) -> None:
        """Let ``ms`` pass: virtual time on a stepped table, real time on a real-time one."""
        if self.realtime:
            time.sleep(ms / 1000)
        else:
            self.advance(ms)

    def slide(
        self,
        source: str,
        target: str,
        ms_per_point: int = 30,
        hold: Callable[[int], None] | None = None,
        man: SlotState | str | None = None,
    ) -> None:
        """Slide a man from ``source`` to ``target`` across the points between, as a hand
        does: he stands ``ms_per_point`` on each (closing its edge reed), then lands.

        ``hold(ms)`` lets the time pass (default: ``advance`` or a real-time sleep); ``man``
        picks the colour to lift (default: the top man)."""
        self._check(target)
        hold = hold or self._hold
        man = self.lift(source, man)
        if source in POINTS and target in POINTS:
            start, end = int(source), int(target)
            step = 1 if end > start else -1
            for point in range(start + step, end, step):
                self.place(str(point), man)
                hold(ms_per_point)
                self.lift(str(point), man)
        self.place(target, man)

    def tumble(
        self,
        first: int,
        second: int,
        faces: int = 4,
        ms_per_face: int = 30,
        hold: Callable[[int], None] | None = None,
    ) -> list[tuple[int, int]]:
        """Throw the dice so that they tumble: ``faces`` random faces showing for
        ``ms_per_face`` each before they rest on ``first`` and ``second``; returns them."""
        hold = hold or self._hold
        shown = []
        for _ in range(faces):
            face = (self._rng.randint(1, 6), self._rng.randint(1, 6))
            shown.append(face)
            self.set_dice(*face)
            hold(ms_per_face)
        self.set_dice(first, second)
        return shown

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the line between messages."""
        with self._lock:
            if self._master is not None:
                self._out += data
                self._flush()
        self._wake()

    def noise(self, count: int = 64) -> bytes:
        """Inject ``count`` random bytes (from the table's seed); returns them."""
        data = bytes(self._rng.getrandbits(8) for _ in range(count))
        self.inject(data)
        return data

    def flood_errors(self, count: int) -> None:
        """Make the firmware send ``count`` error messages at once (a table gone wrong)."""
        command = b"$x0000 *" + b"%04X" % binascii.crc_hqx(b"x0000 ", 0xFFFF) + b"\r\n"
        with self._lock:
            if self.firmware is not None:
                self.firmware.feed(command * count)
                self._flush()
        self._wake()

    def corrupt_next(self, count: int = 1, how: str = "flip") -> None:
        """Damage the next ``count`` messages: ``flip`` one payload bit, ``truncate`` them,
        or ``lose`` them (they never reach the line, as a lost USB packet)."""
        if how not in ("flip", "truncate", "lose"):
            raise ValueError(f"how is flip, truncate or lose, not {how!r}")
        with self._lock:
            self._corrupt.extend([how] * count)

    # -- time ----------------------------------------------------------------------------

    def advance(self, ms: float) -> None:
        """Stepped mode: run the scans for ``ms`` of virtual time and send their output."""
        if self.realtime:
            raise RuntimeError("advance() is for a stepped table; this one runs in real time")
        clock = self._clock
        assert isinstance(clock, VirtualClock)
        with self._lock:
            target = clock.us + int(ms * 1000)
            while clock.us + self._period_us <= target:
                clock.us += self._period_us
                self._scan()
            clock.us = target
            self._flush()
        self._wake()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything sent so far has gone into the pty; ``False`` on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._out:
                    return True
            self._wake()
            time.sleep(0.001)
        return False

    # -- internals (callers hold the lock) -----------------------------------------------

    def _changed(self) -> None:
        closed = set(self._stuck)
        layout = self._fw_layout
        for location, men in self._men.items():
            first = layout.first[LOCATIONS.index(location)]
            for slot, man in enumerate(men[: self.layout.slots(location)]):
                if (location, slot) not in self._off_centre:
                    closed.add(layout.reed_switch(first + slot, man is SlotState.BLACK))
        closed -= self._dead
        self._matrix.well_cells = [
            (mask | self._cells_stuck[well]) & ~self._cells_dead[well]
            for well, mask in enumerate(self._wells)
        ]
        self._closed_switches = closed

    def _scan(self) -> None:
        if self.firmware is None:
            return
        closed = self._closed_switches
        if self._bounces:
            self._quiet_scans = 0
            closed = set(closed)
            for job in self._bounces:
                if job[1] % 2:
                    closed ^= {job[0]}
                job[1] -= 1
            self._bounces = [job for job in self._bounces if job[1] > 0]
        else:
            self._quiet_scans += 1
        self._matrix.set_closed(closed)
        self.firmware.step()

    def _emit(self, data: bytes) -> bool:
        for line in data.split(b"$")[1:]:  # one message, or a MicroPython step's several
            message = self._protocol.parse_line(line.rstrip(b"\n"))
            if message is not None and message[0] == "F":
                self._reported = message[2].decode()
        if self._corrupt:
            data = self._damage(data, self._corrupt.pop(0))
        if len(self._out) + len(data) > MAX_BACKLOG:
            self.tx_dropped += 1
            return False
        self._out += data
        return True

    def _damage(self, data: bytes, how: str) -> bytes:
        if how == "lose":
            return b""
        if how == "truncate":
            return data[: len(data) // 2]
        damaged = bytearray(data)
        damaged[self._rng.randrange(1, data.rindex(b"*"))] ^= 1
        return bytes(damaged)

    def _flush(self) -> None:
        while self._out and self._master is not None:
            try:
                written = os.write(self._master, self._out)
            except BlockingIOError:
                return
            except OSError:
                self._out.clear()
                return
            del self._out[:written]

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass

    def _io_loop(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                master = self._master
                generation = self._generation
                writing = [master] if master is not None and self._out else []
                timeout = None
                if self.realtime and master is not None:
                    timeout = max(0.0, self._next_scan - time.monotonic())
            reading = [self._wake_r] if master is None else [self._wake_r, master]
            try:
                readable, _, _ = select.select(reading, writing, [], timeout)
            except (OSError, ValueError):
                continue  # unplugged while waiting
            if self._wake_r in readable:
                os.read(self._wake_r, 4096)
            with self._lock:
                if self._closed or self._generation != generation or self._master is None:
                    continue
                if master in readable:
                    self._read_host()
                if self.realtime:
                    self._scan_if_due()
                self._flush()

    def _read_host(self) -> None:
        if self._master is None:
            return
        try:
            data = os.read(self._master, 4096)
        except OSError:
            return
        if data and self.firmware is not None:
            self.firmware.feed(data)

    def _scan_if_due(self) -> None:
        now = time.monotonic()
        if now < self._next_scan:
            return
        self._scan()
        period = self._period_us / 1e6
        self._next_scan += period
        if now - self._next_scan > period and self.firmware is not None:
            self.firmware.overruns += 1
            self._next_scan = now + period


def realtime_table(layout: TableLayout | None = None) -> SimulatedTable:
    """A simulated table scanning in real time, for ``kiosk.link.open_table`` to serve."""
    return SimulatedTable(layout, realtime=True)
