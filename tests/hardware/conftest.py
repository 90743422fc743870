"""The hardware modules (``hardware/geometry.py``, ``field.py``, ``documents.py``) import
each other by their plain names, as ``python hardware/documents.py`` runs them."""

from __future__ import annotations

import sys
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))
