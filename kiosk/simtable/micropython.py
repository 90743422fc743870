"""Real MicroPython for the table's firmware: the WebAssembly port, run by Node.

``make install`` puts the port (npm's ``@micropython/micropython-webassembly-pyscript``)
in ``.node/``. ``MicroPython`` runs one interpreter in a Node process with the firmware
on its path and talks to ``mpy/host.py`` inside it one line at a time. ``MicroPythonCore``
stands in for the ``bgtable.core`` module: its ``TableFirmware`` has the same
constructor and methods, but the firmware it drives runs under MicroPython.
"""

from __future__ import annotations

import binascii
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kiosk.errors import TableError
from kiosk.simtable.firmware import FIRMWARE_DIR

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNTIME_ENV = "BGTABLE_MICROPYTHON"
HOST_DIR = Path(__file__).resolve().parent / "mpy"
HEAP_BYTES = 192 * 1024  # about what a Pico's MicroPython has free for the firmware


class MicroPythonError(TableError, RuntimeError):
    """MicroPython cannot be started, or the code it runs raised."""


def runtime_path() -> Path:
    """Where the port's ``micropython.mjs`` is (``$BGTABLE_MICROPYTHON`` overrides)."""
    configured = os.environ.get(RUNTIME_ENV)
    if configured:
        return Path(configured)
    return ROOT / ".node" / "node_modules" / PACKAGE / "micropython.mjs"


def unavailable() -> str | None:
    """Why MicroPython cannot run here, in words; ``None`` when it can."""
    if shutil.which("node") is None:
        return "Node.js is not installed (MicroPython's WebAssembly port runs under node)"
    if not runtime_path().exists():
        return f"MicroPython is not installed at {runtime_path()} (run make install)"
    return None


class MicroPython:
    """One MicroPython interpreter in a Node process, answering ``host.py`` requests."""

    def __init__(self, paths: Sequence[Path] = (), heap_bytes: int = HEAP_BYTES) -> None:
        reason = unavailable()
        if reason:
            raise MicroPythonError(reason)
        dirs = [str(HOST_DIR), str(FIRMWARE_DIR), *map(str, paths)]
        self._lock = threading.Lock()
        self._process = subprocess.Popen(
            ["node", str(HOST_DIR / "host.mjs"), str(runtime_path()), str(heap_bytes), *dirs],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            text=True,
            bufsize=1,
        )
        first = self._read()
        if not first.startswith("ready "):
            self.close()
            raise MicroPythonError(f"MicroPython did not start: {first or 'no answer'}")
        runtime = json.loads(first[len("ready ") :])
        self.name: str = runtime["name"]
        self.version = ".".join(str(n) for n in runtime["version"][:3])

    def _read(self) -> str:
        assert self._process.stdout is not None
        return self._process.stdout.readline().rstrip("\n")

    def call(self, request: str) -> str:
        """Send one request line; its answer (``MicroPythonError`` if Python raised)."""
        with self._lock:
            stdin = self._process.stdin
            if stdin is None or self._process.poll() is not None:
                raise MicroPythonError("MicroPython has stopped")
            try:
                stdin.write(request + "\n")
                stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                raise MicroPythonError(f"MicroPython has stopped: {exc}") from None
            answer = self._read()
        if answer.startswith("!") or (not answer and self._process.poll() is not None):
            raise MicroPythonError(answer[1:] or "MicroPython stopped without an answer")
        return answer

    def close(self) -> None:
        """Stop the interpreter."""
        stop(self._process)

    def __enter__(self) -> MicroPython:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MicroPythonFirmware:
    """``bgtable.core.TableFirmware`` run by MicroPython, with the same interface.

    The matrix and clock stay in this process: each ``step()`` sends the rows as they
    read now (only when they changed) and the clock's time, and what the firmware wrote
    comes back and goes to ``write``.
    """

    def __init__(
        self,
        interpreter: MicroPython,
        matrix: Any,
        clock: Any,
        write: Callable[[bytes], object],
        layout: Any,
        **options: object,
    ) -> None:
        self._mp = interpreter
        self._matrix = matrix
        self._clock = clock
        self._write = write
        self._rows: list[int] | None = None
        spec = {
            "layout": [layout.point_slots, layout.bar_slots, layout.tray_slots],
            "sensing": layout.sensing,
            "rows": matrix.rows,
            "columns": matrix.columns,
            "now": clock.ticks_ms(),
            "options": options,
        }
        self._mp.call("firmware " + json.dumps(spec))

    def _out(self, answer: str) -> None:
        if answer:
            self._write(binascii.unhexlify(answer))

    def start(self) -> None:
        """Announce the firmware (its identify)."""
        self._out(self._mp.call("start"))

    def step(self) -> None:
        """One scan of the matrix as it reads now."""
        rows = list(self._matrix.scan())
        words = "-" if rows == self._rows else ",".join(f"{row:x}" for row in rows)
        self._rows = rows
        wells = ",".join(f"{mask:x}" for mask in self._matrix.wells())
        answer = self._mp.call(
            f"step {self._clock.ticks_ms()} {words} {self._matrix.idle():x} {wells}"
        )
        self._out(answer)

    def feed(self, data: bytes) -> None:
        """Hand the firmware bytes from the host."""
        self._out(self._mp.call("feed " + data.hex()))

    def _stat(self, name: str) -> int:
        return int(json.loads(self._mp.call("stats"))[name])

    @property
    def scans(self) -> int:
        """Scans since the start."""
        return self._stat("scans")

    @property
    def bounces(self) -> int:
        """Candidate changes that did not last the debounce time."""
        return self._stat("bounces")

    @property
    def faults(self) -> int:
        """Slots seen with both reeds closed."""
        return self._stat("faults")

    @property
    def rx_errors(self) -> int:
        """Host bytes that formed no valid command."""
        return self._stat("rx_errors")

    @property
    def tx_dropped(self) -> int:
        """Messages the firmware dropped because the line would not take them."""
        return self._stat("tx_dropped")

    @property
    def overruns(self) -> int:
        """Scans that started late."""
        return self._stat("overruns")

    @overruns.setter
    def overruns(self, value: int) -> None:
        self._mp.call(f"add overruns {value - self.overruns}")


class MicroPythonCore:
    """Stands in for the ``bgtable.core`` module: its firmware runs under MicroPython."""

    def __init__(self, interpreter: MicroPython | None = None) -> None:
        self.interpreter = interpreter or MicroPython()

    def TableFirmware(  # noqa: N802 - mirrors bgtable.core.TableFirmware
        self, matrix: Any, clock: Any, write: Callable[[bytes], object], **options: Any
    ) -> MicroPythonFirmware:
        """A firmware under MicroPython (one at a time: a new one replaces the last)."""
        layout = options.pop("layout")
        return MicroPythonFirmware(self.interpreter, matrix, clock, write, layout, **options)

    def close(self) -> None:
        """Stop the interpreter."""
        self.interpreter.close()


def stop(process: subprocess.Popen[str]) -> None:
    """End a child that reads requests on its standard input: its input closed, five seconds
    to finish, then killed; its output closed."""
    if process.poll() is None:
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdout is not None:
        process.stdout.close()
