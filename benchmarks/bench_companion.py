"""Benchmark the class companion: how soon the projector shows what happens on the table, whether
the table's loop keeps its pace with a class's phones connected, and whether memory stays put.

Runs the real ``App`` (link, referee, event bus, headless pygame display) on a real-time
simulated table at 30 frames a second, a hand moving a man (lifted, then put down) every 0.3
seconds, and the companion on 127.0.0.1. Debian's headless Chromium shows the projector page.

- ``frame_p99_ms_alone``: the loop's work per frame (p99) with the companion off;
- ``frame_p99_ms``: the same with the companion on, the projector open and 30 students
  connected from another process, each voting every 2.5 seconds (the teacher opens a new
  vote every 20 seconds and reveals it, which writes the answers to the store);
- ``projector_latency_p50_ms`` / ``_p99_ms``: from the table's board event on the app's bus to
  the projector page in Chromium drawing that board, under that load
  (``projector_latency_p99_ms_quiet``: with no students);
- ``rss_growth_mb``: the table process's resident memory at the end of the run of the
  students (``--minutes``, 1 by default, 10 for the report) less at its start; students
  reconnect every minute, and join again with a new session every other minute.

Run: .venv/bin/python benchmarks/bench_companion.py [--minutes N] [--quick]
The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import queue
import random
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.companion import attach  # noqa: E402
from kiosk.app.main import App, table_layout, wait_for_frame  # noqa: E402
from kiosk.companion.board import men_key  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.display import Calibration, Display  # noqa: E402
from kiosk.events import Board  # noqa: E402
from kiosk.link import QueueListener, TableLink  # noqa: E402
from kiosk.simtable import STARTING_POSITION, SimulatedTable  # noqa: E402
from kiosk.store import Store  # noqa: E402

STUDENTS = 30
PIN = "2468"
PHASE_S = 20.0
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Table:
    """The app's loop on its own thread at 30 frames a second; the hand on another."""

    def __init__(self, store_path: str) -> None:
        self.config = config = Config()
        config.dice.source = "digital"
        config.speech.enabled = False
        config.tutor.evaluator = "builtin"
        c = config.companion
        c.enabled, c.teacher_pin, c.address, c.port = True, PIN, "127.0.0.1", 0
        layout = table_layout(config)
        self.sim = SimulatedTable(layout, realtime=True)
        self.sim.set_position(STARTING_POSITION)
        listener = QueueListener()
        link = TableLink(self.sim.port_name, layout=layout, listener=listener).start()
        link.wait_connected(10)
        display = Display(Calibration.default(1280, 720, layout), fullscreen=False, headless=True)
        self.app = App(
            config, link=link, listener=listener, display=display, store=Store(store_path)
        )
        self.frames: list[float] = []
        self.boards: list[tuple[float, str]] = []  # (time on the bus, men key)
        self.app.bus.subscribe(self._board)
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], queue.SimpleQueue]] = (
            queue.SimpleQueue()
        )
        self._stop = threading.Event()
        self.app.start()
        self._loop = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._loop.start()
        self._hand = threading.Thread(target=self._move, name="hand", daemon=True)
        self._hand.start()

    def _board(self, event: object) -> None:
        if isinstance(event, Board):
            self.boards.append((time.time(), men_key(event.board)))

    def _run(self) -> None:
        period = 1 / self.config.display.fps
        next_frame = time.monotonic()
        while not self._stop.is_set():
            try:
                while True:
                    job, answer = self._jobs.get_nowait()
                    answer.put(job())
            except queue.Empty:
                pass
            t0 = time.monotonic()
            now = int(t0 * 1000)
            self.app.step(now)
            self.app.frame(now)
            self.frames.append((time.monotonic() - t0) * 1000)
            next_frame = wait_for_frame(next_frame, period)

    def _move(self) -> None:
        while not self._stop.is_set():
            for src, dst in (("13", "7"), ("7", "13")):
                self.sim.lift(src, "white")
                self._stop.wait(0.3)
                self.sim.place(dst, "white")
                self._stop.wait(0.3)

    def do(self, job: Callable[[], Any]) -> Any:
        """Run ``job`` on the loop's thread."""
        answer: queue.SimpleQueue = queue.SimpleQueue()
        self._jobs.put((job, answer))
        return answer.get(timeout=30)

    def close(self) -> None:
        self._stop.set()
        self._loop.join(10)
        self._hand.join(5)
        self.app.close()
        self.sim.close()


class Teacher:
    """The teacher's requests, over HTTP with the session's cookie and CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""
        self.token = self._token("/teacher")
        self.post("/api/login", {"pin": PIN})
        self.token = self._token("/teacher")

    def _open(self, request: urllib.request.Request) -> str:
        if self.cookie:
            request.add_header("Cookie", self.cookie)
        with urllib.request.urlopen(request, timeout=30) as response:
            cookie = response.headers.get("Set-Cookie", "")
            if cookie.startswith("bgtable="):
                self.cookie = cookie.split(";")[0]
            return response.read().decode()

    def _token(self, path: str) -> str:
        text = self._open(urllib.request.Request(self.base + path))
        start = text.index('name="csrf" content="') + len('name="csrf" content="')
        return text[start : text.index('"', start)]

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        request.add_header("X-CSRF-Token", self.token)
        return json.loads(self._open(request))

    def new_vote(self) -> None:
        d1, d2 = random.choice([(3, 1), (6, 5), (4, 2), (5, 3), (6, 1)])
        self.post(
            "/api/teacher/position",
            {"position": "4HPwATDgc/ABMA", "turn": "white", "d1": d1, "d2": d2, "go": "rank"},
        )
        self.post("/api/teacher/vote", {"source": "legal"})


def students(base: str, code: str, seconds: float, ready: Any, counts: Any) -> None:
    """30 students on their phones (another process): join, follow the board, vote."""
    import aiohttp

    async def one(n: int) -> None:
        votes = refused = 0
        started = time.monotonic()
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as web:
            rejoin = True
            while time.monotonic() - started < seconds:
                if rejoin:
                    web.cookie_jar.clear()
                    page = await (await web.get(base + "/join")).text()
                    token = page.split('name="csrf" content="')[1].split('"')[0]
                    await web.post(
                        base + "/api/join",
                        json={"code": code, "name": f"Student {n}"},
                        headers={"X-CSRF-Token": token},
                    )
                    page = await (await web.get(base + "/student")).text()
                    token = page.split('name="csrf" content="')[1].split('"')[0]
                async with web.ws_connect(base + "/ws?page=student") as ws:
                    if n == 0 and rejoin:
                        ready.set()
                    until = time.monotonic() + 60
                    next_vote = time.monotonic() + random.uniform(0, 2.5)
                    state: dict = {}
                    while time.monotonic() < min(until, started + seconds):
                        try:
                            message = await ws.receive(timeout=0.5)
                            if message.type == aiohttp.WSMsgType.TEXT:
                                state = json.loads(message.data)["state"]
                            elif message.type in (
                                aiohttp.WSMsgType.CLOSED,
                                aiohttp.WSMsgType.ERROR,
                            ):
                                break
                        except TimeoutError:
                            pass
                        vote = state.get("vote")
                        if vote and vote["open"] and time.monotonic() >= next_vote:
                            next_vote = time.monotonic() + 2.5
                            answer = await web.post(
                                base + "/api/vote",
                                json={
                                    "vote": vote["id"],
                                    "choice": str(random.randrange(len(vote["options"]))),
                                },
                                headers={"X-CSRF-Token": token},
                            )
                            votes += answer.status == 200
                            refused += answer.status == 429
                rejoin = not rejoin  # a new session every other minute
        counts.put((votes, refused))

    async def all_of_them() -> None:
        await asyncio.gather(*(one(n) for n in range(STUDENTS)))

    asyncio.run(all_of_them())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="how long the students stay")
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    global PHASE_S
    if args.quick:  # each phase a few seconds, the students a few more
        PHASE_S, args.minutes = 2.0, min(args.minutes, 0.05)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"bench_companion needs Debian's headless Chromium at {CHROMIUM}")
    import tempfile

    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="bench-companion-")
    table = Table(os.path.join(folder, "table.sqlite3"))
    time.sleep(2)

    # the table alone: the companion off
    table.frames.clear()
    time.sleep(PHASE_S)
    alone = list(table.frames)
    print(f"companion off: {len(alone)} frames, p99 {_p(alone, 0.99)} ms")

    companion = table.do(lambda: attach(table.app))
    server = companion.server
    base = f"http://127.0.0.1:{server.port}"
    teacher = Teacher(base)
    teacher.post("/api/teacher/class/open", {})
    code = server.room.join.code  # as the projector shows it

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        projector = browser.new_page(viewport={"width": 1280, "height": 720})
        projector.goto(base + "/projector")
        projector.wait_for_selector("#board svg")
        projector.evaluate(
            """() => { window.seen = [];
               const note = () => { const s = document.querySelector('#board svg');
                 if (s) window.seen.push([Date.now(), s.dataset.men]); };
               new MutationObserver(note).observe(document.querySelector('#board'),
                                                  {childList: true}); }"""
        )

        def latencies(since: float) -> list[float]:
            seen = projector.evaluate("window.seen")
            out = []
            boards = [(t, k) for t, k in table.boards if t >= since]
            for i, (t, key) in enumerate(boards[:-1]):
                if boards[i + 1][1] == key:
                    continue
                shown = [ms / 1000 for ms, k in seen if k == key and ms / 1000 >= t - 0.002]
                if shown and shown[0] < boards[i + 1][0] + 1.0:
                    out.append((shown[0] - t) * 1000)
            return out

        # the companion on, the projector open, no students
        start = time.time()
        table.frames.clear()
        time.sleep(PHASE_S)
        quiet = latencies(start)
        quiet_frames = list(table.frames)
        print(
            f"companion on, projector only: {len(quiet_frames)} frames, p99 "
            f"{_p(quiet_frames, 0.99)} ms; projector p50 {_p(quiet, 0.5)} ms, "
            f"p99 {_p(quiet, 0.99)} ms over {len(quiet)} boards"
        )

        # 30 students
        context = multiprocessing.get_context("spawn")
        ready, counts = context.Event(), context.Queue()
        seconds = PHASE_S + min(10.0, PHASE_S) + args.minutes * 60
        crowd = context.Process(target=students, args=(base, code, seconds, ready, counts))
        teacher.new_vote()
        crowd.start()
        ready.wait(60)
        time.sleep(min(5.0, PHASE_S))
        start = time.time()
        table.frames.clear()
        time.sleep(PHASE_S)
        loaded = list(table.frames)
        busy = latencies(start)
        print(
            f"30 students: {len(loaded)} frames, p99 {_p(loaded, 0.99)} ms; "
            f"projector p50 {_p(busy, 0.5)} ms, p99 {_p(busy, 0.99)} ms over {len(busy)} boards"
        )

        rss_start = _rss_mb()
        end = time.monotonic() + args.minutes * 60
        while time.monotonic() < end:
            time.sleep(min(20.0, max(0.0, end - time.monotonic())))
            teacher.post("/api/teacher/reveal", {})
            teacher.new_vote()
            projector.evaluate("window.seen = []")
        rss_end = _rss_mb()
        crowd.join(120)
        votes = refused = 0
        while not counts.empty():
            v, r = counts.get()
            votes, refused = votes + v, refused + r
        browser.close()
    answers = len(table.app.store.class_answers())
    table.close()
    figures = {
        "projector_latency_p50_ms": _p(busy, 0.5),
        "projector_latency_p99_ms": _p(busy, 0.99),
        "projector_latency_p99_ms_quiet": _p(quiet, 0.99),
        "frame_p99_ms": _p(loaded, 0.99),
        "frame_p99_ms_alone": _p(alone, 0.99),
        "frame_p99_ms_projector_only": _p(quiet_frames, 0.99),
        "frame_p50_ms": _p(loaded, 0.5),
        "frame_p50_ms_alone": _p(alone, 0.5),
        "students": STUDENTS,
        "votes": votes,
        "votes_refused_rate_limit": refused,
        "answers_kept": answers,
        "rss_growth_mb": round(rss_end - rss_start, 1),
        "rss_minutes": args.minutes,
        "rss_mb": round(rss_end, 1),
    }
    print(f"{votes} votes ({refused} refused by the rate limit), {answers} answers kept")
    print(f"memory over {args.minutes:g} min of 30 students: {rss_start:.1f} -> {rss_end:.1f} MB")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
