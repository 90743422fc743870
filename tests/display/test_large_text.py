"""Large text: ``[display] large_text``, the settings menu's switch, and words drawn larger
that still fit their places."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from display_pixels import differing
from display_views import LONG, VIEWS

from kiosk.app.main import App
from kiosk.app.stepped import SteppedApp
from kiosk.config import Config, load_config, load_config_text
from kiosk.display import Calibration, Display, Renderer
from kiosk.display.view import TableView
from kiosk.simtable import STARTING_POSITION

SIZES = [(1280, 720), (1920, 1080), (1024, 600)]


def words_box(renderer: Renderer, view: TableView, colour: str) -> pygame.Rect:
    """Where ``colour``'s message is drawn in its band (the pixels the message changes)."""
    band = renderer.geometry.bands[colour]
    renderer.draw(view, 0)
    with_words = renderer.surface.copy()
    held = dict(view.prompts.held[colour])
    view.prompts.clear(colour)
    renderer.draw(view, 0)
    view.prompts.held[colour] = held
    found = differing(with_words, renderer.surface, band).get_bounding_rects()
    assert found, "the message drew nothing"
    return found[0].unionall(found).move(band.topleft)


def test_the_setting_is_read_and_written() -> None:
    assert Config().display.large_text is False
    assert load_config_text("[display]\nlarge_text = true\n").display.large_text is True
    with pytest.raises(ValueError, match=r"\[display\] large_text: .* is not true or false"):
        load_config_text('[display]\nlarge_text = "yes"\n')


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_large_words_are_larger_and_stay_in_their_band(size: tuple[int, int]) -> None:
    calibration = Calibration.default(*size)
    heights = {}
    for large in (False, True):
        renderer = Renderer(pygame.Surface(size), calibration, large_text=large)
        view = TableView()
        view.say("white", "Your turn: throw the dice.")
        box = words_box(renderer, view, "white")
        assert renderer.geometry.bands["white"].contains(box)
        heights[large] = box.height
    assert heights[True] >= heights[False] * 1.25


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_long_message_is_shown_whole_in_large_text(size: tuple[int, int]) -> None:
    """Where the larger size cannot hold all of it, the message is drawn smaller, not cut."""
    renderer = Renderer(pygame.Surface(size), Calibration.default(*size), large_text=True)
    view = TableView(connected=True)
    view.say("white", LONG)
    renderer.draw(view, 0)
    _key, band, _where = renderer._panels["band-white"]
    drawn = [call for call in renderer.text._renders if call[0].endswith("...")]
    assert drawn == [], f"cut short: {drawn}"
    assert band.get_size() == renderer.geometry.bands["white"].size


@pytest.mark.parametrize("make", VIEWS, ids=[v.__name__ for v in VIEWS])
def test_every_view_draws_in_large_text(make) -> None:
    """Every panel and card is drawn with the larger words without error, inside the screen."""
    renderer = Renderer(
        pygame.Surface((1280, 720)), Calibration.default(1280, 720), large_text=True
    )
    renderer.draw(make(), 0)
    screen = renderer.surface.get_rect()
    for name, (_key, panel, where) in renderer._panels.items():
        assert screen.contains(panel.get_rect(topleft=where)), name


@pytest.fixture
def app(tmp_path: Path) -> Iterator[SteppedApp]:
    config = Config()
    config.installer.pin = "2101"
    config.referee.settle_ms = 200
    display = Display(Calibration.default(1280, 720), headless=True, settings=config.display)
    h = SteppedApp(
        lambda **wired: App(
            config,
            **wired,
            display=display,
            calibration=display.calibration,
            config_file=tmp_path / "config.toml",
        ),
        config,
    )
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    yield h
    h.close()


def test_the_installers_settings_switch_large_text_on_the_screen(
    app: SteppedApp, tmp_path: Path
) -> None:
    view = app.app.view
    renderer = app.app.display.renderer
    assert not renderer.large_text
    app.press("menu")
    app.press("menu", times=view.menu.index("Settings (installer)"))
    app.press("select")
    for digit in (2, 1, 0, 1):
        app.press("menu", times=digit)
        app.press("select")
    assert view.menu_title == "Settings"
    item = view.menu.index("Large text: off")
    app.press("menu", times=item)
    before = app.app.display.surface.copy()
    app.press("select")
    assert view.menu[item] == "Large text: on"
    assert renderer.large_text and renderer.scale > 1
    card = renderer.geometry.halves["white"]
    assert differing(before, app.app.display.surface, card).count() > 0  # drawn afresh
    app.press("menu", times=view.menu.index("Save these settings") - item)
    app.press("select")
    assert load_config(tmp_path / "config.toml").display.large_text is True
