"""Pulling the plug: a process killed with SIGKILL while recording loses nothing committed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from kiosk.rules import Phase
from kiosk.store import Store

ROOT = Path(__file__).resolve().parents[2]

# The child plays random games without end, saying on stdout each event it has recorded
# (after record() returned, so after the commit).
CHILD = """
import json, sys
from kiosk.store import Store
from tests.store.games import record_random_game

class Telling(Store):
    def record(self, game_id, event):
        super().record(game_id, event)
        print(json.dumps([game_id, event]), flush=True)

store = Telling(sys.argv[1])
seed = 0
while True:
    record_random_game(store, seed)
    seed += 1
"""


def test_sigkill_mid_game_loses_nothing_committed(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    told: list[tuple[int, dict]] = []
    try:
        assert child.stdout is not None
        # Kill it in its second game, while it is writing as fast as it can.
        while len({g for g, _ in told}) < 2 or len(told) < 150:
            line = child.stdout.readline()
            assert line, f"the recording process stopped: {child.stderr.read()}"
            game_id, event = json.loads(line)
            told.append((game_id, event))
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        # what it said before it died and is still in the pipe counts as said
        for line in child.stdout.read().splitlines():
            try:
                game_id, event = json.loads(line)
            except ValueError:  # a line cut short by the kill was never said
                continue
            told.append((game_id, event))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL

    raw = sqlite3.connect(path)  # the file is whole: SQLite's own check finds nothing wrong
    try:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        raw.close()

    with Store(path) as store:
        games = sorted({g for g, _ in told})
        for game_id in games:
            recorded = store.events(game_id)
            said = [e for g, e in told if g == game_id]
            # Everything it said it had recorded is there, in order; at most the one event
            # being written when it died may be there as well.
            assert recorded[: len(said)] == said
            assert len(recorded) - len(said) <= 1
        last = games[-1]
        assert store.unfinished_game() == last
        game = store.load_game(last)
        assert game.phase in (Phase.OPENING, Phase.ROLL, Phase.PLAY)
        plays = [e for e in store.events(last) if e["event"] == "play"]
        assert len(store.turns(last)) == len(game.turns) == len(plays)
        if plays:  # the game resumes after the last play recorded
            assert game.position.position_id() == plays[-1]["position"]
        # and the store goes on recording where the game stopped
        if game.phase == Phase.ROLL:
            store.record(last, {"event": "dice", "player": str(game.turn), "dice": [3, 1]})
            assert store.load_game(last).dice == (3, 1)
        elif game.phase == Phase.PLAY:
            play = game.legal_plays()[0]
            after = play.result.position_id()
            store.record(
                last,
                {
                    "event": "play",
                    "player": str(game.turn),
                    "dice": list(game.dice),
                    "move": str(play),
                    "position": after,
                },
            )
            assert store.load_game(last).position.position_id() == after
