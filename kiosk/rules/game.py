"""A game: the opening throw, turns, the doubling cube, and the score at the end.

>>> from kiosk.rules import Game, WHITE
>>> game = Game()
>>> game.opening(3, 1).starter
<Colour.WHITE: 0>
>>> game.play('8/5 6/5').position_id()
'sGfwATDgc/ABMA'
>>> game.turn
<Colour.BLACK: 1>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.errors import TableError
from kiosk.rules.moves import Play
from kiosk.rules.notation import IllegalPlayError
from kiosk.rules.position import Colour, Position
from kiosk.rules.profiles import (
    BackgammonZone,
    NextGameFirst,
    OpeningNumbers,
    RuleProfile,
    Scoring,
    StartCast,
    get_profile,
)


class Result(StrEnum):
    """How a game was won."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"


class Phase(StrEnum):
    """What the game is waiting for."""

    OPENING = "opening"  # the starting cast
    OPENING_OPTION = "opening-option"  # the starter chooses: play the cast or throw afresh
    ROLL = "roll"  # the side on roll may double, then throws
    DOUBLE_OFFERED = "double-offered"  # the adversary takes or passes
    PLAY = "play"  # the dice are thrown; a play is due
    OVER = "over"


class CubeAction(StrEnum):
    """What may be done with the doubling cube."""

    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"


class GameError(TableError, ValueError):
    """An action the game does not allow now (with the reason)."""


@dataclass(frozen=True)
class Cube:
    """The doubling cube: its value and who owns it (``None`` while it is in the middle)."""

    value: int = 1
    owner: Colour | None = None

    def may_double(self, colour: Colour) -> bool:
        """Whether ``colour`` holds the right to double (owns the cube, or it is centred)."""
        return self.owner is None or self.owner == colour

    def doubled(self, taker: Colour) -> Cube:
        """The cube after a double is taken: twice the value, owned by the taker."""
        return Cube(self.value * 2, taker)


@dataclass(frozen=True)
class OpeningThrow:
    """What the starting cast decided."""

    starter: Colour | None  # None: the cast was a tie; throw again
    dice: tuple[int, int] | None  # the numbers the starter plays now, if any
    option: bool = False  # the starter may choose to play ``dice`` or throw afresh


def decide_opening(
    profile: RuleProfile, white: int | tuple[int, int], black: int | tuple[int, int]
) -> OpeningThrow:
    """Decide the first move from each side's cast: one die each, or two dice each (Parker).

    >>> from kiosk.rules.profiles import get_profile
    >>> decide_opening(get_profile('modern'), 5, 2)
    OpeningThrow(starter=<Colour.WHITE: 0>, dice=(5, 2), option=False)
    >>> decide_opening(get_profile('crawley'), 2, 5).option
    True
    >>> decide_opening(get_profile('parker'), (6, 5), (4, 4))
    OpeningThrow(starter=<Colour.WHITE: 0>, dice=None, option=False)
    """
    two = profile.start_cast == StartCast.TWO_DICE_TOTAL
    for cast in (white, black):
        dice = cast if isinstance(cast, tuple) else (cast,)
        if len(dice) != (2 if two else 1) or any(not 1 <= d <= 6 for d in dice):
            want = "two dice each" if two else "one die each"
            raise GameError(f"the starting cast under {profile.name} rules is {want}, 1 to 6")
    w = sum(white) if isinstance(white, tuple) else white
    b = sum(black) if isinstance(black, tuple) else black
    if w == b:
        return OpeningThrow(None, None)
    starter = Colour.WHITE if w > b else Colour.BLACK
    if two:
        return OpeningThrow(starter, None)
    numbers = (max(w, b), min(w, b))
    rule = profile.opening_numbers
    if rule == OpeningNumbers.PLAY or (
        rule == OpeningNumbers.USE_IF_AGREED and profile.opening_agreed
    ):
        return OpeningThrow(starter, numbers)
    if rule == OpeningNumbers.WINNER_OPTION:
        return OpeningThrow(starter, numbers, option=True)
    return OpeningThrow(starter, None)


def score_game(
    position: Position, profile: RuleProfile, cube: int = 1
) -> tuple[Colour, Result, int] | None:
    """The winner, the kind of win and the points, once a side has borne off every man.

    A loser who has borne off a man loses a single game, even if hit afterwards.
    """
    winner = position.winner()
    if winner is None:
        return None
    loser = winner.other
    if position.off[loser] > 0:
        result = Result.SINGLE
    else:
        side = position.men[loser]
        zone = profile.backgammon_zone
        # The winner's home table is the loser's 19-24; his half is the loser's 13-24.
        first = (
            18 if zone in (BackgammonZone.WINNER_HOME, BackgammonZone.WINNER_HOME_OR_BAR) else 12
        )
        stragglers = any(side[first:24])
        if zone in (BackgammonZone.WINNER_HOME_OR_BAR, BackgammonZone.WINNER_HALF_OR_BAR):
            stragglers = stragglers or side[24] > 0
        result = Result.BACKGAMMON if stragglers else Result.GAMMON
    if profile.scoring == Scoring.AMERICAN:
        points = 1
    else:
        points = {Result.SINGLE: 1, Result.GAMMON: 2, Result.BACKGAMMON: profile.backgammon_value}[
            result
        ]
    return winner, result, points * cube


def next_starter(profile: RuleProfile, winner: Colour, result: Result) -> Colour | None:
    """Who throws first in the next game (``None``: both throw for it)."""
    rule = profile.next_game_first
    if rule == NextGameFirst.WINNER:
        return winner
    if rule == NextGameFirst.SINGLE_WINNER and result == Result.SINGLE:
        return winner
    return None


@dataclass(frozen=True)
class Turn:
    """One turn as it was played."""

    colour: Colour
    dice: tuple[int, int]
    play: Play
    before: Position


class Game:
    """One game under a rule profile: phases, turns, cube and result.

    Its state changes only through its methods (python-chess's ``push``/``pop`` are the
    model): :meth:`play` and :meth:`take_back`, :meth:`set_turn` before the first play,
    :meth:`let_stand`, the ``record_*`` methods; every field is read-only outside.

    >>> game = Game("modern")
    >>> game.position = game.position  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    AttributeError: property 'position' of 'Game' object has no setter
    """

    def __init__(
        self,
        profile: RuleProfile | str | None = None,
        position: Position | None = None,
        phase: Phase = Phase.OPENING,
    ) -> None:
        self.profile: RuleProfile = get_profile(profile)
        self._position = position if position is not None else Position.standard()
        self._phase = phase
        self._cube = Cube()
        self._dice: tuple[int, int] | None = None
        self._result: tuple[Colour, Result, int] | None = None
        self._turns: list[Turn] = []

    def __repr__(self) -> str:
        profile, position = self.profile.name, self.position
        return f"Game(profile={profile!r}, position={position!r}, phase={self.phase})"

    @property
    def position(self) -> Position:
        """The position on the board (changed by :meth:`play` and the like, never from outside)."""
        return self._position

    @property
    def phase(self) -> Phase:
        """Where the game stands: opening, roll, play, double offered, over."""
        return self._phase

    @property
    def cube(self) -> Cube:
        """The doubling cube (changed by :meth:`take` and the like, never from outside)."""
        return self._cube

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice to play, once thrown (changed by :meth:`roll` and the like)."""
        return self._dice

    @property
    def result(self) -> tuple[Colour, Result, int] | None:
        """Who won, how, for how many points; None while the game is on."""
        return self._result

    @property
    def turns(self) -> tuple[Turn, ...]:
        """The turns played so far, oldest first (changed by :meth:`play`, :meth:`take_back`
        and the like, never from outside)."""
        return tuple(self._turns)

    @property
    def turn(self) -> Colour:
        """The side on roll."""
        return self.position.turn

    # -- the start ---------------------------------------------------------------

    def opening(self, white: int | tuple[int, int], black: int | tuple[int, int]) -> OpeningThrow:
        """Record the starting cast; the game then waits for a play, a choice, or a roll."""
        self._need(Phase.OPENING)
        outcome = decide_opening(self.profile, white, black)
        if outcome.starter is None:
            return outcome
        self._position = self.position.with_turn(outcome.starter)
        if outcome.dice is None:
            self._phase = Phase.ROLL
        elif outcome.option:
            self._dice = outcome.dice
            self._phase = Phase.OPENING_OPTION
        else:
            self._dice = outcome.dice
            self._phase = Phase.PLAY
        return outcome

    def choose_opening(self, play_it: bool) -> None:
        """The starter's choice where the book allows it: play the cast, or throw afresh."""
        self._need(Phase.OPENING_OPTION)
        if play_it:
            self._phase = Phase.PLAY
        else:
            self._dice = None
            self._phase = Phase.ROLL

    def start_with(self, starter: Colour) -> None:
        """Skip the starting cast: ``starter`` throws first (the next-game rules)."""
        self._need(Phase.OPENING)
        self._position = self.position.with_turn(starter)
        self._phase = Phase.ROLL

    def set_turn(self, player: Colour) -> None:
        """Put ``player`` on roll in a game not yet started (no play, no dice thrown).

        >>> game = Game("modern", phase=Phase.ROLL)
        >>> game.set_turn(Colour.BLACK); str(game.turn)
        'black'
        """
        if self._turns or self._phase not in (Phase.OPENING, Phase.ROLL):
            raise GameError("the side on roll can only be set before the game starts")
        self._position = self._position.with_turn(player)

    def close(self) -> None:
        """End the game with no result, so that nothing more is played or judged (a
        lesson's free table, where men are moved at will)."""
        self._dice = None
        self._phase = Phase.OVER

    # -- turns -----------------------------------------------------------------------

    def roll(self, d1: int, d2: int) -> list[Play]:
        """Record the dice thrown by the side on roll; returns the legal plays."""
        self._need(Phase.ROLL)
        for d in (d1, d2):
            if not isinstance(d, int) or not 1 <= d <= 6:
                raise GameError(f"a die shows 1 to 6, not {d!r}")
        self._dice = (d1, d2)
        self._phase = Phase.PLAY
        return self.legal_plays()

    def legal_plays(self) -> list[Play]:
        """The legal plays for the dice thrown."""
        self._need(Phase.PLAY)
        assert self.dice is not None
        return self.position.legal_plays(*self.dice, profile=self.profile)

    def play(self, play: Play | str) -> Position:
        """Play a legal play (a :class:`Play` or its notation); returns the new position."""
        self._need(Phase.PLAY)
        assert self.dice is not None
        plays = self.legal_plays()
        if isinstance(play, str):
            play = self.position.parse_play(*self.dice, play, profile=self.profile)
        elif play not in plays:
            raise IllegalPlayError(f"{play} is not a legal play for {self.dice[0]}-{self.dice[1]}")
        self._turns.append(Turn(self.turn, self.dice, play, self.position))
        self._played(play.result)
        return self.position

    def take_back(self) -> Turn:
        """Undo the last play (``pop`` to :meth:`play`'s ``push``): its position, the mover on
        roll, the same dice to play again; returns the turn taken back.

        >>> game = Game()
        >>> game.start_with(game.turn)
        >>> _ = game.roll(3, 1)
        >>> _ = game.play("8/5 6/5")
        >>> str(game.take_back().play), game.dice, game.phase.value, len(game.turns)
        ('8/5 6/5', (3, 1), 'play', 0)
        """
        if not self._turns:
            raise GameError("there is no play to take back")
        turn = self._turns.pop()
        self._position = turn.before
        self._dice = turn.dice
        self._result = None
        self._phase = Phase.PLAY
        return turn

    def let_stand(self, after: Position) -> Turn:
        """The mover's turn ends with the men as ``after`` has them, legal or not (a wrong
        move let stand, or a recorded position that wins over the replayed move): recorded
        as a turn with no steps; the other side is then on roll.

        >>> game = Game()
        >>> game.start_with(game.turn)
        >>> _ = game.roll(6, 6)
        >>> turn = game.let_stand(Position.standard())
        >>> turn.play.steps, str(game.turn), game.phase.value, len(game.turns)
        ((), 'black', 'roll', 1)
        """
        self._need(Phase.PLAY)
        assert self.dice is not None
        mover = self.turn
        after = after.with_turn(mover.other)
        turn = Turn(mover, self.dice, Play((), after), self.position)
        self._turns.append(turn)
        self._played(after)
        return turn

    def _played(self, after: Position) -> None:
        self._position = after
        self._dice = None
        self._result = score_game(after, self.profile, self.cube.value)
        self._phase = Phase.OVER if self.result else Phase.ROLL

    # -- replaying a record (a stored game read back) ------------------------------------

    def record_throw(self, mover: Colour, dice: tuple[int, int]) -> None:
        """A recorded throw: ``mover`` on roll with ``dice`` to play, whatever came before."""
        if self.phase == Phase.OVER:
            raise GameError("the game is over")
        self._position = self.position.with_turn(mover)
        self._dice = dice
        self._phase = Phase.PLAY

    def record_play(self, mover: Colour, dice: tuple[int, int], play: Play) -> None:
        """A recorded turn: ``mover`` played ``play`` (its ``result`` is the position after)."""
        before = self.position.with_turn(mover)
        self._turns.append(Turn(mover, dice, play, before))
        self._played(play.result)

    def record_cube(self, action: CubeAction, player: Colour) -> None:
        """A recorded cube action by ``player`` (the doubler, the taker or the passer)."""
        if self.phase == Phase.OVER:
            raise GameError("the game is over")
        if action == CubeAction.DOUBLE:
            self._position = self.position.with_turn(player)
            self._phase = Phase.DOUBLE_OFFERED
        elif action == CubeAction.TAKE:
            self._cube = Cube(self.cube.value * 2, player)
            self._position = self.position.with_turn(player.other)
            self._phase = Phase.ROLL
        else:
            self._result = (player.other, Result.SINGLE, self.cube.value)
            self._phase = Phase.OVER

    def record_result(self, winner: Colour, result: Result, points: int) -> None:
        """A recorded end of the game."""
        self._result = (winner, result, points)
        self._dice = None
        self._phase = Phase.OVER

    # -- the cube ----------------------------------------------------------------------

    def legal_cube_actions(self) -> list[CubeAction]:
        """What may be done with the cube now: double before throwing, take or pass after."""
        if not self.profile.doubling:
            return []
        if self.phase == Phase.ROLL and self.cube.may_double(self.turn):
            return [CubeAction.DOUBLE]
        if self.phase == Phase.DOUBLE_OFFERED:
            return [CubeAction.TAKE, CubeAction.PASS]
        return []

    def double(self) -> None:
        """The side on roll offers to double the stake."""
        if CubeAction.DOUBLE not in self.legal_cube_actions():
            raise GameError(self._cube_refusal())
        self._phase = Phase.DOUBLE_OFFERED

    def take(self) -> None:
        """The adversary accepts the double and owns the cube; the doubler then throws."""
        self._need(Phase.DOUBLE_OFFERED)
        self._cube = self.cube.doubled(self.turn.other)
        self._phase = Phase.ROLL

    def pass_(self) -> None:
        """The adversary declines the double and loses the game at the stake before it."""
        self._need(Phase.DOUBLE_OFFERED)
        self._result = (self.turn, Result.SINGLE, self.cube.value)
        self._phase = Phase.OVER

    def _cube_refusal(self) -> str:
        if not self.profile.doubling:
            return f"there is no doubling under {self.profile.title}"
        if self.phase != Phase.ROLL:
            return "a double is offered only before throwing the dice"
        return f"{self.cube.owner} owns the cube, so only {self.cube.owner} may double"

    def _need(self, phase: Phase) -> None:
        if self.phase != phase:
            raise GameError(f"the game is waiting for {self.phase.value}, not {phase.value}")
