"""Pixels dice (Systemic Games): their Bluetooth LE messages, as the maker publishes them.

The source is the maker's own library, pixels-js (github GameWithPixels/pixels-js, read at
commit 3fa3c1a7, September 2025), package ``pixels-core-connect``:

- ``PixelsBluetoothIds.ts``: the die's service ``a6b90001-7a5a-43f2-a962-350c8edc9b5b``,
  which notifies on ``a6b90002-…`` and is written on ``a6b90003-…``; the maker's company
  id 0x0D39 in advertisements;
- ``DieMessages.ts``: each message starts with its type, the index in
  ``MessageTypeValues`` (whoAreYou 1, iAmADie 2, rollState 3, requestRollState 23,
  blink 29, blinkAck 30, requestBatteryLevel 33, batteryLevel 34); numbers are little
  endian (``pixels-core-utils/serializable.ts``). ``RollState`` is
  ``[3, state, faceIndex]``; ``BatteryLevel`` is ``[34, percent, state]``; ``IAmADie``
  is a chain of chunks, each starting with its own length (``ChunkMessage.ts``), the last
  one the die's status (battery, battery state, roll state, face index), or the 22 bytes
  of the legacy message;
- ``PixelRollState.ts``: unknown 0, rolled 1, handling 2, rolling 3, crooked 4, onFace 5;
- ``pixels-core-animation/DiceUtils.ts``: a six-sided die's face is its face index plus
  one, except on firmware built before 2024-01-02, whose normals had faces 2-5 the wrong
  way round; ``Pixel.ts``: six-LED dice on firmware before 2024-05-22 said "crooked" for
  dice lying flat, and the maker's library reads that as "rolled".

>>> d = PixelsDecoder()
>>> d.decode(bytes([3, 3, 0]))           # rolling
Roll(state=<DieState.ROLLING: 'rolling'>, face=None, thrown=True)
>>> d.decode(bytes([3, 1, 4]))           # rolled, face index 4: a five
Roll(state=<DieState.AT_REST: 'at rest'>, face=5, thrown=True)
>>> d.decode(bytes([3, 4, 0])).state     # crooked
<DieState.COCKED: 'cocked'>
>>> d.decode(bytes([34, 87, 2]))         # battery 87 %, charging
Battery(percent=87, charging=True)
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime

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

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
COMPANY_ID = 0x0D39  # Systemic Games, in the manufacturer data of a die's advertisement

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
BLINK = 29
REQUEST_BATTERY_LEVEL = 33
BATTERY_LEVEL = 34

LEGACY_I_AM_A_DIE_SIZE = 22
# DiceUtils.ts: firmware up to this build (ms 1704150000000) has a d6's faces 2-5 reversed
BAD_NORMALS_UNTIL_S = 1_704_150_000
# Pixel.ts: six-LED dice built before this (ms 1716382800000) say "crooked" when flat
FALSE_CROOKED_BEFORE_S = 1_716_382_800

# PixelRollState.ts, in order
_STATES = (
    (DieState.UNKNOWN, True),  # unknown
    (DieState.AT_REST, True),  # rolled: a proper roll ended on a face
    (DieState.ROLLING, True),  # handling
    (DieState.ROLLING, True),  # rolling
    (DieState.COCKED, True),  # crooked
    (DieState.AT_REST, False),  # onFace: resting, not (enough) rolled
)
# PixelDieType.ts, in order
_KINDS = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
_CHARGING = (2, 3)  # PixelBatteryState.ts: charging, done (full, still on the charger)


def blink(colour: int = 0x0000FF, count: int = 3, duration_ms: int = 1500) -> bytes:
    """A ``Blink`` message: every face lights ``count`` times in ``colour`` (0xRRGGBB)
    over ``duration_ms``; the die answers with a blinkAck.

    >>> blink().hex(" ")
    '1d 03 dc 05 ff 00 00 00 ff ff ff ff 00 01'
    """
    return struct.pack("<BBHIIBB", BLINK, count, duration_ms, colour, 0xFFFFFFFF, 0, 1)


def _kind(value: int, leds: int) -> str:
    """The kind of die; an unknown type is guessed from the LEDs, as DiceUtils does."""
    if 0 < value < len(_KINDS):
        return _KINDS[value]
    return {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6pipped"}.get(
        leds, "unknown"
    )


def _date(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).date().isoformat() if seconds else ""


class PixelsDecoder:
    """One Pixels die's notifications to events (see the module docstring)."""

    def __init__(self) -> None:
        self.built = 0  # the firmware's build time (UNIX seconds) once the die said it
        self.leds = 0

    def decode(self, data: bytes) -> DieEvent | None:
        """The event in one notification; ``None`` for messages the table does not use
        (acknowledgements, telemetry...)."""
        need(data, 1, "a Pixels message")
        kind = data[0]
        if kind == ROLL_STATE:
            need(data, 3, "a Pixels roll state")
            return self.roll(data[1], data[2])
        if kind == BATTERY_LEVEL:
            need(data, 3, "a Pixels battery level")
            return self.battery(data[1], data[2])
        if kind == I_AM_A_DIE:
            return self.identity(data)
        return None

    def roll(self, state: int, index: int) -> Roll:
        """A roll state and face index as the die reports them."""
        if state >= len(_STATES):
            raise DiceProtocolError(f"Pixels roll state {state} is not one the maker defines")
        where, thrown = _STATES[state]
        if where is DieState.COCKED and self.leds == 6 and 0 < self.built < FALSE_CROOKED_BEFORE_S:
            where = DieState.AT_REST
        if where is not DieState.AT_REST:
            return Roll(where, thrown=thrown)
        if index > 5:
            raise DiceProtocolError(f"Pixels face index {index}: not a six-sided die's (0-5)")
        if 0 < self.built <= BAD_NORMALS_UNTIL_S and index in (1, 2, 3, 4):
            return Roll(where, 6 - index, thrown)  # DiceUtils.faceFromIndex's correction
        return Roll(where, index + 1, thrown)

    def maybe_roll(self, state: int, index: int) -> Roll | None:
        """The roll a die reports about itself, ``None`` if it is not one a six-sided
        die could be in (a die of another kind still says who it is)."""
        try:
            return self.roll(state, index)
        except DiceProtocolError:
            return None

    @staticmethod
    def battery(percent: int, state: int) -> Battery:
        """A battery level message's figures."""
        if percent > 100:
            raise DiceProtocolError(f"Pixels battery level {percent} % is over 100")
        return Battery(percent, state in _CHARGING)

    def identity(self, data: bytes) -> Identity:
        """An IAmADie message (the chunked one, or the legacy 22 bytes)."""
        if len(data) == LEGACY_I_AM_A_DIE_SIZE:
            leds, _, kind = data[1], data[2], data[3]
            pixel_id, built = (
                struct.unpack_from("<I", data, 8)[0],
                struct.unpack_from("<I", data, 14)[0],
            )
            status = data[18:22]
            status = bytes([status[2], status[3], status[0], status[1]])  # as the chunk's
        else:
            chunks = _chunks(data)
            if len(chunks) < 6:
                raise DiceProtocolError(
                    f"a Pixels IAmADie has {len(chunks)} chunks; at least 6 expected"
                )
            version, info, status = chunks[0], chunks[1], chunks[5]
            need(version, 7, "a Pixels version chunk")
            need(info, 8, "a Pixels die info chunk")
            need(status, 5, "a Pixels status chunk")
            built = struct.unpack_from("<I", version, 3)[0]
            pixel_id = struct.unpack_from("<I", info, 1)[0]
            kind, leds = info[6], info[7]
            status = status[1:5]
        self.built, self.leds = built, leds
        battery = self.battery(status[0], status[1])
        return Identity(
            vendor="Pixels",
            ident=f"{pixel_id:08X}",
            kind=_kind(kind, leds),
            firmware=_date(built),
            roll=self.maybe_roll(status[2], status[3]),
            battery=battery,
        )


def _chunks(data: bytes) -> list[bytes]:
    """The chunks of a chunked message after its type byte, each with its length byte."""
    chunks, at = [], 1
    while at < len(data):
        size = data[at]
        if size == 0 or at + size > len(data):
            raise DiceProtocolError(
                f"a Pixels IAmADie chunk at byte {at} says {size} bytes; {len(data) - at} left"
            )
        chunks.append(data[at : at + size])
        at += size
    return chunks


def scanned(manufacturer: dict[int, bytes], service: dict[str, bytes]) -> Identity | None:
    """What a Pixels die advertises (``getScannedPixel.ts``): the maker's data holds LEDs,
    design and colour (its high nibble the die type), roll state, face index and battery
    (its top bit: charging); the service data its id and firmware date. ``None`` for an
    advertisement that is not a Pixels die's."""
    maker = manufacturer.get(COMPANY_ID)
    extra = next(iter(service.values()), b"")
    if maker is None or len(maker) < 5 or len(extra) < 8:
        return None
    pixel_id, built = struct.unpack_from("<II", extra)
    decoder = PixelsDecoder()
    decoder.built, decoder.leds = built, maker[0]
    return Identity(
        vendor="Pixels",
        ident=f"{pixel_id:08X}",
        kind=_kind(maker[1] >> 4, maker[0]),
        firmware=_date(built),
        roll=decoder.maybe_roll(maker[2], maker[3]),
        battery=Battery(min(maker[4] & 0x7F, 100), bool(maker[4] & 0x80)),
    )


def _recognise(name: str, services: list[str], manufacturer: dict[int, bytes]) -> bool:
    return SERVICE in (s.lower() for s in services) or COMPANY_ID in manufacturer


PIXELS = Vendor(
    name="pixels",
    title="Pixels",
    service=SERVICE,
    notify=NOTIFY,
    write=WRITE,
    decoder=PixelsDecoder,
    hello=(bytes([WHO_ARE_YOU]), bytes([REQUEST_BATTERY_LEVEL])),
    blink=lambda times: blink(count=times),
    recognise=_recognise,
    write_response=True,  # BleSession.ts writes with response unless told not to
)
