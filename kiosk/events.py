"""Every event of the table, typed: the referee's and the application's.

Events are frozen dataclasses handled with ``match``; colours stay :class:`Colour` and a
play stays a :class:`~kiosk.rules.moves.Play` inside the program. JSON is only at the
edges (the store, ``kiosk run --events``, ``kiosk scenario``): :meth:`Event.to_json` gives
the dict those tools have always read, key for key and in the same order, and
:func:`from_json` reads one back. Fields a given event does not carry are ``MISSING`` and
left out of its JSON.

The coach's verdicts and the lessons' events are shaped by the tutor: :class:`CoachVerdict` and
:class:`LessonEvent` carry its JSON as it is (a lesson's event also as the typed event
inside it, where there is one).

>>> event = event_for("dice", player="white", dice=[6, 5])
>>> event
Dice(player=<Colour.WHITE: 0>, dice=(6, 5))
>>> event.to_json()
{'event': 'dice', 'player': 'white', 'dice': [6, 5]}
>>> from_json(event.to_json()) == event
True
>>> match event:
...     case Dice(player=Colour.WHITE, dice=(d1, d2)):
...         print(d1 + d2)
11
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, cast

from kiosk.rules import Colour
from kiosk.rules.moves import Play


class _Missing:
    """The value of a field an event does not carry."""

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


def _opt(**metadata: Any) -> Any:
    return field(default=MISSING, metadata=metadata)


def _colour(optional: bool = False) -> Any:
    if optional:
        return field(default=MISSING, metadata={"colour": True})
    return field(metadata={"colour": True})


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Colour):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, kw_only=True)
class Event:
    """An event; subclasses name themselves in ``name`` (the JSON's ``"event"``)."""

    name: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is MISSING or not f.metadata.get("json", True):
                continue
            if f.metadata.get("colour") and isinstance(value, str):
                value = Colour.parse(value)
            object.__setattr__(self, f.name, _freeze(value))

    def to_json(self) -> dict[str, Any]:
        """The event as JSON has always carried it."""
        out: dict[str, Any] = {"event": self.name}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is MISSING or not f.metadata.get("json", True):
                continue
            out[f.metadata.get("key", f.name)] = _thaw(value)
        return out

    def __getitem__(self, key: str) -> Any:
        """A field as the JSON has it (for tools and tests that read events as JSON)."""
        return self.to_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        """A field as the JSON has it, or ``default``."""
        return self.to_json().get(key, default)


@dataclass(frozen=True, kw_only=True)
class _Carried(Event):
    """An event whose fields another part shapes: its JSON, kept as it came."""

    data: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", _freeze(dict(self.data)))

    def to_json(self) -> dict[str, Any]:
        return cast("dict[str, Any]", _thaw(self.data))


# -- the referee's events ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Cocked(Event):
    """A die in a well is not lying flat."""

    name: ClassVar[str] = "cocked"
    well: int
    message: str
    law: str = _opt()


@dataclass(frozen=True, kw_only=True)
class Error(Event):
    """Something asked of the referee (or a script) cannot be done."""

    name: ClassVar[str] = "error"
    line: int = _opt()
    message: str


@dataclass(frozen=True, kw_only=True)
class SetupOk(Event):
    """The men are laid out as the game wants them."""

    name: ClassVar[str] = "setup-ok"
    restored: bool


@dataclass(frozen=True, kw_only=True)
class Setup(Event):
    """How to lay the men out: the corrections still needed."""

    name: ClassVar[str] = "setup"
    corrections: tuple[Any, ...]
    message: str
    law: str = _opt()


@dataclass(frozen=True, kw_only=True)
class Opening(Event):
    """The opening throw: who starts (None: a tie, throw again), with what."""

    name: ClassVar[str] = "opening"
    starter: Colour | None = _colour()
    dice: tuple[Any, ...] = _opt()
    option: bool = _opt()
    message: str
    plays: bool = field(default=False, metadata={"json": False}, compare=False)  # the
    # starter plays the opening throw (not an option, not a new throw of both dice)


@dataclass(frozen=True, kw_only=True)
class Dice(Event):
    """The player on roll threw."""

    name: ClassVar[str] = "dice"
    player: Colour = _colour()
    dice: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class Destinations(Event):
    """A man was lifted: where it may go (points in the mover's numbering, and on the table)."""

    name: ClassVar[str] = "destinations"
    src: str = field(metadata={"key": "from"})
    to: tuple[str, ...]
    player: Colour = _colour()
    table: Mapping[str, Any] = _opt()


@dataclass(frozen=True, kw_only=True)
class Choose(Event):
    """The switches cannot tell these plays apart: which was made?"""

    name: ClassVar[str] = "choose"
    player: Colour = _colour()
    options: tuple[str, ...]
    message: str


@dataclass(frozen=True, kw_only=True)
class Played(Event):
    """A turn ended: the play (``play``, when it was a legal one) and the position after."""

    name: ClassVar[str] = "play"
    player: Colour = _colour()
    dice: tuple[int, int]
    move: str
    accepted: bool = _opt()
    position: str = _opt()
    bonus: bool = _opt()  # Russian backgammon: a part of a doublet's bonus
    play: Play | None = field(default=None, metadata={"json": False}, compare=False)
    variant: str = field(default="standard", metadata={"json": False}, compare=False)


@dataclass(frozen=True, kw_only=True)
class GameOver(Event):
    """The game is won: by whom, how, for how many points (as the session being played
    counts them, with its score after the game)."""

    name: ClassVar[str] = "game-over"
    winner: Colour = _colour()
    result: str
    points: int
    passed: bool = _opt()
    score: tuple[int, ...] = _opt()  # the session's score after the game, if one is played
    match_over: bool = _opt()  # in a match: whether this game decided it


@dataclass(frozen=True, kw_only=True)
class WrongMove(Event):
    """Laws mode: the turn ended on a wrong move, which stands unless the adversary objects."""

    name: ClassVar[str] = "wrong-move"
    player: Colour = _colour()
    reason: str
    message: str
    law: str = _opt()


@dataclass(frozen=True, kw_only=True)
class Penalty(Event):
    """Men borne off while one was up go back to the bar."""

    name: ClassVar[str] = "penalty"
    player: Colour = _colour()
    message: str
    law: str = _opt()


@dataclass(frozen=True, kw_only=True)
class Illegal(Event):
    """A man was put down where the rules do not allow: why, the law, where to mark."""

    name: ClassVar[str] = "illegal"
    reason: str
    message: str
    law: str = _opt()
    player: Colour = _colour()
    table: str | None = _opt()


@dataclass(frozen=True, kw_only=True)
class Legal(Event):
    """The board is right again."""

    name: ClassVar[str] = "legal"
    player: Colour = _colour()


# -- the application's events --------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TableStatus(Event):
    """The link to the table: connected, disconnected or incompatible."""

    name: ClassVar[str] = "table"
    status: str
    message: str = _opt()
    runtime: str = _opt()  # on connecting: the interpreter running the firmware
    sensing: str = _opt()  # on connecting: occupancy (one reed a slot) or polarity (colour)


@dataclass(frozen=True, kw_only=True)
class Notice(Event):
    """A plain word from the referee that is no verdict: why nothing happens yet, or what
    to do next; ``about`` names its cause (``"dice-settling"``, ``"switch-fault"``...)."""

    name: ClassVar[str] = "notice"
    about: str
    message: str


@dataclass(frozen=True, kw_only=True)
class Sensing(Event):
    """How the table senses its men: ``"colour"`` (polarity) or ``"occupancy"``."""

    name: ClassVar[str] = "sensing"
    mode: str


@dataclass(frozen=True, kw_only=True)
class Message(Event):
    """Words for one player or ``"both"``."""

    name: ClassVar[str] = "message"
    to: str
    text: str
    detail: str = _opt()
    warning: bool = _opt()
    speak: bool = _opt()
    complete: bool = _opt()  # a whole play is on the board: nothing is lifted any more
    prompt: str = _opt()  # the kind of prompt it is (kiosk.display.prompts; "turn" if none)


@dataclass(frozen=True, kw_only=True)
class NewGame(Event):
    """A game starts from ``position``."""

    name: ClassVar[str] = "new-game"
    game: int | None
    position: str
    turn: Colour = _colour()
    profile: str
    tutor: bool
    dice_source: str
    cube: tuple[Any, ...]
    table: Colour = _colour(optional=True)  # the table's own side, in a game against it


@dataclass(frozen=True, kw_only=True)
class Resume(Event):
    """The unfinished game goes on."""

    name: ClassVar[str] = "resume"
    game: int
    position: str
    turn: Colour = _colour()
    turns: int
    phase: str
    dice: tuple[int, int] | None
    tutor: bool
    cube: tuple[Any, ...]
    table: Colour = _colour(optional=True)  # the table's own side, in a game against it


@dataclass(frozen=True, kw_only=True)
class PositionShown(Event):
    """A position to show (a replay's step, a game restored or a play taken back)."""

    name: ClassVar[str] = "position"
    position: str
    turn: Colour = _colour()
    dice: tuple[int, int] | None
    move: str = _opt()
    arrows: tuple[Any, ...] = _opt()
    text: str = _opt()
    detail: str = _opt()


@dataclass(frozen=True, kw_only=True)
class TakeBack(Event):
    """A play taken back: the mover plays the same dice again."""

    name: ClassVar[str] = "take-back"
    player: Colour = _colour()
    dice: tuple[int, int]
    move: str
    position: str
    number: int


@dataclass(frozen=True, kw_only=True)
class CubeMoved(Event):
    """A double offered, taken or passed; the cube as [value, owner or None]."""

    name: ClassVar[str] = "cube"
    action: str
    player: Colour = _colour()
    cube: tuple[Any, ...]


@dataclass(frozen=True, kw_only=True)
class ModeChanged(Event):
    """The table is now in a game, a lesson, a replay or the demo."""

    name: ClassVar[str] = "mode"
    mode: str
    lesson: str = _opt()
    banner: str


@dataclass(frozen=True, kw_only=True)
class Detail(Event):
    """Open or close the full explanation on a player's side."""

    name: ClassVar[str] = "detail"
    player: Colour = _colour()


@dataclass(frozen=True, kw_only=True)
class Button(Event):
    """A button pressed (``done`` carries the player whose button it is)."""

    name: ClassVar[str] = "button"
    button: str = field(metadata={"key": "name"})
    player: Colour = _colour(optional=True)


@dataclass(frozen=True, kw_only=True)
class Board(Event):
    """Where the table senses men now: location -> (white, black)."""

    name: ClassVar[str] = "board"
    board: Mapping[str, tuple[int, int]]


@dataclass(frozen=True, kw_only=True)
class MenuShown(Event):
    """A card over the board (a menu, the PIN, a notice); no items: none shown."""

    name: ClassVar[str] = "menu"
    title: str
    items: tuple[str, ...]
    cursor: int
    footer: str = _opt()
    player: Colour = _colour(optional=True)
    numbers: tuple[int, ...] = _opt()  # each item's number key, where a keyboard picks it


@dataclass(frozen=True, kw_only=True)
class CoachVerdict(_Carried):
    """The coach's verdict on a play (its fields are the tutor's)."""

    name: ClassVar[str] = "coach"

    @property
    def to(self) -> str:
        """The player the verdict is about."""
        return str(self.data.get("to", "both"))

    @property
    def take_back(self) -> bool:
        """Whether the play may be taken back."""
        return bool(self.data.get("take_back"))

    @property
    def turn(self) -> int | None:
        """The turn rated, counted from 1 (set by the application)."""
        turn = self.data.get("turn")
        return turn if isinstance(turn, int) else None


@dataclass(frozen=True, kw_only=True)
class LessonEvent(_Carried):
    """An event of a lesson (its engine's, or its referee's tagged with the lesson)."""

    name: ClassVar[str] = "lesson"
    inner: Event | None = field(default=None, compare=False)

    @property
    def kind(self) -> str:
        """What happened: ``lesson``, ``lesson-result``, ``chart``, ``dice``..."""
        return str(self.data["event"])

    @property
    def lesson(self) -> str:
        """The lesson's id."""
        return str(self.data["lesson"])


@dataclass(frozen=True, kw_only=True)
class OpponentPlayShown(Event):
    """The table's own play, shown for the visitor to move its men (a game against the
    table): ``position`` is the Position ID after it, ``play`` the play itself; where the
    application shows it, ``arrows`` (the table locations of its steps) and ``text`` (its
    words)."""

    name: ClassVar[str] = "opponent-play"
    player: Colour = _colour()
    dice: tuple[int, int]
    move: str
    position: str
    arrows: tuple[Any, ...] = _opt()
    text: str = _opt()
    play: Play | None = field(default=None, metadata={"json": False}, compare=False)


@dataclass(frozen=True, kw_only=True)
class PartToPlay(Event):
    """Russian backgammon: the part of a throw to play now (``dice``: two numbers, or a
    doublet's four), whether it is the bonus, and the words for it ("Now four 1s")."""

    name: ClassVar[str] = "part"
    player: Colour = _colour()
    dice: tuple[int, ...]
    bonus: bool
    message: str


@dataclass(frozen=True, kw_only=True)
class ThrowAgain(Event):
    """Russian backgammon: the doublet's bonus is played; the same player throws again."""

    name: ClassVar[str] = "throw-again"
    player: Colour = _colour()


@dataclass(frozen=True, kw_only=True)
class CrawfordGame(Event):
    """The Crawford game of a match begins: nobody may double in it."""

    name: ClassVar[str] = "crawford"


@dataclass(frozen=True, kw_only=True)
class ChouetteSeating(Event):
    """A chouette's seats: the player in the box, the playing opponent (``captain``) and
    the order of all players, partners included, as they move up."""

    name: ClassVar[str] = "chouette"
    box: str
    captain: str
    order: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class SessionShown(Event):
    """The session being played, for the score band: its kind and title, the score (white's
    and black's, or each player's tally in a chouette, in ``names`` order), a match's
    ``length``, whether this is the Crawford game, each side's chance to win a match
    (``chances``, from the table named in ``source``), a chouette's seating ``order`` (the
    box, the playing opponent, the partners), and after a game scored by stranded men the
    count under the loser's men: (table location, men, worth each) zone by zone."""

    name: ClassVar[str] = "session"
    kind: str
    title: str
    score: tuple[int, ...]
    names: tuple[str, ...]
    length: int = _opt()
    crawford: bool = _opt()
    chances: tuple[float, float] = _opt()
    source: str = _opt()
    order: tuple[str, ...] = _opt()
    stranded: tuple[tuple[str, int, int], ...] = _opt()


EVENTS: dict[str, type[Event]] = {
    cls.name: cls
    for cls in (
        Cocked,
        Error,
        SetupOk,
        Setup,
        Opening,
        Dice,
        Destinations,
        Choose,
        Played,
        GameOver,
        WrongMove,
        Penalty,
        Illegal,
        Legal,
        TableStatus,
        Notice,
        Sensing,
        Message,
        NewGame,
        Resume,
        PositionShown,
        TakeBack,
        CubeMoved,
        ModeChanged,
        Detail,
        Button,
        Board,
        MenuShown,
        OpponentPlayShown,
        CrawfordGame,
        ChouetteSeating,
        SessionShown,
        PartToPlay,
        ThrowAgain,
    )
}


def event_for(kind: str, /, **fields: Any) -> Event:
    """The typed event ``kind`` with the fields as its JSON names them (``from``, ``name``)."""
    cls = EVENTS.get(kind)
    if cls is None:
        raise ValueError(f"no event is called {kind!r}")
    keys = {f.metadata.get("key", f.name): f.name for f in dataclasses.fields(cls)}
    return cls(**{keys.get(k, k): v for k, v in fields.items()})


def from_json(data: Mapping[str, Any]) -> Event:
    """An event read from its JSON (a lesson's or the coach's kept as it is)."""
    if "lesson" in data and data.get("event") != "mode":
        inner = None
        cls = EVENTS.get(str(data.get("event")))
        if cls is not None:
            known = {f.metadata.get("key", f.name) for f in dataclasses.fields(cls)}
            plain = {k: v for k, v in data.items() if k in known}
            try:
                inner = event_for(cls.name, **plain)
            except (TypeError, ValueError):
                inner = None
        return LessonEvent(data=data, inner=inner)
    if data.get("event") == "coach":
        return CoachVerdict(data=data)
    fields = {k: v for k, v in data.items() if k != "event"}
    event = event_for(str(data.get("event")), **fields)
    if isinstance(event, Opening) and event.starter is not None and not event.option:
        dice = event.dice if isinstance(event.dice, tuple) else ()
        if len(dice) == 2 and event.message.endswith(f"plays {dice[0]}-{dice[1]}."):
            event = dataclasses.replace(event, plays=True)  # what the JSON says in words
    return event
