"""What the referee says: the plain words for each verdict, short enough for the display.

Every refusal says why, then what to do: where the man may go, or what to put right.
Points are named from the mover's side; ``describe`` names table locations.

>>> breach_message(Breach("bar-first"), 13, 10, (3, 1)).split(": ")[0]
'You have a man on the bar'
>>> print(breach_message(Breach("wrong-distance"), 13, 12, (3, 1), dests=[10, 9]))
... # doctest: +NORMALIZE_WHITESPACE
That man moved 1 point, from 13 to 12, but the numbers to play are 3 and 1: it moves by one
of them, or by both in turn. It may go to your 10 or 9 points.
>>> name(25), name(0), name(8)
('bar', 'off', '8')
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.rules import BAR, OFF, Colour
from kiosk.rules.checks import Breach


def name(point: int) -> str:
    """A point from the mover's side as notation writes it (``bar``, ``off``, ``8``)."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def dice_text(dice: tuple[int, int] | None) -> str:
    """The throw as players say it (``3-1``)."""
    return f"{dice[0]}-{dice[1]}" if dice else "the dice"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 point``, ``2 points``; ``words`` for an irregular plural (``men``)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def numbers(n: int) -> str:
    """``1 number``, ``2 numbers``..."""
    return plural(n, "number")


def either(items: Sequence[str], joiner: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {joiner} " + items[-1]


def places(points: Sequence[int]) -> str:
    """Where a man may go, as a player says it: ``your 10 or 7 point``, ``off``."""
    numbered = [str(p) for p in points if p not in (OFF, BAR)]
    words = [f"your {either(numbered)} {'point' if len(numbered) == 1 else 'points'}"]
    words = words if numbered else []
    if OFF in points:
        words.append("off")
    return either(words)


def may_go(src: int, dests: Sequence[int] | None) -> str:
    """What to do with a man refused: where it may go from ``src``, or put it back."""
    if dests:
        return f"It may go to {places(sorted(set(dests), reverse=True))}."
    return f"Put it back on {'the bar' if src == BAR else f'your {name(src)} point'}."


def _die_left(src: int, left: Sequence[int] | None, dice: tuple[int, int] | None) -> int:
    """The die a man on ``src`` was borne off with: the lowest still to play that is
    higher than its point (the die actually left, not the higher of the throw)."""
    pool = list(left) if left else list(dice or ())
    higher = [d for d in pool if d > src]
    return min(higher) if higher else max(pool, default=src)


def breach_message(
    breach: Breach,
    src: int,
    dst: int,
    dice: tuple[int, int] | None,
    adversary: str = "",
    *,
    left: Sequence[int] | None = None,
    dests: Sequence[int] | None = None,
    men: int = 0,
) -> str:
    """The words for a rule broken by one man moved ``src`` to ``dst``: why, then what to
    do. ``left`` are the dice still to play, ``dests`` where that man may go instead,
    ``men`` how many stand on the point a rule names."""
    rule, point = breach.rule, breach.point
    then = may_go(src, dests)
    if rule == "backward":
        return (
            f"Men move forward only, toward your home table: not {name(src)} to "
            f"{name(dst)}. {then}"
        )
    if rule == "bar-first":
        return (
            "You have a man on the bar: enter it before moving any other man. "
            f"Put this man back on your {name(src)} point."
        )
    if rule == "bear-off-not-home":
        away = point or src
        return (
            f"You cannot bear off yet: your man on {name(away)} is not home. Put this man "
            f"back and bring every man into your home table first."
        )
    if rule == "bear-off-higher":
        die = _die_left(src, left, dice)
        who = f"a man on your {point} point" if men <= 1 else f"{men} men on your {point} point"
        return (
            f"A {die} bears off from a lower point only when no man stands higher, and you "
            f"have {who}. Put this man back and play the {die} from higher up."
        )
    if rule == "blocked-point" and point == dst:
        return f"Your {dst} point is held by {adversary}: you cannot stop there. {then}"
    if rule == "blocked-point":
        there = "off" if dst == OFF else f"your {name(dst)} point"
        return (
            f"On the way to {there}, your {point} point is held by {adversary}: a man may "
            f"not stop there even between its two numbers. {then}"
        )
    if dst == OFF:
        return f"No number of {dice_text(dice)} bears off from your {src} point. {then}"
    pool = sorted(set(left or dice or ()), reverse=True)
    if len(pool) > 1:
        rule_words = (
            f"the numbers to play are {either([str(d) for d in pool], 'and')}: it moves by one "
            "of them, or by both in turn"
        )
    else:
        rule_words = f"the number left is {pool[0] if pool else 'none'}"
    return (
        f"That man moved {plural(src - dst, 'point')}, from {name(src)} to {name(dst)}, but "
        f"{rule_words}. {then}"
    )


def hit_to_bar(adversary: Colour | str, shared: Sequence[str], mover: Colour) -> str:
    """Done pressed while a man that was hit is still off the bar: why, and what to do."""
    from kiosk.table import describe

    where = f" is still on {describe(shared[0], mover)}" if shared else " is not on the bar"
    return (
        f"The {adversary} man you hit{where}: put it on {adversary}'s bar, then press "
        "Done again."
    )


def not_your_done(turn: Colour | str) -> str:
    """Done pressed by the side not on roll."""
    return f"It is {turn}'s turn to play: {turn} presses Done when the play is finished."


def answer_double_first(doubler: Colour) -> str:
    """A man moved while ``doubler``'s double waits for its answer.

    >>> answer_double_first(Colour.BLACK)
    'Black has doubled: white takes or passes before any man moves. Put the men back.'
    """
    return (
        f"{str(doubler).capitalize()} has doubled: {doubler.other} takes or passes before any "
        "man moves. Put the men back."
    )


def throw_first(mover: Colour | str) -> str:
    """A man moved before the dice are thrown."""
    return f"{mover}: the dice come first. Put the man back and throw the dice before moving."


def touch_move(src: int) -> str:
    """Laws mode: a man lifted must be played."""
    return (
        f"You lifted the man on your {name(src)} point, and by the laws a man touched must "
        "be played: play that man."
    )


def off_centre(where_words: str, own: bool, colour: Colour | str) -> str:
    """A man the table does not read at ``where_words``: held in the hand, or put down
    off his reed (an occupancy table cannot tell which), worded to be right either way.

    >>> words = off_centre("your 8 point", own=True, colour="white")
    >>> print(words)  # doctest: +NORMALIZE_WHITESPACE
    The man from your 8 point is not read yet: put it down on its point,
    pushed right into its place.
    >>> off_centre("your 12 point", own=False, colour="black")
    'A black man is missing from your 12 point: put it back, pushed right into its place.'
    """
    if own:
        return (
            f"The man from {where_words} is not read yet: put it down on its point, pushed "
            "right into its place."
        )
    return (
        f"A {colour} man is missing from {where_words}: put it back, pushed right into its "
        "place."
    )


def reed_fault(where_words: str) -> str:
    """A switch whose reading has contradicted the game for a while."""
    return (
        f"The switches on {where_words} read differently from the game: play on; "
        "the referee follows the game there until they agree again."
    )


# -- Russian backgammon ------------------------------------------------------------------


def russian_refusal(
    reason: str,
    part: Sequence[int],
    moved: int | None = None,
    point: int | None = None,
    holders: int = 0,
    adversary: str = "",
    dests: Sequence[str] = (),
) -> str:
    """A Russian placement refused: why, in the books' rules, and what to do. ``part`` are
    the numbers of the part being played (a doublet's four, or the two dice), ``moved``
    how far the man went, ``point`` the common track's point it stopped on, ``holders``
    the adverse men there, ``dests`` (in words) where the man may go instead.

    >>> print(russian_refusal("no-die", (6, 4), moved=3, dests=("point 6",)))
    ... # doctest: +NORMALIZE_WHITESPACE
    That man went 3 points, and the numbers to play are 6 and 4: each man moves by one of
    them, or one man by both. It may go to point 6.
    """
    then = f"It may go to {either(list(dests))}." if dests else "Put it back where it was."
    if reason == "bar-first":
        return (
            "Your man on the bar enters before any other man moves. Put this man back and "
            "enter that one."
        )
    if reason == "blocked":
        return (
            f"Point {point} is held by {plural(holders, 'man', 'men')} of {adversary}'s: "
            f"a man may not stop there. {then}"
        )
    if reason == "enter-two":
        return "Your first throw must enter two men from the tray. Enter a second man instead."
    if reason == "not-home":
        return (
            "Bear off only once every man is in the home table. Put this man back and "
            "bring the rest home first."
        )
    numbers_ = sorted(set(part), reverse=True)
    said = either([str(n) for n in numbers_], "and")
    if len(numbers_) > 1:
        how = "each man moves by one of them, or one man by both"
    else:
        how = f"each man moves {numbers_[0] if numbers_ else 'by one die'} at a time"
    went = f"That man went {plural(moved, 'point')}, and " if moved else ""
    the = "the numbers to play are" if len(numbers_) > 1 else "the number to play is"
    text = f"{went}{the} {said}: {how}."
    return f"{text[0].upper()}{text[1:]} {then}"
