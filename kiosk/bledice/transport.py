"""The dice over real Bluetooth LE, through ``bleak``: scan, connect, subscribe, reconnect.

``bleak`` is an optional dependency (``pip install 'backgammon-table[ble]'``, or Debian's
``python3-bleak``): without it, or without a Bluetooth adapter or BlueZ, the transport
says why in one line (:class:`~kiosk.bledice.source.Unavailable`) and the table enters
the dice with the buttons. It runs an asyncio loop on a thread of its own, so the
application's loop never waits on the radio.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.bledice.godice import GODICE
from kiosk.bledice.pixels import scanned
from kiosk.bledice.protocol import Identity, Vendor
from kiosk.bledice.source import Connected, Data, Lost, Notice, Unavailable

SCAN_S = 4.0  # one scan for dice not yet connected
RETRY_S = (2.0, 30.0)  # the wait between scans that found nothing: first, longest
INSTALL = "install it with: pip install 'backgammon-table[ble]' (or apt install python3-bleak)"


def unavailable_because(err: BaseException) -> str:
    """Why Bluetooth cannot be used, in one line, from what bleak or the system raised.

    >>> unavailable_because(ModuleNotFoundError("No module named 'bleak'")).split(";")[0]
    'the Bluetooth library bleak is not installed'
    >>> unavailable_because(FileNotFoundError(2, "No such file or directory")).split(":")[0]
    'the Bluetooth service (BlueZ) is not running'
    """
    if isinstance(err, ImportError):
        return f"the Bluetooth library bleak is not installed; {INSTALL}"
    if isinstance(err, FileNotFoundError | ConnectionRefusedError):  # no system D-Bus socket
        return (
            "the Bluetooth service (BlueZ) is not running: sudo apt install bluez; "
            "sudo systemctl enable --now bluetooth"
        )
    text = " ".join(str(err).split()) or type(err).__name__
    lowered = text.lower()
    if "accessdenied" in lowered or "not allowed" in lowered:  # BlueZ's D-Bus policy
        return (
            "this user may not use Bluetooth: add it to the bluetooth group (sudo usermod -aG "
            "bluetooth USER; the service: SupplementaryGroups=bluetooth)"
        )
    if "org.bluez" in lowered or "serviceunknown" in lowered:  # D-Bus, but no BlueZ on it
        return unavailable_because(FileNotFoundError())
    if "no bluetooth adapters" in lowered or "adapter" in lowered and "not found" in lowered:
        return "no Bluetooth adapter found (a Raspberry Pi 3, 4 or 5 has one; check rfkill)"
    if "not ready" in lowered or "powered" in lowered or "rfkill" in lowered:
        return f"the Bluetooth adapter is off ({text}): sudo rfkill unblock bluetooth"
    return f"Bluetooth failed: {text}"


@dataclass(frozen=True)
class Found:
    """A die heard in a scan: its address, advertised name and signal strength, and what
    it advertised about itself (Pixels say their kind, battery and roll state)."""

    address: str
    name: str
    rssi: int
    identity: Identity | None


def _found(vendor: Vendor, device: Any, adv: Any) -> Found | None:
    name = adv.local_name or getattr(device, "name", None) or ""
    services = [str(s).lower() for s in adv.service_uuids or []]
    maker = dict(adv.manufacturer_data or {})
    if not vendor.recognise(name, services, maker):
        return None
    if vendor is GODICE:
        identity: Identity | None = Identity("GoDice", name, "d6")
    else:
        data = {str(k): bytes(v) for k, v in (adv.service_data or {}).items()}
        identity = scanned({int(k): bytes(v) for k, v in maker.items()}, data)
    return Found(device.address, name, int(adv.rssi if adv.rssi is not None else -127), identity)


async def scan(vendor: Vendor, seconds: float = SCAN_S) -> list[Found]:
    """The dice of ``vendor`` heard within ``seconds``, strongest signal first. Raises
    what bleak raises (see :func:`unavailable_because`)."""
    from bleak import BleakScanner

    heard = await BleakScanner.discover(timeout=seconds, return_adv=True)
    found = [f for device, adv in heard.values() if (f := _found(vendor, device, adv))]
    return sorted(found, key=lambda f: -f.rssi)


def find_dice(vendor: Vendor, seconds: float = SCAN_S) -> tuple[list[Found], str]:
    """A short scan for ``vendor``'s dice (``kiosk doctor``): those found, or why none
    could be looked for."""
    try:
        return asyncio.run(scan(vendor, seconds)), ""
    except Exception as err:  # bleak's and the system's failures, said in one line
        return [], unavailable_because(err)


class BleakTransport:
    """A :class:`~kiosk.bledice.source.Transport` over bleak: finds two dice of the
    vendor (the nearest first), keeps each in its slot, and when one goes away looks for
    it again (scans back off from ``retry[0]`` to ``retry[1]`` seconds while none is
    found). ``addresses`` pins the two dice to use (others nearby are left alone)."""

    def __init__(
        self,
        addresses: tuple[str, ...] = (),
        scan_s: float = SCAN_S,
        retry: tuple[float, float] = RETRY_S,
    ) -> None:
        self.addresses = tuple(a.upper() for a in addresses)
        self.scan_s = scan_s
        self.retry = retry
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._clients: dict[int, Any] = {}
        self._slots: dict[str, int] = {}  # address -> the slot it was first given
        self._vendor: Vendor | None = None

    def start(self, vendor: Vendor, deliver: Callable[[Notice], None]) -> None:
        """Start looking for the dice on a thread of its own."""
        self._vendor = vendor
        self._thread = threading.Thread(
            target=asyncio.run, args=(self._main(vendor, deliver),), name="ble-dice", daemon=True
        )
        self._thread.start()

    async def _main(self, vendor: Vendor, deliver: Callable[[Notice], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        try:
            import bleak  # noqa: F401  (said at once when missing)
        except ImportError as err:
            deliver(Unavailable(unavailable_because(err)))
            return
        wait = self.retry[0]
        tasks: set[asyncio.Task[None]] = set()
        while not self._stopping.is_set():
            if len(self._clients) < 2:
                try:
                    found = await scan(vendor, self.scan_s)
                except Exception as err:  # no adapter, no BlueZ: said once, then stop
                    deliver(Unavailable(unavailable_because(err)))
                    return
                for die in self._wanted(found):
                    slot = self._slot(die.address)
                    if slot is not None:
                        self._clients[slot] = None  # taken while it connects
                        task = asyncio.create_task(self._keep(vendor, slot, die, deliver))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                wait = self.retry[0] if found else min(wait * 2, self.retry[1])
            try:
                await asyncio.wait_for(self._stopping.wait(), wait)
            except TimeoutError:
                pass
        for client in list(self._clients.values()):
            if client is not None:
                await client.disconnect()

    def _wanted(self, found: list[Found]) -> list[Found]:
        """The dice found that are to be used and are not yet connected."""
        if self.addresses:
            found = [f for f in found if f.address.upper() in self.addresses]
        busy = {a for a, slot in self._slots.items() if slot in self._clients}
        return [f for f in found if f.address.upper() not in busy]

    def _slot(self, address: str) -> int | None:
        """The slot for a die: the one it had before, a pinned one, else the first free."""
        address = address.upper()
        if address in self.addresses:
            self._slots.setdefault(address, self.addresses.index(address))
        if address not in self._slots:
            free = [s for s in (0, 1) if s not in self._slots.values()]
            if not free:
                return None
            self._slots[address] = free[0]
        slot = self._slots[address]
        return None if slot in self._clients else slot

    async def _keep(
        self, vendor: Vendor, slot: int, die: Found, deliver: Callable[[Notice], None]
    ) -> None:
        """Connect to ``die``, subscribe, deliver its notifications until it goes away."""
        from bleak import BleakClient

        gone = asyncio.Event()
        client = BleakClient(die.address, disconnected_callback=lambda _c: gone.set())
        try:
            await client.connect()
            await client.start_notify(
                vendor.notify, lambda _char, data: deliver(Data(slot, bytes(data)))
            )
        except Exception as err:  # out of range, refused: looked for again at the next scan
            self._clients.pop(slot, None)
            deliver(Lost(slot, unavailable_because(err).removeprefix("Bluetooth failed: ")))
            return
        self._clients[slot] = client
        deliver(Connected(slot, die.address))
        assert self._stopping is not None
        stop = asyncio.create_task(self._stopping.wait())
        lost = asyncio.create_task(gone.wait())
        await asyncio.wait({stop, lost}, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        lost.cancel()
        if gone.is_set():
            self._clients.pop(slot, None)
            deliver(Lost(slot, "disconnected"))

    def send(self, slot: int, data: bytes) -> None:
        """Write ``data`` to the die in ``slot`` from any thread (dropped if not connected)."""
        client, loop, vendor = self._clients.get(slot), self._loop, self._vendor
        if client is None or loop is None or vendor is None:
            return
        asyncio.run_coroutine_threadsafe(self._write(client, vendor, data), loop)

    @staticmethod
    async def _write(client: Any, vendor: Vendor, data: bytes) -> None:
        try:
            await client.write_gatt_char(vendor.write, data, response=vendor.write_response)
        except Exception:  # a die gone meanwhile: its loss is delivered by bleak
            return

    def stop(self) -> None:
        """Disconnect the dice and end the thread (within a few seconds)."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout=5.0)
