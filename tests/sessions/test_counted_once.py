"""Issue 36 item 4: a power cut at the end of a match game counted it twice. The session's
score, the winning play and ``game-over`` are written one after another; cut after the first,
the game resumed unfinished and the band read 2-0 after one win.

The cut is made deterministically: a child process plays the game's end through the real
PlaySession and Store and dies (``os._exit``, no clean-up, as a power cut) after the
session is written and before the ``game-over`` event."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from kiosk.events import GameOver
from kiosk.play import PlaySession
from kiosk.rules import WHITE, Position
from kiosk.rules.session import Session
from kiosk.store import Store
from kiosk.store.sessions import resume_session

START = Position.standard().position_id()


def _play_to_the_cut(path: str, cut: bool) -> None:
    store = Store(path)
    table = PlaySession.start(store, Session.match(3, players=("Ann", "Bob")))
    assert table.match_id is not None
    game = store.start_game("modern", START, "white", match_id=table.match_id)
    store.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
    over = GameOver(winner=WHITE, result="single", points=1)
    counted, _ = table.finished(over, Position.standard(), 1)  # the session is written here
    if cut:
        os._exit(0)  # the power goes: the winning play and game-over never reach the disk
    store.record(game, counted.to_json())
    store.close()


def _child(path: Path, cut: bool) -> None:
    child = multiprocessing.get_context("fork").Process(
        target=_play_to_the_cut, args=(str(path), cut)
    )
    child.start()
    child.join(60)
    assert child.exitcode == 0


def test_a_cut_between_the_score_and_the_game_over_counts_the_game_once(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    _child(path, cut=True)
    with Store(path) as store:
        game = store.unfinished_game()
        assert game is not None  # the game is resumed, to be finished again
        resumed = PlaySession.resume(store, store.game(game).match_id)
        assert resumed is not None
        assert resumed.session.score == (0, 0)  # not yet counted: its end is not recorded
        over = GameOver(winner=WHITE, result="single", points=1)
        counted, _ = resumed.finished(over, Position.standard(), 1)
        store.record(game, counted.to_json())
        assert counted.score == (1, 0)
        again = resume_session(store)
        assert again is not None and again[1].score == (1, 0)


def test_without_a_cut_the_game_counts_once_too(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    _child(path, cut=False)
    with Store(path) as store:
        kept = resume_session(store)
        assert kept is not None and kept[1].score == (1, 0)
