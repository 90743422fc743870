"""The examples in the application's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "kiosk.config",
    "kiosk.app.dice",
    "kiosk.app.events",
    "kiosk.app.lessons",
    "kiosk.app.menu",
    "kiosk.app.replay",
    "kiosk.display.view",
    "kiosk.events",
    "kiosk.app.modes",
    "kiosk.app.modes.attract",
    "kiosk.app.modes.entry",
    "kiosk.play.sessions",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
