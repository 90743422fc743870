"""GoDice (Particula): their Bluetooth LE messages, as the maker publishes them.

The sources are the maker's own libraries: GoDicePythonAPI (github ParticulaCode, read
at commit 0361ee2c, May 2024: ``godice/dice.py``, ``godice/xyzinterpret.py``) and
GoDiceJavaScriptAPI (commit 1a0cc90f: ``godice.js`` and its README). A die is the Nordic
UART service ``6e400001-b5a3-f393-e0a9-e50e24dcca9e``, notifying on ``6e400003-…`` and
written on ``6e400002-…``; it advertises a name starting ``GoDice_``. Its messages:

- ``R`` (82): a roll started;
- ``S`` (83) x y z: at rest after a proper roll; ``FS`` x y z: at rest after a "fake"
  roll; ``MS`` x y z: at rest after a small move (turned to another face); ``TS`` x y z:
  at rest after a roll but not flat (tilted). x, y, z are the accelerometer's signed
  bytes, and the face up is the one of the maker's six vectors (``d6Vectors``) nearest
  them;
- ``Bat`` n: the battery level in percent (asked for with the byte 3); ``Col`` n: the
  die's colour (asked for with 23);
- written: 16 count on off r g b 1 0 pulses both LEDs.

>>> d = GoDiceDecoder()
>>> d.decode(b"R")
Roll(state=<DieState.ROLLING: 'rolling'>, face=None, thrown=True)
>>> d.decode(bytes([83, 0, 0, 64]))            # S, the vector of face 2
Roll(state=<DieState.AT_REST: 'at rest'>, face=2, thrown=True)
>>> d.decode(bytes([84, 83, 40, 40, 10])).state  # TS: tilted
<DieState.COCKED: 'cocked'>
>>> d.decode(b"Bat" + bytes([64]))
Battery(percent=64, charging=False)
"""

from __future__ import annotations

import math

from kiosk.bledice.protocol import (
    Battery,
    DiceProtocolError,
    DieEvent,
    DieState,
    Identity,
    Roll,
    Vendor,
    need,
)

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NAME_PREFIX = "GoDice"  # the JavaScript API filters on "GoDice_", the Python demo "GoDice"

ROLL_STARTED = ord("R")
STABLE = ord("S")
FAKE, TILT, MOVE = ord("F"), ord("T"), ord("M")  # each followed by "S" and x y z
REQUEST_BATTERY = 3
REQUEST_COLOUR = 23
PULSE = 16

# xyzinterpret.py's d6Vectors: the accelerometer's reading with each face up
D6_VECTORS = {
    1: (-64, 0, 0),
    2: (0, 0, 64),
    3: (0, 64, 0),
    4: (0, -64, 0),
    5: (0, 0, -64),
    6: (64, 0, 0),
}
COLOURS = ("black", "red", "green", "blue", "yellow", "orange")  # dice.py's Color


def face(xyz: tuple[int, int, int]) -> int:
    """The face up for an accelerometer reading: the nearest of the maker's vectors.

    >>> face((-60, 5, -3)), face((2, -61, 9))
    (1, 4)
    """
    return min(D6_VECTORS, key=lambda n: math.dist(xyz, D6_VECTORS[n]))


def pulse(
    count: int = 3, on_10ms: int = 30, off_10ms: int = 20, rgb: tuple[int, int, int] = (0, 0, 255)
) -> bytes:
    """Pulse both LEDs ``count`` times, on and off in tens of milliseconds (dice.py's
    ``pulse_led``).

    >>> pulse().hex(" ")
    '10 03 1e 14 00 00 ff 01 00'
    """
    return bytes([PULSE, count, on_10ms, off_10ms, *rgb, 1, 0])


def _xyz(data: bytes, at: int) -> tuple[int, int, int]:
    need(data, at + 3, f"a GoDice {data[:at].decode('ascii', 'replace')!r} message")
    x, y, z = (b - 256 if b > 127 else b for b in data[at : at + 3])  # signed bytes
    return x, y, z


class GoDiceDecoder:
    """One GoDice's notifications to events (see the module docstring)."""

    def decode(self, data: bytes) -> DieEvent | None:
        """The event in one notification; ``None`` for a message the table does not use."""
        need(data, 1, "a GoDice message")
        first = data[0]
        if first == ROLL_STARTED:
            return Roll(DieState.ROLLING)
        if data[:3] == b"Bat":
            need(data, 4, "a GoDice battery level")
            if data[3] > 100:
                raise DiceProtocolError(f"GoDice battery level {data[3]} % is over 100")
            return Battery(data[3])
        if data[:3] == b"Col":
            need(data, 4, "a GoDice colour")
            colour = COLOURS[data[3]] if data[3] < len(COLOURS) else f"colour {data[3]}"
            return Identity(vendor="GoDice", ident=colour, kind="d6")
        if first == STABLE:
            return Roll(DieState.AT_REST, face(_xyz(data, 1)))
        if len(data) >= 2 and data[1] == STABLE and first in (FAKE, TILT, MOVE):
            up = face(_xyz(data, 2))  # read for TS too: its bytes are checked alike
            if first == TILT:
                return Roll(DieState.COCKED)
            return Roll(DieState.AT_REST, up, thrown=False)
        return None


def _recognise(name: str, services: list[str], manufacturer: dict[int, bytes]) -> bool:
    return name.startswith(NAME_PREFIX)


GODICE = Vendor(
    name="godice",
    title="GoDice",
    service=SERVICE,
    notify=NOTIFY,
    write=WRITE,
    decoder=GoDiceDecoder,
    hello=(bytes([REQUEST_COLOUR]), bytes([REQUEST_BATTERY])),
    blink=lambda times: pulse(count=times),
    recognise=_recognise,
    tells_face=False,  # no published message asks a GoDice for its face
)
