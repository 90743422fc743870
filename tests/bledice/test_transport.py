"""The bleak transport's own logic — scan, connect, subscribe, deliver, lose, find again in
the same slot, write, stop — against bleak's API played by an in-memory radio (this
machine has no Bluetooth; the transport against real bleak without Bluetooth is in
test_source.py)."""

from __future__ import annotations

import asyncio
import queue
import sys
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from kiosk.bledice.pixels import COMPANY_ID, NOTIFY, PIXELS, SERVICE, WRITE
from kiosk.bledice.source import Connected, Data, Lost, Notice
from kiosk.bledice.transport import BleakTransport


@dataclass
class Die:
    """A die on the radio: advertised while in range; its notify callback once subscribed."""

    address: str
    in_range: bool = True
    rssi: int = -50
    notify: Callable[[Any, bytearray], None] | None = None
    lost: Callable[[Any], None] | None = None
    written: list[tuple[str, bytes]] = field(default_factory=list)


class Radio:
    """bleak's BleakScanner and BleakClient over a dict of dice."""

    def __init__(self, *dice: Die) -> None:
        self.dice = {d.address: d for d in dice}
        radio = self

        class BleakScanner:
            @staticmethod
            async def discover(timeout: float, return_adv: bool) -> dict[str, Any]:
                await asyncio.sleep(timeout)
                heard = {}
                for d in radio.dice.values():
                    if d.in_range:
                        device = types.SimpleNamespace(address=d.address, name="Pixel")
                        adv = types.SimpleNamespace(
                            local_name="Pixel",
                            service_uuids=[SERVICE],
                            manufacturer_data={COMPANY_ID: bytes([6, 0x21, 5, 0, 90])},
                            service_data={},
                            rssi=d.rssi,
                        )
                        heard[d.address] = (device, adv)
                return heard

        class BleakClient:
            def __init__(self, address: str, disconnected_callback: Callable[[Any], None]):
                self.die = radio.dice[address]
                self.die.lost = disconnected_callback

            async def connect(self) -> None:
                if not self.die.in_range:
                    raise OSError("out of range")

            async def start_notify(
                self, uuid: str, callback: Callable[[Any, bytearray], None]
            ) -> None:
                assert uuid == NOTIFY
                self.die.notify = callback

            async def write_gatt_char(self, uuid: str, data: bytes, response: bool) -> None:
                assert response  # Pixels are written with response, as their library does
                self.die.written.append((uuid, bytes(data)))

            async def disconnect(self) -> None:
                self.die.notify = None

        self.module = types.ModuleType("bleak")
        self.module.BleakScanner = BleakScanner  # type: ignore[attr-defined]
        self.module.BleakClient = BleakClient  # type: ignore[attr-defined]


@pytest.fixture
def radio(monkeypatch: pytest.MonkeyPatch) -> Iterator[Radio]:
    r = Radio(Die("AA:00:00:00:00:01", rssi=-40), Die("AA:00:00:00:00:02", rssi=-60))
    monkeypatch.setitem(sys.modules, "bleak", r.module)
    yield r


def until(got: queue.Queue[Notice], kind: type, timeout: float = 10.0) -> Any:
    while True:
        notice = got.get(timeout=timeout)
        if isinstance(notice, kind):
            return notice


def test_two_dice_found_connected_lost_and_found_again(radio: Radio) -> None:
    got: queue.Queue[Notice] = queue.Queue()
    t = BleakTransport(scan_s=0.02, retry=(0.02, 0.1))
    t.start(PIXELS, got.put)
    try:
        first, second = until(got, Connected), until(got, Connected)
        assert {first.slot: first.address, second.slot: second.address} == {
            0: "AA:00:00:00:00:01",
            1: "AA:00:00:00:00:02",  # the nearest is die 1
        }
        die = radio.dice["AA:00:00:00:00:02"]
        assert die.notify is not None
        die.notify(None, bytearray([3, 1, 4]))
        assert until(got, Data) == Data(1, bytes([3, 1, 4]))
        t.send(1, b"\x01")
        for _ in range(100):
            if die.written:
                break
            time.sleep(0.01)
        assert die.written == [(WRITE, b"\x01")]
        die.in_range = False
        assert die.lost is not None
        die.lost(None)
        assert until(got, Lost) == Lost(1, "disconnected")
        die.in_range = True
        again = until(got, Connected)
        assert again == Connected(1, "AA:00:00:00:00:02")  # back in its own slot
    finally:
        t.stop()
    assert t._thread is not None and not t._thread.is_alive()


def test_pinned_addresses_leave_other_dice_alone(radio: Radio) -> None:
    got: queue.Queue[Notice] = queue.Queue()
    t = BleakTransport(addresses=("aa:00:00:00:00:02",), scan_s=0.02, retry=(0.02, 0.1))
    t.start(PIXELS, got.put)
    try:
        assert until(got, Connected) == Connected(0, "AA:00:00:00:00:02")
        with pytest.raises(queue.Empty):
            until(got, Connected, timeout=0.5)
    finally:
        t.stop()
