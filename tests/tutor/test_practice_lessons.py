"""The practice lessons 27-29 (the cube at a match score, duplication and game plans,
replies to the opening): what their words state that no fact of the lesson check covers."""

from __future__ import annotations

import re

from kiosk.rules import BLACK, WHITE, all_rolls, generate
from kiosk.tutor.features import has_contact
from kiosk.tutor.lessons import load_lesson
from kiosk.tutor.lessons.model import PlayStep, QuestionStep


def _play(lesson_id: str, number: int) -> PlayStep:
    step = load_lesson(lesson_id).steps[number - 1]
    assert isinstance(step, PlayStep)
    return step


def test_each_match_score_question_is_checked_at_its_score_against_money() -> None:
    lesson = load_lesson("cube-at-the-score")
    scored = [
        s
        for s in lesson.steps
        if isinstance(s, QuestionStep) and any(re.match(r"cube \d", f) for f in s.facts)
    ]
    assert len(scored) == 6
    for step in scored:
        fact = next(f for f in step.facts if re.match(r"cube \d", f))
        mine, his = fact.split()[1:3]
        assert f"{mine}-away" in step.text and f"{his}-away" in step.text, step.number
    # where a money verdict stands beside the score's, the two differ: the lesson's point
    differ = 0
    for step in scored:
        verdicts = {f.split(" = ")[0]: f.split(" = ")[1] for f in step.facts if "cube" in f}
        if "cube" in verdicts:
            others = [v for k, v in verdicts.items() if k != "cube"]
            assert all(v != verdicts["cube"] for v in others), step.number
            differ += 1
    assert differ == 5


def test_the_five_point_prime_lets_out_only_a_six_by_way_of_the_three_point() -> None:
    step = _play("duplication-and-plans", 5)
    after = step.plays[step.accept[0]].result
    assert all(after.count(WHITE, p) >= 2 for p in range(4, 9))
    escapes = set()
    for d1, d2, _ in all_rolls():
        for play in generate(after, d1, d2):
            behind = sum(play.result.count(BLACK, p) for p in range(17, 25))
            if behind < 2:  # a man of his got past your 8 point
                escapes.add((max(d1, d2), min(d1, d2)))
                assert any(s.dst == 22 for s in play.steps)  # by way of your 3 point
    assert escapes == {(6, 1), (6, 2)}


def test_the_racing_play_ends_the_contact() -> None:
    step = _play("duplication-and-plans", 3)
    assert has_contact(step.start)
    assert not has_contact(step.plays[step.accept[0]].result)


def test_the_blitz_is_against_a_weak_board() -> None:
    step = _play("duplication-and-plans", 6)
    home = [p for p in range(1, 7) if step.start.count(BLACK, p) >= 2]
    assert home == [6]  # his own board: one point made


def test_the_replies_are_not_lesson_10s() -> None:
    def replies(lesson_id: str) -> set[tuple[str, tuple[int, int]]]:
        return {
            (s.start.position_id(), s.dice)
            for s in load_lesson(lesson_id).steps
            if isinstance(s, PlayStep)
        }

    new, old = replies("replies"), replies("starting")
    assert len(new) == 9 and not new & old
    # each reply answers one of black's opening plays: the start is the opening position
    # with one black play made
    for step in load_lesson("replies").steps:
        if isinstance(step, PlayStep):
            assert step.start.pips(WHITE) == 167 and step.start.turn == WHITE
