"""Fixtures: pygame on SDL's dummy video driver, a calibration and a renderer on a plain surface."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)  # display_pixels.py, the pixel helpers

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk.display import Calibration, Renderer  # noqa: E402
from kiosk.display.view import TableView  # noqa: E402

SIZE = (1280, 720)


@pytest.fixture
def calibration() -> Calibration:
    """The default calibration for a 1280x720 screen."""
    return Calibration.default(*SIZE)


@pytest.fixture
def surface() -> pygame.Surface:
    """A surface the size of the screen (no window needed)."""
    pygame.font.init()
    return pygame.Surface(SIZE)


@pytest.fixture
def renderer(surface: pygame.Surface, calibration: Calibration) -> Renderer:
    """A renderer for the default calibration."""
    return Renderer(surface, calibration)


@pytest.fixture
def view() -> TableView:
    """A connected table at the standard starting position, white to play."""
    view = TableView()
    view.connected = True
    view.connection_message = "Table connected"
    return view
