"""Playing against the table: the table's own side, whose men the visitor moves for it.

The table thinks off the caller's thread (a :class:`~kiosk.tutor.opponent.OpponentWorker`,
with a time limit and the built-in evaluator as its fallback): the loop asks
:meth:`TableSide.poll` each turn and goes on drawing while it thinks; ``kiosk scenario``
waits for each answer (:meth:`TableSide.settle`), so a script always runs the same way.

At the start of its turn, before anyone throws for it, the table decides whether to
double, then ranks its plays of every throw while the dice are thrown for it (so its
play is ready the moment they land); on its throw it shows its play
(:class:`~kiosk.events.OpponentPlayShown`) and the referee expects that play (its men in
any order, any other placement ``not-the-tables-move``; the turn ends by itself once the
men stand as shown). It answers the visitor's doubles, and at the end of the game it
reviews the visitor's costliest plays (where somebody reads them: ``say``).

A game against the table is stored with the table named as a player, ``Table
(intermediate)``: that name is how a game resumed after a restart knows its opponent,
and how the exported ``.mat`` file names it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from enum import StrEnum

from kiosk.events import OpponentPlayShown
from kiosk.play.cube import CubeDealer
from kiosk.play.holder import Holder
from kiosk.rules import Colour, CubeAction, GameError, Phase, Position
from kiosk.tutor.cube import CubeState
from kiosk.tutor.opponent import (
    LEVELS,
    CubeReviewItem,
    CubeVerdict,
    Opponent,
    OpponentPlay,
    OpponentWorker,
    ReviewItem,
)

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "intermediate"  # a friendly level: it slips now and then
Say = Callable[[str, str], None]  # (to whom: a colour or "both", the words)


def table_name(level: str) -> str:
    """The table as a player's name in the store and the ``.mat`` file.

    >>> table_name("expert"), level_of(table_name("expert"))
    ('Table (expert)', 'expert')
    """
    return f"Table ({level})"


def level_of(name: str) -> str | None:
    """The level of a player named by :func:`table_name`; None for a person."""
    for level in LEVELS:
        if name == table_name(level):
            return level
    return None


Moment = tuple[int, int, Phase]  # (game number, turns played, phase): what a question is about
#: The word the table's review begins with (a line of the result's explanation).
REVIEW = "Review"
Review = tuple[list[ReviewItem], list[CubeReviewItem]]  # the visitor's costliest plays, cubes


class Thought(StrEnum):
    """What the table thinks about: whether to double at the start of its turn, its play of
    the dice thrown, its answer to the visitor's double, the review at the end."""

    CUBE = "cube"
    PLAY = "play"
    ANSWER = "answer"
    REVIEW = "review"


@dataclass(frozen=True)
class _CubeJob:
    """Whether to double, asked at ``moment``."""

    moment: Moment
    future: Future[CubeVerdict]
    about = Thought.CUBE


@dataclass(frozen=True)
class _AnswerJob:
    """Take or pass the visitor's double, asked at ``moment``."""

    moment: Moment
    future: Future[CubeVerdict]
    about = Thought.ANSWER


@dataclass(frozen=True)
class _PlayJob:
    """The play of the dice thrown, asked at ``moment``."""

    moment: Moment
    future: Future[OpponentPlay]
    about = Thought.PLAY


@dataclass(frozen=True)
class _ReviewJob:
    """The review of the visitor's game, asked at ``moment``."""

    moment: Moment
    future: Future[Review]
    about = Thought.REVIEW


_Job = _CubeJob | _AnswerJob | _PlayJob | _ReviewJob


class TableSide:
    """The table's side (``colour``, at ``level``) in the games ``core`` holds, its cube
    dealt by ``cube``."""

    def __init__(
        self,
        core: Holder,
        cube: CubeDealer,
        colour: Colour,
        opponent: Opponent,
        level: str = DEFAULT_LEVEL,
        time_limit: float = 2.0,
        say: Say | None = None,
        apart: bool = False,
    ) -> None:
        self.core = core
        self.cube = cube
        self.colour = colour
        self.level = level
        self.opponent = opponent
        self.say = say
        self._worker = OpponentWorker(opponent, time_limit=time_limit, apart=apart)
        self._jobs: list[_Job] = []
        self._asked: set[Moment] = set()  # the moments it has thought about
        self._ahead: set[Moment] = set()  # its turns whose throws it ranked ahead
        # the visitor's cube decisions (game number, position, cube, decision), for the review
        self._cube_moves: list[tuple[int, Position, CubeState, str]] = []

    @property
    def players(self) -> tuple[str, str]:
        """White's and black's names for the store."""
        me, visitor = table_name(self.level), "visitor"
        return (me, visitor) if self.colour == Colour.WHITE else (visitor, me)

    @property
    def thinking(self) -> Thought | None:
        """What the table is thinking about now (None: nothing)."""
        return self._jobs[0].about if self._jobs else None

    @property
    def deciding_cube(self) -> bool:
        """Whether it is deciding to double at the start of its turn (nobody throws yet)."""
        return any(isinstance(job, _CubeJob) for job in self._jobs)

    def note_cube(self, position: Position, cube: CubeState, decision: str) -> None:
        """The visitor's cube ``decision`` (``double``, ``take``, ``pass``) in ``position``
        (the side on roll's) with the cube as it stood (a :class:`kiosk.tutor.cube.CubeState`):
        reviewed at the end of the game with his plays."""
        self._cube_moves.append((self.core.game_serial, position, cube, decision))

    def close(self) -> None:
        """Stop thinking and release the evaluator."""
        self._worker.close()
        self.opponent.close()

    # -- what happens in the game ----------------------------------------------------------

    def poll(self) -> None:
        """Act on what the table has finished thinking, and start thinking about what its
        turn asks now (its cube, its play, the visitor's double, the review). Never waits."""
        self._consider()
        while self._jobs and self._jobs[0].future.done():
            self._act(self._jobs.pop(0))
            self._consider()

    def settle(self, timeout: float = 120.0) -> None:
        """Wait for the table to finish thinking, and act on it (``kiosk scenario``)."""
        self._consider()
        while self._jobs:
            job = self._jobs.pop(0)
            try:
                job.future.result(timeout)
            except Exception:  # acted on (and logged) below
                pass
            self._act(job)
            self._consider()

    # -- thinking ------------------------------------------------------------------------

    def _moment(self) -> Moment:
        core = self.core
        return (core.game_serial, len(core.game.turns), core.game.phase)

    def _ask(self, job: Callable[[Moment], _Job]) -> None:
        """Start thinking: ``job`` submits the question to the worker at this moment."""
        try:
            self._jobs.append(job(self._moment()))
        except RuntimeError as err:  # closed
            log.warning("the table cannot think: %s", err)

    def _consider(self) -> None:
        """What the game asks of the table now, each thing once: at the start of its turn,
        whether to double; once its dice are thrown, its play; a double to answer; at the
        end, the review."""
        core = self.core
        game = core.game
        moment = self._moment()
        mine = game.turn == self.colour
        worker = self._worker
        if core.setting_up or self._jobs:
            return
        if game.phase == Phase.ROLL and mine and moment not in self._ahead:
            if moment in self._asked or CubeAction.DOUBLE not in game.legal_cube_actions():
                self._ahead.add(moment)  # the cube settled: its plays ranked while it throws
                self._ahead_of(game.position)
        if moment in self._asked:
            return
        if game.phase == Phase.ROLL and mine:
            if CubeAction.DOUBLE in game.legal_cube_actions():
                self._asked.add(moment)
                self._ask(lambda m: _CubeJob(m, worker.submit_cube(game.position, game.cube)))
        elif game.phase == Phase.PLAY and mine and game.dice is not None:
            self._asked.add(moment)
            dice = game.dice
            self._ask(lambda m: _PlayJob(m, worker.submit(game.position, dice)))
        elif game.phase == Phase.DOUBLE_OFFERED and not mine:
            self._asked.add(moment)
            self._ask(lambda m: _AnswerJob(m, worker.submit_cube(game.position, game.cube, True)))
        elif game.phase == Phase.OVER and self.say is not None:
            self._asked.add(moment)
            visitor = self.colour.other
            turns = [(t.before, t.dice, t.play) for t in game.turns if t.colour == visitor]
            cubes = [(p, c, d) for g, p, c, d in self._cube_moves if g == core.game_serial]
            self._ask(lambda m: _ReviewJob(m, worker.submit_review(turns, cubes)))

    def _ahead_of(self, position: Position) -> None:
        """Start ranking the plays of every throw before the table's dice are thrown."""
        try:
            self._worker.submit_ahead(position)
        except RuntimeError as err:  # closed
            log.warning("the table cannot think ahead: %s", err)

    @staticmethod
    def _review(found: Review) -> str:
        """The review's words: the visitor's costliest plays and cube decisions, worst
        first, each play with what it costs, the coach's reasons and the better play."""
        items, cube_items = found
        parts = [(i.loss, i.words) for i in items]
        parts += [(c.loss, f"{c.words[0].upper()}{c.words[1:]}.") for c in cube_items]
        if not parts:
            nothing = "none of your plays or cube decisions gave anything away. Well played!"
            return f"{REVIEW}: {nothing}"
        parts.sort(key=lambda part: -part[0])
        worst = "\n".join(f"- {words}" for _, words in parts[:3])
        return f"{REVIEW}, your costliest plays and cube decisions:\n{worst}"

    # -- acting on what it thought ---------------------------------------------------------

    def _act(self, job: _Job) -> None:
        error = job.future.exception() if job.future.done() else None
        if error is not None:
            log.warning("the table could not think about its %s: %s", job.about, error)
            if isinstance(job, _AnswerJob) and job.moment == self._moment():
                self.cube.answer(take=True)  # a double is never left unanswered
            return
        if not job.future.done():
            return
        if job.moment != self._moment():
            return  # the game went on (or ended) while it thought: the answer is stale
        match job:
            case _CubeJob(future=future):
                verdict = future.result()
                legal = self.core.game.legal_cube_actions()
                if verdict.action == "double" and CubeAction.DOUBLE in legal:
                    self.cube.double()
                    self._said(str(self.colour), verdict.text)
            case _AnswerJob(future=future):
                verdict = future.result()
                self._said("both", verdict.text)
                self.cube.answer(take=verdict.action == "take")
            case _PlayJob(future=played):
                self._show(played.result())
            case _ReviewJob(future=reviewed):
                if self.say is not None:
                    self.say(str(self.colour.other), self._review(reviewed.result()))

    def _said(self, to: str, text: str) -> None:
        if self.say is not None and text:
            self.say(to, text)

    def _show(self, chosen: OpponentPlay) -> None:
        """The table's play of the dice thrown: shown, and expected by the referee."""
        core = self.core
        game = core.game
        play = chosen.play
        if not play.steps or game.dice is None:
            return  # no legal move: the referee passes the turn by itself
        try:
            core.referee.expect(play)
        except GameError as err:  # a play already under way that is not the table's
            log.warning("the table's play cannot be expected: %s", err)
            return
        core.publish(
            OpponentPlayShown(
                player=self.colour,
                dice=game.dice,
                move=str(play),
                position=play.result.position_id(),
                play=play,
            )
        )
