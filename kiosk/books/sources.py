"""The books the lessons and the coach cite: who wrote them, when, and where each cited
section or law starts in the transcription, so that every citation can be checked.

A citation is written ``Book, Section`` (``Cady, Tactics VII``), ``Book law N``
(``Foster law 12``), several joined by ``;``, and may carry a parenthesis naming where a
quoted author is found (``Hoyle's rules for setting out #7 (Cady, Table No. I)``) or a
line (``[003:367]``). :func:`parse` reads one into :class:`Citation` objects;
:func:`check` finds each in :data:`SECTIONS` and, given the folder of the transcriptions,
confirms the words expected on the section's first line; :func:`with_years` adds the
books' years for display.

>>> [str(c) for c in parse("Cady, Tactics XI and XII; Foster law 12")]
['Cady, Tactics XI [000:618]', 'Cady, Tactics XII [000:620]', 'Foster law 12 [004:111]']
>>> with_years("Cady, Tactics VII; Foster, Chances")
'Cady, Tactics VII; Foster, Chances (Cady 1895; Foster 1897)'
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from kiosk.errors import TableError


def _books_dir() -> Path:
    """``$BACKGAMMON_BOOKS``, else ``shared/books`` beside the checkout, else the team's copy."""
    if os.environ.get("BACKGAMMON_BOOKS"):
        return Path(os.environ["BACKGAMMON_BOOKS"])
    beside = Path(__file__).resolve().parents[2].parent / "shared" / "books"
    return beside if beside.is_dir() else Path("/work/shared/books")


#: Where the transcriptions are looked for (the product does not ship them).
BOOKS_DIR = _books_dir()


@dataclass(frozen=True)
class Book:
    """One source: its short name, author and title, year (None if undated) and file."""

    key: str
    author: str
    title: str
    year: int | None
    file: str | None


BOOKS: dict[str, Book] = {
    b.key: b
    for b in (
        Book("Cady", "A. Howard Cady", "Backgammon (Spalding)", 1895, "000_039a5167d70e3dc3.txt"),
        Book(
            "Hoffmann",
            "Louis Hoffmann",
            "Hoyle's Games Modernized",
            1909,
            "001_03e188ac6ef5d070.txt",
        ),
        Book("Parker", "Parker Brothers", "Modern Backgammon", None, "002_8ad0f3fa7d887f72.txt"),
        Book(
            "Crawley",
            "Rawdon Crawley",
            "Backgammon: Its Theory and Practice",
            1858,
            "003_cb84f7dcf7cee574.txt",
        ),
        Book("Foster", "R. F. Foster", "Foster's Complete Hoyle", 1897, "004_f507fbc41681c082.txt"),
        # Quoted by the others: Hoyle's rules are found in Crawley (and Cady's Table No. I).
        Book(
            "Hoyle",
            "Edmond Hoyle",
            "A Short Treatise on the Game of Back-Gammon",
            1743,
            "003_cb84f7dcf7cee574.txt",
        ),
        Book("Berkeley", "Berkeley, quoted by Cady", "Backgammon", None, None),
        Book("GNU Backgammon", "the GNU Backgammon team", "GNU Backgammon's analysis", None, None),
    )
}

_ROMAN = ("I II III IV V VI VII VIII IX X XI XII XIII XIV XV").split()


def _numbered(prefix: str, lines: list[int], words: str = "{n}.") -> dict[str, tuple[int, str]]:
    return {
        f"{prefix}{_ROMAN[n - 1] if '{r}' in words else n}": (
            line,
            words.format(n=n, r=_ROMAN[n - 1] if n <= len(_ROMAN) else ""),
        )
        for n, line in enumerate(lines, start=1)
    }


#: For each book, its cited sections: the first line in the transcription and words on it.
SECTIONS: dict[str, dict[str, tuple[int, str]]] = {
    "Cady": {
        "The Implements": (341, "THE IMPLEMENTS"),
        "The Technical Terms": (381, "THE TECHNICAL TERMS"),
        "The Game": (409, "THE GAME"),
        "Throwing": (419, "THROWING"),
        "Playing": (423, "PLAYING"),
        "The Restrictions in Playing": (451, "THE RESTRICTIONS IN PLAYING"),
        "Hitting a Blot": (459, "HITTING A BLOT"),
        "Bearing": (473, "BEARING"),
        "Table No. I": (525, "TABLE No. I."),
        "Table No. II": (589, "TABLE No. II."),
        "Calculation of Chances": (642, "CALCULATION OF CHANCES"),
        "Laws of Backgammon": (774, "LAWS OF BACKGAMMON"),
        "Problems Illustrating the Game": (803, "PROBLEMS ILLUSTRATING THE GAME"),
        "Problem No. I": (807, "No. I."),
        "Problem No. II": (819, "No. II."),
        "Problem No. III": (830, "No. III."),
        "Russian Backgammon": (841, "RUSSIAN BACKGAMMON."),
        "Turkish Backgammon": (879, "TURKISH BACKGAMMON."),
        **_numbered(
            "Tactics ",
            [507, 509, 511, 513, 517, 581, 583, 612, 614, 616, 618, 620, 624, 628, 632],
            "{r}. ",
        ),
        **_numbered("law ", [778, 779, 783, 784, 785, 786, 787, 791, 792, 793, 797, 801]),
    },
    "Hoffmann": {
        "introduction": (30, "Backgammon is played by two persons"),
        "Playing": (46, "Playing."),
        "Bearing off the Men": (68, "Bearing off the Men."),
        "Hints for Play": (96, "Hints for Play."),
    },
    "Parker": {
        "How to Play": (46, "HOW TO PLAY"),
        "Terms of Play": (64, "TERMS OF PLAY"),
        "How to Move": (80, "HOW TO MOVE"),
        "Capture": (88, "CAPTURE"),
        "Rules Governing Play": (100, "RULES GOVERNING PLAY"),
        "Bearing": (110, "BEARING"),
        "Scoring by Games": (122, "SCORING BY GAMES"),
        "Scoring by Loser's Stranded Men": (130, "SCORING BY LOSER'S STRANDED MEN"),
        "Scoring by Stranded Men and Games Combined": (
            146,
            "SCORING BY STRANDED MEN AND GAMES COMBINED",
        ),
        "Optional Doubling": (150, "OPTIONAL DOUBLING"),
        "Chouette": (160, "CHOUETTE"),
    },
    "Crawley": {
        "Ch. III": (285, "Chapter III."),
        "Ch. III, Instructions": (287, "Instructions."),
        "Ch. III, First Game": (361, "First Game"),
        "Ch. III, Second Game": (485, "Second Game"),
        "Hints": (602, "Hints, Observations, and Cautions."),
        **_numbered("Hints ", [604, 606, 608, 610, 612, 614]),
        "Directions": (616, "Directions for a Learner to Bear His Men."),
        **_numbered("Directions ", [618, 620, 622, 624, 626, 628, 630]),
        "Ch. IV": (632, "Chapter IV."),
        **_numbered("Ch. IV law ", [639, 641, 643, 645, 647]),
        "Ch. IV, Further Rules and Hints": (649, "Further Rules and Hints"),
        "Further Rules and Hints": (649, "Further Rules and Hints"),
        "Ch. IV, Hoyle's Rules for Playing at Setting Out": (
            731,
            "Hoyle’s Rules for Playing at Setting Out",
        ),
        "Ch. V": (791, "Chapter V."),
        "Ch. V, A Case of Curiosity and Instruction": (
            953,
            "A Case of Curiosity and Instruction",
        ),
        "Ch. V, A Critical Game": (959, "A Critical Game"),
        "Ch. V, A Back Game": (965, "A Back Game."),
        "Ch. V, Another Curious Case": (975, "Another Curious Case."),
    },
    "Foster": {
        "opening of the backgammon section": (3, "Backgammon board; initial setup"),
        "The Object of the Game": (15, "Object of the Game"),
        "The Dice": (19, "The Dice."),
        "The Moves": (23, "The Moves."),
        "Throwing Off": (39, "Throwing Off."),
        "Suggestions for Good Play": (43, "SUGGESTIONS FOR GOOD PLAY."),
        "The English Game": (63, "The English Game."),
        "The American Game": (65, "The American Game."),
        "The Forward Game": (73, "The Forward Game."),
        "The Backward Game": (75, "The Backward Game."),
        "Chances": (85, "Chances."),
        # the heading of Foster's Russian game is lost in the scan: its first line stands
        "Russian backgammon": (115, "In this variety of the game"),
        **_numbered("law ", [89 + 2 * i for i in range(13)]),
    },
    "Hoyle": _numbered("#", [735 + 2 * i for i in range(27)]),
    "Berkeley": {},
    "GNU Backgammon": {},
}


class CitationError(TableError, ValueError):
    """A citation that names no known book or section."""


@dataclass(frozen=True)
class Citation:
    """One cited section: the book's key, the section's name, its file and first line."""

    book: str
    section: str
    line: int | None

    def __str__(self) -> str:
        sep = " " if self.section.startswith(("law ", "#")) else ", "
        where = ""
        book = BOOKS[self.book]
        if self.line is not None and book.file:
            where = f" [{book.file[:3]}:{self.line}]"
        return f"{self.book}{sep}{self.section}{where}"


def _split(text: str) -> list[str]:
    """Split at ``;`` outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == ";" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def _lookup(book: str, section: str) -> Citation:
    sections = SECTIONS[book]
    if section in sections:
        return Citation(book, section, sections[section][0])
    if not sections:  # a source quoted elsewhere or an analysis: any section stands
        return Citation(book, section, None)
    raise CitationError(f"{book} has no section {section!r} known to the lessons")


def _expand(section: str, book: str = "") -> list[str]:
    """``Tactics XI and XII`` -> both; ``laws 1-5`` -> each; ``A and B`` -> both."""
    if section in SECTIONS.get(book, {}):
        return [section]
    m = re.fullmatch(r"(.*?)laws? (\d+)-(\d+)", section)
    if m:
        return [f"{m.group(1)}law {n}" for n in range(int(m.group(2)), int(m.group(3)) + 1)]
    if " and " in section:
        first, second = section.split(" and ", 1)
        head = first.rsplit(" ", 1)[0] + " " if " " in first else ""
        if second.startswith(("law ", "#")) or not head:
            return [first, second]
        if re.fullmatch(r"[IVX]+|\d+|#\d+", second):
            return [first, head + second]
        return [first, (first.rsplit(", ", 1)[0] + ", " if ", " in first else "") + second]
    return [section]


def parse(cite: str) -> list[Citation]:
    """The sections a citation names (CitationError for anything not known)."""
    found: list[Citation] = []
    for part in _split(cite):
        inner = re.findall(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)", part)
        bare = re.sub(r"\s*\([^()]*(?:\([^()]*\)[^()]*)*\)", "", part).strip()
        for group in inner:
            if group.split(",")[0].split(" ")[0] in BOOKS:
                found += parse(group)
        bare = re.sub(r"\s*\[\d{3}:\d+\]$", "", bare).split(":")[0].strip()
        m = re.fullmatch(r"Hoyle's rules for setting out (.*)", bare)
        if m:
            found += [_lookup("Hoyle", s) for s in _expand(m.group(1))]
            continue
        m = re.fullmatch(r"(\w+) via (\w+), (.*)", bare)
        if m and m.group(1) in BOOKS and m.group(2) in BOOKS:
            found += [_lookup(m.group(2), s) for s in _expand(m.group(3))]
            continue
        book = next((k for k in BOOKS if bare == k or bare.startswith((k + ",", k + " "))), None)
        if book is None:
            raise CitationError(f"{part!r} names no book the lessons know")
        section = bare[len(book) :].lstrip(", ").strip()
        if not section:
            raise CitationError(f"{part!r} names a book but no section or law")
        if book == "Cady" and section.startswith("Laws of Backgammon"):
            section = "Laws of Backgammon"
        for name in _expand(section, book):
            if book == "Crawley" and re.fullmatch(r"(Second|First) Game", name):
                name = "Ch. III, " + name
            found.append(_lookup(book, name))
    return found


def check(cite: str, folder: Path | None = BOOKS_DIR) -> list[str]:
    """What is wrong with a citation: unknown books or sections, or (when the books'
    transcriptions are in ``folder``) a section whose first line lacks its words."""
    try:
        citations = parse(cite)
    except CitationError as err:
        return [str(err)]
    problems = []
    for c in citations:
        book = BOOKS[c.book]
        if c.line is None or book.file is None or folder is None:
            continue
        path = folder / book.file
        if not path.exists():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        words = SECTIONS[c.book][c.section][1]
        text = lines[c.line - 1] if c.line <= len(lines) else ""
        if _plain(words) not in _plain(text):
            problems.append(f"{c}: line {c.line} does not read {words!r}")
    return problems


def quote(book: str, line: int, words: str, folder: Path = BOOKS_DIR) -> bool | None:
    """Whether ``words`` stand on ``line`` of ``book``'s transcription (None if absent)."""
    entry = BOOKS[book]
    path = folder / entry.file if entry.file else None
    if path is None or not path.exists():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    return 1 <= line <= len(lines) and _plain(words) in _plain(lines[line - 1])


def section_text(citation: Citation, folder: Path = BOOKS_DIR) -> str | None:
    """The words of a cited section: from its first line to the line before the next
    section of the book the lessons know (None if its transcription is absent)."""
    entry = BOOKS[citation.book]
    if citation.line is None or entry.file is None or not (folder / entry.file).exists():
        return None
    lines = (folder / entry.file).read_text(encoding="utf-8").splitlines()
    starts = sorted(line for line, _ in SECTIONS[citation.book].values() if line)
    end = next((line for line in starts if line > citation.line), citation.line + 1)
    return " ".join(lines[citation.line - 1 : end - 1])


def _plain(text: str) -> str:
    text = text.replace("’", "'").replace("*", "").replace("#", "")
    return " ".join(text.split()).lower()


def with_years(cite: str) -> str:
    """The citation with each cited book's year (or "undated") added at the end."""
    try:
        books = list(dict.fromkeys(c.book for c in parse(cite)))
    except CitationError:
        return cite
    years = [
        f"{b} {BOOKS[b].year}" if BOOKS[b].year else f"{b}, undated"
        for b in books
        if b != "GNU Backgammon"
    ]
    return f"{cite} ({'; '.join(years)})" if years else cite
