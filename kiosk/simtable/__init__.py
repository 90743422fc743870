"""A simulated table running the real firmware logic on a pseudo-terminal.

See ``SimulatedTable`` for the script API and ``kiosk simulate-table`` for the console.
"""

from kiosk.simtable.table import STARTING_POSITION, SimulatedTable, VirtualMatrix, realtime_table

__all__ = ["STARTING_POSITION", "SimulatedTable", "VirtualMatrix", "realtime_table"]
