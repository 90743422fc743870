"""``kiosk doctor``: each check says in words what is wrong and what to do."""

from __future__ import annotations

import array
import fcntl
import os
import socket
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from kiosk.app.build import open_records
from kiosk.app.doctor import (
    check_audio,
    check_companion,
    check_config,
    check_database,
    check_disk,
    check_firmware,
    check_gpio,
    check_installer_pin,
    check_serial,
    check_tutor,
)
from kiosk.cli import main
from kiosk.config import CompanionSection, Config, PinsSection, StoreSection, TutorSection
from kiosk.simtable import SimulatedTable
from kiosk.store import Store
from tests.store.games import record_random_game


def test_a_missing_serial_device_is_named(tmp_path: Path) -> None:
    check = check_serial(str(tmp_path / "ttyACM7"))
    assert not check.ok
    assert f"{tmp_path / 'ttyACM7'} does not exist" in check.message
    assert "USB cable" in check.message and "udev rule" in check.message
    assert check.line().startswith("PROBLEM serial device: ")


def test_firmware_of_a_simulated_table_is_identified() -> None:
    with SimulatedTable(realtime=True) as sim:
        serial = check_serial(sim.port_name)
        firmware = check_firmware(sim.port_name, Config())
    assert serial.ok, serial.message
    assert firmware.ok, firmware.message
    assert "protocol 2 (this kiosk: 2)" in firmware.message and "layout 6,4,15" in firmware.message


def test_a_table_with_another_layout_is_refused_in_words() -> None:
    config = Config()
    config.table.point_slots = 5
    with SimulatedTable(realtime=True) as sim:
        check = check_firmware(sim.port_name, config)
    assert not check.ok
    assert "differs from the kiosk's 5,4,15" in check.message


def test_a_device_that_is_not_the_table_does_not_answer(tmp_path: Path) -> None:
    master, slave = os.openpty()
    try:
        check = check_firmware(os.ttyname(slave), Config(), timeout=1.5)
    finally:
        os.close(master)
        os.close(slave)
    assert not check.ok
    assert "no answer from" in check.message


def test_gpio_with_mock_pins_and_without_any() -> None:
    assert check_gpio(PinsSection(), pin_factory=MockFactory()).ok
    missing = check_gpio(PinsSection())  # no Raspberry Pi here: no pin factory loads
    assert not missing.ok
    assert "cannot be used" in missing.message and "keyboard still works" in missing.message


def _read_only_folder(tmp_path: Path) -> Path:
    """A folder this process cannot write: chmod for a normal user, sysfs for root."""
    if os.geteuid() == 0:
        return Path("/sys/kernel")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


def test_a_read_only_database_folder(tmp_path: Path) -> None:
    folder = _read_only_folder(tmp_path)
    check = check_database(folder / "table.sqlite3")
    assert not check.ok
    assert f"the folder {folder} is not writable" in check.message
    assert "chown" in check.message


def test_a_database_folder_that_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    check = check_database(blocker / "games" / "table.sqlite3")
    assert not check.ok
    assert "cannot create the folder" in check.message


def test_a_damaged_database_and_a_good_one(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is no database" * 100)
    check = check_database(broken)
    assert not check.ok and "cannot be read as the table's records" in check.message
    assert f"mv {broken} {broken}.broken" in check.message
    good = tmp_path / "good.sqlite3"
    Store(good).close()
    check = check_database(good)
    assert check.ok and "passes its integrity check" in check.message
    assert check_database(tmp_path / "new.sqlite3").ok


def test_disk_space_below_the_minimum(tmp_path: Path) -> None:
    assert check_disk(tmp_path / "db.sqlite3", min_free_mb=1).ok
    full = check_disk(tmp_path / "db.sqlite3", min_free_mb=10**12)
    assert not full.ok and "MB free on the disk holding" in full.message


def test_audio_without_espeak_ng(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    check = check_audio()
    assert not check.ok and "sudo apt install espeak-ng" in check.message


def test_the_default_installer_pin_is_a_problem() -> None:
    assert not check_installer_pin("1234").ok
    assert check_installer_pin("20261").ok


def test_gpio_advice_matches_the_installation_guide() -> None:
    guide = (Path(__file__).resolve().parents[2] / "deploy" / "INSTALL.md").read_text()
    message = check_gpio(PinsSection()).message
    if "GPIO library" in message:  # no lgpio here: where the library comes from is named
        for words in ("lgpio", "sudo apt install python3-lgpio", "step 1"):
            assert words in message
        assert "python3-lgpio" in guide.split("## 2.")[0]  # step 1 installs it


def test_a_bad_configuration_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[dice]\nsource = "coins"\n')
    check, config = check_config(str(path))
    assert not check.ok and "[dice] source: 'coins' is not allowed" in check.message
    assert config == Config()


def test_kiosk_doctor_prints_a_line_per_check_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\npath = "{tmp_path / "db" / "t.sqlite3"}"\n')
    status = main(["doctor", "--config", str(config), "--port", str(tmp_path / "nothing")])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    names = [line[8:].split(":")[0] for line in lines[:-1]]
    assert names == [
        "configuration",
        "serial device",
        "table firmware",
        "buttons and lights (GPIO)",
        "Bluetooth dice",
        "display",
        "speech and sound",
        "tutor",
        "disk space",
        "database",
        "installer PIN",
        "commissioning",
        "class companion",
    ]
    assert lines[0].startswith("OK      configuration: read from")
    assert lines[4] == 'OK      Bluetooth dice: not used ([dice] source = "auto")'
    assert lines[5].startswith("PROBLEM display: no screen")
    assert lines[-5].startswith("OK      database:")
    assert lines[-4].startswith("PROBLEM installer PIN: still the default 1234")
    assert lines[-3].startswith("PROBLEM commissioning: not done: run kiosk commission")
    assert lines[-2] == "OK      class companion: off ([companion] enabled = false)"
    assert lines[-1].endswith("problems found.")


def test_the_tutors_evaluator_rates_a_play_or_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    check = check_tutor(TutorSection(evaluator="builtin"))
    assert check.ok and check.message == "plays are rated by builtin"
    from kiosk.tutor.evaluators import gnubg_external, gnubg_nn

    monkeypatch.setattr(gnubg_external, "find_program", lambda: None)
    monkeypatch.setattr(gnubg_nn, "load_module", lambda: None)
    missing = check_tutor(TutorSection(evaluator="gnubg"))
    assert not missing.ok
    assert "the gnubg evaluator cannot rate plays (GNU Backgammon (gnubg) is not installed)" in (
        missing.message
    )
    fallback = check_tutor(TutorSection(evaluator="auto"))
    assert fallback.ok and "install GNU Backgammon" in fallback.message


def _foreign(path: Path) -> None:
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (name TEXT)")
    raw.commit()
    raw.close()


def _newer(path: Path) -> None:
    Store(path).close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 99")
    raw.commit()
    raw.close()


# The file flags chattr sets (linux/fs.h), set here without e2fsprogs' chattr.
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS, FS_IMMUTABLE_FL = 0x80086601, 0x40086602, 0x10


def _set_immutable(path: Path, on: bool) -> bool:
    """Set or clear a file's immutable flag as ``chattr +i``/``-i`` does; False where the
    file system or the user's rights do not allow it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        flags = array.array("i", [0])
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags, True)
        flags[0] = flags[0] | FS_IMMUTABLE_FL if on else flags[0] & ~FS_IMMUTABLE_FL
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, flags)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def _immutable(path: Path) -> None:
    Store(path).close()
    if not _set_immutable(path, True):
        pytest.skip("an immutable file is not possible here (the file system or no root)")


def _loop(path: Path) -> None:
    path.symlink_to(path.with_name("other"))
    path.with_name("other").symlink_to(path)


def _damaged(path: Path) -> None:
    """Bits flipped all over the index pages: SQLite's check lists many problems."""
    with Store(path) as store:
        for seed in range(6):
            record_random_game(store, seed)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = [
        row[0]
        for row in raw.execute("SELECT pageno FROM dbstat WHERE name = ?", ("events_by_game",))
    ]
    raw.close()
    data = bytearray(path.read_bytes())
    for page in pages[1:]:
        for offset in range((page - 1) * 4096 + 200, page * 4096, 16):
            data[offset] ^= 1
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("make", [_foreign, _newer, _immutable, _loop, _damaged])
def test_doctor_and_kiosk_run_agree_about_a_database(
    tmp_path: Path, make, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27, item 11: doctor said OK where run said "not saving" (a foreign SQLite file,
    a newer schema, an immutable file, a symlink loop), and a damaged database's whole
    quick_check text was printed (112 lines in doctor, 203 on stderr)."""
    monkeypatch.delenv("BACKGAMMON_TABLE_DB", raising=False)
    path = tmp_path / "table.sqlite3"
    make(path)
    try:
        check = check_database(path)
        run = open_records(Config(store=StoreSection(path=str(path))))
    finally:
        if make is _immutable:
            _set_immutable(path, False)
    store, problem = run
    assert not check.ok  # kiosk doctor: the file is not fit to use
    assert "\n" not in check.message and len(check.message) < 600
    if make is _damaged:  # issue 36: kiosk run keeps it aside and starts a new file
        assert store is not None and problem == ""
        store.close()
        assert path.with_name("table.sqlite3.damaged-1").exists()
        assert "more problems" in check.message
        return
    assert store is None and problem  # kiosk run: not saving
    assert "\n" not in problem and len(problem) < 400


def _systemctl(
    private_network: str, load_state: str = "loaded"
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """What ``systemctl show`` says of the kiosk's service, for check_companion."""

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        assert command[:2] == ["systemctl", "show"] and command[-1] == "backgammon-table.service"
        out = f"LoadState={load_state}\nPrivateNetwork={private_network}\n"
        return subprocess.CompletedProcess(command, 0, out, "")

    return run


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_companion_is_checked_only_when_on() -> None:
    check = check_companion(CompanionSection(enabled=False, address="nosuch0"))
    assert check.ok and "off" in check.message


def test_a_companion_interface_that_does_not_exist_is_named() -> None:
    """Issue 35, item 11: a configured interface that does not exist was only in the log."""
    companion = CompanionSection(enabled=True, address="nosuch0", teacher_pin="482913")
    check = check_companion(companion, run=_systemctl("no"))
    assert not check.ok
    assert "the interface nosuch0 has no IPv4 address" in check.message
    assert "[companion] address" in check.message


def test_the_companion_on_a_free_port_and_on_a_taken_one() -> None:
    port = _free_port()
    companion = CompanionSection(
        enabled=True, address="lo", port=port, teacher_pin="482913"
    )  # lo: an interface's name, looked up as the companion looks it up
    check = check_companion(companion, run=_systemctl("no"))
    assert check.ok and check.message == f"can listen on 127.0.0.1 port {port} (the pages' address)"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen(1)
        check = check_companion(companion, run=_systemctl("no"))
    assert not check.ok
    assert check.message.startswith(f"port {port} on 127.0.0.1 is taken: by the running kiosk")


def test_an_address_not_of_this_machine() -> None:
    companion = CompanionSection(enabled=True, address="192.0.2.1", teacher_pin="482913")
    check = check_companion(companion, run=_systemctl("no"))
    assert not check.ok and check.message.startswith("cannot listen on 192.0.2.1 port 8080")


def test_the_service_that_keeps_the_kiosk_off_the_network_is_named() -> None:
    """Issue 30, item 3: under PrivateNetwork=yes the companion cannot be reached."""
    companion = CompanionSection(
        enabled=True, address="127.0.0.1", port=_free_port(), teacher_pin="482913"
    )
    check = check_companion(companion, run=_systemctl("yes"))
    assert not check.ok
    assert "PrivateNetwork=yes" in check.message
    assert "sudo /opt/backgammon-table/deploy/companion-network.sh" in check.message
    assert (Path(__file__).resolve().parents[2] / "deploy" / "companion-network.sh").exists()
    # No systemd here (a root, a laptop) or no such service: nothing to say about it.
    assert check_companion(companion, run=_systemctl("yes", "not-found")).ok
