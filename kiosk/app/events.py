"""The application's one stream of events.

Every part that tells the players something (display, speech, lights, store)
subscribes here, so nothing is shown on one and missed on another. The
application's events are the typed ones of :mod:`kiosk.events` (the tutor's coach
worker publishes its verdicts as JSON dicts with an ``"event"`` key; the application
turns them into typed events). Producers may publish from any thread; subscribers are
called on the thread that runs :meth:`EventBus.dispatch`, in order.

>>> from kiosk.events import Dice
>>> bus = EventBus()
>>> seen = []
>>> bus.subscribe(seen.append)
>>> bus.publish(Dice(player="white", dice=(3, 1)))
>>> bus.dispatch()
1
>>> seen[0].dice
(3, 1)
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from kiosk.events import Event

Subscriber = Callable[[Any], None]


class EventBus:
    """A thread-safe queue of events, delivered to every subscriber in publication order."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        """Call ``subscriber(event)`` for every event dispatched from now on."""
        self._subscribers.append(subscriber)

    def publish(self, event: Event | dict[str, Any]) -> None:
        """Queue an event (from any thread): a typed one, or a dict with an ``"event"`` key."""
        if not isinstance(event, Event) and "event" not in event:
            raise ValueError(f"an event needs an 'event' key: {event!r}")
        self._queue.put(event)

    def dispatch(self, limit: int | None = None) -> int:
        """Deliver queued events to the subscribers; returns how many were delivered."""
        count = 0
        while limit is None or count < limit:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                break
            for subscriber in list(self._subscribers):
                subscriber(event)
            count += 1
        return count
