"""The loop's pace: a turn on its frame beat, and one at once when the table reports."""

from __future__ import annotations

import queue
import time
from typing import Any


def wait_for_input(
    next_frame: float, period: float, arrivals: queue.Queue[Any], until: float | None = None
) -> float:
    """Sleep until the frame after ``next_frame`` is due (``period`` seconds on, on the
    ``time.monotonic()`` clock) or, sooner, until something is put on ``arrivals`` (a
    frame from the table: its men are judged and drawn without waiting for the beat) or
    the time ``until`` comes (a board due to be judged: see :func:`judge_due`).
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
    wake = due if until is None else min(due, until)
    with arrivals.not_empty:
        while not arrivals.queue:  # (qsize would take the lock held here)
            delay = wake - time.monotonic()
            if delay <= 0:
                return due if wake == due else next_frame
            arrivals.not_empty.wait(delay)
    return next_frame


def judge_due(judge: object, now: int) -> float | None:
    """When (``time.monotonic()`` seconds) ``judge``, the referee the table's readings go
    to, next has something to judge after ``now`` (its milliseconds), if it says so."""
    due = getattr(judge, "due", None)
    at = due(now) if callable(due) else None
    return None if at is None else at / 1000
