"""The class companion under the hardened unit (issue 30, item 3): the kiosk's service keeps
``PrivateNetwork=yes`` while the companion is off, and a drop-in lifts it while the
companion is on, written or removed by deploy/companion-network.sh as the configuration's
``[companion] enabled`` says (run by a path unit when the installer's switch at the table
changes the file). ``systemd-analyze security --offline`` rates both at 2.0 or less."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "backgammon-table.service"
DROPIN = DEPLOY / "companion-network.conf"
SCRIPT = DEPLOY / "companion-network.sh"
MAX_EXPOSURE = 2.0


def _settings(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def _exposure(root: Path) -> float:
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", f"--root={root}", UNIT.name],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout + done.stderr)
    assert match, done.stdout + done.stderr
    return float(match.group(1))


def test_the_drop_in_lifts_the_private_network_and_nothing_else() -> None:
    unit, dropin = _settings(UNIT.read_text()), _settings(DROPIN.read_text())
    assert unit["PrivateNetwork"] == ["yes"] and unit["IPAddressDeny"] == ["any"]
    assert dropin["PrivateNetwork"] == ["no"]
    assert set(dropin) == {"PrivateNetwork", "IPAddressAllow"}  # the rest of the sandbox stays
    allowed = dropin["IPAddressAllow"][0].split()
    assert "any" not in allowed and "localhost" in allowed and "192.168.0.0/16" in allowed


def test_the_path_unit_watches_the_file_the_kiosk_reads() -> None:
    environment = dict(
        value.split("=", 1) for value in _settings(UNIT.read_text())["Environment"]
    )
    path = _settings((DEPLOY / "backgammon-table-companion.path").read_text())
    assert path["PathChanged"] == [environment["BACKGAMMON_TABLE_CONFIG"]]
    service = _settings((DEPLOY / "backgammon-table-companion.service").read_text())
    assert service["ExecStart"] == ["/opt/backgammon-table/deploy/companion-network.sh"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_rates_the_unit_at_most_two_with_the_companion_off_or_on(tmp_path: Path) -> None:
    units = tmp_path / "etc" / "systemd" / "system"
    units.mkdir(parents=True)
    shutil.copy(UNIT, units)
    off = _exposure(tmp_path)
    (units / f"{UNIT.name}.d").mkdir()
    shutil.copy(DROPIN, units / f"{UNIT.name}.d")
    on = _exposure(tmp_path)
    assert off <= MAX_EXPOSURE and on <= MAX_EXPOSURE
    assert on > off  # the drop-in is read: the network costs something


def _switch(tmp_path: Path, enabled: str) -> tuple[str, list[str]]:
    config = tmp_path / "config.toml"
    config.write_text(f"[companion]\nenabled = {enabled}\nteacher_pin = \"482913\"\n")
    calls = tmp_path / "calls"
    systemctl = tmp_path / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    systemctl.chmod(0o755)
    calls.unlink(missing_ok=True)
    done = subprocess.run(
        ["bash", str(SCRIPT)],
        env={
            **os.environ,
            "BACKGAMMON_TABLE_CONFIG": str(config),
            "UNIT_DIR": str(tmp_path / "units"),
            "PYTHON": sys.executable,
            "SYSTEMCTL": str(systemctl),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, calls.read_text().splitlines() if calls.exists() else []


def test_the_switch_gives_and_takes_the_network_and_restarts_only_on_a_change(
    tmp_path: Path,
) -> None:
    installed = tmp_path / "units" / "backgammon-table.service.d" / "companion-network.conf"
    said, calls = _switch(tmp_path, "true")
    assert installed.read_text() == DROPIN.read_text()
    assert "companion is on" in said
    assert calls == ["daemon-reload", "try-restart backgammon-table.service"]
    said, calls = _switch(tmp_path, "true")  # nothing changed: the kiosk is left alone
    assert installed.exists() and calls == []
    said, calls = _switch(tmp_path, "false")
    assert not installed.exists() and "no network but its loopback" in said
    assert calls == ["daemon-reload", "try-restart backgammon-table.service"]
    said, calls = _switch(tmp_path, "maybe")  # a value the kiosk refuses: its default, off
    assert not installed.exists() and calls == []
