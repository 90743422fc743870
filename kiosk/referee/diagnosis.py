"""Why a settled board is not a legal partial play: the reason code and the words.

The board is compared with the last legal one (``base``): the men each side gained
and lost. Men of the adversary that moved are a wrong checker or a hit man put
astray; the mover's men are paired, farthest first, and each man's move is put to
the movement rules (:func:`kiosk.rules.checks.breach`). A board whose every man's
move is legal spoils the play as a whole (a number left unused).
"""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.referee.index import PlayIndex
from kiosk.referee.wording import breach_message, dice_text, name, numbers
from kiosk.rules import BAR, OFF, WHITE, Position, RuleProfile
from kiosk.rules.checks import Breach, breach, must_enter
from kiosk.table import describe, location, point_of, project

Verdict = tuple[str, str]


def diagnose(
    board: Mapping[str, tuple[int, int]],
    base: Position,
    index: PlayIndex,
    dice: tuple[int, int],
    profile: RuleProfile,
) -> Verdict:
    """The reason code and message for an illegal board, measured from ``base``."""
    layout = index.layout
    mover = base.turn
    adv = mover.other
    side = 0 if mover == WHITE else 1
    want = project(base, layout)
    gains: list[int] = []
    losses: list[int] = []
    adv_gain: list[str] = []
    adv_loss: list[str] = []
    for where in board:
        d = board[where][side] - want[where][side]
        gains += [point_of(mover, where)] * max(d, 0)
        losses += [point_of(mover, where)] * max(-d, 0)
        a = board[where][1 - side] - want[where][1 - side]
        adv_gain += [where] * max(a, 0)
        adv_loss += [where] * max(-a, 0)
    adv_bar = location(adv, BAR)
    hit_spots = [w for w in adv_loss if base.is_blot(adv, point_of(adv, w))]
    stray = [w for w in adv_gain if w != adv_bar]
    if adv_loss and not gains and not losses:
        return (
            "wrong-checker",
            f"That is {adv}'s man, and only your own men move: put it back on "
            f"{describe(adv_loss[0], mover)}.",
        )
    if stray and hit_spots and len(stray) <= len(hit_spots):
        return (
            "hit-not-on-bar",
            f"A man you hit goes to the bar, not to {describe(stray[0], mover)}: put it on "
            f"{adv}'s bar.",
        )
    if stray or len(adv_loss) > len(hit_spots):
        where = stray[0] if stray else adv_loss[0]
        return (
            "wrong-checker",
            f"Only your own men move: put {adv}'s man back ({describe(where, mover)}).",
        )
    if gains and not losses:
        capped = [
            p
            for p in range(25, 0, -1)
            if base.count(mover, p) >= layout.slots(location(mover, p))
        ]
        if not capped:
            where = location(mover, gains[0])
            return (
                "unknown",
                f"There is one man too many on {describe(where, mover)}: take it off and "
                "put it back where it came from.",
            )
        losses = capped[:1]
    if not gains:
        return (
            "unknown",
            "The men on the table match no legal play: put back the last man moved.",
        )
    pairs = zip(sorted(losses, reverse=True), sorted(gains, reverse=True), strict=False)
    for src, dst in pairs:
        left = dice_left(index, base)
        found = breach(base, src, dst, left)
        if found is not None:
            code = "wrong-distance" if found.rule == "backward" else found.rule
            dests = index.tree.destinations(base, src) if index.tree.node(base) else []
            men = base.count(mover, found.point) if found.point and found.point < 25 else 0
            message = breach_message(
                found, src, dst, dice, str(adv), left=left, dests=dests, men=men
            )
            return code, message
        base = _moved(base, src, dst)
    return spoils_play(index, dice, profile)


def dice_left(index: PlayIndex, position: Position) -> list[int]:
    """The most dice still to play at ``position`` (all of them if it is no partial play)."""
    node = index.tree.node(position)
    if node is not None:
        return list(max(node.dice_left, key=lambda left: len(tuple(left))))
    return list(index.tree.dice)


def spoils_play(index: PlayIndex, dice: tuple[int, int], profile: RuleProfile) -> Verdict:
    """Every man moved legally, but the play as a whole leaves a number unused."""
    used = {len(p.steps) for p in index.tree.plays}
    if dice[0] != dice[1] and used == {1} and profile.larger_die:
        larger = max(dice)  # neither number is played yet: the larger of the throw
        return (
            "must-use-larger",
            f"Only one number of {dice_text(dice)} can be played, so it must be the larger: "
            f"put the man back and play the {larger}.",
        )
    n = used.pop() if used else 0
    return (
        "must-use-both",
        f"That move leaves a number you could play unused: this throw must use {numbers(n)}. "
        "Put the man back and find a play that uses them all.",
    )


def unfinished(index: PlayIndex, dice: tuple[int, int]) -> Verdict:
    """Done pressed before the whole throw is played."""
    used = {len(p.steps) for p in index.tree.plays}
    n = used.pop() if used else 0
    return (
        "must-use-both",
        f"Your play is not finished: {dice_text(dice)} must use {numbers(n)} here. Play "
        "the rest of the throw, then press Done.",
    )


def cannot_move(position: Position, src: int, dice: tuple[int, int]) -> Verdict:
    """A man lifted that no number of the throw can move."""
    if must_enter(position) and src != BAR:
        return "bar-first", breach_message(Breach("bar-first"), src, src, dice)
    return (
        "cannot-move",
        f"The man on your {name(src)} point cannot move with {dice_text(dice)}: put it back "
        "and move another man.",
    )


def _moved(position: Position, src: int, dst: int) -> Position:
    mover = position.turn
    men = [list(position.men[0]), list(position.men[1])]
    off = list(position.off)
    men[mover][src - 1] -= 1
    if dst == OFF:
        off[mover] += 1
    else:
        men[mover][dst - 1] += 1
    return Position((men[0], men[1]), (off[0], off[1]), mover, validate=False)
