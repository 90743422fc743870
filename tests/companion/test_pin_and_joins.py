"""Issue 36 items 5 and 6: the teacher's PIN's back-off was forgotten on restart and its total
never decayed (a month of a student's typos locked the teacher out on every typo); a
4-digit PIN was allowed; doctor did not warn when it was the installer's. 400 joins with the
projector's code evicted every new student and the teacher as they were made."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app.doctor import check_teacher_pin
from kiosk.companion.security import (
    FREE_TRIES_TOTAL,
    MAX_SESSIONS,
    PinGuard,
    Sessions,
    keep_pin,
    kept_pin,
)
from kiosk.config import Config, ConfigError, load_config_text
from kiosk.store import Store, StoreWriter

PIN = "246813"


def test_the_back_off_is_kept_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    with StoreWriter(Store(path)) as store:
        guard = PinGuard(PIN, kept=kept_pin(store), keep=keep_pin(store), now=0.0)
        waits = [guard.check("000000", f"10.0.0.{n}", now=float(n)) for n in range(12)]
        assert waits[-1][1] > 0  # ten wrong from all addresses together: a wait
        assert store.flush()
    with StoreWriter(Store(path)) as store:  # the kiosk restarted: its clock starts again
        again = PinGuard(PIN, kept=kept_pin(store), keep=keep_pin(store), now=5.0)
        ok, wait = again.check(PIN, "10.0.0.99", now=6.0)
        assert (ok, wait > 0) == (False, True)  # the wait runs on: the right PIN not tried
        assert again.total >= FREE_TRIES_TOTAL


def test_a_months_occasional_typos_never_lock_the_teacher_out() -> None:
    guard = PinGuard(PIN)
    day = 24 * 3600.0
    for n in range(30):  # a typo a day from the student's phone, then the right PIN
        ok, wait = guard.check("246812", "10.0.0.7", now=n * day)
        assert (ok, wait) == (False, 0), n
        assert guard.check(PIN, "10.0.0.8", now=n * day + 60) == (True, 0), n
    assert guard.total <= 1


def test_a_guessing_run_still_waits_longer_and_longer() -> None:
    guard = PinGuard(PIN)
    now, waits = 0.0, []
    for n in range(14):
        ok, wait = guard.check(f"{n:06d}", f"10.1.0.{n}", now=now)
        waits.append(wait)
        now += wait + 1
    assert waits[-1] > waits[-3] > 0


def test_the_teachers_pin_has_at_least_six_digits() -> None:
    with pytest.raises(ConfigError, match="is not 6 to 8 digits"):
        load_config_text('[companion]\nenabled = true\nteacher_pin = "4821"\n')
    assert load_config_text('[companion]\nteacher_pin = "482193"\n').companion.teacher_pin


def test_doctor_warns_when_the_teachers_pin_is_the_installers() -> None:
    config = Config()
    config.companion.enabled = True
    config.installer.pin = config.companion.teacher_pin = "583920"
    [check] = check_teacher_pin(config)
    assert not check.ok and "installer's PIN" in check.message
    config.companion.teacher_pin = "583921"
    assert check_teacher_pin(config)[0].ok


def test_four_hundred_joins_evict_neither_the_teacher_nor_the_class() -> None:
    sessions = Sessions()
    teacher = sessions.new("teacher", 0.0)
    class_id = "c1"
    real = [sessions.new("student", 1.0, class_id=class_id) for _ in range(30)]
    busy = {s.id for s in real}  # their pages are open
    for n in range(400):  # the code on the projector, joined from a script
        sessions.new("student", 2.0 + n, busy=busy, class_id=class_id)
    assert sessions.get(teacher.id, 500.0) is teacher
    assert all(sessions.get(s.id, 500.0) is s for s in real)
    late = sessions.new("student", 501.0, busy=busy, class_id=class_id)  # a late student
    assert sessions.get(late.id, 502.0) is late
    assert sessions.get(teacher.id, 502.0) is teacher
    assert len([1 for _ in range(sessions.count("student"))]) <= MAX_SESSIONS


def test_joins_again_and_again_keep_the_class_list_bounded(live) -> None:
    """Phones that join again (a new session each time) left every earlier self in the class
    list for good (30 phones joining every other minute: 900 names an hour, "Student 2 7"):
    a session ended for a newer one takes its place in the class with it."""
    from kiosk.companion.security import MAX_STUDENTS, RateLimit
    from tests.companion.live import PIN as TEACHERS
    from tests.companion.live import Http

    table = live()
    server = table.server
    server.joins = RateLimit(burst=10_000, every=1.0)  # the per-address limit is not tested
    teacher = Http(table.url)
    token = teacher.csrf("/teacher")
    assert (
        teacher.request("POST", "/api/login", {"pin": TEACHERS}, {"X-CSRF-Token": token})[0] == 200
    )
    token = teacher.csrf("/teacher")
    status, _, text = teacher.request(
        "POST", "/api/teacher/class/open", {}, {"X-CSRF-Token": token}
    )
    assert status == 200, text
    code = server.room.join.code
    for n in range(MAX_STUDENTS + 40):
        phone = Http(table.url)
        token = phone.csrf("/join")
        status, _, text = phone.request(
            "POST", "/api/join", {"code": code, "name": f"Phone {n % 30}"},
            headers={"X-CSRF-Token": token},
        )  # fmt: skip
        assert status == 200, text
    assert len(server.room.students) <= MAX_STUDENTS
    assert server.sessions.devices("student") >= set(server.room.students)
