"""GNU Backgammon's neural-net evaluation in-process, from the ``gnubg-nn`` wheel.

The wheel (module ``gnubg_nn``; older builds called it ``gnubg``) exists for x86-64
Linux only; :func:`load_module` says whether it is importable here.

Its board is GNU Backgammon's ``TanBoard``: two lists of 25 counts, the side *not* on
roll first, each side counted from its own ace point with index 24 its bar. That is
exactly how :class:`~kiosk.rules.Position` keeps ``men``, so :func:`tan_board` only
orders the two sides.

>>> from kiosk.rules import Position
>>> board = tan_board(Position.standard())
>>> board[1][5], board[1][23], len(board[0])
(5, 2, 25)
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType

from kiosk.rules import Position
from kiosk.tutor.evaluators import EvaluatorError, PlyEvaluator, cubeless_equity

MODULE_NAMES = ("gnubg_nn", "gnubg")


def load_module() -> ModuleType | None:
    """The gnubg-nn module if it can be imported here, else ``None``."""
    for name in MODULE_NAMES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "probabilities"):
            return module
    return None


def tan_board(position: Position) -> list[list[int]]:
    """GNU Backgammon's board for ``position``: ``[side not on roll, side on roll]``."""
    return [list(position.men[position.turn.other]), list(position.men[position.turn])]


class GnubgNNEvaluator(PlyEvaluator):
    """GNU Backgammon's evaluation at ``plies`` (0 is the bare net, 2 its usual strength).

    Every play is looked at with the bare net; the few best are then evaluated at
    ``plies``, as GNU Backgammon's own move filter does.
    """

    name = "gnubg-nn"

    def __init__(self, plies: int = 2, module: ModuleType | None = None) -> None:
        if not 0 <= plies <= 3:
            raise ValueError(f"plies are 0 to 3, not {plies}")
        found = module or load_module()
        if found is None:
            raise EvaluatorError("the gnubg-nn module is not installed on this machine")
        self.module: ModuleType = found
        self.plies = plies
        # The extension keeps a global evaluation cache: one caller at a time.
        self._lock = threading.Lock()

    def _equity(self, after: Position, plies: int) -> float:
        with self._lock:
            outputs = self.module.probabilities(tan_board(after), plies)
        return -cubeless_equity(outputs)

    def chances(self, position: Position) -> tuple[float, ...]:
        """The five chances of the side on roll in ``position`` at ``plies``."""
        with self._lock:
            return tuple(self.module.probabilities(tan_board(position), self.plies))

    def close(self) -> None:
        """Nothing to release."""
