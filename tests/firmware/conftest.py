"""Fixtures running the real firmware core under CPython against a virtual matrix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kiosk.link.frames import BoardFrame, decode_frame
from kiosk.link.protocol import FrameParser, Message
from kiosk.simtable.firmware import load_firmware
from kiosk.simtable.micropython import HEAP_BYTES, MicroPython
from kiosk.simtable.table import VirtualClock, VirtualMatrix
from kiosk.table.layout import TableLayout

# The vectors' modules import the firmware as the harness puts it on the path: they are
# run by the vector tests, not collected on their own (their docstrings hold no examples).
collect_ignore = ["cases.py", "board_cases.py"]


class Bench:
    """The firmware core wired to a virtual matrix, a virtual clock and a captured line.

    The table is the one designed (occupancy sensing, one reed a slot) unless ``sensing``
    asks for another; the kiosk's ``table_layout`` matches it, to decode the frames.
    """

    def __init__(self, sensing: str | None = None, **options: object) -> None:
        self.layout_module = load_firmware("layout")
        if sensing is None:
            self.layout = self.layout_module.Layout()
        else:
            self.layout = self.layout_module.Layout(sensing=sensing)
        self.table_layout = TableLayout(sensing=self.layout.sensing)
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

    def frames(self, messages: list[Message]) -> list[BoardFrame]:
        """The board frames among ``messages``, decoded as the kiosk decodes them."""
        return [
            decode_frame(m.seq, m.payload, self.table_layout) for m in messages if m.kind == "F"
        ]


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


@pytest.fixture
def polarity_bench() -> Bench:
    """A firmware core on a table built to sense colour (``Layout(sensing="polarity")``:
    two reeds a slot), already past its first settled picture."""
    rig = Bench(sensing="polarity")
    rig.scan(3)
    return rig


_MICROPYTHON: dict = {}


@pytest.fixture(scope="session")
def micropython_results() -> dict:
    """Every vector of ``cases.py`` and ``board_cases.py`` run under real MicroPython, in a
    Pico-sized heap (``HEAP_BYTES``): a vector after which the heap has grown past it fails.

    ``{module: {case name: None or the error}}``; skipped only when Node.js is missing.
    """
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed: the firmware's vectors cannot run under MicroPython")
    if not _MICROPYTHON:
        here = Path(__file__).resolve().parent
        with MicroPython([here / "fakes", here], heap_bytes=HEAP_BYTES) as interpreter:
            _MICROPYTHON["version"] = interpreter.version
            for module in ("cases", "board_cases"):
                names = json.loads(interpreter.call(f"list {module}"))
                _MICROPYTHON[module] = {
                    name: json.loads(interpreter.call(f"case {module} {name}")) for name in names
                }
    return _MICROPYTHON


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many firmware vectors ran under MicroPython."""
    if not _MICROPYTHON:
        return
    results = [
        error for key, value in _MICROPYTHON.items() if key != "version" for error in value.values()
    ]
    passed = sum(error is None for error in results)
    terminalreporter.write_line(
        f"firmware vectors under MicroPython {_MICROPYTHON['version']} (WebAssembly port): "
        f"{len(results)} ran, {passed} passed"
    )
