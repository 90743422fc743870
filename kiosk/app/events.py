"""The application's one stream of events.

Every part that tells the players something (display, speech, lights, store)
subscribes here, so nothing is shown on one and missed on another. Events are
plain dicts with an ``"event"`` key: the referee's (``dice``, ``destinations``,
``illegal``, ``legal``, ``play``, ``choose``, ``setup``, ``setup-ok``,
``opening``, ``cocked``, ``wrong-move``, ``game-over``, ``error``) and the
application's own (``table`` for link status, ``coach``, ``lesson``, ``menu``,
``message``). Producers may publish from any thread; subscribers are called on
the thread that runs :meth:`EventBus.dispatch`, in order.

>>> bus = EventBus()
>>> seen = []
>>> bus.subscribe(seen.append)
>>> bus.publish({"event": "dice", "player": "white", "dice": [3, 1]})
>>> bus.dispatch()
1
>>> seen[0]["event"]
'dice'
"""

from __future__ import annotations

import queue
from collections.abc import Callable

Event = dict
Subscriber = Callable[[Event], None]


class EventBus:
    """A thread-safe queue of events, delivered to every subscriber in publication order."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        """Call ``subscriber(event)`` for every event dispatched from now on."""
        self._subscribers.append(subscriber)

    def publish(self, event: Event) -> None:
        """Queue an event (from any thread)."""
        if "event" not in event:
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
