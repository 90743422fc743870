"""Fixtures running the real firmware core under CPython against a virtual matrix."""

from __future__ import annotations

import pytest

from kiosk.link.protocol import FrameParser, Message
from kiosk.simtable.firmware import load_firmware
from kiosk.simtable.table import VirtualClock, VirtualMatrix


class Bench:
    """The firmware core wired to a virtual matrix, a virtual clock and a captured line."""

    def __init__(self, **options: object) -> None:
        self.layout_module = load_firmware("layout")
        self.layout = self.layout_module.Layout()
        self.matrix = VirtualMatrix(self.layout.switches)
        self.clock = VirtualClock()
        self.sent = bytearray()
        self.parser = FrameParser()
        self.closed: set[int] = set()
        self.firmware = load_firmware("core").TableFirmware(
            self.matrix, self.clock, self.sent.extend, layout=self.layout, **options
        )

    def scan(self, times: int = 1, ms: int = 5) -> list[Message]:
        """Run ``times`` scans ``ms`` apart; returns the messages they sent."""
        for _ in range(times):
            self.clock.us += ms * 1000
            self.matrix.set_closed(self.closed)
            self.firmware.step()
        return self.take()

    def take(self) -> list[Message]:
        """The messages sent since the last call."""
        messages = self.parser.feed(bytes(self.sent))
        self.sent.clear()
        return messages

    def reed(self, location: str, slot: int, black: bool = False) -> int:
        """The switch number of a slot's reed."""
        return self.layout.reed_switch(self.layout.slot_index(location, slot), black)


@pytest.fixture
def make_bench() -> type[Bench]:
    """Builds a firmware core with the given options (fresh from reset)."""
    return Bench


@pytest.fixture
def bench() -> Bench:
    """A firmware core with default settings, already past its first settled picture."""
    rig = Bench()
    rig.scan(3)
    return rig
