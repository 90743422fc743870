"""The chances of the dice: the 36 rolls, and how many of them hit a blot.

Counts are exact: each roll is played out by the move generator, so closed
points in between, men on the bar that must enter first, and doublets that
must step four times are all taken into account.

>>> from kiosk.rules import Position, WHITE, BLACK
>>> # a white blot on its 10 point, a black man 6 points away (black's 21 is white's 4)
>>> p = Position.from_points({10: 1, 4: -1})
>>> shots(p, WHITE, 10)
17
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kiosk.rules.moves import Play, generate, legal_ends
from kiosk.rules.position import Colour, Position


def all_rolls() -> Iterator[tuple[int, int, int]]:
    """The 21 distinct rolls with how many of the 36 each stands for: ``(d1, d2, ways)``."""
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            yield d1, d2, 1 if d1 == d2 else 2


def _hitters(play: Play, target: int) -> set[int]:
    """The starting points of the men in ``play`` that hit on ``target`` (mover's numbering)."""
    starts: set[int] = set()
    for i, step in enumerate(play.steps):
        if step.hit and step.dst == target:
            src = step.src
            for earlier in reversed(play.steps[:i]):
                if earlier.dst == src:
                    src = earlier.src
            starts.add(src)
    return starts


def shots(
    position: Position, colour: Colour, point: int, attackers: Iterable[int] | None = None
) -> int:
    """How many of the 36 rolls let the adversary hit ``colour``'s blot on ``point``.

    ``point`` is in ``colour``'s numbering. With ``attackers`` (points in the
    adversary's numbering), only hits by men starting there count.
    """
    if not position.is_blot(colour, point):
        raise ValueError(f"{colour} has no blot on point {point}")
    attacker = colour.other
    board = position.with_turn(attacker)
    target = 25 - point
    wanted = set(attackers) if attackers is not None else None
    total = 0
    for d1, d2, ways in all_rolls():
        for play in generate(board, d1, d2):
            hitters = _hitters(play, target)
            if hitters and (wanted is None or hitters & wanted):
                total += ways
                break
    return total


def hit_points(position: Position, d1: int, d2: int, larger_die: bool = True) -> frozenset[int]:
    """The points (the side on roll's numbering) on which some legal play of ``d1``-``d2``
    hits: the hits of :meth:`Position.legal_plays`, found without building the plays.

    >>> from kiosk.rules import BLACK, Position
    >>> # a white blot on its 10 point (black's 15), a black man on black's 21 point
    >>> sorted(hit_points(Position.from_points({10: 1, 4: -1}, turn=BLACK), 4, 2))
    [15]
    """
    ends = legal_ends(position, d1, d2, larger_die)
    return frozenset(step.dst for _key, steps in ends for step in steps if step.hit)


def shots_by_attacker(position: Position, colour: Colour, point: int) -> dict[int, int]:
    """For each adverse point holding men, how many of the 36 rolls let a man from there hit.

    Points are in the adversary's numbering (25 is his bar); points with no hitting roll
    are left out.
    """
    attacker = colour.other
    counts = {}
    for src in range(1, 26):
        if position.count(attacker, src):
            n = shots(position, colour, point, attackers=[src])
            if n:
                counts[src] = n
    return counts


def entering_chances(open_points: int) -> int:
    """How many of the 36 rolls enter a man from the bar when ``open_points`` of six are open."""
    if not 0 <= open_points <= 6:
        raise ValueError("between 0 and 6 points can be open")
    return 36 - (6 - open_points) ** 2
