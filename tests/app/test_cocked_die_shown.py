"""A cocked die's call to throw again leaves the screen once a good throw is read, from the
table's dice wells and from Bluetooth dice alike (the opening throw here, as a visitor's
first throw is)."""

from __future__ import annotations

from kiosk.bledice import VENDORS, BleDice
from kiosk.bledice.simulated import SimulatedDice
from kiosk.config import Config
from kiosk.display.prompts import Prompt
from kiosk.display.view import TableView
from kiosk.simtable import STARTING_POSITION

ROLLED, ROLLING, CROOKED = 1, 3, 4  # Pixels' PixelRollState.ts


def _calls_to_throw_again(view: TableView) -> list[str]:
    """What each player's line says of a die not lying flat, and the dice drawn cocked."""
    said = [
        text.text
        for who in ("white", "black")
        if (text := view.prompts.get(who, Prompt.WRONG)) is not None
    ]
    return [*said, *(f"die {well} drawn cocked" for well in view.cocked)]


def test_the_wells_cocked_die_goes_when_a_good_throw_is_read(harness) -> None:
    config = Config()
    config.referee.settle_ms = 200
    h = harness(config)
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    h.sim.set_dice(5, None)
    h.sim.cock(2)
    h.wait(600)
    assert "throw both dice again" in h.last("cocked")["message"]
    assert _calls_to_throw_again(h.app.view)  # shown while the die leans
    h.sim.set_dice(5, 2)
    h.wait(600)
    assert h.last("opening")["dice"] == [5, 2]
    assert _calls_to_throw_again(h.app.view) == []
    assert "not lying flat" not in str(h.app.view.messages)


def test_a_crooked_bluetooth_die_goes_when_a_good_throw_is_read(harness) -> None:
    config = Config()
    config.dice.source = "pixels"
    config.referee.settle_ms = 200
    sim = SimulatedDice()
    h = harness(config, bluetooth=BleDice(VENDORS["pixels"], sim))
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    sim.connect(0)
    sim.connect(1)
    for slot in (0, 1):
        sim.notify(slot, bytes([3, ROLLING, 0]))
    sim.notify(0, bytes([3, ROLLED, 2]))
    sim.notify(1, bytes([3, CROOKED, 0]))
    h.wait(800)
    assert h.last("cocked")["well"] == 2
    assert _calls_to_throw_again(h.app.view)
    for slot in (0, 1):
        sim.notify(slot, bytes([3, ROLLING, 0]))
    sim.notify(0, bytes([3, ROLLED, 0]))
    sim.notify(1, bytes([3, ROLLED, 5]))
    h.wait(600)
    assert h.last("opening")["dice"] == [1, 6]
    assert _calls_to_throw_again(h.app.view) == []
