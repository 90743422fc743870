"""What the tutor's events carry for the view, typed: read once from their JSON.

The coach's verdicts (:class:`~kiosk.events.CoachVerdict`) and the lessons' events
(:class:`~kiosk.events.LessonEvent`) keep the tutor's JSON as it is, for the store and the
tools that read it. The view reads them through these types instead of dicts:
:class:`CoachWords` (what the coach says to whom), :class:`LessonPage` (a lesson's step,
result, chart or end) and :class:`Correction` (one location still to lay out).

>>> page = LessonPage.of({"event": "lesson", "step": 2, "steps": 9, "text": "Count.",
...                       "light": ["6"], "pips": {"white": 167, "black": 160}})
>>> page.kind, page.step, page.lights, page.pips
('lesson', (2, 9), ('6',), (167, 160))
>>> CoachWords.of({"event": "coach", "to": "white", "text": "Good play."}).to
'white'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Arrows = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CoachWords:
    """The coach's verdict as a player's line shows it."""

    to: str  # "white", "black" or "both"
    text: str
    detail: str = ""
    warning: bool = False
    rating: str = ""
    take_back: bool = False  # the play may be taken back (a teaching game)
    cube: bool = False  # the verdict is on a cube decision, not a play

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> CoachWords:
        """The words of a ``coach`` event's JSON."""
        return cls(
            to=str(data.get("to", "both")),
            text=str(data.get("text", "")),
            detail=str(data.get("detail", "")),
            warning=bool(data.get("warning", False)),
            rating=str(data.get("rating") or ""),
            take_back=bool(data.get("take_back", False)),
            cube="cube" in data,
        )


@dataclass(frozen=True)
class Shown:
    """A play drawn with arrows and named (a lesson's preview, or the play it wanted)."""

    arrows: Arrows
    move: str

    @classmethod
    def of(cls, data: object) -> Shown | None:
        """The play in a lesson event's ``preview`` or ``wanted``, if there is one."""
        if not isinstance(data, Mapping):
            return None
        arrows = tuple((str(a), str(b)) for a, b in data.get("arrows", ()))
        return cls(arrows, str(data.get("move", "")))


@dataclass(frozen=True)
class LessonPage:
    """One event of a lesson: a step (``lesson``), a result, a chart, its end or exit."""

    kind: str  # the event's name: lesson, lesson-result, chart, lesson-end, lesson-exit
    to: str = "both"
    text: str = ""
    source: str = ""  # where the text comes from (the books)
    sources: str = ""  # the books that play it so
    warning: bool | None = None  # None: as the result says
    correct: bool = False  # a result's verdict
    step: tuple[int, int] | None = None  # the step and how many the lesson has
    lays_out: bool = False  # the step has men to lay out
    lights: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    selected: int = 0
    step_kind: str = ""  # the step's own kind (explain, play, setup, chart...)
    hide_pips: bool = False
    pips: tuple[int, int] | None = None
    preview: Shown | None = None  # the book's play, shown before it is made
    wanted: Shown | None = None  # the play wanted, after a wrong one
    chart: Mapping[str, Any] | None = None  # a chart event as it came (title, series...)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> LessonPage:
        """The page of a lesson event's JSON."""
        kind = str(data.get("event", ""))
        step, steps = data.get("step"), data.get("steps")
        pips = data.get("pips")
        warning = data.get("warning")
        return cls(
            kind=kind,
            to=str(data.get("to", "both")),
            text=str(data.get("text", "")),
            source=str(data.get("detail", "")),
            sources=str(data.get("sources", "")),
            warning=None if warning is None else bool(warning),
            correct=bool(data.get("correct", False)),
            step=(step, steps) if isinstance(step, int) and isinstance(steps, int) else None,
            lays_out="position" in data,
            lights=tuple(str(x) for x in data.get("light", ())),
            choices=tuple(str(x) for x in data.get("choices", ())),
            selected=int(data.get("selected", 0)),
            step_kind=str(data.get("kind", "")),
            hide_pips=bool(data.get("hide_pips", False)),
            pips=(int(pips["white"]), int(pips["black"])) if isinstance(pips, Mapping) else None,
            preview=Shown.of(data.get("preview")),
            wanted=Shown.of(data.get("wanted")),
            chart=data if kind == "chart" else None,
        )

    @property
    def says(self) -> bool:
        """Whether the page has words for the players (a step, a result, the end)."""
        return self.kind in ("lesson", "lesson-result", "lesson-end")

    @property
    def detail(self) -> str:
        """The whole text, the books that play it so and where it comes from (Select)."""
        detail = "\n\n".join(x for x in (self.text, self.sources) if x)
        return detail + (f"\n\nFrom {self.source}." if self.source else "")


@dataclass(frozen=True)
class Correction:
    """One location still to put right while the men are laid out: ``colour``'s men there
    now (``have``) and wanted (``want``); ``table`` is the table's location."""

    table: str
    colour: str
    have: int
    want: int

    @classmethod
    def each(cls, data: Mapping[str, Any]) -> tuple[Correction, ...]:
        """A referee's correction as one of each colour's: the ordinary game's already are
        (its ``colour``, ``have``, ``want``); Russian backgammon's count (white, black)
        pairs, a tray holding both sides' men.

        >>> Correction.each({"table": "off-white", "have": (3, 0), "want": (15, 0)})
        (Correction(table='off-white', colour='white', have=3, want=15),)
        """
        have, want, where = data["have"], data["want"], str(data["table"])
        if isinstance(have, int):
            return (cls(where, str(data["colour"]), have, int(want)),)
        return tuple(
            cls(where, colour, int(h), int(w))
            for colour, h, w in zip(("white", "black"), have, want, strict=True)
            if h != w
        )
