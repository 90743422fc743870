"""The table link: the kiosk's end of the serial line to the table's firmware.

Interfaces the rest of the kiosk relies on:

Locations
    Strings in WHITE's numbering of the physical table: ``"1"``..``"24"`` are the points
    (white's ace point is ``"1"``, white moves 24 -> 1, black's point n is white's
    ``str(25 - n)``), then ``"bar-white"``, ``"bar-black"``, ``"off-white"``,
    ``"off-black"``. ``LOCATIONS`` lists them in wire order.

``TableLayout(point_slots=6, bar_slots=4, tray_slots=15, sensing="occupancy")``
    How many sensing slots each location has; ``layout.slots(location)``. A location
    senses at most that many men: men beyond the last slot stack on it unseen.
    ``sensing`` is ``"occupancy"`` (the design: one reed a slot, a man of either colour)
    or ``"polarity"`` (each slot reads a white or a black man); the table's identify
    says which, and the link takes its word.

``BoardFrame``
    Immutable settled picture: ``seq``, ``slots[location]`` (tuple of ``SlotState``:
    ``EMPTY`` 0, ``WHITE`` 1, ``BLACK`` 2, or ``OCCUPIED`` 3 from an occupancy table,
    from the edge inwards), ``dice`` (two ``DieReading``: ``ONE``..``SIX`` equal the face
    up, or ``COCKED``, ``EMPTY``), ``counts()`` -> ``{location: (state, sensed count)}``,
    ``occupancy()`` -> men per location, ``reading(sensing)`` -> the ``TableReading``
    the kiosk takes (counts always, colours only from a polarity table), ``mixed()``,
    ``received``.

``TableLink(port, layout=None, listener=None, ...)``
    ``start()``/``stop()`` (or ``with``). Frames go to ``listener.frame_received(frame)``
    and link events to ``listener.status_changed(event)``, both on the link's threads.
    The default listener is a ``QueueListener`` with ``.frames`` and ``.events`` queues.
    ``LinkEvent.status`` is a ``LinkStatus``: ``CONNECTED`` (``event.info`` is the
    table's ``TableInfo``), ``DISCONNECTED`` (``event.message`` says why),
    ``INCOMPATIBLE`` (the firmware's protocol or layout is refused; the message says what
    to do), ``SELF_TEST`` (``event.self_test``), ``TABLE_ERROR``, ``SWITCHED`` (a real
    table appeared while a simulated one served; the message says so). Every event carries
    ``counters`` (``LinkCounters``); ``link.counters()`` gives them at any time.
    ``request_dump()``, ``request_self_test()``, ``connected``, ``wait_connected()``.
    The link holds no game state; after a reconnect it delivers a full dump as a frame.

``open_table(port=None, layout=None, listener=None, simulator=None)``
    -> ``(link, simulator or None)``.
    Opens ``$BACKGAMMON_TABLE``, ``/dev/backgammon-table`` or a MicroPython Pico; when no
    table is attached, serves the table that ``simulator(layout)`` makes (the application
    passes ``kiosk.simtable.realtime_table``; the link never imports the simulator) and
    keeps looking for a real one (``SWITCHED`` when it moves to it).
"""

from kiosk.link.connect import DEFAULT_DEVICE, find_table_port, open_table
from kiosk.link.frames import BoardFrame, Heartbeat, SelfTestReport, TableInfo
from kiosk.link.link import (
    LinkCounters,
    LinkEvent,
    LinkListener,
    LinkStatus,
    QueueListener,
    TableLink,
)
from kiosk.link.protocol import PROTOCOL_VERSION, FrameParser
from kiosk.table import LOCATIONS, DieReading, SlotState, TableLayout, colour

__all__ = [
    "DEFAULT_DEVICE",
    "LOCATIONS",
    "PROTOCOL_VERSION",
    "BoardFrame",
    "DieReading",
    "FrameParser",
    "Heartbeat",
    "LinkCounters",
    "LinkEvent",
    "LinkListener",
    "LinkStatus",
    "QueueListener",
    "SelfTestReport",
    "SlotState",
    "TableInfo",
    "TableLayout",
    "TableLink",
    "colour",
    "find_table_port",
    "open_table",
]
