"""The tutor at the table: the coach following the game, its plays and its cube.

A :class:`TableTutor` follows the application's event stream while the tutor is on and
the activity on the table is coached (the game; never a lesson, a replay or a Russian
game): each play a visitor makes goes to the coach (:class:`~kiosk.app.coaching.GameCoach`,
in its thread; its verdict comes back as a ``coach`` event), and whenever a person has a
cube decision to make the coach works it out at once, so the double, take or pass made is
rated without a wait (:meth:`TableTutor.rate_cube`). The coach is started the first time a
tutored game needs it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kiosk.app.coaching import GameCoach
from kiosk.events import Event, Played
from kiosk.play import GameCore
from kiosk.rules import Colour, Game, Phase, Position, RuleProfile
from kiosk.rules.session import Session
from kiosk.tutor.cube import CubeState
from kiosk.tutor.hints import RollGrades

if TYPE_CHECKING:
    from kiosk.config import Config

log = logging.getLogger(__name__)


class TableTutor:
    """The coach on ``core``'s game, publishing to ``publish``; ``on`` says whether the
    tutor is on now, ``coached`` whether the activity on the table is coached (the game's
    :attr:`~kiosk.app.modes.Activity.coached`)."""

    def __init__(
        self,
        config: Config,
        core: GameCore,
        publish: Callable[[Event], None],
        on: Callable[[], bool],
        coached: Callable[[], bool],
    ) -> None:
        self.config = config
        self.core = core
        self.coach: GameCoach | None = None
        self._publish = publish
        self._on = on
        self._coached = coached

    @property
    def _teaching(self) -> bool:
        return self.config.referee.mode == "teaching"

    def game_started(self, game: Game) -> None:
        """A game is on (new or resumed): the coach follows it, old offers lapse."""
        if self._on():
            self._coach()
        if self.coach is not None:
            self.coach.start_game(game.profile.name, self._teaching)

    def _coach(self) -> GameCoach:
        """The coach, started the first time a tutored game needs it."""
        if self.coach is None:
            self.coach = GameCoach(
                self.config.tutor,
                self.config.rules.profile,
                self._publish,
                lambda: self.core.game_serial,
            )
            if self.coach.problem:
                log.warning("coach: %s", self.coach.problem)
            self.coach.start_game(self.core.game.profile.name, self._teaching)
        return self.coach

    def follow(self, event: Event) -> None:
        """An event of the stream: a visitor's play to rate; a cube decision to work out."""
        if not self._on() or not self._coached():
            return
        self._consider_cube()
        self._consider_play()
        if isinstance(event, Played) and not event.accepted:
            side = self.core.side
            if side is None or event.player != side.colour:  # the visitor's plays only
                self._rate(event)

    def _consider_play(self) -> None:
        """Dice thrown for a person to play: the coach rates the plays now, in its thread, so
        the verdict after Done waits only for what the play itself adds."""
        game, side = self.core.game, self.core.side
        if game.phase == Phase.PLAY and game.dice and (side is None or game.turn != side.colour):
            self._coach().prepare(self.core.game_serial, len(game.turns), game.position, game.dice)

    def _person_decides_cube(self) -> bool:
        """Whether a person (not the table) has a cube decision now: may double at the start
        of his turn, or must answer a double."""
        core, side = self.core, self.core.side
        game = core.game
        if game.phase == Phase.ROLL and not core.setting_up and core.cube.may_double:
            return side is None or game.turn != side.colour
        if game.phase == Phase.DOUBLE_OFFERED:
            return side is None or game.turn.other != side.colour
        return False

    def _consider_cube(self) -> None:
        """A cube decision for a person at the table: worked out by the coach now, in its
        thread, so the double, take or pass made is rated at once."""
        if not self._person_decides_cube():
            return
        game = self.core.game
        decider = game.turn if game.phase == Phase.ROLL else game.turn.other
        self._coach().analyse_cube(
            self.core.game_serial,
            len(game.turns),
            game.position,
            self.cube_state(),
            str(decider),
        )

    def cube_state(self) -> CubeState:
        """The cube as the side on roll sees it: its value and owner before any double on
        offer, and a match's length, score and Crawford game."""
        game, session = self.core.game, self.core.session
        length = session.length if session is not None else 0
        score = (0, 0)
        if length and session is not None and isinstance(session.session, Session):
            white, black = session.session.score
            score = (white, black) if game.turn == Colour.WHITE else (black, white)
            if max(score) >= length:
                length, score = 0, (0, 0)
        crawford = bool(session is not None and session.crawford)
        return CubeState(game.cube.value, game.cube.owner, length, score, crawford)

    def rate_cube(self, decision: str, player: str) -> dict[str, Any] | None:
        """The coach's verdict on ``player``'s cube ``decision`` now (``double``, ``take``,
        ``pass``), if it was worked out in time (else it comes when it is); with the tutor
        off, None. The table's review is told of it too."""
        core = self.core
        side = core.side
        if side is not None and player == str(side.colour.other):
            side.note_cube(core.game.position, self.cube_state(), decision)
        if not self._on() or self.coach is None:
            return None
        return self.coach.rate_cube(core.game_serial, len(core.game.turns), decision, player)

    def _rate(self, event: Played) -> None:
        """Hand the play just made to the coach (it answers with a ``coach`` event)."""
        game = self.core.game
        if not game.turns:
            return
        turn = game.turns[-1]
        if turn.colour != event.player or turn.play != event.play or not event.move:
            return  # not this play, or no play at all: nothing to rate
        self._coach().submit(
            self.core.game_serial,
            len(game.turns),
            turn.before,
            turn.dice,
            turn.play,
            str(turn.colour),
        )

    def grade_roll(
        self,
        position: Position,
        dice: tuple[int, int],
        profile: RuleProfile,
        done: Callable[[RollGrades | None], None],
    ) -> None:
        """Weigh every play of ``dice`` in ``position`` in the coach's thread (started now if
        it was not), for graded destinations; ``done`` is called there with the grades."""
        self._coach().grade_roll(position, dice, profile, done)

    def close(self) -> None:
        """Stop the coach's thread, if it was started."""
        if self.coach is not None:
            self.coach.close()
