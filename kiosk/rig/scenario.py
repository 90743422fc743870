"""Scripted sessions through the whole stack: simulated table, pty, link, game core, referee.

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

The table is the one the hardware is designed as: one reed a slot (occupancy sensing),
unless the runner is made with ``sensing="polarity"`` or a ``sensing`` line switches it
(the men stay where they are). The ``table`` event names the sensing. The script drives a
:class:`~kiosk.play.GameCore`, the same core the application's modes drive: the cube, the
sessions, the table's own side and the restart are the application's own.

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
runner is handed the opponents by its maker (``opponents``: a level's name to an
:class:`~kiosk.tutor.opponent.Opponent`), as ``kiosk scenario`` does. Every action waits
until what the table is deciding (its cube, its play, its answer to a double) is decided,
and the virtual clock stands still meanwhile: a script gives the same events however long
the table thinks, on any machine (``tests/opponent/test_thinking_time.py``).
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from kiosk.errors import TableError
from kiosk.events import ChouetteSeating, Event, TableStatus
from kiosk.link import BoardFrame, TableLayout
from kiosk.play.core import CoreSettings, GameCore
from kiosk.play.cube import CubeError
from kiosk.referee.referee import Mode, RefereeConfig
from kiosk.referee.russian import RussianReferee, russian_board, table_location
from kiosk.rig.stepped import STEP_MS, SteppedTable, TableTimeout
from kiosk.rules import BAR, OFF, WHITE, Colour, Game, Phase, Position, get_profile
from kiosk.rules.board import InvalidPositionError
from kiosk.rules.chouette import Chouette, ChouetteError, ThrowOff, player_names
from kiosk.rules.russian import RUSSIAN_HAND, RussianPosition
from kiosk.rules.session import Kind, Scoring, Session, SessionError
from kiosk.rules.variants import VARIANTS
from kiosk.table import LOCATIONS, TableReading, location, true_counts
from kiosk.table.sensing import Sensed
from kiosk.tutor.opponent import Opponent

SENSING = ("polarity", "occupancy")  # reeds that tell the colour, or one reed a slot
MAX_WAIT_MS = 60_000  # a minute of table time per wait: longer is a mistake in the script
SCORINGS = tuple(s.value for s in Scoring)
LEVELS = ("beginner", "intermediate", "expert")
THINK_LIMIT_S = 60.0  # a script waits for the table's evaluator: the same play every run


class ScriptError(TableError, ValueError):
    """A script line that cannot be run."""


class ScenarioRunner:
    """Runs script actions against a stepped simulated table served on a pseudo-terminal."""

    def __init__(
        self,
        emit: Callable[[dict[str, Any]], None],
        layout: TableLayout | None = None,
        settle_ms: int = 300,
        sensing: str = "occupancy",
        firmware: str = "cpython",
        opponents: Callable[[str], Opponent] | None = None,
    ) -> None:
        self.emit = emit
        self.opponents = opponents
        self.layout = layout or TableLayout()
        self.settle_ms = settle_ms
        self.sensing = _sensing(sensing)
        self.firmware = firmware
        self.mode = Mode.TEACHING
        self.turn = WHITE
        self.russian = False  # a game of Russian backgammon has the table
        self._variant = "russian-cady"  # which book's Russian game
        self._setup: tuple[str, Position] | None = None
        # the sessions a script builds (the core plays them): scoring, stranded options
        self._scoring = Scoring.GAMES
        self._multiply = False
        self._throw_off: ThrowOff | None = None
        self.table = SteppedTable(self.layout, firmware=firmware, sensing=self.sensing)
        self.sim, self.link, self.listener = self.table.sim, self.table.link, self.table.listener
        # When the dice last came down (until they rest), and whether a wait followed: the
        # next throw then shows faces of the same tumble. Any other action waits for rest.
        self._dice_laid: int | None = None
        self._waited_on_dice = False
        self._last: BoardFrame | None = None
        self._was_connected = False
        self.core = GameCore(self.layout, self._publish, self._settings())
        self.core.new_game(Position.standard(self.turn), set_up=False)

    def _settings(self) -> CoreSettings:
        config = RefereeConfig(settle_ms=self.settle_ms, mode=self.mode)
        return CoreSettings(referee=config, dice_source="wells", think_limit=THINK_LIMIT_S)

    def close(self) -> None:
        """Stop the table's side, the link and the simulated table."""
        self.core.close()
        self.table.close()

    def __enter__(self) -> ScenarioRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def game(self) -> Game:
        """The game being played (a lesson's, while one hosts the table)."""
        judge = self.core.judge
        game = getattr(judge, "game", None)
        return game if isinstance(game, Game) else self.core.game

    # -- for a driver such as a lesson -----------------------------------------------------

    def host(self, game: Game, emit: Callable[[Event], None]) -> object:
        """Judge the table with a fresh referee for ``game`` reporting to ``emit``, from the
        board it shows now; script actions then play in that game (a lesson drives the
        runner this way)."""
        return self.core.host(game, emit)

    def sensed(self) -> Sensed | None:
        """The board on the table as the referee judges it (None before the first frame)."""
        return self.core.board

    def reading(self) -> TableReading | None:
        """The table's last reading (None before the first frame)."""
        return self.core.reading

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
        if self.russian:
            handler = getattr(self, "_ru_" + name, None) or (
                handler if name in SHARED_WITH_RUSSIAN else None
            )
            if handler is None:
                raise ScriptError(f"{word!r} is not an action of the Russian game")
        elif name == "choose_doublet":
            raise ScriptError("choose-doublet is Cady's deuce-ace, in the Russian game")
        if handler is None:
            raise ScriptError(f"unknown action {word!r}")
        self.core.settle()  # what the table is deciding is decided before anything follows
        if word in ("wait", "cocked"):
            self._waited_on_dice = self._dice_laid is not None
        elif word not in ("dice", "opening") or not self._waited_on_dice:
            self._let_dice_rest()
        handler(args)

    def _let_dice_rest(self) -> None:
        """Players wait for thrown dice to come to rest before they do anything else."""
        if self._dice_laid is None:
            return
        rest = self.core.settings.referee.dice_rest
        left = self._dice_laid + rest + STEP_MS - self.now
        self._dice_laid = None
        self._waited_on_dice = False
        if left > 0:
            self.wait(left)

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass on the table and in the game core."""
        self.table.wait(ms, self._step)

    @property
    def now(self) -> int:
        """The virtual clock (ms)."""
        return self.table.now

    def _step(self, now: int) -> None:
        """Deliver every frame the link has decoded (the table has caught up) to the core,
        let its clock run, and wait for the table's side to think."""
        self._link_events()
        while True:
            try:
                frame = self.listener.frames.get_nowait()
            except queue.Empty:
                break
            self._last = frame
            self.core.sense(frame.reading(self.core.sensing), now)
        self.core.tick(now)
        self.core.settle()

    def _publish(self, event: Event) -> None:
        self.emit(event.to_json())

    # -- actions ---------------------------------------------------------------------------

    def _do_profile(self, args: list[str]) -> None:
        self.core.profile = get_profile(_one(args, "profile NAME"))
        self._new_game()

    def _do_mode(self, args: list[str]) -> None:
        word = _one(args, "mode teaching|laws")
        try:
            self.mode = Mode(word)
        except ValueError:
            raise ScriptError(f"mode is teaching or laws, not {word!r}") from None
        self.core.settings = self._settings()
        self.core.judge_again()

    def _do_setup(self, args: list[str]) -> None:
        what = _one(args, "setup standard|POSITION_ID|empty")
        if what == "standard" or what == "empty":
            position = Position.standard(self.turn)
        else:
            position = Position.from_id(what, self.turn)
        self._setup = (what, position)
        self._new_game(position)
        self.sim.lay_out({} if what == "empty" else true_counts(position))
        self.core.set_up(self.core.game.position, restoring=False)
        self.wait(self.settle_ms + STEP_MS)

    def _do_sensing(self, args: list[str]) -> None:
        self.sensing = _sensing(_one(args, "sensing occupancy|polarity"))
        self.emit({"event": "sensing", "mode": self.sensing})
        if self.sensing != self.table.sim.layout.sensing:
            self._switch_table()
        self.core.judge_again()

    def _switch_table(self) -> None:
        """The same men on a table sensing the other way (the link reconnects to it)."""
        old = self.table
        men = {where: old.sim.men(where) for where in LOCATIONS}
        table = SteppedTable(self.layout, firmware=self.firmware, sensing=self.sensing)
        table.now = old.now
        old.close()
        for where, placed in men.items():
            for man in placed:
                table.sim.place(where, man)
        self.table = table
        self.sim, self.link, self.listener = table.sim, table.link, table.listener
        self._was_connected = False
        self.wait(STEP_MS)

    def _do_turn(self, args: list[str]) -> None:
        self.turn = Colour.parse(_one(args, "turn white|black"))
        if self._setup and self._setup[0] not in ("standard", "empty") and not self.game.turns:
            self._do_setup([self._setup[0]])
        elif self.game.phase in (Phase.OPENING, Phase.ROLL) and not self.game.turns:
            self.core.set_turn(self.turn)

    def _do_opening(self, args: list[str]) -> None:
        white, black = _dice(args)
        self._throw(white, black)

    def _do_dice(self, args: list[str]) -> None:
        d1, d2 = _dice(args)
        if self.game.phase == Phase.OPENING:
            self.core.skip_opening(self.turn)
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
        self._hand()

    def _do_place(self, args: list[str]) -> None:
        where, colour = self._where(args)
        self.sim.place(where, colour.name.lower())
        self._hand()

    def _hand(self) -> None:
        """A hand's movement; a hand that set a reed chattering stays until it settles (an
        unplugged table scans nothing, so nothing settles: it does not wait for that)."""
        self.wait(STEP_MS)
        while self.sim.chattering and self.sim.plugged:
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
            self.core.skip_opening(self.turn)
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
        self._reed(args[0], int(args[1]), self.sim.kill_reed)

    def _do_welded_reed(self, args: list[str]) -> None:
        if not 2 <= len(args) <= 3 or not args[1].isdigit():
            raise ScriptError("welded-reed LOC SLOT [white|black] (slot 1 is at the edge)")
        where, colour = self._where([args[0], *args[2:]])
        self._reed(
            args[0], int(args[1]), lambda w, s: self.sim.weld_reed(w, s, colour.name.lower())
        )

    def _reed(self, loc: str, slot: int, fault: Callable[[str, int], None]) -> None:
        where = self._where([loc])[0]
        slots = self.sim.layout.slots(where)
        if not 1 <= slot <= slots:
            raise ScriptError(f"{loc} has slots 1 to {slots}, not {slot}")
        fault(where, slot - 1)
        self.wait(STEP_MS)

    def _do_chatter(self, args: list[str]) -> None:
        flips = _one(args, "chatter FLIPS")
        if not flips.isdigit() or int(flips) > 20:
            raise ScriptError("chatter takes a number of flips, 0 (off) to 20")
        self.sim.chatter = int(flips)

    def _do_opponent(self, args: list[str]) -> None:
        usage = "opponent white|black [beginner|intermediate|expert]"
        if not 1 <= len(args) <= 2 or (len(args) == 2 and args[1] not in LEVELS):
            raise ScriptError(usage)
        if self.opponents is None:
            raise ScriptError("this runner has no opponent to play: run it with kiosk scenario")
        level = args[1] if len(args) == 2 else LEVELS[0]
        self.core.play_against(Colour.parse(args[0]), self.opponents(level), level)

    def _do_restart(self, args: list[str]) -> None:
        """The kiosk restarts: the game is read back from its record (its turns, the dice
        thrown), a new referee checks the table against it, and a game against the table
        shows the table's pending play again (the same play: its choice is seeded)."""
        self.core.restart()
        self.wait(self.settle_ms + STEP_MS)

    def _do_double(self, args: list[str]) -> None:
        core = self.core
        side = core.side
        if side is not None and self.game.turn == side.colour:
            raise ScriptError("the table is on roll: only the visitor on roll doubles")
        if self.game.phase == Phase.OPENING:
            core.skip_opening(self.turn)  # a position set up: its side on roll throws first
        try:
            core.cube.double()
        except CubeError as err:
            raise ScriptError(str(err)) from None
        core.settle()  # the table answers at once

    def _do_take(self, args: list[str]) -> None:
        self._answer(take=True)

    def _do_pass(self, args: list[str]) -> None:
        self._answer(take=False)

    def _answer(self, take: bool) -> None:
        try:
            self.core.cube.answer(take)
        except CubeError as err:
            raise ScriptError(str(err)) from None

    # -- sessions ----------------------------------------------------------------------

    def _do_match(self, args: list[str]) -> None:
        length = _number(_one(args, "match N"), "match N: a number of points")
        if length < 1:
            raise ScriptError(f"a match is played to 1 point or more, not {length}")
        self._session(Session.match(length, self.core.profile))

    def _do_rubber(self, args: list[str]) -> None:
        self._session(Session.rubber(self.core.profile))

    def _do_set(self, args: list[str]) -> None:
        self._session(Session.set(self.core.profile))

    def _do_scoring(self, args: list[str]) -> None:
        word = _one(args, "scoring games|stranded1|stranded2|stranded3")
        if word not in SCORINGS:
            raise ScriptError(f"scoring is one of {', '.join(SCORINGS)}, not {word!r}")
        scoring = Scoring(word)
        playing = self.core.session.session if self.core.session is not None else None
        if isinstance(playing, Session) and playing.kind != Kind.MONEY and scoring != Scoring.GAMES:
            raise ScriptError(f"a {playing.kind.value} is counted in games, not by stranded men")
        self._scoring = scoring
        if playing is None or isinstance(playing, Session) and playing.kind == Kind.MONEY:
            money = Session.money(
                self.core.profile, scoring=scoring, stranded_multiply=self._multiply
            )
            self._session(money)
        else:
            self._new_game()

    def _do_stranded_multiply(self, args: list[str]) -> None:
        word = _one(args, "stranded-multiply on|off")
        if word not in ("on", "off"):
            raise ScriptError("stranded-multiply on|off")
        self._multiply = word == "on"
        playing = self.core.session.session if self.core.session is not None else None
        if isinstance(playing, Session):
            playing.stranded_multiply = self._multiply

    def _do_chouette(self, args: list[str]) -> None:
        players = _number(_one(args, "chouette N"), "chouette N: 3 to 8 players")
        if not 3 <= players <= 8:
            raise ScriptError(f"a chouette has 3 to 8 players, not {players}")
        self._throw_off = ThrowOff(player_names(players))
        self.core.keep_session(None)
        self._new_game()

    def _do_throw(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ScriptError("throw P D: player P's die in the chouette's throw-off")
        player = _number(args[0], "throw P D: P is a player's number")
        die = _number(args[1], "throw P D: D is a die, 1 to 6")
        if self._throw_off is None:
            raise ScriptError("throw P D is the throw-off of a chouette: chouette N first")
        try:
            self._throw_off.throw(player, die)
        except (ChouetteError, ValueError) as err:
            raise ScriptError(str(err)) from None
        if not self._throw_off.done:
            return
        chouette = Chouette.seated(self._throw_off, profile=self.core.profile)
        self._throw_off = None
        seating = self.core.start_session(chouette).seating()
        assert isinstance(seating, ChouetteSeating)
        self.emit(seating.to_json())

    def _do_decline(self, args: list[str]) -> None:
        player = _number(_one(args, "decline P"), "decline P: a partner's number")
        session = self.core.session
        chouette = session.session if session is not None else None
        if self.game.phase != Phase.DOUBLE_OFFERED:
            raise ScriptError("no double is on offer")
        if not isinstance(chouette, Chouette):
            raise ScriptError("a partner declines the box's double in a chouette only")
        names = chouette.players
        name = names[player - 1] if 1 <= player <= len(names) else ""
        if name not in chouette.partners or name == chouette.captain:
            raise ScriptError(f"player {player} is not a partner who may decline by himself")
        try:
            self.core.cube.decline(name)
        except CubeError as err:
            raise ScriptError(str(err)) from None

    def _session(self, session: Session) -> None:
        try:
            self.core.start_session(session)
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
        self.core.press_done(colour)
        self.wait(STEP_MS)

    def _do_accept(self, args: list[str]) -> None:
        self.core.accept()
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
            if status not in ("connected", "disconnected"):
                continue
            sensing = event.info.layout.sensing if event.info is not None else ""
            if status == "connected":
                self.core.connected(sensing or self.core.sensing, again=self._was_connected)
                self._was_connected = True
            runtime = event.info.runtime if event.info is not None else None
            self._publish(
                TableStatus(status=status, message=event.message, **_connected(runtime, sensing))
            )

    def _do_choose(self, args: list[str]) -> None:
        self.core.choose(_number(_one(args, "choose N"), "usage: choose N") - 1)
        self.wait(STEP_MS)

    # -- helpers ---------------------------------------------------------------------------

    def _new_game(self, position: Position | None = None) -> None:
        """A new game (the session's next), from ``position``, its men not laid out."""
        self.russian = False
        self.core.new_game(position or Position.standard(self.turn), set_up=False)
        self.turn = self.core.game.turn

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
            self._new_game()
            return
        self._variant = word
        self.russian = True
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
        referee = self.core.play_variant(self._variant)
        referee.set_up(position)
        self.sim.lay_out(russian_board(position))
        self.wait(self.settle_ms + STEP_MS)

    def _ru_dice(self, args: list[str]) -> None:
        self._throw(*_dice(args))

    def _ru_turn(self, args: list[str]) -> None:
        self.turn = Colour.parse(_one(args, "turn white|black"))

    def _ru_press(self, args: list[str]) -> None:
        self._do_press(args)

    def _ru_choose_doublet(self, args: list[str]) -> None:
        n = _number(_one(args, "choose-doublet N"), "choose-doublet takes a doublet of 1 to 6")
        assert self.core.variant is not None
        self.core.variant.choose_doublet(n)
        self.wait(STEP_MS)

    def _russian_where(self, referee: RussianReferee, args: list[str]) -> tuple[str, Colour]:
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
        if self.core.variant is not None:
            return self._russian_where(self.core.variant, args)
        game = self.game
        colour = Colour.parse(args[1]) if len(args) == 2 else game.turn
        word = args[0].lower()
        if word == "bar":
            return location(colour, BAR), colour
        if word == "off":
            return location(colour, OFF), colour
        if not word.isdigit() or not 1 <= int(word) <= 24:
            raise ScriptError(f"a location is 1-24, bar or off, not {args[0]!r}")
        return location(game.turn, int(word)), colour


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


def _connected(runtime: str | None, sensing: str) -> dict[str, str]:
    """The ``table`` event's fields on connecting: the firmware's interpreter, the sensing."""
    fields = {}
    if runtime is not None:
        fields["runtime"] = runtime
    if sensing:
        fields["sensing"] = sensing
    return fields


def _text(raw: str | bytes) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError("the line is not UTF-8 text") from None


def _number(word: str, usage: str) -> int:
    if not word.isdigit():
        raise ScriptError(f"{usage} (not {word[:40]!r})")
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


def run_script(
    lines: Iterable[str | bytes],
    out: TextIO,
    settle_ms: int = 300,
    sensing: str = "occupancy",
    firmware: str = "cpython",
    opponents: Callable[[str], Opponent] | None = None,
) -> list[dict[str, Any]]:
    """Run a script, writing one JSON object per event to ``out``; returns the events.

    ``sensing`` is how the simulated table senses its men (``occupancy``: one reed a slot,
    the hardware as designed; ``polarity``: reeds that tell the colour); ``firmware`` the
    interpreter running the table's firmware (``cpython`` or ``micropython``);
    ``opponents`` gives the table's player at a level (``opponent``).
    """
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        events.append(event)
        out.write(json.dumps(event) + "\n")
        out.flush()

    with ScenarioRunner(
        emit, settle_ms=settle_ms, sensing=sensing, firmware=firmware, opponents=opponents
    ) as runner:
        runner.run(lines)
    return events
