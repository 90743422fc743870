"""Why a placement is illegal: reason codes, plain words, and the rule or law behind each.

Messages are short enough for the table's display; ``law`` is the citation the
"why?" button shows in full.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reason:
    """A reason code with its citation."""

    code: str
    law: str


REASONS: dict[str, Reason] = {
    r.code: r
    for r in (
        Reason(
            "blocked-point",
            "A point held by two or more adverse men is closed: a man may pass it but not "
            "stop on it, not even on the way with both dice (Cady, The Restrictions in "
            "Playing; Foster, The Moves; Parker, Rules Governing Play).",
        ),
        Reason(
            "wrong-distance",
            "Each die moves one man that many points forward, or one man takes both dice "
            "in turn (Cady, Playing; Foster, The Moves). A wrong number of points may be "
            "corrected (Cady law 11; Foster laws 9-10).",
        ),
        Reason(
            "bar-first",
            "A man on the bar must enter in the adversary's home table before any other "
            "man moves (Cady, Hitting a Blot; Foster, The Moves; Parker, Capture).",
        ),
        Reason(
            "bear-off-not-home",
            "Men are borne off only when all of a side's men are in its home table; a man "
            "hit after bearing began must come round again first (Cady, Bearing; Foster, "
            "law 13).",
        ),
        Reason(
            "bear-off-higher",
            "A number higher than any occupied point bears off from the highest point; "
            "while a man stands higher, the number must be played up inside the table "
            "(Cady, Bearing; Hoffmann, Bearing off the Men).",
        ),
        Reason(
            "wrong-checker",
            "Only the side on roll moves, and only its own men; an adverse man goes to the "
            "bar only when it is hit (Cady, Hitting a Blot; Cady law 8).",
        ),
        Reason(
            "hit-not-on-bar",
            "A blot that is hit is taken up and put on the bar, from where it must enter "
            "again (Cady, Hitting a Blot; Hoffmann, Playing; Crawley, Ch. III).",
        ),
        Reason(
            "must-use-both",
            "The whole throw must be played if it can be; only a number that cannot be "
            "played is lost (Cady law 10; Foster law 12; Crawley, Ch. III).",
        ),
        Reason(
            "must-use-larger",
            "When either number could be played but not both, the larger must be played "
            "(Foster law 12; today's rules).",
        ),
        Reason(
            "not-your-turn",
            "The players move in turn, each after his own throw (Cady, Throwing and Playing).",
        ),
        Reason(
            "answer-the-double",
            "A double is answered, taken or passed, before the game goes on: no man moves "
            "while it waits (the doubling cube, today's rules).",
        ),
        Reason(
            "throw-first",
            "A player moves only after throwing the dice and calling the throw (Cady, "
            "Playing; Foster law 8).",
        ),
        Reason(
            "cannot-move",
            "A man that has no legal move under the dice cannot be played; choose another "
            "(Cady law 8: touching such a man costs nothing).",
        ),
        Reason(
            "touch-move",
            "A man lifted from a point must be played if it can be (Crawley law 1; Foster "
            "law 11; Cady law 8).",
        ),
        Reason(
            "setup",
            "The adversary may require a wrongly set board to be put right before the "
            "first throw (Cady law 1; Foster law 1).",
        ),
        Reason(
            "not-the-tables-move",
            "Playing against the table, the visitor moves the table's men for it, exactly "
            "as the table shows its play; the rules of the game are the same as ever.",
        ),
        Reason(
            "unknown",
            "The men on the table match no legal play of this throw.",
        ),
    )
}


def law(code: str) -> str:
    """The citation for a reason code."""
    return REASONS[code].law
