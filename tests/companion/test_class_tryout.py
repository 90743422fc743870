"""Issue 35: a class tried as a teacher runs it, shortened, in Debian's Chromium: the teacher's
laptop, the projector and three phones, on the table as ``kiosk run`` builds it (the records
behind their writer). The idle times are shortened by the configuration (the table invites
visitors after 3 s of its clock, puts a game away after 10 s) and the table is left alone
far longer between the teacher's touches. Join, a vote on an opening throw, its reveal, a
lesson's question, the class's game against the teacher with its vote opened by itself,
each learner's progress and the CSV, the end of the class. Screenshots:
screenshots/companion/class-*.png."""

from __future__ import annotations

import csv
import io
from typing import Any

from kiosk.app.modes.attract import AbandonWarningMode, AttractMode
from tests.companion.live import PIN, SCREENSHOTS, LiveTable, first_question

PHONE = {"width": 412, "height": 860}
PROJECTOR = {"width": 1280, "height": 720}
TIMEOUT = 20_000
INVITE_S, PUT_AWAY_S = 3, 10


def quiet(h: Any) -> bool:
    """Whether the table shows nobody is there (its invitation or its warning)."""
    return h.app.modes.find(AttractMode) is not None or (
        h.app.modes.find(AbandonWarningMode) is not None
    )


def left_alone(table: LiveTable, seconds: int) -> None:
    """Nobody touches the table or the teacher's page for ``seconds`` of the table's clock."""
    for _ in range(seconds):
        assert not table.do(lambda h: (h.wait(1000), quiet(h))[1])


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"class-{name}.png"), full_page=False)


def vote_from_phones(students: list[Any], picks: tuple[int, ...]) -> None:
    for page in students:
        page.wait_for_selector("#vote-buttons button", timeout=TIMEOUT)
    for page, choice in zip(students, picks, strict=True):
        page.locator("#vote-buttons button").nth(choice).click()
        page.wait_for_selector("#vote-buttons button.chosen", timeout=TIMEOUT)


def test_a_shortened_class_with_three_phones_and_a_table_left_idle(live, browser) -> None:
    table: LiveTable = live()
    table.do(lambda h: setattr(h.app.config.display, "invite_after_s", INVITE_S))
    table.do(lambda h: setattr(h.app.config.display, "put_away_after_s", PUT_AWAY_S))
    contexts = []

    def page(viewport: dict[str, int], path: str) -> Any:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        opened = context.new_page()
        opened.goto(table.url + path)
        return opened

    teacher = page({"width": 1280, "height": 900}, "/teacher")
    teacher.fill("#pin", PIN)
    teacher.click("#login button")
    teacher.wait_for_selector("#class-card", timeout=TIMEOUT)
    projector = page(PROJECTOR, "/projector")

    # 0-5 min: the class joins
    teacher.click("#open-class")
    projector.wait_for_selector("#join:not([hidden])", timeout=TIMEOUT)
    code = projector.locator("#join-code").inner_text()
    students = []
    for name in ("Ada", "Ben", "Cleo"):
        phone = page(PHONE, "/join")
        phone.fill("#code", code)
        phone.fill("#name", name)
        phone.click("#join-form button")
        phone.wait_for_url("**/student", timeout=TIMEOUT)
        students.append(phone)
    teacher.wait_for_function(
        "() => document.querySelectorAll('#students li').length === 3", timeout=TIMEOUT
    )
    teacher.wait_for_function(
        "() => document.querySelector('#awake').textContent.startsWith('The class is open')",
        timeout=TIMEOUT,
    )
    left_alone(table, PUT_AWAY_S + 5)  # the class talks; nobody touches anything

    # an opening throw, voted on and revealed
    teacher.click("#openings button[data-throw='3-1']")
    projector.wait_for_function(
        "() => document.querySelector('#board svg').dataset.dice === '3-1'", timeout=TIMEOUT
    )
    teacher.click("#vote-top")
    vote_from_phones(students, (0, 0, 1))
    projector.wait_for_function(
        "() => document.querySelector('#vote-total').textContent.includes('3 votes')",
        timeout=TIMEOUT,
    )
    shot(projector, "projector-votes")
    teacher.click("#reveal")
    projector.wait_for_selector("#candidates:not([hidden]) li", timeout=TIMEOUT)
    for phone in students:
        phone.wait_for_selector("#vote-result.right, #vote-result.wrong", timeout=TIMEOUT)
    shot(projector, "projector-reveal")
    shot(students[2], "phone-after-reveal")
    left_alone(table, PUT_AWAY_S + 5)
    assert table.do(lambda h: h.app.lesson is not None)  # the lesson is still on the table

    # a lesson's question
    asked = first_question()
    teacher.fill("#lesson-step-input", str(asked.number))
    teacher.click("#lesson-form button[type='submit']")
    step = f"Step {asked.number} "
    projector.wait_for_function(
        f"() => document.querySelector('#lesson-step').textContent.startsWith('{step}')",
        timeout=TIMEOUT,
    )
    teacher.click("button[data-source='question']")
    vote_from_phones(students, (asked.answer, asked.answer, (asked.answer + 1) % 2))
    teacher.click("#reveal")
    projector.wait_for_function(
        "() => document.querySelector('#vote-total').textContent.includes('closed')",
        timeout=TIMEOUT,
    )
    shot(projector, "projector-question")

    # the class plays white against the teacher: the last vote goes; the class's own opens
    teacher.click("#class-white")
    projector.wait_for_selector("#vote", state="hidden", timeout=TIMEOUT)
    table.wait_for(lambda h: not h.app.setting_up, timeout=30)
    left_alone(table, PUT_AWAY_S + 5)

    def throw(h: Any) -> None:
        h.sim.clear_dice()
        h.wait(80)
        h.sim.set_dice(6, 2)  # the opening: white (the class) plays 6-2
        h.wait(400)

    table.do(throw)
    for phone in students:
        phone.wait_for_selector("#vote-buttons button", timeout=TIMEOUT)
    projector.wait_for_selector("#vote:not([hidden])", timeout=TIMEOUT)
    assert "White to play 6-2" in projector.locator("#vote-total").inner_text()
    shot(projector, "projector-class-game-vote")

    # after the class: each learner's progress, and the CSV
    teacher.click("#progress-load")
    teacher.wait_for_selector("#progress table", timeout=TIMEOUT)
    words = teacher.locator("#progress").inner_text()
    assert all(name in words for name in ("Ada", "Ben", "Cleo", "class"))
    teacher.locator("#progress").scroll_into_view_if_needed()
    shot(teacher, "teacher-progress")
    response = teacher.request.get(table.url + "/teacher/progress.csv")
    assert response.status == 200
    rows = list(csv.DictReader(io.StringIO(response.text())))
    answers = [r for r in rows if r["kind"] == "answer"]
    assert len(answers) == 6 == len(table.store.class_answers())  # two votes of three
    assert {r["learner"] for r in answers} == {"Ada", "Ben", "Cleo"}
    assert [r for r in rows if r["kind"] == "lesson" and r["learner"] == "class"]

    # the end of the class: the phones go back to the join page
    teacher.click("button[data-post='/api/teacher/class/close']")
    for phone in students:
        phone.wait_for_url("**/join", timeout=TIMEOUT)
    teacher.wait_for_function(
        "() => document.querySelector('#awake').textContent.startsWith('The table invites')",
        timeout=TIMEOUT,
    )
    shot(teacher, "teacher-after-class")
    assert not table.do(quiet)
    for context in contexts:
        context.close()
