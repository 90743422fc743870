"""The lesson engine: plays a :class:`~kiosk.tutor.lessons.model.Lesson` at the table.

It is a state machine fed from the application's event stream. The host (the
application, or :mod:`kiosk.rig.lessons` in tests) gives it a
:class:`LessonHost`: where to publish events, a fresh referee for each position the
learner must lay out or play from, and the board the table shows. The engine
publishes:

* ``{"event": "lesson", "to": "both", "lesson", "step", "steps", "kind", "text",
  "detail" (citation), "light" (table locations), ...}`` for each step, with
  ``choices``/``selected`` for questions, ``dice`` and ``books`` for plays, and
  ``position`` (a Position ID, with ``turn``) when the learner must lay men out;
* ``{"event": "lesson-result", "correct": bool, "text", "detail", "light", ...}``
  after each play, answer or count;
* ``{"event": "chart", "chart", "title", "series": [{"name", "values"}], "wrong"}``;
* ``{"event": "lesson-end", ...}`` when the last step is done, ``{"event":
  "lesson-exit"}`` when the learner leaves with the menu button.

Buttons arrive as ``{"event": "button", "name": "select"|"back"|"menu"|"done"}``.
While a question is asked, ``select`` moves to the next choice and ``done`` answers
the highlighted one; otherwise ``select`` and ``done`` go on to the next step.
While a play is on the table the Done button belongs to the referee (the host
passes it to the referee it made), so the engine leaves ``done`` alone then.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Protocol

from kiosk.books.sources import with_years
from kiosk.referee import Referee
from kiosk.referee.russian import RussianReferee
from kiosk.rules import (
    BAR,
    BLACK,
    OFF,
    WHITE,
    Colour,
    Game,
    Play,
    Position,
    shots,
    shots_by_attacker,
)
from kiosk.rules.russian import RussianPosition
from kiosk.table import location, point_of
from kiosk.table.sensing import Sensed
from kiosk.tutor.coach import classify
from kiosk.tutor.features import WRONG_CODES, explain, explain_error
from kiosk.tutor.lessons.model import (
    ChartStep,
    CountStep,
    ExplainStep,
    Lesson,
    PlayStep,
    QuestionStep,
    RussianPlayStep,
    SetupStep,
    Step,
)
from kiosk.tutor.lessons.ratings import stored_step

#: What to do with the dice when the lesson throws them.
DICE_HELP = (
    "The lesson throws for you: with real dice, set them in the wells to these numbers; "
    "with button or digital dice there is nothing to do."
)

#: The side of the table the learner sits at; the lessons number every point from it.
LEARNER = WHITE


class LessonHost(Protocol):
    """What the engine needs from the application that runs it."""

    def emit(self, event: dict[str, Any]) -> None:
        """Publish an application event (the referee's events go the same way)."""

    def new_referee(self, game: Game) -> Referee:
        """Judge the table with a fresh referee for ``game`` from now on; return it."""

    def sensed(self) -> Sensed | None:
        """The board on the table as the referee judges it (None before the first picture)."""

    def shows(self, position: Position) -> bool:
        """Whether the table shows ``position``, as far as it can tell (a table with one
        reed a slot tells where men are, not their colour)."""

    def new_variant_referee(self, rules: str, position: RussianPosition) -> RussianReferee:
        """Judge the table with a fresh referee of Russian backgammon under ``rules`` (a
        book's), the learner to lay out ``position`` first; return it."""


class ProgressStore(Protocol):
    """The part of :class:`kiosk.store.Store` that keeps lesson progress."""

    def save_lesson_step(self, slot: str, lesson_id: str, step: int, done: bool) -> None:
        """Remember that ``slot`` reached ``step`` of a lesson (``done`` once it is finished)."""

    def lesson_progress(self, slot: str) -> Mapping[str, tuple[int, bool]]:
        """Each lesson's progress for ``slot``: lesson id -> (step, done)."""


class State(StrEnum):
    """Where the engine is within the current step."""

    READING = "reading"  # words or a chart on show; a button goes on
    LAYING = "laying"  # the learner is laying out a position
    PLAYING = "playing"  # dice thrown, waiting for the play
    ASKING = "asking"  # a question or a count waits for its answer
    WATCHING = "watching"  # live count: the table is watched for a blot
    ANSWERED = "answered"  # the verdict is on show; a button goes on
    SHOWING = "showing"  # a wrong play: the play wanted is shown; a button puts the men back
    FINISHED = "finished"
    LEFT = "left"  # the learner left with the menu button


class LessonEngine:
    """Runs one lesson for one learner (see the module docstring for its events)."""

    def __init__(
        self,
        lesson: Lesson,
        host: LessonHost,
        store: ProgressStore | None = None,
        player_slot: str = "guest-1",
    ) -> None:
        self.lesson = lesson
        self.host = host
        self.store = store
        self.slot = player_slot
        self.index = 0
        self.state = State.READING
        self.selected = 0
        self.mistakes = 0  # wrong plays, answers and placements in this lesson
        self.referee: Referee | None = None
        self.variant: RussianReferee | None = None  # a Russian throw's referee, while it plays
        self._moves: list[str] = []  # the parts of a Russian throw played so far
        self.target: Position | None = None  # what the learner is laying out, if anything
        self.choices: tuple[str, ...] = ()  # the choices on show (a question's, or the referee's)
        self._right = 0  # index of the right choice of the current question or count
        self._count_text = ""
        self._count_light: tuple[str, ...] = ()
        self._watched: tuple[Any, ...] | None = None

    # -- the public interface ----------------------------------------------------------

    @property
    def current_step(self) -> Step:
        """The step on show."""
        return self.lesson.steps[self.index]

    @property
    def finished(self) -> bool:
        """Whether the last step is done."""
        return self.state == State.FINISHED

    def start(self) -> None:
        """Begin, or resume where the learner's slot left this lesson unfinished."""
        self.index = 0
        if self.store is not None:
            step, done = _progress(self.store.lesson_progress(self.slot), self.lesson.id)
            if not done and 1 <= step <= len(self.lesson.steps):
                self.index = step - 1
        self._enter()

    def next(self) -> None:
        """Go on to the next step (a step not yet answered may be skipped)."""
        if self.state in (State.FINISHED, State.LEFT):
            return
        if self.index + 1 >= len(self.lesson.steps):
            self._finish()
            return
        self.index += 1
        self._enter()

    def go_to(self, number: int) -> None:
        """Jump to step ``number`` (counted from 1), as a teacher running the lesson may."""
        if not 1 <= number <= len(self.lesson.steps):
            raise ValueError(
                f"lesson {self.lesson.info.number} has steps 1 to {len(self.lesson.steps)}, "
                f"not {number}"
            )
        self.index = number - 1
        self._enter()

    def back(self) -> None:
        """Go back to the step before this one."""
        if self.state == State.LEFT or self.index == 0:
            return
        self.index -= 1
        self._enter()

    def answer(self, choice: int) -> None:
        """The learner's answer to the question or count on show (index from 0)."""
        if self.state == State.PLAYING and self.choices:
            self._referee_choice(choice)
            return
        if self.state != State.ASKING:
            return
        if not 0 <= choice < len(self.choices):
            self._emit("error", message=f"There is no choice {choice + 1}.")
            return
        step = self.current_step
        if isinstance(step, CountStep):
            self._answer_count(step, choice)
        else:
            assert isinstance(step, QuestionStep)
            self._answer_question(step, choice)

    def on_event(self, event: Mapping[str, Any]) -> None:
        """An application event: the referee's, or a button."""
        kind = event.get("event")
        if kind == "button":
            self._button(str(event.get("name", "")))
        elif kind == "setup-ok" and self.state == State.LAYING:
            self._laid_out()
        elif kind == "play" and self.state == State.PLAYING:
            self._played(event)
        elif kind == "choose" and self.state == State.PLAYING:
            self.choices = tuple(event.get("options", ()))
        elif kind == "illegal" and self.state in (State.PLAYING, State.LAYING):
            step = self.current_step
            invited = isinstance(step, PlayStep) and step.wrong_first
            self.mistakes += not invited

    def on_board(self, board: Sensed) -> None:
        """A settled picture of the table: a live count follows the learner's blot."""
        if self.state in (State.WATCHING, State.ANSWERED) and _live(self.current_step):
            self._watch(board)

    # -- entering a step ---------------------------------------------------------------

    def _enter(self) -> None:
        step = self.current_step
        self.selected = 0
        self.choices = ()
        self.target = None
        self.variant = None
        self._watched = None
        self._save(done=False)
        if isinstance(step, ExplainStep):
            self.state = State.READING
            self._announce()
        elif isinstance(step, ChartStep):
            self.state = State.READING
            self._announce()
            self._chart(step)
        elif isinstance(step, SetupStep):
            self._lay_out(step.position, step.text)
        elif isinstance(step, PlayStep):
            self._start_play(step)
        elif isinstance(step, RussianPlayStep):
            self._start_russian(step)
        elif isinstance(step, QuestionStep):
            self._ask(step.choices, step.answer)
        elif isinstance(step, CountStep):
            if _live(step):
                self.state = State.WATCHING
                self._free_table()
                self._announce()
                board = self.host.sensed()
                if board is not None:
                    self._watch(board, quiet=True)
            elif self._shows(step.board):
                self._ask_count(step)
            else:
                first = "First lay the men out as the pale men show. "
                self._lay_out(step.board, first + step.text)

    def _pips(self) -> dict[str, object]:
        """The pip counts of the board on the table, hidden while a count asks for them."""
        step = self.current_step
        if self.state == State.ASKING and isinstance(step, CountStep) and step.what != "shots":
            return {"hide_pips": True}
        if isinstance(step, RussianPlayStep):  # counted along the Russian common track
            referee = self.variant
            turn = referee.turn if referee is not None else None
            at = step.start if referee is None else turn.position if turn else referee.position
            return {"pips": {"white": at.pips(WHITE), "black": at.pips(BLACK)}}
        position = self._board_position()
        if position is None:
            return {}
        return {"pips": {"white": position.pips(WHITE), "black": position.pips(BLACK)}}

    def _announce(self, text: str | None = None, **extra: object) -> None:
        step = self.current_step
        extra = {**self._pips(), **extra}
        self._emit(
            "lesson",
            to="both",
            lesson=self.lesson.id,
            title=self.lesson.title,
            step=step.number,
            steps=len(self.lesson.steps),
            kind=step.kind,
            text=text if text is not None else step.text,
            detail=with_years(step.cite),
            light=list(step.light),
            **extra,
        )

    def _lay_out(self, position: Position, text: str) -> None:
        """Guide the learner to lay out ``position``; the step goes on at ``setup-ok``."""
        self.state = State.LAYING
        self.target = position
        referee = self._referee(position)
        referee.set_up(position)
        self._announce(text, position=position.position_id(), turn=str(position.turn))

    def _laid_out(self) -> None:
        self.target = None
        step = self.current_step
        if isinstance(step, SetupStep):
            self._result(True, "The men are all in place.")
            self.next()
        elif isinstance(step, PlayStep):
            self._throw(step)
        elif isinstance(step, RussianPlayStep):
            self._throw_russian(step)
        elif isinstance(step, CountStep):
            self._ask_count(step)

    def _referee(self, position: Position) -> Referee:
        game = Game(self.lesson.profile, position)
        game.start_with(position.turn)
        self.referee = self.host.new_referee(game)
        return self.referee

    def _free_table(self) -> None:
        """A referee with no game on: the learner moves men freely and nothing is judged."""
        game = Game(self.lesson.profile, self._board_position() or Position.standard())
        game.close()
        self.referee = self.host.new_referee(game)

    def _shows(self, position: Position) -> bool:
        return self.host.shows(position)

    # -- plays -------------------------------------------------------------------------

    def _start_play(self, step: PlayStep) -> None:
        if self._shows(step.start):
            self._referee(step.start)
            self._throw(step)
        else:
            self._lay_out(
                step.start,
                "Lay the men out as the pale men show; then the lesson throws the dice.",
            )

    def _throw(self, step: PlayStep) -> None:
        assert self.referee is not None
        self.state = State.PLAYING
        d1, d2 = step.dice
        mover = step.start.turn
        self.referee.throw(d1, d2, 0)
        extra: dict[str, object] = {}
        if step.replay:
            play = step.plays[step.accept[0]]
            extra["preview"] = {
                "move": str(play),
                "arrows": [[location(mover, s.src), location(mover, s.dst)] for s in play.steps],
                "words": step.explain,
                "skip": "select skips to the end of this game's turns",
            }
        self._announce(
            f"{step.text} ({mover.name.capitalize()} to play {d1}-{d2}. {DICE_HELP})",
            dice=[d1, d2],
            player=str(mover),
            **extra,
            books=[
                {"book": b.book, "hit": b.hit, "gammon": b.gammon, "cite": b.cite, "note": b.note}
                for b in step.books
            ],
        )

    # -- a throw of Russian backgammon -----------------------------------------------------

    def _start_russian(self, step: RussianPlayStep) -> None:
        """The Russian referee takes the table; the learner lays the position out (the
        step goes on at ``setup-ok``, which the referee says once the table shows it)."""
        self.state = State.LAYING
        self.referee = None
        self.variant = self.host.new_variant_referee(step.rules, step.start)
        self._announce(
            f"{step.text} Lay the men out as the pale men show; then the lesson throws the dice.",
            russian=step.start.notation(),
            rules=step.rules,
        )

    def _throw_russian(self, step: RussianPlayStep) -> None:
        assert self.variant is not None
        self.state = State.PLAYING
        self._moves = []
        d1, d2 = step.dice
        mover = step.start.turn
        self.variant.throw(d1, d2, 0)
        self._announce(
            f"{step.text} ({mover.name.capitalize()} to play {d1}-{d2}: end each part with "
            f"Done. {DICE_HELP})",
            dice=[d1, d2],
            player=str(mover),
            rules=step.rules,
        )

    def _russian_played(self, step: RussianPlayStep, event: Mapping[str, Any]) -> None:
        """A part of the throw played: once the whole throw is, the step is done."""
        assert self.variant is not None
        self._moves.append(str(event.get("move", "")) or "nothing")
        turn = self.variant.turn
        if turn is not None and not turn.over:
            return  # the referee says which part comes next
        played = "; then ".join(self._moves)
        self._result(True, f"Played: {played}. {step.explain}", move=played, best=True)
        self.state = State.ANSWERED

    def _played(self, event: Mapping[str, Any]) -> None:
        step = self.current_step
        if isinstance(step, RussianPlayStep):
            self._russian_played(step, event)
            return
        assert isinstance(step, PlayStep)
        move = str(event.get("move", "")) or "no move"
        verdict = step.verdict(str(event.get("position", "")))
        best = " or ".join(step.accept)  # every play within 0.03 of GNU Backgammon's best
        books = step.book_names(str(event.get("position", "")))
        by = f" ({'; '.join(books)})" if books else ""
        sources = f"Played so by {'; '.join(books)}." if books else ""
        if verdict == "accept":  # the lesson's point first; the books that play it: Select
            self._result(
                True, f"Right: {move}. {step.explain}", move=move, best=True, sources=sources
            )
        elif verdict == "good":
            self._result(
                True,
                f"{move} is sound, a little behind {best}. {step.explain}",
                move=move,
                best=False,
                sources=sources,
            )
        else:
            self.mistakes += 1
            mover = step.start.turn
            wanted = step.plays[step.accept[0]]
            arrows = [[location(mover, s.src), location(mover, s.dst)] for s in wanted.steps]
            also = f" ({' or '.join(step.accept[1:])} as good)" if len(step.accept) > 1 else ""
            own = self._own_play(step, str(event.get("position", "")), wanted)
            self._result(
                False,
                f"{own}The play wanted is {step.accept[0]}{also}, shown by the arrows: "
                f"{step.explain}",
                move=move,
                best=False,
                wanted={"move": str(wanted), "arrows": arrows},
                sources=f"You played {move}{by}.",
            )
            self.state = State.SHOWING  # until a button: then the men go back for another try
            return
        self.state = State.ANSWERED

    def _own_play(self, step: PlayStep, position_id: str, wanted: Play) -> str:
        """The learner's own wrong play, rated: what it costs by the lessons' stored ratings
        (GNU Backgammon's, :mod:`.ratings`) and what it does wrong against the wanted play
        (the coach's reasons); empty when the play or its rating is not known."""
        played = next(
            (
                p
                for p in step.start.legal_plays(*step.dice, self.lesson.profile)
                if p.result.position_id() == position_id
            ),
            None,
        )
        entry = stored_step(self.lesson.id, step)
        if played is None or entry is None or position_id not in entry["losses"]:
            return ""
        loss = float(entry["losses"][position_id])
        if entry["unit"] == "throws":
            cost = f"it needs {loss:.2f} more throws on average to bear every man off"
        else:
            cost = f"{classify(loss)}: it costs {loss:.2f} points a game on average"
        wrong = [r.text for r in explain(step.start, played, wanted) if r.code in WRONG_CODES]
        if not wrong:
            wrong = [r.text for r in explain_error(step.start, played, wanted)]
        why = f" {'. '.join(wrong[:2])}." if wrong else ""
        return f"You played {played}, {cost}.{why} "

    def _try_again(self) -> None:
        """After a wrong play has been shown: the men go back, and the roll is played again."""
        step = self.current_step
        assert isinstance(step, PlayStep)
        self._lay_out(step.start, "Put the men back where they started, then play the roll again.")

    def _referee_choice(self, choice: int) -> None:
        assert self.referee is not None
        self.choices = ()
        self.referee.choose(choice)

    # -- questions and counts --------------------------------------------------------------

    def _ask(self, choices: tuple[str, ...], right: int, text: str | None = None) -> None:
        self.state = State.ASKING
        self.choices = choices
        self._right = right
        self._announce(text, choices=list(choices), selected=self.selected)

    def _answer_question(self, step: QuestionStep, choice: int) -> None:
        right = step.choices[step.answer]
        if choice == step.answer:
            self._result(True, f"Right: {right}. {step.explain}", choice=choice)
            self.state = State.ANSWERED
        else:
            self.mistakes += 1
            self._result(
                False,
                f"“{step.choices[choice]}” is not right. {step.explain} Try again.",
                choice=choice,
            )

    def _ask_count(self, step: CountStep) -> None:
        position = self._board_position() or step.board
        if step.what == "shots":
            assert step.at is not None
            colour, point = _blot_at(position, step.at)
            if colour is None:
                self._lay_out(step.board, f"Put the blot back on {step.at} first. {step.text}")
                return
            by = shots_by_attacker(position, colour, point)
            total = shots(position, colour, point)
            self._count_light = tuple(location(colour.other, p) for p in sorted(by))
            self._count_text = _shots_text(total, by, colour)
            choices, right = _numbers(total)
        elif step.what == "stranded":
            from kiosk.rules.stranded import stranded_count

            counted = stranded_count(position, step.side, step.option)
            self._count_light = ()
            self._count_text = (
                f"{step.side.name.capitalize()}'s men left on the board score "
                f"{counted.total} by Parker's option {step.option}: "
                + "; ".join(counted.lines())
                + "."
            )
            choices, right = _numbers(counted.total, spread=(-4, -2, 2, 5))
        elif step.what == "pips":
            pips = position.pips(step.side)
            self._count_light = ()
            self._count_text = f"{step.side.name.capitalize()} needs {pips} pips to bear all off."
            choices, right = _numbers(pips, spread=(-10, -5, 5, 10))
        else:
            white, black = position.pips(WHITE), position.pips(BLACK)
            self._count_light = ()
            self._count_text = f"White needs {white} pips, Black {black}."
            choices = ("White is forwardest", "Black is forwardest", "They are level")
            right = 0 if white < black else 1 if black < white else 2
        self._ask(choices, right)

    def _answer_count(self, step: CountStep, choice: int) -> None:
        light = list(self._count_light)
        if choice == self._right:
            right = self.choices[choice]
            self.state = State.ANSWERED  # the count may show now
            self._result(True, f"Right: {right}. {self._count_text} {step.explain}", light=light)
        else:
            self.mistakes += 1
            hint = (
                "Count again: the lit men are the ones that can hit."
                if light
                else ("Count again, point by point.")
            )
            self._result(False, f"“{self.choices[choice]}” is not right. {hint}", light=light)

    def _watch(self, board: Sensed, quiet: bool = False) -> None:
        """Count the shots at the learner's one blot; ``quiet``: say nothing if there is none."""
        position = _position(board)
        blots = [p for p in range(1, 25) if position.is_blot(WHITE, p)]
        if len(blots) == 1:
            point = blots[0]
            by = shots_by_attacker(position, WHITE, point)
            seen: tuple[Any, ...] = ("blot", point, tuple(sorted(by.items())))
            if seen == self._watched:
                return
            self._watched = seen
            total = shots(position, WHITE, point)
            self._result(
                True,
                f"Your blot on your {point} point: {_shots_text(total, by, WHITE)}",
                light=[location(BLACK, p) for p in sorted(by)],
                count=total,
                at=location(WHITE, point),
            )
            self.state = State.ANSWERED
            return
        seen = ("blots", len(blots))
        if seen == self._watched:
            return
        self._watched = seen
        if not quiet:
            self._result(
                False,
                "Leave exactly one of your men alone on a point, and the table counts its shots."
                if blots
                else "Place one of your men alone on a point.",
            )

    def _board_position(self) -> Position | None:
        board = self.host.sensed()
        return _position(board) if board is not None else None

    # -- charts ----------------------------------------------------------------------------

    def _chart(self, step: ChartStep) -> None:
        if step.chart == "shots":
            title, x_label = "Shots at a blot by distance (of 36 rolls)", "distance in pips"
        else:
            title, x_label = "Rolls that enter a man from the bar (of 36)", "points open"
        series = [{"name": "exact", "values": [[x, y] for x, y in sorted(step.exact.items())]}]
        for book, values in step.books.items():
            series.append({"name": book, "values": [[x, y] for x, y in sorted(values.items())]})
        self._emit(
            "chart",
            lesson=self.lesson.id,
            step=step.number,
            chart=step.chart,
            title=title,
            x_label=x_label,
            y_label="rolls of 36",
            series=series,
            wrong=[
                {"book": book, "x": x, "book_value": value, "exact": exact}
                for book, x, value, exact in step.wrong()
            ],
        )

    # -- buttons, results, progress ----------------------------------------------------------

    def _button(self, name: str) -> None:
        if name == "menu":
            self._save(done=False)
            self.state = State.LEFT
            self._emit("lesson-exit", lesson=self.lesson.id, step=self.current_step.number)
        elif name == "back":
            self.back()
        elif self.state == State.ASKING and name == "select":
            self.selected = (self.selected + 1) % len(self.choices)
            self._announce(choices=list(self.choices), selected=self.selected)
        elif self.state == State.ASKING and name == "done":
            self.answer(self.selected)
        elif self.state in (State.READING, State.ANSWERED, State.WATCHING) and name in (
            "select",
            "done",
        ):
            self.next()
        elif self.state == State.SHOWING and name in ("select", "done"):
            self._try_again()
        elif name == "select" and self._replaying():
            self.skip()

    def _replaying(self) -> bool:
        step = self.current_step
        return isinstance(step, PlayStep) and step.replay > 0

    def skip(self) -> None:
        """Skip the rest of the book's game being replayed: on to the first step after it."""
        if not self._replaying():
            return
        step = self.current_step
        assert isinstance(step, PlayStep)
        game = step.replay
        index = self.index
        steps = self.lesson.steps
        while index < len(steps) and getattr(steps[index], "replay", 0) == game:
            index += 1
        if index >= len(steps):
            self._finish()
            return
        self.index = index
        self._enter()

    def _result(self, correct: bool, text: str, **extra: object) -> None:
        step = self.current_step
        fields: dict[str, object] = {"light": list(step.light), **self._pips()}
        fields.update(extra)
        self._emit(
            "lesson-result",
            to="both",
            lesson=self.lesson.id,
            step=step.number,
            correct=correct,
            text=" ".join(text.split()),
            detail=with_years(step.cite),
            **fields,
        )

    def _finish(self) -> None:
        self.state = State.FINISHED
        self._save(done=True)
        self._emit(
            "lesson-end",
            to="both",
            lesson=self.lesson.id,
            title=self.lesson.title,
            mistakes=self.mistakes,
            text=f"Lesson {self.lesson.info.number} done: {self.lesson.title}.",
        )

    def _save(self, done: bool) -> None:
        if self.store is not None:
            self.store.save_lesson_step(self.slot, self.lesson.id, self.current_step.number, done)

    def _emit(self, name: str, **fields: object) -> None:
        self.host.emit({"event": name, **fields})


# -- helpers ---------------------------------------------------------------------------------


def _progress(progress: Mapping[str, tuple[int, bool]], lesson_id: str) -> tuple[int, bool]:
    step, done = progress.get(lesson_id, (0, False))
    return int(step), bool(done)


def _live(step: Step) -> bool:
    return isinstance(step, CountStep) and step.what == "shots" and step.at is None


def _position(board: Sensed) -> Position:
    """The position a sensed board shows, white to play (counts as the slots read them)."""
    men: list[list[int]] = [[0] * 25, [0] * 25]
    off = [0, 0]
    for colour in (WHITE, BLACK):
        side = 0 if colour == WHITE else 1
        for where, counts in board.items():
            n = counts[side]
            if not n:
                continue
            point = point_of(colour, where)
            if point == OFF:
                off[colour] += n
            else:
                men[colour][point - 1 if point != BAR else 24] += n
    return Position((men[0], men[1]), (off[0], off[1]), WHITE, validate=False)


def _blot_at(position: Position, where: str) -> tuple[Colour | None, int]:
    for colour in (WHITE, BLACK):
        point = point_of(colour, where)
        if position.is_blot(colour, point):
            return colour, point
    return None, 0


def _shots_text(total: int, by: Mapping[int, int], colour: Colour) -> str:
    """The count of shots at a blot of ``colour``, and where they come from."""
    if not total:
        return "No roll of the 36 can hit it."
    parts = [f"{n} from {colour.other}'s {p} point" for p, n in sorted(by.items())]
    return f"{total} of the 36 rolls hit it ({'; '.join(parts)})."


def _numbers(right: int, spread: tuple[int, ...] = (-3, 2, 5)) -> tuple[tuple[str, ...], int]:
    """Numeric choices: ``right`` and one more for each of ``spread``, none below 0, in order."""
    others = [right + s for s in spread if right + s >= 0]
    extra = max(spread)
    while len(others) < len(spread):
        extra += 2
        others.append(right + extra)
    values = sorted({right, *others})
    return tuple(str(v) for v in values), values.index(right)
