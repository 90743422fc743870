"""The loop's pace: a frame from the table wakes it before its beat."""

from __future__ import annotations

import queue
import threading
import time

from kiosk.app.pacing import judge_due, wait_for_input


def test_a_frame_arriving_wakes_the_loop_before_its_beat() -> None:
    frames: queue.Queue[str] = queue.Queue()
    beat = time.monotonic()
    threading.Timer(0.05, frames.put, ("frame",)).start()
    # a beat an hour away: only the frame can end the wait
    assert wait_for_input(beat, 3600.0, frames) == beat  # the beat goes on as it was
    assert frames.get_nowait() == "frame"


def test_with_nothing_arriving_the_loop_keeps_its_beat() -> None:
    frames: queue.Queue[str] = queue.Queue()
    beat = time.monotonic()
    assert wait_for_input(beat, 0.02, frames) == beat + 0.02
    assert time.monotonic() >= beat + 0.02


def test_a_board_due_to_be_judged_wakes_the_loop_before_its_beat() -> None:
    frames: queue.Queue[str] = queue.Queue()
    beat = time.monotonic()
    assert wait_for_input(beat, 3600.0, frames, until=beat + 0.03) == beat
    assert time.monotonic() >= beat + 0.03


def test_the_referee_says_when_its_board_is_due() -> None:
    from kiosk.referee import Referee, RefereeConfig
    from kiosk.rules import Game, Position, get_profile
    from kiosk.table import TableLayout, TableReading, project

    game = Game(get_profile("modern"), Position.standard())
    referee = Referee(game, TableLayout(), RefereeConfig(settle_ms=300, accept_ms=90))
    assert judge_due(referee, 0) is None  # nothing read yet
    referee.sense(TableReading.of(project(game.position, TableLayout()), "occupancy"), 1000)
    assert judge_due(referee, 1000) == 1.09  # a legal board may be judged this soon
    assert judge_due(referee, 1090) == 1.3  # any other after the full settle
    assert judge_due(object(), 0) is None  # a judge that cannot tell
