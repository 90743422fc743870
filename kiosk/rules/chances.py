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

from kiosk.rules.moves import Play, generate, roll_dice, step_moves, to_arrays
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
    dice = roll_dice(d1, d2)
    me, op = to_arrays(position)
    doublet = len(dice) == 4
    # The deepest sequences found so far and the hits (bits by point) of each one's first die.
    best = 0
    hits: dict[int, int] = {}

    # The search of moves.generate, with hits for the found positions: one walker shared
    # by both, calling back at each end, made the generator a quarter slower.
    def search(seq: tuple[int, ...], i: int, top: int, hit_mask: int) -> None:
        nonlocal best, hits
        moved = False
        if i < len(seq):
            die = seq[i]
            for s, t, hit in step_moves(me, op, die, top):
                moved = True
                me[s] -= 1
                me[t] += 1
                if hit:
                    op[t] = 0
                    op[0] += 1
                search(seq, i + 1, s if doublet else 25, hit_mask | (1 << t if hit else 0))
                me[s] += 1
                me[t] -= 1
                if hit:
                    op[t] = 1
                    op[0] -= 1
        if moved or i < best:
            return
        if i > best:
            best, hits = i, {}
        first = seq[0]
        hits[first] = hits.get(first, 0) | hit_mask

    search(dice, 0, 25, 0)
    if not doublet:
        search(dice[::-1], 0, 25, 0)
    if best == 1 and not doublet and larger_die and dice[0] in hits:
        mask = hits[dice[0]]
    else:
        mask = 0
        for m in hits.values():
            mask |= m
    return frozenset(p for p in range(1, 25) if mask >> p & 1)


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
