"""Playing against the table: the table's own side, whose men the visitor moves for it.

The table thinks off the caller's thread (a :class:`~kiosk.tutor.opponent.OpponentWorker`,
with a time limit and the built-in evaluator as its fallback): the loop asks
:meth:`TableSide.poll` each turn and goes on drawing while it thinks; ``kiosk scenario``
waits for each answer (:meth:`TableSide.settle`), so a script always runs the same way.

At the start of its turn, before anyone throws for it, the table decides whether to
double; on its throw it shows its play (:class:`~kiosk.events.OpponentPlayShown`) and the
referee expects that play (its men in any order, any other placement
``not-the-tables-move``; the turn ends by itself once the men stand as shown). It answers
the visitor's doubles, and at the end of the game it reviews the visitor's costliest
plays (where somebody reads them: ``say``).

A game against the table is stored with the table named as a player, ``Table
(intermediate)``: that name is how a game resumed after a restart knows its opponent,
and how the exported ``.mat`` file names it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from kiosk.events import OpponentPlayShown
from kiosk.play.cube import CubeDealer
from kiosk.play.holder import Holder
from kiosk.rules import Colour, CubeAction, GameError, Phase
from kiosk.tutor.opponent import LEVELS, Opponent, OpponentWorker

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


@dataclass(frozen=True)
class _Job:
    """A question the table is thinking about, and the moment of the game it is about."""

    about: str  # "cube", "play", "answer" or "review"
    moment: tuple[int, int, Phase]  # (game number, turns played, phase) when asked
    future: Future[Any]


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
        self._asked: set[tuple[int, int, Phase]] = set()  # the moments it has thought about
        self._cube_moves: list[tuple[int, Any, Any, str]] = []  # the visitor's, for the review

    @property
    def players(self) -> tuple[str, str]:
        """White's and black's names for the store."""
        me, visitor = table_name(self.level), "visitor"
        return (me, visitor) if self.colour == Colour.WHITE else (visitor, me)

    @property
    def thinking(self) -> str:
        """What the table is thinking about now ("" for nothing): ``cube``, ``play``,
        ``answer`` or ``review``."""
        return self._jobs[0].about if self._jobs else ""

    @property
    def deciding_cube(self) -> bool:
        """Whether it is deciding to double at the start of its turn (nobody throws yet)."""
        return any(job.about == "cube" for job in self._jobs)


    def note_cube(self, position: Any, cube: Any, decision: str) -> None:
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

    def _moment(self) -> tuple[int, int, Phase]:
        core = self.core
        return (core.game_serial, len(core.game.turns), core.game.phase)

    def _ask(self, about: str, submit: Callable[[OpponentWorker], Future[Any]]) -> None:
        try:
            future = submit(self._worker)
        except RuntimeError as err:  # closed
            log.warning("the table cannot think: %s", err)
            return
        self._jobs.append(_Job(about, self._moment(), future))

    def _consider(self) -> None:
        """What the game asks of the table now, each thing once: at the start of its turn,
        whether to double; once its dice are thrown, its play; a double to answer; at the
        end, the review."""
        core = self.core
        game = core.game
        moment = self._moment()
        if moment in self._asked or core.setting_up or self._jobs:
            return
        mine = game.turn == self.colour
        if game.phase == Phase.ROLL and mine:
            if CubeAction.DOUBLE in game.legal_cube_actions():
                self._asked.add(moment)
                self._ask("cube", lambda w: w.submit_cube(game.position, game.cube))
        elif game.phase == Phase.PLAY and mine and game.dice is not None:
            self._asked.add(moment)
            dice = game.dice
            self._ask("play", lambda w: w.submit(game.position, dice))
        elif game.phase == Phase.DOUBLE_OFFERED and not mine:
            self._asked.add(moment)
            self._ask("answer", lambda w: w.submit_cube(game.position, game.cube, True))
        elif game.phase == Phase.OVER and self.say is not None:
            self._asked.add(moment)
            visitor = self.colour.other
            turns = [(t.before, t.dice, t.play) for t in game.turns if t.colour == visitor]
            cubes = [(p, c, d) for g, p, c, d in self._cube_moves if g == core.game_serial]
            self._ask("review", lambda w: w.submit_review(turns, cubes))

    @staticmethod
    def _review(found: tuple[list, list]) -> str:
        """The review's words: the visitor's costliest plays and cube decisions, worst
        first, with the better ones."""
        items, cube_items = found
        parts = [
            (i.loss, f"with {i.dice[0]}-{i.dice[1]} you played {i.play}, better {i.best}")
            for i in items
        ]
        parts += [(c.loss, c.words) for c in cube_items]
        if not parts:
            return "Review: none of your plays or cube decisions gave anything away. Well played!"
        parts.sort(key=lambda part: -part[0])
        worst = "; ".join(words for _, words in parts[:3])
        return f"Review, your costliest plays and cube decisions: {worst}."

    # -- acting on what it thought ---------------------------------------------------------

    def _act(self, job: _Job) -> None:
        error = job.future.exception() if job.future.done() else None
        if error is not None:
            log.warning("the table could not think about its %s: %s", job.about, error)
            if job.about == "answer" and job.moment == self._moment():
                self.cube.answer(take=True)  # a double is never left unanswered
            return
        if not job.future.done():
            return
        if job.moment != self._moment():
            return  # the game went on (or ended) while it thought: the answer is stale
        result = job.future.result()
        core = self.core
        if job.about == "cube":
            if result.action == "double" and CubeAction.DOUBLE in core.game.legal_cube_actions():
                self.cube.double()
                self._said(str(self.colour), result.text)
        elif job.about == "answer":
            self._said("both", result.text)
            self.cube.answer(take=result.action == "take")
        elif job.about == "play":
            self._show(result)
        elif job.about == "review" and self.say is not None:
            self.say(str(self.colour.other), self._review(result))

    def _said(self, to: str, text: str) -> None:
        if self.say is not None and text:
            self.say(to, text)

    def _show(self, chosen: Any) -> None:
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
