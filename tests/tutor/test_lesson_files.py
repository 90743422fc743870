"""The lesson files: every one loads and is checked; bad files get clear errors; the
opening plays are legal; the chances are the exact counts of the 36 throws."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.rules import Position
from kiosk.tutor.lessons import LessonError, catalogue, figures, load_lesson
from kiosk.tutor.lessons.model import (
    ChartStep,
    CountStep,
    PlayStep,
    QuestionStep,
    SetupStep,
    lesson_files,
    read_lesson,
)

LESSONS = [read_lesson(p) for p in lesson_files()]


def test_the_catalogue_lists_the_lessons_in_order() -> None:
    infos = catalogue()
    assert [i.number for i in infos] == list(range(1, 30))
    assert len({i.id for i in infos}) == 29
    order = [i.id for i in infos]
    # notation and today's opening rule before the openings; the cube and matches before
    # the books' problems and Crawley's games
    assert order.index("notation") < order.index("openings")
    assert order.index("starting") < order.index("openings")
    for late in ("problems", "crawley-games"):
        assert order.index("doubling") < order.index(late)
        assert order.index("match-play") < order.index(late)
    # practice with the cube in play comes after the lesson that teaches the cube
    assert order.index("doubling") < order.index("cube-in-play")
    assert order.index("doubling") < order.index("racing")
    # practice at a match score after the match lesson and the money cube's practice;
    # replies to the opening after the lessons on the start and the openings
    assert order.index("match-play") < order.index("cube-at-the-score")
    assert order.index("cube-in-play") < order.index("cube-at-the-score")
    assert order.index("openings") < order.index("replies")
    for info in infos:
        assert info.title and info.summary
        assert load_lesson(info.id).info == info


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_explanation_cites_a_book(lesson) -> None:
    for step in lesson.steps:
        if isinstance(step, SetupStep):
            continue
        assert step.cite, f"{lesson.id} step {step.number} ({step.kind}) has no citation"
        assert step.text


def test_an_unknown_lesson_names_the_known_ones() -> None:
    with pytest.raises(LessonError, match="no lesson 'nonesuch'.*openings"):
        load_lesson("nonesuch")


GOOD = """
id = "t"
number = 1
title = "T"
summary = "S"
"""


def _write(tmp_path: Path, steps: str, head: str = GOOD) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(head + steps, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ("", "t.toml: step: a lesson needs at least one"),
        ('[[step]]\nkind = "lecture"\ntext = "x"\n', "t.toml: step 1: kind: must be one of"),
        ('[[step]]\nkind = "explain"\n', "t.toml: step 1: text: missing"),
        ('[[step]]\nkind = "explain"\ntext = "x"\ncolour = 1\n', "step 1: colour: unknown key"),
        ('[[step]]\nkind = "explain"\ntext = "x"\nlight = ["25"]\n', "step 1: light: '25' is not"),
        (
            '[[step]]\nkind = "explain"\ntext = "x"\n[[step]]\nkind = "play"\ntext = "p"\n'
            'dice = [3, 1]\naccept = ["8/4 6/5"]\n',
            "step 2: accept: '8/4 6/5' with 3-1:",
        ),
        ('[[step]]\nkind = "play"\ntext = "p"\ndice = [7, 1]\naccept = []\n', "step 1: dice:"),
        (
            '[[step]]\nkind = "question"\ntext = "q"\nchoices = ["1", "2"]\nanswer = 0\n'
            'check = "shots 12"\n',
            "step 1: answer: the right choice must be 3",
        ),
        (
            '[[step]]\nkind = "question"\ntext = "q"\nchoices = ["1", "2"]\nanswer = 5\n',
            "step 1: answer: must be a whole number from 0 to 1",
        ),
        (
            '[[step]]\nkind = "setup"\ntext = "s"\nposition = { white = { 30 = 2 } }\n',
            "step 1: position.white: '30' is not a point",
        ),
        (
            '[[step]]\nkind = "setup"\ntext = "s"\nposition = "nonsense!"\n',
            "step 1: position: 'nonsense!' is not a Position ID",
        ),
        (
            '[[step]]\nkind = "count"\ntext = "c"\nwhat = "shots"\nat = "8"\n',
            "step 1: at: there is no blot",
        ),
        ('[[step]]\nkind = "replay"\ntext = "r"\ngame = 1\nturns = [5, 1]\n', "step 1: turns:"),
    ],
)
def test_a_bad_file_names_the_file_step_and_key(tmp_path: Path, steps: str, message: str) -> None:
    with pytest.raises(LessonError) as err:
        read_lesson(_write(tmp_path, steps))
    assert message in str(err.value)


def test_broken_toml_and_bad_header(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('id = "x\n', encoding="utf-8")
    with pytest.raises(LessonError, match="broken.toml: is not valid TOML"):
        read_lesson(path)
    with pytest.raises(LessonError, match="t.toml: number: must be a whole number"):
        read_lesson(_write(tmp_path, "", head='id = "t"\nnumber = "one"\n'))
    with pytest.raises(LessonError, match="t.toml: profile: unknown rule profile"):
        read_lesson(
            _write(
                tmp_path, '[[step]]\nkind = "explain"\ntext = "x"\n', GOOD + 'profile = "klingon"\n'
            )
        )


def test_play_steps_follow_the_board_and_replays_expand() -> None:
    lesson = load_lesson("crawley-games")
    plays = [s for s in lesson.steps if isinstance(s, PlayStep)]
    assert len(plays) == 59 + 53  # both games, every turn
    # each turn starts where the book's previous play left the board, across the stretches
    for a, b in zip(plays, plays[1:], strict=False):
        if a.replay == b.replay:
            assert a.plays[a.accept[0]].result == b.start
    firsts = [s for s in plays if s.replay == 2][0], plays[0]
    assert all(s.start == Position.standard(s.start.turn) for s in firsts)


# -- the openings -----------------------------------------------------------------------------


OPENINGS = [s for s in load_lesson("openings").steps if isinstance(s, PlayStep)]


def test_the_opening_lesson_plays_all_21_throws_from_the_start() -> None:
    rolls = {tuple(sorted(s.dice)) for s in OPENINGS}
    assert len(OPENINGS) == 21 and len(rolls) == 21
    assert all(s.start == Position.standard() for s in OPENINGS)
    assert all(len(s.books) >= 2 for s in OPENINGS)


@pytest.mark.parametrize("step", OPENINGS, ids=lambda s: f"{s.dice[0]}-{s.dice[1]}")
def test_every_opening_play_is_legal(step: PlayStep) -> None:
    start = Position.standard()
    texts = [*step.accept, *step.good]
    texts += [t for b in step.books for t in (b.hit, b.gammon) if t]
    for text in texts:
        play = start.parse_play(*step.dice, text)
        assert play.result == step.plays[text].result


# -- the chances --------------------------------------------------------------------------------


ORDERED = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _enumerate_shots(distance: int, stops: frozenset[int] = frozenset()) -> int:
    """Ordered throws that carry one man exactly ``distance``, never stopping on a stop."""
    hits = 0
    for a, b in ORDERED:
        if a == b:
            reach = any(
                a * k == distance and all(a * j not in stops for j in range(1, k))
                for k in range(1, 5)
            )
        else:
            reach = distance in (a, b) or (a + b == distance and (a not in stops or b not in stops))
        hits += reach
    return hits


def test_shots_by_distance_match_enumeration_of_the_36_throws() -> None:
    for d in range(1, 25):
        assert figures.shots_at_distance(d) == _enumerate_shots(d), d


@pytest.mark.parametrize(
    ("distance", "stops"), [(8, {4}), (6, {2, 3, 4}), (12, {6}), (9, {3}), (12, {3, 4, 6, 8, 9})]
)
def test_blocked_stops_match_enumeration(distance: int, stops: set[int]) -> None:
    assert figures.shots_at_distance(distance, stops) == _enumerate_shots(
        distance, frozenset(stops)
    )


def test_entering_matches_enumeration() -> None:
    for open_points in range(7):
        enter = sum(1 for a, b in ORDERED if a <= open_points or b <= open_points)
        assert figures.entering(open_points) == enter
    assert figures.check("rolls") == len(ORDERED)


def test_the_chances_lesson_shows_where_the_books_are_wrong() -> None:
    charts = [s for s in load_lesson("chances").steps if isinstance(s, ChartStep)]
    shots_chart = next(c for c in charts if c.chart == "shots")
    assert shots_chart.exact == {d: _enumerate_shots(d) for d in range(1, 25)}
    assert shots_chart.wrong() == [("Hoyle", 12, 1, 3)]  # Berkeley's correction of Hoyle
    entering = next(c for c in charts if c.chart == "entering")
    assert entering.wrong() == []
    checked = [s for s in load_lesson("chances").steps if isinstance(s, QuestionStep) and s.check]
    assert len(checked) >= 5
    counts = [s for s in load_lesson("chances").steps if isinstance(s, CountStep)]
    assert {c.at for c in counts} == {"9", None}


@pytest.mark.parametrize(
    "spec", ["shots", "shots 0", "shots 25", "shots 8 stops 9", "enter 7", "luck"]
)
def test_a_bad_check_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="the forms are"):
        figures.check(spec)
