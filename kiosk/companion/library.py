"""The lessons as the teacher's page offers them: by number, the 21 opening throws, and every
position the lessons lay out (with their dice, where a play is asked).

The lesson of the opening throws is found by its id (``openings``), never by its number: the
lessons are numbered in the order they are taught, which changes as lessons are added.

>>> library = Library.load()
>>> openings = library.openings_lesson()
>>> openings.title, library.lesson(str(openings.info.number)) is openings
('The 21 opening throws', True)
>>> lesson_id, step = library.opening(1, 3)
>>> lesson_id, library.play_step(lesson_id, step).dice
('openings', (3, 1))
>>> label, position, turn, dice = library.positions()[0]
>>> position, turn
('4HPwATDgc/ABMA', 'white')
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.companion.validate import InputError
from kiosk.tutor.lessons import Lesson, Step
from kiosk.tutor.lessons.model import (
    CountStep,
    PlayStep,
    QuestionStep,
    SetupStep,
    lesson_files,
    read_lesson,
)

OPENINGS = "openings"  # the lesson of the 21 opening throws


@dataclass(frozen=True)
class Library:
    """Every lesson installed, read once."""

    lessons: tuple[Lesson, ...]

    @classmethod
    def load(cls) -> Library:
        """Read every lesson file (a bad file is left out: ``kiosk lesson check`` names it)."""
        found = []
        for path in lesson_files():
            try:
                found.append(read_lesson(path))
            except ValueError:
                continue
        return cls(tuple(sorted(found, key=lambda lesson: lesson.info.number)))

    def lesson(self, which: str) -> Lesson:
        """A lesson by its number or its id."""
        for lesson in self.lessons:
            if which in (lesson.id, str(lesson.info.number)):
                return lesson
        numbers = [lesson.info.number for lesson in self.lessons]
        known = (
            f"the lessons are {min(numbers)} to {max(numbers)}" if numbers else "none is installed"
        )
        raise InputError(f"There is no lesson {which!r}; {known}.")

    def by_id(self, lesson_id: str) -> Lesson | None:
        """A lesson by its id, if it is installed."""
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)

    def openings_lesson(self) -> Lesson | None:
        """The lesson of the 21 opening throws, if it is installed."""
        return self.by_id(OPENINGS)

    def opening(self, d1: int, d2: int) -> tuple[str, int]:
        """The lesson and step that play the opening throw ``d1``-``d2``."""
        lesson = self.lesson(OPENINGS)
        want = {(d1, d2), (d2, d1)}
        for step in lesson.steps:
            if isinstance(step, PlayStep) and step.dice in want:
                return lesson.id, step.number
        raise InputError(f"The lesson of the opening throws has no step for {d1}-{d2}.")

    def openings(self) -> list[tuple[int, int]]:
        """The 21 opening throws in the lesson's order."""
        lesson = self.openings_lesson()
        if lesson is None:
            return []
        return [s.dice for s in lesson.steps if isinstance(s, PlayStep)]

    def positions(self) -> list[tuple[str, str, str, str]]:
        """Each position a lesson lays out once, to be set up and played on: (label, Position
        ID, side on roll, dice or ""). A finished game a lesson shows (men to count) is left
        out: there is nothing left to play in it."""
        seen: set[tuple[str, str, str]] = set()
        out = []
        for lesson in self.lessons:
            for step in lesson.steps:
                if isinstance(step, PlayStep):
                    position, dice = step.start, f"{step.dice[0]}-{step.dice[1]}"
                elif isinstance(step, SetupStep):
                    position, dice = step.position, ""
                elif isinstance(step, CountStep):
                    position, dice = step.board, ""
                else:
                    continue
                key = (position.position_id(), str(position.turn), dice)
                if key in seen or position.winner() is not None:
                    continue
                seen.add(key)
                words = f" ({str(position.turn)} to play {dice})" if dice else ""
                label = f"Lesson {lesson.info.number}, step {step.number}{words}"
                out.append((label, key[0], key[1], dice))
        return out

    def question(self, lesson_id: str, step: int) -> QuestionStep | None:
        """The question asked at a lesson's step, if that step asks one."""
        found = self._step(lesson_id, step)
        return found if isinstance(found, QuestionStep) else None

    def play_step(self, lesson_id: str, step: int) -> PlayStep | None:
        """The play asked at a lesson's step, if that step asks one."""
        found = self._step(lesson_id, step)
        return found if isinstance(found, PlayStep) else None

    def _step(self, lesson_id: str, step: int) -> Step | None:
        lesson = self.by_id(lesson_id)
        if lesson is None or not 1 <= step <= len(lesson.steps):
            return None
        return lesson.steps[step - 1]
