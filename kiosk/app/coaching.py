"""The coach at the table: each play of a tutored game rated in the background, and taken back.

:class:`GameCoach` hands plays to a :class:`~kiosk.tutor.coach.CoachWorker` and tags each
``coach`` event it publishes with the turn it rates (``"turn"``, counted from 1); a verdict
on a game that is no longer on is dropped, so it is never taken for the current play.
A play is taken back with :meth:`kiosk.rules.Game.take_back`.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

from kiosk.config import TutorSection
from kiosk.events import CoachVerdict, Event
from kiosk.rules import Play, Position, get_profile
from kiosk.tutor.coach import Coach, CoachConfig, CoachWorker, choose_evaluator
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
    dropped. ``problem`` says why the evaluator asked for is not used ("" if it is).
    """

    def __init__(
        self,
        tutor: TutorSection,
        profile: str,
        publish: Publish,
        current_game: Callable[[], int],
    ) -> None:
        settings = coach_config(tutor)
        self.problem = ""
        try:
            evaluator = choose_evaluator(settings)
        except (EvaluatorError, OSError) as err:
            self.problem = f"the {settings.evaluator} evaluator cannot be used ({err})"
            log.warning("coach: %s; rating with the built-in evaluation", self.problem)
            evaluator = BuiltinEvaluator()
        self.evaluator = evaluator.name
        self._publish = publish
        self._current_game = current_game
        self._jobs: deque[tuple[int, int]] = deque()
        coach = Coach(evaluator, settings.thresholds, profile=profile)
        self._worker = CoachWorker(coach, self._tagged)

    @property
    def teaching(self) -> bool:
        """Whether a bad play comes with an offer to take it back."""
        return self._worker.teaching

    def start_game(self, profile: str, teaching: bool) -> None:
        """A new game (or a resumed one) under ``profile``, in teaching mode or not."""
        self._worker.teaching = teaching
        self._worker.coach.profile = get_profile(profile)

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
        self._worker.submit(before, dice, play, player)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every queued play is rated; ``False`` if ``timeout`` ran out first."""
        return self._worker.wait(timeout)

    def close(self) -> None:
        """Stop the worker and release the evaluator."""
        self._worker.close()
        self._worker.coach.close()

    def _tagged(self, event: dict) -> None:
        """The worker's verdict (one per job, in order), tagged and published if still current."""
        game, turn = self._jobs.popleft()
        if game != self._current_game():
            return
        self._publish(CoachVerdict(data={**event, "turn": turn}))
