"""What every referee of a game at the table does, whatever the variant.

The game core hands each referee the same things (:class:`Judge`): the table's readings,
the dice wells, the time, thrown dice and Done; it reads back the board as the referee
judges it. :class:`~kiosk.referee.Referee` (the ordinary game) and
:class:`~kiosk.referee.russian.RussianReferee` are siblings under this interface, as
python-chess's variants are under ``chess.Board``; :mod:`kiosk.referee.variants` names them.
"""

from __future__ import annotations

from typing import Protocol

from kiosk.rules import Colour
from kiosk.table import DieReading, TableLayout, TableReading
from kiosk.table.sensing import Sensed


class Judge(Protocol):
    """A referee of one game at the table."""

    layout: TableLayout

    @property
    def seen(self) -> Sensed | None:
        """The board as it is judged (coloured from the game on a table blind to colour)."""
        ...

    @property
    def wanted(self) -> Sensed | None:
        """The men the players are asked to lay out, while they are (every location's
        ``(white, black)``, however many slots it has)."""
        ...

    @property
    def setting_up(self) -> bool:
        """Whether the players are still laying the men out."""
        ...

    def peek(self, reading: TableReading) -> Sensed:
        """The board ``reading`` shows as the referee would colour it (nothing changes)."""
        ...

    def sense(self, reading: TableReading, now: int) -> None:
        """A settled reading of the table."""
        ...

    def dice(self, wells: tuple[DieReading, DieReading], now: int) -> None:
        """What the dice wells read."""
        ...

    def tick(self, now: int) -> None:
        """Time passes."""
        ...

    def throw(self, d1: int, d2: int, now: int) -> None:
        """Dice thrown with the buttons or digitally."""
        ...

    def press_done(self, colour: Colour | None, now: int) -> None:
        """A player's Done (``None``: whoever is to play)."""
        ...

    def reconnected(self) -> None:
        """The table is back after a pulled cable: its board is checked afresh."""
        ...
