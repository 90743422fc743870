"""The table as designed: one reed a slot (occupancy sensing). The kiosk takes the sensing
from the table's identify reply, with no configuration, and everything that reads the
board reads it through the active referee — the view's men and highlights, "press Done",
the lessons, Russian backgammon — with the same verdicts and the same screens as on a
table that senses colour. And the application and ``kiosk scenario`` play through one
game core: the same cube, sessions, table's side and restart."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from kiosk.app.main import App
from kiosk.app.modes.attract import NoticeMode
from kiosk.app.stepped import SteppedApp
from kiosk.config import Config
from kiosk.display import Calibration, Display
from kiosk.display.palette import HIT, MAN_BLACK, MAN_WHITE
from kiosk.play import CubeDealer, GameCore, PlaySession, TableSide
from kiosk.rig.scenario import ScenarioRunner
from kiosk.rules import Colour, Game
from kiosk.rules.session import Session
from kiosk.simtable import STARTING_POSITION
from kiosk.store import Store
from kiosk.table import LOCATIONS, SlotState, TableLayout
from kiosk.table.sensing import cap
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.opponent import Opponent
from tests.app.test_modes import button, throw


def _config() -> Config:
    config = Config()
    config.referee.settle_ms = 200
    config.installer.pin = "2468"
    config.tutor.enabled = False
    return config


def _app(sensing: str | None, **kwargs: object) -> SteppedApp:
    config = _config()
    return SteppedApp(lambda **wired: App(config, **wired, **kwargs), config, sensing=sensing)


def _ready(h: SteppedApp) -> None:
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    h.app.modes.drop(NoticeMode)


def _true_board(h: SteppedApp) -> dict[str, tuple[int, int]]:
    """The men on the simulated table as a person sees them, capped at the slots."""
    board = {}
    for where in LOCATIONS:
        men = h.sim.men(where)
        board[where] = (men.count(SlotState.WHITE), men.count(SlotState.BLACK))
    return cap(board, h.app.layout)


def test_the_designed_table_is_the_default_and_is_played_without_configuration() -> None:
    assert TableLayout().sensing == "occupancy" and Config().table.simulated_sensing == "occupancy"
    h = _app(None)  # nothing says how the table senses: the table as designed
    try:
        assert h.sim.layout.sensing == "occupancy"
        _ready(h)
        table = h.last("table")
        assert (table["status"], table["sensing"]) == ("connected", "occupancy")
        assert "setup-ok" in h.kinds()
        throw(h, 3, 1)
        assert h.last("opening")["starter"] == "white"
        h.sim.move("8", "5")
        h.sim.move("6", "5")
        h.wait(300)
        # the board the view shows is the referee's: five men on the 5 point... are two
        assert h.app.view.board["5"] == (2, 0) and h.app.view.board["19"] == (0, 5)
        assert h.app.view.messages["white"].text.startswith("Your play is complete")
        button(h, "done", "white")
        assert h.last("play")["move"] == "8/5 6/5"
    finally:
        h.close()


def _moments(sensing: str) -> list[tuple]:
    """A game with a lifted man, a wrong placement, a hit, a complete play and Done: what
    the referee said and what the view showed after each action."""
    h = _app(sensing)
    seen: list[tuple] = []

    def look(action: str) -> None:
        view = h.app.view
        words = {who: m.text for who, m in view.messages.items()}
        verdicts = [
            (e["event"], e.get("reason"), e.get("move"))
            for e in h.events
            if e["event"] in ("illegal", "legal", "play", "destinations", "setup-ok")
        ]
        seen.append(
            (action, verdicts, words, view.board, view.lifted, view.targets, view.illegal)
        )

    try:
        _ready(h)
        throw(h, 6, 4)
        look("thrown")
        h.sim.lift("24")
        h.wait(300)
        look("lifted")
        h.sim.place("17", "white")  # 7 pips: no die shows it
        h.wait(300)
        look("wrong")
        h.sim.move("17", "18", "white")
        h.wait(300)
        look("put right")
        h.sim.move("24", "20", "white")
        h.wait(300)
        look("whole play")
        button(h, "done", "white")
        look("done")
        throw(h, 6, 1)
        h.sim.lift("12", "black")  # black's mid-point, his 13 point
        h.sim.place("18", "black")  # 13/7*: hits white's blot on the 18 point (black's 7)
        h.wait(300)
        look("hit, the blot still there")
        h.sim.lift("18", "white")
        h.sim.place("bar-white", "white")
        h.wait(300)
        look("hit man on the bar")
    finally:
        h.close()
    return seen


def test_both_tables_give_the_same_verdicts_and_the_same_screens() -> None:
    occupancy, polarity = _moments("occupancy"), _moments("polarity")
    for one, other in zip(occupancy, polarity, strict=True):
        assert one == other, one[0]
    reasons = [v[1] for v in occupancy[-1][1] if v[0] == "illegal"]
    assert reasons  # the wrong placement was flagged on both


def test_a_lesson_set_up_on_the_designed_table_shows_the_men_where_they_stand(
    tmp_path: Path,
) -> None:
    """Lesson 1's set-up step on an occupancy table: the view's board is the men as they
    stand (not an empty table), and the screenshot draws them there."""
    store = Store(tmp_path / "table.sqlite3")
    store.save_lesson_step("guest-1", "the-board", 7, False)  # resume at the set-up step
    calibration = Calibration.default(1280, 720, TableLayout())
    display = Display(calibration, fullscreen=False, headless=True)
    config = _config()
    h = SteppedApp(
        lambda **wired: App(
            config, store=store, display=display, calibration=display.calibration, **wired
        ),
        config,
    )
    try:
        assert h.sim.layout.sensing == "occupancy"
        h.app.simulator = h.sim  # the men are drawn where the simulated table has them
        h.app.start()  # the game's men are laid out (the simulated table does it)
        h.wait(400)
        h.app.modes.drop(NoticeMode)
        partial = {**STARTING_POSITION, "6": ("white", 3), "8": ("white", 2), "10": ("white", 1)}
        h.sim.set_position(partial)
        h.app.start_lesson("the-board")
        h.wait(400)
        lesson = h.last("lesson")
        assert (lesson["lesson"], lesson["kind"]) == ("the-board", "setup")
        view = h.app.view
        assert view.board == _true_board(h)
        assert view.board["6"] == (3, 0) and view.board["10"] == (1, 0)
        assert view.board["19"] == (0, 5)  # his men too, coloured from the set-up
        h.app.frame(h.now)
        path = display.screenshot(tmp_path / "lesson-1-set-up-occupancy.png")
        picture = pygame.image.load(path)
        strips = display.renderer.geometry.strips
        for where, colour in (("6", MAN_WHITE), ("19", MAN_BLACK)):
            x, y = strips[where].slots[0]
            assert picture.get_at((x, y))[:3] == colour, where
        x, y = strips["10"].slots[0]  # the man to take away: a cross on him
        assert picture.get_at((x, y))[:3] == HIT
        x, y = strips["10"].slots[1]  # one man on the 10 point: its second slot is empty
        assert picture.get_at((x, y))[:3] not in (MAN_WHITE, MAN_BLACK)
        x, y = strips["6"].slots[3]  # a pale man where the fourth man of the 6 point goes
        bare = h.app.view.copy()
        bare.setup = ()
        display.renderer.draw(bare, h.now)
        assert display.renderer.surface.get_at((x, y)) != picture.get_at((x, y))
        assert picture.get_at((x, y))[:3] != MAN_WHITE  # pale: not a man there yet
        # the learner sees how much is left to do (the corrections one Select away), and
        # the step ends once it is done
        told = h.app.view.messages["white"]
        assert told.text == (
            "Lay the men out as the pale men show: 3 men to place and 1 marked with a "
            "cross to take away."
        ), told.text
        assert "Put 2 more white men on your 6 point." in told.detail
        h.sim.set_position(STARTING_POSITION)
        h.wait(600)
        results = [e for e in h.events if e["event"] == "lesson-result"]
        assert results and results[-1]["correct"]
    finally:
        h.close()


def test_russian_backgammon_is_played_on_the_designed_table() -> None:
    h = _app("occupancy")
    try:
        _ready(h)
        h.app.play_russian("russian-cady")
        h.sim.set_position({"off-white": ("white", 15), "off-black": ("black", 15)})
        h.wait(600)
        kinds = h.kinds()
        assert "setup-ok" in kinds[kinds.index("mode") :]
        notices = [e for e in h.events if e["event"] == "notice"]
        assert not [n for n in notices if "senses each man's colour" in n["message"]]
        assert h.app.view.board["off-white"] == (15, 0)
        throw(h, 6, 4)
        part = h.last("part")
        assert part["dice"] == [6, 4]
        # white enters a man on the table's 19 (his 6) and one on the 21 (his 4)
        h.sim.move("off-white", "19", "white")
        h.sim.move("off-white", "21", "white")
        h.wait(300)
        assert h.app.view.board["19"] == (1, 0)
        h.app.press("done", "white")
        h.wait(200)
        played = h.last("play")
        assert played["player"] == "white" and played["dice"] == [6, 4]
        assert not [e for e in h.events if e["event"] == "illegal"]
    finally:
        h.close()


def test_kiosk_scenario_and_the_app_play_through_the_same_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    restored: list[type] = []
    restore = GameCore.restore

    def spy(core: GameCore, game: Game) -> None:
        restored.append(type(core))
        restore(core, game)

    monkeypatch.setattr(GameCore, "restore", spy)
    opponents = lambda level: Opponent(level, evaluator=BuiltinEvaluator(), seed=3)  # noqa: E731
    runner = ScenarioRunner(lambda event: None, opponents=opponents)
    store = Store(tmp_path / "table.sqlite3")
    h = _app("occupancy", store=store)
    try:
        runner.run(["opponent black beginner", "setup standard", "dice 3 1", "restart"])
        _ready(h)
        h.app.play_the_table(Colour.BLACK, "beginner")
        assert type(h.app.core) is type(runner.core) is GameCore
        assert type(h.app.core.cube) is type(runner.core.cube) is CubeDealer
        assert type(h.app.table_player) is type(runner.core.side) is TableSide
        runner.run(["match 3"])
        h.app.start_session(Session.match(3))
        assert type(h.app.session) is type(runner.core.session) is PlaySession
        assert restored == [GameCore]  # the script's restart
        throw(h, 3, 1)
    finally:
        h.close()
        runner.close()
    again = _app("occupancy", store=Store(tmp_path / "table.sqlite3"))  # the kiosk restarts
    try:
        again.app.start()
        again.wait(200)
        assert restored == [GameCore, GameCore]  # the application's resumption
        assert again.last("resume")["turns"] == 0 and again.app.core.game.dice == (3, 1)
    finally:
        again.close()
