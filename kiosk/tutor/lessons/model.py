"""Lessons as data: one TOML file a lesson, read and checked into :class:`Lesson` objects.

A lesson file has ``id``, ``number``, ``title``, ``summary`` (and optionally ``profile``,
the rule profile its plays follow, and ``hints``, how much a lifted man's destinations
are shown in its plays: ``everything``, ``legal``, ``budget N`` or ``think``, as
``[tutor] hints`` of the table's configuration, which it overrides), then one ``[[step]]``
table per step. Every step has ``kind`` and ``text``, and may have ``cite`` (book and
section or law), ``facts`` (the figures and claims its words state, checked by
:mod:`.facts`) and ``light`` (table
locations to light: ``"1"``-``"24"`` in white's numbering, ``"bar-white"``, ``"off-black"``,
or a side's own point written ``"black:6"``, ``"white:bar"``). The kinds:

``explain``
    Words, with the board lit to show what they mean.
``setup``
    ``position``: the learner lays it out on the table; the referee guides each man.
``play``
    ``dice = [3, 1]``: the learner makes the play on the table (``wrong_first = true``: the
    step asks for a wrong move first, which is not counted as a mistake). ``accept`` lists the
    right answers in GNU Backgammon notation, ``good`` plays that are sound but not the
    best; ``explain`` says why. ``position`` (optional) is where the play starts; without
    it the play starts where the last step left the board. ``books`` (optional) sets each
    book's play beside today's: ``{book, hit, gammon, cite}``.
``russian``
    A throw of Russian backgammon played on the table through its referee, under a book's
    rules (``rules = "russian-cady"`` or ``"russian-foster"``) from ``position`` (the Russian
    notation, ``"R:w:h15:h15"``) with ``dice``: the learner lays the men out, then plays every
    part of the throw, the bonus too, each ended with Done; the referee refuses what the
    rules forbid and says why. Any legal play ends the step (GNU Backgammon has no Russian
    game to rate plays by); ``explain`` says what the throw taught.
``question``
    ``choices`` answered with the buttons; ``answer`` is the index of the right one (from
    0), ``explain`` says why. ``check`` (optional) names an exact figure the right choice
    must equal, such as ``"shots 12"`` or ``"enter 2"`` (see :mod:`.figures`).
``count``
    Counted on the learner's own board: ``what = "shots"`` at the blot on ``at`` (or, without
    ``at``, at whatever blot the learner places), ``"pips"`` for one ``side``, ``"race"``
    (who is forwardest), or ``"stranded"``: the points the loser ``side``'s men left on
    the board score by Parker's ``option`` (1, 2 or 3).
``chart``
    A chart for the display: ``chart = "shots"`` (shots by distance) or ``"entering"``,
    with each book's figures in ``[step.books.NAME]`` tables (``{distance = shots}``).
``replay``
    Expands into one ``play`` step per turn of Crawley's recorded games, each showing the
    book's play (arrows and words) before the learner makes it; ``select`` skips ahead:
    ``game = 1 | 2``, ``turns = [first, last]`` (counted from 1), ``notes`` (optional,
    ``{turn = "words"}``) and ``facts`` (optional, ``{turn = ["fact", ...]}``: what a
    turn's note states, checked on that turn's play).

Positions are ``"standard"``, ``"empty"``, a GNU Backgammon Position ID, or a table
``{white = {6 = 5, 8 = 3}, black = {6 = 2, bar = 1}}`` with each side's men on its own
points (as the books count them); ``turn`` says who is on roll (default white, the
learner's side of the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.books.crawley_games import GAMES, PLAYERS, SOURCE
from kiosk.config import HintBudget
from kiosk.errors import TableError
from kiosk.files import FileProblem, read_toml, shorten
from kiosk.link import LOCATIONS
from kiosk.rules import (
    BAR,
    BLACK,
    WHITE,
    Colour,
    Play,
    Position,
    RuleProfile,
    get_profile,
)
from kiosk.rules.russian import RussianPosition, RussianTurn, get_russian_profile
from kiosk.table.sensing import location, point_of
from kiosk.tutor.lessons import figures

DATA = Path(__file__).with_name("data")
KINDS = ("explain", "setup", "play", "russian", "question", "count", "chart", "replay")
CHARTS = ("shots", "entering")
COUNTS = ("shots", "pips", "race", "stranded")


class LessonError(TableError, ValueError):
    """A lesson file that cannot be used, with the file, step and key at fault."""


@dataclass(frozen=True)
class LessonInfo:
    """What the Lessons menu lists."""

    id: str
    number: int
    title: str
    summary: str


@dataclass(frozen=True, kw_only=True)
class Step:
    """One step of a lesson; ``number`` counts from 1."""

    number: int
    kind: str
    text: str
    cite: str = ""
    light: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()  # claims the words make, checked by :mod:`.facts`


@dataclass(frozen=True, kw_only=True)
class ExplainStep(Step):
    """Words to read, with the board lit."""


@dataclass(frozen=True, kw_only=True)
class SetupStep(Step):
    """The learner lays out ``position`` on the table."""

    position: Position


@dataclass(frozen=True)
class BookPlay:
    """One book's play of a throw, for a single game ("hit") and for a gammon."""

    book: str
    hit: str
    gammon: str
    cite: str
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class PlayStep(Step):
    """The learner plays ``dice`` from ``start``; ``accept`` and ``good`` are canonical plays."""

    start: Position
    dice: tuple[int, int]
    accept: tuple[str, ...]
    good: tuple[str, ...] = ()
    explain: str = ""
    books: tuple[BookPlay, ...] = ()
    plays: Mapping[str, Play] = field(default_factory=dict)  # canonical text -> play
    wrong_first: bool = False  # the step asks for a wrong move first: not a mistake
    replay: int = 0  # a turn of Crawley's game N: the book's play is shown first
    lesson_words: str = ""  # a replayed turn: what the lesson wrote of it (its lead, its note)

    def verdict(self, position_id: str) -> str | None:
        """``"accept"``, ``"good"`` or None for the position a finished play left."""
        for text in self.accept:
            if self.plays[text].result.position_id() == position_id:
                return "accept"
        for text in self.good:
            if self.plays[text].result.position_id() == position_id:
                return "good"
        return None

    def book_names(self, position_id: str) -> list[str]:
        """The books (and aims) whose play left ``position_id``, e.g. ``"Hoyle, for a hit"``."""
        names = []
        for book in self.books:
            for aim, text in (("for a hit", book.hit), ("for a gammon", book.gammon)):
                if text and self.plays[text].result.position_id() == position_id:
                    names.append(f"{book.book}, {aim}")
        return names


@dataclass(frozen=True, kw_only=True)
class RussianPlayStep(Step):
    """A throw of Russian backgammon under ``rules`` (a book's), played on the table from
    ``start`` through the Russian referee; any legal play of it ends the step."""

    rules: str
    start: RussianPosition
    dice: tuple[int, int]
    explain: str = ""


@dataclass(frozen=True, kw_only=True)
class QuestionStep(Step):
    """A question answered with the buttons."""

    choices: tuple[str, ...]
    answer: int
    explain: str = ""
    check: str = ""


@dataclass(frozen=True, kw_only=True)
class CountStep(Step):
    """Counting on the learner's own board; ``board`` is what the lesson expects there."""

    what: str
    board: Position
    at: str | None = None  # table location of the blot (shots)
    side: Colour = WHITE  # whose pips (pips), or the loser (stranded)
    explain: str = ""
    option: int = 1  # Parker's option (stranded)


@dataclass(frozen=True, kw_only=True)
class ChartStep(Step):
    """A chart of exact figures beside each book's."""

    chart: str
    books: Mapping[str, Mapping[int, int]]
    exact: Mapping[int, int]

    def wrong(self) -> list[tuple[str, int, int, int]]:
        """Where a book differs from the exact count: ``(book, x, book's figure, exact)``."""
        return [
            (book, x, value, self.exact[x])
            for book, values in self.books.items()
            for x, value in sorted(values.items())
            if self.exact.get(x) != value
        ]


@dataclass(frozen=True)
class Lesson:
    """A lesson: its menu entry, the rule profile of its plays, and its steps."""

    info: LessonInfo
    profile: RuleProfile
    steps: tuple[Step, ...]
    path: Path
    hints: HintBudget | None = None  # how much a lifted man's destinations are shown
    # (None: as the table's configuration says)

    @property
    def id(self) -> str:
        """The lesson's id."""
        return self.info.id

    @property
    def title(self) -> str:
        """The lesson's title."""
        return self.info.title


# -- reading ------------------------------------------------------------------------------


def lesson_files(folder: Path = DATA) -> list[Path]:
    """The lesson files in ``folder``, in name order."""
    try:
        return sorted(folder.glob("*.toml"))
    except OSError:
        return []


def catalogue(folder: Path = DATA) -> list[LessonInfo]:
    """Every lesson in ``folder``, in lesson-number order (each file is checked; the first
    damaged one raises :class:`LessonError`)."""
    lessons, damaged = survey(folder)
    if damaged:
        raise damaged[0]
    return lessons


def survey(folder: Path = DATA) -> tuple[list[LessonInfo], list[LessonError]]:
    """The lessons that can be used, in lesson-number order, and what is wrong with each
    file that cannot (the menu leaves those out and names them)."""
    lessons: list[LessonInfo] = []
    damaged: list[LessonError] = []
    for path in lesson_files(folder):
        try:
            lessons.append(read_lesson(path).info)
        except LessonError as err:
            damaged.append(err)
    return sorted(lessons, key=lambda i: i.number), damaged


def load_lesson(lesson_id: str, folder: Path = DATA) -> Lesson:
    """The lesson with ``lesson_id``; LessonError if there is none or its file is bad."""
    for path in lesson_files(folder):
        if _peek_id(path) == lesson_id:
            return read_lesson(path)
    known = ", ".join(_peek_id(p) or p.name for p in lesson_files(folder))
    raise LessonError(f"there is no lesson {lesson_id!r} (the lessons are: {known})")


def _peek_id(path: Path) -> str | None:
    try:
        value = read_toml(path, path.name).get("id")
    except (OSError, FileProblem):
        return None
    return value if isinstance(value, str) else None


def read_lesson(path: Path) -> Lesson:
    """Read and check one lesson file; whatever is wrong with it is a :class:`LessonError`."""
    try:
        data = read_toml(path, path.name)
    except FileNotFoundError:
        raise LessonError(f"{path.name}: cannot be read: there is no such file") from None
    except FileProblem as err:
        raise LessonError(str(err)) from None
    try:
        return parse_lesson(data, path)
    except LessonError:
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as err:
        # A value of a shape no check foresaw: the file is damaged all the same.
        raise LessonError(f"{path.name}: cannot be used ({shorten(str(err), 120)})") from None


def parse_lesson(data: Mapping[str, Any], path: Path) -> Lesson:
    """Check a lesson's parsed TOML and build the :class:`Lesson` (``path`` names it in errors)."""
    where = _Where(path.name)
    known = {"id", "number", "title", "summary", "profile", "hints", "step"}
    where.unknown(data, known)
    lesson_id = where.text(data, "id")
    if not lesson_id.replace("-", "").isalnum() or lesson_id != lesson_id.lower():
        raise where.error("id", "use lower-case letters, digits and hyphens")
    number = where.integer(data, "number", 1, 99)
    info = LessonInfo(lesson_id, number, where.text(data, "title"), where.text(data, "summary"))
    profile_name = where.text(data, "profile", "modern")
    try:
        profile = get_profile(profile_name)
    except (KeyError, ValueError) as err:
        raise where.error("profile", str(err)) from None
    hints = None
    if "hints" in data:
        try:
            hints = HintBudget.parse(data["hints"])
        except ValueError as err:
            raise where.error("hints", str(err)) from None
    raw_steps = data.get("step")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise where.error("step", "a lesson needs at least one [[step]]")
    builder = _Builder(where, profile)
    for raw in raw_steps:
        builder.add(raw)
    return Lesson(info, profile, tuple(builder.steps), path, hints)


class _Where:
    """Makes errors that name the file, the step and the key."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.step: int | None = None

    def error(self, key: str, message: str) -> LessonError:
        at = f"step {self.step}: " if self.step is not None else ""
        return LessonError(f"{self.file}: {at}{key}: {shorten(message, 200)}")

    def unknown(self, data: Mapping[str, Any], known: set[str]) -> None:
        for key in data:
            if key not in known:
                raise self.error(key, f"unknown key (known: {', '.join(sorted(known))})")

    def text(self, data: Mapping[str, Any], key: str, default: str | None = None) -> str:
        value = data.get(key, default)
        if value is None:
            raise self.error(key, "missing")
        if not isinstance(value, str) or (default is None and not value.strip()):
            raise self.error(key, "must be a piece of text")
        return " ".join(value.split())

    def integer(self, data: Mapping[str, Any], key: str, low: int, high: int) -> int:
        value = data.get(key)
        if value is None:
            raise self.error(key, "missing")
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.error(key, f"must be a whole number from {low} to {high}")
        return value

    def texts(self, data: Mapping[str, Any], key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, 'must be a list of texts, like ["8/5 6/5"]')
        return tuple(" ".join(v.split()) for v in value)


_COMMON = {"kind", "text", "cite", "light", "facts"}
_KEYS = {
    "explain": set(),
    "setup": {"position", "turn"},
    "play": {"position", "turn", "dice", "accept", "good", "explain", "books", "wrong_first"},
    "russian": {"rules", "position", "dice", "explain"},
    "question": {"choices", "answer", "explain", "check"},
    "count": {"what", "at", "side", "explain", "position", "turn", "option"},
    "chart": {"chart", "books"},
    "replay": {"game", "turns", "notes"},
}


class _Builder:
    """Builds the steps in order, following the board from step to step."""

    def __init__(self, where: _Where, profile: RuleProfile) -> None:
        self.where = where
        self.profile = profile
        self.steps: list[Step] = []
        self.board = Position.standard()

    def add(self, raw: object) -> None:
        where = self.where
        where.step = len(self.steps) + 1
        if not isinstance(raw, dict):
            raise where.error("step", "each [[step]] must be a table")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise where.error("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
        where.unknown(raw, _COMMON | _KEYS[kind])
        if kind == "replay":
            self._replay(raw)
            return
        common = {
            "number": where.step,
            "kind": kind,
            "text": where.text(raw, "text"),
            "cite": where.text(raw, "cite", ""),
            "light": self._light(raw),
            "facts": where.texts(raw, "facts"),
        }
        step: Step
        if kind == "explain":
            step = ExplainStep(**common)
        elif kind == "setup":
            if "position" not in raw:
                raise where.error("position", "missing")
            self.board = self._position(raw)
            step = SetupStep(**common, position=self.board)
        elif kind == "play":
            step = self._play(raw, common)
        elif kind == "russian":
            step = self._russian(raw, common)
        elif kind == "question":
            step = self._question(raw, common)
        elif kind == "count":
            step = self._count(raw, common)
        else:
            step = self._chart(raw, common)
        self.steps.append(step)

    # -- the parts of a step ---------------------------------------------------------------

    def _light(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(self._location(word, "light") for word in self.where.texts(raw, "light"))

    def _location(self, word: str, key: str) -> str:
        if word in LOCATIONS:
            return word
        side, _, point = word.partition(":")
        if side in ("white", "black") and point:
            colour = Colour.parse(side)
            if point in ("bar", "off"):
                return f"{point}-{side}"
            if point.isdigit() and 1 <= int(point) <= 24:
                return location(colour, int(point))
        raise self.where.error(
            key, f"{word!r} is not a place on the table (1-24, bar-white, off-black, black:6)"
        )

    def _turn(self, raw: Mapping[str, Any]) -> Colour:
        word = self.where.text(raw, "turn", "white")
        if word not in ("white", "black"):
            raise self.where.error("turn", "must be white or black")
        return Colour.parse(word)

    def _position(self, raw: Mapping[str, Any]) -> Position:
        spec = raw.get("position")
        turn = self._turn(raw)
        where = self.where
        if spec == "standard":
            return Position.standard(turn)
        if spec == "empty":
            return Position.empty(turn)
        if isinstance(spec, str):
            try:
                return Position.from_id(spec, turn)
            except ValueError as err:
                raise where.error("position", f"{spec!r} is not a Position ID: {err}") from None
        if not isinstance(spec, dict):
            raise where.error("position", "use standard, empty, a Position ID or a table")
        where.unknown(spec, {"white", "black"})
        men: list[list[int]] = [[0] * 25, [0] * 25]
        for side, colour in (("white", WHITE), ("black", BLACK)):
            points = spec.get(side, {})
            if not isinstance(points, dict):
                raise where.error(f"position.{side}", "must be a table like {6 = 5, 8 = 3}")
            for point, n in points.items():
                p = BAR if point == "bar" else int(point) if point.isdigit() else 0
                if not 1 <= p <= 25:
                    raise where.error(f"position.{side}", f"{point!r} is not a point (1-24, bar)")
                if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 15:
                    raise where.error(f"position.{side}.{point}", "must be 1 to 15 men")
                men[colour][p - 1] = n
        try:
            return Position((men[0], men[1]), None, turn)
        except ValueError as err:
            raise where.error("position", str(err)) from None

    def _canonical(self, start: Position, dice: tuple[int, int], text: str, key: str) -> Play:
        try:
            return start.parse_play(dice[0], dice[1], text, self.profile)
        except ValueError as err:
            raise self.where.error(key, f"{text!r} with {dice[0]}-{dice[1]}: {err}") from None

    def _play(self, raw: Mapping[str, Any], common: dict[str, Any]) -> PlayStep:
        where = self.where
        start = self._position(raw) if "position" in raw else self.board
        if "turn" in raw and "position" not in raw:
            raise where.error("turn", "give turn with a position")
        d = self._dice(raw)
        plays: dict[str, Play] = {}

        def canon(texts: tuple[str, ...], key: str) -> tuple[str, ...]:
            out = []
            for text in texts:
                play = self._canonical(start, d, text, key)
                plays[str(play)] = play
                out.append(str(play))
            return tuple(out)

        accept = canon(where.texts(raw, "accept"), "accept")
        if not accept:
            raise where.error("accept", "a play step needs at least one accepted play")
        good = canon(where.texts(raw, "good"), "good")
        books = []
        raw_books = raw.get("books", [])
        if not isinstance(raw_books, list):
            raise where.error("books", "must be a list of {book, hit, gammon, cite} tables")
        for i, entry in enumerate(raw_books):
            key = f"books[{i}]"
            if not isinstance(entry, dict):
                raise where.error(key, "must be a table {book, hit, gammon, cite}")
            where.unknown(entry, {"book", "hit", "gammon", "cite", "note"})
            hit, gammon = (where.text(entry, k, "") for k in ("hit", "gammon"))
            if not (hit or gammon):
                raise where.error(key, "give the book's play for a hit or for a gammon")
            hit = canon((hit,), f"{key}.hit")[0] if hit else ""
            gammon = canon((gammon,), f"{key}.gammon")[0] if gammon else ""
            books.append(
                BookPlay(
                    where.text(entry, "book"),
                    hit,
                    gammon,
                    where.text(entry, "cite"),
                    where.text(entry, "note", ""),
                )
            )
        self.board = plays[accept[0]].result
        return PlayStep(
            **common,
            start=start,
            dice=d,
            accept=accept,
            good=tuple(g for g in good if g not in accept),
            explain=where.text(raw, "explain", ""),
            books=tuple(books),
            plays=plays,
            wrong_first=bool(raw.get("wrong_first", False)),
        )

    def _dice(self, raw: Mapping[str, Any]) -> tuple[int, int]:
        dice = raw.get("dice")
        if (
            not isinstance(dice, list)
            or len(dice) != 2
            or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)
        ):
            raise self.where.error("dice", "must be two dice, like [3, 1]")
        return (dice[0], dice[1])

    def _russian(self, raw: Mapping[str, Any], common: dict[str, Any]) -> RussianPlayStep:
        where = self.where
        rules = where.text(raw, "rules")
        try:
            profile = get_russian_profile(rules)
        except ValueError as err:
            raise where.error("rules", str(err)) from None
        try:
            start = RussianPosition.from_notation(where.text(raw, "position"))
        except ValueError as err:
            raise where.error("position", str(err)) from None
        dice = self._dice(raw)
        if RussianTurn(start, *dice, profile).needs_choice:
            raise where.error("dice", "Cady's deuce-ace asks for a doublet: throw another")
        return RussianPlayStep(
            **common, rules=rules, start=start, dice=dice, explain=where.text(raw, "explain", "")
        )

    def _question(self, raw: Mapping[str, Any], common: dict[str, Any]) -> QuestionStep:
        where = self.where
        choices = where.texts(raw, "choices")
        if not 2 <= len(choices) <= 6:
            raise where.error("choices", "give 2 to 6 choices")
        answer = where.integer(raw, "answer", 0, len(choices) - 1)
        spec = where.text(raw, "check", "")
        if spec:
            try:
                exact = figures.check(spec)
            except ValueError as err:
                raise where.error("check", str(err)) from None
            if choices[answer].split()[0] != str(exact):
                raise where.error(
                    "answer",
                    f"the right choice must be {exact} ({spec}), not {choices[answer]!r}",
                )
        return QuestionStep(
            **common,
            choices=choices,
            answer=answer,
            explain=where.text(raw, "explain", ""),
            check=spec,
        )

    def _count(self, raw: Mapping[str, Any], common: dict[str, Any]) -> CountStep:
        where = self.where
        if "position" in raw:
            self.board = self._position(raw)
        what = where.text(raw, "what")
        if what not in COUNTS:
            raise where.error("what", f"must be one of {', '.join(COUNTS)}")
        at = None
        if "at" in raw:
            if what != "shots":
                raise where.error("at", "only a count of shots has a blot to count at")
            at = self._location(where.text(raw, "at"), "at")
            colour, point = _owner(self.board, at)
            if colour is None or not self.board.is_blot(colour, point):
                raise where.error("at", f"there is no blot on {at} in the lesson's position")
        side = self._turn({"turn": raw["side"]}) if "side" in raw else WHITE
        option = 1
        if "option" in raw:
            if what != "stranded":
                raise where.error("option", "only a count of stranded men has an option")
            option = where.integer(raw, "option", 1, 3)
        return CountStep(
            **common,
            what=what,
            board=self.board,
            at=at,
            side=side,
            explain=where.text(raw, "explain", ""),
            option=option,
        )

    def _chart(self, raw: Mapping[str, Any], common: dict[str, Any]) -> ChartStep:
        where = self.where
        chart = where.text(raw, "chart")
        if chart not in CHARTS:
            raise where.error("chart", f"must be one of {', '.join(CHARTS)}")
        if chart == "shots":
            exact = {d: figures.shots_at_distance(d) for d in range(1, figures.MAX_DISTANCE + 1)}
        else:
            exact = {k: figures.entering(k) for k in range(0, 7)}
        books: dict[str, dict[int, int]] = {}
        raw_books = raw.get("books", {})
        if not isinstance(raw_books, dict):
            raise where.error("books", "must be a table of tables, [step.books.NAME]")
        for name, values in raw_books.items():
            if not isinstance(values, dict):
                raise where.error(f"books.{name}", "must be a table like {1 = 11, 2 = 12}")
            row = {}
            for x, v in values.items():
                if not x.isdigit() or int(x) not in exact:
                    raise where.error(f"books.{name}.{x}", f"is not on the chart ({chart})")
                if not isinstance(v, int) or not 0 <= v <= 36:
                    raise where.error(f"books.{name}.{x}", "must be 0 to 36 rolls")
                row[int(x)] = v
            books[name] = row
        return ChartStep(**common, chart=chart, books=books, exact=exact)

    def _replay(self, raw: Mapping[str, Any]) -> None:
        where = self.where
        number = where.integer(raw, "game", 1, len(GAMES))
        game = GAMES[number - 1]
        turns = raw.get("turns")
        if (
            not isinstance(turns, list)
            or len(turns) != 2
            or not all(isinstance(t, int) for t in turns)
            or not 1 <= turns[0] <= turns[1] <= len(game.turns)
        ):
            raise where.error("turns", f"must be [first, last] within 1-{len(game.turns)}")
        notes = raw.get("notes", {})
        if not isinstance(notes, dict) or not all(
            k.isdigit() and turns[0] <= int(k) <= turns[1] and isinstance(v, str)
            for k, v in notes.items()
        ):
            raise where.error("notes", 'must be a table {turn = "words"} within the turns')
        facts = raw.get("facts", {})
        if not isinstance(facts, dict) or not all(
            k.isdigit()
            and turns[0] <= int(k) <= turns[1]
            and isinstance(v, list)
            and all(isinstance(f, str) for f in v)
            for k, v in facts.items()
        ):
            raise where.error("facts", 'must be a table {turn = ["fact", ...]} within the turns')
        lead = where.text(raw, "text")
        position = Position.standard(Colour.parse(PLAYERS[game.turns[0].player]))
        for index, turn in enumerate(game.turns[: turns[1]], start=1):
            play = position.parse_play(*turn.dice, turn.move, profile=self.profile)
            if index >= turns[0]:
                where.step = len(self.steps) + 1
                who = "Black (L)" if turn.player == "L" else "White (F)"
                note = notes.get(str(index), "")
                words = f"{game.title}, turn {index}: {who} throws {turn.dice[0]}-{turn.dice[1]}."
                if index == turns[0]:
                    words = f"{lead} {words}"
                self.steps.append(
                    PlayStep(
                        number=where.step,
                        kind="play",
                        text=f"{words} Crawley plays {play or 'no move'}: make it on the table.",
                        cite=f"Crawley, Ch. III, {game.title} [{SOURCE.split('/')[-1][:3]}:"
                        f"{turn.line}]",
                        light=(),
                        start=position,
                        dice=turn.dice,
                        accept=(str(play),),
                        explain=" ".join(
                            part
                            for part in (f"Crawley's play: {play or 'no move'}.", turn.note, note)
                            if part
                        ),
                        plays={str(play): play},
                        replay=number,
                        lesson_words=" ".join(
                            f"{lead if index == turns[0] else ''} {note}".split()
                        ),
                        facts=tuple(" ".join(f.split()) for f in facts.get(str(index), ())),
                    )
                )
            position = play.result
        self.board = position


def _owner(position: Position, where: str) -> tuple[Colour | None, int]:
    """Who has men on a point location, and that point in the owner's numbering."""
    if not where.isdigit():
        return None, 0
    colour, _ = position.owner(int(where))
    return colour, point_of(colour, where) if colour is not None else 0
