"""Fixtures: the real App on a stepped simulated table over a pty, driven by a virtual clock
(:class:`kiosk.app.stepped.SteppedApp`), once on each kind of table."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.build import build_app  # noqa: E402
from kiosk.app.main import App  # noqa: E402
from kiosk.app.stepped import SteppedApp  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.store.store import ENV_VAR  # noqa: E402


@pytest.fixture(params=["occupancy", "polarity"])
def sensing(request: pytest.FixtureRequest) -> str:
    """How the simulated table senses its men: every app test runs on the table as
    designed (one reed a slot) and on one whose reeds tell the colour, with the same
    verdicts."""
    return str(request.param)


@pytest.fixture
def harness(
    sensing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., SteppedApp]]:
    """Build harnesses (``harness(config, **app_kwargs)``); all are closed after the test.
    The app is built as ``kiosk run`` builds it (kiosk.app.build: its records behind their
    writer, in a file of the test's own) unless the test hands it a store (or its problem)."""
    made: list[SteppedApp] = []
    monkeypatch.delenv(ENV_VAR, raising=False)

    def build(config: Config, **kwargs: object) -> SteppedApp:
        config.table.simulated_sensing = sensing
        if "store" in kwargs or "store_problem" in kwargs:
            h = SteppedApp(lambda **wired: App(config, **wired, **kwargs), config)
        else:
            config.store.path = str(tmp_path / f"table-{len(made)}.sqlite3")
            h = SteppedApp(lambda **wired: build_app(config, **wired, **kwargs), config)
        made.append(h)
        return h

    yield build
    for h in made:
        h.close()
