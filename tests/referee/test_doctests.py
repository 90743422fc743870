"""The examples in the referee's docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import kiosk.referee

MODULES = [m.name for m in pkgutil.iter_modules(kiosk.referee.__path__, "kiosk.referee.")]


@pytest.mark.parametrize("name", [*MODULES, "kiosk.table.sensing"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
