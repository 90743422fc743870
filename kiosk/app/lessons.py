"""The application's side of a lesson: the table, the event stream and the learner's progress.

:class:`LessonTable` is the :class:`~kiosk.tutor.lessons.LessonHost` the application gives
a :class:`~kiosk.tutor.lessons.LessonEngine`. Every event of the lesson, the engine's own
and those of the referees it asks for, is published with a ``"lesson"`` key naming the
lesson: the application hands exactly those to the engine and keeps them out of the
game's records.

>>> from kiosk.tutor.lessons import LessonInfo
>>> info = LessonInfo("moving", 2, "Moving the men", "")
>>> lesson_label(info, {"moving": (3, False)}), lesson_label(info, {"moving": (9, True)})
('2. Moving the men (step 3)', '2. Moving the men (done)')
>>> lesson_label(info, {})
'2. Moving the men'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kiosk.events import Event, LessonEvent, from_json
from kiosk.play import GameCore
from kiosk.referee import Referee
from kiosk.referee.russian import RussianReferee
from kiosk.rules import Game, Position
from kiosk.rules.russian import RussianPosition
from kiosk.store.store import StoreError
from kiosk.table.sensing import Sensed, project
from kiosk.tutor.lessons import LessonInfo, ProgressStore

Publish = Callable[[Event], None]


def lesson_label(info: LessonInfo, progress: Mapping[str, tuple[int, bool]]) -> str:
    """A line of the Lessons menu: number, title, and how far the learner has come."""
    label = f"{info.number}. {info.title}"
    step, done = progress.get(info.id, (0, False))
    if done:
        return f"{label} (done)"
    if step > 1:
        return f"{label} (step {step})"
    return label


class LessonTable:
    """A :class:`~kiosk.tutor.lessons.LessonHost` on the application's table and bus.

    ``core`` is the game core whose table the lesson borrows (its referees are hosted
    there: the game waits, its dice wells unread).
    """

    def __init__(self, lesson_id: str, publish: Publish, core: GameCore) -> None:
        self.lesson_id = lesson_id
        self._publish = publish
        self._core = core

    def emit(self, event: Event | Mapping[str, Any]) -> None:
        """Publish one of the lesson's events (the engine's JSON, or its referee's event)."""
        data = event.to_json() if isinstance(event, Event) else dict(event)
        data = {**data, "lesson": data.get("lesson", self.lesson_id)}
        found = from_json(data)
        inner = event if isinstance(event, Event) else getattr(found, "inner", found)
        self._publish(LessonEvent(data=data, inner=inner))

    def new_referee(self, game: Game) -> Referee:
        """A fresh referee for ``game``, judging the table from the board it shows now."""
        return self._core.host(game, self.emit)

    def new_variant_referee(self, rules: str, position: RussianPosition) -> RussianReferee:
        """A fresh referee of Russian backgammon under ``rules``, the learner to lay out
        ``position``."""
        return self._core.host_variant(rules, position, self.emit)

    def sensed(self) -> Sensed | None:
        """The board on the table as the lesson's referee judges it."""
        return self._core.board

    def shows(self, position: Position) -> bool:
        """Whether the table shows ``position``, as far as it can tell."""
        reading = self._core.reading
        return reading is not None and reading.shows(project(position, self._core.layout))


class GuardedProgress:
    """A store's lesson progress that never stops a lesson: a failure goes to ``problem``."""

    def __init__(self, store: ProgressStore, problem: Callable[[Exception], None]) -> None:
        self._store = store
        self._problem = problem

    def save_lesson_step(self, slot: str, lesson_id: str, step: int, done: bool) -> None:
        """Remember how far ``slot`` has come (a failure is reported, the lesson goes on)."""
        try:
            self._store.save_lesson_step(slot, lesson_id, step, done)
        except StoreError as err:  # the store says what is wrong in words
            self._problem(err)

    def lesson_progress(self, slot: str) -> Mapping[str, tuple[int, bool]]:
        """Each lesson's progress for ``slot`` (none, if it cannot be read)."""
        try:
            return self._store.lesson_progress(slot)
        except StoreError as err:
            self._problem(err)
            return {}
