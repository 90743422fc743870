"""Faulty reeds found during play, from the slots of each reading, and named.

Men sit on a point from its edge inwards, so its closed reeds are always the first ones.
Three faults are told apart from the slots alone, without the game:

- a reed that **keeps changing** (a loose magnet, a failing reed: more than
  ``CHATTER_CHANGES`` changes in ``CHATTER_MS``, however slow each change) is held at the
  value it showed most, until it has been still for ``QUIET_MS``;
- a **man that cannot be where the reading says**: an open reed below a closed one, still
  for ``GAP_MS``. One reed that never opens (welded) or never closes (dead) explains it; the
  explanations that fit every such picture of that point are kept, and once one is left
  the reed is named and its reading put right (a welded reed reads empty; a dead reed
  reads a man while a man is read beyond it);
- until then such a picture is not judged: the point's last possible reading stands (a
  hand sliding men shows one for a moment);
- a reed named so is put right in every later reading: the referee judges the rest of the
  board, and the player is never told a rule was broken for what the reed did.

Each fault is said once, with its point and slot, and ``kiosk commission`` suggested.

>>> watch = ReedWatch()
>>> slots = {"8": (1, 1, 0, 0, 1)}  # two men on the 8 point, and the fifth reed closed
>>> watch.repair(slots, 0)  # not judged as it reads: the likelier fault put right
({'8': (1, 1, 0, 0, 0)}, [])
>>> print(watch.repair(slots, GAP_MS)[1][0][:68])
The reed at point 8, slot 5 from the edge reads a man where none can
>>> watch.faults[("8", 4)]
'welded'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from kiosk.table import TableReading

CHATTER_CHANGES = 8  # changes of one reed in CHATTER_MS that make it a chattering reed
CHATTER_MS = 2000
QUIET_MS = 3000  # a chattering reed still this long is trusted again
GAP_MS = 4000  # a point read with a gap this long is a fault, not a hand passing

WHITE_MAN, BLACK_MAN = 1, 2  # a slot's state for a white or a black man (SlotState)
Slots = Mapping[str, tuple[int, ...]]  # per location, each slot's state (0: empty) from the edge
Fault = tuple[str, int]  # a location and a slot (0: the slot at the edge)


class ReedWatch:
    """Watches every reed across readings; see the module docstring."""

    def __init__(self) -> None:
        self.faults: dict[Fault, str] = {}  # a reed found faulty: "welded" or "dead"
        self.chattering: dict[Fault, int] = {}  # a chattering reed: the state it is held at
        self._last: dict[str, tuple[int, ...]] = {}
        self._changes: dict[Fault, deque[tuple[int, int]]] = {}  # (when, new state)
        self._still_since: dict[Fault, int] = {}
        self._gap: dict[str, tuple[tuple[int, ...], int]] = {}  # a picture with a gap, since
        self._fits: dict[str, set[tuple[str, int]]] = {}  # explanations left, per location
        self._whole: dict[str, tuple[int, ...]] = {}  # each point's last possible reading
        self._said: set[object] = set()

    def repair(self, slots: Slots, now: int) -> tuple[dict[str, tuple[int, ...]], list[str]]:
        """``slots`` with the faulty reeds' readings put right, and what to say (new faults,
        each once)."""
        said: list[str] = []
        fixed: dict[str, tuple[int, ...]] = {}
        for where, states in slots.items():
            states = tuple(states)
            self._withdraw(where, states)
            self._watch_changes(where, states, now, said)
            held = tuple(self.chattering.get((where, i), state) for i, state in enumerate(states))
            gap = self._watch_gap(where, held, now, said)
            fixed[where] = self._put_right(where, held)
            if gap and not any(at == where for at, _ in self.faults):
                fixed[where] = self._whole.get(where) or _likely(held)
            elif not _explanations(fixed[where]):
                self._whole[where] = fixed[where]
        return fixed, said

    def _withdraw(self, where: str, states: tuple[int, ...]) -> None:
        """A reed called welded that opens, or dead that closes, was not: trusted again (a
        man put down in the middle of a point and taken up again looks welded a while)."""
        for (at, slot), kind in list(self.faults.items()):
            if at == where and slot < len(states) and bool(states[slot]) == (kind == "dead"):
                del self.faults[(at, slot)]
                self._fits.pop(where, None)
                self._said.discard(((at, slot), kind))

    # -- a reed that keeps changing ------------------------------------------------------------

    def _watch_changes(
        self, where: str, states: tuple[int, ...], now: int, said: list[str]
    ) -> None:
        last = self._last.get(where)
        self._last[where] = states
        for i, state in enumerate(states):
            reed = (where, i)
            if last is not None and i < len(last) and last[i] != state:
                changes = self._changes.setdefault(reed, deque(maxlen=CHATTER_CHANGES * 4))
                changes.append((now, state))
                self._still_since[reed] = now
                recent = [c for c in changes if now - c[0] <= CHATTER_MS]
                if len(recent) >= CHATTER_CHANGES and reed not in self.chattering:
                    self.chattering[reed] = _most_shown(recent, state)
                    self._say(said, reed, "chatter", _chatter_words(where, i))
            elif reed in self.chattering and now - self._still_since.get(reed, now) >= QUIET_MS:
                del self.chattering[reed]  # still again: its reading is trusted
                self._changes.pop(reed, None)
                self._said.discard((reed, "chatter"))

    # -- a man where none can be -----------------------------------------------------------------

    def _watch_gap(self, where: str, states: tuple[int, ...], now: int, said: list[str]) -> bool:
        """Whether the point reads a man where none can be (until its fault is known, such
        a picture is not judged: the point's last possible reading stands)."""
        if any(fault[0] == where for fault in self.faults):
            return False  # this point's fault is known: its readings are put right
        explained = _explanations(states)
        if not explained:
            self._gap.pop(where, None)
            return False
        seen = self._gap.get(where)
        if seen is None or seen[0] != states:
            self._gap[where] = (states, now)
            return True
        if now - seen[1] < GAP_MS:
            return True
        fits = self._fits.get(where)
        fits = explained if fits is None else fits & explained
        self._fits[where] = fits or explained  # a picture no one reed explains: start again
        if len(self._fits[where]) == 1:
            kind, slot = next(iter(self._fits[where]))
            self.faults[(where, slot)] = kind
            self._say(said, (where, slot), kind, _fault_words(where, slot, kind))
        else:
            slots = sorted(slot for _, slot in self._fits[where])
            self._say(said, where, "gap", _gap_words(where, slots))
        return True

    def _put_right(self, where: str, states: tuple[int, ...]) -> tuple[int, ...]:
        fixed = list(states)
        for (at, slot), kind in self.faults.items():
            if at != where or slot >= len(fixed):
                continue
            if kind == "welded":
                fixed[slot] = 0
            elif any(fixed[slot + 1 :]) and not fixed[slot]:  # dead, with a man beyond it
                fixed[slot] = next(s for s in fixed[slot + 1 :] if s)
        return tuple(fixed)

    def _say(self, said: list[str], reed: object, kind: str, words: str) -> None:
        if (reed, kind) not in self._said:
            self._said.add((reed, kind))
            said.append(words)


def _explanations(states: tuple[int, ...]) -> set[tuple[str, int]]:
    """The single faulty reeds that explain a point read with an open reed below a closed
    one: ``("dead", slot)`` or ``("welded", slot)``; empty if the reading is possible."""
    closed = [i for i, state in enumerate(states) if state]
    if not closed:
        return set()
    top = closed[-1]
    holes = [i for i in range(top) if not states[i]]
    if not holes:
        return set()
    found: set[tuple[str, int]] = set()
    if len(holes) == 1:
        found.add(("dead", holes[0]))
    beyond = [i for i in closed if i > holes[0]]
    if len(beyond) == 1:
        found.add(("welded", beyond[0]))
    return found


def _likely(states: tuple[int, ...]) -> tuple[int, ...]:
    """A point's reading put right by the likelier single fault: a man on a reed that
    does not close, else a reed stuck closed."""
    fixed = list(states)
    for kind, slot in sorted(_explanations(states)):  # "dead" before "welded"
        if kind == "dead":
            fixed[slot] = next(s for s in states[slot + 1 :] if s)
        else:
            fixed[slot] = 0
        break
    return tuple(fixed)


def _most_shown(changes: list[tuple[int, int]], last: int) -> int:
    """The state a chattering reed showed most often lately (its last, on a tie)."""
    counts: dict[int, int] = {}
    for _, state in changes:
        counts[state] = counts.get(state, 0) + 1
    return max(counts, key=lambda s: (counts[s], s == last))


def place(where: str, slot: int) -> str:
    """A reed named for whoever opens the table: its point (white's numbering) and slot."""
    if where.startswith(("bar-", "off-")):
        part, owner = where.split("-", 1)
        name = f"{owner}'s {'bar' if part == 'bar' else 'tray'}"
    else:
        name = f"point {where}"
    return f"{name}, slot {slot + 1} from the edge"


COMMISSION = "judging goes on for the rest of the board; run 'kiosk commission' to check it"


def _chatter_words(where: str, slot: int) -> str:
    return f"The reed at {place(where, slot)} keeps switching on and off: {COMMISSION}."


def _fault_words(where: str, slot: int, kind: str) -> str:
    if kind == "welded":
        what = "reads a man where none can be (it seems stuck closed)"
    else:
        what = "does not read the man on it (it seems never to close)"
    return f"The reed at {place(where, slot)} {what}: {COMMISSION}."


def _gap_words(where: str, slots: list[int]) -> str:
    named = " or ".join(str(slot + 1) for slot in slots)
    point = place(where, 0).split(",")[0]
    return (
        f"The reeds of {point} read a man that cannot be there (slot {named} from the "
        f"edge misreads): {COMMISSION}."
    )


def repaired(watch: ReedWatch, reading: TableReading, now: int) -> tuple[TableReading, list[str]]:
    """``reading`` with its faulty reeds put right (its counts, and colours where sensed,
    made again from the slots), and what to say; a reading without slots as it is."""
    if reading.slots is None:
        return reading, []
    slots, said = watch.repair(reading.slots, now)
    if not said and all(slots[w] == tuple(reading.slots[w]) for w in slots):
        return reading, said
    counts = {where: sum(1 for s in states if s) for where, states in slots.items()}
    colours = None
    if reading.colours is not None:
        colours = {
            where: (states.count(WHITE_MAN), states.count(BLACK_MAN))
            for where, states in slots.items()
        }
    return TableReading(counts, colours, reading.dice, slots), said
