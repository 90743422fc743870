"""One project exception root (issue 32): every exception class ``kiosk`` defines derives from
:class:`kiosk.errors.TableError` and keeps its ordinary base, so a caller catches the
table's failures by name (the store's: :class:`~kiosk.store.StoreError`)."""

from __future__ import annotations

import importlib
import inspect
import os
from pathlib import Path

from kiosk.errors import TableError

ROOT = Path(__file__).resolve().parents[1] / "kiosk"
SKIP = ("kiosk.simtable.mpy", "kiosk.__main__")


def _modules() -> list[str]:
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if not name.startswith(SKIP):
            names.append(name)
    return names


def test_every_project_exception_is_a_table_error() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == name
            ):
                found[f"{name}.{attr}"] = value
    assert len(found) >= 25
    outside = sorted(name for name, cls in found.items() if not issubclass(cls, TableError))
    assert outside == []


def test_the_ordinary_bases_are_kept() -> None:
    from kiosk.rules import GameError, InvalidPositionError
    from kiosk.store import StoreError
    from kiosk.tutor.evaluators import EvaluatorError

    assert issubclass(GameError, ValueError) and issubclass(InvalidPositionError, ValueError)
    assert issubclass(StoreError, TableError) and issubclass(StoreError, ValueError)
    assert issubclass(EvaluatorError, RuntimeError)
