"""Bluetooth LE dice that report their face, as a second real dice source beside the wells.

Where the table's dice wells are not built, off-the-shelf smart dice can be thrown
instead: Pixels (:mod:`kiosk.bledice.pixels`) and GoDice (:mod:`kiosk.bledice.godice`),
each decoded from the bytes its maker publishes into the same events
(:mod:`kiosk.bledice.protocol`: rolling, at rest on a face, cocked, battery, who it is).
:class:`BleDice` reads two dice as two wells read (``DieReading``), over a transport
chosen when it is built: :class:`~kiosk.bledice.transport.BleakTransport` at the table,
:class:`~kiosk.bledice.simulated.SimulatedDice` in tests. ``[dice] source = "pixels"``
or ``"godice"`` names them.
"""

from __future__ import annotations

from kiosk.bledice.godice import GODICE
from kiosk.bledice.pixels import PIXELS
from kiosk.bledice.protocol import DiceProtocolError, Vendor
from kiosk.bledice.source import BleDice

#: The makers' dice by the name ``[dice] source`` gives them.
VENDORS: dict[str, Vendor] = {v.name: v for v in (PIXELS, GODICE)}

__all__ = ["VENDORS", "BleDice", "DiceProtocolError", "Vendor"]
