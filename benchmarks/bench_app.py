"""Benchmark the application loop: does the picture keep its frame rate while the table moves?

Runs the real ``App`` (link, referee, event bus, headless pygame display) on a real-time
simulated table for a few seconds at the configured 30 frames a second while a thread lifts
and places men as fast as a hand could. Prints one line per measurement and, last, a JSON
object: ``fps`` achieved, ``loop_p50_ms``/``loop_p99_ms``/``loop_max_ms`` (the work of one
turn of the loop: link, referee, events, drawing) and ``move_to_event_p50_ms`` (a man put
down to the referee's verdict, settle time included). Then the table stands idle for a few
seconds (nobody touches it): ``idle_cpu_pct`` is the share of one core the table
application uses meanwhile (its loop, the link's threads: the whole process less the
simulated table's thread, whose work the RP2040 does on a real table),
``idle_cpu_with_simulator_pct`` the whole process's, and ``idle_frames_drawn`` the frames
drawn (nothing changed: none).
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.main import App, table_layout  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.display import Calibration, Display  # noqa: E402
from kiosk.events import Illegal, Legal  # noqa: E402
from kiosk.link import QueueListener, TableLink  # noqa: E402
from kiosk.simtable import STARTING_POSITION, SimulatedTable  # noqa: E402

SECONDS = 6.0
IDLE_SECONDS = 5.0


def main() -> None:
    config = Config()
    config.dice.source = "digital"
    layout = table_layout(config)
    sim = SimulatedTable(layout, realtime=True)
    sim.set_position(STARTING_POSITION)
    listener = QueueListener()
    link = TableLink(sim.port_name, layout=layout, listener=listener).start()
    link.wait_connected(10)
    display = Display(Calibration.default(1280, 720, layout), fullscreen=False, headless=True)
    app = App(config, link=link, listener=listener, display=display)
    placed: list[float] = []
    verdicts: list[float] = []
    app.bus.subscribe(
        lambda e: verdicts.append(time.monotonic()) if isinstance(e, Illegal | Legal) else None
    )
    stop = threading.Event()

    def hand() -> None:
        # the man goes from 13 to 7 (illegal before the throw) and back, again and again
        while not stop.is_set():
            for src, dst in (("13", "7"), ("7", "13")):
                sim.move(src, dst, "white")
                placed.append(time.monotonic())
                stop.wait(0.8)

    app.start()
    threading.Thread(target=hand, daemon=True).start()
    period = 1 / config.display.fps
    loops: list[float] = []
    start = next_frame = time.monotonic()
    frames = 0
    while time.monotonic() - start < SECONDS:
        t0 = time.monotonic()
        now = int(t0 * 1000)
        app.step(now)
        app.frame(now)
        loops.append((time.monotonic() - t0) * 1000)
        frames += 1
        next_frame += period
        delay = next_frame - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            next_frame = time.monotonic()
    elapsed = time.monotonic() - start
    stop.set()
    time.sleep(1.0)  # the hand's last move settles
    draws = []
    real_draw = display.renderer.draw
    display.renderer.draw = lambda view, now: (draws.append(now), real_draw(view, now))[1]
    for _ in range(int(config.display.fps)):  # a second to let the last verdicts through
        t0 = time.monotonic()
        app.step(int(t0 * 1000))
        app.frame(int(t0 * 1000))
        time.sleep(period)
    draws.clear()
    cpu0, sim0, idle0 = time.process_time(), _thread_cpu_s("simulated-table"), time.monotonic()
    next_frame = idle0
    while time.monotonic() - idle0 < IDLE_SECONDS:
        now = int(time.monotonic() * 1000)
        app.step(now)
        app.frame(now)
        next_frame += period
        delay = next_frame - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            next_frame = time.monotonic()
    idle_wall = time.monotonic() - idle0
    idle_all = (time.process_time() - cpu0) / idle_wall * 100
    idle_cpu = idle_all - (_thread_cpu_s("simulated-table") - sim0) / idle_wall * 100
    app.close()
    sim.close()
    lags = []
    for t in placed:
        later = [v - t for v in verdicts if v >= t]
        if later:
            lags.append(min(later) * 1000)
    loops.sort()
    figures = {
        "fps": round(frames / elapsed, 1),
        "loop_p50_ms": round(statistics.median(loops), 2),
        "loop_p99_ms": round(loops[int(len(loops) * 0.99) - 1], 2),
        "loop_max_ms": round(loops[-1], 2),
        "move_to_event_p50_ms": round(statistics.median(lags), 1) if lags else None,
        "settle_ms": config.referee.settle_ms,
        "idle_cpu_pct": round(idle_cpu, 1),
        "idle_cpu_with_simulator_pct": round(idle_all, 1),
        "idle_frames_drawn": len(draws),
    }
    print(f"{frames} frames in {elapsed:.1f} s at a target of {config.display.fps} per second")
    print(f"loop work: median {figures['loop_p50_ms']} ms, p99 {figures['loop_p99_ms']} ms")
    print(f"a man put down to the referee's verdict: median {figures['move_to_event_p50_ms']} ms")
    print(
        f"idle for {IDLE_SECONDS:.0f} s: {figures['idle_cpu_pct']}% of a core "
        f"({figures['idle_cpu_with_simulator_pct']}% with the simulated table), "
        f"{len(draws)} frames drawn"
    )
    print(json.dumps(figures))


def _thread_cpu_s(name: str) -> float:
    """CPU seconds used so far by this process's thread called ``name`` (Linux /proc)."""
    for thread in threading.enumerate():
        if thread.name == name and thread.native_id is not None:
            with open(f"/proc/self/task/{thread.native_id}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


if __name__ == "__main__":
    main()
