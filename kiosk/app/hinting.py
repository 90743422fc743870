"""The hint budget at the table: how much of a lifted man's destinations is shown.

A :class:`HintGiver` follows the event stream. When a person's dice land (in a game or a
lesson's play) it asks for the turn's :class:`HintTurn` and, if the budget grades, hands
every play of the roll to the coach's thread to be weighed; the loop never waits. Each
time a man is lifted it publishes a :class:`~kiosk.events.Hints` event: the destinations'
grades once they are weighed (plain legal destinations are shown until then, and graded
as soon as the weighing is done if the man is still in the hand), ``used-up`` when a
budget of graded lifts is spent, or ``think`` (nothing shown until Done). With the
budget ``legal`` it publishes nothing: the table shows every legal destination, as always.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.config import HintBudget
from kiosk.events import Destinations, Dice, Event, Hints, LessonEvent, Opening, Played
from kiosk.rules import Colour, Position, RuleProfile
from kiosk.table.sensing import location, point_of
from kiosk.tutor.hints import RollGrades

Publish = Callable[[Event], None]
#: Weighs every play of a roll off the loop: (position, dice, profile, called with the grades).
Grader = Callable[
    [Position, tuple[int, int], RuleProfile, Callable[[RollGrades | None], None]], None
]


@dataclass(frozen=True)
class HintTurn:
    """A person's turn the hints are for: the position before the play, the dice, who
    plays, the hint budget in force and the rules of the play."""

    position: Position
    dice: tuple[int, int]
    player: Colour
    budget: HintBudget
    profile: RuleProfile


class HintGiver:
    """Publishes a ``hints`` event for each lifted man, as the turn's budget allows.

    ``turn`` gives the turn on now if a person plays it (None: the table's own turn, no
    play awaited); ``grade`` weighs a roll's plays in the coach's thread.
    """

    def __init__(
        self, publish: Publish, turn: Callable[[], HintTurn | None], grade: Grader
    ) -> None:
        self._publish = publish
        self._turn_now = turn
        self._grade = grade
        self._lock = threading.Lock()  # the grades arrive in the coach's thread
        self._turn: HintTurn | None = None
        self._serial = 0  # counts the turns: grades of an earlier one are dropped
        self._grades: RollGrades | None = None
        self._waiting: Destinations | None = None  # a lift whose grades are not ready yet
        self._used = 0  # graded lifts shown this turn
        self._last: tuple[str, str] | None = None  # the last lift graded: (base, from)

    def follow(self, event: Event) -> None:
        """An event of the stream (a lesson's referee's events too)."""
        inner = event.inner if isinstance(event, LessonEvent) else event
        if isinstance(inner, Dice):
            self._new_turn(inner.player, inner.dice)
        elif isinstance(inner, Opening) and inner.starter is not None:
            self._new_turn(inner.starter, tuple(inner.dice or ()))  # plays the opening throw
        elif isinstance(inner, Destinations):
            self._lifted(inner)
        elif isinstance(inner, Played):
            with self._lock:
                self._turn, self._waiting = None, None

    def _new_turn(self, player: Colour, dice: tuple[int, ...]) -> None:
        turn = self._turn_now()
        if turn is not None and (turn.player != player or sorted(turn.dice) != sorted(dice)):
            turn = None  # the game went on before this throw was heard of
        with self._lock:
            self._serial += 1
            self._turn, self._grades, self._waiting = turn, None, None
            self._used, self._last = 0, None
            serial = self._serial
        if turn is not None and turn.budget.graded:
            self._grade(turn.position, turn.dice, turn.profile, lambda g: self._graded(serial, g))

    def _graded(self, serial: int, grades: RollGrades | None) -> None:
        """The roll weighed (in the coach's thread): a man still in the hand is graded now."""
        with self._lock:
            if serial != self._serial:
                return
            self._grades = grades
            waiting, self._waiting = self._waiting, None
            hints = self._hints(waiting) if waiting is not None and grades is not None else None
        if hints is not None:
            self._publish(hints)

    def _lifted(self, event: Destinations) -> None:
        with self._lock:
            turn = self._turn
            if turn is None or event.player != turn.player or not event.table:
                return
            src = str(event.table.get("from", ""))
            budget = turn.budget
            hints: Hints | None = None
            if budget.mode == "think":
                hints = Hints(player=turn.player, src=src, state="think")
            elif not budget.graded:
                return
            elif budget.mode == "budget" and self._used >= budget.lifts and not self._again(event):
                hints = Hints(player=turn.player, src=src, state="used-up")
            elif self._grades is None:
                self._waiting = event  # plain legal destinations until the grades come
            else:
                hints = self._hints(event)
        if hints is not None:
            self._publish(hints)

    def _again(self, event: Destinations) -> bool:
        """Whether this is the lift graded last, reported again (counted once)."""
        return self._last == (str(event.base), str(event.table.get("from", "")))

    def _hints(self, event: Destinations) -> Hints | None:
        """The graded hints for a lift (the lock held), counted against the budget."""
        turn, grades = self._turn, self._grades
        if turn is None or grades is None or not event.base:
            return None
        where = str(event.table.get("from", ""))
        mover = turn.player
        try:
            base = Position.from_id(str(event.base), mover)
            src = point_of(mover, where)
        except (KeyError, ValueError):
            return None
        graded = {location(mover, dst): g for dst, g in grades.destinations(base, src).items()}
        if not graded:
            return None
        if not self._again(event):
            self._used += 1
            self._last = (str(event.base), where)
        if turn.budget.mode == "budget":
            left = turn.budget.lifts - self._used
            return Hints(player=mover, src=where, state="graded", grades=graded, left=left)
        return Hints(player=mover, src=where, state="graded", grades=graded)
