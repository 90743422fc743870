"""Headless screenshots: the legend of the buttons on each player's side, scroll marks on
a long menu, and both dice of the opening throw."""

from __future__ import annotations

import re

import pygame
from display_pixels import differing

from kiosk.display import Renderer
from kiosk.display.palette import ACCENT
from kiosk.display.view import TableView, button_label


def accent(surface: pygame.Surface, area: pygame.Rect) -> int:
    part = surface.subsurface(area)
    return pygame.mask.from_threshold(part, (*ACCENT, 255), (40, 40, 40, 255)).count()


def test_the_legend_is_drawn_on_the_side_it_is_for(renderer: Renderer, view: TableView) -> None:
    view.turn = "white"
    view.say("both", "Your turn: throw the dice.")
    renderer.draw(view, 0)
    plain = renderer.surface.copy()
    view.legend = {"white": (("done", "throw the dice"), ("menu", "menu")), "black": ()}
    renderer.draw(view, 0)
    white, black = renderer.geometry.bands["white"], renderer.geometry.bands["black"]
    assert differing(plain, renderer.surface, white).count() > 200
    assert differing(plain, renderer.surface, black).count() == 0
    assert accent(renderer.surface, white) > accent(plain, white)  # the buttons' names


def test_the_window_names_its_keys_and_the_table_its_buttons(
    renderer: Renderer, view: TableView
) -> None:
    view.legend = {"black": (("done", "end your turn"), ("back", "leave"))}
    band = renderer.geometry.bands["black"]
    renderer.draw(view, 0)
    on_table = renderer.surface.copy()
    view.keys = True
    renderer.draw(view, 0)
    assert differing(on_table, renderer.surface, band).count() > 0  # "Done (B)", not "Done"
    assert button_label("done", "black", True) == "Done (B)"
    assert button_label("back", "white", True) == "Back (Esc)"
    assert button_label("menu", "white", False) == "Menu"


def test_a_long_menu_shows_that_more_items_exist(renderer: Renderer, view: TableView) -> None:
    view.menu_title = "Lessons"
    view.menu_footer = "Menu: next   Select: choose   Back: leave"
    view.menu = ("1. A",)
    renderer.draw(view, 0)
    short = renderer.surface.copy()
    view.menu = tuple(f"{n}. Lesson {n}" for n in range(1, 13))
    view.menu_cursor = 0
    renderer.draw(view, 0)
    first = renderer.surface.copy()
    view.menu_cursor = 11
    renderer.draw(view, 0)
    last = renderer.surface.copy()
    half = renderer.geometry.halves["white"]
    card = pygame.Rect(half.left, renderer.geometry.centre_y, half.width, half.bottom - half.top)
    card = card.clip(half)
    # the marks are drawn in the card's right margin: at the bottom at first, at the top at
    # the end, and not at all when everything fits
    marks_first = accent(first, card) - accent(short, card)
    marks_last = accent(last, card) - accent(short, card)
    assert marks_first > 0 and marks_last > 0
    assert differing(first, last, card).count() > 0


def test_the_opening_throw_draws_both_dice(renderer: Renderer, view: TableView) -> None:
    view.apply(
        {"event": "opening", "starter": "black", "dice": [2, 5], "message": "black plays 2-5."}
    )
    assert view.dice == (2, 5) and view.turn == "black"
    assert view.messages["black"].text.startswith("You start: you threw 5, white threw 2.")
    renderer.draw(view, 0)
    with_dice = renderer.surface.copy()
    view.dice = None
    renderer.draw(view, 0)
    band = renderer.geometry.bands["black"]
    assert differing(with_dice, renderer.surface, band).count() > 400  # two dice faces


def test_the_readme_the_hardware_guide_and_the_screen_name_the_same_buttons() -> None:
    from pathlib import Path

    from kiosk.display.view import BUTTON_NAMES, WINDOW_KEYS

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## The buttons") : readme.index("## What the table shows")]
    pins = (root / "hardware" / "README.md").read_text()
    install = (root / "deploy" / "INSTALL.md").read_text()
    for name in BUTTON_NAMES.values():
        assert f"**{name}**" in section and f"**{name}**" in pins
        assert f"button: **{name}**" in install  # the wiring table labels the same buttons
    for key in WINDOW_KEYS.values():
        assert f"`{key}`" in section
    for shot in ("set-up", "lifted-with", "wrong-placement", "press-done", "coach", "game-end"):
        (path,) = re.findall(rf"\]\((docs/screenshots/demo-\d+-{shot}[^)]*\.png)\)", readme)
        assert (root / path).read_bytes()[:4] == b"\x89PNG"
