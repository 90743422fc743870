"""Issue 35, item 1: the companion's records under the application as ``kiosk run`` builds
it (kiosk.app.build: the records behind their writer thread). The companion's tests used a
plain Store, so a writer without the companion's methods passed them while, at the table,
the answers were lost, every progress page and the CSV failed and /health said "NOT saving
games"."""

from __future__ import annotations

import json

from kiosk.app.build import build_app
from kiosk.store import StoreWriter
from tests.companion.live import OPENINGS, Http, LiveTable, first_question, until


def test_the_live_table_is_built_as_kiosk_run_builds_it(live) -> None:
    table: LiveTable = live()
    assert isinstance(table.store, StoreWriter)
    assert table.companion is not None and table.companion is table.h.app.companion
    assert build_app.__module__ == "kiosk.app.build"


def test_answers_progress_csv_health_and_metrics_under_kiosk_run(live) -> None:
    table: LiveTable = live()
    teacher = Http(table.url)
    token = teacher.login()
    assert teacher.post("/api/teacher/class/open", {}, token)[0] == 200
    students = []
    for name in ("Ada", "Ben"):
        student = Http(table.url)
        code = table.server.room.join.code
        status, answer = student.post(
            "/api/join", {"code": code, "name": name}, student.csrf("/join")
        )
        assert status == 200, answer
        students.append((student, student.csrf("/student")))
    asked = first_question()
    status, answer = teacher.post(
        "/api/teacher/lesson", {"lesson": str(OPENINGS.info.number), "step": asked.number}, token
    )
    assert status == 200, answer
    until(lambda: (table.server.room.lesson or {}).get("step") == asked.number)
    assert teacher.post("/api/teacher/vote", {"source": "question"}, token)[0] == 200
    vote = table.server.room.vote
    right, wrong = asked.answer, (asked.answer + 1) % len(asked.choices)
    for (student, mine), choice in zip(students, (right, wrong), strict=True):
        assert student.post("/api/vote", {"vote": vote.id, "choice": str(choice)}, mine)[0] == 200
    assert teacher.post("/api/teacher/reveal", {}, token)[0] == 200

    # the answers are kept (through the writer's queue)
    kept = until(lambda: table.store.class_answers())
    assert [(a.student, a.correct) for a in kept] == [("Ada", True), ("Ben", False)]

    # each phone's own progress
    ada, _ = students[0]
    status, _, text = ada.get("/api/me")
    assert status == 200, text
    me = json.loads(text)
    assert me["name"] == "Ada" and [a["correct"] for a in me["answers"]] == [True]

    # the teacher's progress of each learner, and the CSV
    status, _, text = teacher.get("/api/teacher/progress")
    assert status == 200, text
    learners = {entry["name"]: entry for entry in json.loads(text)["learners"]}
    assert learners["Ada"]["right"] == 1 and learners["Ben"]["right"] == 0
    assert [lesson["step"] for lesson in learners["class"]["lessons"]] == [asked.number]
    status, _, text = teacher.get("/teacher/progress.csv")
    assert status == 200, text
    rows = text.splitlines()
    assert rows[0].startswith("learner,kind,lesson,step")
    assert any(row.startswith(f"class,lesson,openings,{asked.number},0,") for row in rows)
    assert [row.split(",")[1] for row in rows[1:]].count("answer") == 2

    # the health page and the metrics say the games are saved
    status, _, text = Http(table.url).get("/health")
    assert status == 200 and "Records</th><td>✔ saving games" in text, text
    assert "NOT saving" not in text
    status, _, text = Http(table.url).get("/metrics")
    assert status == 200 and "\nbackgammon_table_database_ok 1.0\n" in text
    assert "\nbackgammon_table_lessons_today 1.0\n" in text
