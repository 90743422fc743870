"""Atomic file writes: the old file or the new one, never half of either."""

from pathlib import Path

import pytest

from kiosk.files import write_atomically


def test_replaces_the_file_and_leaves_no_temporary_behind(tmp_path: Path) -> None:
    target = tmp_path / "config.toml"
    target.write_text("old = 1\n")
    write_atomically(target, "new = 2\n")
    assert target.read_text() == "new = 2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "calibration.toml"
    target.write_text("old = 1\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(target, "bad = '\udcff'\n")  # cannot be encoded: the write fails
    assert target.read_text() == "old = 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["calibration.toml"]

