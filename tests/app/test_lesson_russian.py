"""A lesson's throw of Russian backgammon in the application: laid out and played on the
table as designed (one reed a slot), judged by the Russian referee the core hosts, Done
pressed with the table's buttons."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.main import App
from kiosk.app.modes.attract import NoticeMode
from kiosk.app.stepped import SteppedApp
from kiosk.referee.russian import RussianReferee, russian_board
from kiosk.rules.russian import RussianPosition
from kiosk.simtable import STARTING_POSITION
from kiosk.store import Store
from kiosk.tutor.lessons import load_lesson
from kiosk.tutor.lessons.model import RussianPlayStep
from tests.app.test_designed_table import _config


def test_a_lessons_russian_throw_is_played_through_the_russian_referee(tmp_path: Path) -> None:
    step = load_lesson("russian").steps[11]  # Cady: double six, then the bonus
    assert isinstance(step, RussianPlayStep) and step.dice == (6, 6)
    store = Store(tmp_path / "table.sqlite3")
    store.save_lesson_step("guest-1", "russian", step.number, False)  # resume there
    config = _config()
    h = SteppedApp(lambda **wired: App(config, store=store, **wired), config)
    try:
        assert h.sim.layout.sensing == "occupancy"
        h.sim.set_position(STARTING_POSITION)
        h.app.start()
        h.wait(400)
        h.app.modes.drop(NoticeMode)
        h.app.start_lesson("russian")
        h.wait(400)
        referee = h.app.core.variant
        assert isinstance(referee, RussianReferee) and referee.setting_up
        h.sim.lay_out(russian_board(step.start))  # every man in its tray
        h.wait(600)
        assert not referee.setting_up and referee.turn is not None
        parts = []
        for _ in range(3):  # the parts of the throw, each ended with Done
            if referee.turn is None or referee.turn.over:
                break
            play = referee.turn.legal_plays()[0]
            parts.append(str(play))
            h.sim.lay_out(russian_board(play.result))
            h.wait(600)
            h.press("done", "white")
            h.wait(300)
        assert parts == ["hand/6(4)", "hand/1(4)"]  # the sixes, then the bonus aces
        result = h.last("lesson-result")
        assert result["correct"] and result["step"] == step.number, result
        assert result["move"] == "hand/6(4); then hand/1(4)"
        assert isinstance(h.app.core.variant.position, RussianPosition)
    finally:
        h.close()
