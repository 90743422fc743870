"""Issue 36 item 10: small things a reviewer broke. A huge game number for ``kiosk export``
raised OverflowError; ``kiosk export`` on a 0-byte file wrote a schema into it;
``simulate-table``'s ``noise 99999999999`` never ended; ``auto_done_ms = 5`` was accepted
against its stated range; a read-only file system was called a permission problem."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from kiosk.app import doctor
from kiosk.config import ConfigError, load_config_text
from kiosk.simtable import SimulatedTable
from kiosk.simtable.console import execute
from kiosk.store import Store, StoreTroubleError

ROOT = Path(__file__).resolve().parents[1]


def _export(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "export", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_export_of_a_huge_game_number_says_there_is_none(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    Store(path).close()
    run = _export("--db", str(path), "--game", "1" + "0" * 30)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "there is no game 1000000000000000000000000000000" in run.stderr


def test_export_leaves_an_empty_file_empty(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    path.touch()
    run = _export("--db", str(path))
    assert run.returncode == 2 and "is empty" in run.stderr
    assert path.stat().st_size == 0


def test_a_huge_noise_command_is_refused_at_once() -> None:
    with SimulatedTable() as sim:
        reply = execute(sim, "noise 99999999999")
    assert reply.startswith("error: noise takes 0 to 1000000 bytes")


def test_auto_done_ms_keeps_to_its_stated_range() -> None:
    with pytest.raises(ConfigError, match="auto_done_ms: 5 is out of range"):
        load_config_text("[referee]\nauto_done_ms = 5\n")
    assert load_config_text("[referee]\nauto_done_ms = 0\n").referee.auto_done_ms == 0
    assert load_config_text("[referee]\nauto_done_ms = 200\n").referee.auto_done_ms == 200


class _ReadOnly:
    f_flag = os.ST_RDONLY


def test_a_read_only_file_system_is_called_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "table.sqlite3"
    Store(path).close()
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    monkeypatch.setattr(os, "statvfs", lambda p: _ReadOnly())
    with pytest.raises(StoreTroubleError, match="mounted read-only"):
        Store(path)


def test_doctor_does_not_advise_chown_on_a_read_only_file_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", read_only)
    check = doctor.check_database(tmp_path / "table.sqlite3")
    assert not check.ok and "read-only file system" in check.message
    assert "chown" not in check.message


def test_a_scenario_placing_a_man_on_an_unplugged_chattering_table_ends() -> None:
    """``unplug``, ``chatter 5``, ``place``: the hand waited for a reed to settle on a table
    that scans nothing. Run on a thread of its own, so that a hang fails instead."""
    from tests.referee.hands import run

    out: list[list[dict[str, object]]] = []
    worker = threading.Thread(
        target=lambda: out.append(run(["unplug", "chatter 5", "place 6 white", "replug"])),
        daemon=True,
    )
    worker.start()
    worker.join(60)
    assert out, "the scenario never ended"
