"""Every lesson played end to end through the simulated table as designed (one reed a
slot; pty, link, game core, referee), as ``kiosk lesson run ID --learner right|wrong``
plays it: by a learner who does it right and by one who first does each step wrong and
then puts it right.
"""

from __future__ import annotations

from functools import cache

import pytest

from kiosk.display.payloads import Correction
from kiosk.display.view import TableView
from kiosk.events import LessonEvent
from kiosk.rig.lessons import Learner, TableSession, _illegal_move, lay_out
from kiosk.rules import WHITE, Position
from kiosk.tutor.lessons import State, catalogue, load_lesson
from kiosk.tutor.lessons.model import (
    CountStep,
    PlayStep,
    QuestionStep,
    RussianPlayStep,
    SetupStep,
    read_lesson,
)

SETTLE_MS = 100  # virtual time; shorter than a game's settle keeps the suite quick
IDS = [info.id for info in catalogue()]
# Replaying both of Crawley's games twice over (each turn first done wrong) is heavy: slow.
WRONG_IDS = [
    pytest.param(i, marks=pytest.mark.slow) if i == "crawley-games" else i for i in IDS
]


@cache
def _play(lesson_id: str, right: bool) -> TableSession:
    """The lesson played through once per learner (later tests read the same run)."""
    session = TableSession(load_lesson(lesson_id), settle_ms=SETTLE_MS)
    try:
        session.start()
        Learner(right=right).run(session)
    finally:
        session.close()
    return session


def _results(session: TableSession) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for event in session.events:
        if event["event"] == "lesson-result":
            out.setdefault(event["step"], []).append(event)
    return out


def _interactive(step: object) -> bool:
    return isinstance(step, (SetupStep, PlayStep, RussianPlayStep, QuestionStep, CountStep))


@pytest.mark.parametrize("lesson_id", IDS)
def test_a_right_learner_finishes_every_lesson(lesson_id: str) -> None:
    session = _play(lesson_id, right=True)
    lesson = session.engine.lesson
    events = session.events
    assert events[-1]["event"] == "lesson-end" and session.engine.finished
    table = next(e for e in events if e["event"] == "table")
    assert table["sensing"] == "occupancy"  # the table as designed: one reed a slot
    assert session.engine.mistakes == 0
    assert not [e for e in events if e["event"] in ("illegal", "error")]
    results = _results(session)
    for step in lesson.steps:
        if _interactive(step):
            got = results.get(step.number, [])
            assert got and all(r["correct"] for r in got), (step.number, got)
    plays = [e for e in events if e["event"] == "play" and not e["position"].startswith("R:")]
    assert len(plays) == sum(isinstance(s, PlayStep) for s in lesson.steps)
    # every step was announced with its citation, in order
    shown = [e["step"] for e in events if e["event"] == "lesson"]
    assert sorted(set(shown)) == [s.number for s in lesson.steps]


@pytest.mark.parametrize("lesson_id", WRONG_IDS)
def test_a_wrong_learner_is_corrected_and_still_finishes(lesson_id: str) -> None:
    session = _play(lesson_id, right=False)
    lesson = session.engine.lesson
    events = session.events
    assert events[-1]["event"] == "lesson-end"
    results = _results(session)
    for step in lesson.steps:
        got = results.get(step.number, [])
        if isinstance(step, (QuestionStep, PlayStep)) or (
            isinstance(step, CountStep) and step.at is not None
        ):
            verdicts = [r["correct"] for r in got]
            alternatives = isinstance(step, PlayStep) and len(
                {p.result for p in step.start.legal_plays(*step.dice)}
            ) > len(step.accept) + len(step.good)
            if isinstance(step, (QuestionStep, CountStep)) or alternatives:
                assert verdicts[0] is False, (step.number, got)
            assert verdicts[-1] is True, (step.number, got)
    if any(isinstance(s, (SetupStep, PlayStep)) for s in lesson.steps):
        setups = [e for e in events if e["event"] == "setup"]
        assert setups and all(e["corrections"] and e["law"] for e in setups)
    assert session.engine.mistakes > 0


def test_a_wrong_play_is_explained_with_the_books_and_tried_again() -> None:
    session = _play("openings", right=False)
    results = _results(session)
    step = next(
        s for s in session.engine.lesson.steps if isinstance(s, PlayStep) and s.dice == (3, 1)
    )
    wrong, right = results[step.number][0], results[step.number][-1]
    # the learner's own play rated first (its cost, what it does wrong), then the wanted one
    assert not wrong["correct"] and wrong["text"].startswith("You played ")
    assert " points a game on average." in wrong["text"]
    assert "The play wanted is 8/5 6/5" in wrong["text"]
    # the play wanted drawn with arrows; what was played and by which book: Select
    assert wrong["wanted"] == {"move": "8/5 6/5", "arrows": [["8", "5"], ["6", "5"]]}
    assert wrong["sources"].startswith("You played ")
    assert right["correct"] and right["best"] and right["text"].startswith("Right: 8/5 6/5. ")
    assert "Hoyle" not in right["text"].split(". ")[0]  # the lesson's point, not a book list
    assert "Hoyle" in right["sources"]
    illegal = [e for e in session.events if e["event"] == "illegal"]
    assert {"wrong-distance"} <= {e["reason"] for e in illegal}
    assert all(e["law"] for e in illegal)


def test_the_live_count_lights_the_men_that_can_hit() -> None:
    session = _play("chances", right=False)
    live = [e for e in session.events if e["event"] == "lesson-result" and "count" in e]
    assert live, "the live count never reported"
    last = live[-1]
    assert last["correct"] and last["light"] and 0 < last["count"] <= 36
    complaint = [
        e
        for e in session.events
        if e["event"] == "lesson-result" and not e["correct"] and "one of your men" in e["text"]
    ]
    assert complaint, "two blots should have been refused"
    chart = next(e for e in session.events if e["event"] == "chart" and e["chart"] == "shots")
    assert chart["wrong"] == [{"book": "Hoyle", "x": 12, "book_value": 1, "exact": 3}]


def test_a_lesson_left_with_the_menu_resumes_where_it_was(tmp_path) -> None:
    store_module = pytest.importorskip("kiosk.store")
    store = store_module.Store(tmp_path / "records.sqlite")
    lesson = load_lesson("the-board")
    with TableSession(lesson, store=store, player_slot="guest-2", settle_ms=SETTLE_MS) as s:
        s.start()
        for line in ("button select", "button select", "button select"):
            s.act(line)
        assert s.engine.current_step.number == 4 and s.engine.state == State.ASKING
        s.act("button select")  # move the highlight to the second choice
        assert s.events[-1]["selected"] == 1
        s.act("button back")
        assert s.engine.current_step.number == 3
        s.act("button menu")
        assert s.events[-1] == {"event": "lesson-exit", "lesson": "the-board", "step": 3}
    assert store.lesson_progress("guest-2") == {"the-board": (3, False)}
    assert store.lesson_progress("guest-1") == {}
    with TableSession(lesson, store=store, player_slot="guest-2", settle_ms=SETTLE_MS) as s:
        s.start()
        assert s.engine.current_step.number == 3
        s.act("button done")
        s.act("button done")  # answers the highlighted (first) choice: right
        assert s.events[-1]["event"] == "lesson-result" and s.events[-1]["correct"]
        Learner(right=True).run(s)
    assert store.lesson_progress("guest-2")["the-board"] == (len(lesson.steps), True)


def test_a_script_runs_headless_and_bad_lines_are_reported() -> None:
    lesson = load_lesson("moving")
    with TableSession(lesson, settle_ms=SETTLE_MS) as s:
        s.start()
        s.run(["button select", "answer x", "fly 3", "# a comment", ""])
    errors = [e for e in s.events if e["event"] == "error"]
    assert [e["line"] for e in errors] == [2, 3]
    assert s.engine.current_step.number == 2 and s.engine.state == State.LAYING


def test_setup_guidance_uses_the_learners_numbering_for_both_colours(tmp_path) -> None:
    path = tmp_path / "set.toml"
    path.write_text(
        'id = "set"\nnumber = 1\ntitle = "T"\nsummary = "S"\n'
        '[[step]]\nkind = "setup"\nposition = "standard"\ntext = "Lay out the men."\n'
    )
    with TableSession(read_lesson(path), settle_ms=SETTLE_MS) as s:
        s.start()
        board = s.runner.sensed() or {}
        white = [line for line in lay_out(board, Position.standard(), WHITE) if "white" in line]
        s.run([*white, "wait 500"])
    setup = [e for e in s.events if e["event"] == "setup"][-1]
    first = setup["corrections"][0]
    assert first["colour"] == "black" and first["table"].isdigit()
    view = TableView()  # the display words it, in the learner's numbering for both colours
    view.apply({**setup, "lesson": "set"})
    guidance = view.messages["white"]
    point = int(first["table"])  # the table's numbering is white's: the learner's own
    assert guidance.text.startswith("Lay the men out as the pale men show: ")
    assert not guidance.warning  # an instruction, not a telling-off
    assert f"black men on your {point} point (black's {25 - point} point)" in guidance.detail
    assert guidance.detail.endswith(setup["law"])
    drawn = tuple(c for each in setup["corrections"] for c in Correction.each(each))
    assert view.setup == drawn  # drawn as pale men


def test_pips_follow_the_table_and_are_hidden_while_asked() -> None:
    session = _play("the-board", right=True)
    asked = [
        e
        for e in session.events
        if e["event"] == "lesson" and e.get("choices") and e["kind"] == "count"
    ]
    assert asked and all(e.get("hide_pips") and "pips" not in e for e in asked)
    answered = next(
        e for e in session.events if e["event"] == "lesson-result" and "needs 167" in e["text"]
    )
    assert answered["pips"] == {"white": 167, "black": 167}
    view = TableView()  # the display folds the engine's own events
    view.apply(LessonEvent(data=asked[0]))
    assert view.hide_pips


def test_a_wrong_move_the_step_asks_for_is_not_a_mistake(tmp_path) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text(
        'id = "wrong"\nnumber = 1\ntitle = "T"\nsummary = "S"\n'
        '[[step]]\nkind = "play"\nposition = "standard"\ndice = [4, 2]\nwrong_first = true\n'
        'text = "Try a wrong move first, then play 8/4 6/4."\naccept = ["8/4 6/4"]\n'
        'cite = "Cady law 11"\n'
    )
    lesson = read_lesson(path)
    step = lesson.steps[0]
    with TableSession(lesson, settle_ms=SETTLE_MS) as s:
        s.start()
        board = s.runner.sensed() or {}
        s.run([*lay_out(board, step.start, WHITE), "wait 500"])
        s.run([*_illegal_move(step), "wait 500"])
        assert [e for e in s.events if e["event"] == "illegal"]
        assert s.engine.mistakes == 0
    announced = [e for e in s.events if e["event"] == "lesson" and e.get("dice")]
    assert announced and "button or digital dice" in announced[-1]["text"]


def test_crawleys_games_show_the_books_play_first_and_can_be_skipped() -> None:
    lesson = load_lesson("crawley-games")
    replayed = [s for s in lesson.steps if isinstance(s, PlayStep) and s.replay]
    assert len(replayed) == 59 + 53  # both games, every turn
    with TableSession(lesson, settle_ms=SETTLE_MS) as s:
        s.start()
        while not isinstance(s.engine.current_step, SetupStep):
            s.act("button select")
        board = s.runner.sensed() or {}
        setup = s.engine.current_step
        s.run([*lay_out(board, setup.position, setup.position.turn), "wait 500"])
        step = s.engine.current_step
        assert isinstance(step, PlayStep) and step.replay == 1
        assert s.engine.state == State.PLAYING
        shown = [e for e in s.events if e["event"] == "lesson" and e.get("preview")]
        assert shown[-1]["preview"]["move"] == step.accept[0]
        assert shown[-1]["preview"]["arrows"] and "Crawley plays" in shown[-1]["text"]
        view = TableView()
        view.apply(LessonEvent(data=shown[-1]))
        arrows = tuple(tuple(a) for a in shown[-1]["preview"]["arrows"])
        assert view.last_play == arrows and view.last_move == step.accept[0]
        s.act("button select")  # skip the rest of these turns
        assert isinstance(s.engine.current_step, QuestionStep)


def test_russian_throws_are_played_through_the_russian_referee_on_occupancy() -> None:
    # lesson 23's practice: laid out, thrown, played part by part, refused where the
    # book's rules forbid it, on the table as designed (one reed a slot, no colours)
    session = _play("russian", right=False)
    lesson = session.engine.lesson
    russian = [s.number for s in lesson.steps if isinstance(s, RussianPlayStep)]
    assert russian == [11, 12, 13]
    events = session.events
    assert next(e for e in events if e["event"] == "table")["sensing"] == "occupancy"
    refused = [e["reason"] for e in events if e["event"] == "illegal"]
    assert refused == ["enter-two", "incomplete", "blocked"]
    plays = [e for e in events if e["event"] == "play"]
    assert [(p["move"], p.get("bonus", False)) for p in plays] == [
        ("hand/1 hand/3", False),
        ("hand/6(4)", False),
        ("hand/1(4)", True),  # the bonus: the opposite faces
        ("hand/5* 2/6", False),
    ]
    assert any(e["event"] == "throw-again" for e in events)
    results = _results(session)
    assert [results[n][-1]["correct"] for n in russian] == [True, True, True]
    assert results[12][-1]["move"] == "hand/6(4); then hand/1(4)"
    # the pips the band shows are counted along the Russian track: 375 with all in hand
    shown = [e for e in events if e["event"] == "lesson" and e["step"] == 12]
    assert shown[0]["pips"] == {"white": 375, "black": 375}
    assert results[12][-1]["pips"]["white"] == 375 - 4 * 6 - 4 * 1
    questions = sum(isinstance(s, QuestionStep) for s in lesson.steps)  # one wrong answer each
    assert session.engine.mistakes == questions + len(refused)
