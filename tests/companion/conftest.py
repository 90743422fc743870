"""Fixtures: live tables with the companion attached, and Debian's headless Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.config import Config
from kiosk.store.store import ENV_VAR
from tests.companion.live import CHROMIUM, CHROMIUM_FLAGS, PIN, Clock, LiveTable


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., LiveTable]]:
    """Build live tables (``live(**companion_settings)``); all are closed after the test. The
    simulated table is the table as designed (one reed a slot) unless ``sensing`` asks for
    another (``"polarity"``: reeds that see each man's colour)."""
    made: list[LiveTable] = []
    monkeypatch.delenv(ENV_VAR, raising=False)  # the records are the test's own

    def build(sensing: str | None = None, **settings: Any) -> LiveTable:
        config = Config()
        if sensing is not None:
            config.table.simulated_sensing = sensing
        config.referee.settle_ms = 200
        config.dice.source = "wells"
        config.tutor.evaluator = "builtin"
        config.speech.enabled = False
        companion = config.companion
        companion.enabled = True
        companion.teacher_pin = PIN
        companion.address = "127.0.0.1"
        companion.port = 0  # a free port
        for key, value in settings.items():
            setattr(companion, key, value)
        config.store.path = str(tmp_path / f"table-{len(made)}.sqlite3")
        table = LiveTable(config, Clock())
        made.append(table)
        return table

    yield build
    for table in made:
        table.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (its own browser download is not
    used: ``.ci/run`` installs the chromium package)."""
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()
