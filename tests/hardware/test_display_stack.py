"""The screen comes up on the table's Pi: the SDL that the Pi's pygame loads has the video
driver the service names.

Read from the very files the Pi would install, cached by ``make install``
(``deploy/fetch-arm64-packages.sh``: Debian bookworm's arm64 ``python3-pygame`` and
``libsdl2-2.0-0``, and pip's aarch64 pygame wheel). Nothing is fetched here.
"""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "arm64-display"
UNIT = ROOT / "deploy" / "backgammon-table.service"
SDL_SONAME = b"libSDL2-2.0.so.0"


def _cached(pattern: str) -> Path:
    found = sorted(CACHE.glob(pattern))
    if not found:
        pytest.fail(
            f"no {pattern} in {CACHE}: make install caches the Pi's packages there "
            "(deploy/fetch-arm64-packages.sh)",
            pytrace=False,
        )
    return found[-1]


def deb_files(path: Path) -> dict[str, bytes]:
    """Every regular file in a .deb's data archive, by path (an ar archive holding tars)."""
    data = path.read_bytes()
    assert data.startswith(b"!<arch>\n"), f"{path.name} is not a Debian package"
    offset = 8
    while offset < len(data):
        header = data[offset : offset + 60]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58])
        body = data[offset + 60 : offset + 60 + size]
        offset += 60 + size + (size % 2)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                return {
                    member.name.lstrip("./"): tar.extractfile(member).read()  # type: ignore[union-attr]
                    for member in tar.getmembers()
                    if member.isfile()
                }
    raise AssertionError(f"{path.name} has no data archive")


def video_drivers(library: bytes) -> set[str]:
    """The names of SDL's built-in video drivers found in a libSDL2 binary, lower case.

    Each driver's bootstrap record names it with a short NUL-terminated string next to its
    description (``"KMSDRM"``, ``"KMS/DRM Video Driver"``); only known names are looked for.
    """
    known = ("x11", "wayland", "kmsdrm", "offscreen", "dummy", "evdev", "directfb", "vivante")
    strings = {s.decode().lower() for s in re.findall(rb"[\x20-\x7e]{3,}", library)}
    return {name for name in known if name in strings}


def unit_driver() -> str:
    match = re.search(r"^Environment=SDL_VIDEODRIVER=(\S+)$", UNIT.read_text(), re.M)
    assert match, "the service names no SDL video driver"
    return match.group(1).lower()


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_the_service_draws_with_kmsdrm() -> None:
    assert unit_driver() == "kmsdrm"


def test_debians_sdl_for_the_pi_has_the_services_driver() -> None:
    files = deb_files(_cached("libsdl2-2.0-0_*_arm64.deb"))
    (library,) = [data for name, data in files.items() if "/libSDL2-2.0.so.0." in name]
    assert library[:4] == b"\x7fELF" and library[18] == 183  # e_machine 183: AArch64
    drivers = video_drivers(library)
    assert unit_driver() in drivers, drivers
    assert {"wayland", "x11", "offscreen", "dummy"} <= drivers


def test_debians_pygame_loads_the_systems_sdl_and_is_new_enough() -> None:
    path = _cached("python3-pygame_*_arm64.deb")
    files = deb_files(path)
    modules = {name: data for name, data in files.items() if name.endswith(".so")}
    display = [data for name, data in modules.items() if "/pygame/display." in name]
    assert display, "pygame's display module is missing"
    assert SDL_SONAME + b"\x00" in display[0]  # linked to the system's libSDL2 ...
    assert not [name for name in files if "libSDL2" in name]  # ... and bundles none
    wanted = re.search(r'"pygame>=([\d.]+)"', (ROOT / "pyproject.toml").read_text())
    assert wanted, "pyproject.toml names no minimum pygame"
    packaged = re.match(r"python3-pygame_([\d.]+)", path.name)
    assert packaged and _version(packaged.group(1)) >= _version(wanted.group(1))


def test_pips_aarch64_wheel_lacks_it_which_is_why_the_pi_uses_debians() -> None:
    with zipfile.ZipFile(_cached("pygame-*-manylinux*aarch64*.whl")) as wheel:
        (name,) = [n for n in wheel.namelist() if re.search(r"/libSDL2-2[^/]*\.so", n)]
        drivers = video_drivers(wheel.read(name))
    assert "kmsdrm" not in drivers and "wayland" in drivers, drivers


def test_doctor_names_sdls_drivers_and_the_missing_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.app.doctor import DisplayProbe, check_display

    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    wheel = DisplayProbe(
        "/x/libSDL2-2.so", "2.28.4", ("x11", "wayland", "offscreen"), "", (0, 0), ""
    )
    check = check_display(probe=lambda timeout: wheel)
    assert not check.ok
    assert "has no kmsdrm video driver (it has: x11, wayland, offscreen)" in check.message
    assert "sudo apt install python3-pygame" in check.message
    debian = DisplayProbe(
        "/usr/lib/libSDL2-2.0.so.0",
        "2.26.5",
        ("KMSDRM", "offscreen"),
        "",
        (0, 0),
        "kmsdrm not available",
    )
    check = check_display(probe=lambda timeout: debian)
    assert (
        not check.ok and "has the video drivers KMSDRM, offscreen but cannot open" in check.message
    )


def test_doctor_opens_a_real_screen_and_lists_the_drivers(monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.app.doctor import check_display

    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    check = check_display()
    assert check.ok, check.message
    assert "opens the screen with the offscreen driver" in check.message
    assert "its video drivers:" in check.message and "offscreen" in check.message
