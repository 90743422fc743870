"""The loop's pace: a frame from the table wakes it before its beat."""

from __future__ import annotations

import queue
import threading
import time

from kiosk.app.pacing import wait_for_input


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
