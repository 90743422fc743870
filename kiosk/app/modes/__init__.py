"""The table's modes, one stack of them: the top mode gets the buttons.

Each mode says what each button means now (its legend, drawn on each player's side) and
what it shows over the board (a card: a menu, the PIN, the dice entry, a notice). The
game is always at the bottom; a lesson, a replay, a menu, the settings, the PIN or dice
entry, an offer (a double, a take-back), the end of a game or the attract screen go on
top of it and are taken off when left. Back leaves the mode on top and never reaches
through it to undo something elsewhere.

Some modes have the table (:class:`Activity`): the game at the bottom, and above it at
most one lesson, replay or game of another variant. The topmost one is *the activity*;
it says once what follows from having the table (whether its events are recorded, the
coach rates, the cube may be offered, "press Done" is said) and everything else reads
it there. When the activity changes the stack publishes its ``mode`` event and lets it
take the table from the game core (:meth:`Activity.take`); the game takes it back when
it is uncovered.

A new activity touches at most three files under ``kiosk/``: its module under
``kiosk/app/modes/`` (an :class:`Activity` subclass: ``kind``, what it allows, its
``banner``, ``take`` and its buttons), the place that starts it (an item in
``kiosk/app/menus.py`` calling ``app.transitions.activity(TheMode(app))``, which replaces
any other activity), and a new :class:`~kiosk.events.Kind` in ``kiosk/events.py`` if the
view must draw it differently.
``tests/app/test_activities.py`` defines one in a few lines.

>>> shown = []
>>> class Quiet(Activity):
...     name = "quiet"
>>> class Asking(Mode):
...     name = "asking"
...     def legend(self, player):
...         return (("back", "leave"),)
...     def press(self, button, player):
...         if button == "back":
...             self.stack.pop(self)
>>> stack = ModeStack(shown.append, Quiet())
>>> stack.push(Asking())
>>> stack.names(), stack.legend("white")
(['quiet', 'asking'], (('back', 'leave'),))
>>> stack.press("back", None)
>>> stack.names()
['quiet']

An activity above the game, published when it takes the table and when it gives it back:

>>> class Game(Activity):
...     name = "game"
>>> class Demo(Activity):
...     name, kind = "demo", Kind.REPLAY
...     def banner(self):
...         return "A demonstration"
>>> stack = ModeStack(shown.append, Game())
>>> stack.push(Demo())
>>> stack.activity.name, shown[-1].mode, shown[-1].banner
('demo', <Kind.REPLAY: 'replay'>, 'A demonstration')
>>> stack.pop(stack.top)
>>> stack.activity.name, shown[-1].to_json()
('game', {'event': 'mode', 'mode': 'game', 'banner': ''})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from kiosk.events import MISSING, Event, Kind, MenuShown, ModeChanged
from kiosk.rules import Colour

if TYPE_CHECKING:
    from kiosk.app.events import EventBus
    from kiosk.app.learners import Learners
    from kiosk.app.lessons import GuardedProgress
    from kiosk.app.replay import Replay
    from kiosk.app.speech import Speaker
    from kiosk.app.tutoring import TableTutor
    from kiosk.config import Config
    from kiosk.display.view import TableView
    from kiosk.link import TableLink
    from kiosk.play import GameCore, PlaySession
    from kiosk.rules import Position
    from kiosk.rules.chouette import Chouette
    from kiosk.rules.session import Session
    from kiosk.simtable import SimulatedTable
    from kiosk.store import Store, StoreWriter
    from kiosk.tutor.lessons import LessonEngine

Publish = Callable[[Event], None]
Legend = tuple[tuple[str, str], ...]  # (button, what it does now), in the order drawn


@dataclass(frozen=True)
class Card:
    """What a mode shows over the board: a title, lines (one under the cursor), a footer."""

    title: str
    items: tuple[str, ...]
    cursor: int = 0
    footer: str = ""
    player: str | None = None  # drawn facing this player; None: for both
    numbers: tuple[int, ...] = ()  # each item's number key (the same every time it shows)

    def event(self) -> MenuShown:
        """The ``menu`` event that shows this card."""
        return MenuShown(
            title=self.title,
            items=self.items,
            cursor=self.cursor,
            footer=self.footer,
            player=Colour.parse(self.player) if self.player is not None else MISSING,
            numbers=self.numbers or MISSING,
        )


class Menus(Protocol):
    """The table's menus as the modes ask for them (:class:`kiosk.app.menus.TableMenus`)."""

    def lessons(self) -> Any: ...  # kiosk.app.menu.Menu (which imports the modes)
    def welcome(self) -> Any: ...
    def choose(self, options: list[str], choose: Callable[[int], None]) -> Any: ...
    def wrong_move(self, title: str, accept: Callable[[], None]) -> Any: ...


class Host(Protocol):
    """What the modes and the menus ask of the application (:class:`kiosk.app.main.App`)."""

    config: Config
    config_file: Path | None
    bus: EventBus
    view: TableView
    link: TableLink
    core: GameCore  # the game, its referee, the cube, the table's side, the session
    store: Store | StoreWriter | None
    simulator: SimulatedTable | None
    tutor: bool
    installer_notes: list[str]  # what is missing, for the installer's eyes (Settings)
    dice_source: str  # wells, buttons or digital
    now: int
    idle_since: int  # the last sign of somebody at the table (ms, as now)
    modes: ModeStack
    store_problem: str  # why there is no store, if there is none
    speaker: Speaker | None
    companion: Any  # kiosk.app.companion.Companion, once started (it imports the modes)
    tutoring: TableTutor  # the coach on the game
    learners: Learners  # who learns at the table, and their own hint budgets

    @property
    def menus(self) -> Menus: ...

    transitions: Any  # kiosk.app.transitions.Transitions (which imports the modes)

    @property
    def lesson(self) -> LessonEngine | None: ...
    @property
    def session(self) -> PlaySession | None: ...

    def detail_player(self, player: str | None = None) -> str | None: ...
    def open_menu(self, player: str | None) -> None: ...
    def new_game(self, position: Position | None = None, tutor: bool | None = None) -> None: ...
    def play_the_table(
        self, colour: Colour, level: str, position: Position | None = None
    ) -> None: ...
    def play_friends(self, tutor: bool) -> None: ...
    def start_session(self, session: Session | Chouette) -> None: ...
    def play_russian(self, variant: str) -> None: ...
    def start_lesson(self, lesson_id: str, slot: str | None = None) -> None: ...
    def start_replay(self, replay: Replay) -> None: ...
    def report_store(self, err: Exception) -> None: ...
    def progress(self) -> GuardedProgress | None: ...
    def ask_pin(self) -> None: ...
    def worth_keeping(self) -> bool: ...
    def put_away_game(self) -> None: ...
    def quit(self) -> None: ...
    def banner(self) -> str: ...
    def say(self, to: str, text: str, warning: bool = False) -> None: ...


CLOSED = MenuShown(title="", items=(), cursor=0)


class Mode:
    """One thing the table is doing. Subclasses set ``name`` and override what they use."""

    name = "mode"
    stack: ModeStack  # set when pushed

    def legend(self, player: str) -> Legend:
        """The buttons that do something now on ``player``'s side, with what they do."""
        return ()

    def press(self, button: str, player: str | None) -> None:
        """A button: ``done`` (with the player), ``menu``, ``back``, ``select`` or ``up``."""

    def card(self) -> Card | None:
        """What this mode shows over the board, if anything."""
        return None

    def entered(self) -> None:
        """The mode has just been put on the stack."""

    def tick(self, now: int) -> None:
        """Time passes (the loop's clock, in ms) while this mode is on the stack."""

    def leave(self) -> None:
        """Take this mode (and anything above it) off the stack: Back, or its work done."""
        self.stack.pop(self)

    def open(self, mode: Mode) -> None:
        """Open this mode's own sub-mode (a submenu) above it."""
        self.stack.push(mode)


class Activity(Mode):
    """A mode that has the table (see the module docstring). The game allows everything;
    the others allow what they say."""

    kind: ClassVar[Kind] = Kind.GAME  # the ``mode`` event's
    recorded: ClassVar[bool] = False  # its events go into the game's record
    coached: ClassVar[bool] = False  # the coach rates its plays and cube decisions
    cube: ClassVar[bool] = False  # a double may be offered
    says_done: ClassVar[bool] = False  # "press Done" is said when the men show a whole play

    def banner(self) -> str:
        """The line both players see while this activity has the table."""
        return ""

    def lesson_id(self) -> str | None:
        """The lesson on the table, if this is one."""
        return None

    def changed(self) -> ModeChanged:
        """The ``mode`` event that says this activity has the table."""
        lesson = self.lesson_id()
        return ModeChanged(
            mode=self.kind, banner=self.banner(), lesson=MISSING if lesson is None else lesson
        )

    def take(self) -> None:
        """The table is this activity's now (it was pushed, or uncovered): take it from the
        game core."""


ACTIVITIES = (Activity,)  # ``replacing=`` for an activity pushed over the game: one at a time


class ModeStack:
    """The modes, the game at the bottom; the only place modes are put on and taken off."""

    def __init__(self, publish: Publish, base: Activity) -> None:
        self._publish = publish
        self._modes: list[Mode] = []
        self._shown: MenuShown = CLOSED  # nothing over the board at the start
        self._activity = base  # the game has the table from the start: nothing to say
        self.push(base)

    @property
    def activity(self) -> Activity:
        """The topmost mode that has the table (the game at the bottom, if no other)."""
        return next(m for m in reversed(self._modes) if isinstance(m, Activity))

    @property
    def base(self) -> Mode:
        """The mode at the bottom: the game."""
        return self._modes[0]

    def announce(self) -> None:
        """Say again what has the table (its banner changed: the tutor switched on...)."""
        self._publish(self.activity.changed())

    @property
    def top(self) -> Mode:
        """The mode that gets the buttons."""
        return self._modes[-1]

    def names(self) -> list[str]:
        """The modes' names, bottom first."""
        return [m.name for m in self._modes]

    def find(self, kind: type) -> Mode | None:
        """The topmost mode of ``kind``, if one is on the stack."""
        return next((m for m in reversed(self._modes) if isinstance(m, kind)), None)

    def below(self, mode: Mode) -> Mode | None:
        """The mode under ``mode``, if any."""
        index = self._modes.index(mode)
        return self._modes[index - 1] if index > 0 else None

    def push(self, mode: Mode, replacing: tuple[type, ...] = ()) -> None:
        """Put ``mode`` on top, taking every mode of the kinds ``replacing`` off first (the
        bottom stays): one change, so an activity replaced by another never hands the
        table back to the game in between."""
        mode.stack = self
        self._modes[1:] = [m for m in self._modes[1:] if not isinstance(m, replacing)]
        self._modes.append(mode)
        mode.entered()
        self.refresh()

    def insert(self, mode: Mode, above: type) -> None:
        """Put ``mode`` just above the topmost mode of kind ``above`` (under any menu)."""
        mode.stack = self
        index = max(i for i, m in enumerate(self._modes) if isinstance(m, above))
        self._modes.insert(index + 1, mode)
        mode.entered()
        self.refresh()

    def pop(self, mode: Mode) -> None:
        """Take ``mode`` (and anything above it) off the stack; the bottom stays."""
        if mode in self._modes[1:]:
            del self._modes[self._modes.index(mode) :]
            self.refresh()

    def drop(self, *kinds: type) -> None:
        """Take every mode of these kinds off, leaving the others as they are."""
        kept = [self._modes[0]] + [m for m in self._modes[1:] if not isinstance(m, kinds)]
        if len(kept) != len(self._modes):
            self._modes = kept
            self.refresh()

    def reset(self) -> None:
        """Back to the bottom mode alone."""
        del self._modes[1:]
        self.refresh()

    def press(self, button: str, player: str | None) -> None:
        """A button goes to the top mode."""
        self.top.press(button, player)
        self.refresh()

    def tick(self, now: int) -> None:
        """Let time pass for every mode on the stack."""
        for mode in list(self._modes):
            mode.tick(now)

    def legend(self, player: str) -> Legend:
        """What the buttons do now on ``player``'s side."""
        return self.top.legend(player)

    def refresh(self) -> None:
        """Hand the table over if the activity changed (its ``mode`` event, then it takes
        the table); show the top mode's card (or none), if that changed."""
        activity = self.activity
        if activity is not self._activity:
            self._activity = activity
            self._publish(activity.changed())
            activity.take()
        card = self.top.card()
        shown = card.event() if card is not None else CLOSED
        if shown != self._shown:
            self._shown = shown
            self._publish(shown)
