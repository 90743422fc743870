"""The firmware's own test vectors (``cases.py``, ``board_cases.py``) under both interpreters.

Each vector runs once under CPython and once under real MicroPython (the WebAssembly
port that ``make install`` puts in ``.node/``); the summary at the end of the run says how
many ran under MicroPython. Without Node.js the MicroPython half is skipped, saying so.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kiosk.simtable.firmware import FIRMWARE_DIR, load_firmware

HERE = Path(__file__).resolve().parent
FAKES = HERE / "fakes"
MODULES = ("cases", "board_cases")


def _import(name: str) -> ModuleType:
    load_firmware("core")
    for path in (HERE, FAKES, FIRMWARE_DIR):
        if str(path) not in sys.path:
            sys.path.append(str(path))
    return importlib.import_module(name)


def _vectors() -> list[tuple[str, str]]:
    return [
        (module, name)
        for module in MODULES
        for name in sorted(dir(_import(module)))
        if name.startswith("case_")
    ]


VECTORS = _vectors()
IDS = [f"{module}.{name[5:]}" for module, name in VECTORS]


@pytest.mark.parametrize(("module", "name"), VECTORS, ids=IDS)
def test_under_cpython(module: str, name: str) -> None:
    getattr(_import(module), name)()


@pytest.mark.parametrize(("module", "name"), VECTORS, ids=IDS)
def test_under_micropython(micropython_results: dict, module: str, name: str) -> None:
    error = micropython_results[module].get(name, "the vector did not run under MicroPython")
    if error:
        pytest.fail(f"under MicroPython:\n{error}", pytrace=False)


def test_micropython_ran_every_vector(micropython_results: dict) -> None:
    ran = {(module, name) for module in MODULES for name in micropython_results[module]}
    assert ran == set(VECTORS)
