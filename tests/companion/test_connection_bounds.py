"""Issue 36 item 1: about 1,100 idle connections, no login, exhausted the kiosk's 1,024
descriptors in 3.4 s; the store then took "Too many open files" for damage and moved the
healthy records aside, refused writes for good, and asyncio logged a traceback per accept.

Here ``kiosk run`` is started as the service starts it, on a simulated table, the companion on
a free loopback port, under a descriptor limit of 1,024; 1,100 connections (half idle, half
with a request's head half sent) are held for some seconds while the table plays, then
closed. Every connection is to 127.0.0.1, the count fixed, the hold bounded in time."""

from __future__ import annotations

import errno
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from kiosk.companion.limits import RESERVED_FDS, Gate, QuietLoopErrors, connection_cap
from kiosk.simtable import SimulatedTable

ROOT = Path(__file__).resolve().parents[2]
CONNECTIONS = 1100
HOLD_S = 8.0
LIMIT = 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _limit_descriptors() -> None:  # in the child, as `ulimit -n 1024` before `kiosk run`
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def _health(port: int, timeout: float) -> float:
    """Seconds /health took to answer 200."""
    started = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=timeout) as reply:
        assert reply.status == 200
    return time.monotonic() - started


def _until_listening(
    port: int, kiosk: subprocess.Popen[str], log: Path, seconds: float = 90
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert kiosk.poll() is None, log.read_text()[-3000:]
        try:
            _health(port, 2.0)
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the companion did not answer in time: {log.read_text()[-3000:]}")


def _open_many(port: int) -> list[socket.socket]:
    """``CONNECTIONS`` non-blocking connections (never waiting on a full backlog)."""
    held = []
    for _ in range(CONNECTIONS):
        s = socket.socket()
        s.setblocking(False)
        code = s.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS, errno.EAGAIN):
            s.close()
            continue
        held.append(s)
    return held


def test_a_thousand_idle_connections_never_move_the_records_aside(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < CONNECTIONS + 200:
        pytest.skip(f"this test holds {CONNECTIONS} sockets; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, CONNECTIONS + 200), hard))
    port = _free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        f'[companion]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n'
        'teacher_pin = "48151623"\n'
    )
    db = tmp_path / "games.sqlite3"
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        HOME=str(tmp_path),
        BACKGAMMON_TABLE_DB=str(db),
        PYTHONUNBUFFERED="1",
    )
    env.pop("BACKGAMMON_TABLE_CONFIG", None)
    log = tmp_path / "kiosk.log"
    held: list[socket.socket] = []
    with SimulatedTable(realtime=True) as sim, open(log, "w") as out:
        kiosk = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk",
                "run",
                "--config",
                str(config),
                "--port",
                sim.port_name,
            ],  # fmt: skip
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=tmp_path,
            env=env,
            preexec_fn=_limit_descriptors,
        )
        try:
            _until_listening(port, kiosk, log)
            held = _open_many(port)
            time.sleep(1.0)
            for s in held[::2]:  # half of them: a request's head, never finished
                try:
                    s.send(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                except OSError:
                    continue
            deadline = time.monotonic() + HOLD_S
            throws = 0
            while time.monotonic() < deadline:  # the table goes on: dice thrown and taken up
                sim.throw()
                time.sleep(0.5)
                sim.clear_dice()
                time.sleep(0.5)
                throws += 1
            assert kiosk.poll() is None, log.read_text()[-3000:]
        finally:
            for s in held:
                s.close()
        try:
            answered = None
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and answered is None:
                try:
                    answered = _health(port, 1.0)
                except OSError:
                    time.sleep(0.1)
            assert answered is not None and answered < 1.0, answered
        finally:
            kiosk.send_signal(signal.SIGTERM)
            try:
                kiosk.wait(30)
            except subprocess.TimeoutExpired:
                kiosk.kill()
                kiosk.wait()
    text = log.read_text(errors="replace")
    aside = [p.name for p in tmp_path.iterdir() if "damaged" in p.name]
    assert aside == [], text[-3000:]
    assert "refused" not in text.replace("connections refused", ""), text[-3000:]
    assert "not saved" not in text and "is damaged" not in text, text[-3000:]
    assert len(text.splitlines()) < 100 and text.count("Traceback") <= 1, text[-3000:]
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert check.execute("SELECT count(*) FROM games").fetchone()[0] >= 1


def test_the_loops_errors_are_logged_once_a_minute_with_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    quiet = QuietLoopErrors(clock=lambda: now[0])
    err = OSError(errno.EMFILE, "Too many open files")
    for n in range(100_000):  # the attack's rate: accept after accept refused
        now[0] = n * 0.001
        quiet(None, {"message": "socket.accept() out of system resource", "exception": err})
    assert quiet.lines == 2  # the first, with its traceback, then one at the minute
    assert "times in the last minute" in caplog.records[-1].getMessage()


def test_the_gate_keeps_each_address_and_the_whole_below_their_caps() -> None:
    gate = Gate(total=connection_cap(1024), per_address=200)
    kept = sum(gate.admit("127.0.0.1") for _ in range(1100))
    assert kept == 200 and gate.refused == 900
    kept += sum(gate.admit(f"10.0.{n // 250}.{n % 250}") for n in range(1100))
    assert kept == gate.total == 1024 - RESERVED_FDS


def test_the_metrics_count_the_connections_and_those_refused(live) -> None:
    from tests.companion.live import Http

    table = live()
    table.server.gate.refused = 7  # as if seven had come beyond the caps
    status, _, text = Http(table.url).get("/metrics")
    assert status == 200
    assert "companion_connections_refused_total 7.0" in text
    assert "companion_connections " in text


def test_a_request_body_sent_slowly_is_answered_408_and_closed(
    live, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body that trickles in (a byte every quarter second, never all of it) would hold its
    connection for as long as the sender likes; the request is given ``REQUEST_S`` (here
    1.5 s) and then answered 408 and its connection closed. Loopback, one connection, the
    sending stopped after 8 s whatever happens."""
    from kiosk.companion import server as server_module
    from tests.companion.live import Http

    monkeypatch.setattr(server_module, "REQUEST_S", 1.5)
    table = live()
    web = Http(table.url)
    token = web.csrf("/join")
    port = int(table.url.rsplit(":", 1)[1])
    head = (
        "POST /api/join HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\n"
        f"Cookie: {web.cookie}\r\n"
        f"X-CSRF-Token: {token}\r\n"
        "Content-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n"
    )
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head.encode() + b"{")
        s.settimeout(0.25)
        started = time.monotonic()
        closed_at = None
        while time.monotonic() - started < 8.0:
            try:
                s.sendall(b" ")
            except OSError:  # the server closed the connection
                closed_at = time.monotonic() - started
                break
            try:
                got = s.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                closed_at = time.monotonic() - started
                break
            if not got:
                closed_at = time.monotonic() - started
                break
            answer += got
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"took too long to arrive" in answer
    assert closed_at is not None and closed_at < 5.0, closed_at
