"""The listings read only the page they show: the Replay menu's last games, the teacher's
progress page; each the same as filtering everything kept."""

from __future__ import annotations

from pathlib import Path

from kiosk.store import Store
from kiosk.store.store import ClassAnswer
from tests.store.games import record_random_game


def test_the_last_finished_games_are_those_every_game_gives(db_path: Path) -> None:
    with Store(db_path) as store:
        for n in range(12):
            record_random_game(store, 34 + n)
            if n % 4 == 1:  # a game left unfinished among them
                store.start_game("modern", "4HPwATDgc/ABMA", "white")
        every = [g for g in store.games() if g.finished and g.winner]
        assert len(every) == 12
        assert store.recent_games(8) == every[-8:]
        assert store.recent_games(50) == every
        assert store.recent_games(0) == []


def _answer(student: str, n: int) -> ClassAnswer:
    return ClassAnswer(
        "c1", student, f"q{n}", "4HPwATDgc/ABMA", (3, 1), "8/5 6/5", "8/5 6/5", n % 2 == 0,
        0.0, f"2026-01-01T10:00:{n:02d}.000+00:00",
    )


def test_a_page_of_learners_holds_their_rows_only(db_path: Path) -> None:
    with Store(db_path) as store:
        assert store.learners(0, 10) == (0, [])
        names = ["ada", "Ben", "cleo", "Dan", "émile", "guest-1"]
        for i, name in enumerate(names):
            for lesson in ("moving", "openings")[: 1 + i % 2]:
                store.save_lesson_step(name, lesson, i + 1, done=i % 3 == 0)
        store.save_class_answer(_answer("Ben", 1))
        store.save_class_answer(_answer("zoe", 2))  # answered a vote, began no lesson
        store.save_class_answer(_answer("Ben", 3))
        total, first = store.learners(0, 3)
        ordered = sorted([*names, "zoe"], key=str.lower)
        assert total == 7 and first == ordered[:3]
        assert store.learners(6, 3) == (7, ordered[6:])
        lessons, answers = store.progress_of(first)
        every = store.all_lesson_progress()
        assert lessons == [r for r in every if r.player_slot in first]
        assert answers == [a for a in store.class_answers() if a.student in first]
        assert [a.question for a in answers] == ["q1", "q3"]
        assert store.progress_of([]) == ([], [])
