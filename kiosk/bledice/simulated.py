"""Bluetooth dice without Bluetooth: a transport that tests (and demonstrations) drive by
hand, handing the source the bytes a real die would send.

>>> from kiosk.bledice.godice import GODICE
>>> sim = SimulatedDice()
>>> got = []
>>> sim.start(GODICE, got.append)
>>> sim.connect(0); sim.notify(0, b"R")
>>> [type(n).__name__ for n in got]
['Connected', 'Data']
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.bledice.protocol import Vendor
from kiosk.bledice.source import Connected, Data, Lost, Notice, Unavailable


class SimulatedDice:
    """A :class:`~kiosk.bledice.source.Transport` whose dice are played by the caller;
    what the source writes to them is kept in :attr:`sent` (slot, bytes)."""

    def __init__(self) -> None:
        self.vendor: Vendor | None = None
        self._deliver: Callable[[Notice], None] | None = None
        self.sent: list[tuple[int, bytes]] = []
        self.connected: set[int] = set()

    def start(self, vendor: Vendor, deliver: Callable[[Notice], None]) -> None:
        """Ready: nothing is found until :meth:`connect` says so."""
        self.vendor, self._deliver = vendor, deliver

    def _say(self, notice: Notice) -> None:
        if self._deliver is None:
            raise RuntimeError("the simulated dice were not started")
        self._deliver(notice)

    def connect(self, slot: int) -> None:
        """The die in ``slot`` is found and connected."""
        self.connected.add(slot)
        self._say(Connected(slot, f"sim-{slot}"))

    def notify(self, slot: int, data: bytes) -> None:
        """The die in ``slot`` notifies ``data``."""
        self._say(Data(slot, bytes(data)))

    def lose(self, slot: int) -> None:
        """The die in ``slot`` goes out of range."""
        self.connected.discard(slot)
        self._say(Lost(slot, "out of range"))

    def fail(self, why: str) -> None:
        """Bluetooth is not there at all."""
        self._say(Unavailable(why))

    def send(self, slot: int, data: bytes) -> None:
        """Kept in :attr:`sent` if the die is connected (a real die drops nothing else)."""
        if slot in self.connected:
            self.sent.append((slot, bytes(data)))

    def stop(self) -> None:
        """Every die disconnects."""
        self.connected.clear()
