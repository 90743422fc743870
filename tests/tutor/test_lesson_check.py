"""``kiosk lesson check``: every declared fact against the engine, GNU Backgammon and the
books, every citation against the books' text, and no figure stated without a fact."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.books import sources
from kiosk.tutor.lessons.facts import check_lesson, fact_bearing
from kiosk.tutor.lessons.model import lesson_files, read_lesson

HEAD = 'id = "t"\nnumber = 1\ntitle = "T"\nsummary = "S"\n'
BOOKS_HERE = (sources.BOOKS_DIR / sources.BOOKS["Cady"].file).exists()


def _lesson(tmp_path: Path, steps: str):
    path = tmp_path / "t.toml"
    path.write_text(HEAD + steps, encoding="utf-8")
    return read_lesson(path)


def test_the_installed_lessons_pass_the_check() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "lesson", "check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len([line for line in lines if line.startswith("ok")]) == len(lesson_files())
    assert "wrong" not in done.stdout


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ('["pips white = 160"]', "the engine finds 167"),
        ('["distance 8 = 5"]', "the engine finds 6"),
        ('["men black 13 = 4"]', "the engine finds 5"),
        ('["quote Cady 583: leave a blot where it is hit most"]', "does not say so"),
        ('["match-equity 1 3 = 70"]', "the Kazaross XG2 table gives 75"),
        ('["match-equity 1 3 post-crawford = 75"]', "the Kazaross XG2 table gives 68"),
    ],
)
def test_a_wrong_fact_fails(tmp_path, facts, message) -> None:
    if "quote" in facts and not BOOKS_HERE:
        pytest.skip("the books' transcriptions are not on this machine")
    lesson = _lesson(
        tmp_path,
        f'[[step]]\nkind = "explain"\ntext = "Six throws."\ncite = "Cady, Tactics VII"\n'
        f"facts = {facts}\n",
    )
    problems = check_lesson(lesson)
    assert any(message in p.message and not p.skipped for p in problems), problems


def test_a_figure_without_facts_fails(tmp_path) -> None:
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "explain"\ntext = "It is hit by 11 throws."\ncite = "Cady, Playing"\n',
    )
    assert fact_bearing(lesson.steps[0])
    assert [p.message for p in check_lesson(lesson)] == ["states a figure but declares no facts"]


@pytest.mark.parametrize(
    ("cite", "message"),
    [
        ("Cady, Tactics XX", "no section"),
        ("catalogue 5.2", "names no book"),
        ("Foster", "no section or law"),
    ],
)
def test_a_bad_citation_fails(tmp_path, cite, message) -> None:
    lesson = _lesson(tmp_path, f'[[step]]\nkind = "explain"\ntext = "Words."\ncite = "{cite}"\n')
    assert any(message in p.message for p in check_lesson(lesson))


@pytest.mark.skipif(not BOOKS_HERE, reason="the books' transcriptions are not on this machine")
def test_every_known_section_starts_where_the_registry_says() -> None:
    for book, sections in sources.SECTIONS.items():
        for name in sections:
            cite = f"{book} {name}" if name.startswith(("law ", "#")) else f"{book}, {name}"
            if book == "Hoyle":
                cite = f"Hoyle's rules for setting out {name}"
            assert sources.check(cite) == [], cite


def test_citations_carry_the_books_years() -> None:
    assert sources.with_years("Crawley, Hints 6; Foster law 12") == (
        "Crawley, Hints 6; Foster law 12 (Crawley 1858; Foster 1897)"
    )
    assert sources.with_years("Parker, Optional Doubling").endswith("(Parker, undated)")
