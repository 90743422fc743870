"""Evaluators: how good a play is, in equity from the point of view of the side that played it.

Three implementations share the :class:`Evaluator` protocol, chosen when the coach is built:

* :class:`~kiosk.tutor.evaluators.gnubg_nn.GnubgNNEvaluator`: GNU Backgammon's neural
  nets in-process (the ``gnubg-nn`` wheel, x86-64 Linux);
* :class:`~kiosk.tutor.evaluators.gnubg_external.GnubgExternalEvaluator`: the Debian
  ``gnubg`` program kept running as one process and asked over its external-player
  socket (the Raspberry Pi's way);
* :class:`~kiosk.tutor.evaluators.builtin.BuiltinEvaluator`: a small numpy neural net
  distilled from GNU Backgammon's evaluations (:mod:`~kiosk.tutor.evaluators.train`).

Equities are cubeless money-game equities: +1 a sure single win, -1 a sure single loss,
gammons and backgammons counting double and triple.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from kiosk.errors import TableError
from kiosk.rules import Play, Position, RuleProfile

#: A play and its equity for the side that made it.
Scored = tuple[Play, float]


class EvaluatorError(TableError, RuntimeError):
    """The evaluator could not answer (its program died, timed out, or is missing)."""


@runtime_checkable
class Evaluator(Protocol):
    """Anything that can put an equity on a position and rank the plays of a roll."""

    #: Short name: ``gnubg-nn``, ``gnubg`` or ``builtin``.
    name: str

    def equity(self, after: Position) -> float:
        """The equity of ``after`` (the adversary on roll) for the side that just moved."""
        ...

    def evaluate_plays(
        self,
        position: Position,
        d1: int,
        d2: int,
        keep: Play | None = None,
        profile: str | RuleProfile | None = None,
    ) -> list[Scored]:
        """The legal plays worth considering, best first, each with its equity.

        ``keep`` is a play that must be in the answer, evaluated like the best one;
        ``profile`` (a rule profile or its name) decides which plays are legal.
        An evaluator may leave out plays that a quick look shows to be far worse.
        """
        ...

    def close(self) -> None:
        """Release what the evaluator holds (a process, a socket); safe to call twice."""
        ...


def cubeless_equity(probabilities: Sequence[float]) -> float:
    """Money equity from GNU Backgammon's five outputs: win, win gammon, win backgammon,
    lose gammon, lose backgammon (all for the side the outputs belong to).

    >>> round(cubeless_equity((0.5, 0.1, 0.0, 0.1, 0.0)), 3)
    0.0
    """
    win, win_g, win_bg, lose_g, lose_bg = probabilities[:5]
    return 2.0 * win - 1.0 + win_g + win_bg - lose_g - lose_bg


def rank_plays(
    plays: Sequence[Play],
    quick: Callable[[Position], float],
    deep: Callable[[Position], float] | None = None,
    keep: Play | None = None,
    width: int = 8,
    window: float = 0.16,
) -> list[Scored]:
    """Rank ``plays`` by ``quick``; with ``deep``, look again at the best few.

    As GNU Backgammon's move filter does: every play is scored by ``quick``, then the
    ``width`` best within ``window`` of the leader (and ``keep``) are scored by ``deep``,
    and only those are returned. Equities are for the side that played.
    """
    scored = sorted(((p, quick(p.result)) for p in plays), key=lambda s: -s[1])
    if deep is None:
        return scored
    if not scored:
        return []
    top = scored[0][1]
    chosen = [p for p, e in scored[:width] if top - e <= window]
    if keep is not None and keep not in chosen:
        chosen.append(keep)
    return sorted(((p, deep(p.result)) for p in chosen), key=lambda s: -s[1])


class PlyEvaluator:
    """Ranks plays like GNU Backgammon's move filter: every play at 0-ply, the best few at
    ``plies``. Subclasses provide ``_equity(after, plies)``."""

    plies: int

    def _equity(self, after: Position, plies: int) -> float:
        raise NotImplementedError

    def equity(self, after: Position) -> float:
        """The equity of ``after`` for the side that just moved, at ``plies``."""
        return self._equity(after, self.plies)

    def evaluate_plays(
        self,
        position: Position,
        d1: int,
        d2: int,
        keep: Play | None = None,
        profile: str | RuleProfile | None = None,
    ) -> list[Scored]:
        """The plays worth considering, best first (see :func:`rank_plays`)."""
        plays = position.legal_plays(d1, d2, profile)
        if self.plies == 0:
            return rank_plays(plays, lambda p: self._equity(p, 0))
        return rank_plays(
            plays, lambda p: self._equity(p, 0), lambda p: self._equity(p, self.plies), keep
        )
