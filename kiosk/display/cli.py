"""``kiosk calibrate``: line the display's marks up under the table's slots and save them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DEFAULT_SIZE = (1920, 1080)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``calibrate`` sub-command."""
    parser = subparsers.add_parser(
        "calibrate",
        help="line the display up under the table's slots",
        description=(
            "Shows a mark under every slot, one location at a time: nudge each mark with the "
            "arrow keys until it sits under its slot, Enter to confirm, S to save, Esc to quit. "
            "The calibration is saved to calibration.toml beside the configuration file."
        ),
    )
    parser.add_argument(
        "--config", help="the kiosk's configuration file (calibration goes beside it)"
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="no screen: draw every calibration screen to PNG files",
    )
    parser.add_argument("--out", help="folder for the --headless PNG files")
    parser.add_argument(
        "--size", type=_size, help="screen size WIDTHxHEIGHT (default: the screen's)"
    )
    parser.add_argument("--window", action="store_true", help="a window instead of full screen")
    parser.add_argument("--reset", action="store_true", help="start again from the default marks")
    parser.set_defaults(func=_calibrate)


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (write it like 1920x1080)")
    width, height = int(parts[0]), int(parts[1])
    if width < 320 or height < 240:
        raise argparse.ArgumentTypeError(f"{text} is too small: at least 320x240")
    return width, height


def _calibrate(args: argparse.Namespace) -> int:
    import pygame

    from kiosk.display import is_headless, open_surface, save_screenshot
    from kiosk.display.calibrate import CalibrationScreen, CalibrationSession
    from kiosk.display.calibration import Calibration, calibration_path, load_or_default
    from kiosk.link import LOCATIONS

    if args.headless and not args.out:
        print("kiosk calibrate: --headless needs --out DIR for the pictures", file=sys.stderr)
        return 2
    if not args.headless and is_headless():
        print(
            "kiosk calibrate: no screen found (no DISPLAY or WAYLAND_DISPLAY, or "
            "SDL_VIDEODRIVER=dummy). On a console-only Pi set SDL_VIDEODRIVER=kmsdrm; "
            "to check the marks without a screen use --headless --out DIR.",
            file=sys.stderr,
        )
        return 2
    path = calibration_path(args.config)
    size = args.size
    if size is None and not args.headless and not args.window:
        pygame.display.init()
        desktops = pygame.display.get_desktop_sizes()
        size = desktops[0] if desktops else DEFAULT_SIZE
    loaded, note = load_or_default(path, *(size or DEFAULT_SIZE))
    if note:
        print(note)
    calibration = loaded
    if size is not None and (calibration.width, calibration.height) != size:
        calibration = calibration.scaled(*size)
    if args.reset:
        calibration = Calibration.default(calibration.width, calibration.height)
    session = CalibrationSession(calibration, path)
    session.saved = loaded if note is None else None
    surface = open_surface(
        calibration.width, calibration.height, not args.window, headless=args.headless
    )
    screen = CalibrationScreen(surface)
    try:
        if args.headless:
            out = Path(args.out)
            for index, where in enumerate(LOCATIONS):
                session.go_to(index)
                screen.draw(session)
                save_screenshot(surface, out / f"calibrate-{index:02d}-{where}.png")
            print(f"Drew {len(LOCATIONS)} calibration screens in {out}.")
            return 0
        clock = pygame.time.Clock()
        while not session.finished:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    session.finished = True
                session.handle(event)
            screen.draw(session)
            pygame.display.flip()
            clock.tick(30)
        print(session.message if session.saved == session.calibration else "Not saved.")
        return 0
    finally:
        pygame.display.quit()
