"""Issue 36 item 9: no Host check (DNS rebinding reached the join code, /health and the PIN
form from a visitor's browser); /health and /metrics open to every address by default; a
``Server: Python/3.11 aiohttp/3.14.5`` header; a 5,000-letter static path and 8,000 nested
``[`` answered 500 with tracebacks. On the real server, over loopback."""

from __future__ import annotations

from kiosk.companion.security import AllowList
from tests.companion.live import Http


def test_a_name_that_is_not_the_tables_is_refused(live) -> None:
    http = Http(live().url)
    for path in ("/join", "/health", "/teacher", "/projector"):
        status, _, text = http.request("GET", path, headers={"Host": "rebound.example:8080"})
        assert status == 421 and "its own address" in text, (path, status)
    assert http.get("/join")[0] == 200  # by its address, as the projector shows it
    assert http.request("GET", "/join", headers={"Host": "localhost"})[0] == 200


def test_no_version_in_the_server_header(live) -> None:
    status, headers, _ = Http(live().url).get("/join")
    assert status == 200 and headers["Server"] == "Backgammon Table"
    assert "aiohttp" not in str(headers) and "Python" not in str(headers)


def test_health_is_for_this_machine_unless_allowed() -> None:
    default = AllowList("")
    assert default.permits("127.0.0.1") and default.permits("::1")
    assert not default.permits("192.168.1.40") and not default.permits("10.0.0.7")


def test_a_long_static_path_and_deep_json_get_a_clear_4xx(live) -> None:
    http = Http(live().url)
    status, _, text = http.get("/static/" + "a" * 5000 + ".js")
    assert status == 404 and "Traceback" not in text
    token = http.csrf("/join")
    status, _, text = http.request(
        "POST", "/api/join", raw=b"[" * 8000 + b"]" * 8000, headers={"X-CSRF-Token": token}
    )
    assert status == 400 and "not readable" in text and "Traceback" not in text
