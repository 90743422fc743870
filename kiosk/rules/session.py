"""Sessions of several games: matches to N points, money sessions, rubbers and sets.

A :class:`Session` is told each game's result and keeps the score. Before each game it says
how that game is played (:meth:`Session.next_game`): whether the cube may be used (not in
the Crawford game), who throws first, whether a gammon can matter.

* **Match to N points** (today's rules): the game after a side first reaches N-1 points is
  the Crawford game, played without the cube; later games are post-Crawford. The match
  equity comes from the Kazaross XG2 table (:mod:`kiosk.rules.met`). Automatic doubles are
  never used in a match.
* **Money session**: each game scores the profile's points (English: single 1, gammon 2,
  backgammon 3 or 4 by agreement; American: every game 1 — Foster, *The American Game*)
  times Parker's agreed value per game, times each accepted double (Parker, *Optional
  Doubling*: "scored at the value agreed upon, doubled or re-doubled as many times as the
  optional double has been accepted"), or Parker's stranded-men count instead of the games
  (Parker, *Scoring by Loser's Stranded Men*; :mod:`kiosk.rules.stranded`).
* **Rubber** (Hoffmann, *Bearing off the Men* and *Hints for Play*): the first to two games
  wins, a gammon counting two games, so a gammon after losing the first game wins the rubber
  at once.
* **Set** (Cady, Tactics XV: "three games up, of the best of five"): the first to three
  games. Cady does not say whether a gammon counts double; by default every game counts one
  (``gammons_count=True`` counts them as the profile scores them).

Who throws first in the next game follows the profile (Cady, *Bearing*; Hoffmann,
*Bearing off the Men*: the winner of a hit throws first, after a gammon both throw again;
Crawley, Ch. III *Second Game*: the previous winner), through :func:`kiosk.rules.next_starter`.

>>> from kiosk.rules import WHITE, BLACK, Result
>>> match = Session.match(3)
>>> match.record(WHITE, Result.GAMMON).score
(2, 0)
>>> plan = match.next_game()
>>> plan.crawford, plan.doubling, plan.gammon_matters
(True, False, (False, True))
>>> match.record(BLACK, Result.SINGLE).score
(2, 1)
>>> match.next_game().crawford, match.post_crawford
(False, True)
>>> [round(e, 3) for e in match.equity()]
[0.512, 0.488]
>>> match.record(WHITE, Result.SINGLE).over, match.winner
(True, <Colour.WHITE: 0>)
>>> rubber = Session.rubber("hoffmann")
>>> rubber.record(BLACK, Result.SINGLE).score, rubber.record(WHITE, Result.GAMMON).winner
((0, 1), <Colour.WHITE: 0>)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from kiosk.errors import TableError
from kiosk.rules import (
    BLACK,
    WHITE,
    Colour,
    Position,
    Result,
    RuleProfile,
    get_profile,
    next_starter,
)
from kiosk.rules.met import kazaross_xg2
from kiosk.rules.profiles import Scoring as GameScoring
from kiosk.rules.stranded import StrandedCount, stranded_count

FORMAT = 1  # the version of the JSON written by Session.to_json


class SessionError(TableError, ValueError):
    """A session set up or fed in a way the rules do not allow (the message says why)."""


class Kind(StrEnum):
    """The kind of session."""

    MATCH = "match"  # to N points, today's rules
    MONEY = "money"  # a running tally at an agreed value per game
    RUBBER = "rubber"  # Hoffmann: first to two games, a gammon counts two
    SET = "set"  # Cady: three games up, best of five


class Scoring(StrEnum):
    """How a game's points are counted."""

    GAMES = "games"  # single, gammon, backgammon by the profile
    STRANDED1 = "stranded1"  # Parker's option 1
    STRANDED2 = "stranded2"  # Parker's option 2
    STRANDED3 = "stranded3"  # Parker's option 3

    @property
    def option(self) -> int | None:
        """Parker's option number, or ``None`` for scoring by games."""
        return None if self == Scoring.GAMES else int(self.value[-1])


TARGETS = {Kind.RUBBER: 2, Kind.SET: 3}  # games needed to win a rubber or a set


def game_count(profile: RuleProfile, result: Result | str) -> int:
    """What a game won this way counts under the profile before any stake or double.

    English scoring: single 1, gammon 2, backgammon 3 (or 4 by agreement); American: 1.

    >>> from kiosk.rules import get_profile
    >>> game_count(get_profile('hoffmann').replace(backgammon_value=4), 'backgammon')
    4
    """
    if profile.scoring == GameScoring.AMERICAN:
        return 1
    return {Result.SINGLE: 1, Result.GAMMON: 2, Result.BACKGAMMON: profile.backgammon_value}[
        Result(result)
    ]


@dataclass(frozen=True)
class GamePlan:
    """How the next game is played, decided before its first throw.

    ``starter`` is who throws first (``None``: both throw for it). ``automatic_doubles``:
    whether a tied opening throw doubles the cube (a money custom, never used in a match;
    not Parker's "automatic doubles", which are his name for the gammon and backgammon
    multipliers). ``gammon_matters`` and
    ``backgammon_matters`` say, for white and black, whether winning that way (with the cube
    in the middle) would count for more than a single game.
    """

    number: int
    crawford: bool
    post_crawford: bool
    doubling: bool
    automatic_doubles: bool
    starter: Colour | None
    gammon_matters: tuple[bool, bool]
    backgammon_matters: tuple[bool, bool]


@dataclass(frozen=True)
class GameRecord:
    """One finished game as the session counted it."""

    winner: Colour
    result: Result
    cube: int
    points: int  # what the winner scored: match points, money units, or games
    crawford: bool = False
    stranded: int | None = None  # the stranded-men count before stake and cube, if used

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON-friendly values."""
        return {**asdict(self), "winner": str(self.winner), "result": str(self.result)}


@dataclass
class Session:
    """A series of games and its score.

    Make one with :meth:`match`, :meth:`money`, :meth:`rubber` or :meth:`set`; feed it each
    game's result with :meth:`record`; read :attr:`score`, :attr:`over`, :attr:`winner`.
    """

    kind: Kind
    profile: RuleProfile
    length: int = 0  # a match's length in points
    stake: int = 1  # Parker's agreed value per game (money sessions)
    scoring: Scoring = Scoring.GAMES
    stranded_multiply: bool = False  # stranded count x2 for a gammon, x3 for a backgammon
    gammons_count: bool = True  # sets: whether a gammon counts as more than one game
    automatic_doubles: bool = False
    players: tuple[str, str] = ("white", "black")
    games: list[GameRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.kind = Kind(self.kind)
        self.scoring = Scoring(self.scoring)
        self.profile = get_profile(self.profile)
        if len(self.players) != 2 or not all(isinstance(p, str) and p for p in self.players):
            raise SessionError(f"a session has two players with names, not {self.players!r}")
        if self.kind == Kind.MATCH:
            if not isinstance(self.length, int) or isinstance(self.length, bool):
                raise SessionError(f"a match is played to a number of points, not {self.length!r}")
            if not 1 <= self.length <= kazaross_xg2().length:
                raise SessionError(
                    f"a match is played to 1 to {kazaross_xg2().length} points, not {self.length}"
                )
            if self.scoring != Scoring.GAMES:
                raise SessionError("a match is scored by games; stranded men are for money play")
            if self.automatic_doubles:
                raise SessionError("automatic doubles are not used in a match")
        if not isinstance(self.stake, int) or isinstance(self.stake, bool) or self.stake < 1:
            raise SessionError(
                f"the agreed value per game is a whole number from 1, not {self.stake!r}"
            )
        if self.kind in TARGETS and self.scoring != Scoring.GAMES:
            raise SessionError(f"a {self.kind.value} is counted in games, not by stranded men")

    # -- making sessions -----------------------------------------------------------------

    @property
    def title(self) -> str:
        """What a money session is, in a few words: its stake, or Parker's stranded men.

        >>> Session.money(scoring=Scoring.STRANDED2, stranded_multiply=True).title
        'Stranded men, option 2, with games'
        """
        option = self.scoring.option
        if option is None:
            return f"Money at {self.stake} a game"
        return f"Stranded men, option {option}" + (", with games" if self.stranded_multiply else "")

    @classmethod
    def match(
        cls, length: int, profile: str | RuleProfile = "modern", **options: Any
    ) -> Session:
        """A match to ``length`` points (from 0-0) under today's rules by default."""
        return cls(Kind.MATCH, get_profile(profile), length=length, **options)

    @classmethod
    def money(
        cls, profile: str | RuleProfile = "modern", stake: int = 1, **options: Any
    ) -> Session:
        """A money session at ``stake`` per game; ``backgammon=4`` counts a backgammon four."""
        backgammon = options.pop("backgammon", None)
        rules = get_profile(profile)
        if backgammon is not None:
            if backgammon not in (3, 4):
                raise SessionError(f"a backgammon counts 3 or 4 by agreement, not {backgammon!r}")
            rules = rules.replace(backgammon_value=backgammon)
        return cls(Kind.MONEY, rules, stake=stake, **options)

    @classmethod
    def rubber(cls, profile: str | RuleProfile = "hoffmann", **options: Any) -> Session:
        """Hoffmann's rubber: the first to two games, a gammon counting two."""
        return cls(Kind.RUBBER, get_profile(profile), **options)

    @classmethod
    def set(cls, profile: str | RuleProfile = "cady", **options: Any) -> Session:
        """Cady's set: three games up, of the best of five."""
        options.setdefault("gammons_count", False)
        return cls(Kind.SET, get_profile(profile), **options)

    # -- the score ---------------------------------------------------------------------

    @property
    def score(self) -> tuple[int, int]:
        """Points (or games) won so far by white and by black."""
        totals = [0, 0]
        for game in self.games:
            totals[game.winner] += game.points
        return totals[0], totals[1]

    @property
    def tally(self) -> tuple[int, int]:
        """Each player's net winnings (money): white's and black's, summing to zero."""
        white, black = self.score
        return white - black, black - white

    @property
    def target(self) -> int | None:
        """What wins the session: a match's length, a rubber's or set's games; ``None``: money."""
        if self.kind == Kind.MATCH:
            return self.length
        return TARGETS.get(self.kind)

    @property
    def over(self) -> bool:
        """Whether a side has won the match, rubber or set (a money session never ends)."""
        return self.winner is not None

    @property
    def winner(self) -> Colour | None:
        """Who has won the session, if anyone."""
        target = self.target
        if target is None:
            return None
        for colour in (WHITE, BLACK):
            if self.score[colour] >= target:
                return colour
        return None

    def away(self, colour: Colour) -> int:
        """Points (or games) ``colour`` still needs (matches, rubbers, sets)."""
        target = self.target
        if target is None:
            raise SessionError("a money session has no target to be away from")
        return max(0, target - self.score[colour])

    # -- the Crawford rule -------------------------------------------------------------

    @property
    def crawford(self) -> bool:
        """Whether the next game is the Crawford game (no doubling in it)."""
        if self.kind != Kind.MATCH or self.over or self.length < 2:
            return False
        if any(game.crawford for game in self.games):
            return False
        return self.length - 1 in self.score

    @property
    def post_crawford(self) -> bool:
        """Whether the Crawford game has been played and the match goes on."""
        return self.kind == Kind.MATCH and not self.over and any(g.crawford for g in self.games)

    # -- before a game -------------------------------------------------------------------

    def gammon_matters(self, colour: Colour, cube: int = 1) -> bool:
        """Whether winning a gammon rather than a single game would count for ``colour``.

        In a match it does not when a single game at this cube already wins the match (the
        leader in the Crawford game, or a trailer for whom a single win suffices); in a
        rubber when one game wins it. American scoring never counts a gammon.
        """
        return self._win_matters(colour, cube, Result.GAMMON)

    def backgammon_matters(self, colour: Colour, cube: int = 1) -> bool:
        """Whether winning a backgammon rather than a gammon would count for ``colour``."""
        return self._win_matters(colour, cube, Result.BACKGAMMON)

    def _win_matters(self, colour: Colour, cube: int, result: Result) -> bool:
        lesser = Result.SINGLE if result == Result.GAMMON else Result.GAMMON
        more, less = (self._game_points(result, cube), self._game_points(lesser, cube))
        if more <= less or (self.scoring != Scoring.GAMES and not self.stranded_multiply):
            return False
        if self.kind == Kind.MONEY:
            return True
        return self.away(colour) > less

    def next_game(self) -> GamePlan:
        """How the next game is to be played."""
        if self.over:
            raise SessionError(f"the {self.kind.value} is over: {self.winner} has won it")
        crawford = self.crawford
        last = self.games[-1] if self.games else None
        starter = None
        if last is not None:
            starter = next_starter(self.profile, last.winner, last.result)
        return GamePlan(
            number=len(self.games) + 1,
            crawford=crawford,
            post_crawford=self.post_crawford,
            doubling=self.profile.doubling and not crawford,
            automatic_doubles=self.automatic_doubles,
            starter=starter,
            gammon_matters=(self.gammon_matters(WHITE), self.gammon_matters(BLACK)),
            backgammon_matters=(self.backgammon_matters(WHITE), self.backgammon_matters(BLACK)),
        )

    def equity(self) -> tuple[float, float]:
        """Each side's chance to win the match from this score (Kazaross XG2 table)."""
        if self.kind != Kind.MATCH:
            raise SessionError("match equity is for matches to a number of points")
        if self.winner is not None:
            return (1.0, 0.0) if self.winner == WHITE else (0.0, 1.0)
        table = kazaross_xg2()
        white = table.equity(self.away(WHITE), self.away(BLACK), post_crawford=self.post_crawford)
        return white, 1.0 - white

    def notes(self) -> list[str]:
        """What the screen and the coach say before the next game, in words.

        >>> from kiosk.rules import WHITE, Result
        >>> match = Session.match(3, players=("Ann", "Bob")).record(WHITE, Result.GAMMON)
        >>> for line in match.notes():
        ...     print(line)
        Match to 3: Ann 2, Bob 0.
        Crawford game: no doubling in this game.
        A gammon cannot help Ann: a single game wins the match.
        Chances to win the match: Ann 75%, Bob 25% (Kazaross XG2 table).
        """
        names = dict(zip((WHITE, BLACK), self.players, strict=True))
        white, black = self.score
        if self.kind == Kind.MONEY:
            net = self.tally
            head = f"{self.title}: {names[WHITE]} {net[0]:+d}, {names[BLACK]} {net[1]:+d}."
        else:
            what = {Kind.MATCH: f"Match to {self.length}", Kind.RUBBER: "Rubber", Kind.SET: "Set"}
            head = f"{what[self.kind]}: {names[WHITE]} {white}, {names[BLACK]} {black}."
        lines = [head]
        if self.winner is not None:
            lines.append(f"{names[self.winner]} has won the {self.kind.value}.")
            return lines
        plan = self.next_game()
        if plan.crawford:
            lines.append("Crawford game: no doubling in this game.")
        elif plan.post_crawford:
            lines.append("After the Crawford game: the cube is back in play.")
        single = self._game_points(Result.SINGLE, 1)
        if self.kind != Kind.MONEY and self._game_points(Result.GAMMON, 1) > single:
            won = "match" if self.kind == Kind.MATCH else self.kind.value
            for colour in (WHITE, BLACK):
                if self.away(colour) <= single:
                    lines.append(
                        f"A gammon cannot help {names[colour]}: a single game wins the {won}."
                    )
        if self.kind == Kind.MATCH:
            w, b = self.equity()
            lines.append(
                f"Chances to win the match: {names[WHITE]} {w:.0%}, {names[BLACK]} {b:.0%} "
                f"({kazaross_xg2().name.split(' 25')[0]} table)."
            )
        return lines

    def game_over_fields(self) -> dict[str, Any]:
        """The fields a ``game-over`` event carries after :meth:`record`: the session's
        ``score`` as ``[white, black]`` and, in a match, ``match_over``."""
        fields: dict[str, Any] = {"score": list(self.score)}
        if self.kind == Kind.MATCH:
            fields["match_over"] = self.over
        return fields

    # -- after a game --------------------------------------------------------------------

    def _game_points(self, result: Result, cube: int) -> int:
        if self.kind == Kind.SET and not self.gammons_count:
            return cube
        return (
            game_count(self.profile, result) * cube * (self.stake if self.kind == Kind.MONEY else 1)
        )

    def count_stranded(self, position: Position, loser: Colour, result: Result) -> StrandedCount:
        """Parker's count of the loser's stranded men under this session's option."""
        option = self.scoring.option
        if option is None:
            raise SessionError("this session is scored by games, not by stranded men")
        return stranded_count(
            position, loser, option, result=result, combined=self.stranded_multiply
        )

    def record(
        self,
        winner: Colour | str,
        result: Result | str = Result.SINGLE,
        cube: int = 1,
        *,
        position: Position | None = None,
        passed: bool = False,
    ) -> Session:
        """Count one finished game: who won, how, and the cube's value (returns ``self``).

        Under stranded-men scoring, ``position`` is the final position (the loser's men are
        counted). ``passed``: the loser declined a double, and the game is scored "as it
        stands" (Parker, *Optional Doubling*), read as the stake at the cube's value before
        the double, a single game, with no stranded count (CATALOGUE §1.12's first reading).
        """
        if self.over:
            raise SessionError(f"the {self.kind.value} is over: {self.winner} has won it")
        try:
            winner = Colour(winner) if not isinstance(winner, str) else Colour.parse(winner)
            result = Result(result)
        except ValueError as err:
            raise SessionError(
                f"a game is won by white or black, single, gammon or backgammon: {err}"
            ) from None
        if not isinstance(cube, int) or isinstance(cube, bool) or cube < 1 or cube & (cube - 1):
            raise SessionError(f"the cube shows 1, 2, 4, 8 ..., not {cube!r}")
        crawford = self.crawford
        if crawford and cube != 1:
            raise SessionError("there is no doubling in the Crawford game")
        if passed and result != Result.SINGLE:
            raise SessionError("a game ended by a declined double is a single game")
        stranded = None
        if self.scoring == Scoring.GAMES or passed:
            points = self._game_points(result, cube)
        else:
            if position is None:
                raise SessionError("stranded-men scoring needs the final position to count")
            stranded = self.count_stranded(position, winner.other, result).total
            points = stranded * self.stake * cube
        self.games.append(GameRecord(winner, result, cube, points, crawford, stranded))
        return self

    # -- keeping it over a restart -------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to carry on after a restart, as JSON-friendly values."""
        profile = asdict(self.profile)
        return {
            "format": FORMAT,
            "kind": str(self.kind),
            "profile": {k: str(v) if isinstance(v, StrEnum) else v for k, v in profile.items()},
            "length": self.length,
            "stake": self.stake,
            "scoring": str(self.scoring),
            "stranded_multiply": self.stranded_multiply,
            "gammons_count": self.gammons_count,
            "automatic_doubles": self.automatic_doubles,
            "players": list(self.players),
            "games": [game.as_dict() for game in self.games],
        }

    def to_json(self) -> str:
        """The session as one JSON text (the store keeps it in one row)."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Session:
        """The session saved by :meth:`to_dict`; :class:`SessionError` if it cannot be read."""
        try:
            if data.get("format") != FORMAT:
                raise SessionError(f"session format {data.get('format')!r} is not {FORMAT}")
            saved = dict(data["profile"])
            base = get_profile(saved.pop("name"))
            profile = base.replace(
                **{k: type(getattr(base, k))(v) for k, v in saved.items() if hasattr(base, k)}
            )
            games = [
                GameRecord(
                    Colour.parse(g["winner"]),
                    Result(g["result"]),
                    int(g["cube"]),
                    int(g["points"]),
                    bool(g["crawford"]),
                    None if g["stranded"] is None else int(g["stranded"]),
                )
                for g in data["games"]
            ]
            return cls(
                Kind(data["kind"]),
                profile,
                length=data["length"],
                stake=data["stake"],
                scoring=Scoring(data["scoring"]),
                stranded_multiply=bool(data["stranded_multiply"]),
                gammons_count=bool(data["gammons_count"]),
                automatic_doubles=bool(data["automatic_doubles"]),
                players=tuple(data["players"]),
                games=games,
            )
        except SessionError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise SessionError(f"the saved session cannot be read: {err!r}") from None

    @classmethod
    def from_json(cls, text: str) -> Session:
        """The session saved by :meth:`to_json`."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as err:
            raise SessionError(f"the saved session is not JSON: {err}") from None
        if not isinstance(data, dict):
            raise SessionError("the saved session is not a JSON object")
        return cls.from_dict(data)


__all__ = [
    "game_count",
    "GamePlan",
    "GameRecord",
    "Kind",
    "Scoring",
    "Session",
    "SessionError",
]
