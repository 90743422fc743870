"""``kiosk simulate-table`` and ``kiosk table-watch``: serve or watch the table link."""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Callable

from kiosk.link.connect import open_table
from kiosk.link.link import QueueListener
from kiosk.table.layout import SENSINGS, TableLayout


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate-table`` and ``table-watch`` sub-commands."""
    simulate = subparsers.add_parser(
        "simulate-table",
        help="serve a simulated table on a pty, driven from stdin",
        description="Run a simulated table (its firmware, reeds and dice wells) on a "
        "pseudo-terminal that 'kiosk run --port' or 'kiosk table-watch --port' can open "
        "as if it were the real table's USB serial port. Type commands on standard input "
        "to place, lift and move men, lay or throw the dice, or make reeds fail ('help' "
        "lists them, 'quit' stops).",
    )
    _layout_options(simulate)
    simulate.add_argument(
        "--scan-hz", type=_between(1, 2000), default=200, help="scans per second (1-2000)"
    )
    simulate.add_argument(
        "--debounce", type=_between(1, 100), default=3, help="scans a slot must hold (1-100)"
    )
    simulate.add_argument("--seed", type=int, default=0, help="seed for throws and noise")
    simulate.add_argument("--empty", action="store_true", help="start with no men laid out")
    simulate.add_argument(
        "--firmware",
        choices=("cpython", "micropython", "rp2040"),
        default="cpython",
        help="the interpreter running the firmware (micropython: the WebAssembly port; "
        "rp2040: MicroPython's rp2 image on an emulated Pico)",
    )
    simulate.set_defaults(func=_simulate)
    watch = subparsers.add_parser(
        "table-watch",
        help="print the table's frames and link events",
        description="Connect to the table and print every frame it sends (each slot's "
        "reading and the dice wells) and every change of the link (connected, lost, "
        "incompatible firmware), until Ctrl+C. With no table attached a simulated one is "
        "watched.",
    )
    watch.add_argument("--port", help="serial port (default: the table, else a simulation)")
    _layout_options(watch)
    watch.set_defaults(func=_watch)


def _between(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low} to {high}")
        return value

    return number


def _layout_options(parser: argparse.ArgumentParser) -> None:
    default = TableLayout()
    slots = _between(1, 15)  # as [table] in the configuration allows
    for name, where, value in (
        ("point", "each point", default.point_slots),
        ("bar", "each side's half of the bar", default.bar_slots),
        ("tray", "each bear-off tray", default.tray_slots),
    ):
        parser.add_argument(
            f"--{name}-slots",
            type=slots,
            default=value,
            metavar="N",
            help=f"sensing slots in {where}, 1-15 (default {value}, as [table] {name}_slots)",
        )
    parser.add_argument(
        "--sensing",
        choices=SENSINGS,
        default=default.sensing,
        help="how a simulated table senses its men: occupancy (one reed a slot, the design) "
        "or polarity (reeds that tell a man's colour); a real table says how it senses",
    )


def _layout(args: argparse.Namespace) -> TableLayout:
    return TableLayout(args.point_slots, args.bar_slots, args.tray_slots, args.sensing)


def _simulate(args: argparse.Namespace) -> int:
    from kiosk.simtable.console import execute
    from kiosk.simtable.micropython import MicroPythonError
    from kiosk.simtable.table import STARTING_POSITION, SimulatedTable

    try:
        sim = SimulatedTable(
            _layout(args),
            realtime=True,
            scan_hz=args.scan_hz,
            debounce_scans=args.debounce,
            seed=args.seed,
            firmware=args.firmware,
        )
    except MicroPythonError as err:  # the firmware's interpreter (or chip) cannot start
        print(f"kiosk simulate-table: {err}", file=sys.stderr)
        return 1
    with sim:
        if not args.empty:
            sim.set_position(STARTING_POSITION)
        print(
            f"simulated table on {sim.port_name} (firmware under {sim.runtime}, "
            f"{sim.layout.sensing} sensing)",
            flush=True,
        )
        print("type help for commands", flush=True)
        for line in sys.stdin:
            if line.strip().lower() in ("quit", "exit"):
                break
            reply = execute(sim, line)
            if reply:
                print(reply, flush=True)
    return 0


def _watch(args: argparse.Namespace) -> int:
    from kiosk.simtable.table import STARTING_POSITION, SimulatedTable, realtime_table

    def simulate(layout: TableLayout | None) -> SimulatedTable:
        table = realtime_table(layout)
        table.set_position(STARTING_POSITION)
        print(f"no table attached: watching a simulated one on {table.port_name}", flush=True)
        return table

    listener = QueueListener()
    link, sim = open_table(args.port, layout=_layout(args), listener=listener, simulator=simulate)
    try:
        while True:
            try:
                print(listener.events.get_nowait().message, flush=True)
            except queue.Empty:
                pass
            try:
                frame = listener.frames.get(timeout=0.2)
            except queue.Empty:
                continue
            print(f"frame {frame.seq}: {frame.to_payload()}", flush=True)
    finally:
        link.stop()
        if sim is not None:
            sim.close()
