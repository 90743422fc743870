"""``kiosk run`` (the table) and ``kiosk doctor`` (what is wrong with it, in words)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from kiosk.app.controls import Controls
    from kiosk.config import Config
    from kiosk.events import Event
    from kiosk.rules import Position


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``run`` and ``doctor`` sub-commands."""
    run = subparsers.add_parser(
        "run",
        help="start the table (a simulated one in a window if none is attached)",
        description="Start the table. With no table attached a simulated one is played "
        "with the mouse; with no screen either, a short demonstration game is played "
        "headless and its screenshots are saved.",
    )
    run.add_argument(
        "--config",
        help="configuration file (default: $BACKGAMMON_TABLE_CONFIG "
        "or ~/.config/backgammon-table/config.toml)",
    )
    run.add_argument("--port", help="the table's serial port (overrides [table] port)")
    run.add_argument("--demo", action="store_true", help="play the headless demonstration game")
    run.add_argument(
        "--screenshots",
        help="where the demonstration saves its pictures (default: [display] screenshots)",
    )
    run.add_argument(
        "--events",
        metavar="FILE",
        help="also write every event as a JSON line to FILE ('-': standard output)",
    )
    run.add_argument(
        "--position",
        metavar="POSITION_ID",
        help="start a new game with the men where this GNU Backgammon Position ID puts "
        "them (its side on roll is white, at the bottom of the screen); the opening throw "
        "then decides who plays first",
    )
    run.set_defaults(func=_run)
    doctor = subparsers.add_parser(
        "doctor",
        help="check the serial device, firmware, GPIO, display, audio, disk and database",
        description="Check everything the table needs and say, one line each, what is in "
        "order and what is wrong and how to put it right: the configuration, the table's "
        "serial device and firmware, the buttons and lights, the Bluetooth dice (a short "
        "scan, when [dice] source names them), the screen, speech and sound, "
        "the tutor's evaluator, disk space, the database, the installer's PIN and the "
        "commissioning of the slots. Exits with status 1 if anything is wrong.",
    )
    doctor.add_argument(
        "--config",
        help="configuration file to check (default: $BACKGAMMON_TABLE_CONFIG "
        "or ~/.config/backgammon-table/config.toml)",
    )
    doctor.add_argument("--port", help="the table's serial port (overrides [table] port)")
    doctor.set_defaults(func=_doctor)


def _run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from kiosk.config import Config, ConfigError, config_path, load_config
    from kiosk.display import is_headless

    problems: list[str] = []
    try:
        config = load_config(args.config)
    except ConfigError as err:  # the table starts on the defaults, and says why
        print(f"kiosk run: {err}; the table starts on the defaults", file=sys.stderr)
        why = _said(err, config_path(args.config))
        problems += ["The settings have a mistake; the defaults are used:", why]
        config = Config()
    start = None
    if args.position:
        from kiosk.rules import Position

        try:
            start = Position.from_id(args.position)
        except ValueError as err:
            print(f"kiosk run: --position {args.position}: {err}", file=sys.stderr)
            return 2
    port = args.port or config.table.port or None
    if port is None:
        from kiosk.link import find_table_port

        port = find_table_port()
    if args.demo or (port is None and is_headless()):
        if start is not None:
            print(
                "kiosk run: --position needs a table or a screen; the headless "
                "demonstration always plays its own game",
                file=sys.stderr,
            )
            return 2
        return _demo(args, config)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    events_out: TextIO | None = None
    if args.events == "-":
        events_out = sys.stdout
    elif args.events:
        try:
            events_out = open(args.events, "a", encoding="utf-8")
        except OSError as err:
            print(f"kiosk run: --events {args.events}: {err.strerror or err}", file=sys.stderr)
            return 2
    try:
        return _table(args, config, config_path(args.config), port, start, problems, events_out)
    finally:
        if events_out not in (None, sys.stdout):
            events_out.close()


def _demo(args: argparse.Namespace, config: Config) -> int:
    from kiosk.app.demo import run_demo
    from kiosk.app.main import table_layout

    out = Path(args.screenshots or config.display.screenshots).expanduser()
    print("No screen and no table: playing a short demonstration game headless.", flush=True)
    shots = run_demo(out, table_layout(config))
    print(f"Saved {len(shots)} screenshots:")
    for path in shots:
        print(f"  {os.path.abspath(path)}")
    print("With a screen, 'make run' opens the simulated table in a window.")
    return 0


def _table(
    args: argparse.Namespace,
    config: Config,
    config_file: Path,
    port: str | None,
    start: Position | None,
    problems: list[str],
    events_out: TextIO | None,
) -> int:
    from kiosk.app.build import build_app
    from kiosk.app.dice import bluetooth_dice, source_after_commissioning
    from kiosk.app.main import table_layout
    from kiosk.app.speech import Speaker
    from kiosk.display import Display, calibration_path, load_or_default
    from kiosk.link import QueueListener, TableLink, open_table
    from kiosk.link.commission import apply, commission_path, load, well_findings
    from kiosk.simtable import SimulatedTable, realtime_table

    layout = table_layout(config)
    cal = config.display.calibration or calibration_path(config_file)
    why: str | None  # what was wrong with a file the table reads at start, in words
    try:  # slots `kiosk commission` found reading wrong are left out; bad wells: buttons
        findings = load(commission_path(cal))
        layout = apply(layout, findings)
        bad = [f.step.name() for f in well_findings(findings)]
        config.dice.source, why = source_after_commissioning(config.dice.source, bad)
        if why:
            print(f"kiosk: {why}.", file=sys.stderr)
            logging.getLogger(__name__).warning("%s", why)
    except ValueError as err:
        print(f"kiosk run: {err}", file=sys.stderr)
        why = _said(err, commission_path(cal))
        problems += ["The list of bad slots is damaged; none is left out:", why]
    listener = QueueListener()
    simulator = None
    if port is not None:
        link = TableLink(port, layout=layout, listener=listener).start()
    else:
        link, simulated = open_table(
            None, layout=layout, listener=listener, simulator=realtime_table
        )
        simulator = simulated if isinstance(simulated, SimulatedTable) else None
        print(f"No table attached: playing on a simulated table ({link.port}).")
    calibration, why = load_or_default(cal, config.display.width, config.display.height, layout)
    if why:
        logging.getLogger(__name__).info("%s", why)
        if why.startswith("Calibration not used"):  # a damaged file, not a missing one
            reason = _said(why, Path(cal).expanduser())
            problems += ["The calibration is damaged; the default is used:", reason]
    display = Display(
        calibration, fullscreen=config.display.fullscreen, layout=layout, settings=config.display
    )
    app = build_app(
        config,
        link=link,
        listener=listener,
        simulator=simulator,
        display=display,
        calibration=display.calibration,
        speaker=Speaker(config.speech),
        controls_factory=_controls(config),
        config_file=config_file,
        events_out=events_out,
        start_position=start,
        problems=tuple(problems),
        bluetooth=bluetooth_dice(config),  # [dice] source = "pixels" or "godice"
    )
    if app.store_problem:
        print(
            f"kiosk run: games will not be saved: {app.store_problem} (run 'kiosk doctor')",
            file=sys.stderr,
        )
    return app.run()


def _said(err: object, path: Path) -> str:
    """A file's problem as the start notice says it: without the path (on stderr, in the
    log and from kiosk doctor) and without the list of what is allowed, so that it fits."""
    text = str(err).removeprefix("Calibration not used: ")
    text = text.replace(f"{path}: ", "").replace(f"{path} ", "")
    return text.split("; allowed:")[0].split("; run kiosk")[0]


def _controls(config: Config) -> Callable[[Callable[[Event], None]], Controls | None]:
    from kiosk.app.controls import Controls, ControlsUnavailable

    def make(publish: Callable[[Event], None]) -> Controls | None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return Controls(config.pins, publish)
            except ControlsUnavailable as err:
                logging.getLogger(__name__).info("%s; the keyboard works instead", err)
                return None

    return make


def _doctor(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from kiosk.app.doctor import run_checks

    checks = run_checks(args.config, args.port)
    for check in checks:
        print(check.line(), flush=True)
    problems = sum(not c.ok for c in checks)
    if problems:
        print(f"{problems} problem{'s' if problems != 1 else ''} found.")
        return 1
    print("Everything the table needs is in order.")
    return 0
