"""The table application: the link, the referee, the menus and the picture, in one loop.

Data flows one way. Frames from the ``TableLink`` go to the ``Referee``; everything
the referee decides, every button press and every link status change is published on
one ``EventBus``; the ``TableView``, the store, the speech, the lights and the app's own
reactions (menus, dice, new games) all follow that stream. The loop draws at a steady
frame rate; the link reads the serial port in its own threads, speech runs in its own
thread, so a slow sentence or a busy port never freezes the picture.

On start the unfinished game in the store is resumed: the referee guides the players to
lay the men out as they were (``set_up(position, restoring=True)``) and play goes on
with the same throw.

With the tutor on, every play is rated by the coach in a background thread; in teaching
mode a bad play may be taken back with the Back button (a ``take-back`` event), and the
same player plays the same dice again. The Menu button offers a double when the rules
and the cube allow it; the adversary takes with Select or passes with Back (``cube``
events). A lesson picked from the Lessons menu takes the table over: its events carry a
``"lesson"`` key, go to the lesson engine and never into the game's records, the dice
wells are ignored (the lesson throws its own dice), and leaving or finishing the lesson
returns to the Lessons menu; Back from there restores the game.
"""

from __future__ import annotations

import json
import logging
import queue
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from kiosk.app.coaching import GameCoach
from kiosk.app.controls import key_event
from kiosk.app.dice import DiceEntry, digital_throw, resolve_source
from kiosk.app.events import EventBus
from kiosk.app.lessons import GuardedProgress, LessonTable, lesson_label
from kiosk.app.menu import Item, Menu, MenuStack, PinEntry
from kiosk.app.replay import Replay, book_replays, recorded_replay
from kiosk.config import Config, save_config
from kiosk.display.view import TableView
from kiosk.link import LOCATIONS, LinkEvent, LinkStatus, QueueListener, TableLayout, TableLink
from kiosk.referee import Mode, Referee, RefereeConfig
from kiosk.rules import Colour, CubeAction, Game, Phase, Position, get_profile
from kiosk.rules.profiles import PROFILES
from kiosk.table.sensing import true_counts
from kiosk.tutor.lessons import LessonEngine, LessonError, State, catalogue, load_lesson

if TYPE_CHECKING:
    from kiosk.app.controls import Controls
    from kiosk.app.speech import Speaker
    from kiosk.display import Calibration, Display
    from kiosk.simtable import SimulatedTable
    from kiosk.store import Store

log = logging.getLogger(__name__)

NOT_RECORDED = frozenset({"board", "menu", "button"})  # view-only events the store skips
DICE_SOURCES = ("auto", "wells", "buttons", "digital")


def table_layout(config: Config) -> TableLayout:
    """The table's slot counts from ``[table]``."""
    t = config.table
    return TableLayout(t.point_slots, t.bar_slots, t.tray_slots)


def link_event(event: LinkEvent) -> dict:
    """The application event for a change in the link's state."""
    if event.status in (LinkStatus.CONNECTED, LinkStatus.DISCONNECTED, LinkStatus.INCOMPATIBLE):
        return {"event": "table", "status": event.status.value, "message": event.message}
    return {"event": "message", "to": "both", "text": event.message, "speak": False}


def simulator_layout(position: Position) -> dict[str, tuple[str, int]]:
    """A position as the simulated table lays it out: location -> (colour, men)."""
    out: dict[str, tuple[str, int]] = {}
    for where, (white, black) in true_counts(position).items():
        if white:
            out[where] = ("white", white)
        elif black:
            out[where] = ("black", black)
    return out


class App:
    """One table: see the module docstring. ``step`` and ``frame`` are one turn of the loop."""

    def __init__(
        self,
        config: Config,
        *,
        link: TableLink,
        listener: QueueListener,
        simulator: SimulatedTable | None = None,
        store: Store | None = None,
        display: Display | None = None,
        calibration: Calibration | None = None,
        speaker: Speaker | None = None,
        controls_factory: Callable[[Callable[[dict], None]], Controls | None] | None = None,
        config_file: Path | None = None,
        events_out: TextIO | None = None,
        start_position: Position | None = None,
    ) -> None:
        self.config = config
        self.link = link
        self.listener = listener
        self.simulator = simulator
        self.store = store
        self.display = display
        self.calibration = calibration
        self.speaker = speaker
        self.config_file = config_file
        self.start_position = start_position
        self.layout = table_layout(config)
        self.bus = EventBus()
        self.view = TableView()
        self.menus = MenuStack(self.bus.publish)
        self.dice_source = resolve_source(config.dice.source, simulator is not None)
        self.tutor = config.tutor.enabled
        self.referee: Referee | None = None
        self.game_id: int | None = None
        self.game_serial = 0  # counts the games played or resumed since the start
        self.lesson: LessonEngine | None = None
        self._lesson_board: dict[str, tuple[int, int]] | None = None  # last shown to the lesson
        self.coach: GameCoach | None = None
        self.take_back_offer: dict | None = None  # the coach's offer to take a play back
        self.setting_up = False
        self.entry: DiceEntry | PinEntry | None = None
        self.replay: Replay | None = None
        self.drag: tuple[str, str] | None = None  # simulator: (location lifted from, colour)
        self.sensed: dict[str, tuple[int, int]] | None = None  # the table's latest board
        self.running = True
        self.now = 0
        self._store_failed = False
        self._connected_before = False
        self.bus.subscribe(self._show)
        self.bus.subscribe(self._record)
        if speaker is not None:
            self.bus.subscribe(speaker.follow)
        self.controls = controls_factory(self.bus.publish) if controls_factory else None
        if self.controls is not None:
            self.bus.subscribe(self.controls.follow)
        if events_out is not None:
            self.bus.subscribe(_json_lines(events_out))
        self.bus.subscribe(self._react)

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Resume the unfinished game from the store, or start a new one."""
        if self.store is not None:
            try:
                game_id = self.store.unfinished_game()
            except Exception as err:  # the store says what is wrong in words
                self._store_problem(err)
                game_id = None
            if game_id is not None:
                try:
                    game = self.store.load_game(game_id)
                except Exception as err:
                    self._say("both", f"The unfinished game could not be read back: {err}")
                else:
                    self._resume(game_id, game)
                    return
        self.new_game(self.start_position)

    def new_game(self, position: Position | None = None, tutor: bool | None = None) -> None:
        """Start a game from ``position`` (the standard one by default): set up, then throw."""
        position = position or Position.standard()
        if tutor is not None:
            self.tutor = tutor
        profile = get_profile(self.config.rules.profile)
        if self.store is not None and self.game_id is not None and self.referee is not None:
            if self.referee.game.phase != Phase.OVER:
                try:
                    self.store.abandon_game(self.game_id)  # left on purpose: not resumed
                except Exception as err:
                    self._store_problem(err)
        game = Game(profile, position)
        self.referee = self._make_referee(game)
        self.replay = None
        self.game_id = None
        self._game_started(game)
        if self.store is not None:
            try:
                self.game_id = self.store.start_game(
                    profile.name,
                    position.position_id(),
                    str(position.turn),
                    mode=self.config.referee.mode,
                )
            except Exception as err:
                self._store_problem(err)
        self.bus.publish(
            {
                "event": "new-game",
                "game": self.game_id,
                "position": position.position_id(),
                "turn": str(position.turn),
                "profile": profile.name,
                "tutor": self.tutor,
                "dice_source": self.dice_source,
                "cube": [1, None],
            }
        )
        self._set_up(position, restoring=False)

    def _resume(self, game_id: int, game: Game) -> None:
        self.referee = self._make_referee(game)
        self.game_id = game_id
        self._game_started(game)
        self.bus.publish(
            {
                "event": "resume",
                "game": game_id,
                "position": game.position.position_id(),
                "turn": str(game.turn),
                "turns": len(game.turns),
                "phase": game.phase.value,
                "dice": list(game.dice) if game.dice else None,
                "tutor": self.tutor,
                "cube": _cube(game),
            }
        )
        self._set_up(game.position, restoring=True)
        if game.phase == Phase.DOUBLE_OFFERED:
            self._offer_double(game)

    def _game_started(self, game: Game) -> None:
        """A game is on (new or resumed): the coach follows it, old offers lapse."""
        self.game_serial += 1
        self.take_back_offer = None
        if self.tutor:
            self._coach()
        if self.coach is not None:
            self.coach.start_game(game.profile.name, self.config.referee.mode == "teaching")

    def _make_referee(self, game: Game, emit: Callable[[dict], None] | None = None) -> Referee:
        r = self.config.referee
        config = RefereeConfig(
            settle_ms=r.settle_ms, auto_done_ms=r.auto_done_ms or None, mode=Mode(r.mode)
        )
        return Referee(game, self.layout, config, emit=emit or self.bus.publish)

    def _coach(self) -> GameCoach:
        """The coach, started the first time a tutored game needs it."""
        if self.coach is None:
            self.coach = GameCoach(
                self.config.tutor,
                self.config.rules.profile,
                self.bus.publish,
                lambda: self.game_serial,
            )
            if self.coach.problem:
                log.warning("coach: %s", self.coach.problem)
            if self.referee is not None:  # the tutor was switched on during a game
                teaching = self.config.referee.mode == "teaching"
                self.coach.start_game(self.referee.game.profile.name, teaching)
        return self.coach

    def _set_up(self, position: Position, restoring: bool) -> None:
        assert self.referee is not None
        self.setting_up = True
        self.referee.set_up(position, restoring=restoring)
        if self.sensed is not None:  # a new referee starts from the table as it stands
            self.referee.board(self.sensed, self.now)
        if self.simulator is not None:
            self.simulator.set_position(simulator_layout(position))

    def close(self) -> None:
        """Stop the link, the simulated table, the speech, the lights and the store."""
        self.running = False
        self.link.stop()
        if self.simulator is not None:
            self.simulator.close()
        if self.speaker is not None:
            self.speaker.close()
        if self.controls is not None:
            self.controls.close()
        if self.coach is not None:
            self.coach.close()
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
            self.start()
            next_frame = time.monotonic()
            while self.running:
                now = int(time.monotonic() * 1000)
                self.step(now)
                self.frame(now)
                next_frame += period
                delay = next_frame - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                else:
                    next_frame = time.monotonic()
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
        while True:
            try:
                change = self.listener.events.get_nowait()
            except queue.Empty:
                break
            if change.status == LinkStatus.CONNECTED:
                if self._connected_before and self.referee is not None:
                    self.referee.reconnected()  # check the table against the game first
                self._connected_before = True
            self.bus.publish(link_event(change))
        while True:
            try:
                frame = self.listener.frames.get_nowait()
            except queue.Empty:
                break
            sensed = self.sensed = frame.sensed()
            self.bus.publish({"event": "board", "board": sensed})  # where the men are now
            if self.lesson is not None:  # the lesson throws its own dice: the wells are ignored
                if self.lesson.referee is not None:
                    self.lesson.referee.board(sensed, now)
            elif self.referee is not None and self.replay is None:
                if self.dice_source == "wells":
                    self.referee.dice(frame.dice, now)
                self.referee.board(sensed, now)
        if self.lesson is not None:
            self._lesson_step(now)
        elif self.referee is not None and self.replay is None:
            self.referee.tick(now)
        self.bus.dispatch()

    def _lesson_step(self, now: int) -> None:
        """The lesson's turn of the loop: a changed board to the engine, time to its referee."""
        lesson = self.lesson
        assert lesson is not None
        if self.sensed is not None and self.sensed != self._lesson_board:
            self._lesson_board = self.sensed
            lesson.on_board(self.sensed)
        if lesson.referee is not None:
            lesson.referee.tick(now)

    def frame(self, now: int) -> None:
        """Draw the view and act on the window's keys and mouse."""
        self.view.simulated = self.simulator is not None  # no physical men: draw them
        if self.display is None:
            return
        for event in self.display.frame(self.view, now):
            self.input(event)
        self.bus.dispatch()

    def input(self, event: Any) -> None:
        """A pygame event from the window: quit, a key, or the mouse on the simulated table."""
        import pygame

        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            pressed = key_event(event.key, self.view.turn)
            if pressed is not None:
                self.bus.publish(pressed)
            elif self.menus.is_open and pygame.K_1 <= event.key <= pygame.K_9:
                self.menus.pick(event.key - pygame.K_1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.grab(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.drop(event.pos)

    # -- the simulated table under the mouse ----------------------------------------------

    def location_at(self, pos: tuple[int, int]) -> str | None:
        """The table location nearest a screen position, if a man's width or so away."""
        if self.calibration is None:
            return None
        x, y = pos
        best, best_d = None, float("inf")
        for where in LOCATIONS:
            for slot in range(self.calibration.slot_count(where)):
                sx, sy = self.calibration.slot_xy(where, slot)
                d = (sx - x) ** 2 + (sy - y) ** 2
                if d < best_d:
                    best, best_d = where, d
        reach = 2 * self.calibration.slot_radius
        return best if best_d <= reach * reach else None

    def grab(self, pos: tuple[int, int]) -> None:
        """Mouse down on the simulated table: lift the top man there."""
        where = self.location_at(pos)
        if self.simulator is None or where is None or not self.simulator.men(where):
            return
        man = self.simulator.lift(where)
        self.drag = (where, "white" if man.name == "WHITE" else "black")

    def drop(self, pos: tuple[int, int]) -> None:
        """Mouse up: put the lifted man down there (back where it was if off the table)."""
        if self.simulator is None or self.drag is None:
            return
        origin, colour = self.drag
        self.drag = None
        self.simulator.place(self.location_at(pos) or origin, colour)

    # -- subscribers ----------------------------------------------------------------------

    def _show(self, event: dict) -> None:
        self.view.apply(event)

    def _record(self, event: dict) -> None:
        if self.store is None or self.game_id is None or event["event"] in NOT_RECORDED:
            return
        if "lesson" in event:  # a lesson's events are not part of the game
            return
        if self.replay is not None and event["event"] in ("position", "mode"):
            return
        try:
            self.store.record(self.game_id, event)
        except Exception as err:
            self._store_problem(err)

    def _store_problem(self, err: Exception) -> None:
        log.error("store: %s", err)
        if not self._store_failed:
            self._store_failed = True
            self._say("both", f"Games cannot be saved: {err}", warning=True)

    def _react(self, event: dict) -> None:
        kind = event["event"]
        if kind == "button":
            self.press(event["name"], event.get("player"))
        elif "lesson" in event:
            self._lesson_event(event)
        elif kind == "play":
            self.take_back_offer = None
            if self.tutor and not event.get("accepted"):
                self._rate(event)
        elif kind == "coach":
            self._coached(event)
        elif kind == "setup-ok":
            self.setting_up = False
        elif kind == "choose":
            self.menus.open(
                Menu(
                    "Which play did you make?",
                    [Item(text, _call(self._choose, i)) for i, text in enumerate(event["options"])],
                )
            )
        elif kind == "wrong-move":
            assert self.referee is not None
            self.menus.open(
                Menu(
                    f"{str(event['player']).capitalize()} made a wrong move",
                    [
                        Item("Accept the move", self.referee.accept),
                        Item("Have it put right first"),
                    ],
                )
            )
        elif kind == "game-over":
            self._say("both", "Press Done to play again, or Menu for more.")

    def _choose(self, index: int) -> None:
        if self.referee is not None:
            self.referee.choose(index)

    # -- the coach -------------------------------------------------------------------------

    def _rate(self, event: dict) -> None:
        """Hand the play just made to the coach (it answers with a ``coach`` event)."""
        if self.referee is None:
            return
        game = self.referee.game
        if not game.turns:
            return
        turn = game.turns[-1]
        if str(turn.colour) != event.get("player") or str(turn.play) != event.get("move"):
            return
        self._coach().submit(
            self.game_serial, len(game.turns), turn.before, turn.dice, turn.play, str(turn.colour)
        )

    def _coached(self, event: dict) -> None:
        """A verdict: in teaching mode a bad play of the last turn may be taken back."""
        if self.referee is None or not event.get("take_back"):
            return
        if event.get("turn") == len(self.referee.game.turns):
            self.take_back_offer = event

    def _take_back(self) -> None:
        """Back after a bad play: the game as it was before it, the same dice to play again."""
        offer, self.take_back_offer = self.take_back_offer, None
        assert offer is not None and self.referee is not None
        game = self.referee.game
        if self.setting_up or game.phase != Phase.ROLL or len(game.turns) != offer["turn"]:
            self._say(str(offer["to"]), "Too late to take that play back: the game has gone on.")
            return
        turn = game.take_back()
        mover, (d1, d2) = str(turn.colour), turn.dice
        before = turn.before.position_id()
        self.bus.publish(
            {
                "event": "take-back",
                "player": mover,
                "dice": [d1, d2],
                "move": str(turn.play),
                "position": before,
                "number": offer["turn"],
            }
        )
        self.bus.publish(
            {
                "event": "position",
                "position": before,
                "turn": mover,
                "dice": [d1, d2],
                "text": f"{mover.capitalize()} takes back {turn.play or 'the play'}: put the "
                f"men back as shown, then play {d1}-{d2} again.",
            }
        )
        self._set_up(turn.before, restoring=True)

    # -- the cube --------------------------------------------------------------------------

    def _may_double(self) -> bool:
        """Whether the player on roll may offer a double now."""
        return (
            self.referee is not None
            and self.lesson is None
            and self.replay is None
            and not self.setting_up
            and CubeAction.DOUBLE in self.referee.game.legal_cube_actions()
        )

    def _double(self) -> None:
        if not self._may_double():
            self._say("both", "A double cannot be offered now.")
            return
        assert self.referee is not None
        game = self.referee.game
        game.double()
        self.bus.publish(
            {"event": "cube", "action": "double", "player": str(game.turn), "cube": _cube(game)}
        )
        self._offer_double(game)

    def _offer_double(self, game: Game) -> None:
        """Ask the adversary to take or pass the double on offer."""
        stake = 2 * game.cube.value
        self._say(
            str(game.turn.other),
            f"{str(game.turn).capitalize()} doubles to {stake}. Select: take, Back: pass.",
        )

    def _answer_double(self, take: bool) -> None:
        assert self.referee is not None
        game = self.referee.game
        doubler, taker = game.turn, game.turn.other
        if take:
            game.take()
            self.bus.publish(
                {"event": "cube", "action": "take", "player": str(taker), "cube": _cube(game)}
            )
            self._say(
                "both",
                f"{str(taker).capitalize()} takes: the cube is at "
                f"{game.cube.value}. {str(doubler).capitalize()}, throw the dice.",
            )
            return
        game.pass_()
        self.bus.publish(
            {"event": "cube", "action": "pass", "player": str(taker), "cube": _cube(game)}
        )
        self.bus.publish(
            {
                "event": "game-over",
                "winner": str(doubler),
                "result": "single",
                "points": game.cube.value,
                "passed": True,
            }
        )

    # -- lessons ---------------------------------------------------------------------------

    def _lesson_event(self, event: dict) -> None:
        """An event of the lesson: to its engine; leaving or finishing it opens the menu."""
        lesson = self.lesson
        if lesson is None or event["lesson"] != lesson.lesson.id:
            return  # a lesson already left
        kind = event["event"]
        lesson.on_event(event)
        if kind == "choose":
            self.menus.open(
                Menu(
                    "Which play did you make?",
                    [
                        Item(text, _call(lesson.answer, i))
                        for i, text in enumerate(event["options"])
                    ],
                )
            )
        elif kind == "wrong-move" and lesson.referee is not None:
            self.menus.open(
                Menu(
                    "That move breaks the rules",
                    [Item("Let it stand", lesson.referee.accept), Item("Put it right first")],
                )
            )
        elif kind in ("lesson-exit", "lesson-end"):
            self.lesson = None
            self.bus.publish({"event": "mode", "mode": "game", "banner": self._banner()})
            menu = self.lessons_menu()
            menu.on_back = self._restore_game
            self.menus.open(menu)

    def _lesson_button(self, name: str) -> None:
        """A button in a lesson: Done ends a play on the table, the rest go to the lesson."""
        lesson = self.lesson
        assert lesson is not None
        if name == "done" and lesson.state == State.PLAYING and lesson.referee is not None:
            lesson.referee.press_done(None, self.now)  # whichever side the learner plays
        elif name in ("done", "select", "back", "menu"):
            lesson.on_event({"event": "button", "name": name})

    def _say(self, to: str, text: str, warning: bool = False) -> None:
        self.bus.publish({"event": "message", "to": to, "text": text, "warning": warning})

    # -- buttons ---------------------------------------------------------------------------

    def press(self, name: str, player: str | None = None) -> None:
        """A button: ``done`` (with the player), ``menu``, ``back``, ``select`` or ``up``."""
        if isinstance(self.entry, PinEntry):
            self._pin_button(self.entry, name)
        elif isinstance(self.entry, DiceEntry):
            self._dice_button(self.entry, name)
        elif self.menus.is_open:
            if name != "done":
                self.menus.press(name)
        elif self.lesson is not None:
            self._lesson_button(name)
        elif name == "menu":
            self.menus.open(self.main_menu())
        elif self.replay is not None:
            self._replay_button(name)
        elif self._double_offered() and name in ("select", "back"):
            self._answer_double(take=name == "select")
        elif name == "back" and self.take_back_offer is not None:
            self._take_back()
        elif name == "done":
            self.done(player)
        elif name == "select":  # the full explanation of the message, or back to the short one
            self.bus.publish({"event": "detail", "player": player or self.view.turn})

    def done(self, player: str | None) -> None:
        """Done/Roll: throw (digital or button dice), finish the play, or start again."""
        referee = self.referee
        if referee is None:
            return
        game = referee.game
        if game.phase == Phase.OVER:
            self.new_game(tutor=self.tutor)
            return
        if self.setting_up:
            self._say("both", "Lay the men out as shown first.")
            return
        if game.phase == Phase.DOUBLE_OFFERED:
            self._offer_double(game)
            return
        who = Colour.parse(player) if player else None
        if game.phase in (Phase.OPENING, Phase.OPENING_OPTION, Phase.ROLL):
            if game.phase == Phase.ROLL and who is not None and who != game.turn:
                self._say(str(who), f"It is {game.turn}'s turn to throw.")
                return
            if self.dice_source == "digital":
                referee.throw(*digital_throw(), self.now)
            elif self.dice_source == "buttons":
                self.entry = DiceEntry()
                self._say("both", self.entry.prompt())
            else:
                self._say("both", "Throw both dice into the dice wells.")
        elif game.phase == Phase.PLAY:
            referee.press_done(who, self.now)

    def _dice_button(self, entry: DiceEntry, name: str) -> None:
        if name in ("menu", "done", "up"):
            entry.up()
        elif name == "select":
            dice = entry.select()
            if dice is not None:
                self.entry = None
                if self.referee is not None:
                    self.referee.throw(dice[0], dice[1], self.now)
                return
        elif name == "back" and not entry.back():
            self.entry = None
            self._say("both", "Dice entry left.")
            return
        self._say("both", entry.prompt())

    def _pin_button(self, entry: PinEntry, name: str) -> None:
        if name in ("menu", "done", "up"):
            entry.up()
        elif name == "select":
            right = entry.select()
            if right is not None:
                self.entry = None
                if right:
                    self._say("both", "Settings: the installer's menu.")
                    self.menus.open(self.settings_menu())
                else:
                    self._say("both", "That PIN is not right.", warning=True)
                return
        elif name == "back" and not entry.back():
            self.entry = None
            self._say("both", "")
            return
        self._say("both", entry.prompt())

    # -- menus -----------------------------------------------------------------------------

    def _double_offered(self) -> bool:
        return self.referee is not None and self.referee.game.phase == Phase.DOUBLE_OFFERED

    def main_menu(self) -> Menu:
        """The menu behind the Menu button (with a double when the player on roll may offer one)."""
        double: list[Item] = []
        if self._may_double():
            assert self.referee is not None
            game = self.referee.game
            double = [Item(f"Double to {2 * game.cube.value} ({game.turn} offers)", self._double)]
        return Menu(
            "Backgammon Table",
            [
                Item("Back to the game"),
                *double,
                Item("New game with the tutor", lambda: self.new_game(tutor=True)),
                Item("New game without the tutor", lambda: self.new_game(tutor=False)),
                Item("Lessons", submenu=self.lessons_menu),
                Item("Replay a game", submenu=self.replay_menu),
                Item("Settings (installer)", self._ask_pin),
            ],
        )

    def lessons_menu(self) -> Menu:
        """The lessons in order, each with how far this table's learner has come."""
        try:
            lessons = catalogue()
        except LessonError as err:
            return Menu("Lessons", [Item(f"The lessons cannot be read: {err}")])
        store = self._progress()
        progress = store.lesson_progress(self.config.tutor.player_slot) if store else {}
        items = [Item(lesson_label(i, progress), _call(self.start_lesson, i.id)) for i in lessons]
        return Menu("Lessons", items or [Item("No lessons are installed.")])

    def _progress(self) -> GuardedProgress | None:
        """The store's lesson progress, or None without a store."""
        if self.store is None:
            return None
        return GuardedProgress(self.store, self._store_problem)

    def start_lesson(self, lesson_id: str) -> None:
        """Run a lesson at the table (resumed where this learner left it); the game waits."""
        try:
            lesson = load_lesson(lesson_id)
        except LessonError as err:
            self._say("both", f"That lesson cannot be started: {err}", warning=True)
            return
        self.replay = None
        self.entry = None
        self.take_back_offer = None
        host = LessonTable(
            lesson.id, self.bus.publish, self._make_referee, lambda: (self.sensed, self.now)
        )
        self.lesson = LessonEngine(lesson, host, self._progress(), self.config.tutor.player_slot)
        self._lesson_board = None
        self.bus.publish(
            {
                "event": "mode",
                "mode": "lesson",
                "lesson": lesson.id,
                "banner": f"Lesson {lesson.info.number}: {lesson.title}",
            }
        )
        self.lesson.start()

    def replay_menu(self) -> Menu:
        """Crawley's recorded games and the games played at this table."""
        items = [Item(r.title, _call(self.start_replay, r)) for r in book_replays()]
        if self.store is not None:
            for game_id, title in self._recorded_games():
                items.append(Item(title, _call(self._replay_recorded, game_id, title)))
        return Menu("Replay a game", items)

    def _recorded_games(self) -> list[tuple[int, str]]:
        """The last finished games played here: (id, title)."""
        assert self.store is not None
        try:
            games = [g for g in self.store.games() if g.finished and g.winner]
        except Exception as err:
            self._store_problem(err)
            return []
        return [
            (g.id, f"Game {g.id}, {g.started[:10]}: {g.winner} won ({g.result})")
            for g in games[-8:]
        ]

    def _replay_recorded(self, game_id: int, title: str) -> None:
        assert self.store is not None
        try:
            game = self.store.load_game(game_id)
        except Exception as err:
            self._say("both", f"That game cannot be read back: {err}", warning=True)
            return
        self.start_replay(recorded_replay(title, game))

    def start_replay(self, replay: Replay) -> None:
        """Show a game turn by turn: Done or Select for the next turn, Back for the one before."""
        self.replay = replay
        self.bus.publish({"event": "mode", "mode": "replay", "banner": f"Replay: {replay.title}"})
        self._show_replay()

    def _replay_button(self, name: str) -> None:
        replay = self.replay
        assert replay is not None
        if name in ("done", "select"):
            if not replay.forward():
                self._leave_replay()
                return
        elif name in ("back", "up"):
            if not replay.backward():
                self._leave_replay()
                return
        self._show_replay()

    def _show_replay(self) -> None:
        assert self.replay is not None
        self.bus.publish(self.replay.event())

    def _leave_replay(self) -> None:
        self.replay = None
        self._restore_game()

    def _restore_game(self) -> None:
        """Back to the game after a replay or a lesson: the players lay its men out again."""
        self.bus.publish({"event": "mode", "mode": "game", "banner": self._banner()})
        if self.referee is not None:
            game = self.referee.game
            self.bus.publish(
                {
                    "event": "position",
                    "position": game.position.position_id(),
                    "turn": str(game.turn),
                    "dice": list(game.dice) if game.dice else None,
                }
            )
            self._set_up(game.position, restoring=True)

    def _banner(self) -> str:
        return "Tutor on" if self.tutor else "Tutor off"

    def _ask_pin(self) -> None:
        self.entry = PinEntry(self.config.installer.pin)
        self._say("both", self.entry.prompt())

    def settings_menu(self) -> Menu:
        """The installer's settings; changes apply at once, Save writes the file."""
        c = self.config
        return Menu(
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
                Item("Test the table's switches", self._self_test),
                Item("Save these settings", self._save_settings),
            ],
        )

    def _toggle_tutor(self) -> None:
        self.config.tutor.enabled = self.tutor = not self.config.tutor.enabled
        self.bus.publish({"event": "mode", "mode": "game", "banner": self._banner()})

    def _next_dice(self) -> None:
        d = self.config.dice
        d.source = DICE_SOURCES[(DICE_SOURCES.index(d.source) + 1) % len(DICE_SOURCES)]
        self.dice_source = resolve_source(d.source, self.simulator is not None)

    def _next_profile(self) -> None:
        names = sorted(PROFILES)
        r = self.config.rules
        r.profile = names[(names.index(r.profile) + 1) % len(names)]

    def _next_mode(self) -> None:
        r = self.config.referee
        r.mode = "laws" if r.mode == "teaching" else "teaching"

    def _toggle_speech(self) -> None:
        self.config.speech.enabled = not self.config.speech.enabled

    def _next_volume(self) -> None:
        s = self.config.speech
        s.volume = (s.volume + 25) % 225

    def _self_test(self) -> None:
        if not self.link.request_self_test():
            self._say("both", "The table is not connected, so it cannot test its switches.")

    def _save_settings(self) -> None:
        try:
            where = save_config(self.config, self.config_file)
        except OSError as err:
            self._say("both", f"The settings could not be saved: {err}", warning=True)
            return
        self._say("both", f"Settings saved to {where}; new games use them.")


def _call(fn: Callable[..., None], *args: object) -> Callable[[], None]:
    return lambda: fn(*args)


def _cube(game: Game) -> list:
    """The cube as events carry it: [value, owner or None]."""
    owner = game.cube.owner
    return [game.cube.value, None if owner is None else str(owner)]


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def _json_lines(out: TextIO) -> Callable[[dict], None]:
    def write(event: dict) -> None:
        if event["event"] == "board":
            return
        out.write(json.dumps(event, default=str) + "\n")
        out.flush()

    return write
