"""What the class companion reads and writes in the table's records: the methods both the
store (:class:`~kiosk.store.Store`) and its writer (:class:`~kiosk.store.StoreWriter`, as
``kiosk run`` keeps the records) must have, checked by mypy where the app hands its
records to the companion."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kiosk.store import ClassAnswer, LessonRecord

if TYPE_CHECKING:
    from kiosk.store import Store, StoreWriter


class ClassRecords(Protocol):
    """The records as the companion uses them."""

    @property
    def path(self) -> Path:
        """The records file."""
        ...

    def save_class_answer(self, answer: ClassAnswer) -> None:
        """Keep one student's answer to a class vote."""
        ...

    def class_answers(self, student: str | None = None) -> list[ClassAnswer]:
        """The answers kept, oldest first (one student's, if named)."""
        ...

    def lesson_progress(self, player_slot: str) -> dict[str, tuple[int, bool]]:
        """How far ``player_slot`` has come in each lesson."""
        ...

    def all_lesson_progress(self) -> list[LessonRecord]:
        """Every learner's progress in every lesson."""
        ...

    def learners(self, offset: int, limit: int) -> tuple[int, list[str]]:
        """How many learners there are, and the names on one page of them."""
        ...

    def progress_of(self, names: list[str]) -> tuple[list[LessonRecord], list[ClassAnswer]]:
        """The lesson progress and class answers of the learners named."""
        ...

    def activity_since(self, since: str) -> tuple[int, int]:
        """Games started and lessons worked on since ``since`` (ISO 8601, UTC)."""
        ...


if TYPE_CHECKING:  # mypy: the store and its writer both serve the companion

    def _both(store: Store, writer: StoreWriter) -> tuple[ClassRecords, ClassRecords]:
        return store, writer
