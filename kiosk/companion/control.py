"""What the companion asks of the table, and the queue its commands wait in.

The companion never touches the table's state from its own thread. A command (start a
lesson at a step, lay out a position with dice, start the class's game against the
teacher) is put on a :class:`CommandQueue` by the web server and run on the table's loop
thread, which calls :meth:`CommandQueue.run` once a turn of its loop; the server awaits
the answer. Questions that take time and change nothing (the ranked plays of a roll, the
health facts) are asked from the companion's own worker thread.

>>> class Table:
...     def leave_lesson(self) -> str | None:
...         return None
>>> commands = CommandQueue()
>>> answer = commands.put("leave_lesson")
>>> commands.run(Table()), answer.result()
(1, None)
>>> commands.put("format_disk").result()
Traceback (most recent call last):
...
ValueError: the table has no command 'format_disk'
"""

from __future__ import annotations

import logging
import queue
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

from kiosk.rules import Colour, Position

log = logging.getLogger(__name__)

#: The commands a :class:`TableControl` runs on the loop thread.
COMMANDS: tuple[str, ...] = (
    "start_lesson",
    "leave_lesson",
    "show_position",
    "class_game",
    "set_learner_hints",
)


@dataclass(frozen=True)
class Candidate:
    """One of the best plays of a roll: its equity, what it gives up, and why."""

    move: str
    equity: float | None
    loss: float | None  # equity given up against the best play (0 for the best)
    rating: str  # fine, doubtful, bad, very bad
    reasons: tuple[dict[str, Any], ...] = ()  # the coach's reasons: code, facts, text, cite
    arrows: tuple[tuple[str, str], ...] = ()  # the play's steps as table locations

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "move": self.move,
            "equity": None if self.equity is None else round(self.equity, 3),
            "loss": None if self.loss is None else round(self.loss, 3),
            "rating": self.rating,
            "reasons": [dict(r) for r in self.reasons],
            "arrows": [list(a) for a in self.arrows],
        }


@dataclass(frozen=True)
class Ranking:
    """The ranked plays of a roll, and which evaluator ranked them."""

    candidates: tuple[Candidate, ...]
    evaluator: str
    legal: tuple[str, ...] = field(default=())  # every distinct legal play, in notation


class TableControl(Protocol):
    """The table as the companion may steer it.

    The commands (:data:`COMMANDS`) run on the loop thread and return ``None`` when done,
    or what went wrong in words. ``ranked_plays`` and ``health`` run on the companion's
    worker thread and must not change the table.
    """

    def start_lesson(self, lesson_id: str, step: int | None, learner: str) -> str | None:
        """Run a lesson at the table for ``learner``, from ``step`` (None: where the learner
        left it)."""

    def leave_lesson(self) -> str | None:
        """Leave the lesson on the table, if any: the game comes back."""

    def show_position(self, position: Position, dice: tuple[int, int]) -> str | None:
        """Have the players lay out ``position`` (the side on roll: ``position.turn``), then
        throw ``dice`` for that side."""

    def class_game(self, class_side: Colour) -> str | None:
        """A new game with the coach on: the class plays ``class_side``, the teacher the
        other."""

    def set_learner_hints(self, learner: str, hints: str | None) -> str | None:
        """Keep ``learner``'s own hint budget (``legal``, ``everything``, ``budget N``,
        ``think``; None: as the table is set)."""

    def ranked_plays(self, position: Position, dice: tuple[int, int], count: int) -> Ranking:
        """The ``count`` best plays of ``dice``, rated with reasons by the table's coach."""

    def health(self) -> dict[str, Any]:
        """The facts of the health page (see :mod:`kiosk.companion.health`)."""


@dataclass
class _Command:
    name: str
    args: tuple[Any, ...]
    answer: Future[Any]


class CommandQueue:
    """Commands from the web server, run in order on the table's loop thread."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[_Command] = queue.SimpleQueue()

    def put(self, name: str, *args: Any) -> Future[Any]:
        """Queue ``name(*args)``; the future gets its answer once the loop has run it."""
        answer: Future[Any] = Future()
        if name not in COMMANDS:
            answer.set_exception(ValueError(f"the table has no command {name!r}"))
            return answer
        self._queue.put(_Command(name, args, answer))
        return answer

    def run(self, table: TableControl, limit: int = 4) -> int:
        """Run up to ``limit`` waiting commands on ``table`` (on the loop thread); how many
        ran. A command that fails answers with its error and the loop goes on."""
        count = 0
        while count < limit:
            try:
                command = self._queue.get_nowait()
            except queue.Empty:
                break
            count += 1
            if not command.answer.set_running_or_notify_cancel():
                continue  # the server gave up waiting
            try:
                command.answer.set_result(getattr(table, command.name)(*command.args))
            except Exception as err:  # the table goes on whatever a command does
                log.exception("companion command %s failed", command.name)
                command.answer.set_result(f"The table could not do that: {err}")
        return count
