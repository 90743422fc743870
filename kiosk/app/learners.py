"""Who learns at the table, and each learner's own hint budget.

How much a lifted man's destinations are shown (:class:`~kiosk.config.HintBudget`) is
decided in this order, the first that says anything winning:

1. the lesson on the table, if it sets ``hints``;
2. the learner's own setting, kept in the records (``learner_settings``), which the
   learner changes in the main menu (its last line) and the teacher from the companion;
3. the table's ``[tutor] hints``.

>>> table = HintBudget.parse("legal")
>>> str(hint_budget(table)), str(hint_budget(table, HintBudget.parse("think")))
('legal', 'think')
>>> str(hint_budget(table, HintBudget.parse("think"), HintBudget.parse("everything")))
'everything'

The learner is the one whose lesson progress is kept: the one a lesson was last started
for (the companion names one), else the table's ``[tutor] player_slot``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from kiosk.config import HintBudget
from kiosk.store import Store, StoreError
from kiosk.store.writer import StoreWriter

log = logging.getLogger(__name__)

#: What a learner may choose at the table, in the order Select steps through them; None
#: is "as the table is set".
CHOICES: tuple[HintBudget | None, ...] = (
    None,
    HintBudget("legal"),
    HintBudget("everything"),
    HintBudget("budget", 3),
    HintBudget("think"),
)


def hint_budget(
    table: HintBudget, learner: HintBudget | None = None, lesson: HintBudget | None = None
) -> HintBudget:
    """The hint budget in force: the lesson's, else the learner's, else the table's."""
    if lesson is not None:
        return lesson
    return learner if learner is not None else table


def hint_words(budget: HintBudget) -> str:
    """A hint budget in a newcomer's words.

    >>> [hint_words(b) for b in CHOICES[1:]]
    ['where a man may go', 'all graded', '3 graded a turn', 'think first']
    >>> hint_words(HintBudget("budget", 1))
    '1 graded a turn'
    """
    return {
        "legal": "where a man may go",
        "everything": "all graded",
        "budget": f"{budget.lifts} graded a turn",
        "think": "think first",
    }[budget.mode]


class Learners:
    """The learner at the table and the learners' own hint budgets (read once each, then
    kept; a failing store is reported through ``problem`` and counts as no setting)."""

    def __init__(
        self,
        store: Callable[[], Store | StoreWriter | None],
        default: str,
        problem: Callable[[Exception], None],
    ) -> None:
        self._store = store
        self.current = default
        self._problem = problem
        self._known: dict[str, HintBudget | None] = {}
        self._reading: set[str] = set()  # learners whose setting is being read

    def hints(self, learner: str | None = None) -> HintBudget | None:
        """``learner``'s own hint budget (the current learner's by default), if set; never
        waits on the store: a learner not read yet is read in a thread of its own and
        counts as having none until then."""
        name = self.current if learner is None else learner
        if name not in self._known and name not in self._reading:
            self._reading.add(name)
            threading.Thread(target=self._read, args=(name,), daemon=True).start()
        return self._known.get(name)

    def _read(self, name: str) -> None:
        store = self._store()
        try:
            found = store.learner_hints(name) if store is not None else None
        except StoreError as err:  # the store's trouble is said by its own writes
            log.warning("a learner's hints could not be read: %s", err)
            found = None
        self._known.setdefault(name, found)  # a setting made meanwhile stands
        self._reading.discard(name)

    def set_hints(self, learner: str, budget: HintBudget | None) -> str | None:
        """Keep ``learner``'s own hint budget (None: as the table is set); what went
        wrong, in words, if it could not be kept."""
        store = self._store()
        if store is None:
            return "The records are not kept here, so a learner's setting cannot be kept."
        try:
            store.save_learner_hints(learner, None if budget is None else str(budget))
        except StoreError as err:
            return str(err)
        self._known[learner] = budget
        return None

    def step(self) -> None:
        """The current learner's setting moved on to the next of :data:`CHOICES`."""
        mine = self.hints()
        at = CHOICES.index(mine) if mine in CHOICES else 0
        problem = self.set_hints(self.current, CHOICES[(at + 1) % len(CHOICES)])
        if problem is not None:
            self._problem(StoreError(problem))

    def label(self, table: HintBudget) -> str:
        """The Lessons menu's line for the current learner's hints."""
        mine = self.hints()
        if mine is None:
            return f"Hints for {self.current}: {hint_words(table)} (table's)"
        return f"Hints for {self.current}: {hint_words(mine)}"
