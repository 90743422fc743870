"""The makers' messages, byte for byte, decoded into the table's dice events; and bad bytes
(every kind of garbage) give one line in words, never a traceback.

The byte sequences are built from the makers' own published definitions:

- Pixels: github GameWithPixels/pixels-js at commit 3fa3c1a7,
  ``packages/pixels-core-connect/src/DieMessages.ts`` (``MessageTypeValues``: iAmADie 2,
  rollState 3, blink 29, requestBatteryLevel 33, batteryLevel 34; ``RollState``,
  ``BatteryLevel``, ``IAmADie``'s chunks, ``LegacyIAmADie`` of 22 bytes),
  ``PixelRollState.ts`` (unknown, rolled, handling, rolling, crooked, onFace),
  ``PixelDieType.ts`` (d6 is 2), little-endian numbers (``serializable.ts``);
- GoDice: github ParticulaCode/GoDicePythonAPI at commit 0361ee2c, ``godice/dice.py``
  (``R``; ``S`` x y z; ``FS``/``TS``/``MS`` x y z; ``Bat`` n; ``Col`` n; signed x, y, z)
  and ``godice/xyzinterpret.py`` (``d6Vectors``).
"""

from __future__ import annotations

import random
import struct

import pytest

from kiosk.bledice import VENDORS
from kiosk.bledice.godice import D6_VECTORS, GODICE, GoDiceDecoder, face
from kiosk.bledice.pixels import PIXELS, PixelsDecoder, blink, scanned
from kiosk.bledice.protocol import Battery, DiceProtocolError, DieState, Identity, Roll, reading
from kiosk.table import DieReading

ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = 1, 2, 3, 4, 5
NEW_FIRMWARE = 1_735_689_600  # 2025-01-01: after both of the maker's corrections
BAD_NORMALS_FIRMWARE = 1_700_000_000  # 2023-11-14


def i_am_a_die(
    *,
    die_type: int = 2,
    leds: int = 6,
    built: int = NEW_FIRMWARE,
    pixel_id: int = 0x1234ABCD,
    battery: int = 80,
    battery_state: int = 0,
    state: int = ON_FACE,
    index: int = 2,
    name: bytes = b"Table die",
) -> bytes:
    """An IAmADie as DieMessages.ts lays it out: the type, then six chunks, each starting
    with its own length: version, die info, custom design name, die name, settings,
    status."""
    version = struct.pack("<BHIHHHH", 15, 0x0100, built, 0x0101, 0x0100, 0x0100, 0x0100)
    info = struct.pack("<BIBBBBB", 10, pixel_id, 1, die_type, leds, 3, 0)
    design = bytes([2]) + b"\x00"
    die_name = bytes([len(name) + 2]) + name + b"\x00"
    settings = struct.pack("<BIII", 13, 0xDEADBEEF, 4096, 8192)
    status = bytes([5, battery, battery_state, state, index])
    return bytes([2]) + version + info + design + die_name + settings + status


def legacy_i_am_a_die(*, built: int = NEW_FIRMWARE, state: int = ROLLED, index: int = 5) -> bytes:
    """The 22-byte LegacyIAmADie: leds, colorway, die type, data set hash, id, flash, build
    time, roll state, face index, battery percent, battery state."""
    return struct.pack(
        "<BBBBIIHIBBBB", 2, 6, 1, 2, 0xCAFE, 0x00C0FFEE, 1000, built, state, index, 55, 0
    )


class TestPixels:
    def test_the_uuids_are_the_makers(self) -> None:
        assert PIXELS.service == "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
        assert PIXELS.notify == "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
        assert PIXELS.write == "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
        assert PIXELS.hello == (b"\x01", b"\x21")  # whoAreYou, requestBatteryLevel

    @pytest.mark.parametrize("index", range(6))
    def test_rolled_on_each_face(self, index: int) -> None:
        assert PixelsDecoder().decode(bytes([3, ROLLED, index])) == Roll(
            DieState.AT_REST, index + 1
        )

    def test_rolling_and_handling_have_no_face(self) -> None:
        d = PixelsDecoder()
        assert d.decode(bytes([3, ROLLING, 4])) == Roll(DieState.ROLLING)
        assert d.decode(bytes([3, HANDLING, 1])) == Roll(DieState.ROLLING)
        assert reading(Roll(DieState.ROLLING)) is DieReading.EMPTY

    def test_crooked_is_cocked(self) -> None:
        roll = PixelsDecoder().decode(bytes([3, CROOKED, 3]))
        assert roll == Roll(DieState.COCKED) and reading(roll) is DieReading.COCKED

    def test_on_face_is_at_rest_but_not_thrown(self) -> None:
        assert PixelsDecoder().decode(bytes([3, ON_FACE, 0])) == Roll(DieState.AT_REST, 1, False)

    def test_battery_level(self) -> None:
        d = PixelsDecoder()
        assert d.decode(bytes([34, 12, 0])) == Battery(12, False)
        assert d.decode(bytes([34, 100, 3])) == Battery(100, True)  # done, on the charger

    def test_i_am_a_die(self) -> None:
        who = PixelsDecoder().decode(i_am_a_die(index=2))
        assert who == Identity(
            vendor="Pixels",
            ident="1234ABCD",
            kind="d6",
            firmware="2025-01-01",
            roll=Roll(DieState.AT_REST, 3, False),
            battery=Battery(80, False),
        )
        assert isinstance(who, Identity) and who.six_sided

    def test_legacy_i_am_a_die(self) -> None:
        who = PixelsDecoder().decode(legacy_i_am_a_die())
        assert isinstance(who, Identity)
        assert (who.ident, who.kind, who.roll, who.battery) == (
            "00C0FFEE",
            "d6",
            Roll(DieState.AT_REST, 6),
            Battery(55, False),
        )

    def test_a_d20_says_who_it_is_and_is_no_backgammon_die(self) -> None:
        who = PixelsDecoder().decode(i_am_a_die(die_type=7, leds=20, state=ROLLED, index=17))
        assert isinstance(who, Identity) and who.kind == "d20" and not who.six_sided
        assert who.roll is None  # face 18 is no d6's

    def test_old_firmware_corrections(self) -> None:
        """DiceUtils.faceFromIndex: faces 2-5 reversed before 2024-01-02; Pixel.ts: six-LED
        dice before 2024-05-22 say crooked when flat."""
        d = PixelsDecoder()
        d.decode(i_am_a_die(built=BAD_NORMALS_FIRMWARE))
        faces = [d.roll(ROLLED, i).face for i in range(6)]
        assert faces == [1, 5, 4, 3, 2, 6]
        assert d.decode(bytes([3, CROOKED, 0])) == Roll(DieState.AT_REST, 1)
        d.decode(i_am_a_die(built=NEW_FIRMWARE))
        assert d.decode(bytes([3, CROOKED, 0])) == Roll(DieState.COCKED)

    def test_messages_the_table_does_not_use(self) -> None:
        d = PixelsDecoder()
        assert d.decode(bytes([30])) is None  # blinkAck
        assert d.decode(bytes([4]) + bytes(30)) is None  # telemetry

    def test_blink_is_the_makers_layout(self) -> None:
        # type, count, duration (u16), colour (u32 0xRRGGBB), face mask (all), fade, loops
        expected = bytes.fromhex("1d 02 e803 0000ff00 ffffffff 00 01")
        assert blink(0xFF0000, 2, 1000) == expected

    def test_advertisement(self) -> None:
        maker = {0x0D39: bytes([6, 0x21, ROLLED, 4, 0x80 | 42])}  # d6 (type 2 << 4), charging
        service = {
            "0000180a-0000-1000-8000-00805f9b34fb": struct.pack("<II", 0xABCDEF01, NEW_FIRMWARE)
        }
        who = scanned(maker, service)
        assert who == Identity(
            "Pixels", "ABCDEF01", "d6", "2025-01-01", Roll(DieState.AT_REST, 5), Battery(42, True)
        )
        assert scanned({0x004C: b"apple"}, service) is None


class TestGoDice:
    def test_the_uuids_are_the_makers(self) -> None:
        assert GODICE.service == "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
        assert GODICE.notify == "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
        assert GODICE.write == "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
        assert GODICE.hello == (bytes([23]), bytes([3]))  # colour, battery

    def test_roll_started(self) -> None:
        assert GoDiceDecoder().decode(b"R") == Roll(DieState.ROLLING)

    @pytest.mark.parametrize("number", range(1, 7))
    def test_stable_on_each_face(self, number: int) -> None:
        x, y, z = D6_VECTORS[number]
        data = b"S" + struct.pack(">bbb", x, y, z)  # dice.py: struct.unpack(">bbb", ...)
        assert GoDiceDecoder().decode(data) == Roll(DieState.AT_REST, number)

    def test_noisy_accelerometer_reads_the_nearest_face(self) -> None:
        assert face((-58, 7, -9)) == 1 and face((5, 3, 61)) == 2 and face((60, -12, 10)) == 6

    def test_tilt_stable_is_cocked(self) -> None:
        assert GoDiceDecoder().decode(b"TS" + struct.pack(">bbb", 40, 40, 12)) == Roll(
            DieState.COCKED
        )

    def test_fake_and_move_stable_are_at_rest_not_thrown(self) -> None:
        d = GoDiceDecoder()
        assert d.decode(b"FS" + struct.pack(">bbb", 0, -64, 0)) == Roll(DieState.AT_REST, 4, False)
        assert d.decode(b"MS" + struct.pack(">bbb", 0, 0, -64)) == Roll(DieState.AT_REST, 5, False)

    def test_battery_and_colour(self) -> None:
        d = GoDiceDecoder()
        assert d.decode(b"Bat" + bytes([9])) == Battery(9)
        assert d.decode(b"Col" + bytes([1])) == Identity("GoDice", "red", "d6")

    def test_pulse_is_the_makers_layout(self) -> None:
        assert GODICE.blink(2) == bytes([16, 2, 30, 20, 0, 0, 255, 1, 0])


BAD = {
    "pixels": [
        b"",
        bytes([3]),
        bytes([3, 9, 0]),
        bytes([3, ROLLED, 6]),
        bytes([34, 101, 0]),
        bytes([34]),
        bytes([2, 0]),
        bytes([2, 15, 1, 2]),
        i_am_a_die()[:30],
    ],
    "godice": [b"", b"S", b"S\x01", b"TS\x00", b"Bat", b"Bat" + bytes([200]), b"Col"],
}


@pytest.mark.parametrize("vendor", sorted(BAD))
def test_bad_bytes_are_one_line(vendor: str) -> None:
    for data in BAD[vendor]:
        with pytest.raises(DiceProtocolError) as caught:
            VENDORS[vendor].decoder().decode(data)
        text = str(caught.value)
        assert text and "\n" not in text and "Traceback" not in text


@pytest.mark.parametrize("vendor", sorted(VENDORS))
def test_fuzz_random_bytes_decode_or_say_why(vendor: str) -> None:
    """Random notifications, and mutations of real ones: each decodes to an event, to
    nothing, or to one line in words (DiceProtocolError), never another exception."""
    rng = random.Random(31)
    real = [
        bytes([3, ROLLED, 2]),
        bytes([34, 50, 0]),
        i_am_a_die(),
        legacy_i_am_a_die(),
        b"R",
        b"S\x00\x00\x40",
        b"TS\x10\x20\x30",
        b"Bat\x20",
        b"Col\x02",
    ]
    decoder = VENDORS[vendor].decoder()
    for n in range(4000):
        if n % 2:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
        else:
            data = bytearray(rng.choice(real))
            for _ in range(rng.randrange(1, 4)):
                if data and rng.random() < 0.5:
                    data[rng.randrange(len(data))] = rng.randrange(256)
                else:
                    data = data[: rng.randrange(len(data) + 1)]
            data = bytes(data)
        try:
            event = decoder.decode(data)
        except DiceProtocolError as err:
            assert str(err) and "\n" not in str(err)
            continue
        assert event is None or isinstance(event, Roll | Battery | Identity)
        if isinstance(event, Roll) and event.face is not None:
            assert 1 <= event.face <= 6
