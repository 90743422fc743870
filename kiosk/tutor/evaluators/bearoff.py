"""Exact chances in a short race of men all home: a one-sided bear-off count.

When both sides have every man in their home tables, no contact is left and each has
borne off at least one man (so no gammon is possible), the race is decided by how many
throws each side needs. For one side's men on its points 1-6, :func:`rolls_to_finish`
gives the chance of bearing the last man off in exactly 1, 2, 3... throws, each throw
played to finish soonest on average; the side on roll wins when it needs no more throws
than the other. Positions of up to :data:`MEN` men a side are worked out when first met
and kept.

>>> round(win_chance((0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0)), 4)   # a 2 to bear off first
1.0
>>> round(win_chance((0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 1)), 4)   # two men on the six
0.2789
"""

from __future__ import annotations

from functools import cache

from kiosk.rules import Position

MEN = 10  # the most men a side may have left for the count to be used
ROLLS = [(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]

Home = tuple[int, int, int, int, int, int]


@cache
def _steps(home: Home, die: int) -> tuple[Home, ...]:
    """Every way to play one die: a man moved down, or borne off."""
    out = []
    highest = max((p for p in range(6) if home[p]), default=-1)
    for p in range(6):
        if not home[p]:
            continue
        point = p + 1
        if point > die:
            nxt = list(home)
            nxt[p] -= 1
            nxt[p - die] += 1
            out.append(tuple(nxt))
        elif point == die or p == highest:
            nxt = list(home)
            nxt[p] -= 1
            out.append(tuple(nxt))
    return tuple(out)


def _plays(home: Home, dice: tuple[int, ...]) -> set[Home]:
    """The homes a throw can leave (as many dice used as can be)."""
    orders = [dice] if len(set(dice)) == 1 else [dice, dice[::-1]]
    ends: dict[Home, int] = {}
    for order in orders:
        frontier = {home: 0}
        for die in order:
            nxt: dict[Home, int] = {}
            for h, used in frontier.items():
                steps = _steps(h, die) if sum(h) else ()
                for after in steps:
                    nxt[after] = max(nxt.get(after, 0), used + 1)
                if not steps:
                    nxt[h] = max(nxt.get(h, 0), used)
            frontier = nxt
        for h, used in frontier.items():
            ends[h] = max(ends.get(h, 0), used)
    most = max(ends.values())
    return {h for h, used in ends.items() if used == most}


@cache
def rolls_to_finish(home: Home) -> tuple[float, ...]:
    """The chance of bearing the last man off in exactly 1, 2, 3... throws (index 0 is 1)."""
    if not sum(home):
        return ()
    total: list[float] = []
    for a, b, weight in ROLLS:
        dice = (a,) * 4 if a == b else (a, b)
        best = min(_plays(home, dice), key=_expected)
        after = (1.0,) if not sum(best) else (0.0, *rolls_to_finish(best))
        for n, chance in enumerate(after):
            if n == len(total):
                total.append(0.0)
            total[n] += chance * weight / 36
    return tuple(total)


@cache
def _expected(home: Home) -> float:
    return sum((n + 1) * c for n, c in enumerate(rolls_to_finish(home)))


def win_chance(on_roll: Home, other: Home) -> float:
    """The chance that the side on roll bears off all its men first."""
    mine, theirs = rolls_to_finish(on_roll), rolls_to_finish(other)
    later = 1.0  # the other side needs at least n throws
    win = 0.0
    for n, chance in enumerate(mine):
        win += chance * later
        if n < len(theirs):
            later -= theirs[n]
    return win


def homes(position: Position) -> tuple[Home, Home] | None:
    """Each side's home (on roll first) if the count applies: every man home, none on the
    bar, at least one borne off, at most :data:`MEN` left; else ``None``."""
    out = []
    for colour in (position.turn, position.turn.other):
        if position.bar(colour) or not position.off[colour]:
            return None
        home = tuple(position.count(colour, p) for p in range(1, 7))
        if sum(home) + position.off[colour] != 15 or sum(home) > MEN:
            return None
        out.append(home)
    return out[0], out[1]
