"""The players' controls: the Pi's buttons, lights and buzzer (gpiozero), and the keyboard.

Each player has a Done button with a light, lit while that player is on roll;
Menu, Back and Select are shared; a "table connected" light, a "check the board" light
and a buzzer are optional. Presses are published to the event bus as ``button`` events
(:class:`~kiosk.events.Button`, its JSON ``{"event": "button", "name": "done", "player":
"white"}``), and the lights follow the
event stream. The pins come from ``[pins]``; which GPIO library drives them is gpiozero's
pin factory, passed in (``MockFactory`` in the tests), never a flag.

In the simulator window the keyboard does the same: W and B are the two Done
buttons, Space or D is Done for the player on roll, M, Tab and the arrow keys move
through a menu, Enter selects, Esc or Backspace goes back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.config import PinsSection
from kiosk.errors import TableError
from kiosk.events import (
    MISSING,
    Button,
    Cocked,
    Dice,
    Event,
    GameOver,
    Illegal,
    Legal,
    NewGame,
    Opening,
    Played,
    PositionShown,
    Resume,
    Setup,
    SetupOk,
    TableStatus,
)
from kiosk.rules import Colour

Publish = Callable[[Event], None]

BUTTONS: tuple[tuple[str, str, str | None], ...] = (
    ("done_white", "done", "white"),
    ("done_black", "done", "black"),
    ("menu", "menu", None),
    ("back", "back", None),
    ("select", "select", None),
)


class ControlsUnavailable(TableError, RuntimeError):
    """The GPIO pins cannot be used here (no Raspberry Pi, or no permission)."""


def button_event(name: str, player: str | None = None) -> Button:
    """The event a press of button ``name`` publishes."""
    return Button(button=name, player=Colour.parse(player) if player is not None else MISSING)


class Controls:
    """The buttons, lights and buzzer on the Pi's GPIO header."""

    def __init__(
        self,
        pins: PinsSection,
        publish: Publish,
        pin_factory: object | None = None,
        bounce_time: float | None = 0.03,
    ) -> None:
        try:
            from gpiozero import LED, Button, Buzzer
            from gpiozero.exc import GPIOZeroError
        except ImportError as err:  # pragma: no cover - gpiozero is a dependency
            raise ControlsUnavailable(f"gpiozero cannot be imported: {err}") from None
        self._devices: list[Any] = []
        self.on_roll: tuple[str, ...] = ()
        try:
            for key, name, player in BUTTONS:
                button = Button(
                    getattr(pins, key), pin_factory=pin_factory, bounce_time=bounce_time
                )
                button.when_pressed = _press(publish, name, player)
                self._devices.append(button)
            self.lights = {
                "white": LED(pins.led_white, pin_factory=pin_factory),
                "black": LED(pins.led_black, pin_factory=pin_factory),
            }
            for key in ("led_connected", "led_check"):
                if getattr(pins, key):
                    self.lights[key[4:]] = LED(getattr(pins, key), pin_factory=pin_factory)
            self._devices += self.lights.values()
            self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory) if pins.buzzer else None
            if self.buzzer is not None:
                self._devices.append(self.buzzer)
        except (GPIOZeroError, OSError, RuntimeError) as err:
            self.close()
            raise ControlsUnavailable(
                f"the GPIO buttons and lights cannot be used: {str(err).rstrip('!. ')}"
            ) from None

    def follow(self, event: Event) -> None:
        """Event-bus subscriber: light the Done button of the player on roll, and the rest."""
        match event:
            case NewGame():
                self._light_roll(("white", "black"))
            case Opening(starter=starter):
                self._light_roll((str(starter),) if starter is not None else ("white", "black"))
            case Dice(player=player):
                self._light_roll((str(player),))
            case Played(player=player):
                self._light_roll((str(player.other),))
            case Resume(turn=turn) | PositionShown(turn=turn):
                self._light_roll((str(turn),))
            case GameOver():
                self._light_roll(())
            case TableStatus(status=status):
                self._set("connected", status == "connected")
        match event:
            case Illegal() | Setup() | Cocked():
                self._set("check", True)
                if self.buzzer is not None and not isinstance(event, Setup):
                    self.buzzer.beep(on_time=0.15, off_time=0.1, n=1, background=True)
            case Legal() | Played() | SetupOk() | Dice():
                self._set("check", False)

    def close(self) -> None:
        """Release the pins."""
        for device in self._devices:
            device.close()
        self._devices = []

    def _light_roll(self, players: tuple[str, ...]) -> None:
        self.on_roll = players
        for player in ("white", "black"):
            self._set(player, player in players)

    def _set(self, light: str, lit: bool) -> None:
        led = self.lights.get(light)
        if led is not None:
            led.value = lit


def _press(publish: Publish, name: str, player: str | None) -> Callable[[], None]:
    return lambda: publish(button_event(name, player))


def key_event(key: int, turn: str) -> Button | None:
    """The button event a key press stands for in the simulator window, if any."""
    import pygame

    if key == pygame.K_w:
        return button_event("done", "white")
    if key == pygame.K_b:
        return button_event("done", "black")
    if key in (pygame.K_SPACE, pygame.K_d):
        return button_event("done", turn)
    if key in (pygame.K_m, pygame.K_TAB, pygame.K_DOWN, pygame.K_RIGHT):
        return button_event("menu")
    if key in (pygame.K_UP, pygame.K_LEFT):
        return button_event("up")
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        return button_event("select")
    if key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
        return button_event("back")
    return None
