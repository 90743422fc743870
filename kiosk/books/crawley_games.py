"""Crawley's two recorded games, turn by turn, for replaying on the table and in tests.

Source: "Captain Rawdon Crawley", *Backgammon: Its Theory and Practice* (1858), Ch. III,
"First Game" and "Second Game": ``shared/books/003_cb84f7dcf7cee574.txt`` lines 361-593.
Every ``line`` below is a line of that file.

L plays black and F plays white [003:359]. The book names a point by its number within
one half of the board, 1-12, and the side it lies on, b (black's) or w (white's); see
:func:`to_point`. Each move here is in GNU Backgammon notation from the mover's own side
(points 1-24, bar 25, off 0). Where the book's wording needed reading, ``note`` says how
it was read and why; the notes are ours, not the book's.

>>> FIRST_GAME.turns[2].player, FIRST_GAME.turns[2].move
('L', '24/18(2)')
>>> to_point('7w', 'L'), to_point('7w', 'F')
(18, 7)
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCE = "shared/books/003_cb84f7dcf7cee574.txt"

PLAYERS = {"L": "black", "F": "white"}


def to_point(label: str, player: str) -> int:
    """The point that the book's ``label`` ("12w", "3b") names, in ``player``'s own numbering.

    For L (black) ``Nb`` is N and ``Nw`` is 25 - N; for F (white) ``Nw`` is N and ``Nb`` is
    25 - N. So ``1w`` is where L's two back men start and ``1b`` where F's do.
    """
    number, side = int(label[:-1]), label[-1].lower()
    if player not in PLAYERS or side not in "bw" or not 1 <= number <= 12:
        raise ValueError(f"not a point of Crawley's notation for {player!r}: {label!r}")
    own = "b" if player == "L" else "w"
    return number if side == own else 25 - number


@dataclass(frozen=True)
class BookTurn:
    """One throw as the book records it, and what the book says came of it."""

    player: str  # 'L' (black) or 'F' (white)
    dice: tuple[int, int]  # as printed
    move: str  # GNU Backgammon notation, mover's numbering; "" when no man can move
    line: int
    note: str = ""  # our reading, where the book is loose, ambiguous or wrong
    hit: bool = False  # the book says a man is taken up
    makes: int | None = None  # the book says this point (mover's numbering) is made or covered
    unplayed: int = 0  # how many of the numbers thrown the book says cannot be played
    leaves_blot: bool = False  # the book says the play leaves a blot
    all_home: bool = False  # the book says all the mover's men are now home
    passed: bool = False  # the book says the two sides' men have all passed each other
    vacant: int | None = None  # the book says this many points of the mover's table are empty


@dataclass(frozen=True)
class BookGame:
    """One recorded game: the starting cast, the turns, and the result the book gives."""

    title: str
    line: int
    opening: tuple[int, int]  # the starting cast: (F's die, L's die), one die each
    opening_played: bool  # the winner of the cast played it (else he threw afresh)
    opening_line: int
    opening_note: str
    turns: tuple[BookTurn, ...]
    winner: str  # 'L' or 'F'
    result: str  # 'single', 'gammon' or 'backgammon'
    result_line: int


T = BookTurn

FIRST_GAME = BookGame(
    title="First Game",
    line=361,
    opening=(2, 5),
    opening_played=False,
    opening_line=365,
    opening_note="L's 5 beats F's 2; L does not care to open with that cast and throws both "
    "dice afresh (the winner's option of Crawley's rules).",
    turns=(
        T(
            "L",
            (1, 1),
            "8/7(2) 6/5(2)",
            367,
            "The throw is not given a player; it is L's fresh "
            "throw after refusing the 5-2 of the cast [365].",
        ),
        T("F", (5, 4), "13/9 13/8", 369),
        T("L", (3, 3), "24/18(2)", 371, makes=18),
        T("F", (5, 2), "9/4 6/4", 373),
        T("L", (6, 1), "13/7 6/5", 375),
        T("F", (5, 3), "8/3 6/3", 377),
        T("L", (6, 3), "8/2 5/2", 379),
        T(
            "F",
            (6, 5),
            "13/2",
            381,
            "12b to 2w can only go by way of F's 8: L has held 7w (F's 7) since line 371.",
        ),
        T("L", (3, 1), "13/9", 383),
        T("F", (4, 2), "8/2", 385, "'Covering man' is the blot F left on 2w at line 381.", makes=2),
        T("L", (6, 2), "13/5", 387),
        T(
            "F",
            (6, 6),
            "8/2(2)",
            389,
            "The book says the other two sixes cannot be played; every six is indeed blocked.",
            unplayed=2,
        ),
        T("L", (4, 3), "13/10 13/9", 391),
        T(
            "F",
            (3, 1),
            "24/21 2/1",
            393,
            "The ace is given only as 'from 2w'; the ace takes it to F's 1.",
        ),
        T(
            "L",
            (5, 1),
            "9/4* 5/4",
            395,
            "'From 9' is 9b; the man hit is the one F moved to 4b at line 393.",
            hit=True,
            makes=4,
        ),
        T(
            "F",
            (3, 4),
            "bar/22 13/9",
            397,
            "Dice printed smaller first: the 3 enters on 3b, the 4 plays 12b to 9w.",
        ),
        T("L", (6, 1), "18/12* 10/9", 399, hit=True),
        T(
            "F",
            (3, 2),
            "bar/22 9/7*",
            401,
            "The 3 enters on 3b, the 2 plays 9w to 7w and "
            "hits L's man left alone there at line 399.",
            hit=True,
        ),
        T(
            "L",
            (3, 1),
            "bar/24* 12/9",
            403,
            "The ace enters on 1w, hitting F's man put there at line 393; the 3 plays 12b to 9b.",
            hit=True,
        ),
        T("F", (5, 1), "bar/24 22/17", 405, "'From 3' is 3b, where F has two men."),
        T("L", (3, 1), "9/8*/5", 407, hit=True),
        T(
            "F",
            (4, 2),
            "",
            409,
            "F is on the bar and L holds 4b and 2b, the only entries.",
            unplayed=2,
        ),
        T("L", (5, 4), "24/15", 411),
        T("F", (6, 5), "", 413, "Still on the bar: L holds 6b and 5b.", unplayed=2),
        T("L", (6, 3), "15/6", 415),
        T(
            "F",
            (1, 1),
            "bar/24 7/5 6/5",
            417,
            "'From 7 to 5' is F's man on 7w (from line 401), moved by two aces.",
            makes=5,
        ),
        T("L", (6, 4), "9/3* 7/3", 419, hit=True, makes=3),
        T("F", (1, 1), "bar/24 2/1(3)", 421),
        T("L", (6, 5), "9/3 7/2", 423),
        T("F", (3, 2), "4/2 4/1", 425),
        T(
            "L",
            (6, 3),
            "7/4 6/off",
            427,
            "The last man comes home with the 3 and the 6 bears a man off in the same throw.",
            all_home=True,
        ),
        T("F", (4, 4), "6/2(2) 5/1(2)", 429),
        T(
            "L",
            (4, 1),
            "4/off 3/2",
            431,
            "The ace cannot bear off: F's men hold L's ace point, so it is played 3 to 2.",
        ),
        T("F", (2, 1), "3/2 3/1", 433),
        T(
            "L",
            (4, 2),
            "4/off 2/off",
            435,
            "The blot is the man left on the 4 point.",
            leaves_blot=True,
        ),
        T("F", (6, 5), "24/13", 437),
        T(
            "L",
            (5, 4),
            "5/off 4/off",
            439,
            "'Takes off' names no points; read as one man "
            "each from the 5 and the 4, the only play that bears off two (the other legal "
            "play, 6/2 5/off, bears off one).",
        ),
        T("F", (4, 2), "13/7", 441),
        T("L", (6, 3), "6/3 6/off", 443),
        T("F", (5, 2), "24/17", 445),
        T(
            "L",
            (6, 4),
            "5/off",
            447,
            "Men on 5, 3 and 2 with F on L's ace point: the 6 bears "
            "from the 5, the highest point, and the 4 can neither move (5 to 1 is blocked) nor "
            "bear off (a man stands on the 5). The strict rule, not the 'any lower point' of "
            "line 346.",
            unplayed=1,
        ),
        T("F", (5, 3), "17/9", 449),
        T("L", (5, 1), "5/off 3/2", 451),
        T("F", (4, 2), "9/5 7/5", 453, makes=5),
        T(
            "L",
            (3, 2),
            "3/off 2/off",
            455,
            "'Takes off' names no points; 3 and 2 is the only "
            "legal play. The blot is the man left on the 3.",
            leaves_blot=True,
        ),
        T("F", (4, 2), "24/22*/18", 457, "'From 1' is 1b, F's last man in L's table.", hit=True),
        T("L", (5, 1), "", 459, "On the bar: F holds 5w and 1w.", unplayed=2),
        T("F", (3, 2), "18/13", 461),
        T("L", (5, 4), "bar/16", 463, "Enters with the 4 on 4w, then the 5 to 9w."),
        T("F", (3, 3), "13/1", 465),
        T("L", (6, 4), "16/6", 467),
        T(
            "F",
            (5, 2),
            "24/19*/17",
            469,
            "'From 1' is 1b; the man hit on 6b is the one L brought there at line 467.",
            hit=True,
        ),
        T("L", (5, 4), "bar/16", 471, "Enters with the 4 on 4w, then the 5 to 9w."),
        T("F", (2, 2), "17/9*", 473, hit=True),
        T("L", (6, 3), "bar/16*", 475, "Enters with the 3 on 3w, then the 6 hits on 9w.", hit=True),
        T("F", (5, 4), "bar/16", 477, "Enters with the 5 on 5b, then the 4 to 9b."),
        T("L", (3, 3), "16/4", 479),
        T("F", (5, 1), "16/10", 481),
        T(
            "L",
            (4, 4),
            "4/off 2/off(3)",
            483,
            "L's last four men, on the 4 and the 2. F has "
            "borne off none, and none of his men is in L's table: a gammon, not a backgammon.",
        ),
    ),
    winner="L",
    result="gammon",
    result_line=483,
)

SECOND_GAME = BookGame(
    title="Second Game",
    line=485,
    opening=(6, 1),
    opening_played=True,
    opening_line=489,
    opening_note="F's 6 beats L's 1 and F plays the 6-1. Though L won the first game the "
    "players throw for the start: the book calls the winner's first throw only 'sometimes "
    "customary'.",
    turns=(
        T("F", (6, 1), "13/7 8/7", 489, "The starting cast, played.", makes=7),
        T("L", (5, 1), "13/7", 491),
        T("F", (4, 2), "8/4 6/4", 493, makes=4),
        T("L", (5, 2), "24/17*", 495, hit=True),
        T(
            "F",
            (3, 1),
            "bar/21",
            497,
            "Enters on 3b and moves on to 4b with the ace (the "
            "same position as entering on 1b and playing the 3).",
        ),
        T("L", (2, 2), "13/11(2) 6/4*(2)", 499, hit=True),
        T("F", (5, 3), "bar/22 13/8*", 501, hit=True),
        T(
            "L",
            (4, 3),
            "bar/22 11/7",
            503,
            "'Enters 3' is 3w for L; the 4 covers the blot on L's bar point.",
            makes=7,
        ),
        T(
            "F",
            (4, 6),
            "24/14*",
            505,
            "Dice printed smaller first, and the start point is "
            "left out: only F's man on 1b reaches 5b with the 4 (the one on 3b is two pips "
            "from it), then the 6 hits on 11b.",
            hit=True,
        ),
        T("L", (6, 6), "", 507, "On the bar: F holds 6w, L's only entry for a six.", unplayed=4),
        T(
            "F",
            (2, 2),
            "24/22 13/7",
            509,
            "The man on 3b is the one that entered at line 501.",
            makes=22,
        ),
        T(
            "L",
            (6, 1),
            "bar/24 22/16",
            511,
            "'Enters 1' is 1w; the 6 moves the man that entered on 3w at line 503.",
        ),
        T("F", (4, 1), "14/9*", 513, hit=True),
        T(
            "L",
            (5, 5),
            "bar/15 13/8(2)",
            515,
            "The man on 5w moved on to 10w is the one that has just entered there.",
        ),
        T("F", (5, 4), "13/9 13/8", 517),
        T("L", (2, 2), "24/20(2)", 519),
        T("F", (6, 2), "22/14", 521),
        T(
            "L",
            (2, 2),
            "15/11*/7",
            523,
            "The hit is on 11b, where F's man came at line 521.",
            hit=True,
        ),
        T("F", (4, 3), "bar/22 6/2", 525),
        T("L", (5, 2), "8/1", 527),
        T("F", (4, 4), "7/3(2) 6/2(2)", 529),
        T("L", (3, 1), "8/5 6/5", 531),
        T("F", (5, 1), "9/8 9/4", 533),
        T("L", (5, 1), "7/1", 535),
        T("F", (2, 1), "8/6 4/3", 537),
        T("L", (3, 2), "4/2 4/1", 539),
        T("F", (6, 2), "22/14", 541, "'From 3' is 3b."),
        T(
            "L",
            (5, 1),
            "8/3*/2",
            543,
            "The two empty points of L's table are 4b and 3b.",
            hit=True,
            vacant=2,
        ),
        T("F", (4, 1), "bar/21 14/13", 545),
        T("L", (5, 2), "8/6 8/3", 547),
        T("F", (4, 1), "21/16", 549, "'From 4' is 4b, where F has just entered."),
        T("L", (6, 4), "7/3 7/1", 551),
        T("F", (1, 1), "16/13 7/6", 553, "'From 9' is 9b (a man on 9w cannot reach 12b)."),
        T("L", (4, 4), "20/16(2) 6/2(2)", 555, "'From 5' is 5w (a man on 5b cannot reach 9w)."),
        T("F", (6, 3), "13/10 13/7", 557),
        T("L", (5, 4), "16/12 16/11", 559, passed=True),
        T("F", (6, 5), "10/4 8/3", 561),
        T(
            "L",
            (5, 1),
            "11/6 12/11",
            563,
            "Two men as the book has it; the position is the same as one man 12/6.",
        ),
        T("F", (4, 3), "8/5 7/3", 565, all_home=True),
        T("L", (4, 3), "11/4", 567, all_home=True),
        T("F", (5, 4), "5/off 4/off", 569),
        T("L", (5, 4), "5/off 4/off", 571, "'Ditto': one man off from each of the 5 and 4."),
        T("F", (6, 3), "6/off 3/off", 573, "'Men from points': off from the 6 and the 3."),
        T("L", (2, 1), "2/off 1/off", 575, "'Ditto': off from the 2 and the 1."),
        T("F", (6, 3), "6/off 3/off", 577, "'Ditto': off from the 6 and the 3."),
        T("L", (4, 3), "6/2 3/off", 579),
        T(
            "F",
            (5, 5),
            "6/1 4/off(2) 3/off",
            581,
            "The only legal play: once the 6 point "
            "is cleared the 5s bear from the highest points, two from the 4 and then the 3.",
        ),
        T("L", (5, 2), "5/off 2/off", 583, "'Men from points': off from the 5 and the 2."),
        T("F", (3, 2), "3/off 2/off", 585, "'Ditto': off from the 3 and the 2."),
        T(
            "L",
            (6, 5),
            "6/off 3/off",
            587,
            "'1 from 6, other from 3' read as both borne "
            "off: the 6 from the 6 point, then the 5 from the 3, now the highest. Taken "
            "literally 'from 6' could also be the 5 played 6 to 1 with the 6 bearing from the "
            "3 (6/1 3/off, also legal); the bearing-off context favours the first.",
        ),
        T("F", (6, 2), "3/off 2/off", 589),
        T("L", (4, 4), "2/off(3) 1/off", 591, "L still has two men on the ace point."),
        T(
            "F",
            (5, 5),
            "2/off 1/off",
            593,
            "F's last two men; L has borne off thirteen, so F wins a single game (a 'hit').",
        ),
    ),
    winner="F",
    result="single",
    result_line=593,
)

GAMES = (FIRST_GAME, SECOND_GAME)
