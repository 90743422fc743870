"""The table's menus, each built once: the main menu behind the Menu button, the
installer's settings behind the PIN, and the lists built afresh when they open (lessons
with their progress, games to replay) or when the referee asks (which play, a wrong move).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from kiosk.app.dice import resolve_source
from kiosk.app.lessons import lesson_label
from kiosk.app.menu import Item, Menu
from kiosk.app.modes import Host
from kiosk.app.modes.entry import NameEntryMode
from kiosk.app.modes.game import double, may_double
from kiosk.app.replay import book_replays, recorded_replay
from kiosk.config import save_config
from kiosk.events import Message
from kiosk.play import CubeError, throw_off
from kiosk.rules import WHITE, Colour, Phase
from kiosk.rules.chouette import Chouette, ChouetteError, player_names
from kiosk.rules.profiles import PROFILES
from kiosk.rules.session import Scoring, Session, SessionError
from kiosk.store.store import StoreError
from kiosk.tutor.lessons import survey

DICE_SOURCES = ("auto", "wells", "buttons", "digital")

log = logging.getLogger(__name__)
#: Parker's options for scoring by the loser's stranded men (kiosk.rules.stranded), in words.
STRANDED_OPTIONS = {
    1: "1 a man",
    2: "1, 2, 3 or 4 a man, the farther from home the more",
    3: "1, 2, 4 or 8 a man, the farther from home the more",
}


class TableMenus:
    """The menus of one table; actions go to the application."""

    def __init__(self, app: Host) -> None:
        self.app = app
        c = app.config
        self.main = Menu(
            "Backgammon Table",
            [
                Item("Back to the game"),
                Item(self._double_label, lambda: double(app), shown=lambda: may_double(app)),
                Item("Lessons: learn the game step by step", submenu=self.lessons),
                Item("New game with the tutor", lambda: app.play_friends(tutor=True)),
                Item("New game without the tutor", lambda: app.play_friends(tutor=False)),
                Item("Play against the table", submenu=self.against),
                Item("A match, a money session, a rubber or a chouette", submenu=self.sessions),
                Item(
                    "A partner declines the box's double",
                    submenu=self.declines,
                    shown=lambda: (
                        bool(app.session and app.session.may_decline())
                        and app.core.game.phase == Phase.DOUBLE_OFFERED
                        and app.core.game.turn == WHITE
                    ),
                ),
                Item("Russian backgammon (the books' other game)", submenu=self.russian),
                Item("Replay a game", submenu=self.replays),
                Item("Settings (installer)", app.ask_pin),
                Item(  # the learner's own hints, kept in the records (kiosk.app.learners)
                    lambda: app.learners.label(c.tutor.hint_budget),
                    lambda: app.learners.step(),
                    keep_open=True,
                    shown=lambda: app.store is not None,
                ),
            ],
        )
        self.settings = Menu(
            "Settings",
            [
                Item(lambda: f"Tutor: {_on(c.tutor.enabled)}", self._toggle_tutor, keep_open=True),
                Item(lambda: f"Dice: {c.dice.source}", self._next_dice, keep_open=True),
                Item(lambda: f"Rules: {c.rules.profile}", self._next_profile, keep_open=True),
                Item(lambda: f"Referee: {c.referee.mode}", self._next_mode, keep_open=True),
                Item(
                    lambda: f"Speech: {_on(c.speech.enabled)}", self._toggle_speech, keep_open=True
                ),
                Item(lambda: f"Volume: {c.speech.volume}%", self._next_volume, keep_open=True),
                Item(
                    lambda: f"Large text: {_on(c.display.large_text)}",
                    self._toggle_large_text,
                    keep_open=True,
                ),
                Item(
                    lambda: f"Class companion (web pages): {_on(c.companion.enabled)}",
                    self._switch_companion,
                    keep_open=True,
                ),
                Item("Test the table's switches", self._self_test),
                Item("Save these settings", self._save),
                Item(
                    lambda: f"Notes for the installer ({len(app.installer_notes)})",
                    submenu=self._installer_notes,
                    shown=lambda: bool(app.installer_notes),
                ),
                Item("Quit the application", app.quit),
            ],
            name="settings",
            on_back=self._settings_left,
        )

    # -- the main menu -------------------------------------------------------------------

    def welcome(self) -> Menu:
        """What to do, for whoever wakes the table: carry on with the game on it (if one is
        under way), a new game, a lesson, a game against the table, or the whole menu."""
        app = self.app
        return Menu(
            "Welcome: what would you like to do?",
            [
                Item("Carry on with the game on the table", shown=app.worth_keeping),
                Item("A new game, the tutor watching", lambda: app.play_friends(tutor=True)),
                Item("Lessons: learn the game step by step", submenu=self.lessons),
                Item("Play against the table", submenu=self.against),
                Item("Everything else: the main menu", submenu=lambda: self.main),
            ],
        )

    def _installer_notes(self) -> Menu:
        """What is missing, as the start-up found it (``kiosk doctor`` says more)."""
        notes = self.app.installer_notes
        return Menu("Notes for the installer", [Item(n) for n in notes], numbered=False)

    def against(self) -> Menu:
        """Which side the table plays, and how strongly (the friendly level first)."""
        app = self.app
        items = []
        for level in ("intermediate", "beginner", "expert"):
            for table in (Colour.BLACK, Colour.WHITE):
                words = f"You play {table.other}, the table {table} ({level})"

                def start(table: Colour = table, level: str = level) -> None:
                    app.play_the_table(table, level)

                items.append(Item(words, start))
        return Menu("Play against the table", items)

    def sessions(self) -> Menu:
        """The sessions the books describe and today's match, each after the players' names."""
        two = ["White", "Black"]
        rules = self.app.config.rules.profile  # money and chouettes: the table's own rules
        Row = tuple[str, list[str], Callable[[Sequence[str]], Session | Chouette]]

        def group(title: str, rows: list[Row]) -> Callable[[], Menu]:
            return lambda: Menu(  # the names are asked under the row's name, not its words
                title,
                [
                    Item(t, _call(self._names, t.split(": ")[0], labels, make))
                    for t, labels, make in rows
                ],
            )

        def match(k: int) -> Callable[[Sequence[str]], Session | Chouette]:
            return lambda n: Session.match(k, players=n)

        def stake(k: int) -> Callable[[Sequence[str]], Session | Chouette]:
            return lambda n: Session.money(rules, stake=k, players=n)

        def stranded_men(o: int, m: bool) -> Callable[[Sequence[str]], Session | Chouette]:
            scoring = Scoring(f"stranded{o}")
            return lambda n: Session.money(rules, scoring=scoring, stranded_multiply=m, players=n)

        matches: list[Row] = [(f"Match to {k} points", two, match(k)) for k in (3, 5, 7)]
        money: list[Row] = [(f"Money, {k} a game", two, stake(k)) for k in (1, 2, 5)]
        money.append(
            (
                "Money, 1 a game, a backgammon counting 4",
                two,
                lambda n: Session.money(rules, backgammon=4, players=n),
            )
        )
        stranded: list[Row] = [
            (
                f"Stranded men, option {o}{', with games' if m else ''}: {STRANDED_OPTIONS[o]}",
                two,
                stranded_men(o, m),
            )
            for m in (False, True)
            for o in (1, 2, 3)
        ]
        chouettes: list[Row] = [
            (
                f"Chouette of {k} players (Parker)",
                [f"Player {i}" for i in range(1, k + 1)],
                self._chouette,
            )
            for k in (3, 4, 5, 6)
        ]
        rubber: Row = ("Rubber: best of three (Hoffmann)", two, lambda n: Session.rubber(players=n))
        cady: Row = ("Set: best of five (Cady)", two, lambda n: Session.set(players=n))
        return Menu(
            "Matches and sessions",
            [
                Item("A match to 3, 5 or 7 points", submenu=group("A match", matches)),
                Item("A money session", submenu=group("A money session", money)),
                Item(
                    "Scored by the loser's stranded men (Parker)",
                    submenu=group(
                        "The loser's men left on the board score for the winner "
                        "(with games: x2 for a gammon, x3 for a backgammon)",
                        stranded,
                    ),
                ),
                *(
                    Item(t, _call(self._names, t, labels, make))
                    for t, labels, make in (rubber, cady)
                ),
                Item(
                    "A chouette of 3 to 6 players (Parker)", submenu=group("A chouette", chouettes)
                ),
            ],
        )

    def _names(
        self, title: str, labels: list[str], make: Callable[[Sequence[str]], Session | Chouette]
    ) -> None:
        """Ask the players' names, then start the session ``make`` builds from them."""
        app = self.app

        def entered(names: list[str]) -> None:
            names = [name or label for name, label in zip(names, labels, strict=True)]
            try:
                session = make(tuple(names) if len(labels) == 2 else names)
            except (SessionError, ChouetteError) as err:
                app.say("both", f"That cannot start: {err}", warning=True)
                return
            app.start_session(session)

        app.transitions.names(NameEntryMode(title, labels, entered))

    def _chouette(self, names: Sequence[str]) -> Chouette:
        """Parker's chouette: the table throws the throw-off for the players and says it."""
        throws, said = throw_off(player_names(len(names), list(names)))
        self.app.say("both", f"Throw-off: {said}.")
        return Chouette.seated(throws, profile=self.app.config.rules.profile)

    def russian(self) -> Menu:
        """Russian backgammon by either book's rules."""
        app = self.app
        return Menu(
            "Russian backgammon",
            [
                Item("By Cady's rules (1895)", lambda: app.play_russian("russian-cady")),
                Item("By Foster's rules (1897)", lambda: app.play_russian("russian-foster")),
            ],
        )

    def declines(self) -> Menu:
        """The partners who may decline the box's double by themselves (Parker)."""
        app = self.app
        session = app.session
        names = session.may_decline() if session is not None else []

        def decline(name: str) -> None:
            try:
                app.core.cube.decline(name)
            except CubeError as err:
                app.say("both", f"{str(err).capitalize()}.")
                return
            app.say("both", f"{name} declines the double and settles with the playing opponent.")

        items = [Item(f"{name} declines", _call(decline, name)) for name in names]
        return Menu("Which partner declines?", items or [Item("Nobody may decline now.")])

    def _double_label(self) -> str:
        game = self.app.core.game
        return f"Double to {2 * game.cube.value} ({game.turn} offers)"

    def lessons(self) -> Menu:
        """The lessons in order, each with how far this table's learner has come."""
        app = self.app
        lessons, damaged = survey()
        for err in damaged:
            log.error("lesson left out: %s", err)
        store = app.progress()
        progress = store.lesson_progress(app.learners.current) if store else {}
        items = [Item(lesson_label(i, progress), _call(app.start_lesson, i.id)) for i in lessons]
        items += [Item(f"Left out, damaged: {err}") for err in damaged]  # for the installer
        return Menu("Lessons", items or [Item("No lessons are installed.")], numbered=False)

    def replays(self) -> Menu:
        """Crawley's recorded games and the last games played at this table."""
        app = self.app
        items = [Item(r.title, _call(app.start_replay, r)) for r in book_replays()]
        for game_id, title in self.recorded_games():
            items.append(Item(title, _call(self._replay_recorded, game_id, title)))
        return Menu("Replay a game", items)

    def recorded_games(self) -> list[tuple[int, str]]:
        """The last finished games played here: (id, title)."""
        app = self.app
        if app.store is None:
            return []
        try:
            games = app.store.recent_games(8)  # those rows only, however many games are kept
        except StoreError as err:  # the store says what is wrong in words
            app.report_store(err)
            return []
        return [
            (g.id, f"Game {g.id}, {g.started[:10]}: {g.winner} won ({g.result})") for g in games
        ]

    def _replay_recorded(self, game_id: int, title: str) -> None:
        app = self.app
        assert app.store is not None
        try:
            game = app.store.load_game(game_id)
        except StoreError as err:  # the store says what is wrong in words
            app.say("both", f"That game cannot be read back: {err}", warning=True)
            return
        app.start_replay(recorded_replay(title, game))

    @staticmethod
    def start_choice(start: Callable[[], None]) -> Menu:
        """An unfinished game was resumed although a position to start was given."""
        return Menu(
            "An unfinished game was found",
            [Item("Go on with the unfinished game"), Item("Start the position given", start)],
        )

    # -- asked by a referee --------------------------------------------------------------

    @staticmethod
    def choose(options: list[str], choose: Callable[[int], None]) -> Menu:
        """Which of several plays reaching the same board was made."""
        items = [Item(text, _call(choose, i)) for i, text in enumerate(options)]
        return Menu("Which play did you make?", items)

    @staticmethod
    def wrong_move(title: str, accept: Callable[[], None]) -> Menu:
        """A wrong move under the laws: let it stand, or have it put right."""
        return Menu(title, [Item("Let the move stand", accept), Item("Have it put right first")])

    # -- the installer's settings ----------------------------------------------------------

    def _toggle_tutor(self) -> None:
        app = self.app
        app.config.tutor.enabled = app.tutor = not app.config.tutor.enabled
        app.modes.announce()  # the banner says whether the tutor is on

    def _next_dice(self) -> None:
        d = self.app.config.dice
        # Bluetooth dice are named in the file (their transport is built at start): the
        # menu goes from them to the first of its own
        now = DICE_SOURCES.index(d.source) if d.source in DICE_SOURCES else -1
        d.source = DICE_SOURCES[(now + 1) % len(DICE_SOURCES)]
        self.app.dice_source = resolve_source(d.source, self.app.simulator is not None)

    def _next_profile(self) -> None:
        names = sorted(PROFILES)
        r = self.app.config.rules
        r.profile = names[(names.index(r.profile) + 1) % len(names)]

    def _next_mode(self) -> None:
        r = self.app.config.referee
        r.mode = "laws" if r.mode == "teaching" else "teaching"

    def _toggle_speech(self) -> None:
        s = self.app.config.speech
        s.enabled = not s.enabled

    def _next_volume(self) -> None:
        s = self.app.config.speech
        s.volume = (s.volume + 25) % 225

    def _toggle_large_text(self) -> None:
        """Every word on the screen larger, or back to its usual size (the display follows)."""
        d = self.app.config.display
        d.large_text = not d.large_text

    def _switch_companion(self) -> None:
        from kiosk.app.companion import switch  # aiohttp is loaded only when it is used

        self._installer(switch(self.app))

    def _self_test(self) -> None:
        if not self.app.link.request_self_test():
            self._installer("The table is not connected, so it cannot test its switches.")

    def _save(self) -> None:
        app = self.app
        try:
            where = save_config(app.config, app.config_file)
        except OSError as err:
            self._installer(f"The settings could not be saved: {err}", warning=True)
            return
        self._installer(f"Settings saved to {where}; new games use them.")

    def _installer(self, text: str, warning: bool = False) -> None:
        """Words for the installer in Settings: held above the players' own lines, and
        gone from them when the installer leaves Settings."""
        self.app.bus.publish(Message(to="both", text=text, warning=warning, prompt="notice"))

    def _settings_left(self) -> None:
        self.app.bus.publish(Message(to="both", text="", prompt="notice"))


def _call(fn: Callable[..., None], *args: object) -> Callable[[], None]:
    return lambda: fn(*args)


def _on(flag: bool) -> str:
    return "on" if flag else "off"
