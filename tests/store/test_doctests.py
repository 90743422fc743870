"""The examples in the store's docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import kiosk.store

MODULES = [m.name for m in pkgutil.iter_modules(kiosk.store.__path__, "kiosk.store.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
