"""Plays made one man at a time: which partial plays can still become a legal play.

A player at the table moves men in any order; the referee needs every position
reachable by a *prefix* of a legal play, the steps that keep a partial play
completable, and where a lifted man may go.

>>> from kiosk.rules import Position
>>> tree = PlayTree(Position.standard(), 3, 1)
>>> after = tree.after(tree.start, Step(8, 5, 3))
>>> tree.is_partial(after), tree.is_complete(after)
(True, False)
>>> tree.destinations(tree.start, 6)
[5, 3, 2]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kiosk.rules.moves import (
    Play,
    Step,
    _apply,
    _undo,
    apply_step,
    from_arrays,
    generate,
    roll_dice,
    step_moves,
    to_arrays,
)
from kiosk.rules.position import Colour, Position


def _key(position: Position, mover: Colour | None = None) -> tuple[Any, ...]:
    """The mover-side arrays ``(*me, *op)`` of ``position`` seen from ``mover`` (by default
    the side on roll), built without a new position."""
    if mover is None or mover == position.turn:
        me, op = to_arrays(position)
        return (*me, *op)
    mine, theirs = position.men[mover], position.men[mover.other]
    return (position.off[mover], *mine, theirs[24], *theirs[23::-1], position.off[mover.other])


@dataclass(frozen=True)
class Node:
    """A partial play: the dice still to use (as sorted tuples; a position can be
    reached with different dice left only by bearing off with larger numbers) and the
    steps from here that keep a legal play in reach."""

    dice_left: frozenset[tuple[int, ...]]
    steps: tuple[tuple[Step, tuple[Any, ...]], ...]
    complete: bool


class PlayTree:
    """Every legal way to play one roll from one position, step by step."""

    def __init__(
        self,
        position: Position,
        d1: int,
        d2: int,
        larger_die: bool = True,
        plays: list[Play] | None = None,
    ) -> None:
        """``plays``: the roll's legal plays if already known (they are generated if not)."""
        self.start = position
        self.roll = (d1, d2)
        self.dice = roll_dice(d1, d2)
        self.plays: list[Play] = (
            list(plays) if plays is not None else generate(position, d1, d2, larger_die)
        )
        self._finals = {_key(p.result, position.turn): p for p in self.plays}
        self._nodes: dict[tuple[Any, ...], Node] = {}
        self._build()

    def _build(self) -> None:
        me, op = to_arrays(self.start)
        finals = self._finals
        memo: dict[tuple[Any, ...], bool] = {}
        edges: dict[tuple[Any, ...], dict[tuple[Any, ...], tuple[Any, ...]]] = {}
        left_seen: dict[tuple[Any, ...], set[Any]] = {}
        splits = _splits(self.dice)  # dice left -> (die to play, dice left after it)
        steps: dict[tuple[Any, ...], Step] = {}  # each step made once, however often it is met

        def explore(key: tuple[Any, ...], left: tuple[int, ...]) -> bool:
            """Whether a legal play is in reach from here (``key``: ``me`` and ``op`` now)."""
            memo_key = (key, left)
            known = memo.get(memo_key)
            if known is not None:
                return known
            ok = key in finals
            found = edges.get(key)
            for die, rest in splits[left]:
                for move in step_moves(me, op, die):
                    _apply(me, op, *move)
                    child = (*me, *op)
                    if explore(child, rest):
                        ok = True
                        if found is None:
                            found = edges[key] = {}
                        step = steps.get((move, die))
                        if step is None:
                            step = steps[move, die] = Step(*move[:2], die, move[2])
                        found[move] = (step, child)
                    _undo(me, op, *move)
            memo[memo_key] = ok
            if ok:
                left_seen.setdefault(key, set()).add(left)
            return ok

        explore((*me, *op), self.dice)
        for key, lefts in left_seen.items():
            out = tuple(edges.get(key, {}).values())
            self._nodes[key] = Node(frozenset(lefts), out, key in finals)

    # -- queries ----------------------------------------------------------------

    def node(self, position: Position) -> Node | None:
        """The partial play that ``position`` shows (mover still on roll), or ``None``."""
        if position.turn != self.start.turn:
            return None
        return self._nodes.get(_key(position))

    def is_partial(self, position: Position) -> bool:
        """Whether ``position`` is reached by the first steps of some legal play."""
        return self.node(position) is not None

    def is_complete(self, position: Position) -> bool:
        """Whether ``position`` shows a whole legal play (the mover still on roll)."""
        node = self.node(position)
        return node is not None and node.complete

    def play_for(self, position: Position) -> Play | None:
        """The legal play whose result ``position`` shows, if it is complete."""
        if position.turn != self.start.turn:
            return None
        return self._finals.get(_key(position))

    def next_steps(self, position: Position) -> list[tuple[Step, Position]]:
        """The steps from this partial play that keep a legal play in reach, with their results."""
        node = self.node(position)
        if node is None:
            return []
        mover = self.start.turn
        return [(step, from_arrays(k[:26], k[26:], mover)) for step, k in node.steps]

    def after(self, position: Position, step: Step) -> Position:
        """The position after one step (no legality check: see :meth:`next_steps`)."""
        return apply_step(position, step)

    def destinations(self, position: Position, src: int) -> list[int]:
        """Where a man lifted from ``src`` may be put down (one or more steps of that man).

        Highest point first; ``0`` means borne off.
        """
        found: set[int] = set()
        frontier = [(position, src)]
        seen: set[tuple[Position, int]] = set()
        while frontier:
            here, at = frontier.pop()
            for step, there in self.next_steps(here):
                if step.src == at and (there, step.dst) not in seen:
                    seen.add((there, step.dst))
                    found.add(step.dst)
                    frontier.append((there, step.dst))
        return sorted(found, reverse=True)

    def movable(self, position: Position) -> list[int]:
        """The points (``25`` for the bar) from which a man may legally be moved now."""
        node = self.node(position)
        return sorted({step.src for step, _ in node.steps}, reverse=True) if node else []

    def keyed(self) -> Iterator[tuple[tuple[int, ...], Node]]:
        """Every partial play as its mover-side arrays ``(*me, *op)`` (see
        :mod:`kiosk.rules.moves`), without building positions."""
        return iter(self._nodes.items())

    def position_of(self, key: tuple[int, ...]) -> Position:
        """The position of a partial play given by :meth:`keyed` (mover still on roll)."""
        return from_arrays(key[:26], key[26:], self.start.turn)

    def partials(self) -> Iterator[tuple[Position, Node]]:
        """Every partial play, the untouched start and the complete plays included."""
        mover = self.start.turn
        for key, node in self._nodes.items():
            yield from_arrays(key[:26], key[26:], mover), node


def _splits(dice: tuple[int, ...]) -> dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]:
    """For every multiset of dice that can be left, each distinct die to play next (larger
    first) with the dice left after it."""
    out: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}
    frontier = [dice]
    while frontier:
        left = frontier.pop()
        if left in out:
            continue
        out[left] = []
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            out[left].append((die, tuple(rest)))
            frontier.append(tuple(rest))
    return out
