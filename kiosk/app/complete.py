"""'Press Done': the men show a whole legal play, so the player is told to end the turn.

The referee answers Done; this notices the moment before it, when the board on the table
is the result of one of the legal plays of the dice, and says so once per board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.events import Event, Message
from kiosk.rules import Game, Phase
from kiosk.table import TableLayout
from kiosk.table.sensing import key, project

TEXT = "Your play is complete: press Done to end your turn."


class CompletePlay:
    """Says "press Done" to the player on roll when the men show a whole play."""

    def __init__(self, layout: TableLayout, publish: Callable[[Event], None]) -> None:
        self.layout = layout
        self._publish = publish
        # (position, dice) -> boards
        self._boards: tuple[tuple[Any, ...], frozenset[Any]] | None = None
        self._said: tuple[Any, ...] | None = None

    def check(self, game: Game, sensed: dict[str, tuple[int, int]]) -> None:
        """The board on the table now, in ``game``: say "press Done" if it shows a play."""
        if game.phase != Phase.PLAY or game.dice is None:
            return
        board = key(sensed)
        if board == self._said:
            return
        turn = (game.position, game.dice)
        if self._boards is None or self._boards[0] != turn:
            plays = game.legal_plays()
            done = frozenset(key(project(p.result, self.layout)) for p in plays if p.steps)
            self._boards = (turn, done)
        if board in self._boards[1]:
            self._said = board
            self._publish(Message(to=str(game.turn), text=TEXT, complete=True))
