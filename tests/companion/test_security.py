"""The companion on a school or museum network: nothing changes without the teacher's
session and the page's CSRF token; the PIN has an attempt limit with a growing wait; a join
code expires; votes are limited per device; every bad input gets one clear error; the health
page and the metrics may be kept to a list of addresses; nothing listens when it is off."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import aiohttp
import pytest

from kiosk.app.companion import attach, switch
from kiosk.companion.server import CompanionServer
from kiosk.config import Config
from tests.companion.live import OPENINGS, PIN, Http

FORBIDDEN_WORDS = ("Traceback", 'File "', "Error:", "aiohttp")
LESSON = str(OPENINGS.info.number)  # the opening throws, by the number the teacher's page sends


def run(coroutine: Any) -> Any:
    """Run a coroutine on a thread of its own (Playwright's loop may run on this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(60)


def one_clear_line(answer: dict) -> str:
    """An error answer: one line of words, nothing from the program's insides."""
    assert set(answer) == {"error"}, answer
    text = answer["error"]
    assert "\n" not in text and 10 <= len(text) <= 160, text
    assert not any(word in text for word in FORBIDDEN_WORDS), text
    return text


def test_nothing_changes_without_the_teachers_session(live) -> None:
    table = live()
    http = Http(table.url)
    # no session, no token: refused before anything is read
    status, answer = http.post("/api/teacher/lesson", {"lesson": LESSON, "step": "4"})
    assert status == 403 and "security token" in one_clear_line(answer)
    # a visitor's session with its own token is still not the teacher
    token = http.csrf("/join")
    status, answer = http.post("/api/teacher/lesson", {"lesson": LESSON, "step": "4"}, token)
    assert status == 401 and one_clear_line(answer) == "Log in as the teacher first."
    status, answer = http.post("/api/teacher/class/open", {}, token)
    assert status == 401
    assert http.get("/teacher/progress.csv")[0] == 401
    assert http.get("/api/teacher/progress")[0] == 401
    assert table.do(lambda h: h.app.lesson) is None
    assert table.server.room.join.code == ""
    # the teacher's live state is not for visitors either
    assert http.get("/ws?page=teacher")[0] == 401
    # the session cookie cannot be read by a page's script nor sent from another site
    status, headers, _ = Http(table.url).request("GET", "/teacher")
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert headers["X-Frame-Options"] == "DENY"


def test_a_request_without_the_csrf_token_is_refused(live) -> None:
    table = live()
    http = Http(table.url)
    token = http.login()
    for wrong in (None, "", "x" * 43, token[:-1] + ("A" if token[-1] != "A" else "B")):
        status, answer = http.post("/api/teacher/class/open", {}, wrong)
        assert status == 403 and "security token" in one_clear_line(answer)
    assert table.server.room.join.code == ""
    # from another site, even with the token (a page there cannot have it, but still)
    status, _, text = http.request(
        "POST",
        "/api/teacher/class/open",
        {},
        {"X-CSRF-Token": token, "Origin": "http://evil.example"},
    )
    assert status == 403 and "another site" in json.loads(text)["error"]
    status, answer = http.post("/api/teacher/class/open", {}, token)
    assert status == 200 and answer["status"].startswith("The class is open")


def test_a_wrong_pin_is_limited_and_backed_off(live) -> None:
    table = live()
    http = Http(table.url)
    token = http.csrf("/teacher")
    answers = [http.post("/api/login", {"pin": "1111"}, token) for _ in range(3)]
    assert [s for s, _ in answers] == [403, 403, 429]
    assert one_clear_line(answers[0][1]) == "That PIN is not right."
    assert one_clear_line(answers[2][1]) == (
        "Too many wrong PINs: wait 30 seconds, then try again."
    )
    # while the wait runs, not even the right PIN is tried
    status, answer = http.post("/api/login", {"pin": PIN}, token)
    assert status == 429 and "wait" in one_clear_line(answer)
    table.clock.advance(31)
    status, answer = http.post("/api/login", {"pin": "9999"}, token)  # one more wrong: 60 s
    assert status == 429 and "wait 60 seconds" in one_clear_line(answer)
    table.clock.advance(61)
    status, _ = http.post("/api/login", {"pin": PIN}, token)
    assert status == 200
    # a new session id at login: the visitor's cookie is not the teacher's
    assert http.post("/api/teacher/class/open", {}, token)[0] == 403
    token = http.csrf("/teacher")
    assert http.post("/api/teacher/class/open", {}, token)[0] == 200


def test_join_codes_expire_with_time_and_with_the_class(live) -> None:
    table = live(join_minutes=30)
    teacher = Http(table.url)
    token = teacher.login()
    teacher.post("/api/teacher/class/open", {}, token)
    code = table.server.room.join.code

    early = Http(table.url)
    status, answer = early.post("/api/join", {"code": code, "name": "Ada"}, early.csrf("/join"))
    assert status == 200 and answer["name"] == "Ada"
    assert early.get("/student")[0] == 200

    table.clock.advance(31 * 60)
    late = Http(table.url)
    status, answer = late.post("/api/join", {"code": code, "name": "Ben"}, late.csrf("/join"))
    assert status == 403
    assert one_clear_line(answer) == "That code does not open a class now: check the projector."

    # a new code; the old one no longer opens the class
    teacher.post("/api/teacher/class/renew", {}, token)
    fresh = table.server.room.join.code
    assert fresh != code
    status, _ = late.post("/api/join", {"code": code, "name": "Ben"}, late.csrf("/join"))
    assert status == 403
    status, _ = late.post("/api/join", {"code": fresh, "name": "Ben"}, late.csrf("/join"))
    assert status == 200

    # the class ends: no code works, and the students' sessions are over
    teacher.post("/api/teacher/class/close", {}, token)
    status, _ = Http(table.url).post(
        "/api/join", {"code": fresh, "name": "Cleo"}, Http(table.url).csrf("/join")
    )
    assert status == 403
    status, answer = early.post("/api/vote", {"vote": 1, "choice": "0"}, "any")
    assert status == 403  # the session is gone, so its token is too
    status, headers, _ = early.request("GET", "/student")
    assert status == 200 and "Join the class" in _  # sent back to the join page


def test_votes_are_limited_per_device(live) -> None:
    table = live()
    teacher = Http(table.url)
    token = teacher.login()
    teacher.post("/api/teacher/class/open", {}, token)
    teacher.post(
        "/api/teacher/position",
        {"position": "4HPwATDgc/ABMA", "turn": "white", "d1": "3", "d2": "1", "go": "rank"},
        token,
    )
    status, answer = teacher.post("/api/teacher/vote", {"source": "legal"}, token)
    assert status == 200, answer
    vote = table.server.room.vote

    student = Http(table.url)
    student.post(
        "/api/join", {"code": table.server.room.join.code, "name": "Ada"}, student.csrf("/join")
    )
    mine = student.csrf("/student")
    answers = [
        student.post("/api/vote", {"vote": vote.id, "choice": str(i % 3)}, mine)[0]
        for i in range(6)
    ]
    assert answers[:4] == [200] * 4 and 429 in answers[4:]
    status, answer = student.post("/api/vote", {"vote": vote.id, "choice": "1"}, mine)
    assert status == 429
    assert one_clear_line(answer) == "You are voting too fast: wait a moment, then vote again."
    assert len(vote.votes) == 1  # one device, one vote (the last one counted)
    table.clock.advance(3)
    assert student.post("/api/vote", {"vote": vote.id, "choice": "2"}, mine)[0] == 200
    assert list(vote.votes.values()) == [2]


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/teacher/position", {"position": "XYZ", "d1": "3", "d2": "1"}, "Position ID"),
        (
            "/api/teacher/position",
            {"position": "AAAAAAAAAAAAAA", "d1": "3", "d2": "1"},
            "a game already over",
        ),
        (
            "/api/teacher/position",
            {"position": "4HPwATDgc/ABMA", "d1": "7", "d2": "1"},
            "first die is a number from 1 to 6",
        ),
        (
            "/api/teacher/position",
            {"position": "4HPwATDgc/ABMA", "turn": "green", "d1": "3", "d2": "1"},
            "white or black",
        ),
        ("/api/teacher/lesson", {"lesson": "99"}, "There is no lesson '99'"),
        ("/api/teacher/lesson", {"lesson": "seven"}, "The lesson is a number"),
        (
            "/api/teacher/lesson",
            {"lesson": LESSON, "step": "0"},
            f"The step is a number from 1 to {len(OPENINGS.steps)}",
        ),
        (
            "/api/teacher/lesson",
            {"lesson": LESSON, "learner": "<script>"},
            "The learner is 1 to 24",
        ),
        ("/api/teacher/opening", {"throw": "7-7"}, "The dice are two numbers from 1 to 6"),
        ("/api/teacher/class-game", {"side": "red"}, "white or black"),
        ("/api/teacher/vote", {"source": "everything"}, "A vote is on the top plays"),
        ("/api/teacher/reveal", {}, "There is no vote to reveal."),
        ("/api/teacher/rank", {}, "There is no roll in question"),
    ],
)
def test_bad_inputs_each_get_one_clear_error(live, path: str, body: dict, words: str) -> None:
    table = live()
    http = Http(table.url)
    token = http.login()
    before = table.do(lambda h: (h.app.view.position.position_id(), h.app.lesson))
    status, answer = http.post(path, body, token)
    assert status in (400, 409), answer
    assert words in one_clear_line(answer)
    assert table.do(lambda h: (h.app.view.position.position_id(), h.app.lesson)) == before


def test_hostile_requests_get_one_clear_error(live) -> None:
    table = live()
    http = Http(table.url)
    token = http.login()
    headers = {"X-CSRF-Token": token}
    for raw in (b"{not json", b"\xff\xfe", b"[1, 2]", json.dumps({"pin": 1}).encode()):
        status, _, text = http.request("POST", "/api/teacher/lesson", headers=headers, raw=raw)
        assert status == 400
        one_clear_line(json.loads(text))
    status, _, text = http.request("POST", "/api/login", headers=headers, raw=b"x" * 40_000)
    assert status == 413
    one_clear_line(json.loads(text))
    student = Http(table.url)
    status, answer = student.post(
        "/api/join", {"code": "ABC", "name": "Ada"}, student.csrf("/join")
    )
    assert status == 400 and "6 letters and digits" in one_clear_line(answer)
    for name in ("", "x" * 30, "Ada\u202e", "<b>Ada</b>"):
        status, answer = student.post(
            "/api/join", {"code": "ABCDEF", "name": name}, student.csrf("/join")
        )
        assert status == 400, name
        one_clear_line(answer)
    assert http.get("/static/../config.py")[0] == 404
    assert http.get("/static/missing.js")[0] == 404
    assert http.get("/handouts/99")[0] == 400
    assert http.get("/nothing-here")[0] == 404
    assert http.request("DELETE", "/api/login")[0] == 405
    # the table goes on as before
    assert table.do(lambda h: h.app.view.connected)


def test_a_page_from_another_site_cannot_follow_the_table(live) -> None:
    table = live()

    async def connect(origin: str) -> int:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(
                    table.url + "/ws?page=projector", headers={"Origin": origin}
                ) as ws:
                    message = await ws.receive(timeout=10)
                    return 101 if json.loads(message.data)["type"] == "state" else 0
            except aiohttp.WSServerHandshakeError as err:
                return err.status

    assert run(connect("http://evil.example")) == 403
    assert run(connect(table.url)) == 101


def test_health_and_metrics_may_be_kept_to_a_list_of_addresses(live) -> None:
    kept = live(allow="10.9.9.0/24")
    http = Http(kept.url)
    for path in ("/health", "/metrics"):
        status, _, text = http.get(path)
        assert status == 403 and "may not read the table" in text
    assert http.get("/projector")[0] == 200  # the class's pages are not behind the list
    open_ = live(allow="127.0.0.1, ::1")
    status, _, text = Http(open_.url).get("/health")
    assert status == 200 and "connected" in text


def test_nothing_listens_when_the_companion_is_off(live, tmp_path) -> None:
    table = live()
    port = table.server.port
    assert Http(table.url).get("/")[0] == 200
    # switched off from the installer's settings: the port is closed, the table goes on
    assert table.do(lambda h: switch(h.app)) == "The class companion is off."
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    assert table.do(lambda h: (h.wait(100), h.app.view.connected)[1])
    # and on again, with the same table
    words = table.do(lambda h: switch(h.app))
    assert words.startswith("The class companion is on: http://")
    # off by default: nothing is started
    config = Config()
    assert config.companion.enabled is False

    class Quiet:
        def __init__(self) -> None:
            self.config = config

    assert attach(Quiet()) is None  # type: ignore[arg-type]


def test_the_table_goes_on_when_clients_misbehave(live) -> None:
    """Pages that connect and vanish, never read, or send junk: the loop is not held up."""
    table = live()

    async def misbehave() -> None:
        async with aiohttp.ClientSession() as session:
            sockets = []
            for _ in range(20):
                ws = await session.ws_connect(table.url + "/ws?page=projector")
                await ws.send_str("x" * 2000)  # too long: the server closes this one
                sockets.append(ws)
            for _ in range(20):  # these never read what they are sent
                sockets.append(await session.ws_connect(table.url + "/ws?page=projector"))
            await asyncio.sleep(0.5)
            for ws in sockets[:30]:
                await ws.close()

    start = time.monotonic()
    run(misbehave())
    steps = table.do(lambda h: [(h.wait(40), time.monotonic())[1] for _ in range(5)])
    assert steps[-1] - start < 30
    assert Http(table.url).get("/projector")[0] == 200
    assert isinstance(table.server, CompanionServer)
