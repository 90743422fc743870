"""The ``[display] render`` setting: a 4K screen drawn at 1920x1080 for the GPU to scale up
shows the same picture as drawn at 4K (the board, men and panels where they are, each
pixel doubled); a 1080p screen is drawn at its own size; a bad value is one clear line."""

from __future__ import annotations

import pygame
import pytest
from display_views import illegal

from kiosk.config import ConfigError, DisplaySection, load_config_text
from kiosk.display import Calibration, Display, Renderer
from kiosk.display.screen import drawing_size

UHD = (3840, 2160)


def test_the_size_drawn_at() -> None:
    assert drawing_size(*UHD, "auto") == (1920, 1080)
    assert drawing_size(*UHD, "native") == UHD
    assert drawing_size(1920, 1080, "auto") == (1920, 1080)
    assert drawing_size(1280, 720, "1080p") == (1280, 720)  # never drawn larger than the screen
    assert drawing_size(2560, 1600, "auto") == (1728, 1080)  # the screen's shape kept


def test_a_4k_screen_drawn_at_1080p_shows_the_4k_picture() -> None:
    """The picture drawn at 1920x1080 and scaled up (as the GPU does) is the one drawn at 4K
    but at thin lines' edges and where a font's size rounds to another line break (looked
    at: the same board, men, marks and panels in the same places)."""
    pygame.font.init()
    native = pygame.Surface(UHD)
    Renderer(native, Calibration.default(*UHD)).draw(illegal(), 0)
    display = Display(
        Calibration.default(*UHD), fullscreen=False, headless=True, settings=DisplaySection()
    )
    try:
        assert display.surface.get_size() == (1920, 1080)
        assert display.screen_size == UHD
        display.frame(illegal(), 0)
        scaled = pygame.transform.scale(display.surface, UHD)
    finally:
        display.close()
    small = pygame.transform.smoothscale(native, (384, 216))  # 10x10 blocks: shapes, not edges
    other = pygame.transform.smoothscale(scaled, (384, 216))

    def apart(x: int, y: int) -> int:
        one, two = small.get_at((x, y)), other.get_at((x, y))
        return max(abs(one.r - two.r), abs(one.g - two.g), abs(one.b - two.b))

    far = sum(1 for x in range(384) for y in range(216) if apart(x, y) > 48)
    assert far < 384 * 216 * 0.05, f"{far} of {384 * 216} blocks differ"


def test_native_draws_at_the_screens_size() -> None:
    settings = DisplaySection(render="native")
    display = Display(Calibration.default(*UHD), fullscreen=False, headless=True, settings=settings)
    try:
        assert display.surface.get_size() == UHD
        assert display.calibration.width == UHD[0]
    finally:
        display.close()


def test_render_is_read_and_a_bad_value_is_one_line() -> None:
    assert load_config_text('[display]\nrender = "native"\n').display.render == "native"
    assert load_config_text("").display.render == "auto"
    with pytest.raises(ConfigError) as err:
        load_config_text('[display]\nrender = "4k"\n')
    assert str(err.value).startswith("[display] render: '4k' is not allowed; allowed: \"auto\"")
    assert "\n" not in str(err.value)
