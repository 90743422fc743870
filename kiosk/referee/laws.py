"""Laws mode: the books' laws at the table, where a wrong move may stand.

In teaching mode every illegal placement must be put right at once. In laws mode a
lifted man must be played (touch-move), and a play finished wrongly is offered to
the adversary, who may accept it; it then stands as the table shows it. Men borne
off while a man is up (and, by Foster's law, before all are home) go back to the bar.
"""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.rules import OFF, WHITE, Colour, Position, RuleProfile
from kiosk.table import TableLayout, point_of, true_counts

WRONG_MOVE_LAW = (
    "A wrong move stands once the adversary has thrown without claiming it "
    "(Cady law 11; Crawley law 5; Foster law 9)."
)
PENALTY_LAW = (
    "Men borne off while a man is up must be entered again (Cady law 12; Crawley "
    "law 4); Foster's law 13 puts them on the bar, and does the same for men borne "
    "off before all are home."
)


def shown_position(
    board: Mapping[str, tuple[int, int]], last: Position, layout: TableLayout, turn: Colour
) -> Position:
    """The whole position the table shows, using the last known counts where slots cap them."""
    base = true_counts(last)
    men: list[list[int]] = [[0] * 25, [0] * 25]
    off = [0, 0]
    for colour in (WHITE, WHITE.other):
        side = 0 if colour == WHITE else 1
        for where, counts in board.items():
            if where.startswith(("bar-", "off-")) and not where.endswith(str(colour)):
                continue
            n = counts[side]
            if n >= layout.slots(where):
                n = max(n, base[where][side])
            point = point_of(colour, where)
            if point == OFF:
                off[colour] = n
            else:
                men[colour][point - 1] += n
    return Position((men[0], men[1]), (off[0], off[1]), turn, validate=False)


def bearing_penalty(
    wrong: Position, start: Position, profile: RuleProfile
) -> tuple[Position, int] | None:
    """The wrong move with men wrongly borne off put on the bar, and how many; ``None``
    when no man was borne off against the laws."""
    mover = start.turn
    borne = wrong.off[mover] - start.off[mover]
    man_up = start.bar(mover) > 0
    not_home = not start.all_home(mover) and profile.name.startswith("foster")
    if borne <= 0 or not (man_up or not_home):
        return None
    men = [list(wrong.men[0]), list(wrong.men[1])]
    off = list(wrong.off)
    off[mover] -= borne
    men[mover][24] += borne
    return Position((men[0], men[1]), (off[0], off[1]), mover, validate=False), borne


#: The books' rules a refusal in Russian backgammon cites, by reason code, by book and
#: section (never by a line of a transcription); the words are :func:`kiosk.referee.
#: wording.russian_refusal`'s.
RUSSIAN_LAWS = {
    "bar-first": "A man on the bar enters before any other man moves (Cady, Russian "
    "Backgammon; Foster, Russian backgammon).",
    "blocked": "A point held by two or more adverse men is closed, as in the ordinary game "
    "(Cady, Russian Backgammon; Cady, The Restrictions in Playing).",
    "not-home": "Men are borne off only once every man is in the home table, as in the "
    "ordinary game (Cady, Russian Backgammon; Cady, Bearing).",
    "enter-two": "The first throw must enter two men (Foster, Russian backgammon).",
    "no-die": "Each man moves by the number of one die of the part being played, a doublet "
    "four times and then its opposite (Cady, Russian Backgammon; Foster, Russian backgammon).",
}
