"""Legal plays: every way to play a roll, one entry per distinct resulting position.

A *step* moves one man by one die; a *play* is the steps of a whole turn.
Points are counted from the mover's side: ``BAR`` is 25 and ``OFF`` is 0.
The generator lives beside :class:`~kiosk.rules.position.Position`, which answers
``legal_plays``; this module names it for the helpers that work step by step (the
referee's partial plays, the oracles) and adds the steps made one at a time
(:func:`apply_step`; ``_apply`` and ``_undo`` in place on the arrays).

>>> from kiosk.rules import Position
>>> plays = Position.standard().legal_plays(3, 1)
>>> len(plays)
16
>>> '8/5 6/5' in [str(p) for p in plays]
True
"""

from __future__ import annotations

from kiosk.rules.notation import Step
from kiosk.rules.position import (
    Play,
    Position,
    from_arrays,
    generate,
    legal_ends,
    roll_dice,
    step_moves,
    to_arrays,
)

__all__ = [
    "Play",
    "Step",
    "_apply",
    "_undo",
    "apply_step",
    "from_arrays",
    "generate",
    "legal_ends",
    "roll_dice",
    "step_moves",
    "to_arrays",
]


def _apply(me: list[int], op: list[int], s: int, t: int, hit: bool) -> None:
    me[s] -= 1
    me[t] += 1
    if hit:
        op[t] = 0
        op[0] += 1


def _undo(me: list[int], op: list[int], s: int, t: int, hit: bool) -> None:
    me[s] += 1
    me[t] -= 1
    if hit:
        op[t] = 1
        op[0] -= 1


def apply_step(position: Position, step: Step) -> Position:
    """The position after one step of the side on roll (no legality check), still on roll."""
    me, op = to_arrays(position)
    _apply(me, op, step.src, step.dst, step.hit)
    return from_arrays(me, op, position.turn)
