"""The project's one exception root: every failure the table's own code raises is a
:class:`TableError`, so a caller may catch the table's failures by name, and only them.

Each project exception keeps its ordinary base too (python-chess's small ``ValueError``
subclasses are the model): an invalid position is a ``ValueError`` as before, and a
``TableError``.

>>> from kiosk.rules import GameError, InvalidPositionError
>>> issubclass(GameError, TableError), issubclass(InvalidPositionError, ValueError)
(True, True)
"""

from __future__ import annotations


class TableError(Exception):
    """A failure of the table's own code, with a message in words (never a traceback)."""
