"""Issue 27: whatever is in a file the kiosk reads, and whatever a `kiosk` sub-command is
given, the answer is the data or one line in words, never a traceback.

Every file reader (configuration, calibration, commissioning, lessons, the records
database) is fed random bytes and mutations of valid files; every sub-command is run
(in this process, through ``kiosk.cli.main``) with random arguments and fuzzed files. The
commands that would serve a table or open a window are run to the point where they would
(their arguments and every file they read); the slow-marked run also starts them for real
as processes. ``KIOSK_FUZZ_SEED`` picks another seed.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.config import Config, ConfigError, dumps, load_config
from kiosk.display.calibration import Calibration, load_calibration, to_toml
from kiosk.link import TableLayout
from kiosk.link.commission import load as load_commission
from kiosk.store import Store, StoreError
from kiosk.store.export import match_to_mat
from kiosk.tutor.lessons.model import DATA, LessonError, read_lesson
from tests.store.games import record_random_game

ROOT = Path(__file__).resolve().parents[1]
SEED = int(os.environ.get("KIOSK_FUZZ_SEED", "27"))

# Values that a hand, a flipped bit or a visitor might leave after an '=' in a TOML file.
ODD_VALUES = [
    b"5",
    b"-1",
    b"0",
    b"99999999999999999999",
    b"1e308",
    b"inf",
    b"nan",
    b"true",
    b'""',
    b'"x"',
    b'"\\u0000"',
    b'"\\u001b[2J"',
    b'"' + b"y" * 5000 + b'"',
    b"[]",
    b"[1, 2, 3]",
    b"[[1]]",
    b"{}",
    b"{ a = 1 }",
    b"1979-05-27",
    b"[" * 300 + b"]" * 300,
    b'"\xd9\xa1\xd9\xa2\xd9\xa3\xd9\xa4"',
    b'"4HPwATDgc/ABMA"',
    b'"24/18 13/11"',
]


def mutate(rng: random.Random, valid: bytes) -> bytes:
    """A damaged copy of ``valid`` (or random bytes): what a bad card or a bad hand leaves."""
    data = bytearray(valid)
    kind = rng.randrange(9)
    if kind == 0 or not data:
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(2000)))
    if kind == 1:  # bits flipped
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 2:  # cut short
        del data[rng.randrange(len(data)) :]
    elif kind == 3:  # random bytes put in
        at = rng.randrange(len(data))
        data[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 50)))
    elif kind == 4:  # a value replaced
        lines = bytes(data).split(b"\n")
        with_value = [i for i, line in enumerate(lines) if b"=" in line]
        if with_value:
            i = rng.choice(with_value)
            lines[i] = lines[i].split(b"=")[0] + b"= " + rng.choice(ODD_VALUES)
        data = bytearray(b"\n".join(lines))
    elif kind == 5:  # lines shuffled, lost or doubled
        lines = bytes(data).split(b"\n")
        rng.shuffle(lines)
        lines = lines[: rng.randint(1, len(lines))] + lines[: rng.randint(0, 3)]
        data = bytearray(b"\n".join(lines))
    elif kind == 6:  # a key nested deep, or a table of the wrong kind
        data += rng.choice(
            [b"\ndeep = " + b"[" * 5000 + b"]" * 5000, b"\n[[bad]]\nx = 1", b"\nbad = 5\n"]
        )
    elif kind == 7:
        data += b"\xff"
    else:  # a section name damaged
        data = bytearray(bytes(data).replace(b"[", b"[x", 1))
    return bytes(data)


def _rounds(request: pytest.FixtureRequest, fast: int) -> int:
    return fast * 10 if request.node.get_closest_marker("slow") else fast


# -- every file reader ------------------------------------------------------------------------


def _valid_config() -> bytes:
    config = Config()
    config.installer.pin = "8642"
    return dumps(config).encode()


def _valid_calibration() -> bytes:
    return to_toml(Calibration.default(1280, 720)).encode()


def _valid_commission() -> bytes:
    return (
        b'layout = "6,4,15"\n\n[[bad]]\nlocation = "9"\nslot = 2\nreason = "dead reed"\n\n'
        b'[[bad]]\nwell = 1\ncell = 5\nreason = "welded"\n'
    )


def _read_config(path: Path) -> None:
    try:
        load_config(path)
    except ConfigError as err:
        _one_line(err)


def _read_calibration(path: Path) -> None:
    try:
        load_calibration(path, TableLayout())
    except ValueError as err:
        _one_line(err)


def _read_commission(path: Path) -> None:
    try:
        load_commission(path)
    except ValueError as err:
        _one_line(err)


def _read_lesson(path: Path) -> None:
    try:
        read_lesson(path)
    except LessonError as err:
        _one_line(err)


def _one_line(err: Exception) -> None:
    text = str(err)
    assert text and "\n" not in text.strip() and len(text) < 2000, text[:300]


READERS: dict[str, tuple[Callable[[], list[bytes]], Callable[[Path], None]]] = {
    "config": (lambda: [_valid_config()], _read_config),
    "calibration": (lambda: [_valid_calibration()], _read_calibration),
    "commission": (lambda: [_valid_commission()], _read_commission),
    "lesson": (lambda: [p.read_bytes() for p in sorted(DATA.glob("*.toml"))], _read_lesson),
}


def _fuzz_reader(name: str, rounds: int, tmp_path: Path) -> None:
    valid, read = READERS[name]
    samples = valid()
    rng = random.Random(f"{SEED}-{name}")
    for n in range(rounds):
        path = tmp_path / f"{name}-{n}.toml"
        path.write_bytes(mutate(rng, rng.choice(samples)))
        read(path)


@pytest.mark.parametrize("name", READERS)
def test_every_file_reader_answers_damage_in_one_line(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _fuzz_reader(name, _rounds(request, 60), tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", READERS)
def test_every_file_reader_answers_damage_in_one_line_long(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _fuzz_reader(name, _rounds(request, 60), tmp_path)


@pytest.fixture(scope="module")
def good_records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "table.sqlite3"
    with Store(path) as store:
        match = store.new_match(5, "modern")
        for seed in range(3):
            record_random_game(store, seed, match_id=match if seed else None)
        store.save_lesson_step("guest-1", "01-the-board", 2)
    raw = __import__("sqlite3").connect(path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return path


def _read_records(path: Path) -> None:
    """Open the records as ``kiosk run`` does and read everything a restart, a replay and an
    export read: only :class:`StoreError` (in words) may come of a damaged file."""
    try:
        with Store(path) as store:
            store.unfinished_game()
            store.last_session()
            store.lesson_progress("guest-1")
            store.pin_failures()
            for game in store.games():
                for read in (store.load_game, store.turns, store.timeline):
                    try:
                        read(game.id)
                    except StoreError as err:
                        _one_line(err)
                try:
                    match_to_mat(store, [game.id])
                except StoreError as err:
                    _one_line(err)
    except StoreError as err:
        _one_line(err)


def _fuzz_records(good: Path, rounds: int, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-records")
    valid = good.read_bytes()
    for n in range(rounds):
        path = tmp_path / f"records-{n}.sqlite3"
        data = bytearray(valid)
        if rng.random() < 0.2:
            data = bytearray(mutate(rng, valid))
        else:  # a few pages scribbled on: the records are no text
            for _ in range(rng.randint(1, 4)):
                page = rng.randrange(1, max(2, len(data) // 4096)) * 4096
                for _ in range(rng.randint(1, 40)):
                    if page < len(data):
                        data[rng.randrange(page, min(page + 4096, len(data)))] = rng.getrandbits(8)
        path.write_bytes(bytes(data))
        _read_records(path)


def test_the_records_reader_answers_damage_in_one_line(
    good_records: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _fuzz_records(good_records, _rounds(request, 40), tmp_path)


@pytest.mark.slow
def test_the_records_reader_answers_damage_in_one_line_long(
    good_records: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _fuzz_records(good_records, _rounds(request, 40), tmp_path)


# -- every sub-command -------------------------------------------------------------------------


def kiosk(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``kiosk ARGV`` in this process: its status, standard output and standard error. An
    exception other than an exit fails the test with its traceback."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else 2
    finally:
        sys.stdin = saved
    assert isinstance(code, int), code
    assert "Traceback" not in err.getvalue(), err.getvalue()[-2000:]
    return code, out.getvalue(), err.getvalue()


WORDS = [
    "",
    "-1",
    "0",
    "1",
    "3",
    "6",
    "7",
    "26",
    "99999999999",
    "x",
    "--",
    "-",
    "4HPwATDgc/ABMA",
    "sGfwATDgc/ABMA",
    "4HPwATDgc/ABM",
    "////////////AA",
    "R:w:h15:h15",
    "R:b:h14,3x1:h15",
    "8/5 6/5",
    "24/18 13/11",
    "bar/22*",
    "6/off",
    "white",
    "black",
    "centre",
    "double",
    "take",
    "\x00",
    "é" * 50,
    "y" * 3000,
]


def _junk(rng: random.Random) -> str:
    return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)]))
                   for _ in range(rng.randrange(1, 30)))  # fmt: skip


class Fuzzed:
    """Random argument lists for each sub-command, with fuzzed files to name."""

    def __init__(self, rng: random.Random, folder: Path, good_records: Path) -> None:
        self.rng = rng
        self.folder = folder
        self.good_records = good_records
        self.count = 0

    def word(self) -> str:
        rng = self.rng
        return rng.choice(WORDS) if rng.random() < 0.8 else _junk(rng)

    def file(self, valid: bytes, suffix: str = ".toml") -> str:
        self.count += 1
        path = self.folder / f"f{self.count}{suffix}"
        path.write_bytes(mutate(self.rng, valid) if self.rng.random() < 0.9 else valid)
        return str(path)

    def config_folder(self) -> str:
        """A folder with a fuzzed configuration, calibration, commissioning and records."""
        self.count += 1
        folder = self.folder / f"c{self.count}"
        folder.mkdir()
        db = folder / "table.sqlite3"
        shutil.copy(self.good_records, db)
        config = _valid_config().decode().replace(Config().store.path, str(db)).encode()
        (folder / "config.toml").write_bytes(mutate(self.rng, config))
        if self.rng.random() < 0.5:
            (folder / "calibration.toml").write_bytes(mutate(self.rng, _valid_calibration()))
        if self.rng.random() < 0.5:
            (folder / "commission.toml").write_bytes(mutate(self.rng, _valid_commission()))
        if self.rng.random() < 0.3:
            data = bytearray(db.read_bytes())
            data[self.rng.randrange(len(data))] ^= 0xFF
            db.write_bytes(bytes(data))
        return str(folder / "config.toml")

    def options(self, options: list[str], positional: int = 0) -> list[str]:
        rng = self.rng
        args = [self.word() for _ in range(positional if rng.random() < 0.8 else rng.randrange(5))]
        for option in rng.sample(options, rng.randint(0, len(options))):
            args.append(option)
            if rng.random() < 0.85:
                args.append(self.word())
        return args


SCRIPT = b"""profile modern
setup standard
opening 3 1
lift 8
place 5
lift 6
place 5
press done
dice 6 4
lift 1
place 7
wait 400
double
take
unplug
replug
restart
slide 13 8
tumble 5 5
dead-reed 9 2
"""


def _commands(f: Fuzzed) -> Iterator[tuple[list[str], str]]:
    """One fuzzed call of each sub-command: ``(argv, stdin)``."""
    rng = f.rng
    yield ["plays", *f.options(["--profile", "--variant", "--batch"], 3)], ""
    lines = "\n".join(" ".join(f.word() for _ in range(rng.randrange(5))) for _ in range(20))
    yield ["plays", "--batch", *f.options(["--profile", "--variant"])], lines
    yield ["coach", *f.options(["--evaluator", "--plies"], 4)], ""
    yield (
        ["coach-cube", *f.options(["--cube", "--owner", "--match", "--crawford",
                                   "--decision", "--evaluator"], 1)],
        "",
    )  # fmt: skip
    if rng.random() < 0.5:
        yield ["coach-cube", f.word(), "--score", f.word(), f.word(), "--match", f.word()], ""
    lessons = sorted(DATA.glob("*.toml"))
    yield ["lesson", "check", f.file(rng.choice(lessons).read_bytes())], ""
    yield ["lesson", "list"], ""
    yield (
        ["lesson", "run", f.file(rng.choice(lessons).read_bytes()), "--script", "-"],
        "\n".join(f.word() for _ in range(5)),
    )
    yield ["export", "--db", f.file(f.good_records.read_bytes(), ".sqlite3"),
           *f.options(["--game", "--match", "--last", "--position", "--list"])], ""  # fmt: skip
    yield ["scenario", f.file(SCRIPT, ".txt"), *f.options(["--settle-ms"])], ""
    yield ["run", "--config", f.config_folder(), *f.options(["--port", "--position", "--demo"])], ""
    simulate = ["--point-slots", "--bar-slots", "--tray-slots", "--scan-hz", "--debounce"]
    yield ["simulate-table", *f.options([*simulate, "--seed", "--empty"])], ""
    yield ["table-watch", *f.options(["--port", "--point-slots", "--bar-slots"])], ""
    yield (
        ["calibrate", "--config", f.config_folder(), *f.options(["--size", "--reset", "--out"])],
        "",
    )
    yield ["commission", "--config", f.config_folder(), *f.options(["--port", "--out"])], ""
    yield [f.word(), *f.options([])], ""


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Stop the sub-commands that would serve a table, open a window or walk a table at the
    point where they would (every argument and file read by then); what they were given."""
    given: list[tuple] = []

    def stand_in(name: str) -> Callable[..., int]:
        def run(*args: object) -> int:
            given.append((name, args))
            return 0

        return run

    import kiosk.app_cli
    import kiosk.commission_cli
    import kiosk.display.cli
    import kiosk.link.cli

    monkeypatch.setattr(kiosk.app_cli, "_table", stand_in("run"))
    monkeypatch.setattr(kiosk.app_cli, "_demo", stand_in("demo"))
    monkeypatch.setattr(kiosk.link.cli, "_simulate", stand_in("simulate-table"))
    monkeypatch.setattr(kiosk.link.cli, "_watch", stand_in("table-watch"))
    monkeypatch.setattr(kiosk.display.cli, "_calibrate", stand_in("calibrate"))
    monkeypatch.setattr(kiosk.commission_cli, "_run", stand_in("commission"))
    monkeypatch.setenv("BACKGAMMON_TABLE_DB", "")
    monkeypatch.delenv("BACKGAMMON_TABLE_CONFIG", raising=False)
    return given


def _fuzz_commands(rounds: int, tmp_path: Path, good_records: Path) -> None:
    fuzzed = Fuzzed(random.Random(f"{SEED}-commands"), tmp_path, good_records)
    for _ in range(rounds):
        for argv, stdin in _commands(fuzzed):
            kiosk(argv, stdin)


def test_every_subcommand_answers_bad_input_in_words(
    served: list, tmp_path: Path, good_records: Path, request: pytest.FixtureRequest
) -> None:
    _fuzz_commands(_rounds(request, 3), tmp_path, good_records)
    assert served  # the commands that serve a table were reached


@pytest.mark.slow
def test_every_subcommand_answers_bad_input_in_words_long(
    served: list, tmp_path: Path, good_records: Path, request: pytest.FixtureRequest
) -> None:
    _fuzz_commands(_rounds(request, 3), tmp_path, good_records)


def test_kiosk_doctor_reads_damaged_files_in_words(
    tmp_path: Path, good_records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BACKGAMMON_TABLE_DB", raising=False)
    fuzzed = Fuzzed(random.Random(f"{SEED}-doctor"), tmp_path, good_records)
    for _ in range(2):
        code, out, _ = kiosk(["doctor", "--config", fuzzed.config_folder(), "--port", "/dev/null"])
        assert code in (0, 1) and "database:" in out


# -- the slow run: the long-running commands started for real ----------------------------------


def _started(argv: list[str], seconds: float, tmp_path: Path, stdin: bytes = b"") -> str:
    """Start ``kiosk ARGV`` as a process, let it run, stop it as systemd does; its stderr."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", HOME=str(tmp_path))
    env.pop("BACKGAMMON_TABLE_CONFIG", None)
    env["BACKGAMMON_TABLE_DB"] = str(tmp_path / "table.sqlite3")
    process = subprocess.Popen(
        [sys.executable, "-m", "kiosk", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    )
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    process.stdin = None  # said all it has to say
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err.decode(errors="replace")


@pytest.mark.slow
def test_the_long_running_commands_started_with_fuzzed_files(
    tmp_path: Path, good_records: Path
) -> None:
    from kiosk.simtable import SimulatedTable

    rng = random.Random(f"{SEED}-started")
    fuzzed = Fuzzed(rng, tmp_path, good_records)
    with SimulatedTable(realtime=True) as sim:
        for n in range(6):
            config = fuzzed.config_folder()
            err = _started(["run", "--config", config, "--port", sim.port_name], 8, tmp_path)
            assert "Traceback" not in err, err[-3000:]
            out = tmp_path / f"shots{n}"
            err = _started(
                ["calibrate", "--headless", "--config", config, "--out", str(out)], 30, tmp_path
            )
            assert "Traceback" not in err, err[-3000:]
            options = fuzzed.options(["--point-slots", "--scan-hz", "--debounce", "--seed"])
            err = _started(["simulate-table", *options], 3, tmp_path, b"place 9 white\nnoise 99\n")
            assert "Traceback" not in err, err[-3000:]
