"""Two Bluetooth dice as the table's dice source: what each die said, read as a well reads.

A :class:`BleDice` is handed its transport when it is built (:class:`BleakTransport` at
the table, :class:`~kiosk.bledice.simulated.SimulatedDice` in tests), never a flag. The
transport runs on a thread of its own and delivers :data:`Notice` s; :meth:`BleDice.poll`,
called on the application's loop, decodes them with the maker's protocol and keeps the
two dice's readings. Until both dice have been heard from, there is no reading at all, so
dice that connect one after the other are never taken for a throw.

>>> from kiosk.bledice.pixels import PIXELS
>>> from kiosk.bledice.simulated import SimulatedDice
>>> dice = BleDice(PIXELS, SimulatedDice())
>>> dice.start()
>>> dice.transport.connect(0); dice.transport.connect(1)
>>> dice.poll()
[]
>>> for line in dice.said: print(line)
Pixels die 1 connected (sim-0); it blinks once.
Pixels die 2 connected (sim-1); it blinks twice.
>>> dice.transport.notify(0, bytes([3, 1, 2])); dice.transport.notify(1, bytes([3, 4, 0]))
>>> dice.poll()
[(<DieReading.THREE: 3>, <DieReading.COCKED: 7>)]
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from kiosk.bledice.protocol import (
    Battery,
    Decoder,
    DiceProtocolError,
    DieEvent,
    Identity,
    Roll,
    Vendor,
    reading,
)
from kiosk.table import DieReading

log = logging.getLogger(__name__)

LOW_BATTERY = 15  # percent: the installer is told to charge the die
SAID = 20  # lines kept in BleDice.said


@dataclass(frozen=True)
class Connected:
    """A die is connected (and subscribed to) in ``slot`` (0: die 1, 1: die 2)."""

    slot: int
    address: str


@dataclass(frozen=True)
class Data:
    """A notification from the die in ``slot``."""

    slot: int
    data: bytes


@dataclass(frozen=True)
class Lost:
    """The die in ``slot`` went away; the transport looks for it again."""

    slot: int
    why: str


@dataclass(frozen=True)
class Unavailable:
    """Bluetooth cannot be used at all here (no bleak, no adapter, no BlueZ): why."""

    why: str


Notice = Connected | Data | Lost | Unavailable


class Transport(Protocol):
    """How the dice's bytes come and go: scanning, connecting, subscribing, reconnecting."""

    def start(self, vendor: Vendor, deliver: Callable[[Notice], None]) -> None:
        """Find two of ``vendor``'s dice and keep them connected, delivering every
        notice (from any thread) to ``deliver``."""

    def send(self, slot: int, data: bytes) -> None:
        """Write ``data`` to the die in ``slot`` (dropped if it is not connected)."""

    def stop(self) -> None:
        """Disconnect and stop."""


class BleDice:
    """Two of ``vendor``'s dice over ``transport``: see the module docstring."""

    def __init__(self, vendor: Vendor, transport: Transport) -> None:
        self.vendor = vendor
        self.transport = transport
        self._notices: queue.SimpleQueue[Notice] = queue.SimpleQueue()
        self._decoders: dict[int, Decoder] = {}
        self._dice: list[DieReading | None] = [None, None]  # None: not heard from yet
        self.identities: dict[int, Identity] = {}
        self.unavailable = ""  # why Bluetooth cannot be used, once the transport said so
        self.said: list[str] = []  # the latest lines logged, for kiosk doctor and tests
        self._warned: set[str] = set()
        self._other_kind: set[int] = set()  # slots holding a die that is not a d6

    def start(self) -> None:
        """Start the transport looking for the dice."""
        self.transport.start(self.vendor, self._notices.put)

    def stop(self) -> None:
        """Stop the transport."""
        self.transport.stop()

    @property
    def readings(self) -> tuple[DieReading, DieReading] | None:
        """What the two dice read, as two wells would; ``None`` until both were heard."""
        first, second = self._dice
        if first is None or second is None:
            return None
        return first, second

    def poll(self) -> list[tuple[DieReading, DieReading]]:
        """Take in what the transport delivered: each new reading of the pair, in order
        (a throw's rolling is never lost between two polls). What it means for the
        installer is logged, in words: a die connected or lost as news, anything wrong
        as a warning; :attr:`said` keeps the latest lines."""
        changes: list[tuple[DieReading, DieReading]] = []
        while True:
            try:
                notice = self._notices.get_nowait()
            except queue.Empty:
                return changes
            before = self.readings
            for level, line in self._take(notice):
                if level == logging.WARNING:
                    if line in self._warned:
                        continue  # a fault repeated is said once, until a die comes or goes
                    self._warned.add(line)
                else:
                    self._warned.clear()
                log.log(level, "%s", line)
                self.said.append(line)
            now = self.readings
            if now is not None and now != before:
                changes.append(now)
            del self.said[:-SAID]

    def _take(self, notice: Notice) -> list[tuple[int, str]]:
        """What a notice changes, and what it says (with its logging level)."""
        title = self.vendor.title
        if isinstance(notice, Unavailable):  # said by whoever falls back (one line)
            self.unavailable = notice.why
            return []
        die = f"{title} die {notice.slot + 1}"
        if isinstance(notice, Connected):
            self._decoders[notice.slot] = self.vendor.decoder()
            self._other_kind.discard(notice.slot)
            if self._dice[notice.slot] is None and not self.vendor.tells_face:
                self._dice[notice.slot] = DieReading.EMPTY  # no face until it is thrown
            for message in (*self.vendor.hello, self.vendor.blink(notice.slot + 1)):
                self.transport.send(notice.slot, message)  # die 1 blinks once, die 2 twice
            times = "once" if notice.slot == 0 else "twice"
            return [(logging.INFO, f"{die} connected ({notice.address}); it blinks {times}.")]
        if isinstance(notice, Lost):
            # the last reading stays: a die that comes back on the same face is no throw
            return [(logging.INFO, f"{die} lost ({notice.why}); looking for it again.")]
        decoder = self._decoders.get(notice.slot)
        if decoder is None:
            return []
        try:
            event = decoder.decode(notice.data)
        except DiceProtocolError as err:
            return [
                (logging.WARNING, f"{die} sent a message that cannot be read ({err}); ignored.")
            ]
        return [(logging.WARNING, line) for line in self._event(notice.slot, die, event)]

    def _event(self, slot: int, die: str, event: DieEvent | None) -> list[str]:
        """What an event changes; what is wrong with the die, if anything."""
        if isinstance(event, Roll):
            if slot not in self._other_kind:
                self._dice[slot] = reading(event)
            return []
        said = []
        battery = event.battery if isinstance(event, Identity) else event
        if isinstance(event, Identity):
            self.identities[slot] = event
            if not event.six_sided:  # its faces are never taken for a throw
                self._other_kind.add(slot)
                self._dice[slot] = None
                said.append(f"{die} is a {event.kind}, not a six-sided die: use a d6.")
            elif event.roll is not None:
                self._dice[slot] = reading(event.roll)
        if isinstance(battery, Battery) and battery.percent < LOW_BATTERY and not battery.charging:
            said.append(f"{die}'s battery is at {battery.percent} %: charge it.")
        return said
