"""Issue 35, item 10: `make run` is for a player, and says nothing about the developers'
browser tests (Debian's chromium is named by `make test`, which skips those tests without
it). Read from make's dry run: nothing is run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def dry_run(target: str) -> str:
    done = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_says_nothing_of_the_browser_tests_and_make_test_does() -> None:
    assert "chromium" not in dry_run("run").lower()
    assert "chromium is not installed" in dry_run("test")
