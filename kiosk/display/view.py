"""What the players should see right now, kept up to date from the event stream.

The display draws a :class:`TableView`; it never asks the referee or the game.
``TableView.apply(event)`` folds one application event into the view, one small method a
kind of event. Three jobs are kept apart: the view's state (here), its words
(:mod:`kiosk.display.wording`) and the tutor's payloads, read typed
(:mod:`kiosk.display.payloads`); what has the table is a :class:`~kiosk.events.Kind`.

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
from functools import singledispatchmethod
from typing import Any

from kiosk.display import wording
from kiosk.display.payloads import CoachWords, Correction, LessonPage
from kiosk.display.prompts import OWN, VERDICTS, Prompt, Prompts, Text
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
    Hints,
    Illegal,
    Kind,
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
from kiosk.rules.blocked import why_no_play
from kiosk.rules.moves import Play
from kiosk.rules.russian import RussianPosition
from kiosk.table.sensing import location

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
    neither, nor has a lesson.

    >>> view = TableView(score=(2, 1), match_length=5)
    >>> score_lines(view, "white")
    ('You 2, Black 1  (to 5)', 'Cube in the middle')
    >>> view.table = "black"  # against the table: white is the visitor
    >>> score_lines(view, "white")[0], score_lines(view, "black")[0]
    ('You 2, the table 1  (to 5)', 'The table 1, you 2  (to 5)')
    """
    if view.mode == Kind.RUSSIAN:  # the waiting game's score and cube are not this game's
        return "Russian: not scored", "No cube in this game"
    if view.in_lesson:  # nor the lesson's (a Russian step's too)
        return "Lesson: not scored", "No cube in a lesson"
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
    other = "black" if colour == "white" else "white"
    if colour == view.table and view.visitor is not None:  # the table's own band
        us, them = "The table", "you"
    else:
        name = view.name(other)
        us, them = "You", "the table" if name == "The table" else name
    if session is not None and session.kind == "money":
        first = f"Money: {us.lower() if us == 'You' else us} {mine:+d}, {them} {theirs:+d}"
    else:
        first = f"{us} {mine}, {them} {theirs}"
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


@dataclass
class TableView:
    """Everything the display shows; locations are the table's (white's numbering)."""

    position: Position = field(default_factory=Position.standard)
    turn: str = "white"
    dice: tuple[int, int] | None = None
    cocked: tuple[int, ...] = ()
    lost_throw: tuple[str, tuple[int, int]] | None = None  # a throw with no play, and whose
    movable: tuple[str, ...] = ()  # locations whose men may move now
    lifted: str | None = None  # location a man was lifted from
    targets: tuple[str, ...] = ()  # where the lifted man may go
    grades: dict[str, str] = field(default_factory=dict)  # target -> best, fair or costly
    # (a graded hint; drawn only for the targets on show)
    hints_left: int | None = None  # a hint budget's graded lifts left after this one
    hint_note: str = ""  # "think first" or "hints used up", on the board by the lifted man's
    # legend (a lesson's text holds the player's line)
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
    mode: Kind = Kind.GAME  # what has the table: the turn label is the game's only
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
    setup: tuple[Correction, ...] = ()  # men still to lay out, by location and colour (drawn
    # as pale men to place, crosses on men to take away)
    step: tuple[int, int] | None = None  # a lesson's step and how many it has
    lesson_title: str = ""  # the lesson's banner without its step
    lesson_result: bool | None = None  # the learner's last answer: right, wrong or none yet
    answers: tuple[str, ...] = ()  # a lesson question's choices
    answer_cursor: int = 0  # the choice Done would give
    chart: dict[str, Any] | None = None  # a lesson's ``chart`` event: title, series, wrong
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
        if self.table is None or self.mode != Kind.GAME:
            return None
        return "black" if self.table == "white" else "white"

    def sides(self) -> tuple[str, ...]:
        """The sides a card for everybody is drawn facing: against the table, only the
        visitor's (nobody sits at the table's own side)."""
        visitor = self.visitor
        return (visitor,) if visitor is not None else ("white", "black")

    @property
    def in_lesson(self) -> bool:
        """Whether a lesson has the table: the lesson mode, or a lesson's step on show (a
        lesson's events folded without the mode's, as a Russian step's are by its engine).

        >>> view = TableView()
        >>> view.in_lesson
        False
        >>> view.apply({"event": "lesson", "to": "both", "lesson": "russian", "title": "T",
        ...             "step": 12, "steps": 13, "kind": "russian", "text": "Play 6-6."})
        >>> view.in_lesson
        True
        """
        return self.mode == Kind.LESSON or self.step is not None

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
            grades=dict(self.grades),
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
        kind: Prompt = Prompt.TURN,
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

    def _tell(
        self, colour: str, kind: Prompt, text: str, table_words: str = "", **more: Any
    ) -> None:
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
        self._fold(event)

    # -- one event at a time: what it changes in the view ---------------------------------

    @singledispatchmethod
    def _fold(self, event: Event) -> None:
        """An event that changes nothing the display shows."""

    @_fold.register
    def _dice(self, event: Dice) -> None:
        if len(event.dice) != 2:
            return
        d1, d2 = event.dice
        self.dice, self.opening = (d1, d2), False
        self.turn = str(event.player)
        self.cocked, self.lost_throw = (), None
        self.illegal = None
        self.prompts.clear_all(Prompt.WRONG, Prompt.NOTICE, Prompt.DONE)
        self._tell(self.turn, Prompt.TURN, *wording.threw(d1, d2))

    @_fold.register
    def _destinations(self, event: Destinations) -> None:
        src, to, table = event.src, event.to, event.table
        if table:
            src, to = table.get("from", src), table.get("to", to)
        self.lifted, self.targets = src, tuple(to)
        self._men_down = _men(self.board)
        self._clear(str(event.player), Prompt.NOTICE)  # a man in the hand is no man to push
        self.grades, self.hints_left, self.hint_note = {}, None, ""  # hinted again, or not

    @_fold.register
    def _hints(self, event: Hints) -> None:
        """How much of the lifted man's destinations the hint budget shows."""
        if event.src != self.lifted:  # the man is down again: these hints are too late
            return
        who = str(event.player)
        if event.state == "think":
            self.targets, self.grades, self.hint_note = (), {}, wording.THINK_FIRST_NOTE
            self._tell(who, Prompt.NOTICE, wording.THINK_FIRST, wording.THINK_FIRST)
        elif event.state == "used-up":
            self.grades, self.hint_note = {}, wording.HINTS_USED_UP_NOTE
            self._tell(who, Prompt.NOTICE, wording.HINTS_USED_UP, wording.HINTS_USED_UP)
        elif event.state == "graded" and event.grades:
            self.grades = {w: g for w, g in event.grades.items() if w in self.targets}
            self.hints_left = None if event.left is MISSING else int(event.left)

    @_fold.register
    def _illegal(self, event: Illegal) -> None:
        self.illegal = (event.table or self.lifted or "", event.reason, event.message)
        self._clear(str(event.player), Prompt.DONE, Prompt.NOTICE)
        self.say(str(event.player), event.message, event.law or "", warning=True, kind=Prompt.WRONG)

    @_fold.register
    def _legal(self, event: Legal) -> None:
        self.illegal = None
        self.lifted, self.targets = None, ()
        self._clear(str(event.player), Prompt.WRONG)
        words = wording.fine(self.dice)
        self._tell(str(event.player), Prompt.TURN, words, words)

    @_fold.register
    def _part(self, event: PartToPlay) -> None:
        self.turn, self.dice = str(event.player), None
        self._clear(self.turn, Prompt.NOTICE)  # a doublet chosen: the part is on
        self.say(self.turn, event.message)

    @_fold.register
    def _throw_again(self, event: ThrowAgain) -> None:
        self.turn = str(event.player)
        self._clear(self.turn, Prompt.NOTICE)
        self.say(self.turn, wording.THROW_AGAIN)

    @_fold.register
    def _played_event(self, event: Played) -> None:
        if event.variant == "russian":
            self._russian_played(event)
            return
        if event.position:
            self._played(event)
        self.last_move = event.move
        lost = not event.move and not event.bonus and len(event.dice) == 2
        self.dice = None
        self.lost_throw = (str(event.player), event.dice) if lost else None  # stays in sight
        self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
        mover = str(event.player)
        self.turn = str(event.player.other)
        self.prompts.clear_all(Prompt.ANSWER)  # which play, a wrong move: answered
        old = () if mover == self.table else VERDICTS  # the visitor's verdict stays
        self._clear(mover, Prompt.TURN, Prompt.DONE, Prompt.NOTICE, Prompt.WRONG, *old)
        if lost:
            d1, d2 = event.dice
            why = why_no_play(self.position.with_turn(event.player), d1, d2)
            self._tell(mover, Prompt.SAID, f"No play with {d1}-{d2}. {why}", why)
        else:
            self._tell(mover, Prompt.SAID, *wording.played(event.move))
        self._tell(self.turn, Prompt.TURN, *wording.YOUR_TURN)

    @_fold.register
    def _table_plays(self, event: OpponentPlayShown) -> None:
        self.table = str(event.player)
        self.last_play = tuple((str(a), str(b)) for a, b in event.arrows or ())
        self.last_move = event.move
        self.say(self.table, wording.table_own(event.move, event.text), kind=OWN)
        self._tell(self.table, Prompt.TURN, "", wording.table_plays(event.move))

    @_fold.register
    def _wrong_move(self, event: WrongMove) -> None:  # laws mode
        self.say(str(event.player.other), event.message, event.law or "", True, kind=Prompt.ANSWER)

    @_fold.register
    def _penalty(self, event: Penalty) -> None:
        self.say(str(event.player), event.message, event.law or "", warning=True, kind=Prompt.SAID)

    @_fold.register
    def _choose(self, event: Choose) -> None:
        self.choices = tuple(event.options)
        self.say(str(event.player), event.message, kind=Prompt.ANSWER)

    @_fold.register
    def _cocked(self, event: Cocked) -> None:
        self.cocked = (*self.cocked, event.well)
        self.say("both", event.message, event.law or "", warning=True, kind=Prompt.WRONG)

    @_fold.register
    def _opening(self, event: Opening) -> None:
        message, starter, dice = event.message, event.starter, event.dice
        if self.cocked:  # a good throw read: the cocked die's call to throw again is done
            self.cocked = ()
            self.prompts.clear_all(Prompt.WRONG)
        self.say("both", message[:1].upper() + message[1:])
        if starter is None:
            return
        self.opening = False
        self.turn = str(starter)
        if dice and len(dice) == 2 and all(isinstance(d, int) for d in dice):
            self.dice = (dice[0], dice[1])  # each side's die, drawn together
            if event.plays:
                self._first_play(str(starter), dice[0], dice[1])

    @_fold.register
    def _setup(self, event: Setup) -> None:
        self._set_up(tuple(event.corrections), event.message, event.law or "")

    @_fold.register
    def _setup_ok(self, event: SetupOk) -> None:
        self.prompts.clear_all(Prompt.WRONG)
        self.setup = ()
        over = bool(event.restored) and self.winner is not None  # a game over: not played on
        self.say("both", wording.set_up(bool(event.restored), over))

    @_fold.register
    def _session(self, event: SessionShown) -> None:
        self.session = event
        if not event.order:  # a chouette's tallies are drawn from the names
            self.score = (event.score[0], event.score[1])
        self.match_length = int(event.length or 0)
        self.stranded = tuple(event.stranded or ())
        if self.mode is Kind.GAME:
            self.banner = session_banner(event, self.tutor_on)

    @_fold.register
    def _over(self, event: GameOver) -> None:
        self.winner = str(event.winner)
        self.dice, self.lifted, self.targets, self.illegal = None, None, (), None
        white, black = self.score
        points = event.points
        won = event.winner == Colour.WHITE
        self.score = (white + points, black) if won else (white, black + points)
        self._game_over(self.winner, event.result, points, bool(event.passed))

    @_fold.register
    def _status(self, event: TableStatus) -> None:
        self.connected = event.status == "connected"
        self.connection_message = event.message or ""

    @_fold.register
    def _notice(self, event: Notice) -> None:  # the referee waits on the player on turn
        self.say(self.turn, event.message, kind=Prompt.NOTICE)

    @_fold.register
    def _message(self, event: Message) -> None:
        if event.prompt == "review":
            self._review(event.to, event.text)
            return
        if event.complete:  # a whole play is on the board: nothing is lifted
            self.lifted, self.targets = None, ()
        default = Prompt.DONE if event.complete else Prompt.TURN
        kind = Prompt(event.prompt) if event.prompt else default
        self.say(event.to, event.text, event.detail or "", bool(event.warning), kind=kind)

    @_fold.register
    def _coach(self, event: CoachVerdict) -> None:
        words = CoachWords.of(event.data)
        self.say(
            words.to,
            words.text,
            words.detail,
            words.warning,
            words.rating,
            words.take_back,
            kind=Prompt.COACH,
        )
        if words.take_back and not words.cube and words.to in ("white", "black"):
            other = str(Colour.parse(words.to).other)  # his throw would end the offer
            self._tell(other, Prompt.TURN, wording.may_take_back(self.name(words.to)))

    @_fold.register
    def _lesson_event(self, event: LessonEvent) -> None:
        if event.inner is not None:
            self._fold(event.inner)
        else:
            self._lesson(LessonPage.of(event.data))

    @_fold.register
    def _menu(self, event: MenuShown) -> None:
        self.menu_title = event.title
        self.menu = tuple(event.items)
        self.menu_cursor = event.cursor
        self.menu_footer = event.footer or ""
        self.menu_player = None if event.player is MISSING else str(event.player)
        self.menu_numbers = tuple(event.numbers or ())

    @_fold.register
    def _board(self, event: Board) -> None:
        if event.board != self.board:
            self.prompts.clear_all(Prompt.NOTICE)  # its cause is gone, or said again
        self.board = dict(event.board)
        if self.lifted is not None and _men(self.board) > self._men_down:
            self.lifted, self.targets = None, ()  # the lifted man is down again

    @_fold.register
    def _mode(self, event: ModeChanged) -> None:
        mode = event.mode
        if mode != self.mode:  # what the last mode asked is not this one's
            self.prompts.clear_all()
            self.show_detail = {}
            self.last_play, self.last_move = (), ""
            self.setup, self.step, self.lesson_title = (), None, ""
            if self.mode is Kind.GAME:  # the waiting game's first throw, kept for it
                self._waiting_opening = self.opening
            elif mode is Kind.GAME:
                self.opening = self._waiting_opening
        elif self.lesson_title and event.banner != self.lesson_title:  # another lesson
            self.step, self.lesson_title = None, ""
        self.banner, self.mode = event.banner, mode
        self.hide_pips = False
        if mode is Kind.RUSSIAN:  # every man in his tray: the count along the common track
            self.opening, self.winner, self.turn = False, None, "white"
            self._russian_pips(RussianPosition.start())
        if mode is not Kind.GAME:  # the waiting game's marks and dice are not the lesson's
            self.illegal, self.lifted, self.targets, self.choices = None, None, (), ()
            self.dice, self.cocked = None, ()

    @_fold.register
    def _detail(self, event: Detail) -> None:
        reader = str(event.player)
        self.show_detail[reader] = not self.show_detail.get(reader, False)

    @_fold.register
    def _cube_moved(self, event: CubeMoved) -> None:
        self._cube(event.action, str(event.player), int(event.cube[0]))
        self.cube = (int(event.cube[0]), event.cube[1])

    @_fold.register(NewGame)
    @_fold.register(Resume)
    @_fold.register(PositionShown)
    def _position(self, event: NewGame | Resume | PositionShown) -> None:
        self._shown(event)

    def _clear(self, colour: str, *kinds: Prompt) -> None:
        """Drop ``colour``'s prompts of ``kinds`` (the visitor's, for the table's side)."""
        self.prompts.clear(self.facing(colour) if colour == self.table else colour, *kinds)

    def _cube(self, action: str, player: str, value: int) -> None:
        """A double offered (``player`` doubles; the cube shows ``value`` before it),
        taken or passed (``player`` answers): who must answer, and what follows."""
        other = "black" if player == "white" else "white"
        if action == "double":
            stake = 2 * value
            ask, wait = wording.double_offered(
                self.name(player), self.name(other), stake, other == self.table
            )
            self._tell(other, Prompt.ANSWER, ask)
            self._tell(player, Prompt.TURN, wait)
            return
        self.prompts.clear_all(Prompt.ANSWER)
        if action == "take":
            doubler = other
            if player == self.table:
                self._tell(doubler, Prompt.TURN, wording.table_takes(value))
                return
            to_taker, to_doubler = wording.taken(value, self.name(player), self.name(doubler))
            self._tell(player, Prompt.TURN, to_taker)
            self._tell(doubler, Prompt.TURN, *to_doubler)

    def _game_over(self, winner: str, result: str, points: int, passed: bool) -> None:
        """The result on each player's line: the winner's own words, the loser's."""
        self.prompts.clear_all(Prompt.ANSWER, Prompt.TURN, Prompt.DONE, Prompt.NOTICE, Prompt.WRONG)
        loser = "black" if winner == "white" else "white"
        names = {who: self.name(who) for who in ("white", "black")}
        for who in ("white", "black"):
            if who == self.table and self.visitor is not None:
                continue
            text = wording.game_over(who, winner, loser, names, result, points, passed)
            self.prompts.put(who, Prompt.RESULT, Text(text))

    def _set_up(self, corrections: tuple[Mapping[str, Any], ...], said: str, law: str) -> None:
        """Men to lay out: drawn as pale men where they go (crosses on men to take away),
        with a count of what is left to do, not a telling-off one man at a time."""
        self.setup = tuple(c for pair in corrections for c in Correction.each(pair))
        if not self.setup:  # a referee's word with nothing to show: said as it is
            self.say("both", said, law, kind=Prompt.WRONG)
            return
        text = wording.setup_todo(self.setup)
        for who in self.sides():
            words = [wording.setup_words(c, who) for c in self.setup]
            detail = "What is left to do:\n" + "\n".join(words) + (f"\n\n{law}" if law else "")
            self.say(who, text, detail, kind=Prompt.WRONG)

    def _review(self, colour: str, review: str) -> None:
        """The table's review of the visitor's plays: the result's full explanation (the
        result stays on the line)."""
        result = self.prompts.get(colour, Prompt.RESULT)
        if result is None:  # its first line said, the whole of it on Select
            self.say(colour, review.splitlines()[0], review, kind=Prompt.SAID)
            return
        detail = f"{result.detail}\n\n{review}" if result.detail else review
        self.prompts.put(colour, Prompt.RESULT, replace(result, detail=detail, title=result.text))

    def _shown(self, event: NewGame | Resume | PositionShown) -> None:
        """A position to show: a new game, a game resumed, a replay's step, a take-back."""
        self.turn = str(event.turn)
        self.set_position(Position.from_id(event.position, event.turn))
        dice = getattr(event, "dice", None)  # a new game has none yet
        self.dice = (dice[0], dice[1]) if dice else None
        self.lifted, self.targets, self.illegal, self.choices = None, (), None, ()
        self.cocked, self.lost_throw = (), None
        if isinstance(event, PositionShown):
            self.prompts.clear_all(Prompt.WRONG, Prompt.DONE, Prompt.NOTICE)
            self.last_play = tuple((a, b) for a, b in event.arrows or ())
            self.last_move = event.move or ""
            if event.text:
                self.say("both", event.text, event.detail or "")
            return
        self.prompts.clear_all()
        self.show_detail = {}
        self.last_play, self.last_move = (), ""
        self.winner, self.setup = None, ()
        table = None if event.table is MISSING else str(event.table)
        if isinstance(event, NewGame) and table != self.table and self.session is None:
            self.score = (0, 0)  # another opponent: a two players' tally is not the table's
        self.table = table
        self.opening = isinstance(event, NewGame) or getattr(event, "phase", "") == "opening"
        self.cube = (int(event.cube[0]), event.cube[1])
        self.tutor_on = event.tutor
        self._lesson(LessonPage("lesson-end"))
        if isinstance(event, Resume) and event.phase == "double-offered":
            self._cube("double", self.turn, self.cube[0])
        if isinstance(event, NewGame):
            if self.session is not None:  # the session's game follows with its own score
                self.session, self.score, self.match_length = None, (0, 0), 0
            self.banner = session_banner(self.session, self.tutor_on)
            self.stranded = ()
        elif isinstance(event, Resume) and self.mode == "game":  # "Tutor on" after a restart
            self.banner = session_banner(self.session, self.tutor_on)

    def _first_play(self, starter: str, white: int, black: int) -> None:
        """The opening throw decided who starts with those two dice: say it to each."""
        other = "black" if starter == "white" else "white"
        who = "the table" if other == self.table and self.visitor is not None else other
        to_starter, to_other = wording.first_play(starter, who, white, black, self.name(starter))
        self._tell(starter, Prompt.TURN, *to_starter)
        self._tell(other, Prompt.TURN, to_other)

    def _lesson(self, page: LessonPage) -> None:
        """A lesson's step, result, chart or end: what it says, lights, asks and charts."""
        kind = page.kind
        if kind == "lesson":
            self._lesson_board(page)
            if page.step is not None:
                step, steps = page.step
                self.step = page.step  # the step counter, in the banner
                self.lesson_title = self.lesson_title or self.banner
                self.banner = f"{self.lesson_title} · step {step} of {steps}"
            if not page.lays_out:  # no men to lay out for this step
                self.setup = ()
        if kind == "lesson-result" and page.wanted is not None:  # a wrong play: the play
            self.last_play, self.last_move = page.wanted.arrows, page.wanted.move  # wanted
            self.preview = True
        if page.says:
            wrong = kind == "lesson-result" and not page.correct
            # The whole text, the books that play it so and where it comes from, for
            # Select (a long text is cut short in the band); each new text starts with the
            # explanation closed.
            self.show_detail = {}
            warning = wrong if page.warning is None else page.warning
            title = self.banner or "The lesson"
            self.say(page.to, page.text, page.detail, warning, title=title, kind=Prompt.LESSON)
        if kind == "lesson":
            self.lights = page.lights
            self.lesson_result = None
            self.answers = page.choices
            self.answer_cursor = page.selected
            if page.step_kind != "chart":
                self.chart = None
        elif kind == "lesson-result":
            self.lights = page.lights
            self.lesson_result = page.correct
            if page.correct:  # a wrong answer: the choices stay, to answer again
                self.answers = ()
        elif kind == "chart" and page.chart is not None:
            self.chart = {k: _plain(v) for k, v in page.chart.items()}
        elif kind in ("lesson-end", "lesson-exit"):
            self.lights, self.lesson_result, self.answers, self.chart = (), None, (), None
            if self.preview:
                self.last_play, self.last_move = (), ""
            self.hide_pips, self.preview = False, False
            self.step, self.setup = None, ()

    def _lesson_board(self, page: LessonPage) -> None:
        """A lesson step's pip counts (hidden while it asks for one) and its preview of the
        book's play: arrows from each man to its destination (the step's text names it)."""
        self.hide_pips = page.hide_pips
        if page.pips is not None:
            self.pips = page.pips
        if page.preview is not None:
            self.last_play, self.last_move = page.preview.arrows, page.preview.move
            self.preview = True
        else:  # a new step starts clean: no arrows of the step (or the play) before
            self.last_play, self.last_move, self.preview = (), "", False

    def _russian_played(self, event: Played) -> None:
        """A part of a Russian throw played: said to the mover; the turn passes when the
        position (``R:<w|b>:...``) puts the other side on roll."""
        mover = str(event.player)
        self.last_move, self.last_play = event.move, ()
        self.lifted, self.targets, self.illegal = None, (), None
        self._clear(mover, Prompt.TURN, Prompt.DONE, Prompt.NOTICE, Prompt.WRONG)
        self._russian_pips(RussianPosition.from_notation(str(event.position)))
        played = (
            wording.russian_words(event.move) if event.move else "played nothing (no legal move)"
        )
        self.say(
            mover, f"You {played}.", f"In the books' notation: {event.move}.", kind=Prompt.SAID
        )
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
