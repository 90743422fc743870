"""Finding the table: the udev device, a MicroPython Pico, or else a simulated table."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol, cast

from serial.tools import list_ports

from kiosk.link.link import LinkListener, TableLink
from kiosk.table.layout import TableLayout

DEFAULT_DEVICE = "/dev/backgammon-table"  # made by hardware/99-backgammon-table.rules
PORT_ENV = "BACKGAMMON_TABLE"
PICO_VID_PID = (0x2E8A, 0x0005)  # MicroPython on the RP2040


def find_table_port() -> str | None:
    """The table's port: ``$BACKGAMMON_TABLE``, the udev symlink, or a MicroPython Pico."""
    configured = os.environ.get(PORT_ENV)
    if configured:
        return configured
    if os.path.exists(DEFAULT_DEVICE):
        return DEFAULT_DEVICE
    for port in list_ports.comports():
        if (port.vid, port.pid) == PICO_VID_PID:
            return cast("str | None", port.device)
    return None


class Simulator(Protocol):
    """What the link needs of a simulated table: the pty it serves, and a way to stop it."""

    port_name: str

    def close(self) -> None:
        """Stop the simulated table."""


def open_table(
    port: str | None = None,
    *,
    layout: TableLayout | None = None,
    listener: LinkListener | None = None,
    simulator: Callable[[TableLayout | None], Simulator] | None = None,
) -> tuple[TableLink, Simulator | None]:
    """A started link to the table, and the simulated table it uses if none is attached.

    ``port`` defaults to ``find_table_port()``. With no port found, ``simulator(layout)``
    (the application passes one, e.g. ``kiosk.simtable.realtime_table``) makes a simulated
    table to serve instead, and the link keeps looking for a real one: when one is plugged
    in it emits ``LinkStatus.SWITCHED`` and moves to it. With no port and no
    ``simulator``, ``LookupError``. Stop the link (and close the simulator) when done.
    """
    port = port or find_table_port()
    if port is not None:
        return TableLink(port, layout=layout, listener=listener).start(), None
    if simulator is None:
        raise LookupError(f"no table found (looked for ${PORT_ENV}, {DEFAULT_DEVICE}, a Pico)")
    simulated = simulator(layout)
    link = TableLink(
        simulated.port_name, layout=layout, listener=listener, find_port=find_table_port
    )
    return link.start(), simulated
