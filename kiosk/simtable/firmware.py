"""Loads the table firmware's ``bgtable`` package from ``firmware/`` to run it under CPython."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

FIRMWARE_DIR = Path(
    os.environ.get("BGTABLE_FIRMWARE_DIR", Path(__file__).resolve().parents[2] / "firmware")
)


def load_firmware(module: str = "core") -> ModuleType:
    """The firmware module ``bgtable.<module>``, imported from ``FIRMWARE_DIR``."""
    if "bgtable" not in sys.modules:
        package = FIRMWARE_DIR / "bgtable"
        spec = importlib.util.spec_from_file_location(
            "bgtable", package / "__init__.py", submodule_search_locations=[str(package)]
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"no table firmware at {package}")
        loaded = importlib.util.module_from_spec(spec)
        sys.modules["bgtable"] = loaded
        try:
            spec.loader.exec_module(loaded)
        except OSError as exc:
            del sys.modules["bgtable"]
            raise ImportError(f"no table firmware at {package}: {exc}") from exc
    return importlib.import_module(f"bgtable.{module}")
