"""The chouette: three to eight players, one "in the box" against a partnership (Parker).

Parker Brothers' leaflet *Modern Backgammon*, "Chouette" (``shared/books/CATALOGUE.md``
§1.13):

* Each player throws a die (:class:`ThrowOff`; players who tie throw again among
  themselves). The highest is in the box, the next is the playing opponent (the captain),
  the others are ranked by their throws.
* The partners consult; where they disagree on a play, on doubling, or on taking the box's
  double, the captain decides (:meth:`Chouette.consult`). But any partner may decline the
  box's double by himself: he withdraws, losing his score as it then stands to the captain,
  who from then on wins or loses that partner's full share (:meth:`Chouette.box_doubles`).
* The box collects the game's value from each partner, or pays it to each.
* Box wins: the box stays, the next partner becomes captain and the beaten captain goes to
  the bottom. Box loses: the captain takes the box and the old box joins the partnership at
  the bottom.

>>> from kiosk.rules import WHITE, BLACK, Result
>>> throw = ThrowOff(player_names(4, ["Ann", "", "Cy"]))
>>> for player, die in [(1, 3), (2, 6), (3, 3), (4, 1), (1, 5), (3, 2)]:
...     throw.throw(player, die)
>>> throw.order
['Player 2', 'Ann', 'Cy', 'Player 4']
>>> game = Chouette.seated(throw)
>>> game.box, game.captain
('Player 2', 'Ann')
>>> game.box_doubles(declines=["Player 4"])
{'Ann': 1, 'Player 4': -1}
>>> game.finish(BLACK, Result.SINGLE)   # the box plays white: the partnership wins
{'Ann': 4, 'Player 2': -6, 'Cy': 2}
>>> game.box, game.partners
('Ann', ['Cy', 'Player 4', 'Player 2'])
>>> game.score
[5, -6, 2, -1]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kiosk.errors import TableError
from kiosk.rules import WHITE, Colour, Result, RuleProfile, get_profile
from kiosk.rules.session import game_count

MIN_PLAYERS = 3
MAX_PLAYERS = 8
FORMAT = 1
T = TypeVar("T")


class ChouetteError(TableError, ValueError):
    """A chouette set up or played in a way Parker's rules do not allow (says why)."""


def player_names(count: int, names: Iterable[str] = ()) -> list[str]:
    """``count`` players' names: those given, and "Player N" for any left blank.

    >>> player_names(3, ["Ann"])
    ['Ann', 'Player 2', 'Player 3']
    """
    if not isinstance(count, int) or not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise ChouetteError(f"a chouette has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count!r}")
    given = [str(n).strip() for n in names]
    if len(given) > count:
        raise ChouetteError(f"{len(given)} names given for {count} players")
    out = [given[i] if i < len(given) and given[i] else f"Player {i + 1}" for i in range(count)]
    if len(set(out)) != len(out):
        raise ChouetteError("two players have the same name; give each a different one")
    return out


@dataclass
class ThrowOff:
    """Seating by a die thrown by each player; players who tie throw again among themselves.

    ``groups`` is the ranking so far, highest first; a group of more than one player is a
    tie still to be thrown off.
    """

    players: list[str]
    groups: list[list[str]] = field(default_factory=list)
    throws: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.players = player_names(len(self.players), self.players)
        if not self.groups:
            self.groups = [list(self.players)]

    @property
    def pending(self) -> list[str]:
        """Who must throw now."""
        return [p for g in self.groups if len(g) > 1 for p in g if p not in self.throws]

    @property
    def done(self) -> bool:
        """Whether every player's rank is decided."""
        return all(len(g) == 1 for g in self.groups)

    @property
    def order(self) -> list[str]:
        """The players ranked by their throws: the box first, then the captain, then the rest."""
        if not self.done:
            raise ChouetteError(f"still to throw: {', '.join(self.pending)}")
        return [g[0] for g in self.groups]

    def player(self, who: str | int) -> str:
        """A player by name or by number (1 is the first entered)."""
        if isinstance(who, int) and not isinstance(who, bool):
            if not 1 <= who <= len(self.players):
                raise ChouetteError(f"there is no player {who}: 1 to {len(self.players)}")
            return self.players[who - 1]
        if who not in self.players:
            raise ChouetteError(f"{who!r} is not playing; the players: {', '.join(self.players)}")
        return who

    def throw(self, who: str | int, die: int) -> None:
        """Record one player's die; when the round is complete, ties are split or rethrown."""
        name = self.player(who)
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise ChouetteError(f"a die shows 1 to 6, not {die!r}")
        if name not in self.pending:
            waiting = ", ".join(self.pending) or "nobody"
            raise ChouetteError(f"{name} does not throw now; waiting for: {waiting}")
        self.throws[name] = die
        if self.pending:
            return
        groups: list[list[str]] = []
        for group in self.groups:
            if len(group) == 1:
                groups.append(group)
                continue
            for value in sorted({self.throws[p] for p in group}, reverse=True):
                groups.append([p for p in group if self.throws[p] == value])
        self.groups = groups
        self.throws = {}


@dataclass
class Chouette:
    """A chouette in play: the seating, the game's cube and shares, and each player's tally.

    ``order`` is the seating from the throw-off (box, captain, then the partners by rank).
    The box plays ``box_colour``; the captain moves the other colour.
    """

    order: list[str]
    stake: int = 1  # Parker's agreed value per game
    profile: RuleProfile = field(default_factory=lambda: get_profile("parker"))
    box_colour: Colour = WHITE
    players: list[str] = field(default_factory=list)  # as entered (the order of ``score``)
    tally: dict[str, int] = field(default_factory=dict)
    cube: int = 1
    cube_owner: str | None = None  # "box", "partners", or None while in the middle
    shares: dict[str, int] = field(default_factory=dict)  # partner -> shares carried
    games: int = 0

    def __post_init__(self) -> None:
        self.order = player_names(len(self.order), self.order)
        self.players = self.players or list(self.order)
        if sorted(self.players) != sorted(self.order):
            raise ChouetteError("the seating and the players entered are not the same people")
        self.profile = get_profile(self.profile)
        self.box_colour = Colour(self.box_colour)
        if not isinstance(self.stake, int) or isinstance(self.stake, bool) or self.stake < 1:
            raise ChouetteError(
                f"the agreed value per game is a whole number from 1, not {self.stake!r}"
            )
        for name in self.players:
            self.tally.setdefault(name, 0)
        if not self.shares:
            self.shares = dict.fromkeys(self.partners, 1)
        if set(self.tally) != set(self.players) or not set(self.shares) <= set(self.partners):
            raise ChouetteError("the tallies or shares name someone who is not playing")
        shares = list(self.shares.values())
        if sum(shares) != len(self.partners) or min(shares) < 1 or self.captain not in self.shares:
            raise ChouetteError("the partners' shares do not add up to one each")
        if (
            self.cube < 1
            or self.cube & (self.cube - 1)
            or self.cube_owner
            not in (
                None,
                "box",
                "partners",
            )
        ):
            raise ChouetteError(f"the cube cannot be at {self.cube} with {self.cube_owner!r}")

    @classmethod
    def seated(cls, throw_off: ThrowOff, **options: Any) -> Chouette:
        """A chouette seated by a finished throw-off (the players kept in entered order)."""
        return cls(throw_off.order, players=list(throw_off.players), **options)

    # -- who is where ----------------------------------------------------------------------

    @property
    def box(self) -> str:
        """The player in the box."""
        return self.order[0]

    @property
    def captain(self) -> str:
        """The playing opponent, who moves for the partnership."""
        return self.order[1]

    @property
    def partners(self) -> list[str]:
        """The partnership, the captain first, then by rank."""
        return self.order[1:]

    @property
    def next_captain(self) -> str:
        """Who plays for the partnership next game if the box wins this one."""
        return self.order[2]

    @property
    def score(self) -> list[int]:
        """Each player's tally, in the order the players were entered."""
        return [self.tally[name] for name in self.players]

    @property
    def stake_now(self) -> int:
        """One share's value in this game so far: the agreed value times the cube."""
        return self.stake * self.cube

    def seating(self) -> list[str]:
        """The order in words, for the screen: the box, the captain, then the partners.

        >>> Chouette(["Ann", "Bob", "Cy"]).seating()
        ['In the box: Ann (0)', 'Playing opponent: Bob (0)', 'Partner: Cy (0)']
        """
        roles = ["In the box", "Playing opponent"] + ["Partner"] * (len(self.order) - 2)
        return [
            f"{role}: {name} ({self.tally[name]:+d})".replace("(+0)", "(0)")
            for role, name in zip(roles, self.order, strict=True)
        ]

    def who_plays(self) -> str:
        """What speech says before a game: who plays against whom.

        >>> Chouette(["Ann", "Bob", "Cy"]).who_plays()
        'Bob plays for the partnership against Ann in the box.'
        """
        return f"{self.captain} plays for the partnership against {self.box} in the box."

    def consult(self, views: Mapping[str, T]) -> T:
        """The partnership's decision: each partner's view, the captain's where they differ."""
        strangers = [name for name in views if name not in self.partners]
        if strangers:
            raise ChouetteError(f"{', '.join(strangers)} is not in the partnership")
        if self.captain not in views:
            raise ChouetteError(f"the captain, {self.captain}, has not given a view")
        return views[self.captain]

    # -- the cube ------------------------------------------------------------------------

    def _may_double(self, side: str) -> None:
        if not self.profile.doubling:
            raise ChouetteError(f"there is no doubling under {self.profile.title}")
        if self.cube_owner not in (None, side):
            raise ChouetteError(
                f"the {self.cube_owner} doubled last, so the other side doubles next"
            )

    def box_doubles(
        self, declines: Iterable[str] = (), captain_takes: bool = True
    ) -> dict[str, int]:
        """The box doubles; ``declines`` names partners who decline it by themselves.

        Each decliner withdraws and pays his score as it stands (the stake before the double)
        to the captain, who carries his share from then on. If the captain declines, the
        game ends and the box wins the stake as it stands from every partner. Returns the
        money that changed hands now.
        """
        self._may_double("box")
        declining = list(dict.fromkeys(declines))
        for name in declining:
            if name not in self.partners:
                raise ChouetteError(f"{name} is not in the partnership")
            if name == self.captain:
                raise ChouetteError("the captain declines for the partnership: captain_takes=False")
            if self.shares.get(name, 0) == 0:
                raise ChouetteError(f"{name} has already withdrawn from this game")
        paid: dict[str, int] = {}
        if not captain_takes:
            return self._end(box_wins=True, value=self.stake_now)
        for name in declining:
            amount = self.stake_now
            self._pay(name, self.captain, amount, paid)
            self.shares[self.captain] += self.shares.pop(name)
        self.cube *= 2
        self.cube_owner = "partners"
        return self._in_order(paid)

    def partners_double(self, box_takes: bool) -> dict[str, int]:
        """The captain doubles for the partnership; the box takes or passes (ending the game)."""
        self._may_double("partners")
        if not box_takes:
            return self._end(box_wins=False, value=self.stake_now)
        self.cube *= 2
        self.cube_owner = "box"
        return {}

    # -- the end of a game -----------------------------------------------------------------

    def game_value(self, result: Result | str, points: int | None = None) -> int:
        """One share's value at the end: the stake, times the game's count, times the cube.

        ``points`` is the game's count if not the profile's single/gammon/backgammon (for
        example Parker's stranded-men count).
        """
        if points is None:
            points = game_count(self.profile, result)
        if not isinstance(points, int) or points < 0:
            raise ChouetteError(f"a game counts a whole number of points, not {points!r}")
        return points * self.stake_now

    def finish(
        self, winner: Colour | str, result: Result | str = Result.SINGLE, points: int | None = None
    ) -> dict[str, int]:
        """Settle a game won by ``winner`` (a colour, or "box" / "partners") and rotate.

        Returns what each player won (+) or lost (-) in the settlement.
        """
        if winner in ("box", "partners"):
            box_wins = winner == "box"
        else:
            try:
                colour = Colour(winner) if not isinstance(winner, str) else Colour.parse(winner)
            except ValueError:
                raise ChouetteError(
                    f"the winner is white, black, box or partners, not {winner!r}"
                ) from None
            box_wins = colour == self.box_colour
        try:
            value = self.game_value(result, points)
        except ValueError as err:
            raise ChouetteError(str(err)) from None
        return self._end(box_wins, value)

    def _pay(self, payer: str, payee: str, amount: int, paid: dict[str, int]) -> None:
        for name, delta in ((payer, -amount), (payee, amount)):
            self.tally[name] += delta
            paid[name] = paid.get(name, 0) + delta

    def _end(self, box_wins: bool, value: int) -> dict[str, int]:
        paid: dict[str, int] = {}
        for partner, share in self.shares.items():
            if share:
                if box_wins:
                    self._pay(partner, self.box, value * share, paid)
                else:
                    self._pay(self.box, partner, value * share, paid)
        box, captain, rest = self.order[0], self.order[1], self.order[2:]
        self.order = [box, *rest, captain] if box_wins else [captain, *rest, box]
        self.cube, self.cube_owner = 1, None
        self.shares = dict.fromkeys(self.partners, 1)
        self.games += 1
        return self._in_order(paid)

    def _in_order(self, paid: dict[str, int]) -> dict[str, int]:
        return {name: paid[name] for name in self.players if name in paid}

    # -- keeping it over a restart -------------------------------------------------------

    def to_json(self) -> str:
        """The chouette as one JSON text, game in progress included."""
        return json.dumps(
            {
                "format": FORMAT,
                "order": self.order,
                "stake": self.stake,
                "profile": self.profile.name,
                "backgammon_value": self.profile.backgammon_value,
                "box_colour": str(self.box_colour),
                "players": self.players,
                "tally": self.tally,
                "cube": self.cube,
                "cube_owner": self.cube_owner,
                "shares": self.shares,
                "games": self.games,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> Chouette:
        """The chouette saved by :meth:`to_json` (:class:`ChouetteError` if unreadable)."""
        try:
            data = json.loads(text)
            if data["format"] != FORMAT:
                raise ChouetteError(f"chouette format {data['format']!r} is not {FORMAT}")
            profile = get_profile(data["profile"]).replace(
                backgammon_value=int(data["backgammon_value"])
            )
            return cls(
                list(data["order"]),
                stake=data["stake"],
                profile=profile,
                box_colour=Colour.parse(data["box_colour"]),
                players=list(data["players"]),
                tally={str(k): int(v) for k, v in data["tally"].items()},
                cube=int(data["cube"]),
                cube_owner=data["cube_owner"],
                shares={str(k): int(v) for k, v in data["shares"].items()},
                games=int(data["games"]),
            )
        except ChouetteError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ChouetteError(f"the saved chouette cannot be read: {err!r}") from None
