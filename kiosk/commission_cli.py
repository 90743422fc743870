"""``kiosk commission``: walk the installer through every slot of a new table.

The screen lights one slot (or dice-well cell) at a time; the installer puts a man there
(or the well jig over the cell) and takes it away. Slots and cells that read wrong are
stored beside the calibration (``commission.toml``): the kiosk leaves the slots out from
then on, a bad well cell makes the players enter their throws with the buttons, and
``kiosk doctor`` lists them. ``--simulate`` plays the installer on a simulated table
(``--dead``/``--welded`` give it faulty reeds or Hall switches) and stores nothing unless
``--out`` names a file other than the real table's; ``--headless`` shows no window (a
real table then takes the installer's words from standard input: an empty line for
Select, ``b`` for "nothing happens").
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from pathlib import Path

from kiosk.link import (
    BoardFrame,
    LinkStatus,
    QueueListener,
    TableLayout,
    TableLink,
    find_table_port,
)
from kiosk.link.commission import Commissioning, Step, commission_path, save, step_named
from kiosk.simtable import SimulatedTable

STEP_MS = 40  # a hand putting a man down: longer than the debounce
PATIENCE_MS = 400  # a simulated installer waits this long before saying nothing happens
SELF_TEST_MS = 600  # the table's self-test window: 100 scans at 200 a second, and some
SELF_TEST_TRIES = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``commission`` sub-command."""
    parser = subparsers.add_parser(
        "commission",
        help="walk through every slot of a new table and record the ones that read wrong",
        description="Walk the installer through every slot of a new table: the screen "
        "lights one slot (or dice-well cell) at a time, the installer puts a man there and "
        "takes him away. Slots that read wrong are stored beside the calibration "
        "(commission.toml); the table leaves them out from then on and 'kiosk doctor' "
        "lists them.",
    )
    parser.add_argument("--config", help="configuration file (default: the usual one)")
    parser.add_argument("--port", help="serial port (default: the table)")
    parser.add_argument(
        "--out",
        help="where to store the result (default: beside the calibration; with --simulate, "
        "nowhere)",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="no window: a real table's installer answers on standard input (an empty "
        "line: Select; b: nothing happens)",
    )
    parser.add_argument("--simulate", action="store_true", help="a simulated table and installer")
    for fault in ("dead", "welded"):
        parser.add_argument(
            f"--{fault}",
            action="append",
            default=[],
            metavar="LOC/SLOT",
            help=f"with --simulate: a {fault} reed there (slot 1 at the edge), or a {fault} "
            "Hall switch in a dice well (die1/m, die2/3, die2/a: the centre, corners 1-4, "
            "edges a-d)",
        )
    parser.set_defaults(func=_run)


def _fault(text: str) -> Step:
    step = step_named(text)
    if step is None:
        raise ValueError(
            f"{text!r} is not LOCATION/SLOT (such as 13/2) or a dice-well cell (such as die1/m)"
        )
    return step


def _run(args: argparse.Namespace) -> int:
    from kiosk.app.main import table_layout
    from kiosk.config import ConfigError, config_path, load_config
    from kiosk.display.calibration import calibration_path

    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(f"kiosk commission: {err}", file=sys.stderr)
        return 2
    layout = table_layout(config)
    calibration_file = config.display.calibration or calibration_path(config_path(args.config))
    real = commission_path(calibration_file)
    out = Path(args.out) if args.out else (None if args.simulate else real)
    if args.simulate and out is not None and out.expanduser().resolve() == real.resolve():
        print(
            f"kiosk commission: {out} is the real table's file; a simulated walk never "
            "writes it (give --out another file)",
            file=sys.stderr,
        )
        return 2
    walk = Commissioning(layout)
    screen = None if args.headless else _screen(calibration_file, config, layout)
    try:
        if args.simulate:
            _simulated(walk, layout, args, screen)
        else:
            status = _real(walk, layout, args.port or config.table.port or None, screen)
            if status:
                return status
    except ValueError as err:
        print(f"kiosk commission: {err}", file=sys.stderr)
        return 2
    for finding in walk.findings:
        print(f"{finding.step.name()}: {finding.reason}")
    if out is None:
        print(f"{walk.instruction()} Simulated: nothing stored (--out FILE keeps it).")
        return 0
    save(out, walk)
    print(f"{walk.instruction()} Stored in {out}.")
    return 0


def _screen(calibration_file: str | Path, config: object, layout: TableLayout) -> object:
    import pygame

    from kiosk.display.calibration import load_or_default
    from kiosk.display.commission import CommissionScreen

    display = config.display  # type: ignore[attr-defined]
    calibration, _ = load_or_default(calibration_file, display.width, display.height, layout)
    pygame.display.init()
    surface = pygame.display.set_mode((display.width, display.height))
    pygame.display.set_caption("Backgammon Table: commissioning")
    return CommissionScreen(surface, calibration)


def _show(screen: object, walk: Commissioning) -> None:
    if screen is not None:
        import pygame

        screen.draw(walk)  # type: ignore[attr-defined]
        pygame.display.flip()
        pygame.event.pump()


# -- the simulated installer ---------------------------------------------------------------


def _shows(frame: BoardFrame | None, sim: SimulatedTable) -> bool:
    return (
        frame is not None
        and frame.dice == sim.dice()
        and all(frame.slots[where] == sim.sensed(where) for where in frame.slots)
    )


class _Bench:
    """A stepped simulated table and the link to it; delivers frames and self-test reports
    to the walk."""

    def __init__(self, sim: SimulatedTable, walk: Commissioning) -> None:
        self.sim = sim
        self.walk = walk
        self.listener = QueueListener()
        self.link = TableLink(
            sim.port_name, layout=walk.layout, listener=self.listener, silence_timeout=None
        ).start()
        if not self.link.wait_connected(10):
            raise ValueError("the simulated table did not answer")
        self.last: BoardFrame | None = None

    def hold(self, ms: int = STEP_MS) -> None:
        """Let ``ms`` pass and judge what the table says then (a self-test, if the walk
        wants one)."""
        self.sim.advance(ms)
        self.sim.flush()
        if self.walk.wants_self_test:
            self._self_test()
            return
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            try:
                self.last = self.listener.frames.get(timeout=0.01)
            except queue.Empty:
                if _shows(self.last, self.sim):
                    # the table already reads what it will: judge that (a dead reed
                    # changes nothing, so no new frame comes)
                    self.walk.frame(self.last)  # type: ignore[arg-type]
                    return
                continue
            self.walk.frame(self.last)

    def _self_test(self) -> None:
        while not self.listener.events.empty():
            self.listener.events.get_nowait()
        self.link.request_self_test("empty")
        time.sleep(0.01)  # the command on its way to the table
        for _ in range(SELF_TEST_TRIES):
            self.sim.advance(SELF_TEST_MS)
            self.sim.flush()
            deadline = time.monotonic() + 1
            while time.monotonic() < deadline:
                try:
                    event = self.listener.events.get(timeout=0.02)
                except queue.Empty:
                    continue
                if event.status == LinkStatus.SELF_TEST and event.self_test is not None:
                    self.walk.self_test(event.self_test)
                    return
        raise ValueError("the simulated table did not report its self-test")


def _put(sim: SimulatedTable, step: Step) -> None:
    if step.well is not None:
        sim.cover_cell(step.well + 1, step.cell)
        return
    where = step.location or ""
    while len(sim.men(where)) <= step.slot:  # the simulated men stack from the edge
        sim.place(where, "white")


def _take(sim: SimulatedTable, step: Step) -> None:
    if step.well is not None:
        sim.cover_cell(step.well + 1, None)
    else:
        while sim.men(step.location or ""):
            sim.lift(step.location or "")


def simulated_installer(walk: Commissioning, sim: SimulatedTable, screen: object = None) -> None:
    """Play the installer on a stepped simulated table until the walk is done: a man on
    each lit slot (the simulated table stacks them from the edge, as the walk fills a
    location), every man off when the walk says so, a magnet on each dice-well cell."""
    bench = _Bench(sim, walk)
    try:
        bench.hold()
        walk.table_is_clear()
        bench.hold()
        while walk.current is not None:
            step, index = walk.current, walk.index
            _show(screen, walk)
            _put(sim, step)
            waited = 0
            while walk.index == index and walk.phase == "place" and waited < PATIENCE_MS:
                bench.hold()
                waited += STEP_MS
            if walk.index == index and walk.phase == "place":
                walk.not_reading()
            if walk.index == index and walk.phase == "lift":
                _take(sim, step)
                waited = 0
                while walk.index == index and waited < PATIENCE_MS:
                    bench.hold()
                    waited += STEP_MS
        _show(screen, walk)
    finally:
        bench.link.stop()


def _simulated(
    walk: Commissioning, layout: TableLayout, args: argparse.Namespace, screen: object
) -> None:
    with SimulatedTable(layout) as sim:
        for fault, steps in (("dead", args.dead), ("welded", args.welded)):
            for step in map(_fault, steps):
                if step.well is not None:
                    (sim.kill_cell if fault == "dead" else sim.stick_cell)(step.well + 1, step.cell)
                elif fault == "dead":
                    sim.kill_reed(step.location or "", step.slot)
                else:
                    sim.weld_reed(step.location or "", step.slot)
        simulated_installer(walk, sim, screen)


# -- a real table --------------------------------------------------------------------------


def _real(walk: Commissioning, layout: TableLayout, port: str | None, screen: object) -> int:
    port = port or find_table_port()
    if port is None:
        print("kiosk commission: no table found; plug it in (or use --simulate)", file=sys.stderr)
        return 2
    listener = QueueListener()
    with TableLink(port, layout=layout, listener=listener) as link:
        if not link.wait_connected(10):
            print(f"kiosk commission: the table on {port} does not answer", file=sys.stderr)
            return 2
        print(walk.instruction(), flush=True)
        asked = False
        while walk.phase != "done":
            _show(screen, walk)
            said = _installer_says(screen)
            if said == "quit":
                return 1
            if said == "select":
                walk.table_is_clear()
            elif said == "bad":
                walk.not_reading()
            if walk.wants_self_test and not asked:
                asked = link.request_self_test("empty")
            try:
                event = listener.events.get_nowait()
            except queue.Empty:
                event = None
            if event is not None and event.status == LinkStatus.SELF_TEST and event.self_test:
                asked = False
                before = (walk.index, walk.phase)
                walk.self_test(event.self_test)
                if (walk.index, walk.phase) != before:
                    print(walk.instruction(), flush=True)
            try:
                walk.frame(listener.frames.get(timeout=0.05))
            except queue.Empty:
                continue
            print(walk.instruction(), flush=True)
    return 0


def _installer_says(screen: object) -> str | None:
    if screen is None:
        import select

        if not select.select([sys.stdin], [], [], 0)[0]:
            return None
        line = sys.stdin.readline()
        if not line:
            return "quit"
        return "bad" if line.strip().lower() == "b" else "select"
    import pygame

    for event in pygame.event.get():
        if event.type == pygame.QUIT:
            return "quit"
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return "quit"
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_s):
            return "select"
        if event.type == pygame.KEYDOWN and event.key == pygame.K_b:
            return "bad"
    return None
