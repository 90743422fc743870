"""The companion's parts on their own: the board picture, the inputs read, the class's votes,
the guards, the store's class records, the configuration section, the teacher's page and the
handouts (the examples in the docstrings run with every kiosk module's, by
``--doctest-modules``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.companion import validate
from kiosk.companion.board import NUMBER, from_position, from_view, svg
from kiosk.companion.classroom import Classroom
from kiosk.companion.control import Candidate, CommandQueue, Ranking
from kiosk.companion.library import Library
from kiosk.companion.pages import handout, teacher
from kiosk.companion.security import RateLimit, Sessions
from kiosk.config import ConfigError, load_config_text
from kiosk.display.view import TableView
from kiosk.events import Dice, LessonEvent, NewGame, Played
from kiosk.rules import Position
from kiosk.store import ClassAnswer, Store, StoreError
from kiosk.tutor.lessons.model import CountStep, PlayStep, SetupStep
from tests.companion.live import OPENINGS, first_question, opening_step

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "companion.md"


@pytest.fixture(scope="module")
def library() -> Library:
    return Library.load()


# -- the board -----------------------------------------------------------------------------


def test_the_board_draws_the_men_the_table_senses_and_its_marks() -> None:
    view = TableView()
    view.board = {"24": (1, 0), "13": (5, 0), "1": (0, 2), "bar-white": (1, 0), "off-black": (0, 3)}
    view.dice, view.turn = (6, 5), "white"
    view.lifted, view.targets = "24", ("18", "13")
    view.illegal = ("7", "wrong-distance", "That man may move 6 or 5, not 1.")
    view.lights = ("5",)
    view.last_play = (("24", "18"),)
    picture = from_view(view)
    text = svg(picture)
    assert text.count('class="man white"') == 7 and text.count('class="man black"') == 5
    for mark in ("lifted", "target", "illegal", "light"):
        assert f'class="mark {mark}"' in text
    assert re.search(r'class="die" data-face="6"', text) and 'data-dice="6-5"' in text
    assert 'class="arrow"' in text
    # no inline style anywhere: the pages' Content-Security-Policy allows none
    assert "style=" not in text


def test_the_points_are_numbered_for_the_side_on_roll_and_for_a_lessons_learner() -> None:
    def numbers(view: TableView) -> list[str]:
        return re.findall(rf'font-weight="bold" fill="{NUMBER}">(\d+)<', svg(from_view(view)))

    view = TableView()
    assert numbers(view)[:3] == ["1", "2", "3"]
    view.turn = "black"
    assert numbers(view)[:3] == ["24", "23", "22"]
    view.mode = "lesson"  # the lessons number every point from the learner's (white's) side
    view.last_play = (("8", "5"),)  # a game's arrows left from before the lesson: not drawn
    assert numbers(view)[:3] == ["1", "2", "3"]
    assert 'class="arrow"' not in svg(from_view(view))


def test_a_changed_board_has_a_new_key() -> None:
    start = from_position(Position.standard(), (3, 1))
    after = from_position(Position.standard().parse_play(3, 1, "8/5 6/5").result)
    assert (
        start.key() != after.key()
        and start.key() == from_position(Position.standard(), (3, 1)).key()
    )


# -- inputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reader", "value", "words"),
    [
        (validate.dice, "0-3", "two numbers from 1 to 6"),
        (validate.dice, None, "The dice are missing."),
        (validate.dice, 31, "must be text"),
        (validate.pin, "12a4", "4 to 8 digits"),
        (validate.join_code, "ABC10O", "6 letters and digits"),
        (validate.name, "Ann;DROP", "1 to 24 letters"),
        (validate.name, "x" * 300, "too long"),
        (validate.colour, "red", "white or black"),
    ],
)
def test_each_bad_input_is_one_clear_message(reader, value, words: str) -> None:
    with pytest.raises(validate.InputError, match=re.escape(words)):
        reader(value)


def test_good_inputs_are_read_as_a_person_writes_them() -> None:
    assert validate.dice("6,5") == (6, 5) and validate.opening("1-3") == (3, 1)
    assert validate.join_code(" abc def ".replace(" ", "")) == "ABCDEF"
    assert validate.name("Zoë") == "Zoë" and validate.name("O'Neil") == "O'Neil"
    assert validate.position("4HPwATDgc/ABMA", "black").turn.name == "BLACK"
    assert validate.choice("2", 3) == 2
    with pytest.raises(validate.InputError):
        validate.choice("3", 3)


# -- the library ----------------------------------------------------------------------------


def test_every_opening_throw_has_its_step(library: Library) -> None:
    throws = library.openings()
    assert len(throws) == len(set(throws)) == 21
    for d1, d2 in throws:
        lesson_id, step = library.opening(d2, d1)
        play = library.play_step(lesson_id, step)
        assert play is not None and set(play.dice) == {d1, d2}


def test_the_openings_lesson_is_found_by_its_id_and_its_number(library: Library) -> None:
    lesson = library.openings_lesson()
    assert lesson is not None and lesson.info.number == OPENINGS.info.number
    assert library.lesson(str(OPENINGS.info.number)) is lesson is library.lesson("openings")
    assert library.opening(2, 4) == ("openings", opening_step(4, 2))
    last = library.lessons[-1].info.number
    with pytest.raises(validate.InputError, match=f"the lessons are 1 to {last}"):
        library.lesson(str(last + 1))


def test_the_lessons_positions_are_listed_once_each(library: Library) -> None:
    positions = library.positions()
    keys = [(p, t, d) for _, p, t, d in positions]
    assert len(keys) == len(set(keys)) > 50
    for _, position_id, turn, dice in positions:
        # each one can be set up on the table (no finished game to count men on)
        assert validate.position(position_id, turn).position_id() == position_id
        assert dice == "" or validate.dice(dice)
    labels = [label for label, *_ in positions]
    step = opening_step(6, 2)
    assert f"Lesson {OPENINGS.info.number}, step {step} (white to play 6-2)" in labels


def test_the_teachers_page_names_the_openings_lesson_by_its_number(library: Library) -> None:
    text = teacher("token", library)
    number = OPENINGS.info.number
    assert f"<p>The 21 opening throws (lesson {number}):</p>" in text
    assert f'<option value="{number}" selected>{number}. The 21 opening throws</option>' in text
    assert text.count('data-post="/api/teacher/opening"') == 21


def test_the_teachers_guide_names_the_openings_lesson_and_its_steps_as_its_file_does() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    number = OPENINGS.info.number
    assert set(re.findall(r"\blesson (\d+)", text)) == {str(number)}
    assert set(re.findall(r"/handouts/(\d+)", text)) == {str(number)}
    assert f"**{number}. The 21 opening throws**" in text
    setup = next(s.number for s in OPENINGS.steps if isinstance(s, SetupStep))
    assert f"Step {setup} has the men laid out for the start" in text
    assert f"from step {first_question().number} (its first question)" in text
    assert f"(lesson {number}, step {opening_step(4, 2)})" in text


def test_a_handout_draws_each_opening_throw_with_its_play(library: Library) -> None:
    text = handout(library.lesson("openings"))
    plays = [s for s in OPENINGS.steps if isinstance(s, PlayStep)]
    boards = [s for s in OPENINGS.steps if isinstance(s, SetupStep | CountStep)]
    assert len(plays) == 21
    assert f"<h1>Lesson {OPENINGS.info.number}: The 21 opening throws</h1>" in text
    assert text.count("<svg") == len(plays) + len(boards)  # each throw, each board laid out
    assert text.count('class="arrow"') >= 21
    assert f"{opening_step(3, 1)}. White to play 3-1" in text
    assert "The play: 8/5 6/5." in text and "Answer:" in text


# -- the class --------------------------------------------------------------------------------


def _candidates(*moves: str) -> Ranking:
    return Ranking(
        tuple(Candidate(m, 0.1 - i / 10, i / 10, "fine", ()) for i, m in enumerate(moves)),
        "builtin",
    )


def test_a_vote_on_the_roll_counts_one_choice_a_student_and_reveals_the_best(
    library: Library,
) -> None:
    room = Classroom(library, minutes=45)
    room.apply(
        NewGame(
            game=1,
            position="4HPwATDgc/ABMA",
            turn="white",
            profile="modern",
            tutor=True,
            dice_source="wells",
            cube=(1, None),
        ),
        now=0.0,
    )
    with pytest.raises(validate.InputError, match="Open the class first"):
        room.start_vote("legal")
    room.open_class(now=0.0)
    with pytest.raises(validate.InputError, match="no roll to vote on"):
        room.start_vote("legal")
    room.apply(Dice(player="white", dice=(3, 1)), now=1.0)
    vote = room.start_vote("legal")
    assert "8/5 6/5" in vote.options and len(vote.options) == len(set(vote.options))
    with pytest.raises(validate.InputError, match="not ready"):
        room.start_vote("top")
    room.ranked(room.problem, _candidates("8/5 6/5", "13/10 24/23", "24/21 6/5"))
    vote = room.start_vote("top")
    ada, ben = room.add_student("d1", "Ada"), room.add_student("d2", "ada")
    assert (ada.name, ben.name) == ("Ada", "ada 2")  # two of one name are told apart
    room.cast("d1", 1)
    room.cast("d1", 0)  # a changed mind
    room.cast("d2", 2)
    assert vote.counts() == [1, 0, 1]
    with pytest.raises(validate.InputError, match="Join the class first"):
        room.cast("stranger", 0)
    room.reveal()
    assert vote.best == "8/5 6/5" and not vote.open and room.revealed
    assert (ada.right, ada.answered, ben.right) == (1, 1, 0)
    with pytest.raises(validate.InputError, match="closed"):
        room.cast("d2", 0)
    state = room.state(now=2.0)
    assert state["vote"]["best"] == "8/5 6/5" and state["candidates"][0]["move"] == "8/5 6/5"
    assert "d1" not in str(state)  # who voted for what is not on the projector
    # the play is made: no roll in question, the best plays leave the projector
    room.apply(
        Played(player="white", dice=(3, 1), move="8/5 6/5", position="4HPwATDgc/ABMA"), now=3.0
    )
    assert room.problem is None and room.state(now=3.0)["candidates"] is None


def test_a_lesson_play_step_is_the_roll_in_question(library: Library) -> None:
    room = Classroom(library, minutes=45)
    lesson = library.lesson("openings")
    step = lesson.steps[opening_step(3, 1) - 1]
    room.apply(
        LessonEvent(
            data={
                "event": "lesson",
                "lesson": "openings",
                "step": step.number,
                "steps": len(lesson.steps),
                "kind": "play",
                "text": "Opening throw 3-1: make your play.",
                "dice": [3, 1],
            }
        ),
        now=0.0,
    )
    assert room.lesson["number"] == OPENINGS.info.number and room.problem.dice == (3, 1)
    assert room.problem.position == step.start
    assert room.problem.label == f"Lesson {OPENINGS.info.number}, step {step.number}"


def test_sessions_end_when_idle_and_students_go_with_the_class() -> None:
    sessions = Sessions()
    teacher = sessions.new("teacher", now=0.0)
    student = sessions.new("student", now=0.0, class_id="c1", name="Ada")
    assert sessions.get(teacher.id, now=60.0) is teacher
    assert sessions.end_students() == 1 and sessions.get(student.id, now=61.0) is None
    assert sessions.get(teacher.id, now=4 * 3600.0) is None
    for n in range(500):
        sessions.new("visitor", now=float(n))
    assert sessions.count("visitor") <= 400


def test_the_rate_limit_refills_with_time() -> None:
    limit = RateLimit(burst=2, every=1.0)
    assert [limit.allow("a", 0.0) for _ in range(3)] == [True, True, False]
    assert limit.allow("b", 0.0) and limit.allow("a", 1.0) and not limit.allow("a", 1.1)


def test_a_command_that_fails_answers_in_words_and_the_queue_goes_on() -> None:
    class Table:
        def leave_lesson(self) -> str | None:
            raise RuntimeError("the table fell over")

        def class_game(self, side: object) -> str | None:
            return None

    commands = CommandQueue()
    failed, fine = commands.put("leave_lesson"), commands.put("class_game", "white")
    assert commands.run(Table()) == 2  # type: ignore[arg-type]
    assert failed.result() == "The table could not do that: the table fell over"
    assert fine.result() is None


# -- the store and the configuration ---------------------------------------------------------


def test_the_store_keeps_the_class_answers_and_every_learners_progress(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    with Store(path) as store:
        assert store.class_answers() == []
        store.save_lesson_step("Ada", "openings", 4)
        store.save_lesson_step("guest-1", "moving", 12, done=True)
        answer = ClassAnswer(
            "c1",
            "Ada",
            "White to play 3-1",
            "4HPwATDgc/ABMA",
            (3, 1),
            "8/5 6/5",
            "8/5 6/5",
            True,
            0.0,
            "2026-01-01T10:00:00.000+00:00",
        )
        store.save_class_answer(answer)
        with pytest.raises(StoreError, match="dice"):
            store.save_class_answer(
                ClassAnswer("c1", "Ben", "q", "", (7, 1), "a", "b", False, None, "")
            )
        with pytest.raises(StoreError):
            store.save_class_answer(
                ClassAnswer("c1", "Ben", "q", "nonsense", None, "a", "b", False, None, "")
            )
    with Store(path) as again:
        assert again.class_answers() == [answer] and again.class_answers("Ben") == []
        records = again.all_lesson_progress()
        assert [(r.player_slot, r.lesson_id, r.step, r.done) for r in records] == [
            ("Ada", "openings", 4, False),
            ("guest-1", "moving", 12, True),
        ]
        assert again.activity_since("2000-01-01") == (0, 2)


def test_the_companion_section_is_off_by_default_and_checked() -> None:
    config = load_config_text("")
    assert config.companion.enabled is False and config.companion.port == 8080
    with pytest.raises(ConfigError, match=r"\[companion\] teacher_pin: must be set"):
        load_config_text("[companion]\nenabled = true\n")
    with pytest.raises(ConfigError, match=r"\[companion\] teacher_pin: 'abcd' is not 6 to 8"):
        load_config_text('[companion]\nteacher_pin = "abcd"\n')
    with pytest.raises(ConfigError, match=r"\[companion\] allow: '10\.0\.0\.300'"):
        load_config_text('[companion]\nallow = "10.0.0.300"\n')
    on = load_config_text(
        '[companion]\nenabled = true\nteacher_pin = "654321"\naddress = "wlan0"\n'
        'allow = "127.0.0.1, 192.168.1.0/24"\n'
    )
    assert on.companion.address == "wlan0"


def test_the_example_configuration_reads(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "deploy" / "config.example.toml"
    config = load_config_text(example.read_text(encoding="utf-8"))
    assert config.companion.enabled is False and config.companion.address
