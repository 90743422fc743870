"""Entering numbers with the buttons: the installer's PIN and a throw of real dice.

The PIN has an attempt limit: after three wrong PINs in a row it cannot be tried again
for 30 seconds, and each further wrong one doubles the wait (up to 15 minutes). The count
is kept (``keep``) so that a restart does not undo it: a table restarted after wrong PINs
makes the installer wait again before the next try.

>>> lock = PinLock()
>>> [lock.wrong(0) for _ in range(3)][-1], lock.wait_s(10_000)
(30, 20)
>>> lock.wrong(40_000), lock.wait_s(40_000)
(60, 60)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from kiosk.app.dice import DiceEntry
from kiosk.app.modes import Card, Legend, Mode
from kiosk.config import PIN_FIRST_WAIT_S, PIN_FREE_TRIES, PIN_LONGEST_WAIT_S


class PinEntry:
    """The installer's PIN, entered one digit at a time with Menu (next digit) and Select.

    >>> entry = PinEntry("21")
    >>> entry.up(); entry.up(); entry.select(); entry.up(); entry.select()
    True
    """

    def __init__(self, pin: str) -> None:
        self._pin = pin
        self.digits: list[int] = []
        self.value = 0

    def up(self) -> None:
        """Show the next digit (9 wraps round to 0)."""
        self.value = (self.value + 1) % 10

    def select(self) -> bool | None:
        """Take the digit shown; once all are in, whether the PIN was right."""
        self.digits.append(self.value)
        self.value = 0
        if len(self.digits) < len(self._pin):
            return None
        right = "".join(map(str, self.digits)) == self._pin
        self.digits = []
        return right

    def back(self) -> bool:
        """Undo a digit; ``False`` when there was none (leave the entry)."""
        if not self.digits:
            return False
        self.value = self.digits.pop()
        return True

    def shown(self) -> str:
        """The digits as the installer sees them (those taken are hidden)."""
        return "*" * len(self.digits) + f"[{self.value}]"


class PinLock:
    """Wrong PINs counted, and the wait they impose (the loop's clock, in ms).

    ``failures`` are the wrong tries kept from before a restart, and ``keep`` keeps each new
    count (the store); the wait they call for starts again the first time the PIN is asked.

    >>> kept = []
    >>> lock = PinLock(3, kept.append)
    >>> lock.wait_s(5_000), lock.wrong(40_000), kept
    (30, 60, [4])
    """

    def __init__(self, failures: int = 0, keep: Callable[[int], None] | None = None) -> None:
        self.failures = failures
        self.until = 0
        self._keep = keep
        self._carried = failures >= PIN_FREE_TRIES  # a wait owed from before a restart

    def wait_s(self, now: int) -> int:
        """Seconds before the PIN may be tried again (0: now)."""
        if self._carried:
            self._carried = False
            self.until = now + self._wait() * 1000
        return max(0, -(-(self.until - now) // 1000))

    def wrong(self, now: int) -> int:
        """A wrong PIN: returns the seconds to wait before the next try (0: none)."""
        self._carried = False
        self.failures += 1
        self._kept()
        if self.failures < PIN_FREE_TRIES:
            return 0
        wait = self._wait()
        self.until = now + wait * 1000
        return wait

    def right(self) -> None:
        """The right PIN: the count starts again."""
        self.failures = 0
        self.until = 0
        self._kept()

    def _wait(self) -> int:
        doublings = min(max(0, self.failures - PIN_FREE_TRIES), 10)  # 30 s x 2^10 > the longest
        return cast("int", min(PIN_FIRST_WAIT_S * 2**doublings, PIN_LONGEST_WAIT_S))

    def _kept(self) -> None:
        if self._keep is not None:
            self._keep(self.failures)


class PinEntryMode(Mode):
    """The PIN asked on a card; ``opened()`` runs once the right PIN is in."""

    name = "pin"

    def __init__(
        self,
        pin: str,
        lock: PinLock,
        clock: Callable[[], int],
        opened: Callable[[], None],
        say: Callable[[str], None],
    ) -> None:
        self.entry = PinEntry(pin)
        self.lock = lock
        self.clock = clock
        self.opened = opened
        self.say = say
        self.note = ""

    def legend(self, player: str) -> Legend:
        if self.lock.wait_s(self.clock()):  # locked out: only leaving does anything
            return (("back", "leave"),)
        return (("menu", "next digit"), ("select", "take it"), ("back", "leave"))

    def card(self) -> Card:
        wait = self.lock.wait_s(self.clock())
        line = f"Wait {wait} s: too many wrong PINs" if wait else self.entry.shown()
        footer = "Back: leave" if wait else "Menu: next digit   Select: take it   Back: leave"
        return Card("Installer PIN", (line, self.note) if self.note else (line,), 0, footer)

    def press(self, button: str, player: str | None) -> None:
        now = self.clock()
        if button == "back":
            if not self.entry.back():
                self.leave()
            return
        if self.lock.wait_s(now):
            return
        if button in ("menu", "done", "up"):
            self.entry.up()
        elif button == "select":
            right = self.entry.select()
            if right is True:
                self.lock.right()
                self.leave()
                self.opened()
            elif right is False:
                wait = self.lock.wrong(now)
                self.note = "That PIN is not right." + (f" Wait {wait} s." if wait else "")
                self.say(self.note)

    def tick(self, now: int) -> None:
        if self.stack.top is self:
            self.stack.refresh()  # the wait counts down on the card


class DiceEntryMode(Mode):
    """A throw of real dice entered with the buttons; ``thrown(d1, d2)`` gets it."""

    name = "dice-entry"

    def __init__(self, thrown: Callable[[int, int], None]) -> None:
        self.entry = DiceEntry()
        self.thrown = thrown

    def legend(self, player: str) -> Legend:
        return (("menu", "next number"), ("select", "take it"), ("back", "leave"))

    def card(self) -> Card:
        taken = self.entry.taken
        line = f"{'Second' if taken else 'First'} die: {self.entry.value}"
        items = (line, f"First die: {taken[0]}") if taken else (line,)
        footer = "Menu: next number   Select: take it   Back: leave"
        return Card("Enter the dice you threw", items, 0, footer)

    def press(self, button: str, player: str | None) -> None:
        if button in ("menu", "done", "up"):
            self.entry.up()
        elif button == "select":
            dice = self.entry.select()
            if dice is not None:
                self.leave()
                self.thrown(*dice)
        elif button == "back" and not self.entry.back():
            self.leave()


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LONGEST_NAME = 12


class NameEntry:
    """Players' names, one letter at a time: the letter shown, taken, or the name ended.

    An empty name stands for "Player N" (kiosk.rules.chouette.player_names).

    >>> entry = NameEntry(2)
    >>> entry.next(); entry.take(); entry.type("n"); entry.type("N"); entry.end()
    >>> entry.end(); entry.done, entry.names
    (True, ['Bnn', ''])
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.names: list[str] = []
        self.current = ""
        self.letter = 0

    @property
    def done(self) -> bool:
        """Whether every player's name is in."""
        return len(self.names) == self.count

    def next(self) -> None:
        """Show the next letter (Z wraps round to A)."""
        self.letter = (self.letter + 1) % len(LETTERS)

    def take(self) -> None:
        """Add the letter shown to the name."""
        self.type(LETTERS[self.letter])

    def type(self, letter: str) -> None:
        """Add a typed letter (a keyboard at the window); names are written Capitalised."""
        if letter.isalpha() and len(self.current) < LONGEST_NAME:
            self.current = (self.current + letter).capitalize()

    def end(self) -> None:
        """This player's name is complete; the next player's begins."""
        if not self.done:
            self.names.append(self.current)
            self.current, self.letter = "", 0

    def back(self) -> bool:
        """Undo a letter, or reopen the last name; ``False`` when there is nothing to undo."""
        if self.current:
            self.current = self.current[:-1]
            return True
        if self.names:
            self.current = self.names.pop()
            return True
        return False


class NameEntryMode(Mode):
    """The players' names asked on a card before a session; ``named(names)`` gets them."""

    name = "names"

    def __init__(self, title: str, labels: list[str], named: Callable[[list[str]], None]) -> None:
        self.title = title
        self.labels = labels  # who each name is for ("White", "Black", "Player 3"...)
        self.entry = NameEntry(len(labels))
        self.named = named

    def legend(self, player: str) -> Legend:
        return (
            ("menu", "next letter"),
            ("select", "take it"),
            ("done", "name complete"),
            ("back", "undo"),
        )

    def card(self) -> Card:
        entry = self.entry
        who = self.labels[len(entry.names)]
        items = [
            f"{who}: {entry.current}_",
            f"Letter {LETTERS[entry.letter]}: Menu: next, Select: add",
            f"Done: name complete (none: '{who}')",
            "At a keyboard: type the name, then Enter",
            *(
                f"{label}: {name or label}"
                for label, name in zip(self.labels, entry.names, strict=False)
            ),
        ]
        facing = who.lower() if who.lower() in ("white", "black") else None  # whose name
        title = f"{self.title}: who is playing?"
        return Card(title, tuple(items), 0, "Back: undo a letter", facing)

    def press(self, button: str, player: str | None) -> None:
        entry = self.entry
        if button in ("menu", "up"):
            entry.next()
        elif button == "select":
            entry.take()
        elif button == "done":
            entry.end()
            if entry.done:
                self.leave()
                self.named(entry.names)
        elif button == "back" and not entry.back():
            self.leave()

    def type(self, key: str) -> None:
        """A key typed at the window: a letter, Return (name complete) or Backspace."""
        if key in ("\r", "\n"):
            self.press("done", None)
        elif key == "\b":
            self.press("back", None)
        else:
            self.entry.type(key)
        if self.stack.top is self:
            self.stack.refresh()
