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

Start-up and memory are measured on ``kiosk run`` itself, in a process of its own, as it
runs in a window: the window's size (``[display]`` 1280x720) drawn with SDL's dummy video
driver, a real-time simulated table on a pty as its table, a fresh store, the tutor on.
``first_frame_s`` is the time from starting the process to the first frame drawn;
``rss_mb`` the process's resident memory a few seconds later, the table waiting for its
first player; ``rss_coached_mb`` after the opening play, laid on the simulated table, has
been rated by the coach (whose evaluator is loaded by then); ``rss_peak_mb`` the most it
held at any moment. ``first_frame_s`` is the median of three launches.

While the table thinks (a game against it, at each level, from positions of a game under
way), ``think_frame_p99_ms`` is the worst level's 99th percentile of the loop's frame time
over the frames that begin while a decision is pending (``think_frame_p99_ms_beginner``...
each level's; the target is under 17 ms, one frame at 60 Hz; the frame in which the dice
are thrown, where the referee indexes the roll's plays, is ``loop_p99_ms``'s concern) and
``think_ms_p50_<level>`` how long a cube decision or a play took. The table thinks in a
process of its own, as in ``kiosk run``.

Each group of figures is one function returning a dict; ``MEASURES`` lists them.
``--quick``: a short run of each (seconds instead of minutes, one launch, two positions to
think about), to show that it still runs.
"""

from __future__ import annotations

import json
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.main import App, table_layout, wait_for_frame  # noqa: E402
from kiosk.app.pacing import wait_for_input  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.display import Calibration, Display  # noqa: E402
from kiosk.events import Illegal, Legal  # noqa: E402
from kiosk.link import QueueListener, TableLink  # noqa: E402
from kiosk.simtable import STARTING_POSITION, SimulatedTable  # noqa: E402

SECONDS = 6.0
IDLE_SECONDS = 5.0
SETTLE_SECONDS = 3.0  # after the first frame (or the verdict), before the memory is read
WAIT = 60.0  # for any one thing the child process should do; generous on a loaded machine
WINDOW = (1280, 720)
LAUNCHES = 3  # start-up is timed on each; a loaded machine makes single launches vary
LOOP_CPU_SECONDS = 1.5  # the loop over each position of loop_cpu
BLOT_POSITIONS = 12  # middle-game positions with 8-10 blots of the side not on roll
THINK_TURNS = 40  # positions the table thinks about at each level: its cube, or its play

# Runs ``kiosk run`` as the console script does; the one addition: on its first frame
# drawn the child writes the wall-clock time as a JSON line beside its events.
CHILD = """
import json, sys, time
import kiosk.app_cli as cli
table = cli._table

def timed_table(*args):
    from kiosk.display import screen
    frame = screen.Display.frame

    def first(self, *a, **k):
        events = frame(self, *a, **k)
        screen.Display.frame = frame
        print(json.dumps({"event": "bench-first-frame", "at": time.time()}), flush=True)
        return events

    screen.Display.frame = first
    return table(*args)

cli._table = timed_table
from kiosk.cli import main
sys.exit(main(sys.argv[1:]))
"""


def main() -> None:
    """Every measure, or only those named on the command line (``loop_cpu think``...);
    ``--quick`` for the short form."""
    global SECONDS, IDLE_SECONDS, SETTLE_SECONDS, LAUNCHES, THINK_TURNS
    if "--quick" in sys.argv[1:]:
        SECONDS, IDLE_SECONDS, SETTLE_SECONDS, LAUNCHES, THINK_TURNS = 3.0, 1.5, 1.0, 1, 2
    figures: dict[str, object] = {}
    wanted = {a for a in sys.argv[1:] if not a.startswith("--")}
    for measure in MEASURES:
        if not wanted or measure.__name__ in wanted:
            figures.update(measure())
    print(json.dumps(figures))


def loop() -> dict[str, object]:
    """The loop at its frame rate while a hand moves men, then the table left idle."""
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
        next_frame = wait_for_frame(next_frame, period)
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
        next_frame = wait_for_frame(next_frame, period)
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
    return figures


def start_and_memory() -> dict[str, object]:
    """``kiosk run`` in a process of its own: start to first frame, and resident memory."""
    starts = []
    for launch in range(LAUNCHES):
        with KioskRun() as run:
            starts.append(run.first_frame)
            if launch:
                continue  # the first launch goes on: its memory, then a play rated
            time.sleep(SETTLE_SECONDS)
            rss = run.memory("VmRSS")
            # the opening throw (white's 3 against black's 1), and white plays 8/5 6/5
            run.expect("setup-ok")
            run.sim.set_dice(3, 1)
            run.expect("opening")
            run.sim.clear_dice()
            run.sim.move("8", "5", "white")
            run.sim.move("6", "5", "white")
            run.expect("coach")
            time.sleep(SETTLE_SECONDS)
            coached, peak = run.memory("VmRSS"), run.memory("VmHWM")
    first_frame = statistics.median(starts)
    figures = {
        "first_frame_s": round(first_frame, 2),
        "rss_mb": round(rss, 1),
        "rss_coached_mb": round(coached, 1),
        "rss_peak_mb": round(peak, 1),
    }
    print(
        f"kiosk run at {WINDOW[0]}x{WINDOW[1]}: first frame {first_frame:.2f} s after start "
        f"(median of {LAUNCHES} launches: {', '.join(f'{s:.2f}' for s in starts)})"
    )
    print(
        f"resident memory: {rss:.1f} MB waiting for a player, {coached:.1f} MB once the "
        f"coach has rated a play, {peak:.1f} MB at most"
    )
    return figures


class KioskRun:
    """``kiosk run`` started in a process of its own, with a fresh configuration and store,
    against a real-time simulated table laid out for a game; its events are read as they
    come. ``first_frame`` is the seconds from starting the process to its first frame."""

    def __enter__(self) -> KioskRun:
        from kiosk.app.main import simulator_layout
        from kiosk.rules import Position

        self._folder = tempfile.TemporaryDirectory()
        folder = self._folder.name
        self.sim = SimulatedTable(realtime=True)
        self.sim.set_position(simulator_layout(Position.standard()))
        config = Path(folder, "config.toml")
        config.write_text(
            f'[table]\nport = "{self.sim.port_name}"\n'
            '[dice]\nsource = "wells"\n'
            "[referee]\nauto_done_ms = 300\n"
            f'[store]\npath = "{Path(folder, "table.sqlite3")}"\n'
            f"[display]\nwidth = {WINDOW[0]}\nheight = {WINDOW[1]}\n"
            f'calibration = "{Path(folder, "calibration.toml")}"\n'
        )
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        env.pop("BACKGAMMON_TABLE_CONFIG", None)
        started = time.time()
        self.child = subprocess.Popen(
            [sys.executable, "-c", CHILD, "run", "--config", str(config), "--events", "-"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=folder,
            env=env,
        )
        self.events: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=_read_events, args=(self.child, self.events), daemon=True).start()
        self.first_frame = self.expect("bench-first-frame")["at"] - started
        return self

    def expect(self, kind: str) -> dict:
        """The child's next event of ``kind``."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                event = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise SystemExit(f"kiosk run sent no {kind} event in {WAIT:.0f} s") from None
            if event.get("event") == kind:
                return event

    def memory(self, field: str) -> float:
        """A memory figure of the child (``VmRSS``, ``VmHWM``) in MiB (Linux /proc)."""
        with open(f"/proc/{self.child.pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        raise SystemExit(f"/proc/{self.child.pid}/status has no {field}")

    def __exit__(self, *exc: object) -> None:
        self.child.terminate()
        self.child.wait(WAIT)
        self.sim.close()
        self._folder.cleanup()


def _read_events(child: subprocess.Popen, events: queue.Queue[dict]) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith("{"):
            events.put(json.loads(line))


def _thread_cpu_s(name: str) -> float:
    """CPU seconds used so far by this process's thread called ``name`` (Linux /proc)."""
    for thread in threading.enumerate():
        if thread.name == name and thread.native_id is not None:
            with open(f"/proc/self/task/{thread.native_id}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def think() -> dict[str, object]:
    """The loop's frame time while the table thinks, at each level: the table (black) is
    given positions of a game under way, its men laid out by the simulated table, where it
    decides its cube before its throw, or its play of the dice thrown; the loop runs at its
    frame rate until the table has thought."""
    from kiosk.rules import BLACK, Game, get_profile

    figures: dict[str, object] = {}
    rng = random.Random(5)
    positions = _positions(rng, THINK_TURNS)
    for level in ("beginner", "intermediate", "expert"):
        config = Config()
        config.dice.source = "digital"
        config.tutor.enabled = False
        layout = table_layout(config)
        sim = SimulatedTable(layout, realtime=True)
        listener = QueueListener()
        link = TableLink(sim.port_name, layout=layout, listener=listener).start()
        link.wait_connected(10)
        display = Display(Calibration.default(*WINDOW, layout), fullscreen=False, headless=True)
        app = App(config, link=link, listener=listener, display=display, simulator=sim)
        app.start()
        app.play_the_table(BLACK, level)
        side = app.core.side
        assert side is not None
        frames: list[float] = []
        thinks: list[float] = []
        period = 1 / config.display.fps
        for turn, position in enumerate(positions):
            game = Game(get_profile(config.rules.profile), position)
            game.start_with(BLACK)
            if turn % 2:  # its play of the dice thrown; else its cube, before its throw
                game.record_throw(BLACK, (rng.randint(1, 6), rng.randint(1, 6)))
            app.core.restore(game)
            shown = len(thinks)
            began: float | None = None
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                thinking = bool(side.thinking)  # the table was thinking as the frame began
                t0 = time.monotonic()
                app.step(int(t0 * 1000))
                app.frame(int(t0 * 1000))
                spent = (time.monotonic() - t0) * 1000
                if thinking:
                    frames.append(spent)
                if side.thinking:
                    began = began or t0
                elif began is not None:
                    thinks.append((time.monotonic() - began) * 1000)
                    break
                time.sleep(max(0.0, period - spent / 1000))
            if len(thinks) == shown:
                raise SystemExit(f"the table ({level}) never finished thinking")
        app.close()
        sim.close()
        frames.sort()
        p99 = frames[max(0, int(len(frames) * 0.99) - 1)]
        figures[f"think_frame_p99_ms_{level}"] = round(p99, 2)
        figures[f"think_ms_p50_{level}"] = round(statistics.median(thinks), 1)
        print(
            f"the table thinking ({level}, {len(thinks)} cube decisions and plays): "
            f"{len(frames)} frames, p99 {p99:.2f} ms, max {frames[-1]:.2f} ms; "
            f"a decision took {statistics.median(thinks):.0f} ms (median)"
        )
    figures["think_frame_p99_ms"] = max(
        v for k, v in figures.items() if k.startswith("think_frame_p99_ms_")
    )
    return figures


def loop_cpu() -> dict[str, object]:
    """The loop's own CPU time a turn (its thread's, so the link's and the simulated table's
    threads are not counted) while a throw waits to be played: in middle-game positions with
    8-10 blots of the side not on roll, and in the opening. Each position is restored with the dice
    thrown, its men laid out by the simulated table, and the loop runs at its frame rate
    for ``LOOP_CPU_SECONDS``: the first turns take in the new readings, the rest see
    nothing new (a player thinking)."""
    from kiosk.rules import Game, Position, get_profile

    rng = random.Random(7)
    blotted = [
        (_blotted(rng, 8 + n % 3), (rng.randint(1, 6), rng.randint(1, 6)))
        for n in range(BLOT_POSITIONS)
    ]
    opening = [(Position.standard(), (3, 1)), (Position.standard(), (6, 5))]
    config = Config()
    config.dice.source = "digital"
    config.tutor.enabled = False
    layout = table_layout(config)
    sim = SimulatedTable(layout, realtime=True)
    listener = QueueListener()
    link = TableLink(sim.port_name, layout=layout, listener=listener).start()
    link.wait_connected(10)
    display = Display(Calibration.default(*WINDOW, layout), fullscreen=False, headless=True)
    app = App(config, link=link, listener=listener, display=display, simulator=sim)
    app.start()
    period = 1 / config.display.fps
    figures: dict[str, object] = {}
    for label, positions in (("blots", blotted), ("opening", opening)):
        turns: list[float] = []
        for position, dice in positions:
            game = Game(get_profile(config.rules.profile), position)
            game.start_with(position.turn)
            game.record_throw(game.turn, dice)
            app.core.restore(game)
            next_frame = start = time.monotonic()
            while time.monotonic() - start < LOOP_CPU_SECONDS:
                c0 = time.thread_time()
                now = int(time.monotonic() * 1000)
                app.step(now)
                app.frame(now)
                turns.append((time.thread_time() - c0) * 1000)
                next_frame = wait_for_input(next_frame, period, listener.frames)
        turns.sort()
        p50 = statistics.median(turns)
        p99 = turns[max(0, int(len(turns) * 0.99) - 1)]
        suffix = "" if label == "blots" else "_opening"
        figures[f"loop_cpu_ms_p50{suffix}"] = round(p50, 2)
        figures[f"loop_cpu_ms_p99{suffix}"] = round(p99, 2)
        print(
            f"loop CPU a turn, {label} ({len(positions)} positions, {len(turns)} turns): "
            f"median {p50:.2f} ms, p99 {p99:.2f} ms, max {turns[-1]:.2f} ms"
        )
    app.close()
    sim.close()
    return figures


def _blotted(rng: random.Random, blots: int) -> object:
    """A middle-game position, white to play, where black has ``blots`` blots (each of
    which the occupancy sensing cannot tell from a man that hit it) and his other men on
    two points; white's men stand on four or five points of two or more."""
    from kiosk.rules import Position

    points = rng.sample(range(1, 25), 24)
    layout = {p: -1 for p in points[:blots]}
    rest = 15 - blots
    layout[points[blots]] = -(rest // 2)
    layout[points[blots + 1]] = -(rest - rest // 2)
    free = points[blots + 2 :]
    stacks = rng.choice((4, 5))
    sizes = [3] * stacks
    for _ in range(15 - 3 * stacks):
        sizes[rng.randrange(stacks)] += 1
    for point, men in zip(free, sizes, strict=False):
        layout[point] = men
    return Position.from_points(layout)


def _positions(rng: random.Random, count: int) -> list:
    """Positions of a game under way with black to play, reached by random legal plays."""
    from kiosk.rules import BLACK, Position

    found = []
    while len(found) < count:
        position = Position.standard()
        for _ in range(rng.randint(4, 16)):
            plays = position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(plays).result
            if position.winner() is not None:
                break
        if position.winner() is None and position.turn == BLACK:
            found.append(position)
    return found


MEASURES: tuple[Callable[[], dict[str, object]], ...] = (
    loop_cpu,
    loop,
    think,
    start_and_memory,
)

if __name__ == "__main__":
    main()
