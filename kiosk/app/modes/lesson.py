"""A lesson on the table: the buttons go to the lesson engine; Back or Menu leaves it."""

from __future__ import annotations

from kiosk.app.modes import Host, Legend, Mode
from kiosk.tutor.lessons import LessonEngine, State

NEXT = (State.READING, State.ANSWERED, State.WATCHING)


class LessonMode(Mode):
    """A lesson hosted at the table; its events carry a ``"lesson"`` key."""

    name = "lesson"

    def __init__(self, app: Host, engine: LessonEngine) -> None:
        self.app = app
        self.engine = engine

    def legend(self, player: str) -> Legend:
        state = self.engine.state
        keys: list[tuple[str, str]] = []
        if state in NEXT:
            keys += [("done", "next"), ("select", "next")]
        elif state == State.ASKING:
            keys += [("select", "next answer"), ("done", "give this answer")]
        elif state == State.PLAYING:
            keys.append(("done", "finish the play"))
        return (*keys, ("back", "leave the lesson"), ("menu", "lessons menu"))

    def press(self, button: str, player: str | None) -> None:
        engine = self.engine
        if button == "done" and engine.state == State.PLAYING and engine.referee is not None:
            engine.referee.press_done(None, self.app.now)  # whichever side the learner plays
        elif button in ("back", "menu"):
            engine.on_event({"event": "button", "name": "menu"})  # leave, progress kept
        elif button in ("done", "select"):
            engine.on_event({"event": "button", "name": button})

    def tick(self, now: int) -> None:
        self.app.lesson_tick(self.engine, now)
