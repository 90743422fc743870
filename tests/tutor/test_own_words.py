"""The lessons teach the books in their own words: no run of nine words stands in both a
lesson and a book's transcription (a quote in a fact is for the check, not shown)."""

from __future__ import annotations

import re

import pytest

from kiosk.books import sources
from kiosk.tutor.lessons.model import lesson_files, read_lesson

RUN = 9
FILES = sorted({book.file for book in sources.BOOKS.values() if book.file})
BOOKS_HERE = all((sources.BOOKS_DIR / file).exists() for file in FILES)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'", ""))


def _runs(words: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _shown(lesson) -> list[tuple[int, str]]:
    """Every piece of words a visitor reads of a lesson, by step (0: title and summary)."""
    out = [(0, f"{lesson.info.title}. {lesson.info.summary}")]
    for step in lesson.steps:
        parts = [step.text, getattr(step, "explain", ""), getattr(step, "lesson_words", "")]
        parts += list(getattr(step, "choices", ()))
        parts += [getattr(b, "note", "") for b in getattr(step, "books", ())]
        out += [(step.number, part) for part in parts if part]
    return out


@pytest.fixture(scope="module")
def book_runs() -> dict[tuple[str, ...], str]:
    runs: dict[tuple[str, ...], str] = {}
    for file in FILES:
        text = (sources.BOOKS_DIR / file).read_text(encoding="utf-8")
        for run in _runs(_words(text)):
            runs.setdefault(run, file)
    return runs


@pytest.mark.skipif(not BOOKS_HERE, reason="the books' transcriptions are not on this machine")
@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.name)
def test_no_lesson_shares_nine_words_in_a_row_with_a_book(path, book_runs) -> None:
    lesson = read_lesson(path)
    shared = [
        f"step {number}: {' '.join(run)!r} ({book_runs[run]})"
        for number, words in _shown(lesson)
        for run in sorted(_runs(_words(words)))
        if run in book_runs
    ]
    assert not shared, "\n".join(shared)


@pytest.mark.skipif(not BOOKS_HERE, reason="the books' transcriptions are not on this machine")
def test_the_check_finds_a_copied_sentence(book_runs) -> None:
    copied = "Thus, place a man on his cinque or bar-point, and if the adversary fails"
    assert _runs(_words(copied)) & set(book_runs)
