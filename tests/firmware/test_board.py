"""The Pico layer's row walk through the 74HC595 chain, against fake ``machine`` pins."""

from __future__ import annotations

import importlib.util
import sys
import types

import pytest

from kiosk.simtable.firmware import FIRMWARE_DIR, load_firmware


class FakeChip:
    """Three 74HC595 in a chain and 16 pulled-up column inputs, at register level."""

    def __init__(self, first_column: int) -> None:
        self.shift = 0
        self.latched = 0
        self.levels = {}
        self.closed: set[tuple[int, int]] = set()
        self.first_column = first_column

    def set(self, pin: int, level: int) -> None:
        rising = level and not self.levels.get(pin, 0)
        self.levels[pin] = level
        if rising and pin == 3:  # SRCLK
            self.shift = ((self.shift << 1) | self.levels.get(2, 0)) & 0xFFFFFF
        if rising and pin == 4:  # RCLK
            self.latched = self.shift

    def gpio_in(self) -> int:
        selected = {row for row in range(24) if not self.latched >> row & 1}
        value = 0xFFFFFFFF
        for row, column in self.closed:
            if row in selected:
                value &= ~(1 << (self.first_column + column))
        return value


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> tuple[types.ModuleType, FakeChip]:
    load_firmware("core")
    chip = FakeChip(first_column=6)

    class Pin:
        OUT, IN, PULL_UP = 1, 0, 1

        def __init__(self, pin: int, mode: int = 0, pull: int | None = None, value=None):
            self.pin = pin
            if value is not None:
                chip.set(pin, value)

        def value(self, level: int | None = None) -> int | None:
            if level is None:
                return 1
            chip.set(self.pin, level)
            return None

    class Registers:
        def __getitem__(self, address: int) -> int:
            assert address == 0xD0000004
            return chip.gpio_in()

    machine = types.ModuleType("machine")
    machine.Pin = Pin
    machine.mem32 = Registers()
    micropython = types.ModuleType("micropython")
    micropython.native = lambda function: function
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    spec = importlib.util.spec_from_file_location("board", FIRMWARE_DIR / "board.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, chip


def test_each_row_reads_only_its_own_switches(board) -> None:
    module, chip = board
    matrix = module.DiodeMatrix()
    chip.closed = {(0, 0), (5, 15), (23, 7), (23, 8)}
    rows = matrix.scan()
    assert rows[0] == 1 and rows[5] == 1 << 15 and rows[23] == 0b11 << 7
    assert sum(1 for r in rows if r) == 3
    assert matrix.idle() == 0


def test_a_stuck_column_shows_with_no_row_selected(board) -> None:
    module, chip = board
    matrix = module.DiodeMatrix()
    chip.gpio_in = lambda: ~(1 << (6 + 3)) & 0xFFFFFFFF
    assert matrix.idle() == 1 << 3
