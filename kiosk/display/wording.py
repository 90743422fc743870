"""The view's words: what each event says to the players, in plain English.

The view (:mod:`kiosk.display.view`) keeps the state and decides who reads what; the words
are made here, so they can be read (and changed) in one place. Where a pair is returned,
the first is for the player himself and the second for the visitor reading for the table's
side in a game against it.

>>> threw(6, 6)[1]
'The table threw 6-6: a doublet, so it moves 6 four times.'
>>> played("")[0]
'You played nothing (no legal move).'
"""

from __future__ import annotations

from kiosk.display.payloads import Correction
from kiosk.rules import Colour
from kiosk.table.sensing import describe, point_of

Pair = tuple[str, str]  # (to the player, to the visitor for the table's side)

THROW_AGAIN = "The bonus is played: throw again."
THINK_FIRST = "Think first: where it may go is not shown. Press Done when your play is made."
HINTS_USED_UP = "Hints used up this turn: only where the man may go is shown."
#: The same, short, on the board beside the lifted man (a lesson's text holds the line).
THINK_FIRST_NOTE = "Think first: no hints until Done"
HINTS_USED_UP_NOTE = "Hints used up: legal moves only"
#: The graded destinations' legend, best first (the grades of kiosk.tutor.hints).
GRADE_WORDS: dict[str, str] = {"best": "Best", "fair": "Costs a little", "costly": "Costs more"}


def hints_left(left: int) -> str:
    """How many graded lifts a hint budget has left this turn.

    >>> hints_left(0), hints_left(1), hints_left(2)
    ('Last graded hint this turn', '1 graded hint left this turn', '2 graded hints left this turn')
    """
    if left <= 0:
        return "Last graded hint this turn"
    return f"{left} graded hint{'s' if left != 1 else ''} left this turn"


YOUR_TURN: Pair = ("Your turn: throw the dice.", "The table's turn: throw the dice for it.")


def doublet_words(d1: int, d2: int) -> str:
    """What a throw plays: a doublet plays its number four times.

    >>> doublet_words(3, 3), doublet_words(6, 5)
    ('3-3: a doublet, so you move 3 four times', '6-5')
    """
    return f"{d1}-{d2}: a doublet, so you move {d1} four times" if d1 == d2 else f"{d1}-{d2}"


def threw(d1: int, d2: int) -> Pair:
    """A throw, said to the player who threw it."""
    words = doublet_words(d1, d2)
    return f"You threw {words}.", f"The table threw {words.replace('you move', 'it moves')}."


def fine(dice: tuple[int, int] | None) -> str:
    """A wrong placement put right."""
    more = f" Go on playing {dice[0]}-{dice[1]}." if dice else ""
    return f"That is fine.{more}"


def played(move: str) -> Pair:
    """A play made, said to its maker."""
    made = move or "nothing (no legal move)"
    return f"You played {made}.", f"The table played {made}."


def table_own(move: str, text: str) -> str:
    """The table's own line when it plays."""
    return f"I play {move}." if move else text


def table_plays(move: str) -> str:
    """The visitor is asked to move the table's men."""
    return f"The table plays {move}: move its men as the arrows show."


def set_up(restored: bool, over: bool = False) -> str:
    """The men are laid out (``over``: as a game that is over ended)."""
    if restored and over:
        return "The board is as the game ended: Done starts a new game."
    return "The board is restored. Play on." if restored else "The board is set. Throw to start."


def may_take_back(name: str) -> str:
    """The other player's line while a play may still be taken back."""
    return f"{name} may take the play back first; if not, throw."


def first_play(
    starter: str, other: str, white: int, black: int, starter_name: str
) -> tuple[Pair, str]:
    """The opening throw decided who starts with those two dice: to the starter (or the
    visitor for the table), and to the other player."""
    mine, theirs = (white, black) if starter == "white" else (black, white)
    to_starter = (
        f"You start: you threw {mine}, {other} threw {theirs}. "
        f"Play {white}-{black}: move your men, then press Done.",
        f"The table starts: it threw {mine}, you threw {theirs}. Its play of "
        f"{white}-{black} follows.",
    )
    return to_starter, f"{starter_name} starts and plays {white}-{black}."


def double_offered(doubler: str, taker: str, stake: int, to_table: bool) -> Pair:
    """A double: the question to the taker, and the doubler's wait."""
    ask = f"{doubler} doubles to {stake}. Select: take, Back: pass."
    wait = (
        f"You double to {stake}: the table is thinking about it."
        if to_table
        else f"You double to {stake}: {taker} answers (Select takes, Back passes)."
    )
    return ask, wait


def table_takes(value: int) -> str:
    """The table took the visitor's double."""
    return f"The table takes: the cube is at {value}. Throw the dice."


def taken(value: int, taker: str, doubler: str) -> tuple[str, Pair]:
    """A double taken: to the taker, and to the doubler (or the visitor for the table)."""
    return (
        f"You take: the cube is at {value} and yours. {doubler} throws.",
        (
            f"{taker} takes: the cube is at {value}. Throw the dice.",
            f"You take: the cube is at {value}. Throw the dice for the table.",
        ),
    )


def game_over(
    reader: str,
    winner: str,
    loser: str,
    names: dict[str, str],
    result: str,
    points: int,
    passed: bool,
) -> str:
    """The result as ``reader`` reads it (``names``: each colour as the words name it)."""
    worth = f"{points} point{'s' if points != 1 else ''}"
    how = f"a {result} game ({worth})" if not passed else f"{worth}: {{}} passed the double"
    if reader == winner:
        return "You won " + how.format(names[loser]) + "."
    who = "you" if reader == loser else names[loser]
    return f"{names[winner]} wins " + how.format(who) + "."


def setup_todo(corrections: tuple[Correction, ...]) -> str:
    """What is left to lay out, counted (not a telling-off one man at a time)."""
    place = sum(max(0, c.want - c.have) for c in corrections)
    away = sum(max(0, c.have - c.want) for c in corrections)
    todo = []
    if place and place == away:  # men moved: each marked one goes to a pale one
        todo.append(f"move the {place} marked with a cross onto them")
    else:
        if place:
            todo.append(f"{place} {'man' if place == 1 else 'men'} to place")
        if away:
            todo.append(f"{away} marked with a cross to take away")
    return f"Lay the men out as the pale men show: {' and '.join(todo)}."


def setup_words(correction: Correction, reader: str) -> str:
    """One location still to put right while laying out, in ``reader``'s own numbering
    (the other colour's own number beside it).

    >>> setup_words(Correction("19", "black", 4, 5), "white")
    "Put 1 more black man on your 19 point (black's 6 point)."
    >>> setup_words(Correction("6", "white", 7, 5), "white")
    'Take 2 white men off your 6 point.'
    """
    where, colour = correction.table, Colour.parse(correction.colour)
    diff = correction.want - correction.have
    men = "man" if abs(diff) == 1 else "men"
    place = describe(where, Colour.parse(reader))
    if str(colour) != reader and where.isdigit():
        place += f" ({colour}'s {point_of(colour, where)} point)"
    if diff > 0:
        return f"Put {diff} more {colour} {men} on {place}."
    return f"Take {-diff} {colour} {men} off {place}."


def russian_words(move: str) -> str:
    """A Russian play in plain words, for a newcomer who does not read the notation (the
    common track's points, numbered from where both sides enter).

    >>> russian_words("hand/4 hand/6")
    'entered men on points 4 and 6'
    >>> for part in russian_words("hand/3*/4 12/18(2)").split("; "):
    ...     print(part)
    entered a man on point 3, hitting, and moved it on to point 4
    moved 2 men from point 12 to point 18
    >>> russian_words("hand/4(2) hand/6")
    'entered 2 men on point 4 and a man on point 6'
    >>> russian_words("bar/2 20/off")
    'entered a man from the bar on point 2; bore a man off from point 20'
    """
    entered: list[tuple[str, int]] = []
    said: list[str] = []
    for token in move.split():
        count = 1
        if token.endswith(")") and "(" in token:
            token, times = token[:-1].split("(")
            count = int(times)
        parts = token.split("/")
        hits = [p.rstrip("*") for p in parts[1:] if p.endswith("*")]
        points = [p.rstrip("*") for p in parts]
        src, path = points[0], points[1:]
        men = "a man" if count == 1 else f"{count} men"
        if src == "hand" and len(path) == 1 and not hits:
            entered.append((path[0], count))
            continue
        if src in ("hand", "bar"):
            words = f"entered {men}{' from the bar' if src == 'bar' else ''} on point {path[0]}"
        elif path[-1] == "off":
            words = f"bore {men} off from point {src}"
        else:
            words = f"moved {men} from point {src} to point {path[-1]}"
        if hits and src in ("hand", "bar"):
            words += ", hitting"
            if len(path) > 1:
                words += f", and moved {'it' if count == 1 else 'them'} on to point {path[-1]}"
        elif hits:
            words += f", hitting on point {hits[0]}"
        said.append(words)
    if entered and all(count == 1 for _, count in entered) and len(entered) > 1:
        points = [point for point, _ in entered]
        said.insert(0, f"entered men on points {', '.join(points[:-1])} and {points[-1]}")
    elif entered:
        each = [f"{'a man' if n == 1 else f'{n} men'} on point {p}" for p, n in entered]
        tail = f"{', '.join(each[:-1])} and {each[-1]}" if len(each) > 1 else each[0]
        said.insert(0, f"entered {tail}")
    return "; ".join(said)
