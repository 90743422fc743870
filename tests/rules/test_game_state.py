"""A game's state changes only through :class:`Game` (issue 9): its fields are read-only,
and no module outside the rules assigns to a game's position or phase."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kiosk.rules import BLACK, Game, GameError, Phase

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"


def test_position_and_phase_cannot_be_assigned() -> None:
    game = Game("modern")
    with pytest.raises(AttributeError):
        game.position = game.position  # type: ignore[misc]
    with pytest.raises(AttributeError):
        game.phase = Phase.OVER  # type: ignore[misc]


def test_the_side_on_roll_is_set_only_before_the_first_play() -> None:
    game = Game("modern", phase=Phase.ROLL)
    game.set_turn(BLACK)
    assert game.turn == BLACK
    game.roll(3, 1)
    with pytest.raises(GameError):
        game.set_turn(BLACK.other)
    assert game.turn == BLACK and game.dice == (3, 1)


def test_closing_a_game_ends_it_with_no_result() -> None:
    game = Game("modern", phase=Phase.ROLL)
    game.close()
    assert game.phase == Phase.OVER and game.result is None and game.dice is None


def _game_writes(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr in {"position", "phase", "_position", "_phase"}
                and "game" in ast.unparse(target.value).lower()
            ):
                lines.append(node.lineno)
    return lines


def test_no_module_outside_the_rules_writes_a_games_state() -> None:
    offenders = []
    for path in sorted(KIOSK.rglob("*.py")):
        if path.parent.name == "rules":
            continue
        for line in _game_writes(ast.parse(path.read_text(encoding="utf-8"))):
            offenders.append(f"{path.relative_to(KIOSK.parent)}:{line}")
    assert offenders == []


def test_the_check_finds_a_write() -> None:
    source = "self.game.position = p\ngame.phase = q\nx.position = 1"
    assert _game_writes(ast.parse(source)) == [1, 2]
