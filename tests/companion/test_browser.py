"""The companion's pages in a real browser (Debian's headless Chromium, through Playwright):
the projector follows a game played on the simulated table and a lesson; the teacher logs
in, jumps to an opening throw, sets a position up, asks for the ranked plays and runs a vote
that three students answer from their own browsers, then reveals the best play; the progress
CSV matches the store. The pages' screenshots go to docs/screenshots/."""

from __future__ import annotations

import csv
import io
from typing import Any

from kiosk.rules import Colour, Position
from kiosk.table.sensing import true_counts
from tests.companion.live import OPENINGS, PIN, SCREENSHOTS, LiveTable, opening_step

PROJECTOR = {"width": 1600, "height": 900}
PHONE = {"width": 412, "height": 860}
TIMEOUT = 15_000  # ms a page may take to show what the table did
STEPS = len(OPENINGS.steps)  # the openings lesson's steps, as its file has them


def seq(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.seq || 0"))


def board(page: Any) -> dict[str, str]:
    """The board the page draws: its Position ID, dice and side on roll."""
    return page.evaluate(
        """() => { const s = document.querySelector('#board svg');
           return s ? {position: s.dataset.position, dice: s.dataset.dice, turn: s.dataset.turn}
                    : {}; }"""
    )


def wait_board(page: Any, position: str, dice: str | None = None) -> None:
    dice_check = f" && s.dataset.dice === '{dice}'" if dice is not None else ""
    page.wait_for_function(
        f"""() => {{ const s = document.querySelector('#board svg');
            return s && s.dataset.position === '{position}'{dice_check}; }}""",
        timeout=TIMEOUT,
    )


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


def plays_of(option: str) -> set[str]:
    """The legal plays of a position in the teacher's list (its value: ID, side, dice)."""
    position_id, turn, dice = option.split(" ")
    d1, d2 = (int(d) for d in dice.split("-"))
    return {str(p) for p in Position.from_id(position_id, Colour.parse(turn)).legal_plays(d1, d2)}


def throw(table: LiveTable, d1: int, d2: int) -> None:
    """Lay the dice in the simulated wells (taking out those lying there first)."""

    def lay(h: Any) -> None:
        h.sim.clear_dice()
        h.wait(80)
        h.sim.set_dice(d1, d2)
        h.wait(400)

    table.do(lay)


def test_the_projector_follows_a_scripted_game_and_a_lesson(live, browser) -> None:
    table = live()
    context = browser.new_context(viewport=PROJECTOR)
    projector = context.new_page()
    projector.goto(table.url + "/projector")
    wait_board(projector, Position.standard().position_id())
    assert projector.locator("#banner").inner_text() == "Backgammon Table · Tutor on"

    throw(table, 3, 1)  # the opening: white's 3 against black's 1, white plays 3-1
    projector.wait_for_function(
        "() => document.querySelector('#board svg').dataset.dice === '3-1'", timeout=TIMEOUT
    )
    assert "White starts and plays 3-1" in projector.locator("#line-black").inner_text()

    def play(h: Any) -> None:
        h.sim.move("8", "5", "white")
        h.sim.move("6", "5", "white")
        h.wait(300)
        h.press("done", "white")
        h.wait(100)

    table.do(play)
    after = Position.standard().parse_play(3, 1, "8/5 6/5").result.position_id()
    wait_board(projector, after)
    projector.wait_for_function(
        "() => document.querySelector('#line-white').textContent.includes('8/5 6/5')",
        timeout=TIMEOUT,
    )
    assert projector.locator("#board svg path.arrow").count() == 2  # the play's arrows
    assert projector.locator("#board svg .man").count() == 30
    shot(projector, "companion-projector-game.png")

    # black lifts a man from his 24 point (white's 1): the projector shows where it may go
    throw(table, 6, 4)
    table.do(lambda h: (h.sim.lift("1", "black"), h.wait(300)))
    projector.wait_for_selector("#board svg .mark.lifted[data-where='1']", timeout=TIMEOUT)
    assert projector.locator("#board svg .mark.target").count() >= 1
    table.do(lambda h: (h.sim.place("1", "black"), h.wait(300)))

    # a lesson started at the table: its step, its text and its source on the projector
    table.do(lambda h: h.app.start_lesson("openings"))
    projector.wait_for_function(
        "() => document.querySelector('#lesson-title').textContent.includes('21 opening')",
        timeout=TIMEOUT,
    )
    title = f"Lesson {OPENINGS.info.number}: The 21 opening throws"
    assert projector.locator("#lesson-title").inner_text() == title
    assert projector.locator("#lesson-step").inner_text() == f"Step 1 of {STEPS}"
    first = OPENINGS.steps[0]
    assert projector.locator("#lesson-text").inner_text() == " ".join(first.text.split())
    assert first.cite.split()[0] in projector.locator("#lesson-source").inner_text()
    table.do(lambda h: (h.press("done", "white"), h.press("done", "white")))
    projector.wait_for_function(
        f"() => document.querySelector('#lesson-step').textContent === 'Step 3 of {STEPS}'",
        timeout=TIMEOUT,
    )
    shot(projector, "companion-projector-lesson.png")
    context.close()


def test_the_teacher_runs_a_class_that_votes_from_three_phones(live, browser) -> None:
    table = live()
    teacher_context = browser.new_context(viewport={"width": 1400, "height": 1300})
    teacher = teacher_context.new_page()
    teacher.goto(table.url + "/teacher")
    teacher.fill("#pin", "1111")
    teacher.click("#login button")
    teacher.wait_for_selector("#status.bad")
    assert teacher.locator("#status").inner_text() == "That PIN is not right."
    teacher.fill("#pin", PIN)
    teacher.click("#login button")
    teacher.wait_for_selector("#class-card", timeout=TIMEOUT)

    projector_context = browser.new_context(viewport=PROJECTOR)
    projector = projector_context.new_page()
    projector.goto(table.url + "/projector")

    # the class opens; its code is on the projector and on the teacher's page
    teacher.click("#open-class")
    projector.wait_for_selector("#join:not([hidden])", timeout=TIMEOUT)
    code = projector.locator("#join-code").inner_text()
    assert len(code) == 6 and teacher.locator("#join-code").inner_text() == code

    students = []
    for name in ("Ada", "Ben", "Cleo"):
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(table.url + "/join")
        page.fill("#code", code.lower())
        page.fill("#name", name)
        page.click("#join-form button")
        page.wait_for_url("**/student", timeout=TIMEOUT)
        assert page.locator("#me-name").inner_text() == name
        students.append((context, page))
    teacher.wait_for_function(
        "() => document.querySelectorAll('#students li').length === 3", timeout=TIMEOUT
    )

    # jump to the opening throw 4-2: the openings lesson lays out the start and throws 4-2
    step = opening_step(4, 2)
    teacher.click("#openings button[data-throw='4-2']")
    projector.wait_for_function(
        f"() => document.querySelector('#lesson-step').textContent === 'Step {step} of {STEPS}'",
        timeout=TIMEOUT,
    )
    assert "4-2" in projector.locator("#lesson-text").inner_text()
    assert teacher.locator("#status").inner_text() == (
        f"The opening throw 4-2 is on the table (lesson {OPENINGS.info.number}, step {step})."
    )
    assert table.do(lambda h: h.app.lesson.current_step.number) == step

    # set a position up from the lessons' list (one played later in a game than the start,
    # with plays to choose among): the players lay its men out, the table throws its dice
    values = teacher.locator("#position-pick option", has_text="(white to play 6-2)").evaluate_all(
        "options => options.map(o => o.value)"
    )
    start = Position.standard().position_id()
    value = next(v for v in values if not v.startswith(start) and len(plays_of(v)) >= 8)
    position_id, turn, dice = value.split(" ")
    teacher.select_option("#position-pick", value)
    assert teacher.input_value("#position-id") == position_id
    teacher.click("#position-form button[value='table']")
    teacher.wait_for_function(
        f"() => document.querySelector('#status').textContent.startsWith('Lay out {position_id}')",
        timeout=TIMEOUT,
    )
    position = Position.from_id(position_id, Colour.parse(turn))
    table.do(lambda h: (h.sim.lay_out(true_counts(position)), h.wait(400)))
    wait_board(projector, position_id, dice)
    assert table.do(lambda h: h.app.lesson) is None
    assert table.do(lambda h: h.app.view.dice) == (6, 2)

    # the ranked plays, with equities and reasons, on the teacher's page
    teacher.click("#rank")
    teacher.wait_for_selector("#candidate-list li", timeout=TIMEOUT)
    candidates = teacher.locator("#candidate-list > li")
    assert 2 <= candidates.count() <= 5
    first = candidates.first.inner_text()
    assert "equity" in first and "The best play of the roll" in first

    # a vote on the top plays: three students answer, the projector shows the spread
    teacher.click("#vote-top")
    for _, page in students:
        page.wait_for_selector("#vote-buttons button", timeout=TIMEOUT)
    options = students[0][1].locator("#vote-buttons button").all_inner_texts()
    best = table.server.room.current_ranking().candidates[0].move
    assert options[0] == best
    picks = {"Ada": 0, "Ben": 0, "Cleo": 1}
    for (_, page), choice in zip(students, picks.values(), strict=True):
        page.locator("#vote-buttons button").nth(choice).click()
        page.wait_for_selector("#vote-buttons button.chosen", timeout=TIMEOUT)
        assert page.locator("#status").inner_text() == f"Your vote: {options[choice]}"
    projector.wait_for_function(
        "() => document.querySelector('#vote-total').textContent.includes('3 votes')",
        timeout=TIMEOUT,
    )
    counts = projector.locator("#vote-options .count").all_inner_texts()
    assert counts[:2] == ["2", "1"]
    shot(students[2][1], "companion-student-vote.png")

    # the best, with the coach's reasons, for everyone
    teacher.click("#reveal")
    projector.wait_for_selector("#candidates:not([hidden])", timeout=TIMEOUT)
    assert projector.locator("#vote-options li.best .option").inner_text().startswith(best)
    assert projector.locator("#candidate-list > li").first.locator("b").inner_text() == best
    assert projector.locator("#board svg path.arrow.preview").count() >= 1
    for (_, page), choice in zip(students, picks.values(), strict=True):
        page.wait_for_selector("#vote-result.right, #vote-result.wrong", timeout=TIMEOUT)
        words = page.locator("#vote-result").inner_text()
        assert words.startswith(f"The best: {best}.")
        assert ("You chose it!" in words) == (choice == 0)
    shot(projector, "companion-projector-vote.png")
    teacher.wait_for_function(
        "() => document.querySelector('#students').textContent.includes('Cleo — 0 of 1 right')",
        timeout=TIMEOUT,
    )
    shot(teacher, "companion-teacher.png")

    # each learner's progress, and the CSV that matches the store
    teacher.click("#progress-load")
    teacher.wait_for_selector("#progress table", timeout=TIMEOUT)
    assert "Ada" in teacher.locator("#progress").inner_text()
    response = teacher.request.get(table.url + "/teacher/progress.csv")
    assert response.status == 200
    rows = list(csv.DictReader(io.StringIO(response.text())))
    answers = [r for r in rows if r["kind"] == "answer"]
    kept = table.store.class_answers()
    assert len(answers) == len(kept) == 3
    for row, answer in zip(answers, kept, strict=True):
        assert (row["learner"], row["answer"], row["best"]) == (
            answer.student,
            answer.answer,
            answer.best,
        )
        assert row["correct"] == str(int(answer.correct)) and row["position"] == position_id
    lessons = [r for r in rows if r["kind"] == "lesson"]
    records = table.store.all_lesson_progress()
    assert [(r["learner"], r["lesson"], int(r["step"])) for r in lessons] == [
        (x.player_slot, x.lesson_id, x.step) for x in records
    ]
    assert ("class", "openings", step) in [(x.player_slot, x.lesson_id, x.step) for x in records]

    for context, _ in students:
        context.close()
    projector_context.close()
    teacher_context.close()


def test_a_handout_prints_the_opening_throws_light_on_paper(live, browser) -> None:
    table = live()
    page = browser.new_page(viewport={"width": 1000, "height": 1400})
    page.goto(table.url + "/handouts")
    page.click(f"text={OPENINGS.info.number}. The 21 opening throws")
    page.wait_for_url(f"**/handouts/{OPENINGS.info.number}", timeout=TIMEOUT)
    page.wait_for_selector(".handout")
    title = f"Lesson {OPENINGS.info.number}: The 21 opening throws"
    assert page.locator("h1").inner_text() == title
    assert page.locator(".step.play").count() == 21
    assert page.locator(".step.play svg .arrow").count() >= 21
    page.emulate_media(media="print")
    felt = page.evaluate("getComputedStyle(document.querySelector('.board .felt')).fill")
    assert felt == "rgb(255, 255, 255)"  # no dark felt on paper
    shot(page, "companion-handout.png")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") >= 4
    page.close()
