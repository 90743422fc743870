"""The movement rules as questions: may this man go from here to there with these dice?

Each rule is written once here and asked by whoever needs to know *why* a step is
not legal (the referee diagnosing a wrong placement). Points are counted from the
side on roll (``BAR`` 25, ``OFF`` 0), as everywhere in :mod:`kiosk.rules`.

>>> from kiosk.rules import Position
>>> start = Position.standard()
>>> closed(start, 19), closed(start, 18)
(True, False)
>>> breach(start, 24, 19, (6, 5))
Breach(rule='blocked-point', point=19)
>>> breach(start, 13, 8, (6, 5)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.rules.position import BAR, OFF, Position

#: The rules a single man's move can break, in the order they are asked.
RULES = (
    "backward",  # men move forward only
    "bar-first",  # a man on the bar enters before any other man moves
    "bear-off-not-home",  # men are borne off only when all are home
    "blocked-point",  # a point held by two adverse men is closed, even on the way
    "bear-off-higher",  # a larger number bears off from a lower point only if none stand higher
    "wrong-distance",  # the dice do not carry the man that far
)


@dataclass(frozen=True)
class Breach:
    """A rule a move breaks, with the point that shows it (where known).

    ``point`` is, by rule: the closed point (``blocked-point``), the farthest man not
    home (``bear-off-not-home``), the highest man standing above (``bear-off-higher``).
    """

    rule: str
    point: int | None = None


def closed(position: Position, point: int) -> bool:
    """Whether ``point`` (mover's numbering) is held by two or more adverse men."""
    return 1 <= point <= 24 and position.count(position.turn.other, 25 - point) >= 2


def must_enter(position: Position) -> bool:
    """Whether the mover has a man on the bar, which must enter before any other moves."""
    return position.bar(position.turn) > 0


def not_home(position: Position, leaving: int | None = None) -> list[int]:
    """The mover's points outside the home table (bar included), a man leaving ``leaving``
    not counted; empty when the mover may bear off."""
    mover = position.turn
    return [
        p for p in range(7, 26) if position.count(mover, p) - (p == leaving) > 0
    ]


def higher_men(position: Position, src: int) -> list[int]:
    """The home points above ``src`` where the mover has men."""
    return [p for p in range(src + 1, 7) if position.count(position.turn, p)]


def bears_off(position: Position, src: int, die: int) -> bool:
    """Whether ``die`` bears a man off from ``src`` (all men home assumed): the exact
    number, or a larger one when no man stands higher."""
    return die == src or (die > src and not higher_men(position, src))


def routes(dice: Iterable[int], distance: int) -> list[list[int]]:
    """The orders of dice (a subset of ``dice``) that carry one man exactly ``distance``."""
    found: list[list[int]] = []

    def walk(left: list[int], route: list[int], total: int) -> None:
        if total == distance and route:
            found.append(list(route))
            return
        if total >= distance:
            return
        for i, d in enumerate(left):
            if d in left[:i]:
                continue
            walk(left[:i] + left[i + 1 :], route + [d], total + d)

    walk(list(dice), [], 0)
    return found


def breach(position: Position, src: int, dst: int, dice: Iterable[int]) -> Breach | None:
    """The first rule broken by moving one of the mover's men from ``src`` to ``dst`` using
    some of ``dice`` (the numbers still to play), or ``None`` if some order of them is legal.

    Only this one man is considered; whether the whole throw is then used is a
    question for the play as a whole (:class:`kiosk.rules.PlayTree`).
    """
    dice = list(dice)
    if dst >= src:
        return Breach("backward")
    if must_enter(position) and src != BAR:
        return Breach("bar-first")
    if dst == OFF:
        return _bearing(position, src, dice)
    if closed(position, dst):
        return Breach("blocked-point", dst)
    ways = routes(dice, src - dst)
    if not ways:
        return Breach("wrong-distance")
    blocked = []
    for route in ways:
        here = src
        for die in route[:-1]:
            here -= die
            if closed(position, here):
                blocked.append(here)
                break
        else:
            return None
    return Breach("blocked-point", min(blocked))


def _bearing(position: Position, src: int, dice: list[int]) -> Breach | None:
    outside = not_home(position, leaving=src)
    if outside or src > 6:
        return Breach("bear-off-not-home", max(outside + ([src] if src > 6 else [])))
    if src in dice or any(sum(route) == src for route in routes(dice, src)):
        return None
    higher = higher_men(position, src)
    if any(bears_off(position, src, d) for d in dice):
        return None
    if higher and any(d > src for d in dice):
        return Breach("bear-off-higher", higher[-1])
    return Breach("wrong-distance")
