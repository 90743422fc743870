"""Time from a man put down to the referee's verdict, through the whole table in real time.

The real ``App`` loop (link, referee, events, headless pygame display), paced as
``App.run`` paces it, watches a real-time simulated table on a pseudo-terminal, on both
sensings (occupancy, the table as designed, and polarity). For each of a set of
positions of games under way, the game is restored with the dice thrown, its men laid
out; then a hand puts one man on a point the throw allows (a legal placement), and later
one on a point it does not (a wrong one), and puts it back. Each verdict is timed from
the moment the man lands on the simulated table (its reeds still to be scanned and sent,
as on the real table) to the moment the referee judges the board: for a legal placement
the referee taking the board as a partial play, for a wrong one the ``illegal`` event.

Figures: ``verdict_ms_p50_legal_<sensing>``/``p99`` and ``..._wrong_<sensing>``, with
the referee's ``accept_ms`` and ``settle_ms``; the load average is printed beside them.

Run: .venv/bin/python benchmarks/bench_verdict.py [--rounds N]
The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_noise import _wrong_target  # noqa: E402

from kiosk.app.main import App, table_layout, wait_for_frame  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.display import Calibration, Display  # noqa: E402
from kiosk.events import Illegal  # noqa: E402
from kiosk.link import QueueListener, TableLink  # noqa: E402
from kiosk.referee import Referee, RefereeConfig  # noqa: E402
from kiosk.rules import BAR, OFF, Game, Position, get_profile  # noqa: E402
from kiosk.simtable import SimulatedTable  # noqa: E402
from kiosk.table import location  # noqa: E402

try:  # the loop as App.run paces it (a frame, or a board due, wakes it)
    from kiosk.app.pacing import judge_due, wait_for_input
except ImportError:  # an older tree: the frame beat only
    judge_due = wait_for_input = None  # type: ignore[assignment]

HOLD_S = 0.8  # after a placement, before the next (the verdict has come by then)
LAY_OUT_S = 1.2  # after a restore, for the men laid out to be taken as set up


class Judged:
    """When the referee judged boards (``Referee._judge`` watched), in monotonic seconds."""

    def __init__(self) -> None:
        self.times: list[float] = []
        real = Referee._judge

        def watched(referee: Referee, board: object, now: int) -> None:
            self.times.append(time.monotonic())
            real(referee, board, now)  # type: ignore[arg-type]

        Referee._judge = watched  # type: ignore[method-assign]

    def first_after(self, t: float, events: list[float]) -> float | None:
        later = [e for e in events if e >= t]
        return (min(later) - t) * 1000 if later else None


def _positions(rng: random.Random, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions of games under way, each with a throw that has a plain first step."""
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = Position.standard()
        for _ in range(rng.randint(2, 12)):
            plays = position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(plays).result
        if position.winner() is None:
            found.append((position, (rng.randint(1, 6), rng.randint(1, 6))))
    return found


def measure(sensing: str, rounds: int, rng: random.Random) -> dict[str, object]:
    config = Config()
    config.dice.source = "digital"
    config.tutor.enabled = False
    config.table.simulated_sensing = sensing
    layout = table_layout(config)
    sim = SimulatedTable(layout, realtime=True)
    listener = QueueListener()
    link = TableLink(sim.port_name, layout=layout, listener=listener).start()
    link.wait_connected(10)
    display = Display(Calibration.default(1280, 720, layout), fullscreen=False, headless=True)
    app = App(config, link=link, listener=listener, display=display, simulator=sim)
    illegal: list[float] = []
    app.bus.subscribe(
        lambda e: illegal.append(time.monotonic()) if isinstance(e, Illegal) else None
    )
    judged = Judged()
    commands: queue.Queue[Callable[[], None]] = queue.Queue()
    legal_ms: list[float] = []
    wrong_ms: list[float] = []
    done = threading.Event()

    def on_loop(command: Callable[[], None]) -> None:
        """Run ``command`` on the loop's thread, between turns, and wait for it."""
        ran = threading.Event()
        commands.put(lambda: (command(), ran.set()))
        ran.wait(30)

    def hand() -> None:
        try:
            for position, dice in _positions(rng, rounds):
                game = Game(get_profile(config.rules.profile), position)
                game.start_with(position.turn)
                game.record_throw(game.turn, dice)
                on_loop(lambda game=game: app.core.restore(game))
                time.sleep(LAY_OUT_S)
                referee = app.core.referee
                plays = referee._plays
                if plays is None or referee.setting_up:
                    continue
                mover = position.turn
                steps = [
                    (s, after)
                    for s, after in plays.tree.next_steps(position)
                    if s.src != BAR and s.dst != OFF and not s.hit
                ]
                if not steps:
                    continue
                step, after = rng.choice(steps)
                src, dst = location(mover, step.src), location(mover, step.dst)
                placed = time.monotonic()
                sim.move(src, dst, str(mover))
                time.sleep(HOLD_S)
                lag = judged.first_after(placed, judged.times)
                if lag is not None and not judged.first_after(placed, illegal):
                    legal_ms.append(lag)
                wrong = _wrong_target(plays, after, step, sensing, referee)
                if wrong is None:
                    continue
                sim.move(dst, src, str(mover))  # taken back, then put wrongly
                time.sleep(HOLD_S)
                there = location(mover, wrong)
                placed = time.monotonic()
                sim.move(src, there, str(mover))
                time.sleep(HOLD_S)
                lag = judged.first_after(placed, illegal)
                if lag is not None:
                    wrong_ms.append(lag)
                sim.move(there, src, str(mover))
                time.sleep(HOLD_S)
        finally:
            done.set()

    app.start()
    threading.Thread(target=hand, daemon=True).start()
    period = 1 / config.display.fps
    next_frame = time.monotonic()
    while not done.is_set():
        while not commands.empty():
            commands.get_nowait()()
        now = int(time.monotonic() * 1000)
        app.step(now)
        app.frame(now)
        if wait_for_input is not None:
            due = judge_due(app.core.judge, now)
            next_frame = wait_for_input(next_frame, period, listener.frames, due)
        else:
            next_frame = wait_for_frame(next_frame, period)
    app.close()
    sim.close()
    figures: dict[str, object] = {}
    for kind, lags in (("legal", legal_ms), ("wrong", wrong_ms)):
        lags.sort()
        p50 = statistics.median(lags) if lags else None
        p99 = lags[max(0, int(len(lags) * 0.99) - 1)] if lags else None
        figures[f"verdict_ms_p50_{kind}_{sensing}"] = None if p50 is None else round(p50, 1)
        figures[f"verdict_ms_p99_{kind}_{sensing}"] = None if p99 is None else round(p99, 1)
        print(
            f"{sensing}, {kind} placements ({len(lags)}): placement to verdict "
            f"p50 {p50 or 0:.1f} ms, p99 {p99 or 0:.1f} ms"
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="positions per sensing")
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    if args.quick:
        args.rounds = min(args.rounds, 3)
    rng = random.Random(34)
    figures: dict[str, object] = {
        "settle_ms": Config().referee.settle_ms,
        "accept_ms": getattr(RefereeConfig(), "accept_ms", None),
    }
    for sensing in ("occupancy", "polarity"):
        figures.update(measure(sensing, args.rounds, rng))
    print(f"load average {os.getloadavg()[0]:.1f} over {os.cpu_count()} cores")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
