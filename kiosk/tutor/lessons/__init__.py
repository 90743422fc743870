"""Lessons from the classic books, played at the table.

Each lesson is a TOML file in ``data/`` (see :mod:`.model` for the format). The
application lists them with :func:`catalogue`, loads one with :func:`load_lesson`, and
runs it with a :class:`LessonEngine` fed from its event stream (see :mod:`.engine`).

>>> [info.number for info in catalogue()][:3]
[1, 2, 3]
"""

from kiosk.tutor.lessons.engine import LessonEngine, LessonHost, ProgressStore, State
from kiosk.tutor.lessons.model import (
    Lesson,
    LessonError,
    LessonInfo,
    Step,
    catalogue,
    load_lesson,
    read_lesson,
    survey,
)

__all__ = [
    "Lesson",
    "LessonEngine",
    "LessonError",
    "LessonHost",
    "LessonInfo",
    "ProgressStore",
    "State",
    "Step",
    "catalogue",
    "load_lesson",
    "read_lesson",
    "survey",
]
