"""Headless screenshots: highlights land on the calibrated slots, each player's text faces them."""

from __future__ import annotations

import pygame
import pytest
from display_pixels import differing, rgb

from kiosk.display import Calibration, Display, Renderer, save_screenshot
from kiosk.display.palette import (
    ARROW,
    CUBE_FACE,
    CURSOR,
    DETAIL_BG,
    HIT,
    ILLEGAL,
    ILLEGAL_CARD,
    LIFTED,
    LIGHT,
    LOST,
    MAN_BLACK,
    MAN_WHITE,
    MOVABLE,
    RATING_COLOURS,
    RIGHT,
    TARGET,
    TEXT,
    WRONG,
)
from kiosk.display.view import TableView
from kiosk.link import TableLayout
from kiosk.rules import Position

SIX_FIVE = {
    "event": "destinations",
    "from": "24",
    "to": ["18", "13"],
    "player": "white",
    "table": {"from": "24", "to": ["18", "13"]},
}


def screenshot(renderer: Renderer, view: TableView, tmp_path, name: str = "frame.png"):
    """Draw a frame, save it as a PNG and load the PNG back, as a screenshot test sees it."""
    renderer.draw(view, now_ms=0)
    return pygame.image.load(save_screenshot(renderer.surface, tmp_path / name))


def count_colour(surface: pygame.Surface, colour, area: pygame.Rect | None = None) -> int:
    part = surface.subsurface(area) if area else surface
    return pygame.mask.from_threshold(part, (*colour, 255), (1, 1, 1, 255)).count()


def test_lifted_man_targets_light_the_next_free_calibrated_slot(
    surface, calibration: Calibration, view: TableView, tmp_path
) -> None:
    # Move the marks of point 18 so the test shows the drawing follows the calibration.
    cal = calibration.shifted("18", 7, 0).nudged("18", 0, 12, 5)
    renderer = Renderer(surface, cal)
    view.apply({"event": "dice", "player": "white", "dice": [6, 5]})
    view.apply(SIX_FIVE)
    shot = screenshot(renderer, view, tmp_path)
    assert rgb(shot, cal.slot_xy("18", 0)) == TARGET  # empty point: its edge slot
    assert rgb(shot, calibration.slot_xy("18", 0)) != TARGET  # not where the default had it
    assert rgb(shot, cal.slot_xy("18", 1)) != TARGET
    assert rgb(shot, cal.slot_xy("13", 5)) == TARGET  # five white men there: the sixth slot
    assert all(rgb(shot, cal.slot_xy("13", i)) != TARGET for i in range(5))
    assert rgb(shot, cal.slot_xy("24", 1)) == LIFTED  # the second of 24's two men was lifted


def test_lifted_man_follows_the_sensed_board(renderer: Renderer, view: TableView, tmp_path) -> None:
    view.apply({"event": "dice", "player": "white", "dice": [6, 5]})
    view.apply(SIX_FIVE)
    from kiosk.table.sensing import project

    board = project(Position.standard(), TableLayout())
    board["24"] = (1, 0)  # one of the two men is in the hand
    board["13"] = (4, 0)  # and a man of 13 already moved on
    view.board = board
    shot = screenshot(renderer, view, tmp_path)
    cal = renderer.calibration
    assert rgb(shot, cal.slot_xy("24", 1)) == LIFTED
    assert rgb(shot, cal.slot_xy("13", 4)) == TARGET


def test_a_blot_to_hit_is_the_target_and_marked(
    renderer: Renderer, view: TableView, tmp_path
) -> None:
    # Black has a blot on white's 20 point; white's man from 24 may hit it with a 4.
    position = Position.from_points(
        {24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 12: -5, 17: -3, 19: -5, 1: -1}
    )
    view.set_position(position)
    view.apply({"event": "dice", "player": "white", "dice": [4, 1]})
    view.lifted, view.targets = "24", ("20",)
    shot = screenshot(renderer, view, tmp_path)
    x, y = renderer.calibration.slot_xy("20", 0)
    assert rgb(shot, (x, y)) == TARGET
    ring = renderer.geometry.strips["20"].ring_radius(renderer.calibration.slot_radius)
    outer = ring + max(4, ring // 4)
    assert rgb(shot, (x + outer - 1, y)) == HIT


def test_movable_men_glow_under_the_top_man(renderer: Renderer, view: TableView, tmp_path) -> None:
    view.apply({"event": "dice", "player": "white", "dice": [3, 1]})
    view.movable = ("6", "8")
    shot = screenshot(renderer, view, tmp_path)
    ring = renderer.geometry.strips["6"].ring_radius(renderer.calibration.slot_radius)
    for where, top in (("6", 4), ("8", 2)):
        x, y = renderer.calibration.slot_xy(where, top)
        assert rgb(shot, (x + ring - 1, y)) == MOVABLE
        x, y = renderer.calibration.slot_xy(where, top + 1)
        assert rgb(shot, (x + ring - 1, y)) != MOVABLE
    assert count_colour(shot, MOVABLE, renderer.geometry.halves["black"]) == 0


def test_illegal_marker_under_the_offending_point(
    renderer: Renderer, view: TableView, tmp_path
) -> None:
    view.apply({"event": "dice", "player": "white", "dice": [6, 5]})
    view.apply(SIX_FIVE)
    view.apply(
        {
            "event": "illegal",
            "reason": "wrong-distance",
            "message": "24 to 20 is 4 pips: you threw 6-5.",
            "law": "",
            "player": "white",
        }
    )
    view.illegal = ("20", "wrong-distance", "24 to 20 is 4 pips: you threw 6-5.")
    shot = screenshot(renderer, view, tmp_path)
    cal = renderer.calibration
    for where in ("20", "21", "19", "5"):  # the point is filled and hatched
        x, y, w, h = cal.location_rect(where)
        area = pygame.Rect(x, y, w, h).inflate(cal.slot_radius, 0)
        filled = count_colour(shot, ILLEGAL, area)
        hatched = count_colour(shot, ILLEGAL_CARD, area)
        assert (filled > 100 and hatched > 30) == (where == "20"), where
    # The reason is written on a card in the middle of the board, at that point, beside a
    # cross in a ring.
    centre = renderer.geometry.centre_y
    card = [x for x in range(cal.width) if rgb(shot, (x, centre)) == ILLEGAL_CARD]
    assert card and min(card) <= renderer.geometry.anchor("20")[0] <= max(card)
    label = pygame.Rect(min(card), centre - 5, max(card) - min(card), 10)
    assert count_colour(shot, TEXT, label) > 0  # the text on it
    icon = pygame.Rect(min(card), centre - cal.slot_radius, 3 * cal.slot_radius, 1)
    assert count_colour(shot, TEXT, icon) >= 2  # the ring's two sides


def test_each_players_text_faces_them(renderer: Renderer, view: TableView) -> None:
    text = "Bear off 6/off now"
    view.say("white", text)
    renderer.draw(view, 0)
    for_white = renderer.surface.copy()
    view.prompts.clear("white")
    view.say("black", text)
    renderer.draw(view, 0)
    for_black = renderer.surface.copy()
    bottom, top = renderer.geometry.bands["white"], renderer.geometry.bands["black"]
    white_box = differing(for_white, for_black, bottom).get_bounding_rects()
    black_box = differing(for_white, for_black, top).get_bounding_rects()
    assert white_box and black_box
    white_text = white_box[0].unionall(white_box).move(bottom.topleft)
    black_text = black_box[0].unionall(black_box).move(top.topleft)
    width, height = for_white.get_size()
    # White's text is near the bottom edge, black's near the top edge at the mirrored place.
    assert white_text.top > height / 2 > black_text.bottom
    assert white_text.size == black_text.size
    assert abs(black_text.left - (width - white_text.right)) <= 2
    assert abs(black_text.top - (height - white_text.bottom)) <= 2
    # And black's is white's turned through 180 degrees, not the same way up.
    # (The band on roll has another background, so compare the letters' shapes.)
    seen_by_white = ink(for_white.subsurface(white_text))
    seen_by_black = for_black.subsurface(black_text)
    turned = ink(pygame.transform.flip(seen_by_black, True, True))
    assert mismatch(seen_by_white, turned) < seen_by_white.count() * 0.03
    assert mismatch(seen_by_white, ink(seen_by_black)) > seen_by_white.count() * 0.3


def ink(surface: pygame.Surface) -> pygame.mask.Mask:
    """The bright (text) pixels of a dark panel."""
    return pygame.mask.from_threshold(surface, (192, 192, 192, 255), (65, 65, 65, 255))


def mismatch(a: pygame.mask.Mask, b: pygame.mask.Mask) -> int:
    """How many pixels are set in one mask and not the other."""
    return a.count() + b.count() - 2 * a.overlap_area(b, (0, 0))


def test_detail_is_shown_to_its_player_on_request(renderer: Renderer, view: TableView) -> None:
    view.say("black", "Not that way.", "Law 12: a man moves the number of pips on a die.")
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, DETAIL_BG) == 0
    view.show_detail["black"] = True
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, DETAIL_BG, renderer.geometry.halves["black"]) > 0
    assert count_colour(renderer.surface, DETAIL_BG, renderer.geometry.halves["white"]) == 0


def test_dice_are_drawn_on_the_side_of_the_player_on_roll(
    renderer: Renderer, view: TableView
) -> None:
    for player, band in (("white", "white"), ("black", "black")):
        view.turn = player
        view.dice = None
        renderer.draw(view, 0)
        before = renderer.surface.copy()
        view.apply({"event": "dice", "player": player, "dice": [6, 6]})
        view.messages.clear()
        renderer.draw(view, 0)
        changed = differing(before, renderer.surface, renderer.surface.get_rect())
        inside = differing(before, renderer.surface, renderer.geometry.bands[band]).count()
        assert inside > 0 and inside == changed.count()


def test_last_play_arrows_and_connection_border(renderer: Renderer, view: TableView) -> None:
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, ARROW) == 0
    assert rgb(renderer.surface, (1, 1)) != LOST
    view.last_play = (("13", "7"), ("7", "2"))
    view.connected = False
    view.connection_message = "Table unplugged: check the cable."
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, ARROW) > 100
    assert rgb(renderer.surface, (1, 1)) == LOST  # disconnection is visible everywhere
    tip = renderer.geometry.anchor("2")
    near = pygame.Rect(int(tip[0]) - 30, int(tip[1]) - 30, 60, 60)
    assert count_colour(renderer.surface, ARROW, near) > 0


def test_busy_spinner_moves_between_frames(renderer: Renderer, view: TableView) -> None:
    view.busy = "Thinking..."
    renderer.draw(view, 0)
    first = renderer.surface.copy()
    renderer.draw(view, 200)
    assert differing(first, renderer.surface, renderer.surface.get_rect()).count() > 0


def test_renderer_refuses_a_calibration_that_does_not_fit(surface, calibration) -> None:
    with pytest.raises(ValueError, match="table has 7"):
        Renderer(surface, calibration, TableLayout(point_slots=7))
    with pytest.raises(ValueError, match="1280x720 screen, not 640x360"):
        Renderer(pygame.Surface((640, 360)), calibration)


def test_headless_display_draws_and_returns_input(
    calibration: Calibration, view: TableView, tmp_path
) -> None:
    display = Display(calibration, headless=True)
    try:
        assert display.headless and display.calibration == calibration
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0))
        events = display.frame(view, 0)
        assert [e.key for e in events if e.type == pygame.KEYDOWN] == [pygame.K_h]
        path = display.screenshot(tmp_path / "shots" / "table.png")
        assert pygame.image.load(path).get_size() == (1280, 720)
    finally:
        display.close()


def test_simulated_table_draws_the_men_on_their_slots(renderer: Renderer, view: TableView) -> None:
    cal = renderer.calibration
    renderer.draw(view, 0)
    assert rgb(renderer.surface, cal.slot_xy("6", 0)) != MAN_WHITE  # real men: none drawn
    view.simulated = True
    renderer.draw(view, 0)
    for slot in range(5):
        assert rgb(renderer.surface, cal.slot_xy("6", slot)) == MAN_WHITE
        assert rgb(renderer.surface, cal.slot_xy("19", slot)) == MAN_BLACK
    assert rgb(renderer.surface, cal.slot_xy("6", 5)) not in (MAN_WHITE, MAN_BLACK)
    assert rgb(renderer.surface, cal.slot_xy("24", 1)) == MAN_WHITE


def test_the_cube_is_drawn_in_every_game_but_russian_backgammon(
    renderer: Renderer, view: TableView
) -> None:
    view.apply({"event": "mode", "mode": "russian", "banner": "Russian backgammon (Cady)"})
    renderer.draw(view, 0)
    _key, cube, (x, y) = renderer._panels["cube"]
    assert cube.get_width() == 0  # no cube in that game: none drawn
    view.apply({"event": "mode", "mode": "game", "banner": ""})
    renderer.draw(view, 0)
    _key, cube, (x, y) = renderer._panels["cube"]
    assert count_colour(renderer.surface, CUBE_FACE, cube.get_rect(topleft=(x, y))) > 0


def test_lesson_lights_outline_the_locations(renderer: Renderer, view: TableView) -> None:
    view.lights = ("5", "bar-black")
    renderer.draw(view, 0)
    for where in ("5", "bar-black", "4"):
        x, y, w, h = renderer.calibration.location_rect(where)
        lit = count_colour(renderer.surface, LIGHT, pygame.Rect(x, y, w, h).inflate(20, 40))
        assert (lit > 0) == (where != "4"), where


def test_a_menu_opened_over_a_wrong_placement_is_read_whole(
    renderer: Renderer, view: TableView
) -> None:
    view.illegal = ("20", "incomplete", "Your play is not finished: 3-2 must use 2 numbers here.")
    view.apply({"event": "menu", "title": "Menu", "items": ["Back to the game"], "cursor": 0})
    renderer.draw(view, 0)
    _key, card, (x, y) = renderer._panels["menu-white"]
    assert count_colour(renderer.surface, ILLEGAL_CARD, card.get_rect(topleft=(x, y))) == 0
    view.menu = ()  # the menu closed: the red card is seen again
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, ILLEGAL_CARD, card.get_rect(topleft=(x, y))) > 0


def test_menu_faces_the_player_who_opened_it(renderer: Renderer, view: TableView) -> None:
    halves = renderer.geometry.halves
    view.apply(
        {
            "event": "menu",
            "title": "Menu",
            "items": ["New game", "Lessons"],
            "cursor": 1,
            "footer": "Select: next   Done: choose",
            "player": "black",
        }
    )
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, CURSOR, halves["black"]) > 0
    assert count_colour(renderer.surface, CURSOR, halves["white"]) == 0
    view.menu_player = None  # a menu for both players: one facing each
    renderer.draw(view, 0)
    assert count_colour(renderer.surface, CURSOR, halves["white"]) > 0
    assert count_colour(renderer.surface, CURSOR, halves["black"]) > 0

    # The highlighted item follows the cursor (the card's edge is the same colour, and the same
    # in both frames, so the centre of the coloured pixels moves with the highlight).
    def cursor_centre() -> int:
        part = renderer.surface.subsurface(halves["white"])
        return pygame.mask.from_threshold(part, (*CURSOR, 255), (1, 1, 1, 255)).centroid()[1]

    second = cursor_centre()
    view.menu_cursor = 0
    renderer.draw(view, 0)
    assert cursor_centre() < second


def test_lesson_answers_chart_and_verdict(renderer: Renderer, view: TableView) -> None:
    view.answers = ("Hit", "Run")
    view.lesson_result = True
    renderer.draw(view, 0)
    centre = (renderer.geometry.bar.centerx, renderer.geometry.centre_y)
    assert rgb(renderer.surface, (centre[0], centre[1] - renderer.calibration.slot_radius)) == RIGHT
    view.answers, view.lesson_result = (), None
    view.chart = {
        "title": "Shots",
        "x_label": "pips",
        "series": [
            {"name": "exact", "values": [[1, 11], [2, 12], [3, 14]]},
            {"name": "Cady", "values": [[1, 11], [2, 12], [3, 13]]},
        ],
        "wrong": [{"book": "Cady", "x": 3, "book_value": 13, "exact": 14}],
    }
    renderer.draw(view, 0)
    for colour in ("white", "black"):
        assert count_colour(renderer.surface, WRONG, renderer.geometry.halves[colour]) > 0
    view.chart = {"title": "Broken", "series": [{"name": "x", "values": []}], "wrong": [{}]}
    renderer.draw(view, 0)  # a malformed chart draws an empty card, never raises


def test_coach_rating_and_take_back_are_on_the_players_band(
    renderer: Renderer, view: TableView
) -> None:
    view.say("white", "You played 13/10 13/9.")
    renderer.draw(view, 0)
    plain = renderer.surface.copy()
    view.say("white", "You played 13/10 13/9.", rating="very bad", take_back=True)
    renderer.draw(view, 0)
    band = renderer.geometry.bands["white"]
    assert differing(plain, renderer.surface, band).count() > 0
    assert count_colour(renderer.surface, RATING_COLOURS["very bad"], band) > 0  # "very bad"
