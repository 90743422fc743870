"""The class around the table, as the companion's pages see it: the board (folded from the
table's events by the display's own view model), the lesson's step, the roll in question,
its ranked plays, the class's vote and the students who joined.

Everything here runs on the companion's server thread; the table's events reach it through
a queue (:meth:`kiosk.companion.server.CompanionServer.follow`). :meth:`Classroom.state`
is what the pages draw: the public part for the projector and the students, and the
teacher's part on top.

>>> from kiosk.events import Dice, NewGame
>>> room = Classroom(Library(()), minutes=60)
>>> room.apply(NewGame(game=None, position="4HPwATDgc/ABMA", turn="white", profile="modern",
...                    tutor=True, dice_source="digital", cube=(1, None)), now=0.0)
>>> room.apply(Dice(player="white", dice=(3, 1)), now=0.0)
>>> room.problem.label, room.problem.dice
('White to play 3-1', (3, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.companion.board import from_view, svg
from kiosk.companion.control import Ranking
from kiosk.companion.library import Library
from kiosk.companion.security import JoinCodes
from kiosk.companion.validate import InputError
from kiosk.display.view import TableView, score_lines
from kiosk.events import (
    Board,
    Dice,
    Event,
    LessonEvent,
    ModeChanged,
    NewGame,
    Opening,
    Played,
    PositionShown,
    Resume,
    TakeBack,
)
from kiosk.rules import Position
from kiosk.tutor.lessons.engine import DICE_HELP

MAX_OPTIONS = 40  # a vote among more plays than this is on the top candidates instead
TOP = 5  # candidates ranked and offered by default


@dataclass(frozen=True)
class Problem:
    """A roll to play: the position (its side on roll), the dice, and how to name it."""

    position: Position
    dice: tuple[int, int]
    label: str
    teacher: bool = False  # set up by the teacher: it stays while the men are laid out

    @property
    def key(self) -> tuple[str, str, tuple[int, int]]:
        """What makes two problems the same roll."""
        return (self.position.position_id(), str(self.position.turn), self.dice)

    def legal(self) -> list[str]:
        """Every distinct legal play, in notation, in a steady order."""
        d1, d2 = self.dice
        return sorted({str(p) for p in self.position.legal_plays(d1, d2)})

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "label": self.label,
            "position": self.position.position_id(),
            "turn": str(self.position.turn),
            "dice": list(self.dice),
        }


@dataclass
class Vote:
    """The class's vote: on a roll's plays, or on a lesson's question."""

    id: int
    kind: str  # "play" or "question"
    question: str
    options: list[str]
    problem: Problem | None = None
    answer: int | None = None  # a question's right choice
    votes: dict[str, int] = field(default_factory=dict)  # student device -> choice
    open: bool = True
    revealed: bool = False
    best: str = ""
    kept: bool = False  # the answers are in the store

    def counts(self) -> list[int]:
        """How many students chose each option."""
        counts = [0] * len(self.options)
        for choice in self.votes.values():
            counts[choice] += 1
        return counts

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (who voted for what stays private)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "question": self.question,
            "options": list(self.options),
            "counts": self.counts(),
            "total": len(self.votes),
            "open": self.open,
            "revealed": self.revealed,
            "best": self.best if self.revealed else "",
        }


@dataclass
class Student:
    """A student who joined the class from a phone."""

    device: str
    name: str
    answered: int = 0
    right: int = 0


class Classroom:
    """The companion's picture of the class (see the module docstring)."""

    def __init__(self, library: Library, minutes: int) -> None:
        self.library = library
        self.view = TableView()
        self.join = JoinCodes(minutes)
        self.lesson: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.problem: Problem | None = None
        self.ranking: Ranking | None = None
        self.ranking_key: tuple[Any, ...] | None = None
        self.ranking_error = ""
        self.revealed = False  # the ranked plays are shown on the projector
        self.vote: Vote | None = None
        self._votes = 0
        self.class_side: str | None = None  # the class plays this side against the teacher
        self.students: dict[str, Student] = {}
        self.status = ""  # the teacher's last command's outcome
        self.awake = ""  # when the table would invite visitors or put the game away, in words
        self.last_board: float | None = None  # when the table last reported its board
        self.seq = 0  # counts the changes the pages have been sent
        self._svg: tuple[str, str] = ("", "")

    # -- the table's events ----------------------------------------------------------------

    def apply(self, event: Event, now: float) -> None:
        """Fold one of the table's events into the view, the lesson and the roll in question."""
        view = self.view
        view.apply(event)
        match event:
            case Board():
                self.last_board = now
            case LessonEvent():
                self._lesson(event)
            case Dice(player=player, dice=dice) if view.mode == "game":
                self._roll(view.position.with_turn(player), dice)
            case Opening(starter=starter, dice=dice) if starter is not None and dice:
                if len(dice) == 2 and view.mode == "game":
                    self._roll(view.position.with_turn(starter), (dice[0], dice[1]))
            case Played() | TakeBack():
                if view.mode == "game":
                    self._set_problem(None)
            case NewGame() | Resume() | PositionShown():
                if view.mode == "game" and not (self.problem and self.problem.teacher):
                    self._set_problem(None)
            case ModeChanged(mode=mode):
                if mode != "lesson":
                    self.lesson, self.result = None, None
                self._set_problem(None)
        self.seq += 1

    def _lesson(self, event: LessonEvent) -> None:
        data = event.data
        kind = event.kind
        if kind == "lesson":
            lesson = self.library.by_id(str(data.get("lesson", "")))
            self.lesson = {
                "id": data.get("lesson"),
                "number": lesson.info.number if lesson else None,
                "title": data.get("title", lesson.title if lesson else ""),
                "step": data.get("step"),
                "steps": data.get("steps"),
                "kind": data.get("kind"),
                # the table's own words about its dice wells are for its players
                "text": str(data.get("text", "")).replace(f" {DICE_HELP}", ""),
                "source": data.get("detail", ""),
                "choices": list(data.get("choices", ())),
            }
            self.result = None
            step = self.library.play_step(str(data.get("lesson")), int(data.get("step", 0)))
            dice = data.get("dice")
            if step is not None and dice:
                words = f"Lesson {self.lesson['number']}, step {data.get('step')}"
                self._set_problem(Problem(step.start, (dice[0], dice[1]), words))
            elif data.get("kind") != "play":
                self._set_problem(None)
        elif kind == "lesson-result":
            self.result = {"correct": bool(data.get("correct")), "text": data.get("text", "")}
        elif kind == "lesson-end" and self.lesson is not None:
            self.lesson = {**self.lesson, "text": data.get("text", ""), "ended": True}
        elif kind == "lesson-exit":
            self.lesson, self.result = None, None

    def _roll(self, position: Position, dice: tuple[int, int]) -> None:
        side = str(position.turn)
        self._set_problem(
            Problem(position, dice, f"{side.capitalize()} to play {dice[0]}-{dice[1]}")
        )

    def _set_problem(self, problem: Problem | None) -> None:
        if problem is not None and self.problem is not None and problem.key == self.problem.key:
            self.problem = problem  # the table has it now
            return
        self.problem = problem
        vote = self.vote
        if problem is not None and vote is not None and not vote.open:
            if vote.problem is None or vote.problem.key != problem.key:
                self.vote = None  # a closed vote on another question: not shown with this one
        if problem is None or problem.key != self.ranking_key:
            self.revealed = False
            self.ranking_error = ""

    def teacher_problem(self, position: Position, dice: tuple[int, int]) -> Problem:
        """A roll the teacher asks about (it replaces the one on the table)."""
        side = str(position.turn)
        words = f"{side.capitalize()} to play {dice[0]}-{dice[1]}"
        problem = Problem(position, dice, words, teacher=True)
        self._set_problem(problem)
        self.seq += 1
        return problem

    # -- ranking -----------------------------------------------------------------------------

    def ranked(self, problem: Problem, ranking: Ranking) -> None:
        """The ranked plays of ``problem`` arrived from the worker."""
        self.ranking, self.ranking_key, self.ranking_error = ranking, problem.key, ""
        self.seq += 1

    def current_ranking(self) -> Ranking | None:
        """The ranked plays of the roll in question, if they are known."""
        if self.problem is not None and self.ranking_key == self.problem.key:
            return self.ranking
        return None

    # -- the class ---------------------------------------------------------------------------

    def open_class(self, now: float) -> str:
        """A new class with a fresh join code; the students of the last one are out."""
        self.students.clear()
        self.vote = None
        self.seq += 1
        return self.join.open(now)

    def class_plays(self, side: str) -> None:
        """The class plays ``side`` in a new game against the teacher: earlier votes go."""
        self.class_side = side
        self.vote, self.revealed = None, False
        self.seq += 1

    def close_class(self) -> None:
        """The class is over: no code lets anyone in, the students' pages stop."""
        self.join.close()
        self.students.clear()
        self.vote = None
        self.class_side = None
        self.seq += 1

    def add_student(self, device: str, name: str) -> Student:
        """A student joined."""
        taken = {s.name.lower() for s in self.students.values()}
        base, n = name, 2
        while name.lower() in taken:
            name, n = f"{base} {n}", n + 1
        student = Student(device, name)
        self.students[device] = student
        self.seq += 1
        return student

    def start_vote(self, source: str) -> Vote:
        """A vote on the roll in question (``source``: ``top`` candidates or every ``legal``
        play) or on the lesson's question (``question``)."""
        if not self.join.class_id:
            raise InputError("Open the class first: the students join with its code.")
        self._votes += 1
        if source == "question":
            lesson = self.lesson
            step = self.library.question(str(lesson["id"]), int(lesson["step"])) if lesson else None
            if step is None:
                raise InputError("The lesson on the table is not asking a question now.")
            self.vote = Vote(
                self._votes, "question", step.text, list(step.choices), answer=step.answer
            )
        else:
            problem = self.problem
            if problem is None:
                raise InputError(
                    "There is no roll to vote on: throw the dice or set a position up."
                )
            if source == "legal":
                options = problem.legal()
                if len(options) > MAX_OPTIONS:
                    raise InputError(
                        f"This roll has {len(options)} legal plays, too many for a phone: "
                        "vote on the top candidates."
                    )
            else:
                ranking = self.current_ranking()
                if ranking is None:
                    raise InputError("The ranked plays are not ready yet.")
                options = [c.move for c in ranking.candidates]
            self.vote = Vote(self._votes, "play", problem.label, options, problem=problem)
        self.seq += 1
        return self.vote

    def cast(self, device: str, choice: int) -> None:
        """A student's vote (a new one replaces their earlier choice while the vote is open)."""
        vote = self.vote
        if vote is None or not vote.open:
            raise InputError("The vote is closed.")
        if device not in self.students:
            raise InputError("Join the class first.")
        vote.votes[device] = choice
        self.seq += 1

    def reveal(self) -> Vote:
        """Close the vote and show the best answer (a play vote needs its ranked plays)."""
        vote = self.vote
        if vote is None:
            raise InputError("There is no vote to reveal.")
        if vote.kind == "play":
            ranking = (
                self.ranking if vote.problem and self.ranking_key == vote.problem.key else None
            )
            if ranking is None or not ranking.candidates:
                raise InputError("The ranked plays are not ready yet.")
            vote.best = ranking.candidates[0].move
            self.revealed = True
        else:
            assert vote.answer is not None
            vote.best = vote.options[vote.answer]
        vote.open, vote.revealed = False, True
        for device, choice in vote.votes.items():
            student = self.students.get(device)
            if student is not None:
                student.answered += 1
                student.right += vote.options[choice] == vote.best
        self.seq += 1
        return vote

    # -- what the pages draw -----------------------------------------------------------------

    def board(self) -> str:
        """The board's SVG (drawn again only when something on it changed)."""
        preview: tuple[tuple[str, str], ...] = ()
        ranking = self.current_ranking()
        if self.revealed and ranking is not None and ranking.candidates:
            preview = ranking.candidates[0].arrows
        picture = from_view(self.view, preview)
        key = picture.key()
        if key != self._svg[0]:
            self._svg = (key, svg(picture))
        return self._svg[1]

    def board_key(self) -> str:
        """The key of the board :meth:`board` drew last."""
        return self._svg[0]

    def state(self, now: float) -> dict[str, Any]:
        """What the projector and the students' pages show (the board's SVG apart: see
        :meth:`board`)."""
        view = self.view
        code, minutes = self.join.shown(now)
        ranking = self.current_ranking()
        messages = {
            who: {"text": m.text, "warning": m.warning, "rating": m.rating}
            for who, m in view.messages.items()
        }
        return {
            "seq": self.seq,
            "board_key": self.board_key(),
            "banner": view.banner,
            "mode": view.mode,
            "turn": view.turn,
            "dice": list(view.dice) if view.dice else None,
            "pips": {"white": view.pips[0], "black": view.pips[1]},
            "hide_pips": view.hide_pips,
            "score": {c: score_lines(view, c) for c in ("white", "black")},
            "messages": messages,
            "connected": view.connected,
            "connection": view.connection_message,
            "winner": view.winner,
            "lesson": self.lesson,
            "result": self.result,
            "problem": self.problem.as_dict() if self.problem else None,
            "candidates": _candidates(ranking) if self.revealed and ranking else None,
            "vote": self.vote.as_dict() if self.vote else None,
            "join": {"code": code, "minutes": minutes} if code else None,
            "class_side": self.class_side,
        }

    def teacher(self) -> dict[str, Any]:
        """What only the teacher sees: the ranked plays before they are shown, the students."""
        ranking = self.current_ranking()
        return {
            "candidates": _candidates(ranking) if ranking else None,
            "evaluator": ranking.evaluator if ranking else "",
            "ranking_error": self.ranking_error,
            "revealed": self.revealed,
            "students": [
                {"name": s.name, "answered": s.answered, "right": s.right}
                for s in sorted(self.students.values(), key=lambda s: s.name.lower())
            ],
            "votes": (
                {
                    self.students[d].name: self.vote.options[c]
                    for d, c in self.vote.votes.items()
                    if d in self.students
                }
                if self.vote
                else {}
            ),
            "status": self.status,
            "class_open": bool(self.join.class_id),
            "awake": self.awake,
        }


def _candidates(ranking: Ranking) -> list[dict[str, Any]]:
    return [c.as_dict() for c in ranking.candidates]
