"""The companion's test helpers: the real App as ``kiosk run`` builds it
(kiosk.app.build: the records behind their writer, the companion attached on a free port of
127.0.0.1) on a stepped simulated table (kiosk.app.stepped) kept turning by a driver
thread; a clock the tests can move on; a small HTTP client."""

from __future__ import annotations

import json
import os
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.build import build_app  # noqa: E402
from kiosk.app.companion import Companion  # noqa: E402
from kiosk.app.stepped import SteppedApp  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.simtable import STARTING_POSITION  # noqa: E402
from kiosk.tutor.lessons import load_lesson  # noqa: E402
from kiosk.tutor.lessons.model import PlayStep, QuestionStep  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--metrics-recording-only",
    "--mute-audio",
]
PIN = "246813"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "companion"  # not kept

# The lesson of the 21 opening throws as its file has it today: the tests find it by its id
# and read its number and its steps from it (lessons are renumbered as lessons are added).
OPENINGS = load_lesson("openings")


def until(check: Any, timeout: float = 30.0) -> Any:
    """What ``check`` returns once it is true, asked every 50 ms; AssertionError after
    ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("never happened")


def opening_step(d1: int, d2: int) -> int:
    """The step of the openings lesson that plays the opening throw ``d1``-``d2``."""
    return next(
        step.number
        for step in OPENINGS.steps
        if isinstance(step, PlayStep) and sorted(step.dice) == sorted((d1, d2))
    )


def first_question() -> QuestionStep:
    """The openings lesson's first question to the learner."""
    return next(step for step in OPENINGS.steps if isinstance(step, QuestionStep))


class Clock:
    """The companion's clock: the machine's, moved on by the tests when they need time to pass."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class LiveTable:
    """The app on a stepped simulated table, turned by its own thread; the test thread hands
    it work with :meth:`do` (the app is only ever touched from the driver thread)."""

    def __init__(self, config: Config, clock: Clock) -> None:
        self.h = SteppedApp(lambda **wired: build_app(config, clock=clock, **wired), config)
        assert self.h.app.store is not None, self.h.app.store_problem
        self.store = self.h.app.store  # the records as kiosk run keeps them: behind the writer
        self.clock = clock
        self._jobs: queue.SimpleQueue[tuple[Callable[[SteppedApp], Any], Future]] = (
            queue.SimpleQueue()
        )
        self._running = True
        self.h.sim.set_position(STARTING_POSITION)
        self.companion: Companion | None = self.h.app.companion
        self.h.app.start()
        self.h.wait(400)
        self._thread = threading.Thread(target=self._drive, name="table-driver", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        assert self.companion is not None and self.companion.server is not None
        return f"http://127.0.0.1:{self.companion.server.port}"

    @property
    def server(self) -> Any:
        assert self.companion is not None
        return self.companion.server

    def _drive(self) -> None:
        while self._running:
            try:
                while True:
                    job, answer = self._jobs.get_nowait()
                    try:
                        answer.set_result(job(self.h))
                    except Exception as err:  # handed back to the test
                        answer.set_exception(err)
            except queue.Empty:
                pass
            self.h.wait(20)
            time.sleep(0.004)

    def do(self, job: Callable[[SteppedApp], Any], timeout: float = 30.0) -> Any:
        """Run ``job(harness)`` on the driver thread; its result."""
        answer: Future = Future()
        self._jobs.put((job, answer))
        return answer.result(timeout)

    def wait_for(self, check: Callable[[SteppedApp], bool], timeout: float = 20.0) -> None:
        """Turn the table until ``check(harness)`` holds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.do(check):
                return
            time.sleep(0.02)
        raise AssertionError("the table never got there")

    def close(self) -> None:
        self._running = False
        self._thread.join(10)
        self.h.close()


class Http:
    """A small HTTP client with its own cookie, for requests a page would make (or a hostile
    one would)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, str], str]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.cookie:
            request.add_header("Cookie", self.cookie)
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                status, got, text = response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as err:
            status, got, text = err.code, dict(err.headers), err.read()
        cookie = got.get("Set-Cookie", "")
        if cookie.startswith("bgtable="):
            value = cookie.split(";")[0]
            self.cookie = "" if value == 'bgtable=""' or value == "bgtable=" else value
        return status, got, text.decode("utf-8")

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path)

    def csrf(self, path: str) -> str:
        """Open a page and read its CSRF token (a visitor's session begins)."""
        status, _, text = self.get(path)
        assert status == 200, text
        marker = '<meta name="csrf" content="'
        start = text.index(marker) + len(marker)
        return text[start : text.index('"', start)]

    def post(self, path: str, body: Any = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"X-CSRF-Token": token} if token is not None else {}
        status, _, text = self.request("POST", path, body if body is not None else {}, headers)
        return status, json.loads(text) if text.startswith("{") else {"text": text}

    def login(self, pin: str = PIN) -> str:
        """Log in as the teacher; the teacher's page's CSRF token."""
        token = self.csrf("/teacher")
        status, answer = self.post("/api/login", {"pin": pin}, token)
        assert status == 200, answer
        return self.csrf("/teacher")
