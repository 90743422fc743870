"""Issue 35, items 5-10: the words from the reader's side, each at the moment the issue
describes, on the real application drawn headless (both sensings, the ``harness``
fixture). Each test saves its screenshots (into ``$ISSUE35_SHOTS`` when set, to look at)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.app.modes.attract import NoticeMode
from tests.app.test_issue23_screens import Screen
from tests.app.test_modes import button, throw
from tests.app.test_tutor import move


@pytest.fixture
def screen(harness, tmp_path: Path, monkeypatch):
    made: list[Screen] = []
    out = Path(os.environ.get("ISSUE35_SHOTS") or tmp_path)

    def build(**kw) -> Screen:
        made.append(Screen(harness, out, monkeypatch, **kw))
        made[-1].out = out
        return made[-1]

    return build


def shot(s: Screen, name: str) -> None:
    s.shot(name)
    sensing = s.h.sim.layout.sensing
    os.replace(s.out / f"issue23-{name}-{sensing}.png", s.out / f"issue35-{name}-{sensing}.png")


def _bad_opening(s: Screen) -> None:
    """White wins the opening with 6-1 and plays 13/6, a very bad play: the coach offers to
    take it back."""
    h = s.h
    throw(h, 6, 1)
    move(h, ("13", "6"))
    button(h, "done", "white")
    assert h.last("play")["move"] == "13/6"
    assert h.app.coach is not None and h.app.coach.wait(30)
    h.wait(40)
    assert h.app.modes.names()[-1] == "take-back-offer"


# -- 5 ----------------------------------------------------------------------------------------


def test_5_reading_why_a_play_was_very_bad_keeps_its_take_back(screen) -> None:
    s = screen(tutor=True)
    h = s.h
    h.app.modes.drop(NoticeMode)
    _bad_opening(s)
    button(h, "select", "white")  # read why
    assert h.app.view.show_detail.get("white")
    assert h.app.modes.names()[-1] == "take-back-offer"
    assert dict(h.app.view.legend["white"])["back"] == "take the play back"
    shot(s, "5-reading-why")
    button(h, "select", "white")  # close it
    assert not h.app.view.show_detail.get("white")
    assert "take it back" in h.app.view.messages["white"].text.lower()
    shot(s, "5-read")
    button(h, "back", "white")  # the offer is still there: the play is taken back
    taken = h.last("take-back")
    assert (taken["player"], taken["move"]) == ("white", "13/6")
