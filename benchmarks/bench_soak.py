"""Benchmark months alone: an unattended session of simulated play, then a year of records.

The real application (link, referee, modes, tutor with the built-in evaluator, headless
pygame drawing, the records behind their writer thread) runs on a real-time simulated
table at its 30 frames a second while a simulated visitor plays game after game with
digital dice: throws, moves the men (hits to the bar), presses Done, opens and leaves the
menu now and then, lets the coach's offers lapse, and leaves the table alone long enough
for the attract screen from time to time. Then a year of records (40 games a day) is
built from the games just played, old games pruned as the table prunes them, and the
start of the table is timed on it.

Figures (the last line is one JSON object):

``rss_growth_mb``
    the process's resident memory at the end less at half time (target under 2, in the
    long form: the bounded caches, the legal plays' and the rendered lines', fill during
    the first twenty minutes or so, so the short form measures their filling);
    ``rss_slope_mb_per_h`` is the least-squares slope over the last half.
``db_bytes_per_game``
    the records file (and its log, less an empty file's size) over the games played,
    every event kept; ``db_bytes_per_pruned_game`` what a finished game keeps once pruned.
    The simulated visitor plays at random, so its games run about twice as long as
    people's (``turns_per_game``).
``loop_p99_ms``
    one turn of the loop (link, referee, events, store hand-off, drawing), 99th centile.
``start_check_s``
    opening the year's records as ``kiosk run`` does and reading what a restart reads
    (target under 5 s here); ``year_quick_check_s`` is what the whole-file check that
    every start used to run costs on the same file (warm page cache on both).

``fds_start`` / ``fds_end``, ``threads_start`` / ``threads_end``
    the process's open descriptors and threads at the start of play and at the end.

With ``--companion`` the class companion runs too, on 127.0.0.1: the teacher logs in and
opens a class, and 30 phones (another process) join it, follow the board over WebSockets,
vote, reconnect every minute and join again every other minute (issue 36).

``python benchmarks/bench_soak.py`` runs 3 minutes; ``--minutes 60`` the long form; ``--quick``
nine seconds and a fortnight of records (``year_days``), to show that it still runs.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import multiprocessing
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
import urllib.error
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.build import build_app  # noqa: E402
from kiosk.app.controls import button_event  # noqa: E402
from kiosk.app.main import App, table_layout, wait_for_frame  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.display import Calibration, Display  # noqa: E402
from kiosk.link import QueueListener, TableLink  # noqa: E402
from kiosk.rules import BAR, Phase  # noqa: E402
from kiosk.rules.position import _legal_plays  # noqa: E402
from kiosk.simtable import STARTING_POSITION, SimulatedTable  # noqa: E402
from kiosk.store import Store, StoreWriter  # noqa: E402
from kiosk.store.store import ENV_VAR, KEEP_WHOLE_GAMES, KEPT_KINDS  # noqa: E402
from kiosk.table.sensing import location  # noqa: E402

GAMES_A_DAY = 40
PAGE = os.sysconf("SC_PAGE_SIZE")
BUCKET_MS = 0.1  # the loop's turns are counted in a histogram: constant memory


def open_fds() -> int:
    """The process's open descriptors now."""
    return len(os.listdir("/proc/self/fd"))


def rss_mb() -> float:
    """The process's resident memory now."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


class Visitor:
    """Plays both sides at the table, as fast as a quick pair of hands, and idles now and
    then (``idle_every`` games) long enough for the attract screen."""

    def __init__(self, app: App, sim: SimulatedTable, idle_every: int, seed: int = 27) -> None:
        self.app = app
        self.sim = sim
        self.rng = random.Random(seed)
        self.idle_every = idle_every
        self.not_before = 0.0
        self.moved_turn: tuple[int, int] | None = None  # (game serial, turns) moved for
        self.stuck_since = time.monotonic()
        self.progress: tuple[int, int, Phase, str] | None = None
        self.games = 0
        self.turns = 0
        self.resets = 0

    def press(self, name: str, player: str | None = None) -> None:
        self.app.bus.publish(button_event(name, player))

    def act(self) -> None:
        now = time.monotonic()
        if now < self.not_before:
            return
        self.not_before = now + 0.12
        app = self.app
        top = app.modes.names()[-1]
        referee = app.referee
        if referee is None:
            return
        game = referee.game
        state = (app.game_serial, len(game.turns), game.phase, top)
        if state != self.progress:
            self.progress, self.stuck_since = state, now
        elif now - self.stuck_since > 15:  # a hand that went wrong: a new game
            self.resets += 1
            self.stuck_since = now
            app.play_friends(tutor=True)
            return
        if top == "game-end":
            self.games += 1
            self.press("done")
            self.not_before = now + 1.0  # the next game is laid out
            if self.idle_every and self.games % self.idle_every == 0:
                idle = self.app.config.display.invite_after_s
                self.not_before = now + idle + 5  # nobody comes for a while
            return
        if top == "double-offer":
            self.press("select")
            return
        if top not in ("game", "take-back-offer"):
            self.press("back")  # a notice, the attract screen, a menu: gone
            return
        if app.setting_up:
            return
        mover = str(game.turn)
        if game.phase in (Phase.OPENING, Phase.ROLL):
            if self.rng.random() < 0.02:
                self.press("menu", mover)  # a look at the menu, and back
                self.not_before = now + 0.5
                return
            self.press("done", mover)
            return
        if game.phase != Phase.PLAY:
            return
        turn = (app.game_serial, len(game.turns))
        if self.moved_turn != turn:
            plays = game.legal_plays()
            play = self.rng.choice(plays) if plays else None
            for step in play.steps if play is not None else ():
                if step.hit:
                    blot = location(game.turn, step.dst)
                    self.sim.move(blot, location(game.turn.other, BAR), str(game.turn.other))
                self.sim.move(location(game.turn, step.src), location(game.turn, step.dst), mover)
            self.moved_turn = turn
            self.not_before = now + (app.config.referee.settle_ms + 250) / 1000
            return
        self.turns += 1
        self.press("done", mover)
        self.not_before = now + 0.3


class ClassTeacher(threading.Thread):
    """The teacher at a class, from a phone of her own: a vote on every legal play of a roll
    opened every ``every`` seconds and revealed before the next, so the phones vote and their
    answers are kept."""

    def __init__(self, teacher: object, every: float = 20.0) -> None:
        super().__init__(name="soak-teacher", daemon=True)
        self.teacher = teacher
        self.every = every
        self.stopping = threading.Event()
        self.votes_opened = 0
        self.reveals = 0
        self.failures = 0
        self.failed: dict[str, int] = {}  # what the table answered each failure, how often

    def run(self) -> None:
        teacher = self.teacher
        while not self.stopping.is_set():
            if self.votes_opened:  # a vote the table's own next roll put away cannot be
                try:  # revealed: counted, and the next vote opened all the same
                    teacher.post("/api/teacher/reveal", {})  # type: ignore[attr-defined]
                    self.reveals += 1
                except OSError as err:
                    self._failed(err)
            try:
                teacher.new_vote()  # type: ignore[attr-defined]
                self.votes_opened += 1
            except OSError as err:  # counted: a teacher's request the table did not answer
                self._failed(err)
            self.stopping.wait(self.every)

    def stop(self) -> None:
        """The last vote revealed (its answers kept), and no more opened."""
        self.stopping.set()
        self.join(60)
        try:
            self.teacher.post("/api/teacher/reveal", {})  # type: ignore[attr-defined]
            self.reveals += 1
        except OSError as err:
            self._failed(err)

    def _failed(self, err: OSError) -> None:
        self.failures += 1
        words = str(err)
        if isinstance(err, urllib.error.HTTPError):
            words = f"{err.code} {err.read().decode(errors='replace')[:120]}"
        self.failed[words] = self.failed.get(words, 0) + 1


def start_class(app: App, minutes: float) -> tuple[object, object, ClassTeacher]:
    """The companion attached, a class opened by the teacher, 30 phones joining from another
    process for ``minutes``, the teacher opening a vote every 20 s; the phones' process, the
    queue of their counts and the teacher."""
    sys.path.insert(0, str(Path(__file__).parent))
    import bench_companion

    from kiosk.app.companion import attach

    companion = app.companion or attach(app)  # build_app attached it: not a second server
    assert companion is not None, "the companion did not start"
    server = companion.server
    assert server is not None, "the companion's server did not start"
    base = f"http://127.0.0.1:{server.port}"
    bench_companion.PIN = app.config.companion.teacher_pin
    teacher = bench_companion.Teacher(base)
    teacher.post("/api/teacher/class/open", {})
    code = server.room.join.code
    context = multiprocessing.get_context("spawn")
    ready, counts = context.Event(), context.Queue()
    phones = context.Process(
        target=bench_companion.students, args=(base, code, minutes * 60, ready, counts)
    )
    phones.start()
    ready.wait(60)
    voting = ClassTeacher(teacher)
    voting.start()
    return phones, counts, voting


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost",
        )
    ]  # fmt: skip


def c_heap_mb() -> tuple[float, float]:
    """The C heap (glibc's malloc, every thread's arena): MB in use and MB free but kept
    (fragments the process holds on to); zeros where glibc has no ``mallinfo2``."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return 0.0, 0.0
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return (info.uordblks + info.hblkhd) / 2**20, info.fordblks / 2**20


def trimmed_rss_mb() -> float:
    """The resident memory once glibc has handed back the free memory it keeps
    (``malloc_trim``): what of the growth is fragments of the C heap, not held objects."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
    return rss_mb()


def caches(display: Display) -> tuple[int, float, int]:
    """The bounded caches that fill as the table runs: the rendered lines of text kept (how
    many, and their pixels in MB; at most ``TextCache``'s limit) and the positions whose legal
    plays are kept (at most 512)."""
    renders = display.renderer.text._renders  # read only, to show the cache's bound
    pixels = sum(s.get_width() * s.get_height() * s.get_bytesize() for s in renders.values())
    return len(renders), pixels / 2**20, _legal_plays.cache_info().currsize


def trace_growth(previous: tracemalloc.Snapshot | None) -> tracemalloc.Snapshot:
    """A snapshot of the Python heap now; what grew most since ``previous``, printed."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    if previous is not None:
        for stat in snapshot.compare_to(previous, "traceback")[:8]:
            if stat.size_diff <= 0:
                break
            print(f"  +{stat.size_diff / 1024:.0f} KiB in {stat.count_diff:+d} blocks:", flush=True)
            for line in stat.traceback.format()[-8:]:
                print(f"    {line}", flush=True)
    return snapshot


def soak(
    minutes: float, folder: Path, companion: bool = False, trace: bool = False
) -> dict[str, object]:
    """Play for ``minutes``; the figures of the session, and the records file (``trace``:
    what grows in the Python heap every two minutes, printed)."""
    config = Config()
    config.dice.source = "digital"
    config.tutor.evaluator = "builtin"
    config.speech.enabled = False
    config.installer.pin = "8642"
    if companion:
        config.companion.enabled = True
        config.companion.address = "127.0.0.1"
        config.companion.port = 0  # a free port
        config.companion.teacher_pin = "864213"
    layout = table_layout(config)
    sim = SimulatedTable(layout, realtime=True, seed=27)
    sim.set_position(STARTING_POSITION)
    listener = QueueListener()
    link = TableLink(sim.port_name, layout=layout, listener=listener).start()
    link.wait_connected(10)
    display = Display(Calibration.default(1280, 720, layout), fullscreen=False, headless=True)
    db = folder / "table.sqlite3"
    config.store.path = str(db)
    os.environ.pop(ENV_VAR, None)  # the soak's own records
    app = build_app(  # as kiosk run builds it: the records behind their writer thread
        config,
        link=link,
        listener=listener,
        display=display,
        calibration=display.calibration,
    )
    store = app.store
    assert isinstance(store, StoreWriter), app.store_problem
    app.simulator = sim  # new games are laid out on the simulated table at once
    visitor = Visitor(app, sim, idle_every=8 if minutes >= 30 else 0)
    app.start()
    phones = counts = voting = None
    if companion:
        phones, counts, voting = start_class(app, minutes)
    gc.collect()
    gc.freeze()  # as App.run does: what start-up made lives all day
    fds_start, threads_start = open_fds(), threading.active_count()
    snapshot = None
    if trace:
        tracemalloc.start(12)
    histogram = [0] * int(1000 / BUCKET_MS)
    samples: list[tuple[float, float]] = []
    period = 1 / config.display.fps
    start = next_frame = next_sample = time.monotonic()
    end = start + minutes * 60
    while time.monotonic() < end:
        t0 = time.perf_counter()
        now_ms = int(time.monotonic() * 1000)
        app.step(now_ms)
        app.frame(now_ms)
        took = (time.perf_counter() - t0) * 1000
        histogram[min(int(took / BUCKET_MS), len(histogram) - 1)] += 1
        visitor.act()
        clock = time.monotonic()
        if clock >= next_sample:
            samples.append((clock - start, rss_mb()))
            next_sample += 5.0
            if len(samples) % 24 == 0:
                lines, line_mb, plays = caches(display)
                used, kept = c_heap_mb()
                print(
                    f"{(clock - start) / 60:5.1f} min: {visitor.games} games, "
                    f"{visitor.turns} turns, rss {samples[-1][1]:.1f} MB, "
                    f"{open_fds()} descriptors, {threading.active_count()} threads, loop p99 "
                    f"{_centile(histogram, sum(histogram), 0.99)} ms; caches: {lines} lines of "
                    f"text ({line_mb:.1f} MB), {plays} positions' plays; Python "
                    f"{sys.getallocatedblocks()} blocks; C heap {used:.1f} MB used, "
                    f"{kept:.1f} MB free but kept",
                    flush=True,
                )
                if trace:
                    snapshot = trace_growth(snapshot)
        next_frame = wait_for_frame(next_frame, period)
    fds_end, threads_end = open_fds(), threading.active_count()
    lines, line_mb, plays = caches(display)
    c_used, c_kept = c_heap_mb()
    rss_before_trim = rss_mb()
    rss_trimmed = trimmed_rss_mb()
    votes = refused = answers = None
    if phones is not None and counts is not None and voting is not None:
        phones.join(120)  # type: ignore[attr-defined]
        got = [counts.get(timeout=5) for _ in range(30)]  # type: ignore[attr-defined]
        votes, refused = sum(v for v, _ in got), sum(r for _, r in got)
        voting.stop()
        store.flush()
        answers = len(store.class_answers())
    store.flush()
    app.close()
    sim.close()
    half = [s for s in samples if s[0] >= minutes * 30]
    slope = _slope(half) * 3600 if len(half) > 2 else 0.0
    finished = _finished_games(db)
    size = sum(p.stat().st_size for p in folder.glob("table.sqlite3*")) - _empty_bytes(folder)
    turns = sum(histogram)
    return {
        "minutes": minutes,
        "games": finished,
        "turns": visitor.turns,
        "turns_per_game": round(visitor.turns / finished, 1) if finished else None,
        "resets": visitor.resets,
        "rss_start_mb": round(samples[0][1], 1),
        "rss_half_mb": round(half[0][1], 1),
        "rss_end_mb": round(samples[-1][1], 1),
        "rss_growth_mb": round(samples[-1][1] - half[0][1], 2),
        "rss_slope_mb_per_h": round(slope, 2),
        "db_bytes_per_game": round(size / finished) if finished else None,
        "loop_p50_ms": _centile(histogram, turns, 0.5),
        "loop_p99_ms": _centile(histogram, turns, 0.99),
        "loop_max_ms": _centile(histogram, turns, 1.0),
        "fds_start": fds_start,
        "fds_end": fds_end,
        "threads_start": threads_start,
        "threads_end": threads_end,
        "text_cache_lines": lines,
        "text_cache_mb": round(line_mb, 1),
        "legal_plays_cached": plays,
        "c_heap_used_mb": round(c_used, 1),
        "c_heap_free_kept_mb": round(c_kept, 1),
        "rss_before_trim_mb": round(rss_before_trim, 1),
        "rss_after_trim_mb": round(rss_trimmed, 1),
        "companion": companion,
        "class_votes": votes,
        "class_votes_refused": refused,
        "class_answers_kept": answers,
        "class_votes_opened": voting.votes_opened if voting is not None else None,
        "teacher_failures": voting.failures if voting is not None else None,
        "teacher_failed": voting.failed if voting is not None else None,
    }


def _slope(points: list[tuple[float, float]]) -> float:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x in xs)


def _centile(histogram: list[int], total: int, share: float) -> float:
    wanted = max(1, round(total * share))
    seen = 0
    for bucket, count in enumerate(histogram):
        seen += count
        if seen >= wanted:
            return round((bucket + 1) * BUCKET_MS, 1)
    return round(len(histogram) * BUCKET_MS, 1)


def _empty_bytes(folder: Path) -> int:
    """The size of records holding no game (the tables and indexes themselves)."""
    empty = folder / "empty.sqlite3"
    Store(empty).close()
    size = empty.stat().st_size
    empty.unlink()
    return size


def _finished_games(db: Path) -> int:
    with sqlite3.connect(db) as raw:
        return int(raw.execute("SELECT count(*) FROM games WHERE winner IS NOT NULL").fetchone()[0])


def pruned_bytes_per_game(db: Path, folder: Path) -> int:
    """What an old game keeps once pruned: a copy of the records, every game pruned,
    vacuumed, over the games."""
    copy = folder / "pruned.sqlite3"
    with Store(db) as store:
        store.copy_to(copy)
    with Store(copy) as store:
        while store.prune(keep=0, batch=1000):
            pass
    raw = sqlite3.connect(copy, isolation_level=None)
    raw.execute("DELETE FROM events WHERE game_id IN (SELECT id FROM games WHERE pruned = 0)")
    raw.execute("DELETE FROM turns WHERE game_id IN (SELECT id FROM games WHERE pruned = 0)")
    raw.execute("VACUUM")
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    games = int(raw.execute("SELECT count(*) FROM games WHERE pruned = 1").fetchone()[0])
    raw.close()
    return round((copy.stat().st_size - _empty_bytes(folder)) / max(games, 1))


def year_of_records(template: Path, folder: Path, days: int = 365) -> tuple[Path, int]:
    """A year (``days``) of records at ``GAMES_A_DAY``, made of copies of the finished games in
    ``template`` (of its games, in a run too short to finish one): all but the latest
    ``KEEP_WHOLE_GAMES`` pruned, as the table leaves them."""
    path = folder / "year.sqlite3"
    Store(path).close()
    total = days * GAMES_A_DAY
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA journal_mode = WAL")
    raw.execute(f"ATTACH DATABASE '{template}' AS t")
    games = [
        row[0] for row in raw.execute("SELECT id FROM t.games WHERE winner IS NOT NULL ORDER BY id")
    ] or [row[0] for row in raw.execute("SELECT id FROM t.games ORDER BY id")]  # none finished
    low, high = raw.execute("SELECT min(id), max(id) FROM t.events").fetchone()
    span = high - low + 1
    kept = ", ".join(f"'{k}'" for k in KEPT_KINDS)
    columns = (
        "match_id, number, started, profile, mode, white, black, match_length, "
        "start_position, start_turn, finished, winner, result, points"
    )
    raw.execute("BEGIN")
    for n in range(1, total + 1):
        source = games[n % len(games)]
        whole = n > total - KEEP_WHOLE_GAMES
        offset = n * span - low + 1
        raw.execute(
            f"INSERT INTO games (id, {columns}, pruned) "
            f"SELECT ?, {columns}, ? FROM t.games WHERE id = ?",
            (n, 0 if whole else 1, source),
        )
        only = "" if whole else f" AND kind IN ({kept})"
        raw.execute(
            "INSERT INTO events (id, game_id, at, kind, body) "
            f"SELECT id + ?, ?, at, kind, body FROM t.events WHERE game_id = ?{only}",
            (offset, n, source),
        )
        raw.execute(
            "INSERT INTO turns SELECT ?, number, colour, die1, die2, move, accepted, "
            "position_before, position_after, event_id + ? FROM t.turns WHERE game_id = ?",
            (n, offset, source),
        )
        if n % 2000 == 0:
            raw.execute("COMMIT")
            raw.execute("BEGIN")
    raw.execute("UPDATE games SET match_id = NULL")
    raw.execute("COMMIT")
    raw.execute("DETACH DATABASE t")
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return path, total


def start_check_s(path: Path) -> float:
    """Open the records as ``kiosk run`` does and read what a restart reads."""
    started = time.perf_counter()
    writer = StoreWriter(Store(path, busy_ms=500))
    try:
        game = writer.unfinished_game() or writer.last_game()
        writer.last_session()
        writer.pin_failures()
        writer.lesson_progress("guest-1")
        if game is not None:
            writer.game(game)
            writer.load_game(game)
    finally:
        took = time.perf_counter() - started
        writer.close()
    return took


def quick_check_s(path: Path) -> float:
    started = time.perf_counter()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA quick_check").fetchall()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to play (3)")
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    parser.add_argument(
        "--companion", action="store_true", help="the class companion on, 30 phones in a class"
    )
    parser.add_argument(
        "--trace", action="store_true", help="print what grows in the heap every two minutes"
    )
    parser.add_argument(
        "--no-year", action="store_true", help="skip the year of records built afterwards"
    )
    args = parser.parse_args()
    days, checks = 365, 3
    if args.quick:  # a few seconds of play, a fortnight of records
        args.minutes, days, checks = min(args.minutes, 0.15), 14, 1
    folder = Path(tempfile.mkdtemp(prefix="bench-soak-"))
    try:
        print(f"playing unattended for {args.minutes:g} minutes...", flush=True)
        figures = soak(args.minutes, folder, companion=args.companion, trace=args.trace)
        print(
            f"{figures['games']} games, {figures['turns']} turns; rss {figures['rss_start_mb']} "
            f"-> {figures['rss_half_mb']} (half time) -> {figures['rss_end_mb']} MB: "
            f"{figures['rss_growth_mb']} MB over the last half"
        )
        print(
            f"loop: median {figures['loop_p50_ms']} ms, p99 {figures['loop_p99_ms']} ms; "
            f"records: {figures['db_bytes_per_game']} bytes a game; descriptors "
            f"{figures['fds_start']} -> {figures['fds_end']}, threads "
            f"{figures['threads_start']} -> {figures['threads_end']}"
        )
        db = folder / "table.sqlite3"
        if args.no_year:
            print(json.dumps(figures))
            return
        figures["db_bytes_per_pruned_game"] = pruned_bytes_per_game(db, folder)
        year, games = year_of_records(db, folder, days)
        figures["year_games"] = games
        figures["year_db_mb"] = round(year.stat().st_size / 2**20, 1)
        figures["year_days"] = days
        figures["start_check_s"] = round(max(start_check_s(year) for _ in range(checks)), 3)
        figures["year_quick_check_s"] = round(quick_check_s(year), 2)
        print(
            f"a year of records ({games} games, {figures['year_db_mb']} MB, old games "
            f"{figures['db_bytes_per_pruned_game']} bytes each): the start reads it in "
            f"{figures['start_check_s']} s; the whole-file check would take "
            f"{figures['year_quick_check_s']} s"
        )
        print(json.dumps(figures))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
