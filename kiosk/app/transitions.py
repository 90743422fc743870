"""The one place that decides when the table's modes change.

A button goes to the mode on top of the :class:`~kiosk.app.modes.ModeStack`, and that
mode says what the button means; the only change a mode makes to the stack by itself is
to leave it (:meth:`~kiosk.app.modes.Mode.leave`: Back, or its work done) or to open its
own submenu (:meth:`~kiosk.app.modes.Mode.open`). Every other change is decided here,
and ``tests/app/test_transitions.py`` holds the code to that:

==========================================  =============================================
what happens                                what the modes do
==========================================  =============================================
start-up on a simulated table              a notice goes on top (any button clears it)
the store fails                             a notice goes on top, once
Menu in the game, a game's end, an offer    the main menu goes on top, facing the presser
the referee asks which play was meant       the choice menu goes on top
a wrong move stands unclaimed (laws mode)   the "wrong move" menu goes on top
the coach offers a take-back (the game on   the take-back offer goes on top, until the
top, the verdict about the latest turn)     game goes on (dice, a play, a new game...)
a double is offered (or resumed on offer)   the offer goes just above the game
a bad double or pass, in a teaching game    the coach's offer to take it back goes on top
                                            (Back: taken back; Select: it stands)
the game is over                            a double on offer lapses; the game's end goes
                                            on top until a button
a new game starts                           a replay, a lesson, a game's end and offers
                                            lapse
the installer's PIN is asked for            PIN entry, then the settings menu
a session is chosen from the menu           name entry goes on top, then the session's
                                            first game starts
Done with button dice                       the dice entry goes on top
a replay, a lesson or Russian backgammon    it replaces any other activity (the game
starts                                      waits under it) and any take-back offer;
                                            Back leaves it (the game takes the table
                                            back); a new game drops it
a lesson ends or is left                    the Lessons menu, over the men as the lesson
                                            left them (Back from it: the game)
nobody at the table ``invite_after_s``     the attract screen goes on top
a button pressed or a man moved             the attract screen goes, and the choice of
                                            what to do opens (the press does nothing else)
a class open on the companion, or its       the idle clock starts again; the attract
teacher acting                              screen or a warning goes (nothing opens)
a game left ``put_away_after_s`` (or found  a warning with a countdown goes on top; any
that old after a restart)                   button keeps the game; at its end the game is
                                            put away, a new one laid out, the attract
                                            screen shown
==========================================  =============================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kiosk.app.menu import Menu, MenuMode
from kiosk.app.modes import ACTIVITIES, Activity, Mode
from kiosk.app.modes.attract import (
    AbandonWarningMode,
    AttractMode,
    NoticeMode,
)
from kiosk.app.modes.entry import DiceEntryMode, NameEntryMode, PinEntryMode
from kiosk.app.modes.game import DoubleOfferMode, GameEndMode, GameMode, TakeBackOfferMode
from kiosk.app.modes.replay import ReplayMode
from kiosk.display.view import GAME_GOES_ON
from kiosk.events import (
    Choose,
    CoachVerdict,
    Event,
    GameOver,
    WrongMove,
)
from kiosk.rules import Phase

if TYPE_CHECKING:
    from kiosk.app.modes import Host, ModeStack
    from kiosk.app.replay import Replay

NOTICE_MS = 30_000  # how long the start-up notices stay if no button is pressed


class Transitions:
    """The table's mode changes (see the module docstring), for one application."""

    def __init__(self, app: Host, modes: ModeStack) -> None:
        self.app = app
        self.modes = modes
        self._warned: int | None = None  # the idle spell a warning was given for

    # -- what happens in the game ------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        """An event of the table: the modes it opens or makes lapse."""
        app = self.app
        if isinstance(event, GAME_GOES_ON):  # the view lets the offer's words lapse too
            self.modes.drop(TakeBackOfferMode)
        match event:
            case Choose(options=options):
                self.menu(app.menus.choose(list(options), app.core.choose))
            case WrongMove(player=player):
                title = f"{str(player).capitalize()} made a wrong move"
                self.menu(app.menus.wrong_move(title, app.core.accept))
            case GameOver() if self.modes.activity is self.modes.base:  # the game's
                self.modes.drop(DoubleOfferMode)
                self.modes.push(GameEndMode(app))
            case CoachVerdict(take_back=True) if "cube" not in event.data:  # a play's
                game = app.core.game
                current = event.turn == len(game.turns) and game.phase == Phase.ROLL
                if current and isinstance(self.modes.top, GameMode):
                    self.modes.push(TakeBackOfferMode(app, event))

    def new_game(self) -> None:
        """A game starts (or is resumed): what belonged to the last one lapses."""
        self.modes.drop(*ACTIVITIES, GameEndMode, DoubleOfferMode, TakeBackOfferMode)

    def rethink(self, mode: Mode) -> None:
        """The coach offers to take back a bad double or pass before it stands."""
        self.modes.push(mode)

    def double_offered(self, taker: str) -> None:
        """A double is on offer to ``taker``: the offer waits just above the game."""
        if self.modes.find(DoubleOfferMode) is None:
            self.modes.insert(DoubleOfferMode(self.app, taker), GameMode)

    # -- what the players ask for ----------------------------------------------------------

    def menu(self, menu: Menu, player: str | None = None) -> None:
        """A menu on top, facing ``player`` (both players with None)."""
        self.modes.push(MenuMode(menu, player))

    def dice_entry(self, throw: Callable[[int, int], None]) -> None:
        """The players enter the dice they threw with the buttons."""
        self.modes.push(DiceEntryMode(throw))

    def pin(self, entry: PinEntryMode) -> None:
        """The installer's PIN is asked for."""
        self.modes.push(entry)

    def names(self, entry: NameEntryMode) -> None:
        """The players' names are asked for before a session."""
        self.modes.push(entry)

    def activity(self, activity: Activity) -> None:
        """An activity (a lesson, a replay, a Russian game) takes the table, replacing any
        other and any take-back offer; the game waits under it."""
        self.modes.push(activity, replacing=(*ACTIVITIES, TakeBackOfferMode))

    def replay(self, replay: Replay) -> None:
        """A stored game is shown turn by turn."""
        self.activity(ReplayMode(self.app, replay))

    def lesson_over(self, between: Activity, menu: Menu) -> None:
        """A lesson ended or was left: the Lessons menu over the table between lessons (Back
        from it gives the table back to the game)."""
        self.activity(between)
        self.menu(menu)

    # -- the table's own ---------------------------------------------------------------------

    def notice(self, lines: list[str], show_ms: int = NOTICE_MS) -> None:
        """Something the players should know (what is missing), until a button."""
        self.modes.push(NoticeMode(lines, show_ms))

    def tick(self, now: int, idle_since: int) -> None:
        """Time passes: after ``[display] invite_after_s`` with nobody at the table, the
        attract screen; after ``put_away_after_s``, a warning before the game left is put
        away."""
        settings = self.app.config.display
        idle = now - idle_since
        if idle >= settings.invite_after_s * 1000 and self.modes.find(AttractMode) is None:
            self.modes.push(AttractMode())
        if (
            idle >= settings.put_away_after_s * 1000
            and self._warned != idle_since
            and self.modes.find(AbandonWarningMode) is None
            and self.app.worth_keeping()
        ):
            self._warned = idle_since
            minutes = idle // 60_000
            self.abandoned(f"{minutes} minutes ago")

    def abandoned(self, left: str) -> None:
        """A game left a long while (``left`` says when): warn, then put it away."""
        self.modes.push(AbandonWarningMode(left, self._put_away))

    def _put_away(self) -> None:
        """Nobody answered the warning: a new game for the next visitor, and the invitation."""
        self.app.put_away_game()  # the game has the table again
        self.modes.reset()
        self.modes.push(AttractMode())

    def present(self) -> None:
        """Somebody is with the table though nobody touches it (a class, its teacher): the
        idle clock starts again; the attract screen or a warning goes (nothing opens)."""
        self.app.idle_since = self.app.now
        for kind in (AbandonWarningMode, AttractMode):
            mode = self.modes.find(kind)
            if mode is not None:
                self.modes.pop(mode)

    def woken(self, player: str | None = None) -> bool:
        """Somebody is at the table (a button, a man moved): a warning is answered (the
        game kept), the attract screen goes and the choice of what to do opens (facing
        ``player``). Whether a press was taken for it (and does nothing else)."""
        warning = self.modes.find(AbandonWarningMode)
        attract = self.modes.find(AttractMode)
        if warning is not None:
            self.modes.pop(warning)
            if attract is not None:
                self.modes.pop(attract)
            return True
        if attract is not None:
            self.modes.pop(attract)
            self.menu(self.app.menus.welcome(), player)
            return True
        return False
