"""The table's one configuration file: TOML, validated at start, defaults for the simulated table.

The file lives at ``$BACKGAMMON_TABLE_CONFIG`` or ``~/.config/backgammon-table/config.toml``;
a missing default file means "all defaults". Every problem is reported as
``[section] key: what is wrong; allowed: ...`` so the installer can fix it without
reading code.

>>> config = load_config_text('[dice]\\nsource = "buttons"\\n')
>>> config.dice.source, config.referee.settle_ms
('buttons', 300)
>>> try:
...     load_config_text('[dice]\\nsource = "coins"\\n')
... except ConfigError as err:
...     print(err)
[dice] source: 'coins' is not allowed; allowed: auto, wells, buttons, digital, pixels, godice
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.errors import TableError
from kiosk.files import (
    FileProblem,
    control_character,
    keep_private,
    parse_toml,
    read_text,
    shorten,
    write_atomically,
)

CONFIG_ENV = "BACKGAMMON_TABLE_CONFIG"
DEFAULT_PATH = Path("~/.config/backgammon-table/config.toml")


DEFAULT_PIN = "1234"  # [installer] pin as shipped: the table and kiosk doctor warn of it
# A PIN's attempt limit, the installer's at the table and the teacher's on the companion
# alike: after this many wrong in a row it cannot be tried for the first wait, which
# doubles with each further wrong one up to the longest.
PIN_FREE_TRIES = 3
PIN_FIRST_WAIT_S = 30
PIN_LONGEST_WAIT_S = 15 * 60


class ConfigError(TableError, ValueError):
    """A configuration that cannot be used; the message names the key and what is allowed."""


Check = Callable[[Any], str | None]  # returns what is wrong, or None


def _setting(default: Any, allowed: str, check: Check | None = None) -> Any:
    return field(default=default, metadata={"allowed": allowed, "check": check})


def _choice(*words: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in words else f"{shorten(repr(value), 60)} is not allowed"

    return check


def _between(low: float, high: float) -> Check:
    def check(value: Any) -> str | None:
        return None if low <= value <= high else f"{value} is out of range"

    return check


def _zero_or(check: Check) -> Check:
    """``check``, with 0 (off) allowed besides."""

    def zero_or(value: Any) -> str | None:
        return None if value == 0 else check(value)

    return zero_or


def _pin(optional: bool = False) -> Check:
    def check(value: Any) -> str | None:
        if optional and value == 0:
            return None
        return None if 2 <= value <= 27 else f"{value} is not a usable GPIO (BCM) number"

    return check


def _addresses(value: Any) -> str | None:
    """Up to two Bluetooth addresses, comma-separated (``[dice] addresses``)."""
    parts = [p.strip() for p in value.split(",") if p.strip()]
    hexes = set("0123456789abcdefABCDEF")
    for part in parts:
        pieces = part.split(":")
        if len(pieces) != 6 or any(len(p) != 2 or not set(p) <= hexes for p in pieces):
            return f"{shorten(repr(part), 60)} is not a Bluetooth address"
    return None if len(parts) <= 2 else f"{len(parts)} addresses given; a pair of dice is two"


def dice_addresses(value: str) -> tuple[str, ...]:
    """``[dice] addresses`` as a tuple, die 1 first.

    >>> dice_addresses("aa:bb:cc:dd:ee:01, AA:BB:CC:DD:EE:02")
    ('AA:BB:CC:DD:EE:01', 'AA:BB:CC:DD:EE:02')
    """
    return tuple(p.strip().upper() for p in value.split(",") if p.strip())


def _profile(value: Any) -> str | None:
    from kiosk.rules.profiles import PROFILES

    if value.strip().lower() in PROFILES:
        return None
    return f"{shorten(repr(value), 60)} is not a rule profile"


def _profiles() -> str:
    from kiosk.rules.profiles import PROFILES

    return ", ".join(sorted(PROFILES))


def _installer_pin(value: Any) -> str | None:
    if not (value.isascii() and value.isdigit() and 4 <= len(value) <= 8):
        return f"{shorten(repr(value), 60)} is not 4 to 8 digits 0-9"
    return None


@dataclass
class TableSection:
    """Where the table is and how many sensing slots it has."""

    port: str = _setting("", 'a serial device path, or "" to find the table (else simulate one)')
    point_slots: int = _setting(6, "an integer 1-15", _between(1, 15))
    bar_slots: int = _setting(4, "an integer 1-15", _between(1, 15))
    tray_slots: int = _setting(15, "an integer 1-15", _between(1, 15))
    simulated_sensing: str = _setting(
        "occupancy",
        "occupancy (one reed a slot, the table as designed) or polarity (reeds that tell "
        "a man's colour): how the simulated table senses its men",
        _choice("occupancy", "polarity"),
    )


@dataclass
class DiceSection:
    """Which dice the players throw."""

    source: str = _setting(
        "auto",
        "auto, wells, buttons, digital, pixels, godice",
        _choice("auto", "wells", "buttons", "digital", "pixels", "godice"),
    )
    addresses: str = _setting(
        "",
        'the Bluetooth addresses of the two dice, die 1 first ("AA:BB:CC:DD:EE:01, '
        'AA:BB:CC:DD:EE:02"; kiosk doctor lists them), or "" for the two nearest',
        _addresses,
    )


@dataclass
class RefereeSection:
    """How the referee judges the table."""

    settle_ms: int = _setting(300, "an integer 50-5000 (milliseconds)", _between(50, 5000))
    auto_done_ms: int = _setting(
        0, "0 (players press Done) or 200-60000 milliseconds", _zero_or(_between(200, 60000))
    )
    mode: str = _setting("teaching", "teaching, laws", _choice("teaching", "laws"))
    dice_rest_ms: int = _setting(
        300, "an integer 200-3000 (milliseconds the dice must rest)", _between(200, 3000)
    )


@dataclass
class RulesSection:
    """Which book's rules the table applies."""

    profile: str = _setting("modern", "a rule profile", _profile)


def _player_slot(value: Any) -> str | None:
    ok = 1 <= len(value) <= 40 and all(c.isalnum() or c in "-_." for c in value)
    if ok:
        return None
    return f"{shorten(repr(value), 60)} is not 1 to 40 letters, digits, '-', '_' or '.'"


#: The hint budgets' words, as the configuration and a lesson write them.
HINT_MODES: tuple[str, ...] = ("everything", "legal", "budget", "think")
HINT_ALLOWED = "everything, legal, budget N (N graded lifts a turn, 1-15), think"


@dataclass(frozen=True)
class HintBudget:
    """How much the table shows of a lifted man's destinations (see the module doc)."""

    mode: str = "legal"
    lifts: int = 0  # ``budget``: the graded lifts a turn

    def __post_init__(self) -> None:
        if self.mode not in HINT_MODES:
            raise ValueError(f"{self.mode!r} is not a hint budget; allowed: {HINT_ALLOWED}")
        if self.mode == "budget" and not 1 <= self.lifts <= 15:
            raise ValueError(f"budget {self.lifts} is out of range; allowed: {HINT_ALLOWED}")

    @classmethod
    def parse(cls, text: object) -> HintBudget:
        """The budget a setting writes (``"budget 3"``); ``ValueError`` names what is wrong.

        >>> HintBudget.parse("budget")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: 'budget' is not a hint budget; allowed: everything, legal, budget N ...
        """
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a hint budget; allowed: {HINT_ALLOWED}")
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "budget" and words[1].isdigit():
            return cls("budget", int(words[1]))
        if len(words) == 1 and words[0] in HINT_MODES and words[0] != "budget":
            return cls(words[0])
        raise ValueError(f"{text!r} is not a hint budget; allowed: {HINT_ALLOWED}")

    @property
    def graded(self) -> bool:
        """Whether some lifts are shown graded (``everything`` or a budget)."""
        return self.mode in ("everything", "budget")

    def __str__(self) -> str:
        return f"budget {self.lifts}" if self.mode == "budget" else self.mode


def _hints(value: Any) -> str | None:
    try:
        HintBudget.parse(value)
    except ValueError:
        return f"{shorten(repr(value), 60)} is not a hint budget"
    return None


@dataclass
class TutorSection:
    """The tutor: whether it watches games, how it rates plays, and whose lesson progress."""

    enabled: bool = _setting(True, "true, false")
    evaluator: str = _setting(
        "auto", "auto, gnubg-nn, gnubg, builtin", _choice("auto", "gnubg-nn", "gnubg", "builtin")
    )
    plies: int = _setting(2, "an integer 0-3 (GNU Backgammon's look-ahead)", _between(0, 3))
    timeout: float = _setting(
        30.0, "a number 1-600 (seconds to wait for the gnubg program)", _between(1, 600)
    )
    doubtful: float = _setting(0.03, "a number 0-1 (equity lost)", _between(0, 1))
    bad: float = _setting(0.06, "a number 0-1 (equity lost)", _between(0, 1))
    very_bad: float = _setting(0.12, "a number 0-1 (equity lost)", _between(0, 1))
    player_slot: str = _setting(
        "guest-1", "1 to 40 letters, digits, '-', '_' or '.' (whose lesson progress)", _player_slot
    )
    hints: str = _setting("legal", HINT_ALLOWED, _hints)  # a lifted man's destinations shown

    @property
    def hint_budget(self) -> HintBudget:
        """How much a lifted man's destinations are shown (``hints``, already checked)."""
        return HintBudget.parse(self.hints)


@dataclass
class SpeechSection:
    """Spoken messages."""

    enabled: bool = _setting(True, "true, false")
    volume: int = _setting(100, "an integer 0-200 (percent)", _between(0, 200))
    voice: str = _setting("en", "an espeak-ng voice name such as en, en-gb, de")
    rate: int = _setting(160, "an integer 80-400 (words a minute)", _between(80, 400))


@dataclass
class PinsSection:
    """The Raspberry Pi's buttons, lights and buzzer (BCM GPIO numbers; 0: not fitted)."""

    done_white: int = _setting(5, "a GPIO (BCM) number 2-27", _pin())
    done_black: int = _setting(6, "a GPIO (BCM) number 2-27", _pin())
    menu: int = _setting(22, "a GPIO (BCM) number 2-27", _pin())
    back: int = _setting(13, "a GPIO (BCM) number 2-27", _pin())
    select: int = _setting(26, "a GPIO (BCM) number 2-27", _pin())
    led_white: int = _setting(23, "a GPIO (BCM) number 2-27", _pin())
    led_black: int = _setting(24, "a GPIO (BCM) number 2-27", _pin())
    led_connected: int = _setting(12, "a GPIO (BCM) number 2-27, or 0: not fitted", _pin(True))
    led_check: int = _setting(25, "a GPIO (BCM) number 2-27, or 0: not fitted", _pin(True))
    buzzer: int = _setting(0, "a GPIO (BCM) number 2-27, or 0: not fitted", _pin(True))


@dataclass
class InstallerSection:
    """What guards the settings menu."""

    pin: str = _setting(DEFAULT_PIN, "a string of 4 to 8 digits 0-9", _installer_pin)


@dataclass
class StoreSection:
    """Where games and lesson progress are kept."""

    path: str = _setting(
        "~/.local/share/backgammon-table/table.sqlite3", "a file path (~ is your home)"
    )


@dataclass
class DisplaySection:
    """The picture under the playing surface."""

    fullscreen: bool = _setting(False, "true, false")
    fps: int = _setting(30, "an integer 10-120 (frames a second)", _between(10, 120))
    width: int = _setting(1280, "an integer 320-7680 (pixels)", _between(320, 7680))
    height: int = _setting(720, "an integer 240-4320 (pixels)", _between(240, 4320))
    calibration: str = _setting(
        "", 'a file path, or "" for calibration.toml beside this configuration file'
    )
    screenshots: str = _setting("screenshots", "a directory path")
    large_text: bool = _setting(False, "true, false (every word on the screen a third larger)")
    render: str = _setting(
        "auto",
        '"auto" (a screen larger than 1920x1080 drawn at 1920x1080 and scaled up by the GPU), '
        '"1080p" (always so), "native" (drawn at the screen\'s own size)',
        _choice("auto", "1080p", "native"),
    )
    invite_after_s: int = _setting(
        180,
        "an integer 3-86400 (seconds with nobody at the table before it invites visitors)",
        _between(3, 86400),
    )
    put_away_after_s: int = _setting(
        600,
        "an integer 10-604800 (seconds a game may be left before a warning puts it away)",
        _between(10, 604800),
    )


def _address(value: Any) -> str | None:
    try:
        ipaddress.ip_address(value)
        return None
    except ValueError:
        pass
    name = value.strip()
    if name and len(name) <= 15 and all(c.isalnum() or c in "-_.:" for c in name):
        return None  # a network interface's name (wlan0, eth0), looked up when it starts
    return f"{value!r} is neither an IP address nor an interface name"


def _teacher_pin(value: Any) -> str | None:
    if value == "":
        return None
    if not (value.isascii() and value.isdigit() and 6 <= len(value) <= 8):
        return f"{shorten(repr(value), 60)} is not 6 to 8 digits 0-9"
    return None


def _networks(value: Any) -> str | None:
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            return f"{part!r} is not an address or a network such as 192.168.1.0/24"
    return None


@dataclass
class CompanionSection:
    """The class companion: web pages for the teacher, the projector and students' phones,
    and the health page and metrics for whoever looks after the tables (off by default)."""

    enabled: bool = _setting(False, "true, false")
    address: str = _setting(
        "0.0.0.0",
        "an IP address to listen on (0.0.0.0: every interface), or an interface's name "
        "such as wlan0 or eth0",
        _address,
    )
    port: int = _setting(8080, "an integer 1024-65535", _between(1024, 65535))
    teacher_pin: str = _setting(
        "", "6 to 8 digits (the teacher's page needs it when enabled)", _teacher_pin
    )
    join_minutes: int = _setting(
        90, "an integer 5-600 (minutes a class's join code is good for)", _between(5, 600)
    )
    allow: str = _setting(
        "",
        "addresses or networks that may read /health and /metrics, comma-separated "
        '(such as "127.0.0.1, 192.168.1.0/24"); "" lets only this machine read them',
        _networks,
    )


@dataclass
class Config:
    """The whole configuration, one attribute per TOML section."""

    table: TableSection = field(default_factory=TableSection)
    dice: DiceSection = field(default_factory=DiceSection)
    referee: RefereeSection = field(default_factory=RefereeSection)
    rules: RulesSection = field(default_factory=RulesSection)
    tutor: TutorSection = field(default_factory=TutorSection)
    speech: SpeechSection = field(default_factory=SpeechSection)
    pins: PinsSection = field(default_factory=PinsSection)
    installer: InstallerSection = field(default_factory=InstallerSection)
    store: StoreSection = field(default_factory=StoreSection)
    display: DisplaySection = field(default_factory=DisplaySection)
    companion: CompanionSection = field(default_factory=CompanionSection)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """The configuration as TOML-shaped nested dicts."""
        return dataclasses.asdict(self)


_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def _convert(section: str, name: str, spec: dataclasses.Field[Any], value: Any) -> Any:
    want = type(spec.default)
    allowed = spec.metadata["allowed"]
    ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        raise ConfigError(
            f"[{section}] {name}: {shorten(_toml_value(value), 60)} is not {_TYPE_WORDS[want]}; "
            f"allowed: {allowed}"
        )
    bad = control_character(value, "") if want is str else None
    if bad is not None:
        raise ConfigError(
            f"[{section}] {name}: holds a control character (U+{ord(bad):04X}); allowed: {allowed}"
        )
    check = spec.metadata["check"]
    problem = check(value) if check else None
    if problem:
        if check is _profile:
            allowed = _profiles()
        raise ConfigError(f"[{section}] {name}: {problem}; allowed: {allowed}")
    return value.strip().lower() if check is _profile else value


def from_dict(data: dict[str, Any]) -> Config:
    """A validated ``Config`` from TOML-shaped data; ``ConfigError`` names the first problem."""
    config = Config()
    sections = {f.name: f for f in dataclasses.fields(Config)}
    for section, values in data.items():
        if section not in sections:
            raise ConfigError(f"[{section}]: unknown section; allowed: {', '.join(sections)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{section}: must be a [{section}] table of keys, not a value")
        target = getattr(config, section)
        specs = {f.name: f for f in dataclasses.fields(target)}
        for name, value in values.items():
            if name not in specs:
                raise ConfigError(f"[{section}] {name}: unknown key; allowed: {', '.join(specs)}")
            setattr(target, name, _convert(section, name, specs[name], value))
    tutor = config.tutor
    if not 0 < tutor.doubtful < tutor.bad < tutor.very_bad:
        raise ConfigError(
            "[tutor] bad: the thresholds must grow; allowed: 0 < doubtful < bad < very_bad"
        )
    if config.companion.enabled and not config.companion.teacher_pin:
        raise ConfigError(
            "[companion] teacher_pin: must be set when the companion is enabled; "
            "allowed: 6 to 8 digits"
        )
    used: dict[int, str] = {}
    for name, pin in dataclasses.asdict(config.pins).items():
        if pin and pin in used:
            raise ConfigError(
                f"[pins] {name}: GPIO {pin} is already used by {used[pin]}; "
                "allowed: a different GPIO for each part"
            )
        used[pin] = name
    return config


def load_config_text(text: str, source: str = "the configuration") -> Config:
    """A validated ``Config`` from TOML text."""
    try:
        data = parse_toml(text, source)
    except FileProblem as err:
        raise ConfigError(str(err)) from None
    return from_dict(data)


def config_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The configuration file to use: ``path``, ``$BACKGAMMON_TABLE_CONFIG`` or the default."""
    chosen = path or os.environ.get(CONFIG_ENV) or DEFAULT_PATH
    return Path(chosen).expanduser()


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Load and validate the configuration; a missing file is an error only if it was named.

    The file holds the installer's PIN: one that others may read is made ``0600``.
    """
    named = path is not None or bool(os.environ.get(CONFIG_ENV))
    where = config_path(path)
    try:
        text = read_text(where)
    except FileNotFoundError:
        if named:
            raise ConfigError(f"{where}: no such configuration file") from None
        return Config()
    except FileProblem as err:
        raise ConfigError(str(err)) from None
    if keep_private(where):
        logging.getLogger(__name__).info("%s holds the PIN: made readable by its owner only", where)
    try:
        data = parse_toml(text, str(where))
    except FileProblem as err:
        raise ConfigError(str(err)) from None
    try:
        return from_dict(data)
    except ConfigError as err:
        raise ConfigError(f"{where}: {err}") from None


def dumps(config: Config) -> str:
    """The configuration as TOML text that ``load_config_text`` reads back unchanged."""
    lines: list[str] = []
    for section, values in config.to_dict().items():
        lines.append(f"[{section}]")
        for name, value in values.items():
            lines.append(f"{name} = {_toml_value(value)}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if not isinstance(value, str):
        return f"a {type(value).__name__}"
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def save_config(config: Config, path: str | os.PathLike[str] | None = None) -> Path:
    """Write the configuration atomically (a power cut leaves the old file or the new one)."""
    return write_atomically(config_path(path), dumps(config))
