"""What the cube and the table's side ask of the game core that holds them."""

from __future__ import annotations

from typing import Protocol

from kiosk.events import Event, GameOver
from kiosk.play.sessions import PlaySession
from kiosk.referee import Referee
from kiosk.rules import Game


class Holder(Protocol):
    """The game core (:class:`kiosk.play.GameCore`) as its parts see it."""

    game: Game
    referee: Referee
    session: PlaySession | None
    game_serial: int

    @property
    def setting_up(self) -> bool:
        """Whether the players are laying the game's men out."""
        ...

    def publish(self, event: Event) -> None:
        """Publish an event of the game."""
        ...

    def game_over(self, event: GameOver) -> None:
        """The game is over: counted by the session, then published."""
        ...
