"""What the players should see right now, kept up to date from the event stream.

The display draws a :class:`TableView`; it never asks the referee or the game.
``TableView.apply(event)`` folds one application event into the view.

>>> view = TableView()
>>> view.apply({"event": "dice", "player": "white", "dice": [6, 5]})
>>> view.dice, view.turn
((6, 5), 'white')
>>> view.apply({"event": "destinations", "from": "24", "to": ["18", "13"], "player": "white",
...             "table": {"from": "24", "to": ["18", "13"]}})
>>> view.lifted, view.targets
('24', ('18', '13'))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kiosk.rules import Colour, Position
from kiosk.rules.moves import Play
from kiosk.table.sensing import location

BUTTON_NAMES = {"done": "Done", "menu": "Menu", "back": "Back", "select": "Select"}
# The keys that stand for the buttons in the window (kiosk.app.controls.key_event).
WINDOW_KEYS = {"done-white": "W", "done-black": "B", "menu": "M", "back": "Esc", "select": "Enter"}


def button_label(button: str, player: str, keys: bool) -> str:
    """A button as the legend on ``player``'s side names it: the physical button's name,
    and in the window the key that stands for it.

    >>> button_label("done", "black", keys=True), button_label("select", "white", keys=False)
    ('Done (B)', 'Select')
    """
    name = BUTTON_NAMES.get(button, button.capitalize())
    if not keys:
        return name
    key = WINDOW_KEYS.get(f"{button}-{player}") or WINDOW_KEYS.get(button)
    return f"{name} ({key})" if key else name


@dataclass
class PlayerText:
    """A short message for one player (drawn facing that player) and its full explanation."""

    text: str
    detail: str = ""
    warning: bool = False
    rating: str = ""  # the coach's verdict on the player's play ("fine", "bad"...), if any
    take_back: bool = False  # the coach offers to take the play back (the Back button)


@dataclass
class TableView:
    """Everything the display shows; locations are the table's (white's numbering)."""

    position: Position = field(default_factory=Position.standard)
    turn: str = "white"
    dice: tuple[int, int] | None = None
    cocked: tuple[int, ...] = ()
    movable: tuple[str, ...] = ()  # locations whose men may move now
    lifted: str | None = None  # location a man was lifted from
    targets: tuple[str, ...] = ()  # where the lifted man may go
    illegal: tuple[str, str, str] | None = None  # (location, reason code, message)
    last_play: tuple[tuple[str, str], ...] = ()  # arrows (from, to), table locations
    last_move: str = ""  # the last play in notation
    score: tuple[int, int] = (0, 0)  # white, black
    cube: tuple[int, str | None] = (1, None)  # value, owner
    match_length: int = 0  # 0: money game / unlimited
    connected: bool = False
    connection_message: str = "Looking for the table..."
    messages: dict[str, PlayerText] = field(default_factory=dict)  # "white"/"black" -> text
    banner: str = ""  # a short line both players see (mode, lesson title)
    choices: tuple[str, ...] = ()  # plays to choose between
    pips: tuple[int, int] = (167, 167)
    show_detail: dict[str, bool] = field(default_factory=dict)  # player -> full explanation shown
    board: dict[str, tuple[int, int]] | None = None  # sensed (white, black) men; None: as position
    busy: str = ""  # a long operation under way ("Thinking..."), drawn with a moving spinner
    menu_title: str = ""  # the open menu's title ("" with no menu open)
    menu: tuple[str, ...] = ()  # the open menu's items
    menu_cursor: int = 0  # the item Select would take
    menu_footer: str = ""  # how to work the menu with the buttons
    menu_player: str | None = None  # who opened the menu; None: drawn for both players
    simulated: bool = False  # no physical men (simulated table): the display draws them
    lights: tuple[str, ...] = ()  # table locations a lesson points at
    lesson_result: bool | None = None  # the learner's last answer: right, wrong or none yet
    answers: tuple[str, ...] = ()  # a lesson question's choices
    answer_cursor: int = 0  # the choice Done would give
    chart: dict | None = None  # a lesson's ``chart`` event: title, series, wrong figures
    legend: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # player ->
    # (button, what it does now) for the buttons that do something on that player's side
    keys: bool = False  # the legend names the window's keys (no physical buttons wired)
    _men_down: int = 0  # men on the table when the last man was lifted

    def animated(self) -> bool:
        """Whether the picture moves by itself (pulsing targets, a spinner): redraw it."""
        return bool(self.targets or self.busy)

    def copy(self) -> TableView:
        """A snapshot the display can draw while the events go on changing the view."""
        return replace(
            self,
            messages=dict(self.messages),
            show_detail=dict(self.show_detail),
            board=None if self.board is None else dict(self.board),
        )

    def say(
        self,
        colour: str,
        text: str,
        detail: str = "",
        warning: bool = False,
        rating: str = "",
        take_back: bool = False,
    ) -> None:
        """Show a message to one player (``"both"`` for both)."""
        for who in ("white", "black") if colour == "both" else (colour,):
            self.messages[who] = PlayerText(text, detail, warning, rating, take_back)

    def set_position(self, position: Position) -> None:
        """The men as the game has them now."""
        self.position = position
        self.pips = (position.pips(Colour.WHITE), position.pips(Colour.BLACK))

    def apply(self, event: dict) -> None:
        """Fold one application event into the view."""
        kind = event.get("event")
        player = str(event.get("player", self.turn))
        if kind in ("cube", "new-game", "resume") and event.get("cube"):
            self.cube = (int(event["cube"][0]), event["cube"][1])  # [value, owner or None]
        if kind == "dice":
            self.dice = (event["dice"][0], event["dice"][1])
            self.turn = player
            self.cocked = ()
            self.illegal = None
            self.say(player, f"You threw {self.dice[0]}-{self.dice[1]}.")
        elif kind == "destinations":
            table = event.get("table", {})
            self.lifted = table.get("from", event["from"])
            self.targets = tuple(table.get("to", event["to"]))
            self._men_down = _men(self.board)
        elif kind == "illegal":
            where = event.get("table") or self.lifted or ""
            self.illegal = (where, event["reason"], event["message"])
            self.say(player, event["message"], event.get("law", ""), warning=True)
        elif kind == "legal":
            self.illegal = None
            self.lifted, self.targets = None, ()
            self.say(player, "That is fine.")
        elif kind == "play":
            if event.get("position"):
                self._played(event, Colour.parse(player))
            self.last_move = event["move"]
            self.dice = None
            self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
            self.turn = "black" if player == "white" else "white"
            self.say(player, f"You played {event['move'] or 'nothing (no legal move)'}.")
            self.say(self.turn, "Your turn: throw the dice.")
        elif kind == "choose":
            self.choices = tuple(event["options"])
            self.say(player, event["message"])
        elif kind == "cocked":
            self.cocked = (*self.cocked, event["well"])
            self.say("both", event["message"], event.get("law", ""), warning=True)
        elif kind == "opening":
            if event.get("starter"):
                self.turn = event["starter"]
                dice = event.get("dice") or ()
                if len(dice) == 2 and all(isinstance(d, int) for d in dice):
                    self.dice = (dice[0], dice[1])  # each side's die, drawn together
            message = event["message"]
            self.say("both", message[:1].upper() + message[1:])
        elif kind == "setup":
            self.say("both", event["message"], event.get("law", ""), warning=True)
        elif kind == "setup-ok":
            self.say(
                "both",
                "The board is set. Throw to start."
                if not event.get("restored")
                else "The board is restored. Play on.",
            )
        elif kind == "game-over":
            winner = event["winner"]
            white, black = self.score
            self.score = (
                (white + event["points"], black)
                if winner == "white"
                else (white, black + event["points"])
            )
            self.say(
                "both",
                f"{winner.capitalize()} wins a {event['result']} game "
                f"({event['points']} point{'s' if event['points'] != 1 else ''}).",
            )
        elif kind == "table":
            self.connected = event["status"] == "connected"
            self.connection_message = event.get("message", "")
        elif kind in ("message", "coach", "lesson", "lesson-result", "lesson-end"):
            if event.get("complete"):  # a whole play is on the board: nothing is lifted
                self.lifted, self.targets = None, ()
            self.say(
                str(event.get("to", "both")),
                event.get("text", ""),
                event.get("detail", ""),
                bool(event.get("warning", kind == "lesson-result" and not event["correct"])),
                str(event.get("rating") or "") if kind == "coach" else "",
                bool(event.get("take_back", False)),
            )
            self._lesson(event)
        elif kind == "chart":
            self.chart = dict(event)
        elif kind == "lesson-exit":
            self._lesson(event)
        elif kind == "menu":
            self.menu_title = event.get("title", "")
            self.menu = tuple(event.get("items", ()))
            self.menu_cursor = int(event.get("cursor", 0))
            self.menu_footer = event.get("footer", "")
            self.menu_player = event.get("player")
        elif kind == "board":
            self.board = dict(event["board"]) if event.get("board") is not None else None
            if self.lifted is not None and _men(self.board) > self._men_down:
                self.lifted, self.targets = None, ()  # the lifted man is down again
        elif kind == "mode":
            self.banner = event.get("banner", "")
        elif kind == "detail":
            self.show_detail[player] = not self.show_detail.get(player, False)
        elif kind in ("position", "new-game", "resume"):
            self.turn = str(event.get("turn", self.turn))
            self.set_position(Position.from_id(event["position"], Colour.parse(self.turn)))
            dice = event.get("dice")
            self.dice = (dice[0], dice[1]) if dice else None
            self.last_play = tuple((a, b) for a, b in event.get("arrows", ()))
            self.last_move = event.get("move", "")
            self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
            self.cocked = ()
            if kind != "position":
                self._lesson({"event": "lesson-end"})
            if kind == "new-game":
                self.banner = "Tutor on" if event.get("tutor") else "Tutor off"
            if event.get("text"):
                self.say("both", event["text"], event.get("detail", ""))

    def _lesson(self, event: dict) -> None:
        """A lesson's step, result or end: what it lights, asks and charts."""
        kind = event["event"]
        if kind == "lesson":
            self.lights = tuple(event.get("light", ()))
            self.lesson_result = None
            self.answers = tuple(event.get("choices", ()))
            self.answer_cursor = int(event.get("selected", 0))
            if event.get("kind") != "chart":
                self.chart = None
        elif kind == "lesson-result":
            self.lights = tuple(event.get("light", ()))
            self.lesson_result = bool(event["correct"])
            self.answers = ()
        elif kind in ("lesson-end", "lesson-exit"):
            self.lights, self.lesson_result, self.answers, self.chart = (), None, (), None

    def _played(self, event: dict, mover: Colour) -> None:
        """A play event: the position after it, and arrows for its steps."""
        before = self.position.with_turn(mover)
        self.set_position(Position.from_id(event["position"], mover.other))
        try:
            play = before.parse_play(event["dice"][0], event["dice"][1], event["move"])
        except (ValueError, KeyError, IndexError):
            self.last_play = ()
            return
        self.last_play = play_arrows(play, mover)


def _men(board: dict[str, tuple[int, int]] | None) -> int:
    """The men the table senses (0 without a board)."""
    return sum(w + b for w, b in board.values()) if board else 0


def play_arrows(play: Play, mover: Colour) -> tuple[tuple[str, str], ...]:
    """The arrows for a play's steps, as table locations."""
    return tuple((location(mover, s.src), location(mover, s.dst)) for s in play.steps)
