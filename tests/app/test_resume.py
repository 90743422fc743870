"""A whole simulated game through every layer, with a ``kill -9`` in the middle of a turn
and a resume that loses no turn.

``kiosk run`` runs as a separate process against a real-time simulated table on a pty
(the real firmware core), with a real SQLite file. The test plays both sides by moving
men on the simulated table and laying dice in its wells, reading the application's
events as JSON lines. Mid-turn (the dice recorded, one man moved) the process is killed
with SIGKILL; a new one resumes the game, guides the players to put the man back, and
the game is finished with the same throw.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from kiosk.rules import BAR, BLACK, WHITE, Colour, Play, Position
from kiosk.simtable import SimulatedTable
from kiosk.store import Store
from kiosk.table.sensing import location

WAIT = 30.0  # generous for a loaded machine; nothing here is timed

# A short bear-off: each side has two men on its 6 point and one on its 5 point.
START = Position(
    (tuple(2 if p == 6 else 1 if p == 5 else 0 for p in range(1, 26)),) * 2, (12, 12), WHITE
)
THROWS = [(4, 2), (5, 3), (6, 1), (5, 2), (6, 4), (3, 1), (6, 5), (4, 3), (2, 1), (6, 2)]


class Kiosk:
    """``kiosk run`` in a child process, its events read from standard output."""

    def __init__(self, config: Path, workdir: Path) -> None:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        env.pop("BACKGAMMON_TABLE", None)
        env.pop("BACKGAMMON_TABLE_CONFIG", None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk",
                "run",
                "--config",
                str(config),
                "--events",
                "-",
                "--position",
                START.position_id(),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=workdir,
            env=env,
        )
        self.events: queue.Queue[dict] = queue.Queue()
        self.seen: list[dict] = []
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("{"):
                self.events.put(json.loads(line))

    def _read_err(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def expect(self, kind: str, test: Callable[[dict], bool] = lambda e: True) -> dict:
        """The next event of ``kind`` that passes ``test``."""
        while True:
            try:
                event = self.events.get(timeout=WAIT)
            except queue.Empty:
                tail = "".join(self.stderr[-20:])
                kinds = [e["event"] for e in self.seen[-30:]]
                raise AssertionError(
                    f"no {kind} event; last events {kinds}; stderr:\n{tail}"
                ) from None
            self.seen.append(event)
            if event["event"] == "error":
                raise AssertionError(f"the kiosk reported an error: {event}")
            if event["event"] == kind and test(event):
                return event

    def stop(self, sig: int) -> int:
        self.process.send_signal(sig)
        return self.process.wait(WAIT)


@pytest.fixture
def table() -> Iterator[SimulatedTable]:
    with SimulatedTable(realtime=True) as sim:
        yield sim


def lay_out(sim: SimulatedTable, position: Position) -> None:
    from kiosk.app.main import simulator_layout

    sim.set_position(simulator_layout(position))


def move_man(sim: SimulatedTable, mover: Colour, src: int, dst: int, hit: bool) -> None:
    """One step of a play, by hand on the table: a hit man goes to his bar first."""
    if hit:
        sim.move(location(mover, dst), location(mover.other, BAR), str(mover.other))
    sim.move(location(mover, src), location(mover, dst), str(mover))


def throw(kiosk: Kiosk, sim: SimulatedTable, dice: tuple[int, int], kind: str) -> dict:
    sim.set_dice(*dice)
    event = kiosk.expect(kind)
    sim.clear_dice()  # the dice come out of the wells for the next throw
    return event


def recorded(db: Path, kind: str) -> int:
    """How many events of ``kind`` are in the file, once there is at least one: the store
    writes on a thread of its own, a few milliseconds after the event is said."""
    deadline = time.monotonic() + WAIT
    while True:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=WAIT)) as file:
            query = "SELECT count(*) FROM events WHERE kind = ?"
            (count,) = file.execute(query, (kind,)).fetchone()
        if count or time.monotonic() > deadline:
            return count
        time.sleep(0.02)


def first_play(position: Position, dice: tuple[int, int]) -> Play:
    return position.legal_plays(*dice)[0]


def test_kill_9_mid_turn_and_resume_loses_no_turn(table: SimulatedTable, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text(
        f'[table]\nport = "{table.port_name}"\n'
        '[dice]\nsource = "wells"\n'
        "[referee]\nsettle_ms = 150\nauto_done_ms = 300\n"
        "[speech]\nenabled = false\n"
        f'[store]\npath = "{db}"\n'
        f'[display]\ncalibration = "{tmp_path / "calibration.toml"}"\n'
    )
    lay_out(table, START)
    throws = iter(THROWS)
    plays: list[tuple[str, str]] = []

    first = Kiosk(config, tmp_path)
    try:
        assert first.expect("new-game")["position"] == START.position_id()
        first.expect("setup-ok")
        assert any(e["event"] == "table" and e["status"] == "connected" for e in first.seen)
        # the opening throw: one die each, white's 4 against black's 2; white plays 4-2
        opening = throw(first, table, next(throws), "opening")
        assert opening["starter"] == "white"
        position = START
        play = first_play(position, (4, 2))
        for step in play.steps:
            move_man(table, WHITE, step.src, step.dst, step.hit)
        event = first.expect("play")
        assert event["move"] == str(play)
        plays.append(("white", event["move"]))
        position = play.result
        assert event["position"] == position.position_id()
        # black throws (the dice are recorded), lifts a man to move it, and the power goes
        dice = next(throws)
        assert throw(first, table, dice, "dice")["player"] == "black"
        assert recorded(db, "dice") == 1
        lifted_from = location(BLACK, first_play(position, dice).steps[0].src)
        table.lift(lifted_from, "black")
        first.expect("destinations", lambda e: e["table"]["from"] == lifted_from)
    finally:
        status = first.stop(signal.SIGKILL)
    assert status == -signal.SIGKILL

    second = Kiosk(config, tmp_path)
    try:
        resumed = second.expect("resume")
        assert resumed["turns"] == 1 and resumed["position"] == position.position_id()
        assert resumed["turn"] == "black" and resumed["dice"] == list(dice)
        # the man is still in black's hand: the kiosk asks for it back where it was
        setup = second.expect("setup")
        assert setup["corrections"][0]["table"] == lifted_from
        table.place(lifted_from, "black")
        assert second.expect("setup-ok")["restored"] is True
        # black plays the interrupted turn with the same throw, then the game runs out
        mover = BLACK
        while True:
            play = first_play(position, dice)
            for s in play.steps:
                move_man(table, mover, s.src, s.dst, s.hit)
            event = second.expect("play")
            assert (event["player"], event["dice"]) == (str(mover), list(dice))
            plays.append((event["player"], event["move"]))
            position = play.result
            if position.winner() is not None:
                break
            mover = mover.other
            dice = next(throws)
            assert throw(second, table, dice, "dice")["player"] == str(mover)
        over = second.expect("game-over")
        assert over["winner"] == str(mover)
    finally:
        assert second.stop(signal.SIGTERM) == 0

    store = Store(db)
    assert store.unfinished_game() is None
    game = store.load_game(resumed["game"])
    assert [(str(t.colour), str(t.play)) for t in game.turns] == plays
    assert game.position == position
