"""The Pi's buttons and lights through gpiozero's MockFactory, acting on the real referee."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from kiosk.app.controls import Controls, ControlsUnavailable, key_event
from kiosk.config import Config, PinsSection
from kiosk.events import Button
from kiosk.rules import Colour
from kiosk.simtable import STARTING_POSITION

PINS = PinsSection(buzzer=17)


def press(factory: MockFactory, pin: int) -> None:
    """A press and release of the button on ``pin`` (buttons pull the GPIO to ground)."""
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def lit(factory: MockFactory) -> dict[str, bool]:
    return {
        "white": factory.pin(PINS.led_white).state,
        "black": factory.pin(PINS.led_black).state,
        "check": factory.pin(PINS.led_check).state,
        "connected": factory.pin(PINS.led_connected).state,
    }


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def test_a_button_publishes_its_event(factory: MockFactory) -> None:
    seen: list[dict] = []
    controls = Controls(PINS, seen.append, pin_factory=factory, bounce_time=None)
    try:
        press(factory, PINS.done_black)
        press(factory, PINS.select)
        press(factory, PINS.back)
    finally:
        controls.close()
    assert [event.to_json() for event in seen] == [
        {"event": "button", "name": "done", "player": "black"},
        {"event": "button", "name": "select"},
        {"event": "button", "name": "back"},
    ]


def test_pins_already_taken_are_reported_in_words(factory: MockFactory) -> None:
    from gpiozero import LED

    blocker = LED(PINS.menu, pin_factory=factory)
    try:
        with pytest.raises(ControlsUnavailable, match="GPIO buttons and lights cannot be used"):
            Controls(PINS, lambda e: None, pin_factory=factory)
    finally:
        blocker.close()
    # the failed attempt released what it had claimed
    Controls(PINS, lambda e: None, pin_factory=factory).close()


def test_lights_and_done_buttons_play_a_turn_through_the_referee(
    factory: MockFactory, harness
) -> None:
    config = Config()
    config.dice.source = "buttons"
    config.referee.settle_ms = 200
    h = harness(
        config,
        controls_factory=lambda publish: Controls(
            PINS, publish, pin_factory=factory, bounce_time=None
        ),
    )
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    assert "setup-ok" in h.kinds()
    assert lit(factory)["connected"]  # the link reported the table connected
    # the opening: either may throw, so both Done lights are lit
    assert lit(factory)["white"] and lit(factory)["black"]

    # white's Done/Roll starts button entry of the two opening dice: 3 for white, 1 for black
    press(factory, PINS.done_white)
    press(factory, PINS.menu)
    press(factory, PINS.menu)
    press(factory, PINS.select)
    press(factory, PINS.select)
    h.wait(STEP)
    opening = h.last("opening")
    assert opening["starter"] == "white" and opening["dice"] == [3, 1]
    assert lit(factory)["white"] and not lit(factory)["black"]

    # black's Done while white is to play is answered on black's own line (issue 35: no red
    # card on white's side, no check light for a button that does nothing now)
    press(factory, PINS.done_black)
    h.wait(STEP)
    assert h.app.view.messages["black"].text == "It is white's turn: white presses Done."
    assert "illegal" not in h.kinds() and not lit(factory)["check"]

    # white makes the 5 point (8/5 6/5) on the table and presses Done
    h.sim.move("8", "5")
    h.wait(STEP)
    h.sim.move("6", "5")
    h.wait(400)
    press(factory, PINS.done_white)
    h.wait(STEP)
    play = h.last("play")
    assert (play["player"], play["move"]) == ("white", "8/5 6/5")
    assert h.app.referee is not None and str(h.app.referee.game.turn) == "black"
    assert lit(factory)["black"] and not lit(factory)["white"]
    assert not lit(factory)["check"]


STEP = 80


def test_keys_stand_for_the_buttons() -> None:
    import pygame

    assert key_event(pygame.K_w, "black") == Button(button="done", player=Colour.WHITE)
    assert key_event(pygame.K_SPACE, "black").player == Colour.BLACK
    assert key_event(pygame.K_ESCAPE, "white").to_json() == {"event": "button", "name": "back"}
    assert key_event(pygame.K_RETURN, "white") == Button(button="select")
    assert key_event(pygame.K_q, "white") is None
