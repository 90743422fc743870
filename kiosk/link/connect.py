"""Finding the table: the udev device, a MicroPython Pico, or else a simulated table."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from serial.tools import list_ports

from kiosk.link.link import LinkListener, TableLink
from kiosk.table.layout import TableLayout

if TYPE_CHECKING:  # the simulator imports the link's layout; import it late
    from kiosk.simtable import SimulatedTable

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
            return port.device
    return None


def open_table(
    port: str | None = None,
    *,
    layout: TableLayout | None = None,
    listener: LinkListener | None = None,
    simulate_if_absent: bool = True,
) -> tuple[TableLink, SimulatedTable | None]:
    """A started link to the table, and the simulated table it uses if none is attached.

    ``port`` defaults to ``find_table_port()``. With no port found and
    ``simulate_if_absent``, a real-time ``SimulatedTable`` is started and served instead;
    otherwise ``LookupError`` is raised. Stop the link (and close the simulator) when done.
    """
    port = port or find_table_port()
    simulator = None
    if port is None:
        if not simulate_if_absent:
            raise LookupError(f"no table found (looked for ${PORT_ENV}, {DEFAULT_DEVICE}, a Pico)")
        from kiosk.simtable import SimulatedTable

        simulator = SimulatedTable(layout, realtime=True)
        port = simulator.port_name
    link = TableLink(port, layout=layout, listener=listener)
    return link.start(), simulator
