"""Scripted sessions through the whole stack: simulated table, pty, link, referee, game.

A script has one action per line (``#`` starts a comment)::

    profile NAME | mode teaching | mode laws
    setup standard | setup POSITION_ID | setup empty
    turn white | turn black
    opening W B
    dice D1 D2 | cocked 1
    lift LOC [white|black] | place LOC [white|black]
    wait MS | press done [white|black] | accept | choose N | unplug | replug
    sensing occupancy | sensing polarity
    slide FROM TO | tumble D1 D2 | off-centre LOC | recentre LOC     (the table's faults)
    dead-reed LOC SLOT | welded-reed LOC SLOT [white|black] | chatter FLIPS
    opponent white|black [beginner|intermediate|expert]          (play against the table)
    double | take | pass          (the cube: the side on roll doubles, the other answers)
    match N | rubber | set | scoring games|stranded1|stranded2|stranded3
    stranded-multiply on|off                                     (sessions of several games)
    chouette N | throw P D | decline P      (a chouette: the throw-off, a partner declining)
    restart                     (the kiosk restarts: the game as its store keeps it goes on)
    variant standard|russian-cady|russian-foster | choose-doublet N      (Russian backgammon)

``LOC`` is ``1``-``24`` counted from the player on roll, ``bar`` or ``off``. Every
event is a JSON object written as it happens. Thrown dice roll until they rest (the
referee's rest time): ``dice`` after a ``wait`` shows faces of the same tumble, and any
other action first waits for the dice to rest, as a player would. ``wait`` takes at
most a minute; a line that cannot be run gets one ``error`` event. Time is a virtual
clock: the table is stepped through its scans, so a script runs fast and always the
same way.

``variant`` (before ``setup``) switches to Russian backgammon (:mod:`kiosk.referee.russian`):
``setup standard`` then lays every man in its tray (in hand), or ``setup R:...`` a Russian
position; ``LOC`` is ``1``-``24`` along the common track (the same for both sides),
``hand``, ``bar`` or ``off``; ``dice`` throws for the side on roll, ``press done`` ends
each part of the throw, and ``choose-doublet N`` names Cady's deuce-ace doublet. Only the
table's faults, ``wait``, ``sensing``, ``unplug`` and ``replug`` are shared with the
standard game.

``opponent`` makes one side the table's own: on its turn, once the dice have rested,
``{"event": "opponent-play", "player", "dice", "move", "position"}`` shows its play
(``position``: the Position ID after it) and the script moves its men with ``lift`` and
``place``; the referee confirms them (``play`` once they stand as shown; any other
placement is ``illegal`` with ``not-the-tables-move``). Before its throw the table may
double (``{"event": "cube", "action": "double", ...}``), answered with ``take`` or
``pass``; the visitor on roll doubles with ``double`` and the table takes or passes at
once (``cube`` events; a pass ends the game, ``game-over`` with ``"passed": true``). The
runner is handed the opponents by its maker (``opponents``: a level's name to an object
with ``choose(position, dice)``, whose ``.play`` is the play, and ``cube_action`` and
``answer_double``, whose ``.action`` is the cube decision), as ``kiosk scenario`` does.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TextIO

from kiosk.events import CrawfordGame, CubeMoved, Event, GameOver, OpponentPlayShown
from kiosk.link import BoardFrame, TableLayout
from kiosk.referee.referee import Mode, Referee, RefereeConfig
from kiosk.referee.russian import RussianReferee, russian_board, table_location
from kiosk.referee.sessions import ScriptSession
from kiosk.referee.stepped import STEP_MS, SteppedTable, TableTimeout
from kiosk.rules import (
    BAR,
    OFF,
    WHITE,
    Colour,
    Cube,
    CubeAction,
    Game,
    GameError,
    Phase,
    Position,
    get_profile,
)
from kiosk.rules.board import InvalidPositionError
from kiosk.rules.russian import HAND as RUSSIAN_HAND
from kiosk.rules.russian import (
    VARIANTS,
    RussianPosition,
    RussianProfile,
    get_russian_profile,
)
from kiosk.rules.session import SessionError
from kiosk.table import Sensed, location, true_counts

SENSING = ("polarity", "occupancy")  # reeds that tell the colour, or one reed a slot
MAX_WAIT_MS = 60_000  # a minute of table time per wait: longer is a mistake in the script


class ScriptError(ValueError):
    """A script line that cannot be run."""


class TableOpponent(Protocol):
    """The table's own player (:class:`kiosk.tutor.opponent.Opponent`)."""

    def choose(self, position: Position, dice: tuple[int, int]) -> Any:
        """Its play of ``dice`` in ``position``, as ``.play``."""
        ...

    def cube_action(self, position: Position, cube: Cube) -> Any:
        """Before its throw: ``.action`` is ``double``, ``no-double`` or ``too-good``."""
        ...

    def answer_double(self, position: Position, cube: Cube) -> Any:
        """The visitor doubles: ``.action`` is ``take`` or ``pass``."""
        ...


LEVELS = ("beginner", "intermediate", "expert")


class ScenarioRunner:
    """Runs script actions against a stepped simulated table served on a pseudo-terminal."""

    def __init__(
        self,
        emit: Callable[[dict], None],
        layout: TableLayout | None = None,
        settle_ms: int = 300,
        sensing: str = "polarity",
        firmware: str = "cpython",
        opponents: Callable[[str], TableOpponent] | None = None,
    ) -> None:
        self.emit = emit
        self.opponents = opponents
        self.sessions = ScriptSession()
        self.russian: RussianProfile | None = None  # the Russian game's rules, if playing it
        self._opponent: tuple[Colour, TableOpponent] | None = None
        self._shown: tuple[int, int] | None = None  # (game, turn) whose play the table showed
        self._cube_asked: tuple[int, int] | None = None  # (game, turn) it thought of doubling
        self.layout = layout or TableLayout()
        self.settle_ms = settle_ms
        self.sensing = _sensing(sensing)
        self.profile = get_profile(None)
        self.mode = Mode.TEACHING
        self.turn = WHITE
        self._setup: tuple[str, Position] | None = None
        self.table = SteppedTable(self.layout, firmware=firmware, sensing=self.sensing)
        self.sim, self.link, self.listener = self.table.sim, self.table.link, self.table.listener
        # When the dice last came down (until they rest), and whether a wait followed: the
        # next throw then shows faces of the same tumble. Any other action waits for rest.
        self._dice_laid: int | None = None
        self._waited_on_dice = False
        self._last: BoardFrame | None = None
        self._was_connected = False
        self._start = Position.standard(self.turn)  # where the game began (for a restart)
        self.game = Game(self.profile, self._start)
        self.referee = self._referee()

    def close(self) -> None:
        """Stop the link and the simulated table."""
        self.table.close()

    def __enter__(self) -> ScenarioRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _referee(self) -> Referee:
        """A referee for the current game, shown the table as it stands."""
        config = RefereeConfig(settle_ms=self.settle_ms, mode=self.mode)
        referee = Referee(self.game, self.layout, config, emit=self._from_referee)
        if self._last is not None:
            self._show(referee, self._last, self.now)
        return referee

    # -- for a driver such as a lesson -----------------------------------------------------

    def new_referee(self, game: Game) -> Referee:
        """Judge the table with a fresh referee for ``game``, from the board it shows now.

        Script actions then play in that game (a lesson drives the runner this way).
        """
        self.game = game
        self.referee = self._referee()
        return self.referee

    def sensed(self) -> Sensed | None:
        """The last board the link reported (None before the first frame)."""
        return self._last.sensed() if self._last is not None else None

    # -- running ---------------------------------------------------------------------------

    def run(self, lines: Iterable[str | bytes]) -> None:
        """Run every line of a script (text, or bytes read as UTF-8), then let the table
        settle. A line that cannot be run gets one ``error`` event; the rest still run."""
        for number, raw in enumerate(lines, start=1):
            try:
                line = _text(raw).split("#", 1)[0].strip()
                if line:
                    self.action(line)
            except (ScriptError, ValueError) as err:
                self.emit({"event": "error", "line": number, "message": str(err)})
        self.wait(self.settle_ms + STEP_MS)

    def action(self, line: str) -> None:
        """Run one script action."""
        word, *args = line.split()
        name = word.replace("-", "_")
        handler = getattr(self, "_do_" + name, None)
        if self.russian is not None:
            handler = getattr(self, "_ru_" + name, None) or (
                handler if name in SHARED_WITH_RUSSIAN else None
            )
            if handler is None:
                raise ScriptError(f"{word!r} is not an action of the Russian game")
        elif name == "choose_doublet":
            raise ScriptError("choose-doublet is Cady's deuce-ace, in the Russian game")
        if handler is None:
            raise ScriptError(f"unknown action {word!r}")
        if word in ("wait", "cocked"):
            self._waited_on_dice = self._dice_laid is not None
        elif word not in ("dice", "opening") or not self._waited_on_dice:
            self._let_dice_rest()
        handler(args)

    def _let_dice_rest(self) -> None:
        """Players wait for thrown dice to come to rest before they do anything else."""
        if self._dice_laid is None:
            return
        left = self._dice_laid + self.referee.config.dice_rest + STEP_MS - self.now
        self._dice_laid = None
        self._waited_on_dice = False
        if left > 0:
            self.wait(left)

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass on the table and at the referee."""
        self.table.wait(ms, self._step)

    @property
    def now(self) -> int:
        """The virtual clock (ms)."""
        return self.table.now

    def _step(self, now: int) -> None:
        """Deliver to the referee every frame the link has decoded (the table has caught
        up), then let the referee's clock run."""
        self._link_events()
        while True:
            try:
                frame = self.listener.frames.get_nowait()
            except queue.Empty:
                break
            self._last = frame
            self._show(self.referee, frame, now)
        self.referee.tick(now)
        self._opponent_turn()

    def _opponent_turn(self) -> None:
        """The table's turn, its dice thrown: show its play and have the referee expect it."""
        if self._opponent is None:
            return
        colour, opponent = self._opponent
        game = self.game
        turn = (id(game), len(game.turns))
        if game.turn != colour or self.referee.setting_up:
            return
        if game.phase == Phase.ROLL and self._cube_asked != turn:
            self._cube_asked = turn
            if CubeAction.DOUBLE in game.legal_cube_actions():
                if opponent.cube_action(game.position, game.cube).action == "double":
                    game.double()
                    self._cube_event("double", colour)
            return
        if game.phase != Phase.PLAY or game.dice is None:
            return
        if self._shown == turn:
            return
        self._shown = turn
        play = opponent.choose(game.position, game.dice).play
        self.referee.expect(play)
        self.emit(
            OpponentPlayShown(
                player=colour, dice=game.dice, move=str(play), position=play.result.position_id()
            ).to_json()
        )

    def _show(self, referee: Referee, frame: BoardFrame, now: int) -> None:
        """One frame to the referee, as this table senses it."""
        referee.dice(frame.dice, now)
        if self.sensing == "occupancy":
            referee.occupancy(frame.occupancy(), now)
        else:
            referee.board(frame.sensed(), now)

    # -- actions ---------------------------------------------------------------------------

    def _do_profile(self, args: list[str]) -> None:
        self.profile = get_profile(_one(args, "profile NAME"))
        self._new_game()

    def _do_mode(self, args: list[str]) -> None:
        word = _one(args, "mode teaching|laws")
        try:
            self.mode = Mode(word)
        except ValueError:
            raise ScriptError(f"mode is teaching or laws, not {word!r}") from None
        self.referee = self._referee()

    def _do_setup(self, args: list[str]) -> None:
        what = _one(args, "setup standard|POSITION_ID|empty")
        if what == "standard" or what == "empty":
            position = Position.standard(self.turn)
        else:
            position = Position.from_id(what, self.turn)
        self._setup = (what, position)
        self._new_game(position)
        self.sim.set_position({} if what == "empty" else _layout(position))
        self.referee.set_up(position)
        self.wait(self.settle_ms + STEP_MS)

    def _do_sensing(self, args: list[str]) -> None:
        self.sensing = _sensing(_one(args, "sensing occupancy|polarity"))
        self.emit({"event": "sensing", "mode": self.sensing})
        self.referee = self._referee()

    def _do_turn(self, args: list[str]) -> None:
        self.turn = Colour.parse(_one(args, "turn white|black"))
        if self._setup and self._setup[0] not in ("standard", "empty") and not self.game.turns:
            self._do_setup([self._setup[0]])
        elif self.game.phase in (Phase.OPENING, Phase.ROLL) and not self.game.turns:
            self.game.set_turn(self.turn)

    def _do_opening(self, args: list[str]) -> None:
        white, black = _dice(args)
        self._throw(white, black)

    def _do_dice(self, args: list[str]) -> None:
        d1, d2 = _dice(args)
        if self.game.phase == Phase.OPENING:
            self.game.start_with(self.turn)
        self._throw(d1, d2)

    def _do_cocked(self, args: list[str]) -> None:
        well = _number(_one(args, "cocked 1|2"), "cocked 1|2")
        if well not in (1, 2):
            raise ScriptError("usage: cocked 1|2")
        self.sim.cock(well)
        self.wait(STEP_MS)

    def _do_lift(self, args: list[str]) -> None:
        where, colour = self._where(args)
        self.sim.lift(where, colour.name.lower())
        self.wait(STEP_MS)

    def _do_place(self, args: list[str]) -> None:
        where, colour = self._where(args)
        self.sim.place(where, colour.name.lower())
        self.wait(STEP_MS)

    # -- the table's real-world faults (kiosk.simtable.SimulatedTable) ----------------------

    def _do_slide(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ScriptError("slide FROM TO")
        source, colour = self._where(args[:1])
        target, _ = self._where(args[1:])
        self.sim.slide(source, target, man=colour.name.lower(), hold=self.wait)
        self.wait(STEP_MS)

    def _do_tumble(self, args: list[str]) -> None:
        d1, d2 = _dice(args)
        if self.game.phase == Phase.OPENING:
            self.game.start_with(self.turn)
        self.sim.clear_dice()
        self.wait(STEP_MS)
        self.sim.tumble(d1, d2, hold=self.wait)
        self.wait(STEP_MS)

    def _do_off_centre(self, args: list[str]) -> None:
        self.sim.push_off_centre(self._where([_one(args, "off-centre LOC")])[0])
        self.wait(STEP_MS)

    def _do_recentre(self, args: list[str]) -> None:
        self.sim.recentre(self._where([_one(args, "recentre LOC")])[0])
        self.wait(STEP_MS)

    def _do_dead_reed(self, args: list[str]) -> None:
        if len(args) != 2 or not args[1].isdigit():
            raise ScriptError("dead-reed LOC SLOT (slot 1 is at the edge)")
        self.sim.kill_reed(self._where(args[:1])[0], int(args[1]) - 1)
        self.wait(STEP_MS)

    def _do_welded_reed(self, args: list[str]) -> None:
        if not 2 <= len(args) <= 3 or not args[1].isdigit():
            raise ScriptError("welded-reed LOC SLOT [white|black] (slot 1 is at the edge)")
        where, colour = self._where([args[0], *args[2:]])
        self.sim.weld_reed(where, int(args[1]) - 1, colour.name.lower())
        self.wait(STEP_MS)

    def _do_chatter(self, args: list[str]) -> None:
        flips = _one(args, "chatter FLIPS")
        if not flips.isdigit():
            raise ScriptError("chatter takes a number of flips, 0 to switch it off")
        self.sim.chatter = int(flips)

    def _do_opponent(self, args: list[str]) -> None:
        usage = "opponent white|black [beginner|intermediate|expert]"
        if not 1 <= len(args) <= 2 or (len(args) == 2 and args[1] not in LEVELS):
            raise ScriptError(usage)
        if self.opponents is None:
            raise ScriptError("this runner has no opponent to play: run it with kiosk scenario")
        colour = Colour.parse(args[0])
        self._opponent = (colour, self.opponents(args[1] if len(args) == 2 else LEVELS[0]))
        self._shown = None

    def _do_restart(self, args: list[str]) -> None:
        """The kiosk restarts: the game is read back from its record (its turns, the dice
        thrown), a new referee checks the table against it, and a game against the table
        shows the table's pending play again (the same play: its choice is seeded)."""
        game = self.game
        restored = Game(self.profile, self._start)
        for turn in game.turns:
            restored.record_play(turn.colour, turn.dice, turn.play)
        if game.phase == Phase.PLAY and game.dice is not None:
            restored.record_throw(game.turn, game.dice)
        self.game = restored
        self.referee = self._referee()
        self.referee.set_up(restored.position, restoring=True, in_play=True)
        self._shown = None
        self.wait(self.settle_ms + STEP_MS)

    def _cube_event(self, action: str, player: Colour) -> None:
        cube = self.game.cube
        owner = None if cube.owner is None else str(cube.owner)
        self.emit(CubeMoved(action=action, player=player, cube=(cube.value, owner)).to_json())

    def _do_double(self, args: list[str]) -> None:
        game = self.game
        if self._opponent is not None and game.turn == self._opponent[0]:
            raise ScriptError("the table is on roll: only the visitor on roll doubles")
        if game.phase == Phase.OPENING:
            game.start_with(self.turn)  # a position set up: its side on roll throws first
        try:
            game.double()
        except GameError as err:
            if self.sessions.crawford:
                raise ScriptError(
                    "no double now: the Crawford game is played without the cube"
                ) from None
            raise ScriptError(f"no double now: {err}") from None
        self._cube_event("double", game.turn)
        if self._opponent is not None:  # the table answers at once
            answer = self._opponent[1].answer_double(game.position, game.cube).action
            self._answer(take=answer == "take")

    def _do_take(self, args: list[str]) -> None:
        self._answer_double(take=True)

    def _do_pass(self, args: list[str]) -> None:
        self._answer_double(take=False)

    def _answer_double(self, take: bool) -> None:
        if self.game.phase != Phase.DOUBLE_OFFERED:
            raise ScriptError("no double is on offer")
        self._answer(take)

    def _answer(self, take: bool) -> None:
        """The side not on roll takes the double (and owns the cube) or passes (and loses)."""
        game = self.game
        doubler, taker = game.turn, game.turn.other
        try:
            self.sessions.cube_answered(doubler, take)
        except SessionError as err:
            raise ScriptError(str(err)) from None
        if take:
            game.take()
            self._cube_event("take", taker)
            return
        game.pass_()
        self._cube_event("pass", taker)
        self._emit_game_over(
            GameOver(winner=doubler, result="single", points=game.cube.value, passed=True).to_json()
        )

    def _emit_game_over(self, event: dict) -> None:
        """A ``game-over`` event, counted by the session being played (if any)."""
        try:
            event = self.sessions.game_over(event, self.game.position, self.game.cube.value)
        except (SessionError, ValueError) as err:
            self.emit({"event": "error", "message": f"the session cannot count this game: {err}"})
        self.emit(event)
        if self.sessions.chouette is not None:
            self.emit(self.sessions.seating())  # the rotation after the game

    def _from_referee(self, event: Event) -> None:
        data = event.to_json()
        if data["event"] == "game-over":
            self._emit_game_over(data)
        else:
            self.emit(data)

    # -- sessions ----------------------------------------------------------------------

    def _do_match(self, args: list[str]) -> None:
        length = _number(_one(args, "match N"), "match N: a number of points")
        self._session(lambda: self.sessions.match(length, self.profile))

    def _do_rubber(self, args: list[str]) -> None:
        self._session(lambda: self.sessions.kind("rubber", self.profile))

    def _do_set(self, args: list[str]) -> None:
        self._session(lambda: self.sessions.kind("set", self.profile))

    def _do_scoring(self, args: list[str]) -> None:
        word = _one(args, "scoring games|stranded1|stranded2|stranded3")
        self._session(lambda: self.sessions.set_scoring(word, self.profile))

    def _do_chouette(self, args: list[str]) -> None:
        players = _number(_one(args, "chouette N"), "chouette N: 3 to 8 players")
        self._session(lambda: self.sessions.start_chouette(players))

    def _do_throw(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ScriptError("throw P D: player P's die in the chouette's throw-off")
        player = _number(args[0], "throw P D: P is a player's number")
        die = _number(args[1], "throw P D: D is a die, 1 to 6")
        try:
            seated = self.sessions.throw(player, die, self.profile)
        except SessionError as err:
            raise ScriptError(str(err)) from None
        if seated is not None:
            self.emit(seated)

    def _do_decline(self, args: list[str]) -> None:
        player = _number(_one(args, "decline P"), "decline P: a partner's number")
        if self.game.phase != Phase.DOUBLE_OFFERED:
            raise ScriptError("no double is on offer")
        try:
            self.sessions.decline(player)
        except SessionError as err:
            raise ScriptError(str(err)) from None

    def _do_stranded_multiply(self, args: list[str]) -> None:
        word = _one(args, "stranded-multiply on|off")
        if word not in ("on", "off"):
            raise ScriptError("stranded-multiply on|off")
        self.sessions.set_multiply(word == "on")

    def _session(self, start: Callable[[], None]) -> None:
        try:
            start()
        except SessionError as err:
            raise ScriptError(str(err)) from None
        self._new_game()

    def _do_wait(self, args: list[str]) -> None:
        ms = _number(_one(args, "wait MS"), f"wait takes 0 to {MAX_WAIT_MS} milliseconds")
        if ms > MAX_WAIT_MS:
            raise ScriptError(f"wait takes 0 to {MAX_WAIT_MS} milliseconds, not {ms}")
        self.wait(ms)

    def _do_press(self, args: list[str]) -> None:
        if not args or args[0] != "done" or len(args) > 2:
            raise ScriptError("press done [white|black]")
        colour = Colour.parse(args[1]) if len(args) == 2 else None
        self.referee.press_done(colour, self.now)
        self.wait(STEP_MS)

    def _do_accept(self, args: list[str]) -> None:
        self.referee.accept()
        self.wait(STEP_MS)

    def _do_unplug(self, args: list[str]) -> None:
        self.sim.unplug()
        self._await_link(False)

    def _do_replug(self, args: list[str]) -> None:
        self.sim.replug()
        self._await_link(True)
        self.wait(STEP_MS)

    def _await_link(self, connected: bool) -> None:
        """Wait (in real time: the link's reconnection runs on its own clock) for the link."""
        deadline = time.monotonic() + 2 * self.table.timeout
        while self.link.connected != connected:
            if time.monotonic() > deadline:
                state = "connect again" if connected else "notice the cable pulled"
                raise TableTimeout(f"the link did not {state} in time")
            if connected:
                self.sim.advance(STEP_MS)  # the dump after a reconnect needs a settled scan
            time.sleep(0.01)
        self._link_events()

    def _link_events(self) -> None:
        """Report the link's status changes; after a reconnect the referee checks the table."""
        while True:
            try:
                event = self.listener.events.get_nowait()
            except queue.Empty:
                return
            status = event.status.name.lower()
            if status in ("connected", "disconnected"):
                if status == "connected" and self._was_connected:
                    self.referee.reconnected()
                self._was_connected = True
                report = {"event": "table", "status": status, "message": event.message}
                if status == "connected" and event.info is not None:
                    report["runtime"] = event.info.runtime
                self.emit(report)

    def _do_choose(self, args: list[str]) -> None:
        self.referee.choose(_number(_one(args, "choose N"), "usage: choose N") - 1)
        self.wait(STEP_MS)

    # -- helpers ---------------------------------------------------------------------------

    def _new_game(self, position: Position | None = None) -> None:
        rules, starter = self.sessions.next_game(self.profile)
        if starter is not None:  # who throws first in a session's next game: the profile's
            self.turn = starter
            position = position.with_turn(starter) if position is not None else None
        self._start = position or Position.standard(self.turn)
        self.game = Game(rules, self._start)
        if self.sessions.crawford:
            self.emit(CrawfordGame().to_json())
        self.referee = self._referee()

    def _throw(self, d1: int, d2: int) -> None:
        self.sim.clear_dice()
        self.wait(STEP_MS)
        self.sim.set_dice(d1, d2)
        self._dice_laid, self._waited_on_dice = self.now, False
        self.wait(STEP_MS)

    # -- Russian backgammon ----------------------------------------------------------------

    def _do_variant(self, args: list[str]) -> None:
        word = _one(args, "variant standard|russian-cady|russian-foster")
        if word not in VARIANTS:
            raise ScriptError(f"the variant is one of {', '.join(VARIANTS)}, not {word!r}")
        if word == "standard":
            self.russian = None
            self._new_game()
            return
        self.russian = get_russian_profile(word)
        self._ru_setup(["standard"])

    def _ru_setup(self, args: list[str]) -> None:
        what = _one(args, "setup standard|R:<w|b>:<white>:<black>")
        try:
            position = (
                RussianPosition.start(self.turn)
                if what == "standard"
                else RussianPosition.from_notation(what)
            )
        except InvalidPositionError as err:
            raise ScriptError(str(err)) from None
        assert self.russian is not None
        config = RefereeConfig(settle_ms=self.settle_ms, mode=self.mode)
        self.referee = RussianReferee(self.russian, self.layout, config, emit=self._from_referee)
        layout = {}
        for where, (w, b) in russian_board(position).items():
            if w or b:
                layout[where] = ("white", w) if w else ("black", b)
        self.referee.set_up(position)
        if self._last is not None:  # a new referee starts from the table as it stands
            self._show(self.referee, self._last, self.now)
        self.sim.set_position(layout)
        self.wait(self.settle_ms + STEP_MS)

    def _ru_dice(self, args: list[str]) -> None:
        self._throw(*_dice(args))

    def _ru_turn(self, args: list[str]) -> None:
        self.turn = Colour.parse(_one(args, "turn white|black"))

    def _ru_press(self, args: list[str]) -> None:
        self._do_press(args)

    def _ru_choose_doublet(self, args: list[str]) -> None:
        n = _number(_one(args, "choose-doublet N"), "choose-doublet takes a doublet of 1 to 6")
        self.referee.choose_doublet(n)
        self.wait(STEP_MS)

    def _russian_where(self, args: list[str]) -> tuple[str, Colour]:
        referee = self.referee
        assert isinstance(referee, RussianReferee)
        turn = referee.turn
        mover = turn.player if turn is not None and not turn.over else referee.position.turn
        colour = Colour.parse(args[1]) if len(args) == 2 else mover
        word = args[0].lower()
        if word in ("hand", "off"):  # the tray holds both: a side bears off once all are in
            return table_location(colour, RUSSIAN_HAND), colour
        if word == "bar":
            return f"bar-{colour}", colour
        if not word.isdigit() or not 1 <= int(word) <= 24:
            raise ScriptError(f"a Russian location is 1-24, hand, bar or off, not {args[0]!r}")
        return table_location(colour, int(word)), colour

    def _where(self, args: list[str]) -> tuple[str, Colour]:
        if not 1 <= len(args) <= 2:
            raise ScriptError("lift|place LOC [white|black]")
        if isinstance(self.referee, RussianReferee):
            return self._russian_where(args)
        colour = Colour.parse(args[1]) if len(args) == 2 else self.game.turn
        word = args[0].lower()
        if word == "bar":
            return location(colour, BAR), colour
        if word == "off":
            return location(colour, OFF), colour
        if not word.isdigit() or not 1 <= int(word) <= 24:
            raise ScriptError(f"a location is 1-24, bar or off, not {args[0]!r}")
        return location(self.game.turn, int(word)), colour


SHARED_WITH_RUSSIAN = {
    "variant",
    "wait",
    "sensing",
    "unplug",
    "replug",
    "cocked",
    "slide",
    "tumble",
    "off_centre",
    "recentre",
    "dead_reed",
    "welded_reed",
    "chatter",
    "lift",
    "place",
}


def _text(raw: str | bytes) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError("the line is not UTF-8 text") from None


def _number(word: str, usage: str) -> int:
    if not word.isdigit():
        raise ScriptError(f"{usage} (not {word!r})")
    return int(word)


def _sensing(word: str) -> str:
    if word not in SENSING:
        raise ScriptError(f"sensing is occupancy or polarity, not {word!r}")
    return word


def _one(args: list[str], usage: str) -> str:
    if len(args) != 1:
        raise ScriptError(f"usage: {usage}")
    return args[0]


def _dice(args: list[str]) -> tuple[int, int]:
    if len(args) != 2 or not all(a.isdigit() and 1 <= int(a) <= 6 for a in args):
        raise ScriptError("two dice, each 1 to 6")
    return int(args[0]), int(args[1])


def _layout(position: Position) -> dict[str, tuple[str, int]]:
    """A position as the simulated table lays it out: location -> (colour, men)."""
    out = {}
    for where, (w, b) in true_counts(position).items():
        if w:
            out[where] = ("white", w)
        elif b:
            out[where] = ("black", b)
    return out


def run_script(
    lines: Iterable[str | bytes],
    out: TextIO,
    settle_ms: int = 300,
    sensing: str = "polarity",
    firmware: str = "cpython",
    opponents: Callable[[str], TableOpponent] | None = None,
) -> list[dict]:
    """Run a script, writing one JSON object per event to ``out``; returns the events.

    ``firmware`` is the interpreter running the table's firmware (``cpython`` or
    ``micropython``); ``opponents`` gives the table's player at a level (``opponent``).
    """
    events: list[dict] = []

    def emit(event: dict) -> None:
        events.append(event)
        out.write(json.dumps(event) + "\n")
        out.flush()

    with ScenarioRunner(
        emit, settle_ms=settle_ms, sensing=sensing, firmware=firmware, opponents=opponents
    ) as runner:
        runner.run(lines)
    return events
