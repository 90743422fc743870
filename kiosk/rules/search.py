"""The legal-play search, written once for every variant: each way to play a throw that
uses as many of its dice as can be used, one per distinct result.

A variant gives its single steps (``moves``: every ``(src, dst, hit)`` one die allows, on
mover-side arrays ``me`` and ``op`` in which index 0 of ``op`` is the adversary's bar, where
a hit man goes) and how a step is written down (``make``); the search walks every order
of the dice, keeps the plays that use the most dice and, where only one of two different
numbers can be played, those that play the larger (``larger_die``). The ordinary game
(:func:`kiosk.rules.position.legal_ends`) and Russian backgammon
(:mod:`kiosk.rules.russian`) both call it.

A doublet's steps may come in any order; ``top`` keeps one of them: after a step from
``src`` the next may start at ``src`` or below (the ordinary game's ``moves`` reads its
``top`` so), and ``memo`` skips a state already searched with the same dice left (for
variants whose ``moves`` ignore ``top``).

>>> from kiosk.rules.notation import Step
>>> from kiosk.rules.position import Position, step_moves, to_arrays
>>> me, op = to_arrays(Position.standard())
>>> ends = most_dice(me, op, (3, 1), step_moves, Step, top=25)
>>> len(ends), ends[0][1]
(16, (Step(src=24, dst=21, die=3, hit=False), Step(src=24, dst=23, die=1, hit=False)))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar


class _Step(Protocol):
    @property
    def die(self) -> int: ...


S = TypeVar("S", bound=_Step)  # a variant's step

#: A variant's single steps for one die: ``moves(me, op, die, top)`` -> ``(src, dst, hit)``.
Moves = Callable[[list[int], list[int], int, int], Iterable[tuple[int, int, bool]]]
#: How a variant writes a step down: ``make(src, dst, die, hit)``.
Make = Callable[[int, int, int, bool], S]


def most_dice(
    me: list[int],
    op: list[int],
    dice: tuple[int, ...],
    moves: Moves,
    make: Make[S],
    *,
    top: int,
    larger_die: bool = True,
    memo: bool = False,
) -> list[tuple[tuple[int, ...], tuple[S, ...]]]:
    """Every legal play of ``dice`` (two different numbers, larger first, or a doublet's
    four) as ``(key, steps)``: ``key`` the mover-side arrays ``(*me, *op)`` after it.

    ``me`` and ``op`` are changed while searching and left as they were.
    """
    found: dict[tuple[int, ...], tuple[S, ...]] = {}
    best = 0
    path: list[S] = []
    doublet = len(dice) == 4
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] | None = set() if memo else None

    def search(seq: tuple[int, ...], i: int, above: int) -> None:
        nonlocal best, found
        if seen is not None:
            state = ((*me, *op), seq[i:])
            if state in seen:
                return
            seen.add(state)
        moved = False
        if i < len(seq):
            die = seq[i]
            for s, t, hit in moves(me, op, die, above):
                moved = True
                # a step made and taken back in place: this loop is the hot path
                me[s] -= 1
                me[t] += 1
                if hit:
                    op[t] = 0
                    op[0] += 1
                path.append(make(s, t, die, hit))
                search(seq, i + 1, s if doublet else top)
                path.pop()
                me[s] += 1
                me[t] -= 1
                if hit:
                    op[t] = 1
                    op[0] -= 1
        if moved or i < best:
            return
        if i > best:
            best, found = i, {}
        key = (*me, *op)
        if key not in found:
            found[key] = tuple(path)

    search(dice, 0, top)
    if not doublet:  # larger die first: a one-die result reached by either is the larger's
        search(dice[::-1], 0, top)
    items = list(found.items())
    if best == 1 and not doublet and larger_die:
        items = [(k, p) for k, p in items if p[0].die == dice[0]] or items
    return items
