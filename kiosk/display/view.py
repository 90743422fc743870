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

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.events import (
    MISSING,
    Board,
    Choose,
    CoachVerdict,
    Cocked,
    CubeMoved,
    Destinations,
    Detail,
    Dice,
    Event,
    GameOver,
    Illegal,
    Legal,
    LessonEvent,
    MenuShown,
    Message,
    ModeChanged,
    NewGame,
    Notice,
    Opening,
    OpponentPlayShown,
    PartToPlay,
    Played,
    PositionShown,
    Resume,
    SessionShown,
    Setup,
    SetupOk,
    TableStatus,
    ThrowAgain,
    from_json,
)
from kiosk.rules import Colour, Position
from kiosk.rules.moves import Play
from kiosk.table.sensing import location

BUTTON_NAMES = {"done": "Done", "menu": "Menu", "back": "Back", "select": "Select"}
# The keys that stand for the buttons in the window (kiosk.app.controls.key_event).
WINDOW_KEYS = {"done-white": "W", "done-black": "B", "menu": "M", "back": "Esc", "select": "Enter"}


def session_banner(session: SessionShown | None, tutor: bool) -> str:
    """The line both players see in a game: the session (if any), the Crawford game or who
    is in a chouette's box, and whether the tutor watches.

    >>> from kiosk.events import SessionShown
    >>> match = SessionShown(kind="match", title="Match to 3", score=(2, 0),
    ...                      names=("Ann", "Bob"), crawford=True)
    >>> session_banner(match, tutor=False)
    'Match to 3 · Crawford game: no doubling · Tutor off'
    """
    tail = "Tutor on" if tutor else "Tutor off"
    if session is None:
        return tail
    parts = [session.title]
    if session.crawford:
        parts.append("Crawford game: no doubling")
    if session.order:
        parts.append(f"{session.order[0]} in the box, {session.order[1]} plays for the partners")
    return " · ".join([*parts, tail])


def score_lines(view: TableView, colour: str) -> tuple[str, str]:
    """The score band's two lines for ``colour``'s side: the score (a match's length, a
    chouette's tallies), and the cube or a match's chance to win it.

    >>> view = TableView(score=(2, 1), match_length=5)
    >>> score_lines(view, "white")
    ('Score 2-1  (to 5)', 'Cube in the middle')
    """
    me = 0 if colour == "white" else 1
    session = view.session
    if session is not None and session.order:  # a chouette: the box plays white
        tally = dict(zip(session.names, session.score, strict=True))
        if colour == "white":
            first = f"In the box: {session.order[0]} {tally[session.order[0]]:+d}"
        else:
            first = "Partners: " + ", ".join(f"{n} {tally[n]:+d}" for n in session.order[1:])
        return first, _cube_words(view, colour)
    mine, theirs = view.score[me], view.score[1 - me]
    if session is not None and session.kind == "money":
        first = f"Money {mine:+d}, they {theirs:+d}"
    else:
        first = f"Score {mine}-{theirs}"
        if view.match_length:
            first += f"  (to {view.match_length})"
    if session is not None and session.crawford:
        return first, "Crawford: no cube"
    if session is not None and session.chances:
        return first, f"{_cube_words(view, colour)} · match chance {session.chances[me]:.0%}"
    return first, _cube_words(view, colour)


def _cube_words(view: TableView, colour: str) -> str:
    value, owner = view.cube
    if owner is None:
        return f"Cube {value}, centred" if value > 1 else "Cube in the middle"
    return f"Cube {value}, {'yours' if owner == colour else 'theirs'}"


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
    title: str = ""  # the full explanation's heading (the message itself if empty)


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
    session: SessionShown | None = None  # the match, money session, rubber, set or chouette
    stranded: tuple[tuple[str, int, int], ...] = ()  # Parker's count at the end of a game:
    # (table location, the loser's men there, worth each) zone by zone
    tutor_on: bool = True  # the tutor watches this game
    connected: bool = False
    connection_message: str = "Looking for the table..."
    messages: dict[str, PlayerText] = field(default_factory=dict)  # "white"/"black" -> text
    banner: str = ""  # a short line both players see (mode, lesson title)
    choices: tuple[str, ...] = ()  # plays to choose between
    pips: tuple[int, int] = (167, 167)
    hide_pips: bool = False  # a lesson asks for a count: the answer is not shown beside it
    preview: bool = False  # the arrows show a lesson's preview of the book's play
    winner: str | None = None  # the game is over: who won ("YOUR TURN" is shown to nobody)
    opening: bool = False  # before the first throw: both players throw, nobody's turn yet
    mode: str = "game"  # "game", "lesson", "replay": the turn label is the game's only
    table: str | None = None  # the table's own colour in a game against it, once it has played
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
        title: str = "",
    ) -> None:
        """Show a message to one player (``"both"`` for both)."""
        for who in ("white", "black") if colour == "both" else (colour,):
            self.messages[who] = PlayerText(text, detail, warning, rating, take_back, title)

    def set_position(self, position: Position) -> None:
        """The men as the game has them now."""
        self.position = position
        self.pips = (position.pips(Colour.WHITE), position.pips(Colour.BLACK))

    def apply(self, event: Event | Mapping[str, Any]) -> None:
        """Fold one application event into the view (its JSON is read as the event)."""
        if isinstance(event, Mapping):
            event = from_json(event)
        match event:
            case Dice(player=player, dice=(d1, d2)):
                self.dice, self.opening = (d1, d2), False
                self.turn = str(player)
                self.cocked = ()
                self.illegal = None
                self.say(self.turn, f"You threw {d1}-{d2}.")
            case Destinations(src=src, to=to, table=table):
                if table:
                    src, to = table.get("from", src), table.get("to", to)
                self.lifted, self.targets = src, tuple(to)
                self._men_down = _men(self.board)
            case Illegal(reason=reason, message=message, law=law, player=player, table=where):
                self.illegal = (where or self.lifted or "", reason, message)
                self.say(str(player), message, law or "", warning=True)
            case Legal(player=player):
                self.illegal = None
                self.lifted, self.targets = None, ()
                self.say(str(player), "That is fine.")
            case Played(variant="russian"):
                self._russian_played(event)
            case PartToPlay(player=player, message=message):
                self.turn, self.dice = str(player), None
                self.say(str(player), message)
            case ThrowAgain(player=player):
                self.turn = str(player)
                self.say(str(player), "The bonus is played: throw again.")
            case Played(player=player, move=move):
                if event.position:
                    self._played(event)
                self.last_move = move
                self.dice = None
                self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
                self.turn = str(player.other)
                who = "The table" if str(player) == self.table else "You"
                self.say(str(player), f"{who} played {move or 'nothing (no legal move)'}.")
                self.say(self.turn, "Your turn: throw the dice.")
            case OpponentPlayShown(player=player, move=move, arrows=arrows, text=text):
                self.table = str(player)
                self.last_play = tuple((str(a), str(b)) for a, b in arrows or ())
                self.last_move = move
                self.say("both", text or f"I play {move}.")
            case Choose(player=player, options=options, message=message):
                self.choices = tuple(options)
                self.say(str(player), message)
            case Cocked(well=well, message=message, law=law):
                self.cocked = (*self.cocked, well)
                self.say("both", message, law or "", warning=True)
            case Opening(starter=starter, dice=dice, message=message, plays=plays):
                self.say("both", message[:1].upper() + message[1:])
                if starter is not None:
                    self.opening = False
                    self.turn = str(starter)
                    if dice and len(dice) == 2 and all(isinstance(d, int) for d in dice):
                        self.dice = (dice[0], dice[1])  # each side's die, drawn together
                        if plays:
                            self._first_play(str(starter), dice[0], dice[1])
            case Setup(message=message, law=law):
                self.say("both", message, law or "", warning=True)
            case SetupOk(restored=restored):
                text = "The board is restored. Play on." if restored else "The board is set."
                self.say("both", text if restored else f"{text} Throw to start.")
            case SessionShown(score=score, stranded=stranded):
                self.session = event
                if not event.order:  # a chouette's tallies are drawn from the names
                    self.score = (score[0], score[1])
                self.match_length = int(event.length or 0)
                self.stranded = tuple(stranded or ())
                if self.mode == "game":
                    self.banner = session_banner(event, self.tutor_on)
            case GameOver(winner=winner, result=result, points=points):
                self.winner = str(winner)
                self.dice, self.lifted, self.targets, self.illegal = None, None, (), None
                white, black = self.score
                won = winner == Colour.WHITE
                self.score = (white + points, black) if won else (white, black + points)
                self.say(
                    "both",
                    f"{str(winner).capitalize()} wins a {result} game "
                    f"({points} point{'s' if points != 1 else ''}).",
                )
            case TableStatus(status=status, message=message):
                self.connected = status == "connected"
                self.connection_message = message or ""
            case Notice(message=message):  # the referee waits on the player on turn
                self.say(self.turn, message)
            case Message(to=to, text=text, detail=detail, warning=warning, complete=complete):
                if complete:  # a whole play is on the board: nothing is lifted
                    self.lifted, self.targets = None, ()
                self.say(to, text, detail or "", bool(warning))
            case CoachVerdict(data=data):
                self.say(
                    str(data.get("to", "both")),
                    str(data.get("text", "")),
                    str(data.get("detail", "")),
                    bool(data.get("warning", False)),
                    str(data.get("rating") or ""),
                    bool(data.get("take_back", False)),
                )
            case LessonEvent(inner=inner) if inner is not None:
                self.apply(inner)
            case LessonEvent(data=data):
                self._lesson(data)
            case MenuShown(title=title, items=items, cursor=cursor, footer=footer, player=who):
                self.menu_title = title
                self.menu = tuple(items)
                self.menu_cursor = cursor
                self.menu_footer = footer or ""
                self.menu_player = None if who is MISSING else str(who)
            case Board(board=board):
                self.board = dict(board)
                if self.lifted is not None and _men(self.board) > self._men_down:
                    self.lifted, self.targets = None, ()  # the lifted man is down again
            case ModeChanged(mode=mode, banner=banner):
                self.banner, self.mode = banner, mode
                self.hide_pips = mode == "russian"  # the standard count means nothing there
                if mode == "russian":
                    self.opening, self.winner, self.turn = False, None, "white"
                if mode != "game":  # the waiting game's marks and dice are not the lesson's
                    self.illegal, self.lifted, self.targets, self.choices = None, None, (), ()
                    self.dice, self.cocked = None, ()
            case Detail(player=player):
                who = str(player)
                self.show_detail[who] = not self.show_detail.get(who, False)
            case CubeMoved(cube=cube):
                self.cube = (int(cube[0]), cube[1])
            case NewGame() | Resume() | PositionShown():
                self._shown(event)

    def _shown(self, event: NewGame | Resume | PositionShown) -> None:
        """A position to show: a new game, a game resumed, a replay's step, a take-back."""
        self.turn = str(event.turn)
        self.set_position(Position.from_id(event.position, event.turn))
        dice = getattr(event, "dice", None)  # a new game has none yet
        self.dice = (dice[0], dice[1]) if dice else None
        self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
        self.cocked = ()
        if isinstance(event, PositionShown):
            self.last_play = tuple((a, b) for a, b in event.arrows or ())
            self.last_move = event.move or ""
            if event.text:
                self.say("both", event.text, event.detail or "")
            return
        self.last_play, self.last_move = (), ""
        self.winner = None
        self.opening = isinstance(event, NewGame) or getattr(event, "phase", "") == "opening"
        self.cube = (int(event.cube[0]), event.cube[1])
        self.tutor_on = event.tutor
        self._lesson({"event": "lesson-end"})
        if isinstance(event, NewGame):
            if self.session is not None:  # the session's game follows with its own score
                self.session, self.score, self.match_length = None, (0, 0), 0
            self.banner = session_banner(self.session, self.tutor_on)
            self.table = None
            self.stranded = ()

    def _first_play(self, starter: str, white: int, black: int) -> None:
        """The opening throw decided who starts with those two dice: say it to each."""
        mine, theirs = (white, black) if starter == "white" else (black, white)
        other = "black" if starter == "white" else "white"
        self.say(
            starter,
            f"You start: you threw {mine}, {other} threw {theirs}. "
            f"Play {white}-{black}: move your men, then press Done.",
        )
        self.say(other, f"{starter.capitalize()} starts and plays {white}-{black}.")

    def _lesson(self, event: Mapping[str, Any]) -> None:
        """A lesson's step, result, chart or end: what it says, lights, asks and charts."""
        kind = event["event"]
        if kind == "lesson":
            self._lesson_board(event)
        if kind in ("lesson", "lesson-result", "lesson-end"):
            wrong = kind == "lesson-result" and not event["correct"]
            text, source = str(event.get("text", "")), str(event.get("detail", ""))
            # The whole text and where it comes from, for Select (a long text is cut short
            # in the band); each new text starts with the explanation closed.
            detail = f"{text}\n\nFrom {source}." if source else text
            self.show_detail = {}
            self.say(
                str(event.get("to", "both")),
                text,
                detail,
                bool(event.get("warning", wrong)),
                title=self.banner or "The lesson",
            )
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
        elif kind == "chart":
            self.chart = {k: _plain(v) for k, v in event.items()}
        elif kind in ("lesson-end", "lesson-exit"):
            self.lights, self.lesson_result, self.answers, self.chart = (), None, (), None
            if self.preview:
                self.last_play, self.last_move = (), ""
            self.hide_pips, self.preview = False, False

    def _lesson_board(self, event: Mapping[str, Any]) -> None:
        """A lesson step's pip counts (hidden while it asks for one) and its preview of the
        book's play: arrows from each man to its destination (the step's text names it)."""
        self.hide_pips = bool(event.get("hide_pips", False))
        pips = event.get("pips")
        if isinstance(pips, Mapping):
            self.pips = (int(pips["white"]), int(pips["black"]))
        preview = event.get("preview")
        if isinstance(preview, Mapping):
            self.last_play = tuple((str(a), str(b)) for a, b in preview.get("arrows", ()))
            self.last_move = str(preview.get("move", ""))
            self.preview = True
        elif self.preview:
            self.last_play, self.last_move, self.preview = (), "", False

    def _russian_played(self, event: Played) -> None:
        """A part of a Russian throw played: said to the mover; the turn passes when the
        position (``R:<w|b>:...``) puts the other side on roll."""
        mover = str(event.player)
        self.last_move, self.last_play = event.move, ()
        self.lifted, self.targets, self.illegal = None, (), None
        self.say(mover, f"You played {event.move or 'nothing (no legal move)'}.")
        on_roll = "white" if event.position.split(":")[1] == "w" else "black"
        if on_roll != mover:
            self.turn, self.dice = on_roll, None
            self.say(on_roll, "Your turn: throw the dice.")

    def _played(self, event: Played) -> None:
        """A play: the position after it, and arrows for the play's steps."""
        mover = event.player
        self.set_position(Position.from_id(event.position, mover.other))
        self.last_play = play_arrows(event.play, mover) if event.play is not None else ()


def _plain(value: Any) -> Any:
    """A value of an event's JSON as plain lists and dicts."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _men(board: dict[str, tuple[int, int]] | None) -> int:
    """The men the table senses (0 without a board)."""
    return sum(w + b for w, b in board.values()) if board else 0


def play_arrows(play: Play, mover: Colour) -> tuple[tuple[str, str], ...]:
    """The arrows for a play's steps, as table locations."""
    return tuple((location(mover, s.src), location(mover, s.dst)) for s in play.steps)
