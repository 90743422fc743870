"""Calibration: the default geometry, nudging, validation, and the calibration file."""

from __future__ import annotations

import tomllib

import pytest

from kiosk.display import (
    Calibration,
    calibration_path,
    load_calibration,
    load_or_default,
    save_calibration,
)
from kiosk.link import LOCATIONS, TableLayout


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768), (800, 480)])
@pytest.mark.parametrize("points", [5, 6, 7])
def test_default_geometry_as_white_sees_it(size: tuple[int, int], points: int) -> None:
    layout = TableLayout(point_slots=points)
    cal = Calibration.default(*size, layout)
    width, height = size
    cal.check(layout)
    xy = {where: cal.slot_xy(where, 0) for where in LOCATIONS}
    # White's home (1-6) bottom right, 7-12 bottom left, 13-18 top left, 19-24 top right.
    for n in range(1, 13):
        assert xy[str(n)][1] > height / 2
    for n in range(13, 25):
        assert xy[str(n)][1] < height / 2
    bar_x = xy["bar-white"][0]
    assert all(xy[str(n)][0] > bar_x for n in (*range(1, 7), *range(19, 25)))
    assert all(xy[str(n)][0] < bar_x for n in range(7, 19))
    assert [xy[str(n)][0] for n in range(1, 13)] == sorted(
        (xy[str(n)][0] for n in range(1, 13)), reverse=True
    )
    assert [xy[str(n)][0] for n in range(13, 25)] == sorted(xy[str(n)][0] for n in range(13, 25))
    # Bars: white's at the bottom; trays at the right edge, white's at the bottom.
    assert xy["bar-white"][1] > height / 2 > xy["bar-black"][1]
    assert xy["off-white"][0] > xy["1"][0] and xy["off-black"][0] > xy["24"][0]
    assert xy["off-white"][1] > height / 2 > xy["off-black"][1]
    # Slot lines run from the edge towards the centre, all on the screen.
    for where in LOCATIONS:
        ys = [y for _, y in cal.slots[where]]
        assert len(ys) == layout.slots(where)
        assert ys == sorted(ys, reverse=cal.slot_xy(where, 0)[1] > height / 2)
        for x, y in cal.slots[where]:
            assert 0 <= x < width and 0 <= y < height


def test_slot_xy_and_location_rect(calibration: Calibration) -> None:
    x, y, w, h = calibration.location_rect("5")
    for sx, sy in calibration.slots["5"]:
        assert x < sx < x + w and y < sy < y + h
    with pytest.raises(IndexError, match="slots 0-5"):
        calibration.slot_xy("5", 6)
    with pytest.raises(KeyError, match="no such location"):
        calibration.slot_xy("25", 0)


def test_nudged_moves_one_slot_and_keeps_it_on_screen(calibration: Calibration) -> None:
    before = calibration.slot_xy("7", 2)
    moved = calibration.nudged("7", 2, 5, -3)
    assert moved.slot_xy("7", 2) == (before[0] + 5, before[1] - 3)
    assert moved.slot_xy("7", 1) == calibration.slot_xy("7", 1)
    assert calibration.slot_xy("7", 2) == before  # the original is unchanged
    assert moved != calibration
    far = calibration.nudged("1", 0, 10_000, 10_000)
    assert far.slot_xy("1", 0) == (calibration.width - 1, calibration.height - 1)
    shifted = calibration.shifted("bar-black", -4, 6)
    assert [(x + 4, y - 6) for x, y in shifted.slots["bar-black"]] == list(
        calibration.slots["bar-black"]
    )


def test_scaled_keeps_relative_positions(calibration: Calibration) -> None:
    big = calibration.scaled(2560, 1440)
    assert (big.width, big.height) == (2560, 1440)
    x, y = calibration.slot_xy("13", 3)
    bx, by = big.slot_xy("13", 3)
    assert abs(bx - x * 2) <= 1 and abs(by - y * 2) <= 1


def test_check_refuses_other_slot_counts(calibration: Calibration) -> None:
    with pytest.raises(ValueError, match="6 slots for 1 but the table has 5"):
        calibration.check(TableLayout(point_slots=5))


def test_dict_round_trip(calibration: Calibration) -> None:
    data = calibration.to_dict()
    assert set(data["slots"]) == set(LOCATIONS)
    assert Calibration.from_dict(data) == calibration


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda d: d.pop("width"), "'width'"),
        (lambda d: d.update(height=-5), "'height'"),
        (lambda d: d.update(slot_radius=True), "'slot_radius'"),
        (lambda d: d.update(colour="red"), "'colour'"),
        (lambda d: d.update(slots=[1, 2]), "'slots'"),
        (lambda d: d["slots"].pop("bar-black"), "slots.bar-black"),
        (lambda d: d["slots"].update({"25": [[1, 1]]}), "'25'"),
        (lambda d: d["slots"].update({"3": []}), "slots.3"),
        (lambda d: d["slots"]["3"].__setitem__(1, [5]), "slots.3[1]"),
        (lambda d: d["slots"]["3"].__setitem__(2, [5, "6"]), "slots.3[2]"),
        (lambda d: d["slots"]["off-white"].__setitem__(0, [5000, 10]), "off the 1280x720 screen"),
    ],
)
def test_from_dict_names_what_is_wrong(calibration: Calibration, change, named: str) -> None:
    data = calibration.to_dict()
    change(data)
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        Calibration.from_dict(data)


def test_save_and_load(tmp_path, calibration: Calibration) -> None:
    nudged = calibration.nudged("19", 4, 3, 2)
    path = save_calibration(tmp_path / "sub" / "calibration.toml", nudged)
    text = path.read_text()
    assert "[calibration]" in text and '"bar-white" = [' in text
    assert tomllib.loads(text)["calibration"]["slot_radius"] == nudged.slot_radius
    assert load_calibration(path) == nudged
    assert load_calibration(path, TableLayout()) == nudged
    assert [p.name for p in path.parent.iterdir()] == ["calibration.toml"]  # no temp left


def test_load_errors_are_clear(tmp_path, calibration: Calibration) -> None:
    path = tmp_path / "calibration.toml"
    with pytest.raises(FileNotFoundError):
        load_calibration(path)
    path.write_text("[calibration\nwidth = ")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_calibration(path)
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ValueError, match="not UTF-8 text"):
        load_calibration(path)
    path.write_text("[display]\nwidth = 3\n")
    with pytest.raises(ValueError, match=r"no \[calibration\] section"):
        load_calibration(path)
    save_calibration(path, calibration)
    with pytest.raises(ValueError, match="run 'kiosk calibrate' again"):
        load_calibration(path, TableLayout(tray_slots=14))
    text = path.read_text().replace("width = 1280", "width = 0")
    path.write_text(text)
    with pytest.raises(ValueError, match=f"{path}: calibration key 'width'"):
        load_calibration(path)


def test_load_or_default_says_why(tmp_path, calibration: Calibration) -> None:
    path = tmp_path / "calibration.toml"
    cal, note = load_or_default(path, 1280, 720)
    assert cal == calibration and "No calibration saved" in note
    path.write_text("garbage = [")
    cal, note = load_or_default(path, 1280, 720)
    assert cal == calibration and note.startswith("Calibration not used") and "TOML" in note
    save_calibration(path, calibration.nudged("4", 0, 1, 1))
    cal, note = load_or_default(path, 1280, 720)
    assert note is None and cal == calibration.nudged("4", 0, 1, 1)


def test_calibration_path(tmp_path, monkeypatch) -> None:
    assert calibration_path(tmp_path / "kiosk.toml") == tmp_path / "calibration.toml"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert calibration_path() == tmp_path / ".config" / "backgammon-table" / "calibration.toml"
