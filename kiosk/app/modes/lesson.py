"""A lesson on the table: the buttons go to the lesson engine; Back or Menu leaves it.

Between two lessons (one ended or left, the Lessons menu open) the table is nobody's: the
men stay as the last lesson left them, their colours kept, until another lesson takes the
table or Back from the menu gives it back to the game.
"""

from __future__ import annotations

from kiosk.app.lessons import LessonTable
from kiosk.app.menu import Menu
from kiosk.app.modes import Activity, Host, Legend
from kiosk.events import Choose, Detail, Kind, LessonEvent, WrongMove
from kiosk.rules import Colour
from kiosk.table.sensing import Sensed
from kiosk.tutor.lessons import LessonEngine, LessonError, State, load_lesson

NEXT = (State.READING, State.ANSWERED, State.WATCHING)


class LessonMode(Activity):
    """A lesson hosted at the table; its events carry a ``"lesson"`` key and are not the
    game's record; it throws its own dice; the coach and the cube stay out of it."""

    name = "lesson"
    kind = Kind.LESSON

    def __init__(self, app: Host, engine: LessonEngine) -> None:
        self.app = app
        self.engine = engine
        self._shown: Sensed | None = None  # the board the engine saw last
        self._reader = "white"  # whose side the whole text opens on: the last Done pressed

    def banner(self) -> str:
        info = self.engine.lesson
        return f"Lesson {info.info.number}: {info.title}"

    def lesson_id(self) -> str:
        return self.engine.lesson.id

    def take(self) -> None:
        """Nothing is judged until the lesson asks for a referee (the core hosts it); the
        men keep the colours they were given."""
        self.app.core.take(Kind.LESSON)

    def legend(self, player: str) -> Legend:
        state = self.engine.state
        keys: list[tuple[str, str]] = []
        if state in NEXT:
            keys.append(("done", "next"))
        elif state == State.SHOWING:  # a wrong play, the play wanted shown with arrows
            keys.append(("done", "put the men back and try again"))
        elif state == State.ASKING:  # the menus' buttons: Menu moves, Select chooses
            shown = self.app.view.show_detail.get(player)
            keys += [("menu", "next answer"), ("select", "give this answer")]
            keys.append(("done", "close the text" if shown else "read it all"))
        elif state == State.PLAYING:
            keys.append(("done", "finish the play"))
        if state in (*NEXT, State.PLAYING, State.SHOWING):
            shown = self.app.view.show_detail.get(player)
            keys.append(("select", "close the text" if shown else "read all, and the source"))
        if state == State.ASKING:
            return (*keys, ("back", "leave the lesson"))
        return (*keys, ("back", "leave the lesson"), ("menu", "lessons menu"))

    def press(self, button: str, player: str | None) -> None:
        engine = self.engine
        if button == "done" and player is not None:
            self._reader = player
        if engine.state == State.ASKING and button in ("menu", "select", "done"):
            self._asked(button, player)
        elif button == "select" and engine.state in (*NEXT, State.PLAYING, State.SHOWING):
            self.app.bus.publish(Detail(player=Colour.parse(player or self._reader)))
        elif (
            button == "done"
            and engine.state == State.PLAYING
            and (engine.referee is not None or engine.variant is not None)
        ):
            self.app.core.press_done(None)  # whichever side the learner plays
        elif button in ("back", "menu"):
            engine.on_event({"event": "button", "name": "menu"})  # leave, progress kept
        elif button in ("done", "select"):
            engine.on_event({"event": "button", "name": button})

    def _asked(self, button: str, player: str | None) -> None:
        """A question on show takes the menus' buttons: Menu moves to the next answer,
        Select gives it; Done opens (and closes) the whole text, a long answer's too."""
        if button == "menu":
            self.engine.on_event({"event": "button", "name": "select"})
        elif button == "select":
            self.engine.on_event({"event": "button", "name": "done"})
        else:
            self.app.bus.publish(Detail(player=Colour.parse(player or self._reader)))

    def tick(self, now: int) -> None:
        """A changed board (as the lesson's referee judges it) to the engine."""
        board = self.app.core.board
        if board is not None and board != self._shown:
            self._shown = dict(board)
            self.engine.on_board(board)

    def on_event(self, event: LessonEvent) -> None:
        """An event of the lesson: to its engine; leaving or finishing it opens the menu."""
        app, engine = self.app, self.engine
        if event.lesson != engine.lesson.id:
            return  # a lesson already left
        engine.on_event(event.to_json())
        match event.inner:
            case Choose(options=options):
                app.transitions.menu(app.menus.choose(list(options), engine.answer))
            case WrongMove() if engine.referee is not None:
                menu = app.menus.wrong_move("That move breaks the rules", engine.referee.accept)
                app.transitions.menu(menu)
        if event.kind in ("lesson-exit", "lesson-end"):
            between = BetweenLessons(app)
            menu = app.menus.lessons()
            menu.on_back = between.leave  # the game takes the table back
            if event.kind == "lesson-end":  # its end seen, the next lesson under the cursor
                finished(menu, engine.lesson.info.number, str(event.to_json().get("text", "")))
            app.transitions.lesson_over(between, menu)


class BetweenLessons(Activity):
    """A lesson is over and the Lessons menu open: the game's banner, nothing judged, the
    men as the lesson left them (see the module docstring)."""

    name = "between-lessons"

    def __init__(self, app: Host) -> None:
        self.app = app

    def banner(self) -> str:
        return self.app.banner()

    def take(self) -> None:
        self.app.core.take(Kind.LESSON)


def finished(menu: Menu, number: int, words: str) -> None:
    """The Lessons menu after lesson ``number`` was finished: titled with its end
    (``words``), the cursor on the lesson after it."""
    menu.title = words.removesuffix(".") or menu.title
    labels = [item.text() for item in menu.items]
    done = next((i for i, label in enumerate(labels) if label.startswith(f"{number}. ")), None)
    if done is not None and done + 1 < len(labels):
        menu.cursor = done + 1


def start_lesson(app: Host, lesson_id: str, slot: str | None = None) -> None:
    """Run a lesson at the table (resumed where this learner left it: ``slot``, by default
    the learner at the table's); the game waits."""
    try:
        lesson = load_lesson(lesson_id)
    except LessonError as err:
        app.say("both", f"That lesson cannot be started: {err}", warning=True)
        return
    host = LessonTable(lesson.id, app.bus.publish, app.core)
    engine = LessonEngine(lesson, host, app.progress(), slot or app.learners.current)
    app.transitions.activity(LessonMode(app, engine))
    engine.start()
