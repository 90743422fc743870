"""Views that between them put every panel, card, mark and kind of text on the screen."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.display.view import TableView
from kiosk.rules import Position

LONG = (
    "That man cannot go to 20: 24 to 20 is 4 pips and you threw 6-5. Move it 6 or 5 pips, "
    "or move another man."
)


def _base() -> TableView:
    view = TableView()
    view.connected = True
    view.connection_message = "Table connected"
    view.banner = "Match to 5 · Tutor on"
    view.legend = {
        "white": (("done", "throw the dice"), ("menu", "menu")),
        "black": (("select", "explain"), ("back", "take it back")),
    }
    view.keys = True
    return view


def moving() -> TableView:
    """White on roll, a man lifted from 24 with two places to go, one of them a hit."""
    view = _base()
    view.set_position(
        Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 12: -5, 17: -3, 19: -5, 1: -1})
    )
    view.apply({"event": "dice", "player": "white", "dice": [4, 1]})
    view.movable = ("6", "8", "13")
    view.lifted, view.targets = "24", ("20", "23")
    view.last_play = (("12", "17"), ("17", "20"))
    view.say("black", "White is moving.")
    return view


def illegal() -> TableView:
    """A wrong placement: the point hatched, the card, and the player's warning."""
    view = moving()
    view.apply(
        {
            "event": "illegal",
            "reason": "wrong-distance",
            "message": "24 to 21 is 3 pips: you threw 4-1.",
            "law": "Law 12: a man moves the number of pips on a die.",
            "player": "white",
            "table": "21",
        }
    )
    return view


def verdicts() -> TableView:
    """The coach's verdicts, one a warning, with the take-back offer."""
    view = _base()
    view.say(
        "white",
        "Very bad play. Better was 13/9 13/10 (it costs 0.15 points a game on average). "
        "Take it back and think again?",
        "Leaving two blots in your outfield gives 20 shots.",
        warning=True,
        rating="very bad",
        take_back=True,
    )
    view.say("black", "Doubtful play. Better was 24/20 13/10.", rating="doubtful")
    view.turn = "black"
    return view


def ratings(rating: str) -> Callable[[], TableView]:
    def make() -> TableView:
        view = _base()
        view.say("white", f"A play rated {rating}.", rating=rating)
        view.say("black", "A warning with its rating.", warning=True, rating=rating)
        return view

    make.__name__ = f"rating_{rating.replace(' ', '_')}"
    return make


def menu_and_detail() -> TableView:
    """A menu facing white, and black's full explanation open."""
    view = _base()
    view.apply(
        {
            "event": "menu",
            "title": "Backgammon Table",
            "items": [f"Item number {i} of the menu" for i in range(1, 13)],
            "cursor": 9,
            "footer": "Menu: next   Select: take   Back: close",
            "player": "white",
        }
    )
    view.say("black", "Not that way.", "Law 12: a man moves the number of pips on a die. " * 4)
    view.show_detail["black"] = True
    return view


def lesson() -> TableView:
    """A lesson's question and its chart, its verdict, lights and stranded men counted."""
    view = _base()
    view.mode = "lesson"
    view.banner = "Lesson 8: chances"
    view.answers = ("Hit the blot", "Run with the back man", "Make the 5 point")
    view.answer_cursor = 1
    view.lesson_result = False
    view.lights = ("5", "bar-black")
    view.stranded = (("off-white", 3, 2),)
    view.say("white", "How many shots has black at your blot?", warning=False)
    view.say("black", "Wrong: the books wanted 13/9 13/10.", warning=True)
    view.choices = ()
    return view


def chart() -> TableView:
    view = _base()
    view.chart = {
        "title": "Shots by distance",
        "x_label": "pips away",
        "series": [
            {"name": "exact", "values": [[1, 11], [2, 12], [3, 14], [4, 15]]},
            {"name": "Cady", "values": [[1, 11], [2, 12], [3, 13], [4, 15]]},
            {"name": "Foster", "values": [[1, 11], [2, 13], [3, 14], [4, 14]]},
            {"name": "Hoyle", "values": [[1, 10], [2, 12], [3, 14], [4, 15]]},
        ],
        "wrong": [{"book": "Cady", "x": 3, "book_value": 13, "exact": 14}],
    }
    view.lesson_result = True
    return view


def ends() -> TableView:
    """The game over, a cube owned, the table lost and the dice cocked."""
    view = _base()
    view.apply({"event": "dice", "player": "black", "dice": [6, 6]})
    view.cocked = (2,)
    view.cube = (4, "black")
    view.score = (3, 1)
    view.match_length = 5
    view.connected = False
    view.connection_message = "Table unplugged: check the USB cable."
    view.choices = ("13/7 13/7", "24/18 13/7")
    view.busy = "Thinking..."
    view.say("white", LONG, warning=True)
    return view


def game_over() -> TableView:
    view = _base()
    view.apply({"event": "game-over", "winner": "white", "result": "gammon", "points": 2})
    view.banner = "White wins a gammon"
    return view


def simulated() -> TableView:
    """The simulated table's men, a count above a full point, and the opening throw."""
    view = _base()
    view.simulated = True
    view.set_position(Position.from_points({6: 15, 19: -15}))
    view.opening = True
    view.banner = ""
    view.say("both", "Throw one die each: the higher starts.")
    return view


VIEWS: tuple[Callable[[], TableView], ...] = (
    moving,
    illegal,
    verdicts,
    *(ratings(r) for r in ("fine", "doubtful", "bad", "very bad")),
    menu_and_detail,
    lesson,
    chart,
    ends,
    game_over,
    simulated,
)
