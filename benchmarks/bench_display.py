"""Benchmark the display: frame time at 1920x1080 during play, and resident memory.

Plays whole games with the rules engine (fixed seed) and folds their events into a
TableView as the application would: dice, the men that may move, each man lifted with its
targets, some illegal placements with their reasons, legal placements, plays drawn as
arrows, cocked dice, a busy spinner while "analysis" runs, a player asking for the full
explanation, the table unplugged and plugged in again. Every event is held on screen for
a few frames, as at 60 frames per second. Each frame is timed from the start of drawing
to the end of the flip, with SDL's dummy video driver (no GPU, so this is the CPU cost).

The memory figure is the whole application's, built as ``kiosk run`` builds it (simulated
table, link, referee, store, tutor with its evaluator, lessons, a headless 1920x1080
display) and run for a few seconds in a process of its own.

Prints the figures, and last a JSON object with ``frame_p50_ms``, ``frame_p99_ms``,
``frame_max_ms``, ``frames``, ``rss_mb`` (the application's resident memory at the end)
and ``rss_peak_mb``. ``--quick``: a short run (one game, fewer frames, a second of the
application).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.display import Calibration, Display  # noqa: E402
from kiosk.display.view import TableView, play_arrows  # noqa: E402
from kiosk.rules import Position  # noqa: E402
from kiosk.table.sensing import location  # noqa: E402

SEED = 5
GAMES = 4
FRAMES_PER_EVENT = 6
WIDTH, HEIGHT = 1920, 1080


def _rss_mb(field: str = "VmRSS") -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def game_views(rng: random.Random) -> Iterator[TableView]:
    """The view after each event of one game, played with random legal plays."""
    view = TableView()
    view.apply({"event": "table", "status": "connected", "message": "Table connected"})
    view.banner = "Two players, tutor watching"
    position = Position.standard()
    view.set_position(position)
    turns = 0
    while position.winner() is None and turns < 200:
        turns += 1
        mover = str(position.turn)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if rng.random() < 0.05:
            view.apply({"event": "cocked", "well": 2, "message": "Die 2 is not lying flat."})
            yield view
        view.apply({"event": "dice", "player": mover, "dice": [d1, d2]})
        plays = position.legal_plays(d1, d2)
        view.movable = tuple(
            sorted({location(position.turn, p.steps[0].src) for p in plays if p.steps})
        )
        yield view
        play = rng.choice(plays)
        for i, step in enumerate(play.steps):
            src = location(position.turn, step.src)
            targets = sorted(
                {location(position.turn, p.steps[i].dst) for p in plays if len(p.steps) > i}
            )
            view.apply(
                {
                    "event": "destinations",
                    "from": src,
                    "to": targets,
                    "player": mover,
                    "table": {"from": src, "to": targets},
                }
            )
            yield view
            if rng.random() < 0.15:
                wrong = str(rng.randint(1, 24))
                view.apply(
                    {
                        "event": "illegal",
                        "reason": "wrong-distance",
                        "player": mover,
                        "message": f"That man cannot go to {wrong}: count the pips again.",
                        "law": "",
                        "table": wrong,
                    }
                )
                yield view
                if rng.random() < 0.5:
                    view.show_detail[mover] = True
                    yield view
                    view.show_detail[mover] = False
            view.apply({"event": "legal", "player": mover})
            yield view
        if rng.random() < 0.2:
            view.busy = "Thinking about that play..."
            yield view
            view.busy = ""
        view.apply({"event": "play", "player": mover, "dice": [d1, d2], "move": str(play)})
        view.last_play = play_arrows(play, position.turn)
        position = play.result
        view.set_position(position)
        view.movable = ()
        if rng.random() < 0.02:
            view.apply({"event": "table", "status": "disconnected", "message": "Table unplugged."})
            yield view
            view.apply({"event": "table", "status": "connected", "message": "Table connected"})
        yield view
    winner = position.winner()
    if winner is not None:
        view.apply({"event": "game-over", "winner": str(winner), "result": "single", "points": 1})
        yield view


def app_memory(seconds: float) -> tuple[float, float]:
    """The resident memory (now, peak) of the whole application, run in a process of its own
    for ``seconds``."""
    done = subprocess.run(
        [sys.executable, __file__, "--app", str(seconds)], capture_output=True, text=True,
        check=True,
    )
    rss, peak = done.stdout.split()[-2:]
    return float(rss), float(peak)


def whole_app(seconds: float) -> None:
    """Run the application as ``kiosk run`` builds it (simulated table, link, referee, store,
    tutor, lessons, a headless 1920x1080 display) for ``seconds``, and print its memory."""
    import tempfile

    from kiosk.app.main import App, table_layout
    from kiosk.config import Config
    from kiosk.link import QueueListener, open_table
    from kiosk.simtable import realtime_table
    from kiosk.store import Store
    from kiosk.tutor.lessons import catalogue, load_lesson

    config = Config()
    display = Display(Calibration.default(WIDTH, HEIGHT), headless=True)
    for info in catalogue():
        load_lesson(info.id)
    listener = QueueListener()
    link, simulator = open_table(
        None, layout=table_layout(config), listener=listener, simulator=realtime_table
    )
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder, "bench.sqlite3")) as store:
        app = App(
            config,
            link=link,
            listener=listener,
            simulator=simulator,
            store=store,
            display=display,
            calibration=display.calibration,
        )
        try:
            app.start()
            start = time.monotonic()
            while time.monotonic() - start < seconds:
                now = int((time.monotonic() - start) * 1000)
                app.step(now)
                app.frame(now)
        finally:
            link.stop()
            simulator.close()
            display.close()
    print(_rss_mb(), _rss_mb("VmHWM"))


def main(quick: bool) -> None:
    """Time the frames, then the whole application's memory; ``quick``: a short run."""
    games, frames_per_event = (1, 2) if quick else (GAMES, FRAMES_PER_EVENT)
    rng = random.Random(SEED)
    display = Display(Calibration.default(WIDTH, HEIGHT), headless=True)
    times: list[float] = []
    now_ms = 0
    events = 0
    try:
        for _ in range(games):
            for view in game_views(rng):
                events += 1
                snapshot = view.copy()
                for _ in range(frames_per_event):
                    start = time.perf_counter()
                    display.frame(snapshot, now_ms)
                    times.append((time.perf_counter() - start) * 1000)
                    now_ms += 16
    finally:
        display.close()
    rss, peak = app_memory(1.0 if quick else 3.0)
    times_sorted = sorted(times)
    p50 = statistics.median(times)
    p99 = times_sorted[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{len(times)} frames of {events} events from {games} games at {WIDTH}x{HEIGHT}")
    print(f"frame time: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {times_sorted[-1]:.2f} ms")
    print(f"resident memory: {rss:.1f} MB now, {peak:.1f} MB at most")
    print(
        json.dumps(
            {
                "frame_p50_ms": round(p50, 3),
                "frame_p99_ms": round(p99, 3),
                "frame_max_ms": round(times_sorted[-1], 3),
                "frames": len(times),
                "rss_mb": round(rss, 1),
                "rss_peak_mb": round(peak, 1),
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--app"]:
        whole_app(float(sys.argv[2]))
    else:
        main(quick="--quick" in sys.argv[1:])
