"""What the built-in evaluator's net reads besides the men themselves: the features the
books teach, computed from the mover's side of the position after a play.

The position is read with :func:`sides`: the race by pip count, blots weighted by how many
of the 36 rolls hit them and how far a hit man goes back, points made (the five, four and
bar points above all), anchors in the adversary's board, primes and the men caught behind
them, the home board against men on the bar, men crowded on low points or in tall stacks,
and men left behind. Contact positions and races have separate feature lists.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules import Position
from kiosk.rules.chances import all_rolls

ROLLS = tuple(all_rolls())

#: Names of the contact features, in the order of :func:`contact_features`.
CONTACT_FEATURES: tuple[str, ...] = (
    "bias",
    "pip_lead",
    "hit_rolls",
    "hit_pips",
    "hit_x_board",
    "double_hit",
    "opp_bar",
    "opp_bar_x_board",
    *(f"made_{p}" for p in range(1, 14)),
    *(f"spares_{p}" for p in (6, 8, 13)),
    *(f"anchor_{p}" for p in range(18, 25)),
    "prime_4",
    "prime_5",
    "prime_6",
    "trapped",
    "opp_prime",
    "back_men",
    "back_x_opp_prime",
    "back_blots",
    "stack_excess",
    "low_men",
    "builders",
    "outfield_coverage",
    "opp_blots_home",
    "opp_blots",
    "home_blots_x_opp_bar",
    "home_blots",
    "outfield_blots",
    "off",
    "opp_off",
    "opp_home_points",
)

#: Names of the race features, in the order of :func:`race_features`.
RACE_FEATURES: tuple[str, ...] = (
    "bias",
    "pip_lead",
    "pip_ratio",
    "off",
    "opp_off",
    "outside",
    "opp_outside",
    "gaps",
    "stack_excess",
    "high_men",
    "low_men",
    "on_board",
    *(f"home_{p}" for p in range(1, 7)),
)


def sides(after: Position) -> tuple[list[int], list[int]]:
    """Mover-side arrays of ``after``: ``me[p]`` the mover's men on its point ``p`` (25 bar,
    0 borne off), ``op[p]`` the adversary's men on the mover's point ``p`` (0 his bar, 25
    borne off)."""
    mover = after.turn.other
    mine, theirs = after.men[mover], after.men[after.turn]
    me = [after.off[mover], *mine]
    op = [theirs[24], *theirs[23::-1], after.off[after.turn]]
    return me, op


def is_contact(me: list[int], op: list[int]) -> bool:
    """Whether a mover's man still has an adverse man ahead of it."""
    rear = max((p for p in range(25, 0, -1) if me[p]), default=0)
    front = min((p for p in range(0, 25) if op[p]), default=25)
    return rear > front


#: Every point a man may stop on (1-24), as bits of an int (bit ``p`` for point ``p``).
_BOARD = ((1 << 25) - 1) & ~1


def _mask(points: Any) -> int:
    out = 0
    for p in points:
        out |= 1 << p
    return out


def reach_masks(me: list[int], op: list[int]) -> list[tuple[int, int, int, int]]:
    """For each of the 21 rolls, ``(d1, d2, ways, blots)``: the mover's blots (bit ``p`` for
    point ``p``) some man of the adversary could reach with it, entering from the bar first
    and stopping only on open points. It may name a hit that the rules then forbid (it does
    not play the whole roll out), but it never misses one. No blots: an empty list."""
    blots = 0
    closed = 0
    for p in range(1, 25):
        if me[p] == 1:
            blots |= 1 << p
        elif me[p] >= 2:
            closed |= 1 << p
    if not blots:
        return []
    open_ = _BOARD & ~closed
    # The adversary's men as distances: a man on the mover's point q moves up, to q + d.
    sources = _mask(q for q in range(1, 25) if op[q])
    on_bar = op[0]
    out = []
    for d1, d2, ways in ROLLS:
        reach = 0
        if d1 == d2:
            steps, front = 4, sources
            if on_bar:
                if not open_ >> d1 & 1:
                    out.append((d1, d2, ways, 0))
                    continue
                steps -= min(on_bar, 4)
                front = (front if on_bar <= 4 else 0) | 1 << d1
                reach = front & blots & 1 << d1
            for _ in range(steps):
                front = front << d1 & open_
                reach |= front
        elif on_bar >= 2:
            reach = (1 << d1 | 1 << d2) & open_
        elif on_bar == 1:
            for enter, other in ((d1, d2), (d2, d1)):
                if open_ >> enter & 1:
                    reach |= 1 << enter | (sources | 1 << enter) << other
        else:
            for a, b in ((d1, d2), (d2, d1)):
                stop = sources << a & open_
                reach |= stop | stop << b
        out.append((d1, d2, ways, reach & blots))
    return out


def hit_counts(me: list[int], op: list[int]) -> tuple[dict[int, int], int, int]:
    """How the adversary's next roll can hit the mover's blots (a quick count for the
    evaluator, from :func:`reach_masks`).

    Returns the shots at each blot (by point), the rolls of 36 hitting at least one, and
    the rolls hitting two.
    """
    per_blot = {p: 0 for p in range(1, 25) if me[p] == 1}
    any_hit = double_hit = 0
    for _d1, _d2, ways, reach in reach_masks(me, op):
        if reach:
            any_hit += ways
            if reach & (reach - 1):
                double_hit += ways
            for p in per_blot:
                if reach >> p & 1:
                    per_blot[p] += ways
    return per_blot, any_hit, double_hit


def _longest_run(made: list[bool], lo: int, hi: int) -> tuple[int, int]:
    """The longest run of made points in ``lo..hi``: (length, its highest point)."""
    best = (0, 0)
    run = 0
    for p in range(lo, hi + 1):
        run = run + 1 if made[p] else 0
        if run > best[0]:
            best = (run, p)
    return best


def contact_features(me: list[int], op: list[int]) -> list[float]:
    """The contact feature vector (see :data:`CONTACT_FEATURES`)."""
    made = [False] + [me[p] >= 2 for p in range(1, 25)] + [False]
    opp_made = [False] + [op[p] >= 2 for p in range(1, 25)] + [False]
    my_pips = sum(p * me[p] for p in range(1, 26))
    opp_pips = sum((25 - q) * op[q] for q in range(0, 25))
    per_blot, any_hit, double_hit = hit_counts(me, op)
    hit_pips = sum(n * (25 - p) for p, n in per_blot.items()) / (36 * 25)
    opp_home = sum(1 for q in range(19, 25) if opp_made[q])
    my_home = sum(1 for p in range(1, 7) if made[p])
    prime, prime_top = _longest_run(made, 1, 24)
    trapped = sum(op[q] for q in range(0, prime_top - prime + 1)) if prime >= 4 else 0
    opp_prime, opp_top = _longest_run(opp_made, 1, 24)
    opp_prime_low = opp_top - opp_prime + 1
    back_men = sum(me[p] for p in range(19, 26))
    behind_opp_prime = sum(me[p] for p in range(opp_top + 1, 26)) if opp_prime >= 3 else 0
    builders = sum(max(0, me[p] - 2) if made[p] else me[p] for p in range(4, 12))
    coverage = sum(1 for p in range(7, 13) if me[p])
    opp_blots_home = sum(1 for q in range(1, 7) if op[q] == 1)
    opp_blots = sum(1 for q in range(1, 25) if op[q] == 1)
    home_blots = sum(1 for p in range(1, 7) if me[p] == 1)
    return [
        1.0,
        (opp_pips - my_pips) / 100.0,
        any_hit / 36.0,
        hit_pips,
        any_hit / 36.0 * opp_home / 6.0,
        double_hit / 36.0,
        float(op[0]),
        op[0] * my_home / 6.0,
        *(float(made[p]) for p in range(1, 14)),
        *(max(0, me[p] - 2) / 5.0 for p in (6, 8, 13)),
        *(float(made[p]) for p in range(18, 25)),
        float(prime >= 4),
        float(prime >= 5),
        float(prime >= 6),
        trapped / 15.0 * min(prime, 6) / 6.0,
        min(opp_prime, 6) / 6.0 * (1 if opp_prime_low > 12 else 0.5),
        back_men / 15.0,
        behind_opp_prime / 15.0 * min(opp_prime, 6) / 6.0,
        sum(1 for p in range(19, 25) if me[p] == 1) / 2.0,
        sum(max(0, me[p] - 3) for p in range(1, 25)) / 15.0,
        sum(me[p] for p in range(1, 4)) / 15.0,
        builders / 15.0,
        coverage / 6.0,
        opp_blots_home / 6.0,
        opp_blots / 6.0,
        home_blots * op[0] / 6.0,
        home_blots / 6.0,
        sum(1 for p in range(7, 19) if me[p] == 1) / 6.0,
        me[0] / 15.0,
        op[25] / 15.0,
        opp_home / 6.0,
    ]


def race_features(me: list[int], op: list[int]) -> list[float]:
    """The race feature vector (see :data:`RACE_FEATURES`)."""
    my_pips = sum(p * me[p] for p in range(1, 26))
    opp_pips = sum((25 - q) * op[q] for q in range(0, 25))
    home = [me[p] for p in range(1, 7)]
    top = max((p for p in range(1, 7) if me[p]), default=0)
    return [
        1.0,
        (opp_pips - my_pips) / 100.0,
        (opp_pips - my_pips) / max(1.0, opp_pips + my_pips) * 2.0,
        me[0] / 15.0,
        op[25] / 15.0,
        sum(me[p] for p in range(7, 26)) / 15.0,
        sum(op[q] for q in range(0, 19)) / 15.0,
        sum(1 for p in range(1, top) if not home[p - 1]) / 6.0,
        sum(max(0, me[p] - 3) for p in range(1, 7)) / 15.0,
        sum(me[p] for p in range(4, 7)) / 15.0,
        sum(me[p] for p in range(1, 4)) / 15.0,
        (15 - me[0]) / 15.0,
        *(me[p] / 15.0 for p in range(1, 7)),
    ]


def feature_vector(after: Position) -> tuple[str, list[float]]:
    """``("contact" | "race", features)`` for the position after a play, mover's side."""
    me, op = sides(after)
    if is_contact(me, op):
        return "contact", contact_features(me, op)
    return "race", race_features(me, op)
