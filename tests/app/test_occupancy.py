"""A table with one reed per slot (occupancy sensing, the hardware design): the kiosk takes
the sensing from the table's identify reply, with no configuration, and judges the game."""

from __future__ import annotations

from kiosk.app.main import App
from kiosk.app.modes.attract import NoticeMode
from kiosk.app.stepped import SteppedApp
from kiosk.config import Config
from kiosk.simtable import STARTING_POSITION


def test_an_occupancy_table_is_played_on_without_configuration() -> None:
    config = Config()
    config.referee.settle_ms = 200
    config.installer.pin = "2468"
    config.tutor.enabled = False
    assert config.table == Config().table  # nothing says how the table senses
    h = SteppedApp(lambda **wired: App(config, **wired), config, sensing="occupancy")
    try:
        assert h.sim.layout.sensing == "occupancy"
        h.sim.set_position(STARTING_POSITION)
        h.app.start()
        h.wait(400)
        assert h.last("table")["status"] == "connected"
        assert "setup-ok" in h.kinds()
        h.app.modes.drop(NoticeMode)
        h.sim.clear_dice()
        h.wait(80)
        h.sim.set_dice(3, 1)
        h.wait(400)
        assert h.last("opening")["starter"] == "white"
        h.sim.move("8", "5")
        h.sim.move("6", "5")
        h.wait(400)
        h.press("done", "white")
        assert h.last("play")["move"] == "8/5 6/5"
    finally:
        h.close()
