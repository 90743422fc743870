"""Everything the table says aloud is also written on the screen.

A :class:`Transcript` follows a running application: each sentence the speech says (the
speech's own :func:`~kiosk.app.speech.sentence` of each event) with the words the view
writes for that event (a fresh :class:`TableView` given the event alone), and the words on
every frame the renderer draws. A sentence is written when its event's words were on at
least one frame drawn. (The words are the view's, in each player's own person: "You threw
6-5." for "White threw 6 5."; the check does not compare wordings, it checks that the
event's words reached the screen.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kiosk.app.demo import run_demo
from kiosk.app.main import App
from kiosk.app.speech import sentence
from kiosk.app.stepped import SteppedApp
from kiosk.config import Config
from kiosk.display import Calibration, Display, Renderer
from kiosk.display.view import TableView
from kiosk.events import Event, from_json
from kiosk.simtable import STARTING_POSITION


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def view_words(view: TableView) -> set[str]:
    """Every string of words the view gives the display to draw."""
    words = [view.banner, view.busy, view.menu_title, view.menu_footer, view.connection_message]
    words += [*view.menu, *view.choices, *view.answers]
    for message in view.messages.values():
        words += [message.text, message.title]
    if view.illegal is not None:
        words.append(view.illegal[2])
    return {_plain(w) for w in words if w}


@dataclass
class Transcript:
    """What was said (sentence, the event's own words) and what was drawn."""

    said: list[tuple[str, set[str]]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # each sentence's event kind
    drawn: set[str] = field(default_factory=set)

    def hear(self, event: Event | dict) -> None:
        """Bus subscriber: an event's sentence, if it is spoken, and its words."""
        spoken = sentence(event)
        if spoken:
            alone = TableView()
            alone.apply(event)
            self.said.append((_plain(spoken), view_words(alone) - view_words(TableView())))
            self.kinds.append(type(from_json(event) if isinstance(event, dict) else event).__name__)

    def see(self, view: TableView) -> None:
        """A frame drawn of ``view``."""
        self.drawn |= view_words(view)

    def unwritten(self, but: tuple[str, ...] = ()) -> list[str]:
        """The sentences said whose event's words were on no frame drawn (leaving out
        those of the event kinds ``but``)."""
        return [
            spoken
            for (spoken, words), kind in zip(self.said, self.kinds, strict=True)
            if kind not in but and not any(w in shown for w in words for shown in self.drawn)
        ]


@pytest.fixture
def transcript(monkeypatch: pytest.MonkeyPatch) -> Transcript:
    """A transcript of every frame any renderer draws during the test."""
    heard = Transcript()
    draw = Renderer.draw

    def drawn(self: Renderer, view: TableView, now_ms: int) -> None:
        heard.see(view)
        draw(self, view, now_ms)

    monkeypatch.setattr(Renderer, "draw", drawn)
    return heard


def test_a_view_writes_the_words_of_each_spoken_event() -> None:
    heard = Transcript()
    heard.hear({"event": "dice", "player": "white", "dice": [6, 5]})
    heard.hear({"event": "game-over", "winner": "black", "result": "gammon", "points": 2})
    assert heard.said == [
        ("White threw 6 5.", {"You threw 6-5."}),
        ("Black wins a gammon game.", {"Black wins a gammon game (2 points).", "You won a "
                                       "gammon game (2 points)."}),
    ]
    assert heard.unwritten() == ["White threw 6 5.", "Black wins a gammon game."]
    heard.see(_viewed({"event": "dice", "player": "white", "dice": [6, 5]}))
    assert heard.unwritten() == ["Black wins a gammon game."]


def _viewed(event: dict) -> TableView:
    view = TableView()
    view.apply(event)
    return view


def test_the_demonstration_game_writes_all_it_says(transcript: Transcript, tmp_path) -> None:
    run_demo(tmp_path, emit=lambda event: transcript.hear(from_json(event)))
    assert len(transcript.said) >= 8  # the opening, dice, a wrong placement, the coach...
    # The coach's verdicts come from its own thread whenever the rating is done: one that
    # lands in the same turn of the loop as the next player's prompt is replaced by it
    # before a frame is drawn (issue 23: each line shows the last message published). The
    # verdict the demonstration waits for is written.
    assert transcript.unwritten(but=("CoachVerdict",)) == []
    verdicts = [
        spoken
        for (spoken, _), kind in zip(transcript.said, transcript.kinds, strict=True)
        if kind == "CoachVerdict"
    ]
    assert any(v not in transcript.unwritten() for v in verdicts)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SteppedApp]:
    config = Config()
    config.referee.settle_ms = 200
    config.tutor.evaluator = "builtin"
    display = Display(Calibration.default(1280, 720), headless=True)
    h = SteppedApp(
        lambda **wired: App(config, **wired, display=display, calibration=display.calibration),
        config,
    )
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    yield h
    h.close()


def _pick(h: SteppedApp, label: str) -> None:
    items = h.app.view.menu
    index = next(i for i, item in enumerate(items) if item.startswith(label))
    h.press("menu", times=(index - h.app.view.menu_cursor) % len(items))
    h.press("select")


@pytest.mark.xfail(
    strict=True,
    reason="issue 23: the throw-off is said, then the chouette's first game replaces it "
    "on both lines before a frame is drawn (each line shows the last message published)",
)
def test_a_chouettes_throw_off_is_written(table: SteppedApp, transcript: Transcript) -> None:
    table.app.bus.subscribe(transcript.hear)
    table.press("menu")
    _pick(table, "A match, a money session")
    _pick(table, "A chouette")
    _pick(table, "Chouette of 3")
    for _ in range(3):
        table.press("done")  # each player's name left as offered
    table.wait(400)
    assert any(spoken.startswith("Throw-off:") for spoken, _ in transcript.said)
    assert [s for s in transcript.unwritten() if s.startswith("Throw-off:")] == []
