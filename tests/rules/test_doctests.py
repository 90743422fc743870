"""The examples in the rules engine's docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import kiosk.rules

MODULES = [m.name for m in pkgutil.iter_modules(kiosk.rules.__path__, "kiosk.rules.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
