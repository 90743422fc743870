"""Scripted sessions through the whole stack: simulated table, pty, link, referee, game.

A script has one action per line (``#`` starts a comment)::

    profile NAME | mode teaching | mode laws
    setup standard | setup POSITION_ID | setup empty
    turn white | turn black
    opening W B
    dice D1 D2 | cocked 1
    lift LOC [white|black] | place LOC [white|black]
    wait MS | press done [white|black] | accept | choose N | unplug | replug

``LOC`` is ``1``-``24`` counted from the player on roll, ``bar`` or ``off``. Every
event is a JSON object written as it happens. Time is a virtual clock: the table is
stepped through its scans, so a script runs fast and always the same way.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterable
from typing import TextIO

from kiosk.link import BoardFrame, QueueListener, TableLayout, TableLink
from kiosk.referee.referee import Mode, Referee, RefereeConfig
from kiosk.rules import BAR, OFF, WHITE, Colour, Game, Phase, Position, get_profile
from kiosk.simtable import SimulatedTable
from kiosk.table import Sensed, location, true_counts

STEP_MS = 40  # a hand's movement: longer than the firmware's debounce, shorter than settling


class ScriptError(ValueError):
    """A script line that cannot be run."""


class ScenarioRunner:
    """Runs script actions against a stepped simulated table served on a pseudo-terminal."""

    def __init__(
        self,
        emit: Callable[[dict], None],
        layout: TableLayout | None = None,
        settle_ms: int = 300,
    ) -> None:
        self.emit = emit
        self.layout = layout or TableLayout()
        self.settle_ms = settle_ms
        self.profile = get_profile(None)
        self.mode = Mode.TEACHING
        self.turn = WHITE
        self.now = 0
        self._setup: tuple[str, Position] | None = None
        self.sim = SimulatedTable(self.layout)
        self.listener = QueueListener()
        self.link = TableLink(
            self.sim.port_name, layout=self.layout, listener=self.listener, silence_timeout=None
        )
        self.link.start()
        if not self.link.wait_connected(10):
            self.close()
            raise RuntimeError("the simulated table did not answer on its pseudo-terminal")
        self._last: BoardFrame | None = None
        self._was_connected = False
        self.game = Game(self.profile)
        self.referee = self._referee()

    def close(self) -> None:
        """Stop the link and the simulated table."""
        self.link.stop()
        self.sim.close()

    def __enter__(self) -> ScenarioRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _referee(self) -> Referee:
        config = RefereeConfig(settle_ms=self.settle_ms, mode=self.mode)
        return Referee(self.game, self.layout, config, emit=lambda e: self.emit(e.to_json()))

    # -- for a driver such as a lesson -----------------------------------------------------

    def new_referee(self, game: Game) -> Referee:
        """Judge the table with a fresh referee for ``game``, from the board it shows now.

        Script actions then play in that game (a lesson drives the runner this way).
        """
        self.game = game
        self.referee = self._referee()
        if self._last is not None:
            self.referee.board(self._last.sensed(), self.now)
        return self.referee

    def sensed(self) -> Sensed | None:
        """The last board the link reported (None before the first frame)."""
        return self._last.sensed() if self._last is not None else None

    # -- running ---------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Run every line of a script, then let the table settle."""
        for number, raw in enumerate(lines, start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                self.action(line)
            except (ScriptError, ValueError) as err:
                self.emit({"event": "error", "line": number, "message": str(err)})
        self.wait(self.settle_ms + STEP_MS)

    def action(self, line: str) -> None:
        """Run one script action."""
        word, *args = line.split()
        handler = getattr(self, "_do_" + word.replace("-", "_"), None)
        if handler is None:
            raise ScriptError(f"unknown action {word!r}")
        handler(args)

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass on the table and at the referee."""
        end = self.now + ms
        while self.now < end:
            step = min(STEP_MS, end - self.now)
            self.sim.advance(step)
            self.now += step
            self._sync()
            self.referee.tick(self.now)

    def _sync(self) -> None:
        """Deliver to the referee every frame the link has decoded, until it shows the table."""
        self.sim.flush()
        self._link_events()
        deadline = time.monotonic() + 5
        while True:
            try:
                frame = self.listener.frames.get(timeout=0.005)
            except queue.Empty:
                if not self.sim.plugged or self._shows_table(self._last):
                    return
                if time.monotonic() > deadline:
                    return
                continue
            self._last = frame
            self.referee.dice(frame.dice, self.now)
            self.referee.board(frame.sensed(), self.now)

    def _shows_table(self, frame: BoardFrame | None) -> bool:
        if frame is None:
            return False
        return frame.dice == self.sim.dice() and all(
            frame.slots[where] == self.sim.sensed(where) for where in frame.slots
        )

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

    def _do_turn(self, args: list[str]) -> None:
        self.turn = Colour.parse(_one(args, "turn white|black"))
        if self._setup and self._setup[0] not in ("standard", "empty") and not self.game.turns:
            self._do_setup([self._setup[0]])
        elif self.game.phase in (Phase.OPENING, Phase.ROLL) and not self.game.turns:
            self.game.position = self.game.position.with_turn(self.turn)

    def _do_opening(self, args: list[str]) -> None:
        white, black = _dice(args)
        self._throw(white, black)

    def _do_dice(self, args: list[str]) -> None:
        d1, d2 = _dice(args)
        if self.game.phase == Phase.OPENING:
            self.game.start_with(self.turn)
        self._throw(d1, d2)

    def _do_cocked(self, args: list[str]) -> None:
        well = int(_one(args, "cocked 1|2"))
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

    def _do_wait(self, args: list[str]) -> None:
        ms = int(_one(args, "wait MS"))
        if ms < 0:
            raise ScriptError("wait takes a number of milliseconds, 0 or more")
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
        deadline = time.monotonic() + 10
        while self.link.connected != connected and time.monotonic() < deadline:
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
                self.emit({"event": "table", "status": status, "message": event.message})

    def _do_choose(self, args: list[str]) -> None:
        self.referee.choose(int(_one(args, "choose N")) - 1)
        self.wait(STEP_MS)

    # -- helpers ---------------------------------------------------------------------------

    def _new_game(self, position: Position | None = None) -> None:
        self.game = Game(self.profile, position or Position.standard(self.turn))
        self.referee = self._referee()

    def _throw(self, d1: int, d2: int) -> None:
        self.sim.clear_dice()
        self.wait(STEP_MS)
        self.sim.set_dice(d1, d2)
        self.wait(STEP_MS)

    def _where(self, args: list[str]) -> tuple[str, Colour]:
        if not 1 <= len(args) <= 2:
            raise ScriptError("lift|place LOC [white|black]")
        colour = Colour.parse(args[1]) if len(args) == 2 else self.game.turn
        word = args[0].lower()
        if word == "bar":
            return location(colour, BAR), colour
        if word == "off":
            return location(colour, OFF), colour
        if not word.isdigit() or not 1 <= int(word) <= 24:
            raise ScriptError(f"a location is 1-24, bar or off, not {args[0]!r}")
        return location(self.game.turn, int(word)), colour


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


def run_script(lines: Iterable[str], out: TextIO, settle_ms: int = 300) -> list[dict]:
    """Run a script, writing one JSON object per event to ``out``; returns the events."""
    events: list[dict] = []

    def emit(event: dict) -> None:
        events.append(event)
        out.write(json.dumps(event) + "\n")
        out.flush()

    with ScenarioRunner(emit, settle_ms=settle_ms) as runner:
        runner.run(lines)
    return events
