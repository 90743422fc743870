"""``kiosk doctor``: check everything the table needs and say in words what is wrong.

Each check gives one line, ``OK`` or ``PROBLEM``, with what was found and what to do.
The checks are plain functions of what they examine (a port, a path, a pin map), so
they can be run one by one.
"""

from __future__ import annotations

import errno
import glob
import grp
import importlib.util
import json
import os
import pwd
import queue
import shutil
import socket
import subprocess
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.config import (
    DEFAULT_PIN,
    CompanionSection,
    Config,
    ConfigError,
    PinsSection,
    TutorSection,
    load_config,
)

if TYPE_CHECKING:
    from kiosk.bledice.transport import Found

MIN_FREE_MB = 200  # the games and logs need little; an SD card this full is in trouble
SCAN_DICE_S = 4.0  # kiosk doctor's scan for Bluetooth dice


@dataclass(frozen=True)
class Check:
    """The outcome of one check."""

    name: str
    ok: bool
    message: str

    def line(self) -> str:
        """The line ``kiosk doctor`` prints."""
        return f"{'OK' if self.ok else 'PROBLEM':<8}{self.name}: {self.message}"


def store_path(config: Config) -> Path:
    """The games' database: ``$BACKGAMMON_TABLE_DB`` if set, else ``[store] path``."""
    from kiosk.store.store import ENV_VAR

    return Path(os.environ.get(ENV_VAR) or config.store.path).expanduser()


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def _in_group(name: str) -> bool:
    try:
        gid = grp.getgrnam(name).gr_gid
    except KeyError:
        return False
    return gid in os.getgroups() or gid == os.getegid()


def check_config(path: str | None) -> tuple[Check, Config]:
    """The configuration file reads and validates (defaults are used if it does not)."""
    try:
        config = load_config(path)
    except ConfigError as err:
        return Check("configuration", False, f"{err}. Fix that line; defaults used meanwhile."), (
            Config()
        )
    from kiosk.config import config_path

    where = config_path(path)
    found = "read from" if where.exists() else "defaults (no file at"
    closing = "" if where.exists() else ")"
    return Check("configuration", True, f"{found} {where}{closing}"), config


def check_serial(port: str | None) -> Check:
    """The table's serial device exists and this user may open it."""
    from kiosk.link import DEFAULT_DEVICE, find_table_port

    name = "serial device"
    chosen = port or find_table_port()
    if chosen is None:
        return Check(
            name,
            False,
            f"no table found: {DEFAULT_DEVICE} does not exist and no Raspberry Pi Pico is "
            "plugged in. Check the table's USB cable, and that the udev rule is installed "
            "(deploy/INSTALL.md, step 5). Without a table, 'kiosk run' uses a simulated one.",
        )
    if not os.path.exists(chosen):
        return Check(
            name,
            False,
            f"{chosen} does not exist. Is the table's USB cable plugged in? Is [table] port "
            "right, and the udev rule installed (deploy/INSTALL.md, step 5)?",
        )
    if not os.access(chosen, os.R_OK | os.W_OK):
        hint = (
            f"add the user to the dialout group: sudo usermod -aG dialout {_user()} "
            "(then log in again)"
            if not _in_group("dialout")
            else 'check the udev rule gives the device GROUP="dialout" and MODE="0660"'
        )
        return Check(name, False, f"{chosen} exists but {_user()} may not open it: {hint}.")
    return Check(name, True, f"{chosen} is present and can be opened")


def check_firmware(port: str | None, config: Config, timeout: float = 3.0) -> Check:
    """The table answers and speaks this kiosk's protocol with the configured layout."""
    from kiosk.app.main import table_layout
    from kiosk.link import PROTOCOL_VERSION, LinkStatus, QueueListener, TableLink, find_table_port

    name = "table firmware"
    chosen = port or find_table_port()
    if chosen is None or not os.path.exists(chosen):
        return Check(name, False, "cannot be checked: no table is connected (see above).")
    listener = QueueListener()
    link = TableLink(
        chosen, layout=table_layout(config), listener=listener, backoff=(timeout, timeout)
    )
    link.start()
    try:
        try:
            event = listener.events.get(timeout=timeout)
        except queue.Empty:
            return Check(name, False, f"no answer from {chosen} within {timeout:.0f} s.")
    finally:
        link.stop()
    if event.status == LinkStatus.CONNECTED and event.info is not None:
        info = event.info
        return Check(
            name,
            True,
            f"firmware {info.firmware}, protocol {info.protocol} (this kiosk: "
            f"{PROTOCOL_VERSION}), layout {info.layout.wire()}",
        )
    return Check(name, False, f"{event.message}.")


def check_gpio(pins: PinsSection, pin_factory: object | None = None) -> Check:
    """The buttons and lights can be claimed on the GPIO header."""
    from kiosk.app.controls import Controls, ControlsUnavailable

    name = "buttons and lights (GPIO)"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            Controls(pins, lambda event: None, pin_factory=pin_factory).close()
        except ControlsUnavailable as err:
            return Check(name, False, f"{err}{_gpio_hint()}. The keyboard still works.")
    return Check(name, True, "every button, light and the buzzer pin could be claimed")


Scan = Callable[[str, float], tuple[list["Found"], str]]  # vendor, seconds -> found, why not


def _scan(vendor: str, seconds: float) -> tuple[list[Found], str]:
    from kiosk.bledice import VENDORS
    from kiosk.bledice.transport import find_dice

    return find_dice(VENDORS[vendor], seconds)


def check_bluetooth_dice(
    config: Config, seconds: float = SCAN_DICE_S, scan: Scan = _scan
) -> Check:
    """The Bluetooth dice ``[dice] source`` names are heard in a short scan: each one found
    (address, kind, battery, signal), or why none could be looked for."""
    from kiosk.app.dice import BLUETOOTH
    from kiosk.bledice import VENDORS
    from kiosk.config import dice_addresses

    name = "Bluetooth dice"
    source = config.dice.source
    if source not in BLUETOOTH:
        return Check(name, True, f'not used ([dice] source = "{source}")')
    title = VENDORS[source].title
    found, why = scan(source, seconds)
    if why:
        return Check(name, False, f"{why}. Until then the dice are entered with the buttons.")
    pinned = dice_addresses(config.dice.addresses)
    heard = {f.address.upper() for f in found}
    missing = [a for a in pinned if a not in heard]
    listed = "; ".join(_die_found(f) for f in found)
    if not found:
        return Check(
            name,
            False,
            f"no {title} dice heard in {seconds:g} s: wake them (pick them up, or take them off "
            "the charger) and bring them near the table",
        )
    wrong = [f for f in found if f.identity is not None and not f.identity.six_sided]
    count = f"{len(found)} {title} {'die' if len(found) == 1 else 'dice'} found: {listed}"
    if missing:
        return Check(name, False, f"{count}. Not heard: {', '.join(missing)} ([dice] addresses)")
    if wrong:
        return Check(name, False, f"{count}. Only six-sided dice (d6) can be used")
    if len(found) < 2 and not pinned:
        return Check(name, False, f"{count}. A game needs two: wake the other")
    if len(found) > 2 and not pinned:
        return Check(
            name, True, f"{count}. The two nearest are used; [dice] addresses can name the pair"
        )
    return Check(name, True, count)


def _die_found(found: Found) -> str:
    """One die as kiosk doctor lists it: address, name, kind, battery, firmware, signal."""
    who = found.identity
    parts = [found.address] + ([repr(found.name)] if found.name else [])
    if who is not None:
        parts.append(who.kind)
        if who.battery is not None:
            charging = ", charging" if who.battery.charging else ""
            parts.append(f"battery {who.battery.percent} %{charging}")
        if who.firmware:
            parts.append(f"firmware {who.firmware}")
    parts.append(f"{found.rssi} dBm")
    return " ".join(parts[:2]) + (f" ({', '.join(parts[2:])})" if len(parts) > 2 else "")


def _gpio_hint() -> str:
    """What to do when no pin factory loads: the group, or the missing GPIO library."""
    if os.path.exists("/dev/gpiochip0") and not os.access("/dev/gpiochip0", os.W_OK):
        return f"; add the user to the gpio group: sudo usermod -aG gpio {_user()}"
    if importlib.util.find_spec("lgpio") is None:
        return (
            "; the GPIO library, lgpio, is missing: on a Raspberry Pi, sudo apt install "
            "python3-lgpio (deploy/INSTALL.md, step 1; the kiosk's environment sees it)"
        )
    return ""


# Run in a child process so that a display driver that hangs or crashes cannot take the
# doctor with it: imports pygame, finds the SDL library it loaded, lists that SDL's video
# drivers, then opens the screen with the driver SDL_VIDEODRIVER names (or SDL's choice).
_DISPLAY_PROBE = r"""
import ctypes, json, os, sys
out = {"drivers": [], "library": "", "version": "", "driver": "", "size": [0, 0], "error": ""}
try:
    import pygame
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libSDL2-2" in line and "/" in line}
    if paths:
        out["library"] = sorted(paths)[0]
        sdl = ctypes.CDLL(out["library"])
        sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
        out["drivers"] = [
            sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())
        ]
        version = (ctypes.c_uint8 * 3)()
        sdl.SDL_GetVersion(version)
        out["version"] = ".".join(str(n) for n in version)
    pygame.display.init()
    out["driver"] = pygame.display.get_driver()
    sizes = pygame.display.get_desktop_sizes()
    out["size"] = list(sizes[0]) if sizes else [0, 0]
except Exception as exc:
    out["error"] = str(exc) or type(exc).__name__
print(json.dumps(out))
"""


@dataclass(frozen=True)
class DisplayProbe:
    """What the display probe found: the SDL library pygame loaded, its video drivers, the
    driver that opened the screen (empty if none did) and why not."""

    library: str
    version: str
    drivers: tuple[str, ...]
    driver: str
    size: tuple[int, int]
    error: str


def probe_display(timeout: float = 10.0) -> DisplayProbe:
    """Run the display probe in a child process (``RuntimeError`` in words if it fails)."""
    try:
        result = subprocess.run(
            [_python(), "-c", _DISPLAY_PROBE], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"SDL did not open the screen within {timeout:.0f} s") from None
    try:
        found = json.loads(result.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the display probe failed ({last})") from None
    return DisplayProbe(
        library=found["library"],
        version=found["version"],
        drivers=tuple(found["drivers"]),
        driver=found["driver"],
        size=(int(found["size"][0]), int(found["size"][1])),
        error=found["error"],
    )


def _drm_hint(wanted: str) -> str:
    """Why SDL's KMSDRM driver could not open the screen, as far as the files tell."""
    cards = sorted(glob.glob("/dev/dri/card*"))
    if wanted.lower() != "kmsdrm":
        return "is the screen connected, and the desktop or compositor running?"
    if not cards:
        return (
            "there is no DRM device (/dev/dri/card*): connect the screen and check that "
            "/boot/firmware/config.txt has dtoverlay=vc4-kms-v3d, then reboot"
        )
    if not any(os.access(card, os.R_OK | os.W_OK) for card in cards):
        return (
            f"{_user()} may not open {cards[0]}: sudo usermod -aG video,render {_user()} "
            "(then log in again)"
        )
    return (
        "another program holds the screen (the running kiosk: sudo systemctl stop "
        "backgammon-table; or the desktop: sudo systemctl set-default multi-user.target and "
        "reboot), or no screen is connected and switched on"
    )


def check_display(
    timeout: float = 10.0, probe: Callable[[float], DisplayProbe] | None = None
) -> Check:
    """SDL has the video driver the service names, and opens the screen with it."""
    from kiosk.display import is_headless

    name = "display"
    wanted = os.environ.get("SDL_VIDEODRIVER", "")
    if is_headless():
        return Check(
            name,
            False,
            "no screen: DISPLAY and WAYLAND_DISPLAY are unset and SDL_VIDEODRIVER names no "
            "driver. On the Pi the service sets SDL_VIDEODRIVER=kmsdrm "
            "(deploy/backgammon-table.service); run the doctor with it as deploy/INSTALL.md, "
            "step 9, shows.",
        )
    try:
        found = (probe or probe_display)(timeout)
    except RuntimeError as err:
        return Check(name, False, f"{err}.")
    sdl = f"SDL {found.version or '?'} ({found.library or 'library not found'})"
    drivers = ", ".join(found.drivers) or "none listed"
    if wanted and found.drivers and wanted.lower() not in {d.lower() for d in found.drivers}:
        return Check(
            name,
            False,
            f"{sdl} has no {wanted} video driver (it has: {drivers}), so the screen cannot "
            "open. On the Pi use Debian's pygame, whose SDL has KMSDRM: sudo apt install "
            "python3-pygame, then make install again (deploy/INSTALL.md, steps 1 and 3).",
        )
    if found.error or not found.driver:
        return Check(
            name,
            False,
            f"{sdl} has the video drivers {drivers} but cannot open the screen with "
            f"{wanted or 'any of them'} ({found.error or 'no driver'}): {_drm_hint(wanted)}.",
        )
    width, height = found.size
    return Check(
        name,
        True,
        f"{sdl} opens the screen with the {found.driver} driver at {width}x{height} "
        f"(its video drivers: {drivers})",
    )


def _python() -> str:
    import sys

    return sys.executable


def check_audio(
    run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
) -> Check:
    """espeak-ng is installed and ALSA has a sound card to speak through."""
    name = "speech and sound"
    if shutil.which("espeak-ng") is None:
        return Check(
            name, False, "espeak-ng is not installed: sudo apt install espeak-ng (speech is off)."
        )
    if shutil.which("aplay") is None:
        return Check(
            name,
            False,
            "aplay is not installed, so the sound cards cannot be listed: "
            "sudo apt install alsa-utils.",
        )
    try:
        result = run(["aplay", "-l"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as err:
        return Check(name, False, f"aplay -l failed: {err}.")
    cards = [line for line in result.stdout.splitlines() if line.startswith("card ")]
    if not cards:
        return Check(
            name,
            False,
            "no sound card found (aplay -l lists none): connect a speaker (HDMI or the "
            f"headphone socket) and check that {_user()} is in the audio group.",
        )
    return Check(name, True, f"espeak-ng installed; {cards[0]}")


def check_tutor(tutor: TutorSection) -> Check:
    """The tutor's evaluator starts and rates an opening play."""
    from kiosk.app.coaching import coach_config
    from kiosk.rules import Position
    from kiosk.tutor.coach import Coach, choose_evaluator
    from kiosk.tutor.evaluators import EvaluatorError

    name = "tutor"
    settings = coach_config(tutor)
    try:
        evaluator = choose_evaluator(settings)
        coach = Coach(evaluator, settings.thresholds)
        try:
            rating = coach.rate(Position.standard(), (3, 1), "8/5 6/5")
        finally:
            coach.close()
    except (EvaluatorError, OSError) as err:
        return Check(
            name,
            False,
            f"the {settings.evaluator} evaluator cannot rate plays ({err}): install it "
            '(sudo apt install gnubg) or set [tutor] evaluator = "auto".',
        )
    if rating.evaluator != evaluator.name:
        return Check(
            name,
            False,
            f"{evaluator.name} failed on a test play and the built-in evaluation stood in: "
            "run 'gnubg -t' by hand to see why, or set [tutor] evaluator = \"builtin\".",
        )
    if rating.evaluator == "builtin" and settings.evaluator == "auto":
        return Check(
            name,
            True,
            "plays are rated by the built-in evaluation; for stronger advice install GNU "
            "Backgammon (sudo apt install gnubg)",
        )
    n = settings.plies
    plies = f" at {n} pl{'y' if n == 1 else 'ies'}" if rating.evaluator != "builtin" else ""
    return Check(name, True, f"plays are rated by {rating.evaluator}{plies}")


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_disk(path: Path, min_free_mb: int = MIN_FREE_MB) -> Check:
    """There is room on the disk that holds the database."""
    name = "disk space"
    where = _existing(path.parent)
    usage = shutil.disk_usage(where)
    free_mb = usage.free // (1024 * 1024)
    if free_mb < min_free_mb:
        return Check(
            name,
            False,
            f"only {free_mb} MB free on the disk holding {where} (at least {min_free_mb} MB "
            "are needed): delete old files or use a larger card.",
        )
    return Check(name, True, f"{free_mb} MB free on the disk holding {where}")


def check_database(path: Path) -> Check:
    """The database folder is writable and the database opens and passes an integrity check."""
    name = "database"
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return Check(
            name,
            False,
            f"cannot create the folder {folder} for the games ({err.strerror}): create it and "
            f"give it to {_user()}, or set [store] path.",
        )
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except OSError as err:
        if err.errno == errno.EROFS:  # no owner to change: the file system is read-only
            return Check(
                name,
                False,
                f"the folder {folder} is on a read-only file system, so no game could be "
                "saved: mount it read-write (or set [store] path to a writable place)",
            )
        return Check(
            name,
            False,
            f"the folder {folder} is not writable by {_user()} ({err.strerror}), so no game "
            f"could be saved: sudo chown -R {_user()} {folder}",
        )
    if not path.exists() and not path.is_symlink():
        return Check(name, True, f"{path} will be created at the first game")
    from kiosk.store import Store, StoreError

    try:  # opened as kiosk run opens it, so that the two agree; then checked whole
        with Store(path, busy_ms=5000) as store:
            store.check()
    except StoreError as err:
        return Check(
            name,
            False,
            f"{err}; no game is saved meanwhile (to start afresh, keeping the old games: "
            f"mv {path} {path}.broken)",
        )
    return Check(name, True, f"{path} opens and passes its integrity check")


def check_installer_pin(pin: str) -> Check:
    """The installer's PIN is not the one every copy ships with."""
    name = "installer PIN"
    if pin == DEFAULT_PIN:
        return Check(
            name,
            False,
            f"still the default {DEFAULT_PIN}, which anyone can look up: set [installer] pin "
            "to 4 to 8 digits of your own.",
        )
    return Check(name, True, "changed from the default")


def check_teacher_pin(config: Config) -> list[Check]:
    """The teacher's PIN, when the companion is on, is not the installer's (issue 36)."""
    from kiosk.companion.security import pin_problem

    if not config.companion.enabled:
        return []
    problem = pin_problem(config.companion.teacher_pin, config.installer.pin)
    if problem:
        return [Check("teacher PIN", False, problem[:1].upper() + problem[1:] + ".")]
    return [Check("teacher PIN", True, "set, and not the installer's")]


def check_commissioning(path: Path) -> Check:
    """The slots ``kiosk commission`` found reading wrong (the kiosk leaves them out)."""
    from kiosk.link.commission import load, well_findings

    name = "commissioning"
    try:
        findings = load(path)
    except ValueError as err:
        return Check(name, False, str(err))
    if not path.exists():
        return Check(name, False, f"not done: run kiosk commission (it writes {path}).")
    if not findings:
        return Check(name, True, f"every slot and dice-well cell read right ({path})")
    listed = "; ".join(f"{f.step.name()}: {f.reason}" for f in findings)
    wells = well_findings(findings)
    dice = (
        " The dice are entered with the buttons until the dice wells are repaired."
        if wells
        else ""
    )
    return Check(
        name,
        True,
        f"{len(findings)} known bad ({listed}): the kiosk leaves bad slots out; replace their "
        f"reeds or Hall switches and run kiosk commission again.{dice}",
    )


SERVICE = "backgammon-table.service"
COMPANION_NETWORK = "/opt/backgammon-table/deploy/companion-network.sh"


def check_companion(
    companion: CompanionSection,
    run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
) -> Check:
    """When the class companion is on: its interface or address is this machine's, its
    port is free to listen on, and the kiosk's service lets it reach the network."""
    from kiosk.companion.server import CompanionError, interface_address

    name = "class companion"
    if not companion.enabled:
        return Check(name, True, "off ([companion] enabled = false)")
    try:
        host = interface_address(companion.address)
    except CompanionError as err:
        return Check(
            name,
            False,
            f"{err} Set [companion] address to a connected interface or one of its addresses "
            "(ip -brief address lists them).",
        )
    taken = _listen_problem(host, companion.port)
    if taken:
        return Check(name, False, taken)
    closed = _service_without_network(run)
    if closed:
        return Check(name, False, closed)
    shown = f"[{host}]" if ":" in host else host
    return Check(name, True, f"can listen on {shown} port {companion.port} (the pages' address)")


def _listen_problem(host: str, port: int) -> str | None:
    """Why nothing could listen on ``host``:``port`` now, in words; None if it could."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind((host, port))
            probe.listen(1)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                return (
                    f"port {port} on {host} is taken: by the running kiosk (stop it first: "
                    "sudo systemctl stop backgammon-table) or another program (sudo ss -ltnp "
                    "names it); else set another [companion] port."
                )
            return (
                f"cannot listen on {host} port {port} ({err.strerror}): set [companion] "
                "address to one of this machine's addresses or interfaces."
            )
    return None


def _service_without_network(
    run: Callable[..., subprocess.CompletedProcess[str]],
) -> str | None:
    """The installed kiosk service still keeps the kiosk off the network, in words; None if
    it does not, or if systemd or the service is not there to ask."""
    try:
        shown = run(
            ["systemctl", "show", "--property=LoadState,PrivateNetwork", SERVICE],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    values = dict(line.split("=", 1) for line in shown.stdout.splitlines() if "=" in line)
    if values.get("LoadState") != "loaded" or values.get("PrivateNetwork") != "yes":
        return None
    return (
        f"the service {SERVICE} still runs the kiosk with no network (PrivateNetwork=yes), "
        f"so no phone can reach the pages: sudo {COMPANION_NETWORK} (INSTALL.md, step 10)."
    )


def run_checks(config_file: str | None = None, port: str | None = None) -> list[Check]:
    """Every check, in the order an installer would fix them."""
    first, config = check_config(config_file)
    port = port or config.table.port or None
    store = store_path(config)
    return [
        first,
        check_serial(port),
        check_firmware(port, config),
        check_gpio(config.pins),
        check_bluetooth_dice(config),
        check_display(),
        check_audio(),
        check_tutor(config.tutor),
        check_disk(store),
        check_database(store),
        check_installer_pin(config.installer.pin),
        *check_teacher_pin(config),
        check_commissioning(_commission_file(config, config_file)),
        check_companion(config.companion),
    ]


def _commission_file(config: Config, config_file: str | None) -> Path:
    from kiosk.config import config_path
    from kiosk.display.calibration import calibration_path
    from kiosk.link.commission import commission_path

    return commission_path(config.display.calibration or calibration_path(config_path(config_file)))
