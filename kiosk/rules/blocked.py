"""Why a throw cannot be played: the words a player reads when his turn is lost.

>>> from kiosk.rules import Position
>>> shut = Position.from_points(
...     {6: 5, 8: 3, 13: 5, 1: -3, 19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2}, bar=(1, 0))
>>> [play.steps for play in shut.legal_plays(6, 5) + shut.legal_plays(4, 4)]
[(), ()]
>>> why_no_play(shut, 6, 5)
"White's man on the bar cannot come in: black holds his 5 and 6 points."
>>> why_no_play(shut, 4, 4)
"White's man on the bar cannot come in: black holds his 4 point."
"""

from __future__ import annotations

from kiosk.rules.position import BAR, Position


def why_no_play(position: Position, d1: int, d2: int) -> str:
    """Why the side on roll in ``position`` has no legal play of ``d1``-``d2`` (a sentence;
    the position is assumed to have none)."""
    me = position.turn
    op = me.other
    dice = sorted({d1, d2})
    numbers = " and ".join(str(d) for d in dice)
    name, other = str(me).capitalize(), str(op)
    if position.bar(me):
        points = "points" if len(dice) > 1 else "point"
        return f"{name}'s man on the bar cannot come in: {other} holds his {numbers} {points}."
    overshoot = any(
        position.count(me, p) and p - d < 1 for p in range(1, BAR) for d in dice
    ) and not position.all_home(me)
    moves = " or ".join(str(d) for d in reversed(dice))
    why = f"each would land on a point {other} holds"
    if overshoot:
        why += ", or go off the board before all his men are home"
    return f"No man of {str(me)}'s can move {moves}: {why}."
