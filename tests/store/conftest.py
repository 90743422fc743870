"""Fixtures: a fresh record file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's record file lives (not yet created)."""
    return tmp_path / "records" / "table.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    """An open store on a new file, closed after the test."""
    with Store(db_path) as opened:
        yield opened
