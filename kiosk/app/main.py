"""The table application: the link, the referee, the modes and the picture, in one loop.

Data flows one way. Frames from the ``TableLink`` go to the ``Referee``; everything
the referee decides, every button press and every link status change is published on
one ``EventBus``; the ``TableView``, the store, the speech, the lights and the app's own
reactions all follow that stream. The buttons go to the mode on top of the
:class:`~kiosk.app.modes.ModeStack` (the game at the bottom; lessons, replays, menus, the
PIN, dice entry, offers, the end of a game and the attract screen above it), which says
what each button does now; the display draws that legend on each player's side. The
loop draws only when something changed; the link reads the serial port in its own
threads and speech runs in its own thread, so nothing freezes the picture.

On start the unfinished game in the store is resumed: the referee guides the players to
lay the men out as they were (``set_up(position, restoring=True)``) and play goes on
with the same throw.

With the tutor on, every play is rated by the coach in a background thread; in teaching
mode a bad play may be taken back with Back while the offer is on screen (a
``take-back`` event), and the same player plays the same dice again. The Menu offers a
double when the rules and the cube allow it; the adversary takes with Select or passes
with Back (``cube`` events). What has the table — the game, a lesson, a replay or a
Russian game — is the activity on top of the mode stack (:class:`~kiosk.app.modes.Activity`):
it says whether its events are recorded (:class:`~kiosk.app.record.GameRecord`), whether
the coach rates (:class:`~kiosk.app.tutoring.TableTutor`), whether the cube may be offered
and whether "press Done" is said. A lesson picked from the Lessons menu takes the table
over: its events carry a ``"lesson"`` key and go to the lesson engine, the dice wells are
ignored (the lesson throws its own dice), and leaving or finishing the lesson returns to
the Lessons menu; Back from there gives the table back to the game.
"""

from __future__ import annotations

import gc
import json
import logging
import queue
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from kiosk.app.coaching import GameCoach
from kiosk.app.complete import CompletePlay
from kiosk.app.dice import resolve_source
from kiosk.app.events import EventBus
from kiosk.app.hinting import HintGiver, HintTurn
from kiosk.app.learners import Learners, hint_budget
from kiosk.app.lessons import GuardedProgress
from kiosk.app.menus import TableMenus
from kiosk.app.modes import ModeStack
from kiosk.app.modes.entry import PinEntryMode, PinLock
from kiosk.app.modes.game import GameMode
from kiosk.app.modes.lesson import LessonMode, start_lesson
from kiosk.app.modes.russian import RussianMode
from kiosk.app.pacing import judge_due, wait_for_input
from kiosk.app.record import GameRecord
from kiosk.app.replay import Replay
from kiosk.app.transitions import Transitions
from kiosk.app.tutoring import TableTutor
from kiosk.app.window import Window
from kiosk.config import DEFAULT_PIN, Config, HintBudget
from kiosk.display.view import TableView, play_arrows, session_banner
from kiosk.events import (
    MISSING,
    Board,
    Button,
    CubeMoved,
    Event,
    GameOver,
    Kind,
    LessonEvent,
    Message,
    NewGame,
    OpponentPlayShown,
    Resume,
    SetupOk,
    TableStatus,
)
from kiosk.link import LinkEvent, LinkStatus, QueueListener, TableLayout, TableLink
from kiosk.play import CoreSettings, GameCore, PlaySession, TableSide, level_of
from kiosk.play.cube import cube_json
from kiosk.referee import Mode, Referee, RefereeConfig
from kiosk.rules import Colour, Game, Phase, Position, get_profile
from kiosk.rules.chouette import Chouette
from kiosk.rules.session import Session
from kiosk.store.store import StoreError
from kiosk.table import DieReading, TableReading
from kiosk.table.sensing import Sensed, true_counts
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.lessons import LessonEngine
from kiosk.tutor.opponent import Opponent

if TYPE_CHECKING:
    from kiosk.app.companion import Companion
    from kiosk.app.controls import Controls
    from kiosk.app.speech import Speaker
    from kiosk.bledice import BleDice
    from kiosk.display import Calibration, Display
    from kiosk.simtable import SimulatedTable
    from kiosk.store import Store, StoreWriter

log = logging.getLogger(__name__)


def table_layout(config: Config) -> TableLayout:
    """The table's slot counts from ``[table]``, and how a simulated table senses its men
    (a real table says how it senses them when it connects)."""
    t = config.table
    return TableLayout(t.point_slots, t.bar_slots, t.tray_slots, t.simulated_sensing)


@dataclass(frozen=True, kw_only=True)
class LinkMessage(Message):
    """Words from the link (the table's errors, its self-test, a table switched to): shown
    and logged, never kept in a game's record."""


def link_event(event: LinkEvent) -> Event:
    """The application event for a change in the link's state, in the players' words."""
    words = event.words or event.message
    if event.status in (LinkStatus.CONNECTED, LinkStatus.DISCONNECTED, LinkStatus.INCOMPATIBLE):
        info = event.info
        if event.status == LinkStatus.CONNECTED and info is not None:
            return TableStatus(
                status=event.status.value, message=words, sensing=info.layout.sensing
            )
        return TableStatus(status=event.status.value, message=words)
    return LinkMessage(to="both", text=words, speak=False)


def simulator_layout(position: Position) -> dict[str, tuple[str, int]]:
    """A position as the simulated table's ``set_position`` takes it: location ->
    (colour, men)."""
    return {
        where: ("white", w) if w else ("black", b)
        for where, (w, b) in true_counts(position).items()
        if w or b
    }


def wait_for_frame(next_frame: float, period: float) -> float:
    """Sleep until the frame after ``next_frame`` is due (``period`` seconds on, on the
    ``time.monotonic()`` clock); that frame's time, or now if it is already late (a slow
    frame is not made up for with a burst).

    >>> late = time.monotonic() - 1.0  # a frame that was due a second ago
    >>> wait_for_frame(late, 0.01) > late + 0.5  # the next is due from now, not at once
    True
    """
    next_frame += period
    delay = next_frame - time.monotonic()
    if delay > 0:
        time.sleep(delay)
        return next_frame
    return time.monotonic()


class App:
    """One table: see the module docstring. ``step`` and ``frame`` are one turn of the loop."""

    def __init__(
        self,
        config: Config,
        *,
        link: TableLink,
        listener: QueueListener,
        simulator: SimulatedTable | None = None,
        store: Store | StoreWriter | None = None,
        store_problem: str = "",
        display: Display | None = None,
        calibration: Calibration | None = None,
        speaker: Speaker | None = None,
        controls_factory: Callable[[Callable[[Event], None]], Controls | None] | None = None,
        config_file: Path | None = None,
        events_out: TextIO | None = None,
        start_position: Position | None = None,
        think_apart: bool = True,
        problems: tuple[str, ...] = (),
        bluetooth: BleDice | None = None,
    ) -> None:
        self.config = config
        self.think_apart = think_apart  # the table's side thinks in a process of its own
        self.link = link
        self.listener = listener
        self.simulator = simulator
        self.store = store
        self.store_problem = store_problem  # why there is no store, if there is none
        self.problems = problems  # files that could not be used (defaults instead), in words
        self.display = display
        self.calibration = calibration
        self.speaker = speaker
        self.config_file = config_file
        self.start_position = start_position
        self.bluetooth = bluetooth  # Bluetooth dice, when [dice] source names them
        self._told: tuple[DieReading, DieReading] | None = None  # what they said last
        self.layout = table_layout(config)
        self.bus = EventBus()
        self.view = TableView()
        self.core = GameCore(
            self.layout,
            self._from_core,
            self._settings(resolve_source(config.dice.source, simulator is not None)),
            lay_out=self._lay_out,
            keeper=store,
        )
        self.modes = ModeStack(self.bus.publish, GameMode(self))
        self.transitions = Transitions(self, self.modes)
        self.menus = TableMenus(self)
        self.pin_lock = self._pin_lock()
        self.tutor = config.tutor.enabled
        self.record = GameRecord(
            store, lambda: self.modes.activity, self.report_store, (LinkMessage,)
        )
        self.tutoring = TableTutor(
            config,
            self.core,
            self.bus.publish,
            lambda: self.tutor,
            lambda: self.modes.activity.coached,
        )
        self.hints = HintGiver(self.bus.publish, self._hint_turn, self.tutoring.grade_roll)
        self.learners = Learners(lambda: self.store, config.tutor.player_slot, self.report_store)
        self.companion: Companion | None = None  # the class companion, once it was started
        self._session_notes: list[str] = []  # what is said before the session's next game
        self.installer_notes: list[str] = []  # what is missing, for the installer's eyes
        self.running = True
        self.now = 0
        self.idle_since = 0  # the last button or man moved
        self._store_failed = False
        self._connected_before = False
        self._detail_to: str | None = None  # the latest player given a full explanation
        self._reading: TableReading | None = None  # the table's last reading
        self._board: Sensed | None = None  # the board last shown to the view
        self.complete = CompletePlay(self.layout, self.bus.publish)
        self.window = Window(
            self.bus.publish,
            self.modes,
            self.view,
            self.quit,
            lambda: (self.simulator, self.calibration),
        )
        self._drawn = -1  # the view's changes when it was last drawn
        self.changes = 0  # counts the events folded into the view
        self.bus.subscribe(self._show)
        self.bus.subscribe(self.record.follow)
        if speaker is not None:
            self.bus.subscribe(speaker.follow)
        self.controls = controls_factory(self.bus.publish) if controls_factory else None
        if self.controls is not None:
            self.bus.subscribe(self.controls.follow)
        self.view.keys = self.controls is None  # no buttons wired: the legend names the keys
        if events_out is not None:
            self.bus.subscribe(_json_lines(events_out))
        self.bus.subscribe(self._react)

    def _settings(self, dice_source: str) -> CoreSettings:
        """The game core's settings from ``[referee]`` and ``[rules]``, with ``dice_source``."""
        r = self.config.referee
        referee = RefereeConfig(
            settle_ms=r.settle_ms,
            auto_done_ms=r.auto_done_ms or None,
            mode=Mode(r.mode),
            dice_rest_ms=r.dice_rest_ms,
        )
        return CoreSettings(
            referee=referee, profile=self.config.rules.profile, dice_source=dice_source
        )

    def _from_core(self, event: Event) -> None:
        """An event of the game core, to the bus; the table's play with its arrows and
        words, as the players are shown it."""
        if isinstance(event, OpponentPlayShown) and event.play is not None:
            event = replace(
                event,
                arrows=play_arrows(event.play, event.player),
                text=f"I play {event.move}. Move my men as the arrows show.",
            )
        self.bus.publish(event)

    def _lay_out(self, board: Sensed) -> None:
        """A simulated table lays out the men the players are asked to lay out."""
        if self.simulator is not None:
            self.simulator.lay_out(board)

    # -- what the modes ask ------------------------------------------------------------------

    @property
    def referee(self) -> Referee:
        """The game's referee."""
        return self.core.referee

    @property
    def table_player(self) -> TableSide | None:
        """The table's own side, if it plays one."""
        return self.core.side

    @property
    def session(self) -> PlaySession | None:
        """The match, money session, rubber, set or chouette being played, if any."""
        return self.core.session

    @property
    def setting_up(self) -> bool:
        """Whether the players are laying the game's men out."""
        return self.core.setting_up

    @property
    def sensed(self) -> Sensed | None:
        """The board on the table as the active referee judges it."""
        return self.core.board

    @property
    def dice_source(self) -> str:
        """Where the dice come from now: ``wells``, ``buttons`` or ``digital``."""
        return self.core.settings.dice_source

    @dice_source.setter
    def dice_source(self, source: str) -> None:
        self.core.settings = replace(self.core.settings, dice_source=source)

    @property
    def game_serial(self) -> int:
        """Counts the games played or resumed since the start."""
        return self.core.game_serial

    @property
    def lesson(self) -> LessonEngine | None:
        """The lesson on the table, if one is."""
        activity = self.modes.activity
        return activity.engine if isinstance(activity, LessonMode) else None

    @property
    def russian(self) -> bool:
        """Whether a game of Russian backgammon has the table (the game waits)."""
        return self.modes.activity.kind is Kind.RUSSIAN

    def play_russian(self, variant: str) -> None:
        """A game of Russian backgammon by ``variant``'s rules; the game waits."""
        self.transitions.activity(RussianMode(self, variant))

    def detail_player(self, player: str | None = None) -> str | None:
        """Whose full explanation Select opens: ``player``'s, else the latest one given."""
        messages = self.view.messages
        for who in (player, self._detail_to):
            if who is not None and who in messages and messages[who].detail:
                return who
        return None

    def open_menu(self, player: str | None) -> None:
        """The main menu, facing whoever pressed Menu."""
        self.transitions.menu(self.menus.main, player)

    def say(self, to: str, text: str, warning: bool = False) -> None:
        """A message to one player or ``"both"``."""
        self.bus.publish(Message(to=to, text=text, warning=warning))

    def banner(self) -> str:
        """The line both players see in a game."""
        return session_banner(self.view.session, self.tutor)

    def quit(self) -> None:
        """Stop the loop (the application then closes)."""
        self.running = False

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Resume the unfinished game from the store, or start a new one; say what is missing."""
        if self.bluetooth is not None:
            self.bluetooth.start()
        self._notices()
        self.learners.hints()  # the learner's own hints read ahead, off the loop
        if self.store is not None:
            try:
                game_id = self.store.unfinished_game()
            except StoreError as err:  # the store says what is wrong in words
                self.report_store(err)
                game_id = None
            self.core.keep_session(self._kept_session())
            if game_id is not None:
                try:
                    game = self.store.load_game(game_id)
                except StoreError as err:
                    self.say("both", f"The unfinished game could not be read back: {err}")
                else:
                    self._resume(game_id, game)
                    if self.start_position is not None:
                        self._ask_start_position(self.start_position)
                    else:
                        self._warn_if_left(game_id)
                    return
        self.new_game(self.start_position)

    def _kept_session(self) -> PlaySession | None:
        """The session the last game played here belongs to, if it is still going on."""
        assert self.store is not None
        try:
            last = self.store.last_game()
            match_id = self.store.game(last).match_id if last is not None else None
            return PlaySession.resume(self.store, match_id) if match_id is not None else None
        except StoreError as err:  # the store says what is wrong in words
            self.report_store(err)
            return None

    def _warn_if_left(self, game_id: int) -> None:
        """A game resumed after a restart that was last played long ago: not resumed
        silently for whoever is at the table now (a warning, then put away)."""
        assert self.store is not None
        try:
            timeline = self.store.timeline(game_id)
            last = datetime.fromisoformat(timeline[-1][0]) if timeline else None
        except StoreError as err:  # the store says what is wrong in words
            self.report_store(err)
            return
        if last is None:
            return
        age = datetime.now(UTC) - last
        if age.total_seconds() >= self.config.display.put_away_after_s and self.worth_keeping():
            self.transitions.abandoned(_ago(age.total_seconds()))

    def _ask_start_position(self, position: Position) -> None:
        """Both an unfinished game and a position to start were given: ask which."""
        log.info("an unfinished game was resumed; the players are asked about --position")
        menu = self.menus.start_choice(lambda: self.new_game(position))
        self.transitions.menu(menu)

    def _notices(self) -> None:
        """What is missing: for the installer, logged and listed behind the PIN (Settings),
        never put before a visitor; a file that could not be used (the defaults used
        instead) and the window's own note (a simulated table is played with the mouse) on
        screen once."""
        notes = []
        if self.store is None:
            notes.append("Games are not being saved: no database.")
            if self.store_problem:  # the whole reason is on stderr and from kiosk doctor
                log.warning("no database: %s", self.store_problem)
                notes.append("'kiosk doctor' says why.")
        speaker = self.speaker
        if speaker is not None and self.config.speech.enabled and speaker.problem:
            notes.append(f"No speech: {speaker.problem.split(' (')[0]}.")
        if self.config.installer.pin == DEFAULT_PIN:
            notes.append("The installer's PIN is still the default.")
        for note in notes:
            log.warning("for the installer: %s", note)
        self.installer_notes = notes
        lines = list(self.problems)
        if self.simulator is not None:
            lines.append("A simulated table: drag the men with the mouse.")
        if lines:
            self.transitions.notice(lines)

    def _table_side(self, colour: Colour, level: str) -> TableSide:
        """The table plays ``colour`` at ``level`` from now on, its words said to the players.
        It thinks in a process of its own (the loop keeps drawing at its pace); here it keeps
        only the built-in evaluator, which answers if its engine is slow or fails."""
        opponent = Opponent(level, BuiltinEvaluator(), profile=self.config.rules.profile)
        apart = self.think_apart and type(opponent) is Opponent  # a test's thinks here
        return self.core.play_against(colour, opponent, level, say=self._table_says, apart=apart)

    def _table_says(self, to: str, text: str) -> None:
        """The table's own words ("I double.", "I take.") on its own side; its review of
        the visitor's plays to the visitor, with the game's result."""
        side = self.core.side
        if side is None:
            return
        if to in ("both", str(side.colour)):
            # said aloud as the cube's move ("Black doubles to 2."), written here
            self.bus.publish(Message(to=str(side.colour), text=text, prompt="own", speak=False))
        else:
            self.bus.publish(Message(to=to, text=text, prompt="review"))

    def play_the_table(self, colour: Colour, level: str, position: Position | None = None) -> None:
        """A new game against the table, which plays ``colour`` at ``level`` (from
        ``position``, the standard one by default)."""
        self._table_side(colour, level)
        self.core.keep_session(None)
        self.new_game(position, tutor=self.tutor)

    def play_friends(self, tutor: bool) -> None:
        """A new game between two players at the table, the tutor watching or not."""
        self.core.no_side()
        self.core.keep_session(None)
        self.new_game(tutor=tutor)

    def start_session(self, session: Session | Chouette) -> None:
        """A match, money session, rubber, set or chouette between players at the table."""
        self.core.no_side()
        try:
            self.core.start_session(session)
        except StoreError as err:  # the store says what is wrong in words
            self.report_store(err)
            self.core.keep_session(PlaySession(None, session))
        self.new_game(tutor=self.tutor)

    def new_game(self, position: Position | None = None, tutor: bool | None = None) -> None:
        """Start a game from ``position`` (the standard one by default): set up, then throw."""
        if tutor is not None:
            self.tutor = tutor
        core = self.core
        self.record.leave(core.game)
        core.settings = self._settings(self.dice_source)
        core.profile = get_profile(self.config.rules.profile)
        lines = core.new_game(position)  # the game has the table: what else had it lapses
        self.transitions.new_game()
        game = core.game
        self.tutoring.game_started(game)
        session = core.session
        if session is not None:
            players = session.players()
        elif core.side is not None:
            players = core.side.players
        else:
            players = ("white", "black")
        self.record.start(game, players, session, self.config.referee.mode)
        self.bus.publish(
            NewGame(
                game=self.game_id,
                position=game.position.position_id(),
                turn=game.position.turn,
                profile=game.profile.name,
                tutor=self.tutor,
                dice_source=self.dice_source,
                cube=(1, None),
                table=self._table_colour(),
            )
        )
        self._show_session(lines)

    def _table_colour(self) -> Colour:
        """The table's own side in a game against it (``MISSING``: two players)."""
        side = self.core.side
        return side.colour if side is not None else MISSING

    def _show_session(self, lines: list[str]) -> None:
        """The session's score band and what is said before its next game."""
        session = self.session
        if session is None:
            return
        self.bus.publish(session.shown())
        self._session_notes = lines  # said once the men are set up

    def _session_game_over(self) -> None:
        """A game of the session is over: its new score shown and said."""
        session = self.session
        assert session is not None
        lines = session.said
        self.bus.publish(session.shown())
        self.bus.publish(
            Message(to="both", text=" ".join(lines[:2]), detail="\n".join(lines), prompt="result")
        )

    def _resume(self, game_id: int, game: Game) -> None:
        self.core.no_side()
        if self.store is not None:  # a game against the table names the table a player
            players = self.store.game(game_id).players
            for colour, name in zip((Colour.WHITE, Colour.BLACK), players, strict=True):
                level = level_of(name)
                if level is not None:
                    self._table_side(colour, level)
        self.core.restore(game)
        game = self.core.game
        self.record.resumed(game_id)
        self.tutoring.game_started(game)
        self.bus.publish(
            Resume(
                game=game_id,
                position=game.position.position_id(),
                turn=game.turn,
                turns=len(game.turns),
                phase=game.phase.value,
                dice=game.dice or None,
                tutor=self.tutor,
                cube=cube_json(game),
                table=self._table_colour(),
            )
        )
        self._show_session([])
        if game.phase == Phase.DOUBLE_OFFERED:
            self._double_offered()

    def close(self) -> None:
        """Stop the link, the simulated table, the speech, the lights and the store."""
        self.running = False
        if self.companion is not None:
            self.companion.close()
        self.link.stop()
        if self.bluetooth is not None:
            self.bluetooth.stop()
        self.core.close()
        if self.simulator is not None:
            self.simulator.close()
        if self.speaker is not None:
            self.speaker.close()
        if self.controls is not None:
            self.controls.close()
        self.tutoring.close()
        if self.store is not None:
            close = getattr(self.store, "close", None)
            if close is not None:
                close()
        if self.display is not None:
            self.display.close()

    def run(self) -> int:
        """The loop: inputs, referee, events, picture, at ``[display] fps`` until asked to stop."""
        period = 1.0 / self.config.display.fps
        previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
        for sig in previous:
            signal.signal(sig, self._stop)
        try:
            self.idle_since = int(time.monotonic() * 1000)  # idle from now, not from boot
            self.start()
            gc.collect()
            gc.freeze()  # what start-up made lives all day: keep it out of the collections
            next_frame = time.monotonic()
            while self.running:
                now = int(time.monotonic() * 1000)
                self.step(now)
                self.frame(now)
                due = judge_due(self.core.judge, now)  # a board judged to the millisecond
                next_frame = wait_for_input(next_frame, period, self.listener.frames, due)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.close()
        return 0

    def _stop(self, signum: int, frame: object) -> None:
        self.running = False

    # -- one turn of the loop ----------------------------------------------------------------

    def step(self, now: int) -> None:
        """Take in what the link delivered, let the referee judge, deliver the events."""
        self.now = now
        if self.companion is not None:  # the teacher's commands, run on this thread
            self.companion.poll()
        while True:
            try:
                change = self.listener.events.get_nowait()
            except queue.Empty:
                break
            if change.status == LinkStatus.CONNECTED:
                info = change.info
                sensing = info.layout.sensing if info is not None else self.core.sensing
                self.core.connected(sensing, again=self._connected_before)
                self._connected_before = True
            self.bus.publish(link_event(change))
        while True:
            try:
                frame = self.listener.frames.get_nowait()
            except queue.Empty:
                break
            reading = frame.reading(self.core.sensing)
            if self._reading is not None and reading != self._reading:
                self._woken()  # a man moved (the first reading is no sign of anybody)
            self._reading = reading
            self._show_board()  # where the men are now, before the referee's verdicts on it
            self.core.sense(reading, now)
        if self.bluetooth is not None:
            self._bluetooth_dice(now)
        self.modes.tick(now)
        self.core.tick(now)
        self._show_board()
        self._store_news()
        self.bus.dispatch()
        self._say_when_complete()
        self.transitions.tick(now, self.idle_since)
        self.bus.dispatch()

    def _bluetooth_dice(self, now: int) -> None:
        """What the Bluetooth dice said, to the game core as the wells' readings go (a die
        thrown wakes the table); if Bluetooth cannot be used, the buttons take over."""
        dice = self.bluetooth
        assert dice is not None
        for told in dice.poll():  # what else the dice said is logged by them
            if self._told is not None:
                self._woken()
            self._told = told
            self.core.dice(told, now)
        if dice.unavailable and self.dice_source == dice.vendor.name:
            self._no_bluetooth(dice.vendor.title, dice.unavailable)

    def _no_bluetooth(self, title: str, why: str) -> None:
        """The Bluetooth dice cannot be used: the throws are entered with the buttons, the
        installer is told why (in the log and behind the PIN), the players what to do."""
        log.warning("the %s dice cannot be used: %s; the dice are entered with the buttons",
                    title, why)
        self.dice_source = "buttons"
        self.installer_notes.append(f"No {title} dice: {why}.")
        self.say("both", f"The {title} dice cannot be used: enter each throw with the buttons.")

    def _show_board(self) -> None:
        """The board as the active referee judges it, to the view when it changed."""
        reading = self._reading
        if reading is None:
            return
        judge = self.core.judge
        board = judge.peek(reading) if judge is not None else self.core.board
        if board is not None and board != self._board:
            self._board = dict(board)
            self.bus.publish(Board(board=board))

    def _woken(self, player: str | None = None) -> bool:
        """Somebody is at the table (a button, a man moved): the attract screen goes (the
        choice of what to do opens), a warning is answered. Whether a press went to that."""
        self.idle_since = self.now
        return self.transitions.woken(player)

    def worth_keeping(self) -> bool:
        """Whether something under way would be lost by a new game: a game with turns
        played or dice thrown, a session, a lesson, a replay or a Russian game."""
        if self.modes.activity.kind is not Kind.GAME:
            return True
        game = self.core.game
        if game.phase == Phase.OVER:
            return False
        return (
            bool(game.turns)
            or game.phase in (Phase.PLAY, Phase.DOUBLE_OFFERED)
            or (self.session is not None and bool(self.session.said))
        )

    def put_away_game(self) -> None:
        """A game left a long while is put away (kept in the store as abandoned) and a new
        one laid out for the next visitor, with the installer's tutor setting."""
        log.info("a game left %d minutes is put away", (self.now - self.idle_since) // 60_000)
        self.play_friends(tutor=self.config.tutor.enabled)

    def _say_when_complete(self) -> None:
        """The men show a whole play: tell the player to press Done (once per board)."""
        board = self.core.board
        if self.setting_up or board is None or self.view.illegal:
            return
        side = self.core.side
        if side is not None and self.core.game.turn == side.colour:
            return  # the table's play ends by itself once its men stand as shown
        if self.modes.activity.says_done:
            self.complete.check(self.core.game, board)

    def frame(self, now: int) -> None:
        """Draw the view if it changed (or moves), and act on the window's keys and mouse."""
        view = self.view
        view.simulated = self.simulator is not None  # no physical men: draw them
        legend = {p: self.modes.legend(p) for p in ("white", "black")}
        if legend != view.legend:
            view.legend = legend
            self.changes += 1
        side = self.core.side
        busy = "The table is thinking..." if side is not None and side.thinking else ""
        if busy != view.busy:
            view.busy = busy
            self.changes += 1
        if self.display is None:
            return
        redraw = self.changes != self._drawn or view.animated()
        self._drawn = self.changes
        for event in self.display.frame(view, now, redraw):
            self.input(event)
        self.bus.dispatch()

    def input(self, event: Any) -> None:
        """A pygame event from the window: quit, a key, or the mouse on the simulated table."""
        self.window.input(event)

    # -- subscribers ----------------------------------------------------------------------

    def _show(self, event: Event) -> None:
        before = {who: self._shown_prompt(who) for who in ("white", "black")}
        self.view.apply(event)
        self.changes += 1
        for who in ("white", "black"):  # Select opens the latest new words with their own
            shown = self._shown_prompt(who)  # explanation (not one only carried under them)
            if shown is not None and shown is not before[who] and shown.detail:
                self._detail_to = who

    def _shown_prompt(self, who: str) -> Any:
        """The prompt ``who``'s line shows, as held (its own explanation only)."""
        prompts = self.view.prompts
        kind = prompts.kind(who)
        return prompts.get(who, kind) if kind is not None else None

    @property
    def coach(self) -> GameCoach | None:
        """The coach, once a tutored game started it."""
        return self.tutoring.coach

    @property
    def game_id(self) -> int | None:
        """The stored game being played, if it is kept."""
        return self.record.game_id

    def _store_news(self) -> None:
        """What the store's writer found since the last turn: a failure, or saving again."""
        if self.store is None:
            return
        news = self.store.news()
        for n, (saving, words) in enumerate(news):
            if not saving:  # mended in the same news: said, but no note to close mid-turn
                self.report_store(StoreError(words), note=not any(s for s, _ in news[n + 1 :]))
            elif self._store_failed:
                self._store_failed = False  # a later failure is said again
                self.say("both", words)

    def _pin_lock(self) -> PinLock:
        """The PIN's wrong tries, kept in the store so that a restart does not undo them."""
        if self.store is None:
            return PinLock()
        store = self.store
        try:
            failures = store.pin_failures()
        except StoreError as err:  # the store says what is wrong in words
            log.error("store: the PIN's wrong tries cannot be read: %s", err)
            failures = 0

        def keep(count: int) -> None:
            try:
                store.save_pin_failures(count)
            except StoreError as err:  # the store says what is wrong in words
                self.report_store(err)

        return PinLock(failures, keep)

    def report_store(self, err: Exception, note: bool = True) -> None:
        """The store failed: said on the screen once (and, with ``note``, in a note the
        players close), and logged."""
        log.error("store: %s", err)
        if not self._store_failed:
            self._store_failed = True
            text = f"Games are not being saved: {err}"
            self.say("both", text, warning=True)
            if note:
                self.transitions.notice([text])

    def _react(self, event: Event) -> None:
        """What the application does about an event (the modes' changes: ``transitions``)."""
        self.transitions.on_event(event)
        self.tutoring.follow(event)  # a play to rate, a cube decision to work out
        self.hints.follow(event)  # a lifted man's destinations, as the hint budget allows
        match event:
            case Button(button=name, player=player):
                self.press(name, None if player is MISSING else str(player))
            case LessonEvent():
                activity = self.modes.activity
                if isinstance(activity, LessonMode):
                    activity.on_event(event)
            case SetupOk(restored=restored):
                notes, self._session_notes = self._session_notes, []
                if notes and not restored:
                    text = " ".join([*notes[:2], "Throw to start."])
                    self.bus.publish(Message(to="both", text=text, detail="\n".join(notes)))
            case CubeMoved(action="double") if self.modes.activity.cube:
                self._double_offered()
            case GameOver() if self.session is not None and self.modes.activity.recorded:
                self._session_game_over()

    def _hint_turn(self) -> HintTurn | None:
        """The turn on now, if a person plays it: a lesson's play, or a game's the tutor
        watches (the table's own turns are not hinted); graded hints only with the tutor on.
        The budget: the lesson's, else the learner's own, else the table's
        (:func:`kiosk.app.learners.hint_budget`)."""
        table = self.config.tutor.hint_budget
        activity = self.modes.activity
        if isinstance(activity, LessonMode):
            referee = activity.engine.referee
            if referee is None:
                return None
            game = referee.game
            mine = self.learners.hints(activity.engine.slot)
            budget = hint_budget(table, mine, activity.engine.lesson.hints)
        elif activity.coached:
            game, side = self.core.game, self.core.side
            if side is not None and game.turn == side.colour:
                return None
            budget = hint_budget(table, self.learners.hints())
            if budget.graded and not self.tutor:
                budget = HintBudget()
        else:
            return None
        if game.phase != Phase.PLAY or game.dice is None:
            return None
        return HintTurn(game.position, game.dice, game.turn, budget, game.profile)

    def _double_offered(self) -> None:
        """A double is on offer: its taker answers with Select or Back (the view asks him;
        the table answers for itself)."""
        taker = self.core.game.turn.other
        side = self.core.side
        if side is not None and side.colour == taker:
            return
        self.transitions.double_offered(str(taker))

    # -- buttons ---------------------------------------------------------------------------

    def press(self, name: str, player: str | None = None) -> None:
        """A button: ``done`` (with the player), ``menu``, ``back``, ``select`` or ``up``.
        A press that wakes the table (or keeps a game left a while) does nothing else."""
        if self._woken(player):
            return
        self.modes.press(name, player)

    def ask_pin(self) -> None:
        """The installer's PIN, then the settings."""
        self.transitions.pin(
            PinEntryMode(
                self.config.installer.pin,
                self.pin_lock,
                lambda: self.now,
                lambda: self.transitions.menu(self.menus.settings),
                lambda text: None,
            )
        )

    # -- lessons ---------------------------------------------------------------------------

    def progress(self) -> GuardedProgress | None:
        """The store's lesson progress, or None without a store."""
        if self.store is None:
            return None
        return GuardedProgress(self.store, self.report_store)

    # -- replays ---------------------------------------------------------------------------

    def start_lesson(self, lesson_id: str, slot: str | None = None) -> None:
        """Run a lesson at the table (resumed where this learner left it: ``slot``, by
        default the configured player's); the game waits."""
        if slot is not None:
            self.learners.current = slot  # the learner at the table from now on
        start_lesson(self, lesson_id, slot)

    def start_replay(self, replay: Replay) -> None:
        """Show a game turn by turn: Done for the next turn, Select for the one before."""
        self.transitions.replay(replay)


def _ago(seconds: float) -> str:
    """How long ago, in words.

    >>> _ago(600), _ago(7300), _ago(3 * 86400)
    ('10 minutes ago', '2 hours ago', '3 days ago')
    """
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''} ago"
    return "just now"


def _json_lines(out: TextIO) -> Callable[[Event], None]:
    def write(event: Event) -> None:
        if isinstance(event, Board):
            return
        out.write(json.dumps(event.to_json(), default=str) + "\n")
        out.flush()

    return write
