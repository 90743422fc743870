"""The coach at the table: each play of a tutored game rated in the background, and taken back.

:class:`GameCoach` hands plays to a :class:`~kiosk.tutor.coach.CoachWorker` and tags each
``coach`` event it publishes with the turn it rates (``"turn"``, counted from 1); a verdict
on a game that is no longer on is dropped, so it is never taken for the current play.
A play is taken back with :meth:`kiosk.rules.Game.take_back`.
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
from kiosk.tutor.evaluators import EvaluatorError
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator

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
        self._coach = _CoachOnFirstUse(coach_config(tutor), profile)
        self._worker = CoachWorker(self._coach, self._tagged)
        self._profile, self._teaching = get_profile(profile), False

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

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every queued play is rated; ``False`` if ``timeout`` ran out first."""
        return self._worker.wait(timeout)

    def close(self) -> None:
        """Stop the worker and release the evaluator."""
        self._worker.close()
        self._coach.close()

    def _tagged(self, event: dict) -> None:
        """The worker's verdict (one per job, in order), tagged and published if still current."""
        game, turn = self._jobs.popleft()
        if game != self._current_game():
            return
        self._publish(CoachVerdict(data={**event, "turn": turn}))


class _CoachOnFirstUse:
    """A :class:`~kiosk.tutor.coach.Coach` made the first time it rates a play."""

    def __init__(self, settings: CoachConfig, profile: str) -> None:
        self._settings = settings
        self._profile = profile
        self._coach: Coach | None = None
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

    def close(self) -> None:
        """Release the evaluator, if one was loaded."""
        with self._lock:
            if self._coach is not None:
                self._coach.close()
