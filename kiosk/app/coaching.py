"""The coach at the table: each play of a tutored game rated in the background, and taken back.

:class:`GameCoach` hands plays to a :class:`~kiosk.tutor.coach.CoachWorker` and tags each
``coach`` event it publishes with the turn it rates (``"turn"``, counted from 1); a verdict
on a game that is no longer on is dropped, so it is never taken for the current play.
A play is taken back with :meth:`kiosk.rules.Game.take_back`.

The plays of a throw are rated as soon as the dice land (:meth:`GameCoach.prepare`), in
the same thread, so that the verdict after Done waits only for what the play made adds.
The cube is coached the same way: at each moment a player may double (or must answer a
double) the cube decision is worked out in the same thread (:meth:`GameCoach.analyse_cube`),
so that the double, take or pass made there is rated at once, from what is already known
(:meth:`GameCoach.rate_cube`) — or, if the working out is not done yet, as soon as it is.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from kiosk.config import TutorSection
from kiosk.events import CoachVerdict, Event
from kiosk.rules import Play, Position, RuleProfile, get_profile
from kiosk.tutor.coach import Coach, CoachConfig, CoachWorker, Rating, choose_evaluator
from kiosk.tutor.cube import CubeCoach, CubeDecision, CubeState, cube_coach, cube_event
from kiosk.tutor.evaluators import EvaluatorError
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.hints import RollGrades

log = logging.getLogger(__name__)

Publish = Callable[[Event], None]


def coach_config(tutor: TutorSection) -> CoachConfig:
    """The coach's settings from the ``[tutor]`` section (already validated)."""
    return CoachConfig(
        evaluator=tutor.evaluator,
        plies=tutor.plies,
        thresholds=(tutor.doubtful, tutor.bad, tutor.very_bad),
        timeout=tutor.timeout,
    )


class GameCoach:
    """Rates the plays of tutored games in a background thread; never blocks the caller.

    ``current_game`` numbers the game on now: verdicts on plays of an earlier game are
    dropped. The evaluator is chosen and loaded when the first play is rated, in that
    thread (GNU Backgammon's nets are tens of megabytes a table nobody has played at yet
    does not need); ``problem`` then says why the evaluator asked for is not used ("" if
    it is).
    """

    def __init__(
        self,
        tutor: TutorSection,
        profile: str,
        publish: Publish,
        current_game: Callable[[], int],
    ) -> None:
        self._publish = publish
        self._current_game = current_game
        self._jobs: deque[tuple[int, int]] = deque()
        settings = coach_config(tutor)
        self._coach = CoachOnFirstUse(settings, profile)
        self._worker = CoachWorker(self._coach, self._tagged)
        self._profile, self._teaching = get_profile(profile), False
        self._thresholds = settings.thresholds
        self._lock = threading.Lock()  # the analyses are written in the worker's thread
        self._analyses: dict[tuple[int, int], CubeDecision | None] = {}
        self._asked: set[tuple[int, int]] = set()
        self._prepared: set[tuple[int, int]] = set()  # the rolls whose plays are rated ahead
        self._late: dict[tuple[int, int], list[tuple[str, str]]] = {}  # decided before it
        self._graded: deque[Callable[[RollGrades | None], None]] = deque()  # waiting grades

    @property
    def problem(self) -> str:
        """Why the evaluator asked for is not used ("" if it is, or none is chosen yet)."""
        return self._coach.problem

    @property
    def evaluator(self) -> str:
        """The name of the evaluator rating the plays (chosen now if it was not yet)."""
        return self._coach.made().evaluator.name

    @property
    def teaching(self) -> bool:
        """Whether a bad play of the game on now comes with an offer to take it back."""
        return self._teaching

    def start_game(self, profile: str, teaching: bool) -> None:
        """A new game (or a resumed one) under ``profile``, in teaching mode or not: the
        settings its plays are handed to the worker with."""
        self._profile, self._teaching = get_profile(profile), teaching

    def submit(
        self,
        game: int,
        turn: int,
        before: Position,
        dice: tuple[int, int],
        play: Play,
        player: str,
    ) -> None:
        """Queue turn ``turn`` of game ``game`` (``play`` of ``dice`` from ``before``)."""
        self._jobs.append((game, turn))
        self._worker.submit(before, dice, play, player, self._teaching, self._profile)

    def prepare(self, game: int, turn: int, position: Position, dice: tuple[int, int]) -> None:
        """The dice of turn ``turn`` of game ``game`` have landed: the plays are rated now
        (once, in the worker's thread, never blocking), so that the verdict on the play made
        waits only for what that play adds."""
        key = (game, turn)
        with self._lock:
            if key in self._prepared:
                return
            self._prepared.add(key)
        self._worker.submit_prepare(position, dice, self._profile)

    def analyse_cube(
        self, game: int, turn: int, position: Position, cube: CubeState, player: str
    ) -> None:
        """Work out (once, in the worker's thread) the cube decision of the side on roll in
        ``position`` at turn ``turn`` of game ``game``, for ``player`` (who may double, or
        must answer a double)."""
        key = (game, turn)
        with self._lock:
            if key in self._asked:
                return
            self._asked.add(key)
        self._jobs.append(key)
        self._worker.submit_cube(position, cube, player)

    def rate_cube(self, game: int, turn: int, decision: str, player: str) -> dict[str, Any] | None:
        """The verdict (a ``coach`` event's JSON, with ``"cube"``: the decision) on
        ``player``'s ``decision`` (``double``, ``take``, ``pass``) at that moment, if it was
        worked out in time; else None, and the verdict is published once it is (too late
        to be taken back)."""
        key = (game, turn)
        with self._lock:
            if key not in self._analyses:
                if key in self._asked:
                    self._late.setdefault(key, []).append((decision, player))
                return None
            analysis = self._analyses[key]
        if analysis is None:
            return None
        verdict = cube_event(analysis, decision, player, self._thresholds, self._teaching)
        return {**verdict, "turn": turn}

    def grade_roll(
        self,
        position: Position,
        dice: tuple[int, int],
        profile: RuleProfile,
        done: Callable[[RollGrades | None], None],
    ) -> None:
        """Weigh every play of ``dice`` in ``position`` in the worker's thread; ``done`` is
        called there with the grades (``None`` if they cannot be worked out)."""
        self._graded.append(done)
        self._jobs.append((-1, 0))
        self._worker.submit_grades(position, dice, profile)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every queued play is rated; ``False`` if ``timeout`` ran out first."""
        return self._worker.wait(timeout)

    def close(self) -> None:
        """Stop the worker and release the evaluator."""
        self._worker.close()
        self._coach.close()

    def _tagged(self, event: dict[str, Any]) -> None:
        """The worker's verdict (one per job, in order), tagged and published if still current."""
        game, turn = self._jobs.popleft()
        if event.get("event") == "roll-grades":
            self._graded.popleft()(event.get("grades"))
            return
        if event.get("event") == "cube-analysis":
            analysis = event.get("analysis")
            with self._lock:
                self._analyses[(game, turn)] = analysis
                late = self._late.pop((game, turn), [])
            if game != self._current_game() or analysis is None:
                return
            for decision, player in late:
                verdict = cube_event(analysis, decision, player, self._thresholds, False)
                self._publish(CoachVerdict(data={**verdict, "turn": turn}))
            return
        if game != self._current_game():
            return
        self._publish(CoachVerdict(data={**event, "turn": turn}))


class CoachOnFirstUse:
    """A :class:`~kiosk.tutor.coach.Coach` made the first time it rates a play."""

    def __init__(self, settings: CoachConfig, profile: str) -> None:
        self._settings = settings
        self._profile = profile
        self._coach: Coach | None = None
        self._cube: CubeCoach | None = None
        self._lock = threading.Lock()
        self.problem = ""

    @property
    def profile(self) -> RuleProfile:
        """The rule profile the plays are rated under."""
        return get_profile(self._profile)

    @profile.setter
    def profile(self, profile: RuleProfile) -> None:
        with self._lock:
            self._profile = profile.name
            if self._coach is not None:
                self._coach.profile = profile

    def made(self) -> Coach:
        """The coach, its evaluator chosen and loaded now if it was not yet."""
        with self._lock:
            if self._coach is None:
                settings = self._settings
                try:
                    evaluator = choose_evaluator(settings)
                except (EvaluatorError, OSError) as err:
                    self.problem = f"the {settings.evaluator} evaluator cannot be used ({err})"
                    log.warning("coach: %s; rating with the built-in evaluation", self.problem)
                    evaluator = BuiltinEvaluator()
                self._coach = Coach(evaluator, settings.thresholds, profile=self._profile)
            return self._coach

    def rate(self, *args: Any, **kwargs: Any) -> Rating:
        """:meth:`Coach.rate`, by the coach made on first use."""
        return self.made().rate(*args, **kwargs)

    def prepare(
        self, position: Position, dice: tuple[int, int], more: Callable[[], bool] = lambda: False
    ) -> None:
        """:meth:`Coach.prepare`, by the coach made on first use."""
        self.made().prepare(position, dice, more)
    def grade_roll(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None = None
    ) -> RollGrades:
        """:meth:`Coach.grade_roll`, by the coach made on first use."""
        return self.made().grade_roll(position, dice, profile)

    def decide_cube(self, position: Position, cube: CubeState) -> CubeDecision:
        """The cube decision of the side on roll in ``position``, by the cube coach (made
        on first use, with the same evaluator as the plays' where it has a net)."""
        with self._lock:
            if self._cube is None:
                name = self._settings.evaluator
                self._cube = cube_coach(name if name in ("auto", "gnubg-nn") else "builtin")
            coach = self._cube
        return coach.decide(position, cube)

    def close(self) -> None:
        """Release the evaluator, if one was loaded."""
        with self._lock:
            if self._coach is not None:
                self._coach.close()
