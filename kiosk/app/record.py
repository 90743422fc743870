"""The game's record in the store, kept from the application's event stream.

A :class:`GameRecord` starts a stored game with each new game, follows the stream and
writes down every event of the game while the game has the table (the activity on the
mode stack says so: a lesson's, a replay's or a Russian game's events are not the game's),
and marks a game left unfinished for a new one as abandoned (it is not resumed after a
restart). A store failure is reported by name (:class:`~kiosk.store.store.StoreError`)
and the game goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kiosk.events import (
    Board,
    Button,
    Event,
    Kind,
    LessonEvent,
    MenuShown,
    ModeChanged,
    TableStatus,
)
from kiosk.play import PlaySession
from kiosk.rules import Game, Phase
from kiosk.store.store import StoreError

if TYPE_CHECKING:
    from kiosk.app.modes import Activity
    from kiosk.store import Store, StoreWriter

NOT_RECORDED = (Board, MenuShown, Button, LessonEvent, TableStatus)  # what is shown, not played


class GameRecord:
    """The record of the game on the table in ``store`` (none: nothing is kept).

    ``activity`` says what has the table when an event is delivered; ``report`` hears of a
    store failure; ``quiet`` are further event types that are no part of any record.
    """

    def __init__(
        self,
        store: Store | StoreWriter | None,
        activity: Callable[[], Activity],
        report: Callable[[StoreError], None],
        quiet: tuple[type[Event], ...] = (),
    ) -> None:
        self.store = store
        self.game_id: int | None = None  # the stored game being recorded
        self._activity = activity
        self._report = report
        self._quiet = (*NOT_RECORDED, *quiet)

    def start(
        self,
        game: Game,
        players: tuple[str, str],
        session: PlaySession | None,
        mode: str,
    ) -> None:
        """A new game is on the table (``mode``: the referee's, teaching or laws)."""
        self.game_id = None
        if self.store is None:
            return
        try:
            self.game_id = self.store.start_game(
                game.profile.name,
                game.position.position_id(),
                str(game.position.turn),
                players=players,
                match_id=session.match_id if session is not None else None,
                mode=mode,
            )
        except StoreError as err:
            self._report(err)

    def resumed(self, game_id: int) -> None:
        """A stored game goes on (after a restart)."""
        self.game_id = game_id

    def leave(self, game: Game) -> None:
        """``game`` is left for a new one: kept as abandoned unless it was over."""
        if self.store is None or self.game_id is None or game.phase == Phase.OVER:
            return
        try:
            self.store.abandon_game(self.game_id)  # left on purpose: not resumed
        except StoreError as err:
            self._report(err)

    def follow(self, event: Event) -> None:
        """An event of the stream: written down if it is the game's."""
        if self.store is None or self.game_id is None or not self._activity().recorded:
            return
        if isinstance(event, self._quiet):
            return
        if isinstance(event, ModeChanged) and event.mode is not Kind.GAME:
            return  # published as the game gave the table up, delivered after
        try:
            self.store.record(self.game_id, event.to_json())
        except StoreError as err:
            self._report(err)
