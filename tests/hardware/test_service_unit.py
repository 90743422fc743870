"""The kiosk's systemd unit: always restarted, waiting for nothing deprecated, and sandboxed
to an exposure of 4.0 or less as ``systemd-analyze security --offline`` rates it, with its
own code read-only and only the kiosk's data folders writable."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk.config import Config

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "backgammon-table.service"
INSTALL = ROOT / "deploy" / "INSTALL.md"
HOME = Path("/home/backgammon")
MAX_EXPOSURE = 4.0


def settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#") and not line.startswith("["):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_it_always_comes_back_and_waits_for_no_udev_settle() -> None:
    unit = settings()
    assert unit["Restart"] == ["always"]
    assert "udev-settle" not in UNIT.read_text()
    assert unit["UMask"] == ["0077"]


def test_only_the_kiosks_data_is_writable() -> None:
    unit = settings()
    assert unit["ProtectSystem"] == ["strict"]  # /opt/backgammon-table, the code: read-only
    assert unit["ProtectHome"] == ["read-only"]
    writable = {Path(path.lstrip("-")) for path in unit["ReadWritePaths"]}
    defaults = Config()
    config_dir = HOME / ".config" / "backgammon-table"
    store_dir = Path(defaults.store.path.replace("~", str(HOME))).parent
    assert writable == {config_dir, store_dir, HOME / ".gnubg"}
    assert all(not str(path).startswith("/opt") for path in writable)
    environment = dict(value.split("=", 1) for value in unit["Environment"])
    assert Path(environment["BACKGAMMON_TABLE_CONFIG"]).parent == config_dir
    step6 = re.search(r"## 6\..*?```sh\n(.*?)```", INSTALL.read_text(), re.S)
    assert step6 and all(str(path) in step6.group(1) for path in writable)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_rates_its_exposure_at_most_four() -> None:
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout + done.stderr)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE, done.stdout
