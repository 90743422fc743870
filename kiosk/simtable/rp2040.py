"""The table's scan board on an emulated RP2040: the real firmware image in the loop.

``firmware/chip/build-image.sh`` builds MicroPython's rp2 image for the Pico from Debian's
packaged sources into the machine's cache; ``make install`` puts the emulator (npm's
``rp2040js``) in ``.node-rp2040/``. ``Chip`` boots that image under Node with the
firmware on its LittleFS (``main.py``, ``board.py`` and ``lib/bgtable``, as the README's
``mpremote cp`` puts them) and the board's parts modelled at the pins ``firmware/board.py``
names (``chip/rp2040-table.mjs``): the 74HC595 row chain, the column inputs, the wells'
74HC165 chain, the maintenance jumper and the LED. Its USB CDC port is the host's line.
The chip's time is emulated and moves only in ``run``.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.simtable.firmware import FIRMWARE_DIR, load_firmware
from kiosk.simtable.micropython import MicroPythonError, stop

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parent / "chip" / "rp2040-table.mjs"
IMAGE_ENV = "BGTABLE_RP2_IMAGE"
EMULATOR_ENV = "BGTABLE_RP2040JS"
IMAGE_NAME = "rp2-pico-1.25.0"


class ChipError(MicroPythonError):
    """The emulated chip (its MicroPython) cannot be started, or stopped answering."""


def cache_dir() -> Path:
    """The machine-wide cache the image is built into."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "backgammon-table"


def image_dir() -> Path:
    """The folder with ``firmware.bin``, ``bootrom.bin`` and ``image.json``."""
    configured = os.environ.get(IMAGE_ENV)
    return Path(configured) if configured else cache_dir() / IMAGE_NAME


def emulator_dir() -> Path:
    """The ``rp2040js`` package folder (``$BGTABLE_RP2040JS`` overrides)."""
    configured = os.environ.get(EMULATOR_ENV)
    if configured:
        return Path(configured)
    return ROOT / ".node-rp2040" / "node_modules" / "rp2040js"


def unavailable() -> str | None:
    """Why the emulated chip cannot run here, in words; ``None`` when it can."""
    if shutil.which("node") is None:
        return "Node.js is not installed (the RP2040 emulator rp2040js runs under node)"
    if not (emulator_dir() / "package.json").exists():
        return f"the RP2040 emulator is not installed at {emulator_dir()} (run make install)"
    if not (image_dir() / ".done").exists() or not (image_dir() / "image.json").exists():
        log = image_dir() / "build.log"
        tried = f"; no build has finished there, see {log}" if log.exists() else ""
        return (
            f"no MicroPython rp2 image at {image_dir()} "
            f"(firmware/chip/build-image.sh builds it, as root; make install runs it){tried}"
        )
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed (make install)"
    return None


def board_constants(board: Path | None = None) -> dict[str, int]:
    """The integer constants ``firmware/board.py`` sets at module level (pins, sizes)."""
    tree = ast.parse((board or FIRMWARE_DIR / "board.py").read_text())
    found: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Constant):
                if isinstance(node.value.value, int):
                    found[target.id] = node.value.value
    return found


def firmware_files(firmware: Path | None = None) -> dict[str, bytes]:
    """The files the Pico's LittleFS holds, by their path there."""
    source = firmware or FIRMWARE_DIR
    files = {"/main.py": (source / "main.py").read_bytes()}
    files["/board.py"] = (source / "board.py").read_bytes()
    files["/fast.py"] = (source / "fast.py").read_bytes()
    for module in sorted((source / "bgtable").glob("*.py")):
        files[f"/lib/bgtable/{module.name}"] = module.read_bytes()
    return files


def filesystem_image(files: dict[str, bytes], geometry: dict[str, int]) -> bytes:
    """A LittleFS image of ``files`` laid out as the image's ``_boot.py`` mounts it."""
    from littlefs import LittleFS

    block = geometry["block_size"]
    fs = LittleFS(
        block_size=block,
        block_count=geometry["storage_bytes"] // block,
        prog_size=geometry["prog_size"],
        read_size=32,
        lookahead_size=32,
        block_cycles=100,
    )
    for path, data in files.items():
        parts = path.strip("/").split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            try:
                fs.mkdir(folder)
            except FileExistsError:
                pass
        with fs.open(path.strip("/"), "wb") as handle:
            handle.write(data)
    return bytes(fs.context.buffer)


@dataclass
class Ran:
    """What ``Chip.run`` saw: the chip's clock after it, and the bytes its USB port sent."""

    t_us: int
    out: bytes
    led_changes: int


#: A 74HC165's parallel inputs.
CHIP_INPUTS = 8


def well_inputs(constants: dict[str, int]) -> list[list[int]]:
    """For each dice well, the chain input each of its cells is wired to, as
    ``board.DiodeMatrix.wells`` reads them: well ``w``'s ring cells (``RING_MASK``) on the
    ``w``-th 74HC165 of the chain, the wells' centres on the last chip, one input a well."""
    ring = bin(constants["RING_MASK"]).count("1")
    wells = constants["WELL_BITS"] // CHIP_INPUTS - 1
    centres = wells * CHIP_INPUTS
    return [[w * CHIP_INPUTS + c for c in range(ring)] + [centres + w] for w in range(wells)]


class Chip:
    """One emulated scan board, booted from power-on (``maintenance``: jumper fitted)."""

    def __init__(
        self,
        *,
        maintenance: bool = False,
        files: dict[str, bytes] | None = None,
        board: Path | None = None,
    ) -> None:
        reason = unavailable()
        if reason:
            raise ChipError(reason)
        image = image_dir()
        geometry = json.loads((image / "image.json").read_text())
        constants = board_constants(board)
        self.constants = constants
        self._dir = tempfile.mkdtemp(prefix="bgtable-rp2040-")
        fs_path = Path(self._dir) / "littlefs.img"
        fs_path.write_bytes(filesystem_image(files or firmware_files(), geometry))
        config = {
            "rp2040js": str(emulator_dir()),
            "bootrom": str(image / "bootrom.bin"),
            "firmware": str(image / "firmware.bin"),
            "filesystem": str(fs_path),
            "storage_base": geometry["storage_base"],
            "rows": constants["ROWS"],
            "columns": constants["COLUMNS"],
            "well_bits": constants["WELL_BITS"],
            "well_inputs": well_inputs(constants),
            "maintenance": maintenance,
            "pins": {
                "ser": constants["PIN_SER"],
                "srclk": constants["PIN_SRCLK"],
                "rclk": constants["PIN_RCLK"],
                "first_column": constants["PIN_FIRST_COLUMN"],
                "maintenance": constants["PIN_MAINTENANCE"],
                "led": constants["PIN_LED"],
                "well_load": constants["PIN_WELL_LOAD"],
                "well_clock": constants["PIN_WELL_CLOCK"],
                "well_data": constants["PIN_WELL_DATA"],
            },
        }
        config_path = Path(self._dir) / "config.json"
        config_path.write_text(json.dumps(config))
        self._lock = threading.Lock()
        self._log = Path(self._dir) / "emulator.log"
        with self._log.open("wb") as log:
            self._process = subprocess.Popen(
                ["node", str(HARNESS), str(config_path)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                bufsize=1,
            )
        self.t_us = 0

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            stdin, stdout = self._process.stdin, self._process.stdout
            if stdin is None or stdout is None or self._process.poll() is not None:
                raise ChipError("the emulated RP2040 has stopped")
            try:
                stdin.write(json.dumps(request) + "\n")
                stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                raise ChipError(f"the emulated RP2040 has stopped: {exc}") from None
            line = stdout.readline()
        if not line:
            self._process.wait(5)
            said = self._log.read_text(errors="replace").strip().splitlines()[-3:]
            raise ChipError("the emulated RP2040 stopped: " + (" / ".join(said) or "no answer"))
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise ChipError(str(answer["error"]))
        return answer

    def run(self, us: int) -> Ran:
        """Run ``us`` microseconds of the chip's time; what its USB port sent meanwhile."""
        answer = self._call({"op": "run", "us": int(us)})
        self.t_us = int(answer["t"])
        return Ran(self.t_us, bytes.fromhex(answer["out"]), int(answer["led"]))

    def set_closed(self, switches: Iterable[int]) -> None:
        """Close exactly the reeds numbered ``switches`` (the firmware's switch numbers)."""
        self._call({"op": "closed", "switches": sorted(set(switches))})

    def set_wells(self, cells: Sequence[int]) -> None:
        """Each dice well's Hall switches that are on, as a cell mask (bit set = on)."""
        self._call({"op": "wells", "cells": [int(c) for c in cells]})

    def send(self, data: bytes) -> None:
        """Bytes from the host to the table's USB serial port."""
        if data:
            self._call({"op": "send", "data": data.hex()})

    def set_stuck(self, columns: int) -> None:
        """Columns that read closed whatever row is selected (a shorted line), as a mask."""
        self._call({"op": "stuck", "columns": int(columns)})

    def stall(self, on: bool) -> None:
        """The host stops reading its port (``True``) or reads again."""
        self._call({"op": "stall", "on": bool(on)})

    def close(self) -> None:
        """Power the chip off."""
        stop(self._process)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> Chip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BOOT_US = 3_000_000  # a chip that has not said its identify by then has failed to start
ANSWER_US = 50_000  # chip time run at most after host bytes arrive, for the answer to leave
ANSWER_STEP_US = 2_000
QUIET_US = 4_000  # a loop of the firmware (250 Hz) with nothing more to send


class ChipFirmware:
    """The firmware on an emulated chip, with ``bgtable.core.TableFirmware``'s interface.

    Built at power-on: the chip boots until its identify has left. ``step()`` shows the
    chip the matrix as it reads now and runs one period of the simulated table's clock;
    ``feed()`` hands the chip host bytes and runs it ``ANSWER_US`` so that the answer
    leaves (the chip keeps its own time, which moves only here). Whole messages go to
    ``write``, one a call. The firmware's settings are those of ``firmware/board.py``.
    """

    def __init__(
        self,
        matrix: Any,
        clock: Any,
        write: Callable[[bytes], object],
        scan_hz: int = 200,
        **options: object,
    ) -> None:
        self.matrix = matrix
        self.write = write
        self._period_us = 1_000_000 // scan_hz
        self._pending = bytearray()
        self._closed: list[int] | None = None
        self._wells: list[int] | None = None
        self._stuck = 0
        self.overruns = 0  # the simulation's own late steps (the chip counts its own)
        self.chip = Chip()
        constants = self.chip.constants
        if matrix.columns != constants["COLUMNS"]:
            self.chip.close()
            raise ChipError(f"the board has {constants['COLUMNS']} columns, not {matrix.columns}")
        self._show()
        booted = self.chip.t_us
        while b"$I" not in self._pending:
            if self.chip.t_us - booted > BOOT_US:
                self.chip.close()
                raise ChipError("the emulated RP2040 did not announce its firmware")
            self._pending += self.chip.run(10_000).out

    def _show(self) -> None:
        rows = self.matrix.scan()
        columns = self.matrix.columns
        closed = [
            row * columns + bit
            for row, mask in enumerate(rows)
            for bit in range(columns)
            if mask >> bit & 1
        ]
        if closed != self._closed:
            self.chip.set_closed(closed)
            self._closed = closed
        wells = list(self.matrix.wells())
        if wells != self._wells:
            self.chip.set_wells(wells)
            self._wells = wells
        stuck = int(self.matrix.idle())
        if stuck != self._stuck:
            self.chip.set_stuck(stuck)
            self._stuck = stuck

    def _run(self, us: int) -> int:
        """Run the chip ``us``; hand on the whole messages it sent; how many."""
        self._pending += self.chip.run(us).out
        end = self._pending.rfind(b"\n")
        if end < 0:
            return 0
        done = bytes(self._pending[: end + 1])
        del self._pending[: end + 1]
        lines = done.split(b"\n")[:-1]
        for line in lines:
            self.write(line + b"\n")
        return len(lines)

    def start(self) -> None:
        """Send what the chip said at boot (its identify)."""
        self._run(0)

    def step(self) -> None:
        """The matrix as it reads now, then one period of chip time."""
        self._show()
        self._run(self._period_us)

    def feed(self, data: bytes) -> None:
        """Bytes from the host to the chip's USB port; the chip runs until it has answered
        (messages have left and then a scan period passed with nothing more part-way out)
        or for ``ANSWER_US`` at most."""
        self.chip.send(data)
        sent = quiet = 0
        for _ in range(ANSWER_US // ANSWER_STEP_US):
            new = self._run(ANSWER_STEP_US)
            sent += new
            quiet = 0 if new or self._pending else quiet + ANSWER_STEP_US
            if sent and quiet >= QUIET_US:
                return

    def close(self) -> None:
        """Power the chip off."""
        self.chip.close()


class ChipCore:
    """Stands in for the ``bgtable.core`` module: its firmware runs on an emulated chip.

    A new firmware (the table plugged in again) powers the last chip off and boots a
    fresh one. The chip runs ``firmware/board.py`` as it is: its layout is the designed one.
    Booting takes the emulator seconds of real time, so ``prepare`` boots the next chip
    while the cable is still in (showing it the matrix as it reads then) and the next
    ``TableFirmware`` takes that chip, as fast as a table that boots at once.
    """

    def __init__(self) -> None:
        reason = unavailable()
        if reason:
            raise ChipError(reason)
        self._firmware: ChipFirmware | None = None
        self._spare: ChipFirmware | None = None

    def TableFirmware(  # noqa: N802 - mirrors bgtable.core.TableFirmware
        self, matrix: Any, clock: Any, write: Callable[[bytes], object], **options: Any
    ) -> ChipFirmware:
        """Power a chip up with the firmware on it."""
        layout = options.pop("layout")
        designed = load_firmware("layout").Layout()
        if (layout.slots, layout.sensing) != (designed.slots, designed.sensing):
            raise ChipError(
                "the RP2040 image runs firmware/board.py, which scans the designed table "
                f"({designed.wire()}, {designed.sensing}), not {layout.wire()}, {layout.sensing}"
            )
        if self._firmware is not None:
            self._firmware.close()
        spare, self._spare = self._spare, None
        if spare is not None and spare.matrix is matrix:
            spare.write = write
            self._firmware = spare
        else:
            if spare is not None:
                spare.close()
            self._firmware = ChipFirmware(matrix, clock, write, **options)
        return self._firmware

    def prepare(self, matrix: Any, clock: Any, **options: Any) -> None:
        """Boot the chip the next ``TableFirmware`` on ``matrix`` will take."""
        options.pop("layout", None)
        if self._spare is None:
            self._spare = ChipFirmware(matrix, clock, lambda data: True, **options)

    def close(self) -> None:
        """Power the chips off."""
        for firmware in (self._firmware, self._spare):
            if firmware is not None:
                firmware.close()
        self._firmware = self._spare = None
