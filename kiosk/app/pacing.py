"""The loop's pace: a turn on its frame beat, and one at once when the table reports."""

from __future__ import annotations

import queue
import time
from typing import Any


def wait_for_input(next_frame: float, period: float, arrivals: queue.Queue[Any]) -> float:
    """Sleep until the frame after ``next_frame`` is due (``period`` seconds on, on the
    ``time.monotonic()`` clock) or, sooner, until something is put on ``arrivals`` (a
    frame from the table: its men are judged and drawn without waiting for the beat).
    Returns the beat the next wait counts from: that frame's time, ``next_frame`` itself
    when woken early (the beat goes on as it was), or now if already late (a slow frame
    is not made up for with a burst).

    >>> frames: queue.Queue[int] = queue.Queue()
    >>> frames.put(1)
    >>> beat = time.monotonic()
    >>> wait_for_input(beat, 10.0, frames) == beat  # a frame waiting: no sleep at all
    True
    >>> late = time.monotonic() - 1.0
    >>> wait_for_input(late, 0.01, queue.Queue()) > late + 0.5
    True
    """
    due = next_frame + period
    if due <= time.monotonic():
        return time.monotonic()
    with arrivals.not_empty:
        while not arrivals.queue:  # (qsize would take the lock held here)
            delay = due - time.monotonic()
            if delay <= 0:
                return due
            arrivals.not_empty.wait(delay)
    return next_frame
