"""The companion's web server: aiohttp on its own thread, with its own event loop.

The table's loop hands each event to :meth:`CompanionServer.follow`, which only puts it on a
queue and, at most once until the server has looked, wakes the server's loop. The server
folds the events into its :class:`~kiosk.companion.classroom.Classroom` and pushes the new
state to every page over a WebSocket, at most every :data:`PUSH_MS` milliseconds and never
waiting on a slow page (each page gets the latest state when it is ready for one). Commands
for the table go on the :class:`~kiosk.companion.control.CommandQueue` the table's loop
runs; the ranked plays, the health facts and the store are asked on one worker thread.

Routes: ``/`` (links), ``/projector``, ``/teacher`` (PIN, then the teacher's page),
``/join`` and ``/student``, ``/handouts`` and ``/handouts/N``, ``/health`` and ``/metrics``
(which ``[companion] allow`` may restrict), ``/ws`` (the pages' live state), ``/static/...``
and the ``/api/...`` requests the pages make. Every request that changes something carries
the page's CSRF token in ``X-CSRF-Token``; every answer to a bad one is ``{"error": TEXT}``.
"""

from __future__ import annotations

import asyncio
import csv
import fcntl
import io
import json
import logging
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from aiohttp import WSMsgType, web

from kiosk.companion import pages, validate
from kiosk.companion.classroom import TOP, Classroom, Problem
from kiosk.companion.control import CommandQueue, TableControl
from kiosk.companion.health import metrics_text, rows
from kiosk.companion.library import Library
from kiosk.companion.limits import (
    IDLE_S,
    LINGER_S,
    REQUEST_S,
    Gate,
    QuietLoopErrors,
    connection_cap,
    host_is_ours,
    keep_to,
    within,
)
from kiosk.companion.records import ClassRecords
from kiosk.companion.security import (
    COOKIE,
    AllowList,
    PinGuard,
    RateLimit,
    Session,
    Sessions,
    csrf_ok,
    keep_pin,
    kept_pin,
)
from kiosk.companion.validate import InputError
from kiosk.config import CompanionSection, HintBudget
from kiosk.errors import TableError
from kiosk.events import Button, Detail, Event, MenuShown
from kiosk.store import ClassAnswer

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PUSH_MS = 40  # the pages are sent what the table did at most this often
VOTES_PUSH_MS = 250  # and the votes' spread (and other changes of the server's own) this often
COMMAND_TIMEOUT_S = 5.0  # the table's loop runs a command within a turn or two
MAX_PAGES = 300  # live pages at once; more are refused
INBOX = 20_000  # events waiting for the server; beyond this the oldest are dropped
PROGRESS_PAGE = 50  # learners on one page of the teacher's progress view
IGNORED = (MenuShown, Button, Detail)  # the table's own menus and buttons: not for the pages
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class CompanionError(TableError, RuntimeError):
    """The companion cannot start (the address is taken, the interface has no address...)."""


def interface_address(name: str) -> str:
    """The IPv4 address of a network interface (``wlan0``), or the address itself."""
    try:
        socket.inet_pton(socket.AF_INET6 if ":" in name else socket.AF_INET, name)
        return name
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(
                probe.fileno(),
                0x8915,
                struct.pack("256s", name[:15].encode()),  # SIOCGIFADDR
            )
        except OSError as err:
            raise CompanionError(
                f"the interface {name} has no IPv4 address ({err.strerror}); is it connected?"
            ) from None
    return socket.inet_ntoa(packed[20:24])


class _Page:
    """One live page: its WebSocket, and the latest state it has not been sent yet. The
    board's SVG goes with a state only when the page has not had that board yet."""

    def __init__(self, ws: web.WebSocketResponse, kind: str, session: Session | None) -> None:
        self.ws = ws
        self.kind = kind  # projector, teacher, student
        self.session = session
        self.latest: tuple[str, str, str] | None = None  # (state JSON, board key, board SVG)
        self.board_key = ""  # the board the page has
        self.ready = asyncio.Event()

    def offer(self, state: str, board_key: str, board: str) -> None:
        self.latest = (state, board_key, board)
        self.ready.set()

    async def send_forever(self) -> None:
        while not self.ws.closed:
            await self.ready.wait()
            self.ready.clear()
            latest, self.latest = self.latest, None
            if latest is None:
                continue
            state, key, board = latest
            if key != self.board_key:
                self.board_key = key
                state = f'{state[:-1]},"board":{json.dumps(board)}}}'
            await self.ws.send_str(state)


class CompanionServer:
    """The web companion of one table (see the module docstring)."""

    def __init__(
        self,
        settings: CompanionSection,
        control: TableControl,
        *,
        store: ClassRecords | None = None,
        clock: Callable[[], float] = time.monotonic,
        name: str = "Backgammon Table",
    ) -> None:
        self.settings = settings
        self.control = control
        self.store = store
        self.clock = clock
        self.name = name
        self.commands = CommandQueue()
        self.library = Library(())
        self.room = Classroom(self.library, settings.join_minutes)
        self.sessions = Sessions()
        self.pin = PinGuard(
            settings.teacher_pin, kept=kept_pin(store), keep=keep_pin(store), now=clock()
        )
        self.votes = RateLimit(burst=4, every=2.0)
        self.joins = RateLimit(burst=40, every=2.0)  # a class joins at once from one NAT
        self.allow = AllowList(settings.allow)
        self.pages: set[_Page] = set()
        self.acted = 0  # the teacher's actions so far
        self.url = ""
        self.port = 0  # the port it listens on, once started
        self.votes_cast = 0
        self._inbox: deque[Event] = deque(maxlen=INBOX)
        self._armed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._table: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="companion-worker")
        self._ranking: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._last_push = 0.0
        # the class's roll whose vote is being prepared
        self._auto_key: tuple[Any, ...] | None = None
        self.gate = Gate(connection_cap())  # connections at once, overall and per address
        self.loop_errors = QuietLoopErrors()

    # -- the table's side ------------------------------------------------------------------

    def follow(self, event: Event) -> None:
        """An event of the table (the bus's subscriber: queued, nothing more)."""
        loop = self._loop
        if loop is None or isinstance(event, IGNORED):
            return
        self._inbox.append(event)
        if not self._armed:
            self._armed = True
            try:
                loop.call_soon_threadsafe(self._poke)
            except RuntimeError:  # the server's loop has stopped
                pass

    # -- life cycle ------------------------------------------------------------------------

    def start(self, timeout: float = 15.0) -> str:
        """Listen on ``[companion] address`` and ``port``; the pages' address. Raises
        :class:`CompanionError` in words if that cannot be done."""
        host = interface_address(self.settings.address)
        started = threading.Event()
        problem: list[str] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._open(host))
            except Exception as err:  # said to the caller in words
                problem.append(str(err))
                started.set()
                loop.close()
                return
            started.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shut())
                loop.close()

        self._thread = threading.Thread(target=run, name="companion", daemon=True)
        self._thread.start()
        if not started.wait(timeout):
            raise CompanionError("the companion did not start in time")
        if problem:
            self._thread.join(5)
            raise CompanionError(f"cannot listen on {host} port {self.settings.port}: {problem[0]}")
        return self.url

    async def _open(self, host: str) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop.set_exception_handler(self.loop_errors)
        self._wake = asyncio.Event()  # anything for the pages
        self._table = asyncio.Event()  # an event from the table
        app = web.Application(middlewares=[self._guard], client_max_size=16 * 1024)
        self._routes(app)
        self._runner = web.AppRunner(
            app,
            access_log=None,
            handle_signals=False,
            keepalive_timeout=IDLE_S,
            lingering_time=LINGER_S,  # a body still trickling in after its answer: not 10 s
        )
        await self._runner.setup()
        keep_to(self._runner.server, self.gate)
        site = web.TCPSite(self._runner, host, self.settings.port, reuse_address=True)
        await site.start()
        bound = self._runner.addresses[0]
        shown = socket.gethostname() if host in ("0.0.0.0", "::") else bound[0]
        self.url = f"http://{shown}:{bound[1]}"
        self.port = bound[1]
        self._loaded = self._spawn(self._warm())
        self._spawn(self._pump())

    async def _warm(self) -> Library:
        """Read the lessons on the worker (the pages name them, the teacher picks from them)."""
        library = await self._work(Library.load)
        self.library = self.room.library = library
        return cast("Library", library)

    async def lessons(self) -> Library:
        """The lessons, once they are read."""
        return await asyncio.shield(self._loaded)

    def stop(self) -> None:
        """Stop listening and close every page (the table goes on)."""
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
        self._loop = None
        self._worker.shutdown(wait=False, cancel_futures=True)

    async def _shut(self) -> None:
        for page in list(self.pages):
            await page.ws.close()
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()

    def _spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _work(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn, *args)

    # -- events in, state out --------------------------------------------------------------

    def _poke(self) -> None:
        assert self._wake is not None and self._table is not None
        self._table.set()
        self._wake.set()

    def touch(self) -> None:
        """Something the pages show changed on the table's side outside its events: push
        it (from any thread)."""
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self.changed)
            except RuntimeError:  # the server's loop has stopped
                pass

    def changed(self) -> None:
        """Something the pages show changed on the server's side: push it."""
        if self._wake is not None:
            self._wake.set()

    async def _pump(self) -> None:
        assert self._wake is not None and self._table is not None
        await self.lessons()  # a lesson's events are read with its file
        while True:
            await self._wake.wait()
            since = time.monotonic() - self._last_push
            if not self._inbox and since < VOTES_PUSH_MS / 1000:
                # only the server's own changes (votes): gathered, unless the table speaks
                self._table.clear()
                try:
                    await asyncio.wait_for(self._table.wait(), VOTES_PUSH_MS / 1000 - since)
                except TimeoutError:
                    pass
                since = time.monotonic() - self._last_push
            if since < PUSH_MS / 1000:  # the pages were sent the state a moment ago
                await asyncio.sleep(PUSH_MS / 1000 - since)
            self._wake.clear()
            self._armed = False  # before the queue is read: a later event wakes the loop
            now = self.clock()
            while self._inbox:
                try:
                    event = self._inbox.popleft()
                except IndexError:
                    break
                try:
                    self.room.apply(event, now)
                except Exception:  # an event the pages cannot show never stops them
                    log.exception("companion: cannot fold %r", event)
            self._class_turn()
            self._last_push = time.monotonic()
            self._push()

    def _push(self) -> None:
        if not self.pages:
            return
        now = self.clock()
        board = self.room.board()
        key = self.room.board_key()
        public = json.dumps(self.room.state(now))
        teacher = ""
        for page in list(self.pages):
            if page.kind == "teacher":
                teacher = teacher or json.dumps(self.room.teacher())
                text = f'{{"type":"state","state":{public},"teacher":{teacher}}}'
            elif page.kind == "student":
                text = f'{{"type":"state","state":{public},"me":{json.dumps(self._me(page))}}}'
            else:
                text = f'{{"type":"state","state":{public}}}'
            page.offer(text, key, board)

    def _me(self, page: _Page) -> dict[str, Any]:
        session = page.session
        student = self.room.students.get(session.device) if session else None
        vote = self.room.vote
        choice = vote.votes.get(session.device) if vote and session else None
        if student is None:
            return {"joined": False}
        return {
            "joined": True,
            "name": student.name,
            "choice": choice,
            "answered": student.answered,
            "right": student.right,
        }

    # -- the class's turn in its game against the teacher ----------------------------------

    def _class_turn(self) -> None:
        room = self.room
        problem = room.problem
        if room.class_side is None or problem is None or not room.join.class_id:
            return
        if str(problem.position.turn) != room.class_side or room.view.mode != "game":
            return
        vote = room.vote
        if vote is not None and vote.problem is not None and vote.problem.key == problem.key:
            return
        if self._auto_key == problem.key:
            return  # its vote is being prepared
        self._auto_key = problem.key
        self._spawn(self._class_vote(problem))

    async def _class_vote(self, problem: Problem) -> None:
        await self._rank(problem)
        room = self.room
        if room.problem is not None and room.problem.key == problem.key:
            vote = room.vote
            if vote is None or vote.problem is None or vote.problem.key != problem.key:
                try:
                    room.start_vote("top")
                except InputError as err:
                    room.status = str(err)
                self.changed()

    async def _rank(self, problem: Problem) -> None:
        """The ranked plays of ``problem`` from the worker, once however often asked."""
        if self.room.ranking_key == problem.key:
            return
        pending = self._ranking.get(problem.key)
        if pending is None:
            pending = asyncio.ensure_future(
                self._work(self.control.ranked_plays, problem.position, problem.dice, TOP)
            )
            self._ranking[problem.key] = pending
        try:
            ranking = await pending
        except Exception as err:  # the coach's trouble is said on the teacher's page
            log.warning("companion: ranking failed: %s", err)
            if self.room.problem is not None and self.room.problem.key == problem.key:
                self.room.ranking_error = f"The plays could not be ranked: {err}"
            self.changed()
            return
        finally:
            self._ranking.pop(problem.key, None)
        self.room.ranked(problem, ranking)
        self.changed()

    # -- the requests ----------------------------------------------------------------------

    def _routes(self, app: web.Application) -> None:
        get, post = app.router.add_get, app.router.add_post
        get("/", self.index)
        get("/projector", self.projector)
        get("/teacher", self.teacher)
        get("/teacher/progress.csv", self.progress_csv)
        get("/join", self.join_page)
        get("/student", self.student_page)
        get("/handouts", self.handouts)
        get("/handouts/{lesson}", self.handout)
        get("/health", self.health)
        get("/metrics", self.metrics)
        get("/ws", self.websocket)
        get("/static/{name}", self.static)
        post("/api/login", self.login)
        post("/api/logout", self.logout)
        post("/api/join", self.join)
        post("/api/vote", self.vote)
        get("/api/me", self.me)
        get("/api/teacher/progress", self.progress)
        teacher = {
            "class/open": self.t_open,
            "class/renew": self.t_renew,
            "class/close": self.t_close,
            "lesson": self.t_lesson,
            "lesson/leave": self.t_leave,
            "learner/hints": self.t_hints,
            "opening": self.t_opening,
            "position": self.t_position,
            "rank": self.t_rank,
            "show": self.t_show,
            "vote": self.t_vote,
            "reveal": self.t_reveal,
            "class-game": self.t_class_game,
        }
        for path, handler in teacher.items():
            post(f"/api/teacher/{path}", self._teacher_only(handler))

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        """Security headers on every answer; a bad request gets one line, never a trace."""
        try:
            if not self._our_host(request.host):
                raise web.HTTPMisdirectedRequest(
                    reason="This table answers to its own address only (the Host was not it)."
                )
            if request.path == "/ws":
                response = await handler(request)
            else:  # a request's body sent slowly holds its connection this long at most
                response = await within(REQUEST_S, request, handler)
        except InputError as err:
            if request.path.startswith("/api/"):
                response = _error(400, str(err))
            else:
                response = web.Response(
                    status=400, text=pages.message("That page", str(err)), content_type="text/html"
                )
        except web.HTTPException as err:
            if err.status >= 400 and request.path.startswith("/api/"):
                response = _error(err.status, err.reason)
            elif err.status >= 400:
                response = web.Response(
                    status=err.status,
                    text=pages.message(f"{err.status}", err.reason),
                    content_type="text/html",
                )
            else:
                raise
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("companion: %s %s failed", request.method, request.path)
            response = _error(500, "The table could not answer that; it goes on as before.")
        if not isinstance(response, web.WebSocketResponse):
            for key, value in SECURITY_HEADERS.items():
                response.headers.setdefault(key, value)
            response.headers["Server"] = "Backgammon Table"  # no versions for a stranger
        return cast("web.StreamResponse", response)

    def _our_host(self, host: str | None) -> bool:
        """Whether a request's ``Host`` names this table (an address, ``localhost``, its
        name): a page of another site whose name was pointed at the table's address (DNS
        rebinding) names its own, and is refused."""
        return host_is_ours(host or "", self.settings.address)

    def _busy(self) -> set[str]:
        """The sessions with a page open (never ended to make room for new ones)."""
        return {page.session.id for page in self.pages if page.session is not None}

    def _session(self, request: web.Request) -> Session | None:
        return self.sessions.get(request.cookies.get(COOKIE), self.clock())

    def _visitor(self, request: web.Request) -> tuple[Session, bool]:
        """The request's session, or a new visitor's (True: its cookie must be set)."""
        session = self._session(request)
        if session is not None:
            return session, False
        return self.sessions.new("visitor", self.clock()), True

    def _html(self, text: str, session: Session | None = None) -> web.Response:
        response = web.Response(text=text, content_type="text/html")
        if session is not None:
            _set_cookie(response, session)
        return response

    async def _form(self, request: web.Request) -> tuple[Session, dict[str, Any]]:
        """A state-changing request's session and fields: refused without its CSRF token."""
        session = self._session(request)
        if not csrf_ok(session, request.headers.get("X-CSRF-Token")):
            raise web.HTTPForbidden(
                reason="This request lacks the page's security token: reload the page."
            )
        origin = request.headers.get("Origin")
        if origin and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(reason="This request came from another site.")
        try:
            data = await request.json() if request.can_read_body else {}
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise InputError("The request is not readable (JSON expected).") from None
        if not isinstance(data, dict):
            raise InputError("The request is not readable (a JSON object expected).")
        assert session is not None
        return session, data

    def _teacher_only(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        async def guarded(request: web.Request) -> web.StreamResponse:
            session, data = await self._form(request)
            if session.role != "teacher":
                raise web.HTTPUnauthorized(reason="Log in as the teacher first.")
            self.acted += 1  # the teacher is with the table: it stays awake
            return cast("web.StreamResponse", await handler(data))

        return guarded

    # -- pages -----------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        return self._html(
            pages.index(
                [
                    ("/projector", "The projector", "the live board for the class"),
                    ("/teacher", "The teacher's page", "with the teacher's PIN"),
                    ("/join", "Join the class", "with the code on the projector"),
                    ("/handouts", "Handouts", "a printable page a lesson"),
                    ("/health", "Health", "for whoever looks after the table"),
                ]
            )
        )

    async def projector(self, request: web.Request) -> web.Response:
        return self._html(pages.projector())

    async def teacher(self, request: web.Request) -> web.Response:
        session, new = self._visitor(request)
        text = (
            pages.teacher(session.csrf, await self.lessons())
            if session.role == "teacher"
            else pages.login(session.csrf)
        )
        return self._html(text, session if new else None)

    async def join_page(self, request: web.Request) -> web.Response:
        session, new = self._visitor(request)
        if session.role == "student" and session.class_id == self.room.join.class_id:
            raise web.HTTPSeeOther("/student")
        return self._html(pages.join(session.csrf), session if new else None)

    async def student_page(self, request: web.Request) -> web.Response:
        session = self._session(request)
        if not self._in_class(session):
            raise web.HTTPSeeOther("/join")
        assert session is not None
        return self._html(pages.student(session.csrf, session.name))

    def _in_class(self, session: Session | None) -> bool:
        return (
            session is not None
            and session.role == "student"
            and bool(session.class_id)
            and session.class_id == self.room.join.class_id
            and session.device in self.room.students
        )

    async def handouts(self, request: web.Request) -> web.Response:
        return self._html(pages.handouts(await self.lessons()))

    async def handout(self, request: web.Request) -> web.Response:
        number = validate.number(request.match_info["lesson"], "The lesson", 1, 999)
        lesson = (await self.lessons()).lesson(str(number))
        return self._html(await self._work(pages.handout, lesson))

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        kinds = {".js": "text/javascript", ".css": "text/css"}
        if len(name) > 100 or "/" in name or name.startswith("."):
            raise web.HTTPNotFound(reason="There is no such file.")
        path = STATIC / name
        if path.suffix not in kinds or not path.is_file():
            raise web.HTTPNotFound(reason="There is no such file.")
        return web.Response(
            body=path.read_bytes(), content_type=kinds[path.suffix], charset="utf-8"
        )

    # -- health ----------------------------------------------------------------------------

    def _allowed(self, request: web.Request) -> None:
        if not self.allow.permits(request.remote):
            raise web.HTTPForbidden(reason="This address may not read the table's health.")

    async def _facts(self) -> dict[str, Any]:
        facts = dict(await self._work(self.control.health))
        last = self.room.last_board
        facts["last_frame_age_s"] = None if last is None else max(0.0, self.clock() - last)
        kinds = [page.kind for page in self.pages]
        facts["companion"] = {
            "clients": {k: kinds.count(k) for k in ("projector", "teacher", "student")},
            "votes": self.votes_cast,
            "connections": self.gate.open,
            "refused": self.gate.refused,
        }
        return facts

    async def health(self, request: web.Request) -> web.Response:
        self._allowed(request)
        return self._html(pages.health(rows(await self._facts()), self.name))

    async def metrics(self, request: web.Request) -> web.Response:
        self._allowed(request)
        text = metrics_text(await self._facts())
        return web.Response(
            text=text,
            content_type="text/plain",
            charset="utf-8",
            headers={"X-Prometheus-Format": "0.0.4"},
        )

    # -- the live state --------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(reason="This page came from another site.")
        kind = request.query.get("page", "projector")
        session = self._session(request)
        if kind == "teacher" and (session is None or session.role != "teacher"):
            raise web.HTTPUnauthorized(reason="Log in as the teacher first.")
        if kind == "student" and not self._in_class(session):
            raise web.HTTPUnauthorized(reason="Join the class first.")
        if kind not in ("projector", "teacher", "student"):
            raise InputError("The page is projector, teacher or student.")
        if len(self.pages) >= MAX_PAGES:
            raise web.HTTPServiceUnavailable(reason="Too many pages are open on this table.")
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=1024, compress=False)
        await ws.prepare(request)
        page = _Page(ws, kind, session)
        self.pages.add(page)
        sender = self._spawn(page.send_forever())
        self.changed()
        try:
            async for message in ws:  # the pages only listen; anything they send is ignored
                if message.type == WSMsgType.ERROR:
                    break
        finally:
            self.pages.discard(page)
            sender.cancel()
        return ws

    # -- logging in, joining, voting -------------------------------------------------------

    async def login(self, request: web.Request) -> web.Response:
        session, data = await self._form(request)
        attempt = validate.pin(data.get("pin"))
        ok, wait = self.pin.check(attempt, request.remote or "?", self.clock())
        if not ok:
            if wait:
                return _error(429, f"Too many wrong PINs: wait {wait} seconds, then try again.")
            return _error(403, "That PIN is not right.")
        self.sessions.end(session)
        teacher = self.sessions.new("teacher", self.clock(), busy=self._busy())
        response = web.json_response({"ok": True})
        _set_cookie(response, teacher)
        return response

    async def logout(self, request: web.Request) -> web.Response:
        session, _ = await self._form(request)
        self.sessions.end(session)
        response = web.json_response({"ok": True})
        response.del_cookie(COOKIE, path="/")
        return response

    async def join(self, request: web.Request) -> web.Response:
        session, data = await self._form(request)
        if not self.joins.allow(request.remote or "?", self.clock()):
            return _error(429, "Too many tries from this device: wait a minute.")
        code = validate.join_code(data.get("code"))
        name = validate.name(data.get("name"))
        if not self.room.join.valid(code, self.clock()):
            return _error(403, "That code does not open a class now: check the projector.")
        self.sessions.end(session)
        student = self.sessions.new(
            "student", self.clock(), busy=self._busy(), class_id=self.room.join.class_id
        )
        live = self.sessions.devices("student")  # a session ended for a newer one: its
        for device in [d for d in self.room.students if d not in live]:  # place goes too
            del self.room.students[device]
        joined = self.room.add_student(student.device, name)
        student.name = joined.name
        self.changed()
        response = web.json_response({"ok": True, "name": joined.name})
        _set_cookie(response, student)
        return response

    async def vote(self, request: web.Request) -> web.Response:
        session, data = await self._form(request)
        if not self._in_class(session):
            return _error(401, "Your class has ended or you have not joined: join again.")
        assert session is not None
        if not self.votes.allow(session.device, self.clock()):
            return _error(429, "You are voting too fast: wait a moment, then vote again.")
        vote = self.room.vote
        choice = validate.choice(data.get("choice"), len(vote.options) if vote else 0)
        if vote is None or data.get("vote") != vote.id:
            raise InputError("That vote is over: look at the new one.")
        self.room.cast(session.device, choice)
        self.votes_cast += 1
        self.changed()
        return web.json_response({"ok": True, "choice": choice})

    async def me(self, request: web.Request) -> web.Response:
        session = self._session(request)
        if not self._in_class(session):
            return _error(401, "Your class has ended or you have not joined: join again.")
        assert session is not None
        name = self.room.students[session.device].name
        await self.lessons()
        answers, lessons = await self._work(self._progress_of, name)
        return web.json_response({"name": name, "answers": answers, "lessons": lessons})

    def _progress_of(self, name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if self.store is None:
            return [], []
        answers = [
            {"question": a.question, "answer": a.answer, "best": a.best, "correct": a.correct}
            for a in self.store.class_answers(name)
        ]
        lessons = self._lessons_of(self.store.lesson_progress(name))
        return answers, lessons

    def _lessons_of(self, progress: dict[str, tuple[int, bool]]) -> list[dict[str, Any]]:
        out = []
        for lesson_id, (step, done) in progress.items():
            lesson = self.library.by_id(lesson_id)
            out.append(
                {
                    "lesson": lesson.info.number if lesson else lesson_id,
                    "title": lesson.title if lesson else lesson_id,
                    "step": step,
                    "steps": len(lesson.steps) if lesson else None,
                    "done": done,
                }
            )
        return sorted(out, key=lambda x: str(x["lesson"]).zfill(3))

    # -- the teacher's progress view -------------------------------------------------------

    def _teacher_session(self, request: web.Request) -> None:
        session = self._session(request)
        if session is None or session.role != "teacher":
            raise web.HTTPUnauthorized(reason="Log in as the teacher first.")

    async def progress(self, request: web.Request) -> web.Response:
        """One page of the learners' progress (``?page=N``, from 1; ``PROGRESS_PAGE``
        learners a page, by name): only that page's rows are read, off the table's loop."""
        self._teacher_session(request)
        try:
            page = max(1, int(request.query.get("page", "1")))
        except ValueError:
            raise InputError("The page is a number, from 1.") from None
        await self.lessons()
        total, learners = await self._work(self._learners, page)
        pages = max(1, -(-total // PROGRESS_PAGE))
        return web.json_response(
            {"learners": learners, "page": page, "pages": pages, "total": total}
        )

    def _learners(self, page: int = 1) -> tuple[int, list[dict[str, Any]]]:
        """How many learners there are, and those of one page with their progress."""
        if self.store is None:
            return 0, []
        total, names = self.store.learners((page - 1) * PROGRESS_PAGE, PROGRESS_PAGE)
        records, answers = self.store.progress_of(names)
        learners: dict[str, dict[str, Any]] = {
            name: {"lessons": {}, "answers": []} for name in names
        }
        for record in records:
            learners[record.player_slot]["lessons"][record.lesson_id] = (record.step, record.done)
        for answer in answers:
            learners[answer.student]["answers"].append(
                {
                    "question": answer.question,
                    "answer": answer.answer,
                    "best": answer.best,
                    "correct": answer.correct,
                }
            )
        return total, [
            {
                "name": name,
                "lessons": self._lessons_of(entry["lessons"]),
                "answers": entry["answers"],
                "right": sum(a["correct"] for a in entry["answers"]),
            }
            for name, entry in learners.items()
        ]

    async def progress_csv(self, request: web.Request) -> web.Response:
        self._teacher_session(request)
        text = await self._work(self._csv)
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        return web.Response(
            text=text,
            content_type="text/csv",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="progress-{stamp}.csv"'},
        )

    def _csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "learner",
                "kind",
                "lesson",
                "step",
                "done",
                "question",
                "position",
                "dice",
                "answer",
                "best",
                "correct",
                "equity_loss",
                "at",
            ]
        )
        if self.store is not None:
            for r in self.store.all_lesson_progress():
                writer.writerow(
                    [
                        _cell(r.player_slot),
                        "lesson",
                        r.lesson_id,
                        r.step,
                        int(r.done),
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        r.updated,
                    ]
                )
            for a in self.store.class_answers():
                loss = "" if a.equity_loss is None else f"{a.equity_loss:.4f}"
                writer.writerow(
                    [
                        _cell(a.student),
                        "answer",
                        "",
                        "",
                        "",
                        _cell(a.question),
                        a.position,
                        f"{a.dice[0]}-{a.dice[1]}" if a.dice else "",
                        _cell(a.answer),
                        _cell(a.best),
                        int(a.correct),
                        loss,
                        a.at,
                    ]
                )
        return out.getvalue()

    # -- the teacher's commands ------------------------------------------------------------

    async def _command(self, name: str, *args: Any) -> str | None:
        """Run a command on the table's loop; its problem in words, or None."""
        future = self.commands.put(name, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), COMMAND_TIMEOUT_S)
        except TimeoutError:
            future.cancel()
            return "The table did not answer in time: is it running?"

    def _done(self, text: str, problem: str | None = None) -> web.Response:
        self.room.status = problem or text
        self.changed()
        if problem:
            return _error(409, problem)
        return web.json_response({"ok": True, "status": text})

    async def t_open(self, data: dict[str, Any]) -> web.Response:
        code = self.room.open_class(self.clock())
        self.sessions.end_students()
        return self._done(f"The class is open: the code is {code}.")

    async def t_renew(self, data: dict[str, Any]) -> web.Response:
        if not self.room.join.class_id:
            raise InputError("Open a class first.")
        code = self.room.join.renew(self.clock())
        return self._done(f"The new code is {code}.")

    async def t_close(self, data: dict[str, Any]) -> web.Response:
        self.room.close_class()
        self.sessions.end_students()
        for page in list(self.pages):
            if page.kind == "student":
                await page.ws.close(message=b"the class is over")
        return self._done("The class is over: the code no longer works.")

    async def t_lesson(self, data: dict[str, Any]) -> web.Response:
        number = validate.number(data.get("lesson"), "The lesson", 1, 999)
        lesson = (await self.lessons()).lesson(str(number))
        step = None
        if data.get("step") not in (None, ""):
            step = validate.number(data.get("step"), "The step", 1, len(lesson.steps))
        learner = validate.name(data.get("learner") or "class", "The learner")
        problem = await self._command("start_lesson", lesson.id, step, learner)
        where = f"step {step}" if step else "where the learner left it"
        return self._done(f"Lesson {lesson.info.number} is on the table, from {where}.", problem)

    async def t_hints(self, data: dict[str, Any]) -> web.Response:
        learner = validate.name(data.get("learner"), "The learner")
        hints = str(data.get("hints") or "").strip() or None  # none: as the table is set
        try:
            budget = None if hints is None else str(HintBudget.parse(hints))
        except ValueError as err:
            raise InputError(str(err)) from None
        problem = await self._command("set_learner_hints", learner, budget)
        said = "as the table is set" if budget is None else budget
        return self._done(f"{learner}'s hints: {said}.", problem)

    async def t_leave(self, data: dict[str, Any]) -> web.Response:
        problem = await self._command("leave_lesson")
        return self._done("The lesson is left; the table shows its Lessons menu.", problem)

    async def t_opening(self, data: dict[str, Any]) -> web.Response:
        d1, d2 = validate.opening(data.get("throw"))
        library = await self.lessons()
        lesson_id, step = library.opening(d1, d2)
        problem = await self._command("start_lesson", lesson_id, step, "class")
        number = library.lesson(lesson_id).info.number
        return self._done(
            f"The opening throw {d1}-{d2} is on the table (lesson {number}, step {step}).",
            problem,
        )

    def _position_of(self, data: dict[str, Any]) -> tuple[Any, tuple[int, int]]:
        position = validate.position(data.get("position"), data.get("turn") or "white")
        d1 = validate.number(data.get("d1"), "The first die", 1, 6)
        d2 = validate.number(data.get("d2"), "The second die", 1, 6)
        return position, (d1, d2)

    async def t_position(self, data: dict[str, Any]) -> web.Response:
        position, dice = self._position_of(data)
        go = data.get("go", "table")
        problem_room = self.room.teacher_problem(position, dice)
        self._spawn(self._rank(problem_room))
        if go == "rank":
            return self._done(f"Ranking {problem_room.label} (the table is left as it is).")
        problem = await self._command("show_position", position, dice)
        text = f"Lay out {position.position_id()} on the table; {dice[0]}-{dice[1]} follows."
        return self._done(text, problem)

    async def t_rank(self, data: dict[str, Any]) -> web.Response:
        problem = self.room.problem
        if problem is None:
            raise InputError("There is no roll in question: throw the dice or set a position up.")
        await self._rank(problem)
        if self.room.ranking_error:
            return _error(409, self.room.ranking_error)
        return self._done(f"The ranked plays of {problem.label} are ready.")

    async def t_show(self, data: dict[str, Any]) -> web.Response:
        on = str(data.get("on", "1")) == "1"
        if on and self.room.current_ranking() is None:
            raise InputError("Ask for the ranked plays first.")
        self.room.revealed = on
        self.room.seq += 1
        return self._done("The best plays are on the projector." if on else "The plays are hidden.")

    async def t_vote(self, data: dict[str, Any]) -> web.Response:
        source = data.get("source", "top")
        if source not in ("top", "legal", "question"):
            raise InputError("A vote is on the top plays, every legal play, or the question.")
        if source == "top" and self.room.problem is not None:
            await self._rank(self.room.problem)
        vote = self.room.start_vote(source)
        self.room.revealed = False
        return self._done(f"The vote is open: {len(vote.options)} choices.")

    async def t_reveal(self, data: dict[str, Any]) -> web.Response:
        vote = self.room.vote
        if vote is not None and vote.kind == "play" and vote.problem is not None:
            await self._rank(vote.problem)
        vote = self.room.reveal()
        if not vote.kept:
            vote.kept = True
            await self._work(self._keep, vote)
        return self._done(f"The best: {vote.best}.")

    def _keep(self, vote: Any) -> None:
        """The answers of a revealed vote, into the store (each student's choice)."""
        if self.store is None:
            return
        ranking = self.room.current_ranking() if vote.kind == "play" else None
        losses = {c.move: c.loss for c in ranking.candidates} if ranking else {}
        problem = vote.problem
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        for device, choice in vote.votes.items():
            student = self.room.students.get(device)
            if student is None:
                continue
            answer = vote.options[choice]
            try:
                self.store.save_class_answer(
                    ClassAnswer(
                        class_id=self.room.join.class_id,
                        student=student.name,
                        question=vote.question,
                        position=problem.position.position_id() if problem else "",
                        dice=problem.dice if problem else None,
                        answer=answer,
                        best=vote.best,
                        correct=answer == vote.best,
                        equity_loss=losses.get(answer),
                        at=at,
                    )
                )
            except Exception as err:  # the store says what is wrong in words
                log.error("companion: the answers could not be kept: %s", err)
                self.room.status = f"The answers could not be saved: {err}"
                return

    async def t_class_game(self, data: dict[str, Any]) -> web.Response:
        side = validate.colour(data.get("side"), "The class's side")
        if not self.room.join.class_id:
            raise InputError("Open the class first: the students vote on its plays.")
        problem = await self._command("class_game", side)
        if problem is None:
            self.room.class_plays(str(side))
        return self._done(
            f"A new game: the class plays {side}, the teacher {side.other}; the coach is on.",
            problem,
        )


def _cell(text: str) -> str:
    """A CSV cell that a spreadsheet will not take for a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def _error(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


def _set_cookie(response: web.StreamResponse, session: Session) -> None:
    response.set_cookie(COOKIE, session.id, httponly=True, samesite="Strict", path="/")
