"""Issue 35, item 2: a class is somebody at the table. Driving the table from the teacher's
page for a few minutes brought up "Come and play backgammon!" over the class's game (the
student's next Done then opened the welcome menu instead of throwing), and the warning
could put the class's game away. Here the idle times are shortened (3 s and 10 s of the
table's clock) and the table is left untouched for longer."""

from __future__ import annotations

import time
from typing import Any

import pytest

from kiosk.app.modes.attract import AbandonWarningMode, AttractMode
from tests.companion.live import Http, LiveTable, until


def quiet(h: Any) -> list[str]:
    """The quiet screens on the table now."""
    return [
        m.name for m in (h.app.modes.find(AttractMode), h.app.modes.find(AbandonWarningMode)) if m
    ]


def throw(h: Any, d1: int, d2: int) -> None:
    h.sim.clear_dice()
    h.wait(80)
    h.sim.set_dice(d1, d2)
    h.wait(400)


@pytest.mark.parametrize("sensing", [None, "polarity"])
def test_an_open_class_keeps_the_table_awake_and_the_teacher_is_told_when_it_would_not(
    live, sensing: str | None
) -> None:
    table: LiveTable = live(sensing=sensing)
    shorten = (3, 10)  # [display] invite_after_s, put_away_after_s: shortened by the config
    table.do(lambda h: setattr(h.app.config.display, "invite_after_s", shorten[0]))
    table.do(lambda h: setattr(h.app.config.display, "put_away_after_s", shorten[1]))
    teacher = Http(table.url)
    token = teacher.login()
    table.do(lambda h: throw(h, 5, 2))  # the opening: the game is under way, worth keeping
    assert table.do(lambda h: h.app.worth_keeping())
    game = table.do(lambda h: h.app.core.referee)
    assert teacher.post("/api/teacher/class/open", {}, token)[0] == 200
    until(lambda: table.server.room.awake.startswith("The class is open: the table stays awake"))

    # nobody touches the table for four times the time to its warning (of its clock)
    start = table.do(lambda h: h.now)
    while table.do(lambda h: h.now) - start < 40_000:
        assert table.do(quiet) == []
        time.sleep(0.05)
    assert table.do(lambda h: h.app.core.referee) is game  # the class's game was not put away
    assert "invites visitors after 1 minute" in table.server.room.awake

    # the class ends: the teacher's page says when the table will invite visitors
    assert teacher.post("/api/teacher/class/close", {}, token)[0] == 200
    until(lambda: table.server.room.awake.startswith("The table invites visitors in 1 minute"))
    assert "and puts the game away in 2 minutes" in table.server.room.awake
    until(lambda: table.do(quiet) == ["attract"])
    until(lambda: table.server.room.awake.startswith("The table is inviting visitors"))

    # the teacher acts: the table wakes without opening the welcome menu over the game
    assert teacher.post("/api/teacher/show", {"on": "0"}, token)[0] == 200
    until(lambda: table.do(quiet) == [])
    assert table.do(lambda h: h.app.modes.top.name) == "game"
    assert table.do(lambda h: h.app.core.referee) is game
