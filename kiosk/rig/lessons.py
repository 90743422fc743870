"""Lessons run headless through the whole stack, with a scripted or a simulated learner.

:class:`TableSession` puts a :class:`~kiosk.tutor.lessons.engine.LessonEngine` on a
:class:`~kiosk.rig.scenario.ScenarioRunner` (simulated table, pseudo-terminal, link,
referee). Events reach the engine the way the application's event bus delivers them:
after the action that caused them, never from inside the referee.

A script takes the scenario actions (``lift 8``, ``place 5``, ``wait 400``, ``press
done``...) and the learner's own: ``answer N`` (from 1), ``button select|back|menu|done``.
:class:`Learner` plays a lesson by itself: ``Learner(right=True)`` does every step as the
lesson wants; ``Learner(right=False)`` first makes a mistake at each step (a man laid
wrong, an illegal move, a play the lesson does not accept, a wrong answer) and then puts
it right.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kiosk.events import Event
from kiosk.link import LOCATIONS
from kiosk.referee import Referee
from kiosk.referee.russian import RussianReferee, russian_board
from kiosk.rig.scenario import ScenarioRunner, ScriptError
from kiosk.rules import BAR, OFF, WHITE, Colour, Game, Play, Position, RuleProfile, shots
from kiosk.rules.russian import RUSSIAN_BAR, RUSSIAN_HAND, RUSSIAN_OFF, RussianPlay, RussianPosition
from kiosk.table import SlotState, point_of
from kiosk.table.sensing import Sensed, project, true_counts
from kiosk.tutor.lessons.engine import LessonEngine, ProgressStore, State, _position
from kiosk.tutor.lessons.model import CountStep, Lesson, PlayStep, QuestionStep, RussianPlayStep

SETTLE_MS = 300


class TableSession:
    """One lesson at the simulated table; ``events`` keeps everything published, in order."""

    def __init__(
        self,
        lesson: Lesson,
        store: ProgressStore | None = None,
        player_slot: str = "guest-1",
        settle_ms: int = SETTLE_MS,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        sensing: str = "occupancy",
    ) -> None:
        self.events: list[dict[str, Any]] = []
        self._queue: list[dict[str, Any]] = []
        self._on_event = on_event
        self.settle_ms = settle_ms
        self.runner = ScenarioRunner(self._queue.append, settle_ms=settle_ms, sensing=sensing)
        self.engine = LessonEngine(lesson, self, store, player_slot)
        self._board: Sensed | None = None

    def close(self) -> None:
        """Stop the simulated table and its link."""
        self.runner.close()

    def __enter__(self) -> TableSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the LessonHost side ----------------------------------------------------------------

    def emit(self, event: dict[str, Any]) -> None:
        """Queue an event; it reaches the engine after the current action."""
        self._queue.append(event)

    def new_referee(self, game: Game) -> Referee:
        """A fresh referee judging the simulated table."""
        referee = self.runner.host(game, self._referee_event)
        assert isinstance(referee, Referee)
        return referee

    def new_variant_referee(self, rules: str, position: RussianPosition) -> RussianReferee:
        """A fresh referee of Russian backgammon judging the simulated table."""
        return self.runner.core.host_variant(rules, position, self._referee_event)

    def _referee_event(self, event: Event) -> None:
        self._queue.append(event.to_json())

    def sensed(self) -> Sensed | None:
        """The board on the table as the lesson's referee judges it."""
        return self.runner.sensed()

    def shows(self, position: Position) -> bool:
        """Whether the table shows ``position``, as far as it can tell."""
        reading = self.runner.reading()
        return reading is not None and reading.shows(project(position, self.runner.layout))

    def seen_by_learner(self) -> Sensed:
        """The men on the table as the learner sees them: every colour, every man."""
        sim = self.runner.sim
        board: Sensed = {}
        for where in LOCATIONS:
            men = sim.men(where)
            board[where] = (men.count(SlotState.WHITE), men.count(SlotState.BLACK))
        return board

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the lesson on the table as it stands."""
        self.runner.wait(self.settle_ms)
        self.engine.start()
        self.deliver()

    def act(self, line: str) -> None:
        """Run one script action, then deliver the events it caused."""
        word, *args = line.split()
        if word == "answer":
            if len(args) != 1 or not args[0].isdigit():
                raise ScriptError("usage: answer N (the choice, from 1)")
            self.engine.answer(int(args[0]) - 1)
        elif word == "button":
            if len(args) != 1:
                raise ScriptError("usage: button select|back|menu|done")
            self.engine.on_event({"event": "button", "name": args[0]})
        else:
            self.runner.action(line)
        self.deliver()

    def run(self, lines: Iterable[str]) -> None:
        """Run a script (``#`` starts a comment); a bad line is reported as an error event."""
        for number, raw in enumerate(lines, start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                self.act(line)
            except ValueError as err:
                self._publish({"event": "error", "line": number, "message": str(err)})

    def deliver(self) -> None:
        """Hand the engine every queued event, and the board when it has changed."""
        while True:
            board = self.runner.sensed()
            if board is not None and board != self._board:
                self._board = board
                self.engine.on_board(board)
            if not self._queue:
                return
            event = self._queue.pop(0)
            self._publish(event)
            self.engine.on_event(event)

    def _publish(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self._on_event is not None:
            self._on_event(event)


# -- the simulated learner -------------------------------------------------------------------


class Learner:
    """Plays a lesson at a :class:`TableSession`, rightly or first wrongly (see module doc)."""

    def __init__(self, right: bool = True) -> None:
        self.right = right
        self._erred: set[tuple[int, str]] = set()  # (step, what) mistakes already made

    def run(self, session: TableSession, limit: int = 5000) -> None:
        """Act until the lesson is finished (or ``limit`` actions, against a loop)."""
        engine = session.engine
        for _ in range(limit):
            if engine.state in (State.FINISHED, State.LEFT):
                return
            for line in self.actions(session):
                session.act(line)
        raise RuntimeError(f"the learner did not finish {engine.lesson.id} in {limit} actions")

    def _wrong_first(self, engine: LessonEngine, what: str) -> bool:
        key = (engine.current_step.number, what)
        if self.right or key in self._erred:
            return False
        self._erred.add(key)
        return True

    def actions(self, session: TableSession) -> list[str]:
        """The learner's next few actions for where the lesson is now."""
        engine = session.engine
        state = engine.state
        step = engine.current_step
        board = session.seen_by_learner()
        turn = engine.referee.game.turn if engine.referee else WHITE
        wait = f"wait {session.settle_ms + 60}"
        if isinstance(step, RussianPlayStep) and state in (State.LAYING, State.PLAYING):
            return self._russian(engine, step, board, wait)
        if state == State.LAYING:
            target = engine.target
            assert target is not None, "laying out with nothing to lay out"
            if self._wrong_first(engine, "lay"):
                spare = _empty_point(board)
                return [f"place {point_of(turn, spare)} white", wait]
            return [*lay_out(board, target, turn), wait]
        if state == State.PLAYING:
            assert isinstance(step, PlayStep)
            if engine.choices:
                return [f"answer {self._choose(engine, step)}"]
            if self._wrong_first(engine, "illegal"):
                wrong = _illegal_move(step)
                if wrong:
                    return [*wrong, wait, *_reverse(wrong), wait]
            if self._wrong_first(engine, "play"):
                other = _other_play(step, engine.lesson.profile)
                if other is not None:
                    return [*play_actions(other, step.start.turn), wait, "press done"]
            play = step.plays[step.accept[0]]
            return [*play_actions(play, step.start.turn), wait, "press done", wait]
        if state == State.ASKING:
            right = _right_choice(engine, step, board)
            if self._wrong_first(engine, "answer"):
                return [f"answer {(right + 1) % len(engine.choices) + 1}"]
            return [f"answer {right + 1}"]
        if state == State.WATCHING:
            return _place_blot(board, turn, wrong=self._wrong_first(engine, "blot")) + [wait]
        return ["button select"]

    def _russian(
        self, engine: LessonEngine, step: RussianPlayStep, board: Sensed, wait: str
    ) -> list[str]:
        """Lay the Russian position out, then play each part of the throw (a wrong learner
        first presses Done with nothing played, which the referee refuses)."""
        if engine.state == State.LAYING:
            return [*lay_out_russian(board, step.start), wait]
        turn = engine.variant.turn if engine.variant is not None else None
        if turn is None or turn.over:
            return [wait]
        if self._wrong_first(engine, "done"):
            me = turn.player
            held = [p for p in range(1, 7) if turn.position.points[me.other][p - 1] >= 2]
            if turn.position.hand[me] and held:  # a man entered on a closed point
                wrong = [f"lift hand {me}", f"place {held[0]} {me}"]
                return [*wrong, wait, *_reverse(wrong), wait]
            return ["press done", wait]
        play = turn.legal_plays()[0]
        return [*russian_play_actions(play, turn.player), wait, "press done", wait]

    def _choose(self, engine: LessonEngine, step: PlayStep) -> int:
        for i, text in enumerate(engine.choices):
            if text in step.accept:
                return i + 1
        return 1


def lay_out(board: Sensed, target: Position, turn: Colour) -> list[str]:
    """Lift and place actions that turn the table's ``board`` into ``target``."""
    want = true_counts(target)
    lifts, places = [], []
    for where in LOCATIONS:
        have = board.get(where, (0, 0))
        for side, colour in ((0, "white"), (1, "black")):
            diff = want[where][side] - have[side]
            name = _name(where, Colour.parse(colour), turn)
            lifts += [f"lift {name} {colour}"] * max(-diff, 0)
            places += [f"place {name} {colour}"] * max(diff, 0)
    return lifts + places


def lay_out_russian(board: Sensed, target: RussianPosition) -> list[str]:
    """Lift and place actions, in the Russian game's words (``hand``, ``bar``, the common
    track's points), that turn the table's ``board`` into ``target``."""
    want = russian_board(target)
    lifts, places = [], []
    for where in LOCATIONS:
        have = board.get(where, (0, 0))
        for side, colour in ((0, "white"), (1, "black")):
            diff = want[where][side] - have[side]
            name = where.split("-")[0] if "-" in where else str(25 - int(where))
            name = "hand" if name == "off" else name
            lifts += [f"lift {name} {colour}"] * max(-diff, 0)
            places += [f"place {name} {colour}"] * max(diff, 0)
    return lifts + places


def russian_play_actions(play: RussianPlay, mover: Colour) -> list[str]:
    """The learner's hands making a Russian ``play``: each man lifted and put down, a man
    hit lifted to his bar."""
    names = {RUSSIAN_HAND: "hand", RUSSIAN_BAR: "bar", RUSSIAN_OFF: "off"}
    me, other = str(mover), str(mover.other)
    lines: list[str] = []
    for step in play.steps:
        lines.append(f"lift {names.get(step.src, step.src)} {me}")
        if step.hit:
            lines += [f"lift {step.dst} {other}", f"place bar {other}"]
        lines.append(f"place {names.get(step.dst, step.dst)} {me}")
    return lines


def play_actions(play: Play, mover: Colour) -> list[str]:
    """The learner's hands making ``play``: lift each man and put it down, hits to the bar."""
    other = "black" if mover == WHITE else "white"
    lines: list[str] = []
    for step in play.steps:
        src = "bar" if step.src == BAR else str(step.src)
        dst = "off" if step.dst == OFF else str(step.dst)
        lines.append(f"lift {src}")
        if step.hit:
            lines += [f"lift {step.dst} {other}", f"place bar {other}"]
        lines.append(f"place {dst}")
    return lines


def _name(where: str, colour: Colour, turn: Colour) -> str:
    """A table location as a script names it: ``bar``/``off`` with a colour, else a point."""
    if where.startswith(("bar-", "off-")):
        return where.split("-")[0]
    return str(point_of(turn, where))


def _reverse(lines: list[str]) -> list[str]:
    swap = {"lift": "place", "place": "lift"}
    out = []
    for line in reversed(lines):
        word, *rest = line.split()
        out.append(" ".join([swap[word], *rest]))
    return out


def _empty_point(board: Sensed) -> str:
    for where in LOCATIONS[:24]:
        if board.get(where, (0, 0)) == (0, 0):
            return where
    return "1"


def _illegal_move(step: PlayStep) -> list[str]:
    """A man moved a distance no die shows, if the mover has such a man to move."""
    position = step.start
    mover = position.turn
    if position.bar(mover):
        return []
    d1, d2 = step.dice
    reach = {d1, 2 * d1, 3 * d1, 4 * d1} if d1 == d2 else {d1, d2, d1 + d2}
    for src in range(24, 1, -1):
        if not position.count(mover, src):
            continue
        for distance in range(1, min(src, 7)):
            dst = src - distance
            if distance not in reach and position.count(mover.other, 25 - dst) == 0:
                return [f"lift {src}", f"place {dst}"]
    return []


def _other_play(step: PlayStep, profile: RuleProfile) -> Play | None:
    """A legal play of the roll that the lesson neither accepts nor calls good."""
    taken = {step.plays[t].result for t in (*step.accept, *step.good)}
    for play in step.start.legal_plays(*step.dice, profile=profile):
        if play.result not in taken:
            return play
    return None


def _right_choice(engine: LessonEngine, step: object, board: Sensed) -> int:
    """The right answer, worked out by the learner (not read from the engine)."""
    if isinstance(step, QuestionStep):
        return step.answer
    assert isinstance(step, CountStep)
    position = _position(board)
    if step.what == "shots":
        assert step.at is not None
        colour = WHITE if board[step.at][0] else WHITE.other
        value = str(shots(position, colour, point_of(colour, step.at)))
    elif step.what == "pips":
        value = str(position.pips(step.side))
    elif step.what == "stranded":
        from kiosk.rules.stranded import stranded_count

        value = str(stranded_count(position, step.side, step.option).total)
    else:
        w, b = position.pips(WHITE), position.pips(WHITE.other)
        return 0 if w < b else 1 if b < w else 2
    return engine.choices.index(value)


def _place_blot(board: Sensed, turn: Colour, wrong: bool) -> list[str]:
    """Move men from the learner's tallest point to empty points: one blot (two, when wrong)."""
    position = _position(board)
    lines = []
    for p in range(1, 25):
        if position.is_blot(WHITE, p):
            lines.append(f"lift {point_of(turn, str(p))} white")
    tallest = max(range(1, 25), key=lambda p: position.count(WHITE, p))
    empty = [w for w in LOCATIONS[:24] if board.get(w, (0, 0)) == (0, 0)]
    for where in empty[4 : 6 if wrong else 5]:
        lines += [
            f"lift {point_of(turn, str(tallest))} white",
            f"place {point_of(turn, where)} white",
        ]
    return lines
