"""``kiosk calibrate``: the installer's keys, saving, and the headless pictures."""

from __future__ import annotations

import pygame
import pytest
from display_pixels import rgb

from kiosk.cli import main
from kiosk.display import Calibration, load_calibration, save_calibration
from kiosk.display.calibrate import CalibrationScreen, CalibrationSession
from kiosk.display.palette import ACCENT
from kiosk.link import LOCATIONS


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod)


@pytest.fixture
def session(calibration: Calibration, tmp_path) -> CalibrationSession:
    return CalibrationSession(calibration, tmp_path / "calibration.toml")


def test_arrows_nudge_the_selected_mark(session: CalibrationSession, calibration) -> None:
    x, y = calibration.slot_xy("1", 0)
    session.handle(key(pygame.K_RIGHT))
    session.handle(key(pygame.K_UP, pygame.KMOD_LSHIFT))
    assert session.calibration.slot_xy("1", 0) == (x + 1, y - 10)
    assert session.calibration.slot_xy("1", 1) == calibration.slot_xy("1", 1)
    session.handle(key(pygame.K_TAB))
    session.handle(key(pygame.K_LEFT))
    assert session.slot == 1
    assert session.calibration.slot_xy("1", 1)[0] == calibration.slot_xy("1", 1)[0] - 1
    session.handle(key(pygame.K_TAB, pygame.KMOD_LSHIFT))
    session.handle(key(pygame.K_TAB, pygame.KMOD_LSHIFT))
    assert session.slot == 5
    session.handle(key(pygame.K_DOWN, pygame.KMOD_LCTRL))  # the whole point moves down
    assert [
        y2 - y1
        for (_, y1), (_, y2) in zip(
            calibration.slots["1"][2:], session.calibration.slots["1"][2:], strict=True
        )
    ] == [1] * 4
    session.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(300, 200)))
    assert session.calibration.slot_xy("1", 5) == (300, 200)
    assert session.unsaved


def test_enter_confirms_and_goes_on_backspace_goes_back(session: CalibrationSession) -> None:
    session.handle(key(pygame.K_RETURN))
    assert session.confirmed == {"1"} and session.location == "2"
    session.handle(key(pygame.K_BACKSPACE))
    assert session.location == "1" and "Back to Point 1" in session.message
    session.handle(key(pygame.K_RIGHT))
    assert session.confirmed == set()  # a nudged location needs confirming again
    for _ in LOCATIONS:
        session.handle(key(pygame.K_RETURN))
    assert session.confirmed == set(LOCATIONS)
    assert "press S to save" in session.message


def test_s_saves_and_esc_warns_before_leaving_changes(session: CalibrationSession) -> None:
    session.handle(key(pygame.K_RIGHT))
    session.handle(key(pygame.K_ESCAPE))
    assert not session.finished and "Unsaved changes" in session.message
    session.handle(key(pygame.K_s))
    assert load_calibration(session.path) == session.calibration
    assert "Saved to" in session.message and not session.unsaved
    session.handle(key(pygame.K_ESCAPE))
    assert session.finished


def test_a_failed_save_says_why_and_keeps_the_marks(session: CalibrationSession, tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    session.path = blocker / "calibration.toml"
    session.handle(key(pygame.K_LEFT))
    marks = session.calibration
    session.handle(key(pygame.K_s))
    assert "Could not save" in session.message
    assert session.calibration == marks and session.unsaved


def test_screen_marks_the_selected_slot(session: CalibrationSession, surface) -> None:
    screen = CalibrationScreen(surface)
    session.go_to(LOCATIONS.index("bar-black"))
    session.handle(key(pygame.K_TAB))
    session.handle(key(pygame.K_RIGHT, pygame.KMOD_LSHIFT))
    screen.draw(session)
    assert rgb(surface, session.calibration.slot_xy("bar-black", 1)) == ACCENT
    assert rgb(surface, session.calibration.slot_xy("bar-black", 0)) != ACCENT


def test_headless_command_draws_every_screen(tmp_path, capsys) -> None:
    config = tmp_path / "kiosk.toml"
    saved = Calibration.default(640, 360).nudged("5", 0, 9, -4)
    save_calibration(tmp_path / "calibration.toml", saved)
    out = tmp_path / "screens"
    status = main(["calibrate", "--headless", "--out", str(out), "--config", str(config)])
    assert status == 0
    pictures = sorted(out.glob("calibrate-*.png"))
    assert len(pictures) == len(LOCATIONS)
    shot = pygame.image.load(str(out / "calibrate-04-5.png"))
    assert shot.get_size() == (640, 360)
    assert rgb(shot, saved.slot_xy("5", 0)) == ACCENT  # the saved, nudged mark is selected
    assert "28 calibration screens" in capsys.readouterr().out


def test_command_reports_a_bad_file_and_starts_from_the_default(tmp_path, capsys) -> None:
    (tmp_path / "calibration.toml").write_text("[calibration]\nwidth = 'wide'\n")
    out = tmp_path / "screens"
    status = main(
        [
            "calibrate",
            "--headless",
            "--out",
            str(out),
            "--config",
            str(tmp_path / "k.toml"),
            "--size",
            "640x360",
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "Calibration not used" in printed and "'width'" in printed
    assert len(list(out.glob("*.png"))) == len(LOCATIONS)


def test_command_needs_a_screen_or_headless(tmp_path, capsys) -> None:
    assert main(["calibrate", "--config", str(tmp_path / "k.toml")]) == 2
    assert "no screen found" in capsys.readouterr().err
    assert main(["calibrate", "--headless"]) == 2
    assert "--out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["calibrate", "--headless", "--out", str(tmp_path), "--size", "big"])
