"""One place decides when the modes change (issue 9): ``kiosk/app/transitions.py``. A mode
only leaves the stack or opens its own submenu; nothing else changes the stack."""

from __future__ import annotations

import ast
from pathlib import Path

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
ALLOWED = {KIOSK / "app" / "transitions.py", KIOSK / "app" / "modes" / "__init__.py"}
CHANGES = {"push", "pop", "drop", "insert", "reset"}


def _stack_changes(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in CHANGES
        ):
            owner = ast.unparse(node.func.value)
            if owner.endswith(("modes", "stack")):
                lines.append(node.lineno)
    return lines


def test_only_the_transitions_change_the_mode_stack() -> None:
    offenders = [
        f"{path.relative_to(KIOSK.parent)}:{line}"
        for path in sorted(KIOSK.rglob("*.py"))
        if path not in ALLOWED
        for line in _stack_changes(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offenders == []


def test_the_check_finds_a_change() -> None:
    source = "app.modes.push(m)\nself.stack.pop(self)\nitems.pop()\nself.leave()"
    assert _stack_changes(ast.parse(source)) == [1, 2]

