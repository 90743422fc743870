"""Cubeful equity as GNU Backgammon reckons it, in money play and at any match score.

A position's *cubeless* chances (win, win a gammon, win a backgammon, lose a gammon, lose
a backgammon; gammons include backgammons) say nothing of the cube. GNU Backgammon turns
them into a *cubeful* equity with Rick Janowski's model: the equity with a dead cube,
blended with the equity of a perfectly live cube by the cube's *efficiency* (0.68 in
contact, 0.6 to 0.7 in a race by the pip count, 0.6 once both sides are home):

* money play (:func:`money_cubeful`), in units of the cube: with a live cube the equity
  runs in straight lines from a sure loss through the taker's *take point* and the
  doubler's *cash point* to a sure win, gammons counted at both ends (the Jacoby rule,
  where set, flattens the ends of a centred cube);
* a short bear-off in money play (:func:`exact_bearoff`): exact values, every throw and
  every cube decision worked out to the end, where GNU Backgammon reads its two-sided
  bear-off database;
* match play (:func:`match_cubeful`), in chances to win the match: the same straight lines
  between the match winning chances of each result, with the cash points found from the
  match equity table at every cube level up to the one that kills the cube, so the
  taker's redouble is counted (:func:`cash_points`; J. Thyssen's generalisation).

:func:`evaluate` looks ahead: it averages over the 21 throws, each played as the net
likes best, the cubeful equities of the positions one or more throws on, and at every
position lets the side on roll double (or not) and the other take (or not) as suits each
best. :func:`decide` gives the equities of *no double*, *double, take* and *double, pass*
for the side on roll, as GNU Backgammon's cube analysis does at ``plies`` (2 by default).

Boards are GNU Backgammon's ``TanBoard``: two tuples of 25 counts, the side not on roll
first, each counted from its own ace point, index 24 its bar.

>>> abs(round(money_cubeful((0.5, 0.0, 0.0, 0.0, 0.0), Cube(), 0.68), 4))   # even game
0.0
>>> round(money_cubeful((0.8, 0.0, 0.0, 0.0, 0.0), Cube(), 1.0), 4)    # a cash, no gammons
1.0
>>> round(money_cubeful((0.8, 0.3, 0.0, 0.0, 0.0), Cube(), 1.0), 4)    # past it: rising
1.1286
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, cast

from kiosk.rules.met import kazaross_xg2
from kiosk.tutor.evaluators.bearoff import Home, home_counts

if TYPE_CHECKING:
    from kiosk.rules import Position

Chances = Sequence[float]
Board = tuple[tuple[int, ...], tuple[int, ...]]

#: GNU Backgammon's cube efficiencies: contact (and crashed), race (by the pip count of
#: the side on roll, within bounds), and a bear-off with both sides home.
CONTACT_X = 0.68
RACE_X = (0.55, 0.00125, 0.6, 0.7)  # base, per pip, least, most
BEAROFF_X = 0.6


@dataclass(frozen=True)
class Cube:
    """The cube and the score, seen from the side on roll.

    ``owner`` is ``"centre"``, ``"me"`` (the side on roll) or ``"him"``; ``away`` and
    ``opp_away`` are the points each side still needs (0: money play); ``crawford``: this
    is the Crawford game. In money play ``jacoby`` is the Jacoby rule (gammons count only
    once the cube is turned).
    """

    value: int = 1
    owner: str = "centre"
    away: int = 0
    opp_away: int = 0
    crawford: bool = False
    jacoby: bool = False

    @property
    def match(self) -> bool:
        """Whether this is match play."""
        return self.away > 0

    def flipped(self) -> Cube:
        """The same cube seen by the other side."""
        owner = {"me": "him", "him": "me"}.get(self.owner, "centre")
        return replace(self, owner=owner, away=self.opp_away, opp_away=self.away)

    def doubled(self) -> Cube:
        """The cube after the side on roll doubles and the other takes."""
        return replace(self, value=2 * self.value, owner="him")

    @property
    def post_crawford(self) -> bool:
        """After the Crawford game: one side is 1-away and this is not the Crawford game."""
        return self.match and not self.crawford and 1 in (self.away, self.opp_away)

    def may_double(self) -> bool:
        """Whether the side on roll may double and it means something (GNU Backgammon's
        rule: not in the Crawford game, not once the cube already wins the match for him,
        not the leader after the Crawford game, and only with access to the cube)."""
        if self.owner == "him":
            return False
        if not self.match:
            return True
        return (
            not self.crawford
            and self.value < self.away
            and not (self.post_crawford and self.away == 1)
        )

    def mwc(self, won: int = 0, lost: int = 0) -> float:
        """The side on roll's chance to win the match once it has won ``won`` points more
        (or lost ``lost``), before the next game; the post-Crawford table applies once
        this game is the Crawford game or comes after it."""
        me, him = self.away - won, self.opp_away - lost
        if me <= 0:
            return 1.0
        if him <= 0:
            return 0.0
        later = self.crawford or 1 in (self.away, self.opp_away)
        return kazaross_xg2().equity(me, him, post_crawford=later)

    def cash(self) -> float:
        """What *double, pass* is worth to the side on roll (money: one cube; match: the
        chance to win the match after winning the cube's value)."""
        return self.mwc(won=self.value) if self.match else 1.0

    def cubeful_dead(self) -> bool:
        """Whether GNU Backgammon treats the cube as dead at this score (the Crawford game;
        both sides within the cube's reach; 2-away, 2-away)."""
        if not self.match:
            return False
        if self.crawford:
            return True
        if self.away <= self.value and self.opp_away <= self.value:
            return True
        return self.away == 2 and self.opp_away == 2


def _ratios(chances: Chances) -> tuple[float, float, float, float, float]:
    """The win chance and the share of wins and of losses that are gammons (not
    backgammons) and backgammons."""
    win, win_g, win_bg, lose_g, lose_bg = (float(c) for c in chances[:5])
    g0 = (win_g - win_bg) / win if win > 0 else 0.0
    bg0 = win_bg / win if win > 0 else 0.0
    g1 = (lose_g - lose_bg) / (1 - win) if win < 1 else 0.0
    bg1 = lose_bg / (1 - win) if win < 1 else 0.0
    return win, g0, bg0, g1, bg1


def cubeless(chances: Chances) -> float:
    """The money equity with no cube: +1 a single win, gammons and backgammons 2 and 3."""
    win, win_g, win_bg, lose_g, lose_bg = chances[:5]
    return 2 * win - 1 + win_g - lose_g + win_bg - lose_bg


def money_live(p: float, w: float, l_: float, cube: Cube) -> float:
    """Money equity with a perfectly live cube (Janowski), for a win chance ``p`` and an
    average win ``w`` and loss ``l_`` in points."""
    take = (l_ - 0.5) / (w + l_ + 0.5)  # the taker's point: below it the other cashes
    cash = (l_ + 1.0) / (w + l_ + 0.5)  # the doubler's cash point
    if cube.owner == "centre":
        if p < take:
            return -1.0 if cube.jacoby else -l_ + (l_ - 1.0) * p / take
        if p < cash:
            return -1.0 + 2.0 * (p - take) / (cash - take)
        return 1.0 if cube.jacoby else 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash)
    if cube.owner == "me":
        if p < cash:
            return -l_ + (1.0 + l_) * p / cash
        return 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash)
    if p < take:
        return -l_ + (l_ - 1.0) * p / take
    return -1.0 + (w + 1.0) * (p - take) / (1.0 - take)


def money_cubeful(chances: Chances, cube: Cube, x: float) -> float:
    """Money equity in units of the cube: the dead cube's and the live cube's blended by
    the efficiency ``x``."""
    dead = cubeless(chances)
    if cube.jacoby and cube.owner == "centre":
        win, win_g, win_bg, lose_g, lose_bg = chances[:5]
        dead = 2 * win - 1  # gammons do not count before the cube is turned
    win, win_g, win_bg, lose_g, lose_bg = chances[:5]
    if not 1e-7 < win < 1 - 1e-7:
        return dead
    w = 1.0 + (win_g + win_bg) / win
    l_ = 1.0 + (lose_g + lose_bg) / (1.0 - win)
    return (1.0 - x) * dead + x * money_live(win, w, l_, cube)


def _results(cube: Cube, value: int, gammon: float, backgammon: float, lose: bool) -> float:
    """The match winning chance of a game won (or lost) for ``value`` a point, with these
    shares of gammons and backgammons."""
    single = 1.0 - gammon - backgammon

    def at(points: int) -> float:
        return cube.mwc(lost=points) if lose else cube.mwc(won=points)

    return single * at(value) + gammon * at(2 * value) + backgammon * at(3 * value)


def cash_points(chances: Chances, cube: Cube) -> tuple[float, float]:
    """Each side's cash point with a live cube at this score: the win chance (the side on
    roll's, then the other's, each its own) from which the other side should pass.

    From the cube value that is dead for both sides down to the cube's value: where the
    doubled cube would be dead, the plain take-or-pass break-even (the taker redoubling
    at once where that costs him nothing); where it stays live, the taker's own cash
    point one level up sets how much his take is worth.
    """
    _, g0, bg0, g1, bg1 = _ratios(chances)
    gammons = {"me": (g0, bg0), "him": (g1, bg1)}
    views = {"me": cube, "him": cube.flipped()}
    reach = {"me": cube.away - 1, "him": cube.opp_away - 1}  # GNU's "away minus one"
    levels = [cube.value]
    while reach["me"] >= 2 * levels[-1] and reach["him"] >= 2 * levels[-1]:
        levels.append(2 * levels[-1])
    live: dict[str, dict[int, float]] = {"me": {}, "him": {}}
    for n in range(len(levels) - 1, -1, -1):
        c = levels[n]
        for side, other in (("me", "him"), ("him", "me")):
            view = views[side]
            g_own, bg_own = gammons[side]
            g_other, bg_other = gammons[other]
            if reach["me"] < 2 * c or reach["him"] < 2 * c:
                # The doubled cube is dead; a taker who would win the match with it
                # redoubles at once, for nothing.
                prime = 2 * c if reach[side] < 2 * c <= reach[other] else c
                lose = _results(view, 2 * prime, g_other, bg_other, lose=True)
                win = _results(view, 2 * prime, g_own, bg_own, lose=False)
                passed = view.mwc(won=c)
                live[side][n] = (lose - passed) / (lose - win)
            else:
                redouble_passed = view.mwc(lost=2 * c)
                passed = view.mwc(won=c)
                win = _results(view, 2 * c, g_own, bg_own, lose=False)
                live[side][n] = 1.0 - live[other][n + 1] * (passed - win) / (redouble_passed - win)
    return live["me"][0], live["him"][0]


def match_cubeful(chances: Chances, cube: Cube, x: float) -> float:
    """The side on roll's chance to win the match: the dead cube's and the live cube's
    blended by the efficiency ``x`` (the dead cube's alone where the cube is dead)."""
    win, g0, bg0, g1, bg1 = _ratios(chances)
    c = cube.value
    won = _results(cube, c, g0, bg0, lose=False)
    lost = _results(cube, c, g1, bg1, lose=True)
    dead = win * won + (1 - win) * lost
    if cube.cubeful_dead():
        return dead
    mine, his = cash_points(chances, cube)
    cash, his_cash = cube.mwc(won=c), cube.mwc(lost=c)
    his_point = 1.0 - his  # below this win chance he cashes
    if cube.owner != "me" and win <= his_point:
        live = lost + (his_cash - lost) * win / his_point if his_point > 0 else lost
    elif cube.owner == "centre" and win < mine:
        live = his_cash + (cash - his_cash) * (win - his_point) / (mine - his_point)
    elif cube.owner == "me" and win <= mine:
        live = lost + (cash - lost) * win / mine if mine > 0 else lost
    elif cube.owner == "him":
        live = his_cash + (won - his_cash) * (win - his_point) / (1.0 - his_point)
    else:
        live = cash + (won - cash) * (win - mine) / (1.0 - mine) if mine < 1 else won
    return (1.0 - x) * dead + x * live


def cubeful(chances: Chances, cube: Cube, x: float) -> float:
    """Money equity in cube units, or the match winning chance, as suits ``cube``."""
    return match_cubeful(chances, cube, x) if cube.match else money_cubeful(chances, cube, x)


def efficiency(board: Board) -> float:
    """GNU Backgammon's cube efficiency for the side on roll's position."""
    other, me = board
    back_me = max((i for i in range(25) if me[i]), default=-1)
    back_other = max((i for i in range(25) if other[i]), default=-1)
    if back_me < 0 or back_other < 0:
        return 0.0  # the game is over: a dead cube
    if back_me + back_other > 22:
        return CONTACT_X
    if back_me < 6 and back_other < 6:
        return BEAROFF_X
    base, per_pip, least, most = RACE_X
    pips = sum((i + 1) * n for i, n in enumerate(me))
    return min(most, max(least, base + per_pip * pips))


def finished(board: Board) -> Chances | None:
    """The result of a game that is over, for the side on roll (who has lost it), else
    None: a gammon if it has borne off nothing, a backgammon if it also still has a man in
    the winner's home table or on the bar."""
    other, me = board
    if any(other):
        return None
    if sum(me) < 15:
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    backgammon = 1.0 if any(me[18:25]) else 0.0
    return (0.0, 0.0, 0.0, 1.0, backgammon)


#: The most men each side may have left for the exact bear-off cube values.
EXACT_MEN = 3


def exact_bearoff(board: Board) -> dict[str, float] | None:
    """Exact money equities of a short bear-off for the side on roll, in units of the cube,
    for each owner of the cube (``centre``, ``me``, ``him``): both sides home, each with at
    most :data:`EXACT_MEN` men left and at least one borne off (so no gammons); every throw
    played and every cube turned to suit each side best. None for other positions."""
    other, me = board
    if any(me[6:]) or any(other[6:]):
        return None
    mine, his = home_counts(me[:6]), home_counts(other[:6])
    if not 0 < sum(mine) <= EXACT_MEN or not 0 < sum(his) <= EXACT_MEN:
        return None
    return {owner: _exact(mine, his, owner) for owner in ("centre", "me", "him")}


_FLIP = {"centre": "centre", "me": "him", "him": "me"}


@cache
def _exact(mine: Home, his: Home, owner: str) -> float:
    """The side on roll's exact equity (cube units) with ``owner`` holding the cube."""
    play_on = _exact_no_double(mine, his, owner)
    if owner == "him":
        return play_on
    taken = 2.0 * _exact_no_double(mine, his, "him")
    return max(play_on, min(taken, 1.0))


@cache
def _exact_no_double(mine: Home, his: Home, owner: str) -> float:
    from kiosk.tutor.evaluators.bearoff import _plays

    total = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            dice = (a,) * 4 if a == b else (a, b)
            best = max(
                1.0 if not sum(after) else -_exact(his, after, _FLIP[owner])
                for after in _plays(mine, dice)
            )
            total += best * (1 if a == b else 2)
    return total / 36


class Backend(Protocol):
    """What the look-ahead needs of a net: its chances for the side on roll, and the
    position each of the 21 throws leads to when played as it likes best."""

    name: str

    def probabilities(self, board: Board) -> Chances:
        """The five cubeless chances of the side on roll."""
        ...

    def after_rolls(self, board: Board) -> list[tuple[int, Board]]:
        """For each of the 21 throws, its weight (1 or 2 of 36) and the board after the
        side on roll plays it as well as it can (the other side then on roll)."""
        ...


def _combine(value: float, doubled: float | None, cube: Cube) -> float:
    """The side on roll's equity for ``cube``: no double, or double when that is better,
    the other side then taking or passing as suits him (money equities in units of the
    undoubled cube)."""
    if doubled is None:
        return value
    take = doubled if cube.match else 2.0 * doubled
    cash = cube.cash()
    if take >= value and cash >= value:
        return min(take, cash)
    return value


def evaluate(
    backend: Backend,
    board: Board,
    cubes: Sequence[Cube],
    plies: int,
    top: bool = False,
    _seen: dict[Any, Any] | None = None,
) -> list[float]:
    """The cubeful equity of ``board`` for the side on roll with each of ``cubes``, looking
    ``plies`` throws ahead; with ``top`` the side on roll's own double is not weighed (the
    caller asks for *no double* and *double, take* as two cubes)."""
    seen = {} if _seen is None else _seen
    states: list[Cube] = []
    for cube in cubes:
        states.append(cube)
        states.append(cube.doubled() if not top and cube.may_double() else None)  # type: ignore[arg-type]
    over = finished(board)
    if plies > 0 and over is None:
        sums = [0.0] * len(states)
        live = [s for s in states if s is not None]
        for weight, child in backend.after_rolls(board):
            values = iter(
                evaluate(backend, child, [s.flipped() for s in live], plies - 1, False, seen)
            )
            for i, state in enumerate(states):
                if state is not None:
                    sums[i] += weight * next(values)
        equities = [
            None if s is None else (1.0 - total / 36 if s.match else -total / 36)
            for s, total in zip(states, sums, strict=True)
        ]
    else:
        key = ("p", board)
        if key not in seen:
            seen[key] = over if over is not None else tuple(backend.probabilities(board))
        chances = seen[key]
        x = 0.0 if over is not None else efficiency(board)
        exact = exact_bearoff(board) if over is None else None
        equities = [
            None
            if s is None
            else exact[s.owner]
            if exact is not None and not s.match
            else cubeful(chances, s, x)
            for s in states
        ]
    return [
        _combine(equities[2 * i], equities[2 * i + 1], cube)
        for i, cube in enumerate(cubes)
    ]


@dataclass(frozen=True)
class Equities:
    """The three cube equities for the side on roll: money in units of the cube as it
    stands (*double, pass* is +1), match play in chances to win the match."""

    no_double: float
    double_take: float
    double_pass: float


def decide(backend: Backend, board: Board, cube: Cube, plies: int = 2) -> Equities:
    """*No double*, *double, take* and *double, pass* for the side on roll, looking
    ``plies`` throws ahead as GNU Backgammon's cube analysis does."""
    nd, dt = evaluate(backend, board, [cube, cube.doubled()], plies, top=True)
    return Equities(nd, dt if cube.match else 2.0 * dt, cube.cash())


class GnubgNNBackend:
    """The look-ahead with GNU Backgammon's nets in-process (gnubg-nn): its chances at
    0-ply and its best play of each throw."""

    name = "gnubg-nn"

    def __init__(self, module: Any) -> None:
        self.module = module

    def probabilities(self, board: Board) -> Chances:
        """The net's chances for the side on roll."""
        return cast("Chances", self.module.probabilities([list(board[0]), list(board[1])], 0))

    def after_rolls(self, board: Board) -> list[tuple[int, Board]]:
        """Each throw played as the net likes best."""
        out = []
        raw = [list(board[0]), list(board[1])]
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                key = self.module.best_move(raw, d1, d2, b=1)[1]
                after = self.module.board_from_position_key(key)
                out.append((1 if d1 == d2 else 2, (tuple(after[0]), tuple(after[1]))))
        return out


class PositionBackend:
    """The look-ahead with an evaluator that rates positions (the built-in net):
    ``best_plays`` rates every legal play of the 21 throws in one batch and keeps each
    throw's best (:meth:`kiosk.tutor.evaluators.builtin.BuiltinEvaluator.best_plays`).
    The last position's throws are kept, so the chances before throwing
    (:meth:`chances_on_roll`) and the look-ahead from that position rate its plays once."""

    def __init__(
        self, chances_after: Callable[..., Any], best_plays: Callable[..., Any], name: str
    ) -> None:
        self.chances_after = chances_after  # list[Position] -> rows of chances for the mover
        self.best_plays = best_plays  # Position -> [(ways, after, chances for the mover)]
        self.name = name
        self._last: tuple[Board, list[Any]] | None = None  # a board and its throws' best plays

    @staticmethod
    def _position(board: Board) -> Position:
        from kiosk.rules import WHITE, Position

        other, me = board
        return Position((me, other), (15 - sum(me), 15 - sum(other)), WHITE, validate=False)

    @staticmethod
    def _board(position: Position) -> Board:
        on_roll = position.turn
        return (tuple(position.men[on_roll.other]), tuple(position.men[on_roll]))

    def _throws(self, board: Board, position: Position | None = None) -> list[Any]:
        """The best play of each throw from ``board`` (``position``, if given, is that
        board's position): those of the last board asked about, or worked out now."""
        last = self._last
        if last is None or last[0] != board:
            found = self.best_plays(position if position is not None else self._position(board))
            last = self._last = (board, found)
        return last[1]

    def chances_on_roll(self, position: Position) -> list[float]:
        """The side on roll's chances before it throws, as
        :meth:`~kiosk.tutor.evaluators.builtin.BuiltinEvaluator.chances_on_roll` gives them."""
        from kiosk.tutor.evaluators.builtin import mean_chances

        return mean_chances(self._throws(self._board(position), position))

    def probabilities(self, board: Board) -> Chances:
        """The side on roll's chances: the other side's, as the side that just moved,
        turned round."""
        win, win_g, win_bg, lose_g, lose_bg = self.chances_after([self._position(board)])[0]
        return (1.0 - win, lose_g, lose_bg, win_g, win_bg)

    def after_rolls(self, board: Board) -> list[tuple[int, Board]]:
        """Each throw played as the evaluator likes best."""
        return [(ways, self._board(after)) for ways, after, _ in self._throws(board)]
