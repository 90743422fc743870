"""The menus, worked with three buttons: Menu moves to the next item, Select takes it,
Back leaves the menu (to the menu it came from, or to the table).

A :class:`Menu` is built once and opened as a :class:`MenuMode` on the mode stack; lists
that change (recorded games, lessons and their progress) are built by their ``submenu``
function each time they open. An item may be hidden while it does not apply (``shown``).

>>> from kiosk.app.modes import Activity, ModeStack
>>> shown, picked = [], []
>>> main = Menu("Main", [Item("Play", lambda: picked.append("play")), Item("Replay")])
>>> stack = ModeStack(shown.append, Activity())
>>> stack.push(MenuMode(main))
>>> stack.press("menu", None); shown[-1]["cursor"]
1
>>> stack.press("menu", None); stack.press("select", None); picked, stack.names()
(['play'], ['mode'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.app.modes import Card, Legend, Mode

FOOTER = "Menu: next   Select: choose   Back: leave"


@dataclass
class Item:
    """One line of a menu: ``action`` runs it, ``submenu`` builds the menu it opens.

    ``label`` may be a function, for items that show a setting's current value.
    """

    label: str | Callable[[], str]
    action: Callable[[], None] | None = None
    submenu: Callable[[], Menu] | None = None
    keep_open: bool = False  # stay in this menu after the action (settings toggles)
    shown: Callable[[], bool] | None = None  # None: always shown

    def text(self) -> str:
        """The label as shown now."""
        return self.label() if callable(self.label) else self.label


@dataclass
class Menu:
    """A titled list of items."""

    title: str
    items: list[Item]
    on_back: Callable[[], None] | None = None  # run when Back leaves this menu
    name: str = "menu"  # the mode's name while it is open ("settings" for the installer's)
    numbered: bool = True  # the number keys pick its items (not a list numbered by itself)
    cursor: int = 0  # the item under the cursor when it opens

    def visible(self) -> list[Item]:
        """The items that apply now."""
        return [i for i in self.items if i.shown is None or i.shown()]


class MenuMode(Mode):
    """An open menu: Menu (or up/down) moves, Select takes, Back leaves this menu."""

    def __init__(self, menu: Menu, player: str | None = None) -> None:
        self.menu = menu
        self.name = menu.name
        self.player = player
        self.cursor = menu.cursor

    def legend(self, player: str) -> Legend:
        return (("menu", "next item"), ("select", "choose"), ("back", "leave the menu"))

    def card(self) -> Card:
        visible = self.menu.visible()
        items = tuple(i.text() for i in visible)
        numbers = tuple(range(1, len(visible) + 1)) if self.menu.numbered else ()
        return Card(self.menu.title, items, self.cursor, FOOTER, self.player, numbers)

    def press(self, button: str, player: str | None) -> None:
        items = self.menu.visible()
        if button in ("menu", "down"):
            self.cursor = (self.cursor + 1) % max(1, len(items))
        elif button == "up":
            self.cursor = (self.cursor - 1) % max(1, len(items))
        elif button == "back":
            self.leave()
            if self.menu.on_back is not None:
                self.menu.on_back()
        elif button == "select" and items:
            self.take(items[min(self.cursor, len(items) - 1)])

    def pick(self, number: int) -> None:
        """Take item ``number`` at once (a number key): the items shown are numbered from 1
        without gaps; in a list whose items carry their own numbers ("11. The 21 opening
        throws") the item of that number."""
        visible = self.menu.visible()
        if self.menu.numbered:
            chosen = visible[number - 1] if 1 <= number <= len(visible) else None
        else:
            chosen = next((i for i in visible if i.text().startswith(f"{number}. ")), None)
        if chosen is not None:
            self.cursor = visible.index(chosen)
            self.take(chosen)
            self.stack.refresh()

    def take(self, item: Item) -> None:
        """Run an item: open its submenu, or leave the menus and do its action."""
        if item.submenu is not None:
            self.open(MenuMode(item.submenu(), self.player))
        elif not item.keep_open:
            bottom = self
            while isinstance(below := self.stack.below(bottom), MenuMode):
                bottom = below
            bottom.leave()
        if item.action is not None:
            item.action()
