"""The companion steering the real table: the class's game against the teacher with its votes
opened by themselves, a lesson's question put to the class, a lesson jumped through and left,
and the table behaving the same whether the companion is on or off."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from kiosk.app.main import App
from kiosk.app.stepped import SteppedApp
from kiosk.config import Config
from kiosk.rules import BLACK, WHITE, Position
from kiosk.simtable import STARTING_POSITION
from kiosk.table.sensing import location, true_counts
from tests.companion.live import OPENINGS, Http, LiveTable, first_question, until

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def join(table: LiveTable, name: str) -> tuple[Http, str]:
    student = Http(table.url)
    status, answer = student.post(
        "/api/join", {"code": table.server.room.join.code, "name": name}, student.csrf("/join")
    )
    assert status == 200, answer
    return student, student.csrf("/student")


def throw(h: Any, d1: int, d2: int) -> None:
    h.sim.clear_dice()
    h.wait(80)
    h.sim.set_dice(d1, d2)
    h.wait(400)


def test_the_class_plays_the_teacher_with_the_coach_on(live) -> None:
    table = live()
    teacher = Http(table.url)
    token = teacher.login()
    assert teacher.post("/api/teacher/class/open", {}, token)[0] == 200
    students = [join(table, name) for name in ("Ada", "Ben", "Cleo")]
    status, answer = teacher.post("/api/teacher/class-game", {"side": "white"}, token)
    assert status == 200 and "the class plays white" in answer["status"]
    table.wait_for(lambda h: "setup-ok" in h.kinds()[-5:] or not h.app.setting_up)

    table.do(lambda h: throw(h, 5, 2))  # the opening: white (the class) starts with 5-2
    vote = until(lambda: table.server.room.vote)
    assert vote.kind == "play" and vote.question == "White to play 5-2"
    ranking = table.server.room.current_ranking()
    assert vote.options == [c.move for c in ranking.candidates]
    for (student, mine), choice in zip(students, (0, 0, 2), strict=True):
        assert student.post("/api/vote", {"vote": vote.id, "choice": str(choice)}, mine)[0] == 200
    status, answer = teacher.post("/api/teacher/reveal", {}, token)
    assert status == 200 and answer["status"] == f"The best: {vote.options[0]}."
    assert [a.correct for a in table.store.class_answers()] == [True, True, False]

    # the class's play is made on the table; the coach rates it
    play = Position.standard().parse_play(5, 2, vote.options[0])

    def make(h: Any) -> None:
        for step in play.steps:
            h.sim.move(location(WHITE, step.src), location(WHITE, step.dst), "white")
        h.wait(400)
        h.press("done", "white")
        h.wait(200)

    table.do(make)
    table.wait_for(
        lambda h: any(isinstance(e, dict) and e.get("event") == "coach" for e in h.events[-20:])
    )
    verdict = table.do(lambda h: h.app.view.messages["white"])
    assert verdict.rating == "fine" and verdict.text.startswith("Good play")
    until(lambda: table.server.room.view.messages["white"].rating == "fine")
    assert table.server.room.problem is None  # the roll is played: nothing in question

    # black (the teacher) throws: no vote for the teacher's rolls
    table.do(lambda h: throw(h, 6, 4))
    until(lambda: table.server.room.problem is not None)
    time.sleep(0.3)
    assert table.server.room.vote is None and not vote.open  # the last one went with its roll


def test_a_lessons_question_goes_to_the_class(live) -> None:
    table = live()
    teacher = Http(table.url)
    token = teacher.login()
    teacher.post("/api/teacher/class/open", {}, token)
    ada, mine = join(table, "Ada")
    asked = first_question()
    status, answer = teacher.post(
        "/api/teacher/lesson", {"lesson": str(OPENINGS.info.number), "step": asked.number}, token
    )
    assert status == 200
    assert (
        answer["status"]
        == f"Lesson {OPENINGS.info.number} is on the table, from step {asked.number}."
    )
    assert table.do(lambda h: h.app.lesson.current_step.number) == asked.number
    until(lambda: (table.server.room.lesson or {}).get("step") == asked.number)
    status, answer = teacher.post("/api/teacher/vote", {"source": "question"}, token)
    assert status == 200, answer
    vote = table.server.room.vote
    question = table.do(lambda h: h.app.lesson.current_step)
    assert question.text == asked.text and vote.options == list(question.choices)
    wrong = (question.answer + 1) % len(question.choices)
    assert ada.post("/api/vote", {"vote": vote.id, "choice": str(wrong)}, mine)[0] == 200
    assert teacher.post("/api/teacher/reveal", {}, token)[0] == 200
    [kept] = table.store.class_answers()
    assert (kept.student, kept.answer, kept.best, kept.correct) == (
        "Ada",
        question.choices[wrong],
        question.choices[question.answer],
        False,
    )
    assert kept.position == "" and kept.dice is None
    status, _, text = teacher.get("/teacher/progress.csv")
    assert status == 200 and f",{question.choices[wrong]}," in text.replace('"', "")
    # Ada's own page shows her answers
    status, _, text = ada.get("/api/me")
    assert status == 200 and '"correct": false' in text

    # the teacher leaves the lesson: the table's Lessons menu, progress kept under "class"
    assert teacher.post("/api/teacher/lesson/leave", {}, token)[0] == 200
    table.wait_for(lambda h: h.app.lesson is None)
    assert table.do(lambda h: h.app.view.menu_title) == "Lessons"
    assert table.store.lesson_progress("class") == {"openings": (asked.number, False)}
    status, answer = teacher.post("/api/teacher/lesson/leave", {}, token)
    assert status == 409 and answer["error"] == "No lesson is on the table."


def test_the_teachers_position_and_class_game_take_the_table_from_what_it_was_doing(
    live,
) -> None:
    table = live()
    teacher = Http(table.url)
    token = teacher.login()
    position = Position.from_id("mNsHBAOYdxsADA", WHITE)  # from Crawley's first game

    def set_up(d1: int, d2: int) -> None:
        body = {"position": position.position_id(), "turn": "white", "d1": d1, "d2": d2}
        status, answer = teacher.post("/api/teacher/position", body, token)
        assert status == 200, answer
        table.do(lambda h: (h.sim.lay_out(true_counts(position)), h.wait(600)))  # the players
        table.wait_for(lambda h: h.app.view.dice == (d1, d2))
        assert table.do(
            lambda h: (h.app.view.mode, h.app.view.position, h.app.table_player, h.app.russian)
        ) == ("game", position, None, False)

    # a game against the table: the teacher's position is a game between the players
    table.do(lambda h: (h.app.play_the_table(BLACK, "beginner"), h.wait(400)))
    assert table.do(lambda h: h.app.table_player) is not None
    set_up(6, 2)
    # a game of Russian backgammon: it gives the table back to the teacher's position
    table.do(lambda h: (h.app.play_russian("russian-cady"), h.wait(400)))
    assert table.do(lambda h: h.app.russian)
    set_up(5, 3)
    # the class's game from Russian backgammon or from a lesson: a new game, coach on
    teacher.post("/api/teacher/class/open", {}, token)
    for before in (
        lambda h: h.app.play_russian("russian-cady"),
        lambda h: h.app.start_lesson("openings"),
    ):
        table.do(lambda h, before=before: (before(h), h.wait(400)))
        status, answer = teacher.post("/api/teacher/class-game", {"side": "black"}, token)
        assert status == 200 and "the class plays black" in answer["status"], answer
        table.wait_for(lambda h: h.app.view.mode == "game" and h.app.core.setting_up)
        assert table.do(lambda h: (h.app.russian, h.app.lesson, h.app.tutor)) == (False, None, True)


def script(h: SteppedApp) -> list[dict]:
    """A short game on the table: the opening, a play, a wrong placement put right."""
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("8", "5", "white")
    h.sim.move("6", "5", "white")
    h.wait(300)
    h.press("done", "white")
    throw(h, 6, 4)
    h.sim.move("1", "4", "black")  # black's 24 to 21: 3 is not one of his dice
    h.wait(300)
    h.sim.move("4", "1", "black")
    h.wait(300)
    # what differs from run to run whoever runs beside: the simulated table's pty, and how
    # often the link reports the same board while it connects (its threads' timing)
    out: list[dict] = []
    for event in h.events:
        if event["event"] == "table":
            event = {**event, "message": ""}
        if event["event"] == "board" and out and out[-1] == event:
            continue
        out.append(event)
    return out


def test_the_table_is_the_same_with_the_companion_on_or_off(live) -> None:
    def events(on: bool) -> list[dict]:
        config = Config()
        config.referee.settle_ms = 200
        config.dice.source = "wells"
        config.tutor.enabled = False
        config.speech.enabled = False
        h = SteppedApp(lambda **wired: App(config, **wired), config)
        try:
            if on:
                from kiosk.app.companion import attach

                config.companion.enabled = True
                config.companion.teacher_pin = "246813"
                config.companion.address = "127.0.0.1"
                config.companion.port = 0
                companion = attach(h.app)
                assert companion is not None and companion.server is not None
                Http(f"http://127.0.0.1:{companion.server.port}").get("/projector")
            return script(h)
        finally:
            h.close()

    with_it, without = events(True), events(False)
    assert [e["event"] for e in with_it] == [e["event"] for e in without]
    assert with_it == without
    assert any(e["event"] == "illegal" for e in with_it)


def test_the_installers_settings_switch_the_companion() -> None:
    config = Config()
    config.referee.settle_ms = 200
    h = SteppedApp(lambda **wired: App(config, **wired), config)
    try:
        h.sim.set_position(STARTING_POSITION)
        h.app.start()
        h.wait(400)
        h.app.transitions.menu(h.app.menus.settings)
        h.wait(40)
        items = h.app.view.menu
        label = next(i for i in items if i.startswith("Class companion"))
        assert label == "Class companion (web pages): off"
        h.press("menu", times=items.index(label) - h.app.view.menu_cursor)
        h.press("select")
        said = h.last("message")["text"]
        assert said == "Set [companion] teacher_pin in the configuration file first."
        config.companion.teacher_pin = "246813"
        config.companion.address = "127.0.0.1"
        config.companion.port = 0
        h.press("select")
        assert h.last("message")["text"].startswith("The class companion is on: http://")
        assert h.app.view.menu[items.index(label)] == "Class companion (web pages): on"
        port = h.app.companion.server.port
        assert Http(f"http://127.0.0.1:{port}").get("/")[0] == 200
        h.press("select")
        assert h.last("message")["text"] == "The class companion is off."
        assert config.companion.enabled is False
    finally:
        h.close()


def test_the_health_page_names_bad_slots_and_cells_as_commissioning_did(tmp_path) -> None:
    from types import SimpleNamespace

    from kiosk.app.companion import _commissioning

    (tmp_path / "commission.toml").write_text(
        'layout = "5,3,15"\n'
        '[[bad]]\nlocation = "13"\nslot = 2\nreason = "stuck closed"\n'
        '[[bad]]\nwell = 1\ncell = "m"\nreason = "dead"\n'
    )
    config = Config()
    config.display.calibration = str(tmp_path / "calibration.toml")
    app: Any = SimpleNamespace(config=config, config_file=None)
    assert _commissioning(app) == [
        "point 13, slot 2 from the edge (stuck closed)",
        "dice well 1, cell m (centre) (dead)",
    ]


def test_the_health_figures_name_every_counter_of_the_link() -> None:
    from dataclasses import fields

    from kiosk.companion.health import COUNTERS
    from kiosk.link.link import LinkCounters

    counted = [f.name for f in fields(LinkCounters) if f.type in ("int", int)]
    assert sorted(COUNTERS) == sorted(counted)


def test_the_teacher_sets_a_learners_hints_kept_in_the_records(live) -> None:
    """The teacher's page keeps a learner's own hint budget (a real SQLite file); the table
    uses it for that learner's lessons; a wrong budget gets one clear line."""
    import sqlite3

    from kiosk.config import HintBudget

    table = live()
    teacher = Http(table.url)
    token = teacher.login()
    assert 'data-action="/api/teacher/learner/hints"' in teacher.get("/teacher")[2]
    status, answer = teacher.post(
        "/api/teacher/learner/hints", {"learner": "Ada", "hints": "budget 3"}, token
    )
    assert status == 200 and answer["status"] == "Ada's hints: budget 3.", answer
    assert table.do(lambda h: h.app.learners.hints("Ada")) == HintBudget("budget", 3)
    path = table.do(lambda h: h.app.store.path)
    table.do(lambda h: h.app.store.learner_hints("Ada"))  # the write made
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        assert db.execute(
            "SELECT hints FROM learner_settings WHERE learner = 'Ada'"
        ).fetchall() == [("budget 3",)]
    status, answer = teacher.post(
        "/api/teacher/learner/hints", {"learner": "Ada", "hints": "all"}, token
    )
    assert status == 400 and "is not a hint budget" in answer["error"], answer
    status, answer = teacher.post(
        "/api/teacher/learner/hints", {"learner": "Ada", "hints": ""}, token
    )
    assert status == 200 and answer["status"] == "Ada's hints: as the table is set."
    assert table.do(lambda h: h.app.learners.hints("Ada")) is None


def test_the_companion_started_twice_is_one_server() -> None:
    from kiosk.app.companion import attach

    config = Config()
    config.companion.enabled = True
    config.companion.teacher_pin = "246813"
    config.companion.address = "127.0.0.1"
    config.companion.port = 0
    h = SteppedApp(lambda **wired: App(config, **wired), config)
    try:
        first = attach(h.app)
        assert first is not None and first.server is not None
        server, threads = first.server, threading.active_count()
        again = attach(h.app)
        assert again is first and again.server is server  # no second server, thread or port
        assert threading.active_count() == threads
    finally:
        h.close()
