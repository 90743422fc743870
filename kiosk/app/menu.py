"""The menus, worked with three buttons: Menu moves to the next item, Select takes it,
Back goes up a level (and closes the menu at the top).

Menus are built when opened, so lists (recorded games, lessons) are always current.
Every change is published as a ``menu`` event; ``items`` is empty when the menu closes.

>>> shown = []
>>> stack = MenuStack(shown.append)
>>> picked = []
>>> stack.open(Menu("Main", [Item("Play", lambda: picked.append("play")), Item("Replay")]))
>>> stack.press("menu"); shown[-1]["cursor"]
1
>>> stack.press("menu"); stack.press("select"); picked, stack.is_open
(['play'], False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Publish = Callable[[dict], None]


@dataclass
class Item:
    """One line of a menu: ``action`` runs it, ``submenu`` builds the menu it opens.

    ``label`` may be a function, for items that show a setting's current value.
    """

    label: str | Callable[[], str]
    action: Callable[[], None] | None = None
    submenu: Callable[[], Menu] | None = None
    keep_open: bool = False  # stay in this menu after the action (settings toggles)

    def text(self) -> str:
        """The label as shown now."""
        return self.label() if callable(self.label) else self.label


@dataclass
class Menu:
    """A titled list of items and the cursor on one of them."""

    title: str
    items: list[Item]
    cursor: int = 0
    footer: str = "Menu: next   Select: choose   Back: return"
    on_back: Callable[[], None] | None = None  # run when Back leaves this menu


@dataclass
class MenuStack:
    """The open menus, innermost last; publishes what the players see."""

    publish: Publish
    stack: list[Menu] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        """Whether a menu is showing."""
        return bool(self.stack)

    def open(self, menu: Menu) -> None:
        """Show ``menu`` above whatever is open."""
        self.stack.append(menu)
        self.show()

    def close(self) -> None:
        """Close every menu."""
        self.stack.clear()
        self.show()

    def press(self, button: str) -> None:
        """A button while a menu is open: ``menu`` (next), ``select`` or ``back``."""
        if not self.stack:
            return
        menu = self.stack[-1]
        if button == "menu" or button == "down":
            menu.cursor = (menu.cursor + 1) % max(1, len(menu.items))
        elif button == "up":
            menu.cursor = (menu.cursor - 1) % max(1, len(menu.items))
        elif button == "back":
            self.stack.pop()
            if menu.on_back is not None:
                menu.on_back()
        elif button == "select" and menu.items:
            self._select(menu.items[menu.cursor])
            return
        self.show()

    def pick(self, index: int) -> None:
        """Choose item ``index`` of the open menu at once (a tap or a number key)."""
        if self.stack and 0 <= index < len(self.stack[-1].items):
            self.stack[-1].cursor = index
            self._select(self.stack[-1].items[index])

    def _select(self, item: Item) -> None:
        if item.submenu is not None:
            self.stack.append(item.submenu())
        elif not item.keep_open:
            self.stack.clear()
        if item.action is not None:
            item.action()
        self.show()

    def show(self) -> None:
        """Publish the innermost menu (or that the menus are closed)."""
        if not self.stack:
            self.publish({"event": "menu", "title": "", "items": [], "cursor": 0})
            return
        menu = self.stack[-1]
        self.publish(
            {
                "event": "menu",
                "title": menu.title,
                "items": [item.text() for item in menu.items],
                "cursor": menu.cursor,
                "footer": menu.footer,
            }
        )


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

    def prompt(self) -> str:
        """What the installer sees (the digits taken are hidden)."""
        stars = "*" * len(self.digits)
        return f"Installer PIN: {stars}[{self.value}]  Menu: next digit, Select: take it."
