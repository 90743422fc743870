"""What the referee says: the plain words for each verdict, short enough for the display.

Points are named from the mover's side; ``describe`` names table locations.

>>> breach_message(Breach("bar-first"), 13, 10, (3, 1))
'You have a man on the bar: enter it before moving any other man.'
>>> name(25), name(0), name(8)
('bar', 'off', '8')
"""

from __future__ import annotations

from kiosk.rules import BAR, OFF
from kiosk.rules.checks import Breach


def name(point: int) -> str:
    """A point from the mover's side as notation writes it (``bar``, ``off``, ``8``)."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def dice_text(dice: tuple[int, int] | None) -> str:
    """The throw as players say it (``3-1``)."""
    return f"{dice[0]}-{dice[1]}" if dice else "the dice"


def numbers(n: int) -> str:
    """``1 number``, ``2 numbers``..."""
    return f"{n} {'number' if n == 1 else 'numbers'}"


def breach_message(
    breach: Breach, src: int, dst: int, dice: tuple[int, int] | None, adversary: str = ""
) -> str:
    """The words for a rule broken by one man moved ``src`` to ``dst``."""
    rule, point = breach.rule, breach.point
    if rule == "backward":
        return f"Men move forward only, toward your home table: not {name(src)} to {name(dst)}."
    if rule == "bar-first":
        return "You have a man on the bar: enter it before moving any other man."
    if rule == "bear-off-not-home":
        return f"You cannot bear off yet: your man on {name(point or src)} is not home."
    if rule == "bear-off-higher":
        top = max(dice) if dice else src
        return (
            f"A {top} bears off from a lower point only when none stand higher: "
            f"you have men on your {point} point."
        )
    if rule == "blocked-point" and point == dst:
        return f"Your {dst} point is held by {adversary}: you cannot stop there."
    if rule == "blocked-point":
        there = "off" if dst == OFF else f"your {name(dst)} point"
        return (
            f"On the way to {there}, your {point} point is held by {adversary}: "
            "a man may not stop there even between its two numbers."
        )
    if dst == OFF:
        return f"No number of {dice_text(dice)} bears off from your {src} point."
    distance = src - dst
    return (
        f"That man moved {distance} points from {name(src)} to {name(dst)}; "
        f"your dice {dice_text(dice)} do not add up to {distance}."
    )


def off_centre(where_words: str) -> str:
    """A man left where its slot cannot read it."""
    return f"Push the man on {where_words} into its place."


def reed_fault(where_words: str) -> str:
    """A switch whose reading has contradicted the game for a while."""
    return (
        f"The switches on {where_words} read differently from the game: play on; "
        "the referee follows the game there until they agree again."
    )
