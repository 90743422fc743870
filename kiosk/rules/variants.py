"""Every game the rules know, as siblings behind one interface, in one registry.

As python-chess's variants are sibling classes of ``chess.Board`` found by name, each
:class:`Variant` here makes games (:class:`VariantGame`: a throw, the choices it leaves,
a choice made and taken back, python-chess's ``push`` and ``pop``) under each of its rule
profiles, and :data:`VARIANTS` holds them all: the ordinary game (under every book's
profile) and Russian backgammon (Cady's and Foster's). Each variant's plays come from the
one legal-play search (:func:`kiosk.rules.search.most_dice`), and one property test
(``tests/rules/test_variants.py``) plays random games with take-backs through every entry.

>>> list(VARIANTS)
['standard', 'russian-cady', 'russian-foster']
>>> game = find_variant("russian-foster").new_game()
>>> game.throw(3, 1)
>>> [str(play) for play in game.choices()]  # Foster: the first throw enters two men
['hand/1 hand/3']
>>> game.choose(game.choices()[0]); game.notation()
'R:b:h13,1x1,3x1,t:h15'
>>> game.take_back(); game.notation()
'R:w:h15,t:h15'
>>> find_variant("tables")
Traceback (most recent call last):
...
ValueError: the variant is one of standard, russian-cady, russian-foster, not 'tables'

Adding a rule variant touches at most three files under ``kiosk/``:

1. its rules, ``kiosk/rules/<name>.py``: a position with its notation, its single steps
   for one die (handed to :func:`~kiosk.rules.search.most_dice`, which finds the plays),
   and a :class:`Variant` subclass whose games are :class:`VariantGame`\\ s (a variant of
   the ordinary game's rules, another start or profile, is a :class:`Standard` subclass
   and needs no module of its own);
2. one line in :data:`VARIANTS` below;
3. to be refereed at the table, one line in :data:`kiosk.referee.variants.REFEREES`
   naming the referee that judges it (a :class:`~kiosk.referee.judge.Judge`; a new kind
   of referee is a module of its own beside it, a fourth file).

The cross-variant property test (``tests/rules/test_variants.py``) then covers it with no
change; that test adds a variant (Nackgammon, the ordinary game from another start) in a
few lines to show the recipe.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol

from kiosk.rules.board import Colour
from kiosk.rules.game import Game, Phase
from kiosk.rules.moves import Play
from kiosk.rules.position import Position
from kiosk.rules.profiles import PROFILES
from kiosk.rules.russian import (
    RUSSIAN_PROFILES,
    RussianPlay,
    RussianPosition,
    RussianTurn,
    get_russian_profile,
)


class VariantPlay(Protocol):
    """A play of any variant: its steps and the position after them, written in the
    variant's notation by ``str``."""

    @property
    def steps(self) -> Sequence[object]: ...

    @property
    def result(self) -> object: ...


#: What a side may do after a throw: a play, or (Cady's deuce-ace) a doublet named.
Choice = VariantPlay | int


class VariantGame(ABC):
    """One game of a variant, a throw and a choice at a time, each choice taken back by
    :meth:`take_back` (python-chess's ``push`` and ``pop``)."""

    @property
    @abstractmethod
    def turn(self) -> Colour:
        """The side on roll."""

    @abstractmethod
    def winner(self) -> Colour | None:
        """The side that has borne off all its men (None while the game goes on)."""

    @abstractmethod
    def throw(self, d1: int, d2: int) -> None:
        """The side on roll throws ``d1``-``d2`` (only when :meth:`choices` is empty)."""

    @abstractmethod
    def choices(self) -> Sequence[Choice]:
        """What the side on roll may do now, each play once (empty: the dice are due)."""

    @abstractmethod
    def choose(self, choice: Choice) -> None:
        """Make one of :meth:`choices`."""

    @abstractmethod
    def take_back(self) -> None:
        """Undo the last :meth:`choose`: the game as it was just before it."""

    @abstractmethod
    def men(self, colour: Colour) -> int:
        """``colour``'s men in the game: on the points, in hand, on the bar and borne off."""

    @abstractmethod
    def position(self) -> object:
        """The position on the board (within a throw of several parts, as it stands now)."""

    @abstractmethod
    def notation(self) -> str:
        """:meth:`position` in the variant's own notation (:meth:`Variant.parse` reads it)."""

    @abstractmethod
    def state(self) -> object:
        """Everything the game holds, compared with ``==`` (a choice taken back gives back
        an equal state)."""


class Variant(ABC):
    """A game the rules know: its name, title and rule profiles, and its games."""

    name: str
    title: str
    profiles: tuple[str, ...]  # the rule profiles it is played under, the default first

    @abstractmethod
    def new_game(self, profile: str | None = None) -> VariantGame:
        """A game from the variant's start under ``profile`` (its default if None)."""

    @abstractmethod
    def parse(self, text: str) -> object:
        """A position written in the variant's notation (``ValueError`` if it is not one)."""

    def _profile(self, profile: str | None) -> str:
        if profile is None:
            return self.profiles[0]
        if profile not in self.profiles:
            raise ValueError(f"{self.name} is played under {', '.join(self.profiles)}")
        return profile


# -- the ordinary game --------------------------------------------------------------


class StandardGame(VariantGame):
    """The ordinary game: a :class:`~kiosk.rules.game.Game` without its cube."""

    def __init__(self, profile: str, start: Position) -> None:
        self.game = Game(profile, start)
        self.game.start_with(start.turn)

    @property
    def turn(self) -> Colour:
        return self.game.turn

    def winner(self) -> Colour | None:
        return self.game.position.winner()

    def throw(self, d1: int, d2: int) -> None:
        self.game.roll(d1, d2)

    def choices(self) -> Sequence[Play]:
        return self.game.legal_plays() if self.game.phase == Phase.PLAY else []

    def choose(self, choice: Choice) -> None:
        if not isinstance(choice, Play):
            raise ValueError(f"a play of the ordinary game, not {choice!r}")
        self.game.play(choice)

    def take_back(self) -> None:
        self.game.take_back()

    def men(self, colour: Colour) -> int:
        return self.game.position.total(colour)

    def position(self) -> Position:
        return self.game.position

    def notation(self) -> str:
        return f"{self.game.position.position_id()}:{self.game.turn}"

    def state(self) -> object:
        game = self.game
        return (game.position, game.phase, game.dice, game.turns)


class Standard(Variant):
    """The ordinary game, under each book's rule profile."""

    name = "standard"
    title = "Backgammon"
    profiles = tuple(PROFILES)

    def start(self) -> Position:
        """Where its games begin."""
        return Position.standard()

    def new_game(self, profile: str | None = None) -> StandardGame:
        return StandardGame(self._profile(profile), self.start())

    def parse(self, text: str) -> Position:
        """A Position ID and the side on roll, as :meth:`StandardGame.notation` writes."""
        position_id, _, turn = text.partition(":")
        return Position.from_id(position_id, turn=Colour.parse(turn or "white"))


# -- Russian backgammon -------------------------------------------------------------


class RussianGame(VariantGame):
    """A game of Russian backgammon: each throw a :class:`~kiosk.rules.russian.RussianTurn`
    of one part or more, a choice each play (or deuce-ace's doublet)."""

    def __init__(self, profile: str) -> None:
        self.profile = get_russian_profile(profile)
        self.start = RussianPosition.start()  # where the throw being played began
        self.turn_: RussianTurn | None = None
        self._history: list[tuple[RussianPosition, RussianTurn | None]] = []

    @property
    def turn(self) -> Colour:
        return self.start.turn

    def winner(self) -> Colour | None:
        return self.start.winner()

    def throw(self, d1: int, d2: int) -> None:
        if self.turn_ is not None:
            raise ValueError("the throw before this one is still being played")
        self.turn_ = RussianTurn(self.start, d1, d2, self.profile)
        self._settle()

    def choices(self) -> Sequence[Choice]:
        turn = self.turn_
        if turn is None:
            return []
        if turn.needs_choice:
            return list(range(1, 7))
        return turn.legal_plays()

    def choose(self, choice: Choice) -> None:
        turn = self.turn_
        if turn is None:
            raise ValueError("throw the dice first")
        self._history.append((self.start, _copy(turn)))
        if isinstance(choice, int):
            turn.choose_doublet(choice)
        elif isinstance(choice, RussianPlay):
            turn.play(choice)
        else:
            raise ValueError(f"a play of Russian backgammon, not {choice!r}")
        self._settle()

    def _settle(self) -> None:
        """A throw played out: the next side on roll."""
        if self.turn_ is not None and self.turn_.over:
            self.start, self.turn_ = self.turn_.next_position(), None

    def take_back(self) -> None:
        if not self._history:
            raise ValueError("there is no play to take back")
        self.start, self.turn_ = self._history.pop()

    def men(self, colour: Colour) -> int:
        here = self.position()
        return (
            sum(here.points[colour]) + here.hand[colour] + here.bar[colour] + here.off[colour]
        )

    def position(self) -> RussianPosition:
        return self.turn_.position if self.turn_ is not None else self.start

    def notation(self) -> str:
        return self.position().notation()

    def state(self) -> object:
        turn = self.turn_
        return (self.start, None if turn is None else vars(_copy(turn)))


def _copy(turn: RussianTurn) -> RussianTurn:
    """A copy of ``turn`` that its next play leaves as it is (its lists copied; the rest,
    positions, parts and profile, are immutable)."""
    kept = copy.copy(turn)
    for name, value in vars(kept).items():
        if isinstance(value, list):
            setattr(kept, name, list(value))
    return kept


class Russian(Variant):
    """Russian backgammon as one book gives it (``russian-cady``, ``russian-foster``)."""

    profiles: tuple[str, ...]

    def __init__(self, book: str) -> None:
        profile = RUSSIAN_PROFILES[book]
        self.name = profile.name
        self.title = f"Russian backgammon ({profile.title.split(',')[0]})"
        self.profiles = (profile.name,)

    def new_game(self, profile: str | None = None) -> RussianGame:
        return RussianGame(self._profile(profile))

    def parse(self, text: str) -> RussianPosition:
        return RussianPosition.from_notation(text)


#: Every variant by name: the one registry (``kiosk plays --variant``, ``kiosk scenario``'s
#: ``variant``, the referees of :mod:`kiosk.referee.variants`).
VARIANTS: dict[str, Variant] = {
    v.name: v for v in (Standard(), Russian("russian-cady"), Russian("russian-foster"))
}


def find_variant(name: str) -> Variant:
    """The variant called ``name``; a clear error for any other."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise ValueError(f"the variant is one of {known}, not {name!r}") from None
