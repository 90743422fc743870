"""Dice that read themselves (Bluetooth dice) go through the game core as the wells' do:
judged when they change and when a new referee starts, held while the table's side
decides its cube; and the wells' readings are not the dice's when another source is."""

from __future__ import annotations

from kiosk.events import Event
from kiosk.play import CoreSettings, GameCore
from kiosk.rules import Position
from kiosk.table import DieReading, TableLayout, TableReading, project

E, THREE, FIVE = DieReading.EMPTY, DieReading.THREE, DieReading.FIVE


def core(source: str) -> tuple[GameCore, list[Event]]:
    events: list[Event] = []
    c = GameCore(TableLayout(), events.append, CoreSettings(dice_source=source))
    c.new_game()
    c.sense(TableReading.of(project(Position.standard(), c.layout), "occupancy"), 0)
    c.tick(400)
    return c, events


def test_bluetooth_dice_throw_through_the_core() -> None:
    c, events = core("pixels")
    c.dice((FIVE, FIVE), 500)  # lying there when read first: no throw
    c.tick(1200)
    assert "opening" not in [e.name for e in events]
    c.dice((E, E), 1300)
    c.dice((FIVE, E), 1400)
    c.dice((FIVE, THREE), 1500)
    c.tick(1900)
    opening = [e for e in events if e.name == "opening"][-1]
    assert opening.dice == (5, 3)  # type: ignore[attr-defined]


def test_the_wells_are_not_read_for_bluetooth_dice_nor_bluetooth_for_the_wells() -> None:
    c, events = core("pixels")
    reading = TableReading.of(project(Position.standard(), c.layout), "occupancy", (E, E))
    c.sense(reading, 500)
    c.sense(
        TableReading.of(project(Position.standard(), c.layout), "occupancy", (FIVE, THREE)), 600
    )
    c.tick(1500)
    assert c.read_dice is None and "opening" not in [e.name for e in events]
    w, events = core("wells")
    w.dice((E, E), 500)
    w.dice((FIVE, THREE), 600)
    w.tick(1500)
    assert "opening" not in [e.name for e in events]


def test_a_new_game_starts_from_the_dice_as_they_lie() -> None:
    c, events = core("godice")
    c.dice((E, E), 500)
    c.dice((THREE, FIVE), 600)
    c.new_game()  # the dice already lying are no throw of the new game
    c.tick(2000)
    assert "opening" not in [e.name for e in events]
    c.dice((E, E), 2100)
    c.dice((FIVE, THREE), 2200)
    c.tick(2600)
    assert [e for e in events if e.name == "opening"][-1].dice == (5, 3)  # type: ignore[attr-defined]
