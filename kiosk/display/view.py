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

from kiosk.display.prompts import OWN, VERDICTS, Prompts, Text
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
    Penalty,
    Played,
    PositionShown,
    Resume,
    SessionShown,
    Setup,
    SetupOk,
    TableStatus,
    ThrowAgain,
    WrongMove,
    from_json,
)
from kiosk.rules import Colour, Position
from kiosk.rules.moves import Play
from kiosk.rules.russian import RussianPosition
from kiosk.table.sensing import describe, location, point_of

#: The events with which the game goes on: a take-back offer lapses (the coach's verdict is
#: then held beneath what the turn asks).
GAME_GOES_ON = (Dice, Opening, Played, NewGame, Resume, PositionShown, CubeMoved)

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


#: The keys that pick a menu's items at a keyboard, the first item's first: the number row.
MENU_KEYS = "1234567890"


def score_lines(view: TableView, colour: str) -> tuple[str, str]:
    """The score band's two lines for ``colour``'s side: the score (a match's length, a
    chouette's tallies), and the cube or a match's chance to win it; a Russian game has
    neither.

    >>> view = TableView(score=(2, 1), match_length=5)
    >>> score_lines(view, "white")
    ('Score 2-1  (to 5)', 'Cube in the middle')
    """
    if view.mode == "russian":  # the waiting game's score and cube are not this game's
        return "Russian: not scored", "No cube in this game"
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


PlayerText = Text  # what one player's line shows (kiosk.display.prompts.Text)


def doublet_words(d1: int, d2: int) -> str:
    """What a throw plays: a doublet plays its number four times.

    >>> doublet_words(3, 3), doublet_words(6, 5)
    ('3-3: a doublet, so you move 3 four times', '6-5')
    """
    return f"{d1}-{d2}: a doublet, so you move {d1} four times" if d1 == d2 else f"{d1}-{d2}"


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
    prompts: Prompts = field(default_factory=Prompts)  # each player's prompts, by kind
    banner: str = ""  # a short line both players see (mode, lesson title)
    choices: tuple[str, ...] = ()  # plays to choose between
    pips: tuple[int, int] = (167, 167)
    hide_pips: bool = False  # a lesson asks for a count: the answer is not shown beside it
    preview: bool = False  # the arrows show a lesson's preview of the book's play
    winner: str | None = None  # the game is over: who won ("YOUR TURN" is shown to nobody)
    opening: bool = False  # before the first throw: both players throw, nobody's turn yet
    mode: str = "game"  # "game", "lesson", "replay": the turn label is the game's only
    table: str | None = None  # the table's own colour in a game against it
    show_detail: dict[str, bool] = field(default_factory=dict)  # player -> full explanation shown
    board: dict[str, tuple[int, int]] | None = None  # sensed (white, black) men; None: as position
    busy: str = ""  # a long operation under way ("Thinking..."), drawn with a moving spinner
    menu_title: str = ""  # the open menu's title ("" with no menu open)
    menu: tuple[str, ...] = ()  # the open menu's items
    menu_cursor: int = 0  # the item Select would take
    menu_footer: str = ""  # how to work the menu with the buttons
    menu_player: str | None = None  # who opened the menu; None: drawn for both players
    menu_numbers: tuple[int, ...] = ()  # each item's number key (a keyboard picks it)
    simulated: bool = False  # no physical men (simulated table): the display draws them
    lights: tuple[str, ...] = ()  # table locations a lesson points at
    setup: tuple[Mapping[str, Any], ...] = ()  # men still to lay out: {table, colour, have,
    # want} by location and colour (drawn as pale men to place, crosses on men to take away)
    step: tuple[int, int] | None = None  # a lesson's step and how many it has
    lesson_title: str = ""  # the lesson's banner without its step
    lesson_result: bool | None = None  # the learner's last answer: right, wrong or none yet
    answers: tuple[str, ...] = ()  # a lesson question's choices
    answer_cursor: int = 0  # the choice Done would give
    chart: dict[str, Any] | None = None  # a lesson's ``chart`` event: title, series, wrong figures
    legend: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # player ->
    # (button, what it does now) for the buttons that do something on that player's side
    keys: bool = False  # the legend names the window's keys (no physical buttons wired)
    _men_down: int = 0  # men on the table when the last man was lifted
    _waiting_opening: bool = False  # the game left for a lesson waited for its first throw

    @property
    def messages(self) -> dict[str, Text]:
        """What each player's line shows now: the most urgent prompt
        (:mod:`kiosk.display.prompts`), the coach's verdict beneath it one Select away."""
        shown = {}
        for who in ("white", "black"):
            top = self.message(who)
            if top is not None:
                shown[who] = top
        return shown

    def message(self, who: str) -> Text | None:
        """What ``who``'s line shows now (one player's part of :attr:`messages`)."""
        return self.prompts.top(who)

    @property
    def visitor(self) -> str | None:
        """The visitor's colour in a game against the table (None: two players)."""
        if self.table is None or self.mode != "game":
            return None
        return "black" if self.table == "white" else "white"

    def sides(self) -> tuple[str, ...]:
        """The sides a card for everybody is drawn facing: against the table, only the
        visitor's (nobody sits at the table's own side)."""
        visitor = self.visitor
        return (visitor,) if visitor is not None else ("white", "black")

    def facing(self, colour: str) -> str:
        """The side words for ``colour`` are drawn facing: against the table, the visitor
        reads (and moves the men) for both sides."""
        visitor = self.visitor
        return visitor if visitor is not None else colour

    def animated(self) -> bool:
        """Whether the picture moves by itself (pulsing targets, a spinner): redraw it."""
        return bool(self.targets or self.busy)

    def copy(self) -> TableView:
        """A snapshot the display can draw while the events go on changing the view."""
        return replace(
            self,
            prompts=self.prompts.copy(),
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
        kind: str = "turn",
    ) -> None:
        """Hold a prompt of ``kind`` for one player (``"both"`` for both); against the
        table anything but the table's own words goes to the visitor."""
        message = Text(text, detail, warning, rating, take_back, title)
        for who in ("white", "black") if colour == "both" else (colour,):
            if who == self.table and kind != OWN and self.visitor is not None:
                who = self.visitor
            if text:
                self.prompts.put(who, kind, message)
            else:  # nothing to say: the prompt of that kind is done with
                self.prompts.clear(who, kind)

    def _tell(self, colour: str, kind: str, text: str, table_words: str = "", **more: Any) -> None:
        """Words for ``colour``; against the table, the visitor reads ``table_words``
        instead where ``colour`` is the table's (nothing if there are none)."""
        if colour == self.table and self.visitor is not None:
            if table_words:
                self.say(self.visitor, table_words, kind=kind, **more)
            return
        self.say(colour, text, kind=kind, **more)

    def name(self, colour: str) -> str:
        """A player as the words name them: the name given in a two-player session, the
        table, else the colour ("White").

        >>> view = TableView()
        >>> view.name("black")
        'Black'
        """
        if colour == self.table and self.visitor is not None:
            return "The table"
        session = self.session
        if session is not None and not session.order and len(session.names) == 2:
            given = session.names[0 if colour == "white" else 1]
            if given and given.lower() != colour:
                return given
        return colour.capitalize()

    def set_position(self, position: Position) -> None:
        """The men as the game has them now."""
        self.position = position
        self.pips = (position.pips(Colour.WHITE), position.pips(Colour.BLACK))

    def apply(self, event: Event | Mapping[str, Any]) -> None:
        """Fold one application event into the view (its JSON is read as the event)."""
        if isinstance(event, Mapping):
            event = from_json(event)
        if isinstance(event, GAME_GOES_ON):
            self.prompts.lapse_offers()  # a take-back offer lapses as the game goes on
        match event:
            case Dice(player=player, dice=(d1, d2)):
                self.dice, self.opening = (d1, d2), False
                self.turn = str(player)
                self.cocked = ()
                self.illegal = None
                self.prompts.clear_all("wrong", "notice", "done")
                words = doublet_words(d1, d2)
                self._tell(
                    self.turn,
                    "turn",
                    f"You threw {words}.",
                    f"The table threw {words.replace('you move', 'it moves')}.",
                )
            case Destinations(src=src, to=to, player=player, table=table):
                if table:
                    src, to = table.get("from", src), table.get("to", to)
                self.lifted, self.targets = src, tuple(to)
                self._men_down = _men(self.board)
                self._clear(str(player), "notice")  # a man in the hand is no man to push
            case Illegal(reason=reason, message=message, law=law, player=player, table=where):
                self.illegal = (where or self.lifted or "", reason, message)
                self._clear(str(player), "done", "notice")
                self.say(str(player), message, law or "", warning=True, kind="wrong")
            case Legal(player=player):
                self.illegal = None
                self.lifted, self.targets = None, ()
                self._clear(str(player), "wrong")
                more = f" Go on playing {self.dice[0]}-{self.dice[1]}." if self.dice else ""
                self._tell(str(player), "turn", f"That is fine.{more}", f"That is fine.{more}")
            case Played(variant="russian"):
                self._russian_played(event)
            case PartToPlay(player=player, message=message):
                self.turn, self.dice = str(player), None
                self._clear(str(player), "notice")  # a doublet chosen: the part is on
                self.say(str(player), message)
            case ThrowAgain(player=player):
                self.turn = str(player)
                self._clear(str(player), "notice")
                self.say(str(player), "The bonus is played: throw again.")
            case Played(player=player, move=move):
                if event.position:
                    self._played(event)
                self.last_move = move
                self.dice = None
                self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
                mover = str(player)
                self.turn = str(player.other)
                self.prompts.clear_all("answer")  # which play, a wrong move: answered
                old = () if mover == self.table else VERDICTS  # the visitor's verdict stays
                self._clear(mover, "turn", "done", "notice", "wrong", *old)
                made = move or "nothing (no legal move)"
                self._tell(mover, "said", f"You played {made}.", f"The table played {made}.")
                self._tell(
                    self.turn,
                    "turn",
                    "Your turn: throw the dice.",
                    "The table's turn: throw the dice for it.",
                )
            case OpponentPlayShown(player=player, move=move, arrows=arrows, text=text):
                self.table = str(player)
                self.last_play = tuple((str(a), str(b)) for a, b in arrows or ())
                self.last_move = move
                self.say(self.table, f"I play {move}." if move else text, kind=OWN)
                self._tell(
                    self.table,
                    "turn",
                    "",
                    f"The table plays {move}: move its men as the arrows show.",
                )
            case WrongMove(player=player, message=message, law=law):  # laws mode
                self.say(str(player.other), message, law or "", warning=True, kind="answer")
            case Penalty(player=player, message=message, law=law):
                self.say(str(player), message, law or "", warning=True, kind="said")
            case Choose(player=player, options=options, message=message):
                self.choices = tuple(options)
                self.say(str(player), message, kind="answer")
            case Cocked(well=well, message=message, law=law):
                self.cocked = (*self.cocked, well)
                self.say("both", message, law or "", warning=True, kind="wrong")
            case Opening(starter=starter, dice=dice, message=message, plays=plays):
                self.say("both", message[:1].upper() + message[1:])
                if starter is not None:
                    self.opening = False
                    self.turn = str(starter)
                    if dice and len(dice) == 2 and all(isinstance(d, int) for d in dice):
                        self.dice = (dice[0], dice[1])  # each side's die, drawn together
                        if plays:
                            self._first_play(str(starter), dice[0], dice[1])
            case Setup(corrections=corrections, message=message, law=law):
                self._set_up(tuple(corrections), message, law or "")
            case SetupOk(restored=restored):
                self.prompts.clear_all("wrong")
                self.setup = ()
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
            case GameOver(winner=winner, result=result, points=points, passed=passed):
                self.winner = str(winner)
                self.dice, self.lifted, self.targets, self.illegal = None, None, (), None
                white, black = self.score
                won = winner == Colour.WHITE
                self.score = (white + points, black) if won else (white, black + points)
                self._game_over(str(winner), result, points, bool(passed))
            case TableStatus(status=status, message=message):
                self.connected = status == "connected"
                self.connection_message = message or ""
            case Notice(message=message):  # the referee waits on the player on turn
                self.say(self.turn, message, kind="notice")
            case Message(to=to, text=text, prompt="review"):
                self._review(to, text)
            case Message(to=to, text=text, detail=detail, warning=warning, complete=complete):
                if complete:  # a whole play is on the board: nothing is lifted
                    self.lifted, self.targets = None, ()
                kind = event.prompt or ("done" if complete else "turn")
                self.say(to, text, detail or "", bool(warning), kind=kind)
            case CoachVerdict(data=data):
                take_back = bool(data.get("take_back", False))
                self.say(
                    str(data.get("to", "both")),
                    str(data.get("text", "")),
                    str(data.get("detail", "")),
                    bool(data.get("warning", False)),
                    str(data.get("rating") or ""),
                    take_back,
                    kind="coach",
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
                self.menu_numbers = tuple(event.numbers or ())
            case Board(board=board):
                if board != self.board:
                    self.prompts.clear_all("notice")  # its cause is gone, or said again
                self.board = dict(board)
                if self.lifted is not None and _men(self.board) > self._men_down:
                    self.lifted, self.targets = None, ()  # the lifted man is down again
            case ModeChanged(mode=mode, banner=banner):
                if mode != self.mode:  # what the last mode asked is not this one's
                    self.prompts.clear_all()
                    self.show_detail = {}
                    self.last_play, self.last_move = (), ""
                    self.setup, self.step, self.lesson_title = (), None, ""
                    if self.mode == "game":  # the waiting game's first throw, kept for it
                        self._waiting_opening = self.opening
                    elif mode == "game":
                        self.opening = self._waiting_opening
                self.banner, self.mode = banner, mode
                self.hide_pips = False
                if mode == "russian":  # every man in his tray: the count along the common track
                    self.opening, self.winner, self.turn = False, None, "white"
                    self._russian_pips(RussianPosition.start())
                if mode != "game":  # the waiting game's marks and dice are not the lesson's
                    self.illegal, self.lifted, self.targets, self.choices = None, None, (), ()
                    self.dice, self.cocked = None, ()
            case Detail(player=player):
                reader = str(player)
                self.show_detail[reader] = not self.show_detail.get(reader, False)
            case CubeMoved(action=action, player=player, cube=cube):
                self._cube(action, str(player), int(cube[0]))
                self.cube = (int(cube[0]), cube[1])
            case NewGame() | Resume() | PositionShown():
                self._shown(event)

    def _clear(self, colour: str, *kinds: str) -> None:
        """Drop ``colour``'s prompts of ``kinds`` (the visitor's, for the table's side)."""
        self.prompts.clear(self.facing(colour) if colour == self.table else colour, *kinds)

    def _cube(self, action: str, player: str, value: int) -> None:
        """A double offered (``player`` doubles; the cube shows ``value`` before it),
        taken or passed (``player`` answers): who must answer, and what follows."""
        other = "black" if player == "white" else "white"
        if action == "double":
            stake = 2 * value
            doubler, taker = self.name(player), self.name(other)
            self._tell(
                other,
                "answer",
                f"{doubler} doubles to {stake}. Select: take, Back: pass.",
            )
            waiting = (
                f"You double to {stake}: the table is thinking about it."
                if other == self.table
                else f"You double to {stake}: {taker} answers (Select takes, Back passes)."
            )
            self._tell(player, "turn", waiting)
            return
        self.prompts.clear_all("answer")
        if action == "take":
            doubler = other
            taker = self.name(player)
            if player == self.table:
                self._tell(doubler, "turn", f"The table takes: the cube is at {value}. Throw the "
                           "dice.")
                return
            self._tell(
                player,
                "turn",
                f"You take: the cube is at {value} and yours. {self.name(doubler)} throws.",
            )
            self._tell(
                doubler,
                "turn",
                f"{taker} takes: the cube is at {value}. Throw the dice.",
                f"You take: the cube is at {value}. Throw the dice for the table.",
            )

    def _game_over(self, winner: str, result: str, points: int, passed: bool) -> None:
        """The result on each player's line: the winner's own words, the loser's."""
        self.prompts.clear_all("answer", "turn", "done", "notice", "wrong")
        loser = "black" if winner == "white" else "white"
        worth = f"{points} point{'s' if points != 1 else ''}"
        how = f"a {result} game ({worth})" if not passed else f"{worth}: {{}} passed the double"
        for who in ("white", "black"):
            if who == self.table and self.visitor is not None:
                continue
            if who == winner:
                text = "You won " + how.format(self.name(loser))
            else:
                text = f"{self.name(winner)} wins " + how.format(
                    "you" if who == loser else self.name(loser)
                )
            self.prompts.put(who, "result", Text(f"{text}."))

    def _set_up(self, corrections: tuple[Mapping[str, Any], ...], said: str, law: str) -> None:
        """Men to lay out: drawn as pale men where they go (crosses on men to take away),
        with a count of what is left to do, not a telling-off one man at a time."""
        corrections = tuple(c for pair in corrections for c in _by_colour(pair))
        self.setup = corrections
        place = sum(max(0, int(c["want"]) - int(c["have"])) for c in corrections)
        away = sum(max(0, int(c["have"]) - int(c["want"])) for c in corrections)
        if not corrections:  # a referee's word with nothing to show: said as it is
            self.say("both", said, law, kind="wrong")
            return
        todo = []
        if place and place == away:  # men moved: each marked one goes to a pale one
            todo.append(f"move the {place} marked with a cross onto them")
        else:
            if place:
                todo.append(f"{place} {'man' if place == 1 else 'men'} to place")
            if away:
                todo.append(f"{away} marked with a cross to take away")
        text = f"Lay the men out as the pale men show: {' and '.join(todo)}."
        for who in self.sides():
            words = [setup_words(c, who) for c in corrections]
            detail = "What is left to do:\n" + "\n".join(words) + (f"\n\n{law}" if law else "")
            self.say(who, text, detail, kind="wrong")

    def _review(self, colour: str, review: str) -> None:
        """The table's review of the visitor's plays: the result's full explanation (the
        result stays on the line)."""
        result = self.prompts.get(colour, "result")
        if result is None:
            self.say(colour, review, kind="said")
            return
        detail = f"{result.detail}\n\n{review}" if result.detail else review
        self.prompts.put(colour, "result", replace(result, detail=detail, title=result.text))

    def _shown(self, event: NewGame | Resume | PositionShown) -> None:
        """A position to show: a new game, a game resumed, a replay's step, a take-back."""
        self.turn = str(event.turn)
        self.set_position(Position.from_id(event.position, event.turn))
        dice = getattr(event, "dice", None)  # a new game has none yet
        self.dice = (dice[0], dice[1]) if dice else None
        self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
        self.cocked = ()
        if isinstance(event, PositionShown):
            self.prompts.clear_all("wrong", "done", "notice")
            self.last_play = tuple((a, b) for a, b in event.arrows or ())
            self.last_move = event.move or ""
            if event.text:
                self.say("both", event.text, event.detail or "")
            return
        self.prompts.clear_all()
        self.show_detail = {}
        self.last_play, self.last_move = (), ""
        self.winner, self.setup = None, ()
        self.table = None if event.table is MISSING else str(event.table)
        self.opening = isinstance(event, NewGame) or getattr(event, "phase", "") == "opening"
        self.cube = (int(event.cube[0]), event.cube[1])
        self.tutor_on = event.tutor
        self._lesson({"event": "lesson-end"})
        if isinstance(event, Resume) and event.phase == "double-offered":
            self._cube("double", self.turn, self.cube[0])
        if isinstance(event, NewGame):
            if self.session is not None:  # the session's game follows with its own score
                self.session, self.score, self.match_length = None, (0, 0), 0
            self.banner = session_banner(self.session, self.tutor_on)
            self.stranded = ()

    def _first_play(self, starter: str, white: int, black: int) -> None:
        """The opening throw decided who starts with those two dice: say it to each."""
        mine, theirs = (white, black) if starter == "white" else (black, white)
        other = "black" if starter == "white" else "white"
        self._tell(
            starter,
            "turn",
            f"You start: you threw {mine}, {other} threw {theirs}. "
            f"Play {white}-{black}: move your men, then press Done.",
            f"The table starts: it threw {mine}, you threw {theirs}. Its play of "
            f"{white}-{black} follows.",
        )
        self._tell(other, "turn", f"{self.name(starter)} starts and plays {white}-{black}.")

    def _lesson(self, event: Mapping[str, Any]) -> None:
        """A lesson's step, result, chart or end: what it says, lights, asks and charts."""
        kind = event["event"]
        if kind == "lesson":
            self._lesson_board(event)
            step, steps = event.get("step"), event.get("steps")
            if isinstance(step, int) and isinstance(steps, int):
                self.step = (step, steps)  # the step counter, in the banner
                self.lesson_title = self.lesson_title or self.banner
                self.banner = f"{self.lesson_title} · step {step} of {steps}"
            if "position" not in event:  # no men to lay out for this step
                self.setup = ()
        if kind == "lesson-result":
            wanted = event.get("wanted")
            if isinstance(wanted, Mapping):  # a wrong play: the play wanted, with arrows
                self.last_play = tuple((str(a), str(b)) for a, b in wanted.get("arrows", ()))
                self.last_move = str(wanted.get("move", ""))
                self.preview = True
        if kind in ("lesson", "lesson-result", "lesson-end"):
            wrong = kind == "lesson-result" and not event["correct"]
            text, source = str(event.get("text", "")), str(event.get("detail", ""))
            # The whole text, the books that play it so and where it comes from, for
            # Select (a long text is cut short in the band); each new text starts with the
            # explanation closed.
            sources = str(event.get("sources", ""))
            detail = "\n\n".join(x for x in (text, sources) if x)
            detail += f"\n\nFrom {source}." if source else ""
            self.show_detail = {}
            self.say(
                str(event.get("to", "both")),
                text,
                detail,
                bool(event.get("warning", wrong)),
                title=self.banner or "The lesson",
                kind="lesson",
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
            self.step, self.setup = None, ()

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
        else:  # a new step starts clean: no arrows of the step (or the play) before
            self.last_play, self.last_move, self.preview = (), "", False

    def _russian_played(self, event: Played) -> None:
        """A part of a Russian throw played: said to the mover; the turn passes when the
        position (``R:<w|b>:...``) puts the other side on roll."""
        mover = str(event.player)
        self.last_move, self.last_play = event.move, ()
        self.lifted, self.targets, self.illegal = None, (), None
        self._clear(mover, "turn", "done", "notice", "wrong")
        self._russian_pips(RussianPosition.from_notation(str(event.position)))
        played = russian_words(event.move) if event.move else "played nothing (no legal move)"
        self.say(mover, f"You {played}.", f"In the books' notation: {event.move}.", kind="said")
        on_roll = "white" if event.position.split(":")[1] == "w" else "black"
        if on_roll != mover:
            self.turn, self.dice = on_roll, None
            self.say(on_roll, "Your turn: throw the dice.")

    def _russian_pips(self, position: RussianPosition) -> None:
        self.pips = (position.pips(Colour.WHITE), position.pips(Colour.BLACK))

    def _played(self, event: Played) -> None:
        """A play: the position after it, and arrows for the play's steps."""
        mover = event.player
        self.set_position(Position.from_id(event.position, mover.other))
        self.last_play = play_arrows(event.play, mover) if event.play is not None else ()


def setup_words(correction: Mapping[str, Any], reader: str) -> str:
    """One location still to put right while laying out, in ``reader``'s own numbering
    (the other colour's own number beside it).

    >>> setup_words({"table": "19", "colour": "black", "have": 4, "want": 5}, "white")
    "Put 1 more black man on your 19 point (black's 6 point)."
    >>> setup_words({"table": "6", "colour": "white", "have": 7, "want": 5}, "white")
    'Take 2 white men off your 6 point.'
    """
    where, colour = str(correction["table"]), Colour.parse(str(correction["colour"]))
    diff = int(correction["want"]) - int(correction["have"])
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


def _by_colour(correction: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    """A set-up correction as one of each colour's: the ordinary game's already are (its
    ``colour``, ``have``, ``want``); Russian backgammon's count (white, black) pairs, a tray
    holding both sides' men.

    >>> _by_colour({"table": "off-white", "have": (3, 0), "want": (15, 0)})
    ({'table': 'off-white', 'colour': 'white', 'have': 3, 'want': 15},)
    """
    have, want = correction["have"], correction["want"]
    if isinstance(have, int):
        return (correction,)
    where = correction["table"]
    return tuple(
        {"table": where, "colour": colour, "have": h, "want": w}
        for colour, h, w in zip(("white", "black"), have, want, strict=True)
        if h != w
    )


def play_arrows(play: Play, mover: Colour) -> tuple[tuple[str, str], ...]:
    """The arrows for a play's steps, as table locations."""
    return tuple((location(mover, s.src), location(mover, s.dst)) for s in play.steps)
