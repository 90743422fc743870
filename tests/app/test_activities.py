"""The activity on the table as one object: each activity pushed on the mode stack and taken
off again over a real :class:`~kiosk.play.GameCore` (no link, no window), the core's owner
and the ``mode`` events the stack publishes checked at each step.

The last tests are the recipe for a new activity: a class defined here, in a few lines,
needs nothing else under ``kiosk/`` to take the table and give it back.
"""

from __future__ import annotations

from typing import Any

from kiosk.app.lessons import LessonTable
from kiosk.app.modes import ACTIVITIES, Activity, ModeStack
from kiosk.app.modes.game import GameMode
from kiosk.app.modes.lesson import BetweenLessons, LessonMode
from kiosk.app.modes.replay import ReplayMode
from kiosk.app.modes.russian import RussianMode
from kiosk.app.replay import book_replays
from kiosk.events import Event, Kind, Message, ModeChanged, PositionShown
from kiosk.play import GameCore
from kiosk.referee import Referee
from kiosk.referee.russian import RussianReferee
from kiosk.rules import Position
from kiosk.table import TableLayout, TableReading, project
from kiosk.tutor.lessons import LessonEngine, load_lesson


class Table:
    """The least the activities ask of the application: a real game core, the stream of
    events (kept in order), the mode stack with the game at its bottom."""

    dice_source = "wells"

    def __init__(self, sensing: str = "occupancy") -> None:
        self.events: list[Event] = []
        self.bus = self  # the activities publish on app.bus
        self.core = GameCore(TableLayout(sensing=sensing), self.publish)
        self.core.new_game()
        self.core.sense(self.reading(Position.standard()), 0)
        self.core.tick(1000)
        self.modes = ModeStack(self.publish, GameMode(self))

    def publish(self, event: Event) -> None:
        self.events.append(event)

    def reading(self, position: Position) -> TableReading:
        return TableReading.of(project(position, self.core.layout), self.core.sensing)

    def banner(self) -> str:
        return "Two players"

    def say(self, to: str, text: str, warning: bool = False) -> None:
        self.publish(Message(to=to, text=text, warning=warning))

    def modes_said(self) -> list[dict[str, Any]]:
        """The ``mode`` events so far, as JSON (the wire format), then forgets them all."""
        said = [e.to_json() for e in self.events if isinstance(e, ModeChanged)]
        self.events.clear()
        return said


def test_the_game_has_the_table_from_the_start_and_says_nothing_about_it() -> None:
    t = Table()
    assert t.modes.activity is t.modes.base
    assert t.core.owner.kind is Kind.GAME and t.core.judge is t.core.referee
    assert t.modes_said() == []


def test_a_replay_takes_the_table_and_gives_it_back_to_the_game() -> None:
    t = Table()
    t.modes_said()
    replay = book_replays()[0]
    mode = ReplayMode(t, replay)
    t.modes.push(mode, replacing=ACTIVITIES)
    assert t.modes.activity is mode
    assert t.core.owner.kind is Kind.REPLAY and t.core.judge is None
    first = t.events[1]
    assert isinstance(first, PositionShown) and first.text.startswith("Crawley")
    assert t.modes_said() == [
        {"event": "mode", "mode": "replay", "banner": f"Replay: {replay.title}"}
    ]
    assert not (mode.recorded or mode.coached or mode.cube or mode.says_done)
    mode.press("back", "white")
    assert t.modes.names() == ["game"]
    assert t.core.owner.kind is Kind.GAME and t.core.judge is t.core.referee
    assert t.core.referee.target == t.core.game.position  # the game's men laid out again
    kinds = [e.name for e in t.events]
    assert kinds[:2] == ["mode", "position"]
    assert t.modes_said() == [{"event": "mode", "mode": "game", "banner": "Two players"}]


def test_a_lesson_takes_the_table_hosts_its_referees_and_gives_it_back() -> None:
    t = Table()
    t.modes_said()
    lesson = load_lesson("openings")
    engine = LessonEngine(lesson, LessonTable(lesson.id, t.publish, t.core), None, "guest-1")
    mode = LessonMode(t, engine)
    t.modes.push(mode, replacing=ACTIVITIES)
    assert t.core.owner.kind is Kind.LESSON and t.core.judge is None
    assert t.modes_said() == [
        {
            "event": "mode",
            "mode": "lesson",
            "lesson": "openings",
            "banner": "Lesson 11: The 21 opening throws",
        }
    ]
    referee = t.core.host(lesson_game(), t.publish)  # as the engine does for a play step
    assert t.core.owner.kind is Kind.LESSON and t.core.judge is referee
    assert not t.core.owner.wells  # the lesson throws its own dice
    between = BetweenLessons(t)  # the lesson left: the Lessons menu over the table
    t.modes.push(between, replacing=ACTIVITIES)
    assert t.modes.names() == ["game", "between-lessons"]
    assert t.core.owner.kind is Kind.LESSON and t.core.judge is None
    assert t.modes_said() == [{"event": "mode", "mode": "game", "banner": "Two players"}]
    between.leave()
    assert t.core.owner.kind is Kind.GAME and t.core.judge is t.core.referee
    assert t.modes_said() == [{"event": "mode", "mode": "game", "banner": "Two players"}]


def lesson_game() -> Any:
    from kiosk.rules import Game, get_profile

    return Game(get_profile("modern"), Position.standard())


def test_a_russian_game_takes_the_table_with_its_own_referee_and_gives_it_back() -> None:
    t = Table()
    t.modes_said()
    mode = RussianMode(t, "russian-cady")
    t.modes.push(mode, replacing=ACTIVITIES)
    assert t.core.owner.kind is Kind.RUSSIAN
    assert isinstance(t.core.judge, RussianReferee) and t.core.variant is mode.referee
    assert t.core.owner.wells
    said = t.modes_said()
    assert [s["mode"] for s in said] == ["russian"] and said[0]["banner"].startswith("Russian")
    mode.press("back", "white")
    assert t.core.owner.kind is Kind.GAME and t.core.variant is None
    assert isinstance(t.core.judge, Referee)
    assert t.modes_said() == [{"event": "mode", "mode": "game", "banner": "Two players"}]


def test_one_activity_replaces_another_without_the_game_in_between() -> None:
    t = Table()
    t.modes_said()
    t.modes.push(RussianMode(t, "russian-cady"), replacing=ACTIVITIES)
    t.modes.push(ReplayMode(t, book_replays()[0]), replacing=ACTIVITIES)
    assert t.modes.names() == ["game", "replay"]
    assert [s["mode"] for s in t.modes_said()] == ["russian", "replay"]
    assert t.core.owner.kind is Kind.REPLAY and t.core.variant is None


def test_a_new_game_drops_the_activity_and_the_game_has_the_table_at_once() -> None:
    t = Table()
    t.modes.push(ReplayMode(t, book_replays()[0]), replacing=ACTIVITIES)
    t.modes_said()
    t.core.new_game()  # the game has the table: what else had it lapses
    t.modes.drop(*ACTIVITIES)
    assert t.core.owner.kind is Kind.GAME
    assert t.modes_said() == [{"event": "mode", "mode": "game", "banner": "Two players"}]
    assert not any(isinstance(e, PositionShown) for e in t.events)  # not laid out twice


# -- the recipe for a new activity --------------------------------------------------------


class Demonstration(Activity):
    """A new activity, all in one class: the table shows a position, nobody judges, nothing
    is recorded or coached, no cube, no "press Done"; Back gives the table back."""

    name = "demonstration"
    kind = Kind.REPLAY  # what the view draws it as (a new Kind only if it must differ)

    def __init__(self, app: Table) -> None:
        self.app = app

    def banner(self) -> str:
        return "A demonstration"

    def take(self) -> None:
        self.app.core.take(self.kind)

    def press(self, button: str, player: str | None) -> None:
        if button == "back":
            self.leave()


def test_a_new_activity_is_one_class_pushed_on_the_stack() -> None:
    t = Table()
    t.modes_said()
    demo = Demonstration(t)
    t.modes.push(demo, replacing=ACTIVITIES)
    assert t.core.owner.kind is Kind.REPLAY and t.core.judge is None
    assert t.modes_said() == [{"event": "mode", "mode": "replay", "banner": "A demonstration"}]
    t.modes.press("back", "white")
    assert t.core.owner.kind is Kind.GAME
    assert t.modes_said() == [{"event": "mode", "mode": "game", "banner": "Two players"}]


def test_men_nobody_judges_keep_the_colours_they_were_given() -> None:
    """On a table that senses only where men are, a board nobody judges is coloured from
    the board as it was when the table changed hands, never from the waiting game."""
    t = Table("occupancy")
    t.core.new_game(Position.from_id("NwAAwA0AAAAAAA"), set_up=False)  # few men, far apart
    t.core.host(lesson_game(), t.publish)  # a lesson judges the men laid out
    t.core.sense(t.reading(Position.standard()), 2000)
    assert t.core.board == project(Position.standard(), t.core.layout)
    t.modes.push(Demonstration(t), replacing=ACTIVITIES)
    moved = Position.standard().parse_play(1, 1, "24/23(2) 6/5(2)")
    t.core.sense(t.reading(moved.result), 3000)
    board = t.core.board
    assert board is not None
    assert sum(w for w, _ in board.values()) == 15 and sum(b for _, b in board.values()) == 15
    assert board == project(moved.result, t.core.layout)
