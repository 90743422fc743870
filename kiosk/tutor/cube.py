"""The coach on the doubling cube: double, no double or too good; take or pass.

The side on roll, before throwing, may double if the cube is in the middle or its own.
From the chances of the position (GNU Backgammon's if installed, else the built-in net's
looking one throw ahead, :meth:`.BuiltinEvaluator.chances_on_roll`) the coach works out
three cubeful equities, all for the side on roll and in units of the cube as it stands:
*no double*, *double, take* and *double, pass* (+1). As GNU Backgammon does at its
quickest level, it uses Janowski's model: the cubeless equity with the cube
dead, blended with the equity of a perfectly live cube by the cube's efficiency (0.68 in
contact, less in a race). The take point and cash point come from the gammon rates:

* with a dead cube and no gammons the taker needs 25% of the wins, as the lesson on the
  cube teaches; gammons (``W`` and ``L``, the doubler's average win and loss) and the
  value of owning the cube move it, and :func:`taker_needs` works it out;
* double when both *double, take* and *double, pass* beat *no double*; it is *too good*
  when *no double* beats *double, pass* (play on for the gammon).

In a match, the Crawford game allows no double; after it the trailer doubles at once and
the leader, who has nothing to lose by the cube, takes. At other match scores the three
decisions are weighed in chances to win the match (:func:`match_chances`): each way the
game can end (a single game, a gammon or a backgammon, for either side, at the cube's
value) moves the score, and the Kazaross XG2 match equity table gives the chance to win
the match from there. The cube is taken as dead at those scores (no redouble is valued),
so the figures are the coach's approximation, not GNU Backgammon's; the reasons give the
chances and the table. Equities are then put back in cube units (+1 a cashed game) so
that ``equity_loss`` reads as in money play.

>>> from kiosk.rules import Position
>>> decision = CubeCoach(chances=lambda p: (0.5, 0.13, 0.005, 0.13, 0.005)).decide(
...     Position.standard())
>>> decision.action, decision.response
('no-double', 'take')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kiosk.rules import Colour, Position
from kiosk.rules.met import kazaross_xg2
from kiosk.tutor.features import has_contact

Chances = Callable[[Position], Sequence[float]]

ACTIONS = ("double", "no-double", "too-good")
RESPONSES = ("take", "pass")
DECISIONS = ("double", "no-double", "take", "pass")

#: Cube efficiency in contact positions (Janowski; GNU Backgammon's value).
CONTACT_EFFICIENCY = 0.68


@dataclass(frozen=True)
class CubeState:
    """The cube: its value, who owns it (``None``: the middle), and the match, if any."""

    value: int = 1
    owner: Colour | None = None
    match: int = 0  # 0: money play
    score: tuple[int, int] = (0, 0)  # (side on roll, opponent)
    crawford: bool = False  # this is the Crawford game

    def __post_init__(self) -> None:
        if self.value < 1 or self.value & (self.value - 1):
            raise ValueError(f"the cube shows a power of two, not {self.value}")
        if self.match < 0 or any(s < 0 or (self.match and s >= self.match) for s in self.score):
            raise ValueError(f"a score of {self.score} does not fit a {self.match}-point match")


@dataclass(frozen=True)
class CubeDecision:
    """The coach's verdict on a cube decision (equities for the side on roll)."""

    action: str
    response: str
    no_double: float
    double_take: float
    double_pass: float
    chances: tuple[float, ...]
    reasons: list[dict] = field(default_factory=list)
    equity_loss: float | None = None  # of the decision asked about, if one was
    evaluator: str = ""

    def as_dict(self) -> dict:
        """JSON-ready: the ``kiosk coach-cube`` contract."""
        return {
            "action": self.action,
            "response": self.response,
            "equity_loss": None if self.equity_loss is None else round(self.equity_loss, 4),
            "equities": {
                "no_double": round(self.no_double, 4),
                "double_take": round(self.double_take, 4),
                "double_pass": round(self.double_pass, 4),
            },
            "chances": [round(c, 4) for c in self.chances],
            "reasons": [dict(r) for r in self.reasons],
            "evaluator": self.evaluator,
        }


def efficiency(position: Position) -> float:
    """How live the cube is: 0.68 in contact; in a race, from 0.6 (short) to 0.68 (long)."""
    if has_contact(position):
        return CONTACT_EFFICIENCY
    pips = position.pips(position.turn)
    return max(0.6, min(CONTACT_EFFICIENCY, 0.55 + 0.0011 * pips))


def values(chances: Sequence[float]) -> tuple[float, float, float]:
    """``(p, W, L)``: the chance of winning and the average win and loss in points."""
    win, win_g, win_bg, lose_g, lose_bg = chances[:5]
    p = min(max(win, 1e-6), 1 - 1e-6)
    return p, 1.0 + (win_g + win_bg) / p, 1.0 + (lose_g + lose_bg) / (1.0 - p)


def take_point(w: float, l_: float) -> float:
    """The doubler's winning chance above which the taker should pass (live cube)."""
    return (l_ + 1.0) / (w + l_ + 0.5)


def taker_needs(w: float, l_: float, x: float) -> float:
    """The taker's share of the wins at which taking and passing are equal (Janowski)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if 2.0 * cubeful(mid, w, l_, "him", x) < 1.0:
            lo = mid
        else:
            hi = mid
    return 1.0 - lo


def _live(p: float, w: float, l_: float, own: str) -> float:
    """Equity with a perfectly live cube; ``own``: ``me``, ``middle`` or ``him``."""
    cash = take_point(w, l_)  # where I cash
    his_cash = (l_ - 0.5) / (w + l_ + 0.5)  # where he cashes against me
    if own == "me":
        return -l_ + (1.0 + l_) * p / cash if p < cash else max(1.0, p * (w + l_) - l_)
    if own == "him":
        return -1.0 + (w + 1.0) * (p - his_cash) / (1.0 - his_cash) if p > his_cash else -1.0
    if p <= his_cash:
        return -1.0
    if p >= cash:
        return 1.0
    return -1.0 + 2.0 * (p - his_cash) / (cash - his_cash)


def cubeful(p: float, w: float, l_: float, own: str, x: float) -> float:
    """Janowski's cubeful equity: dead and live cube blended by efficiency ``x``."""
    return (1.0 - x) * (p * (w + l_) - l_) + x * _live(p, w, l_, own)


def after_game(away: int, opponent_away: int) -> float:
    """The chance to win the match for a side ``away`` from winning (0 or less: won)
    against one ``opponent_away``, before the next game (Kazaross XG2).

    >>> after_game(0, 3), after_game(2, -1), round(after_game(1, 2), 4)
    (1.0, 0.0, 0.6774)
    """
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    return kazaross_xg2().equity(away, opponent_away)


def match_chances(chances: Sequence[float], away: int, opponent_away: int, stake: int) -> float:
    """The chance to win the match for the side on roll, playing the game out for ``stake``
    points a game (the cube's value) with these ``chances`` (win, win a gammon, win a
    backgammon, lose a gammon, lose a backgammon; gammons include backgammons).

    >>> round(match_chances((0.66, 0, 0, 0, 0), 2, 2, 2), 4)   # the match on one game
    0.66
    """
    win, win_g, win_bg, lose_g, lose_bg = chances[:5]
    wins = ((win - win_g, 1), (win_g - win_bg, 2), (win_bg, 3))
    losses = ((1.0 - win - lose_g, 1), (lose_g - lose_bg, 2), (lose_bg, 3))
    return sum(p * after_game(away - k * stake, opponent_away) for p, k in wins) + sum(
        p * after_game(away, opponent_away - k * stake) for p, k in losses
    )


#: The reason codes of a cube decision and what each one's facts mean (chances are the side
#: on roll's, before it throws; match chances are fractions of 1).
CUBE_REASON_CODES: dict[str, str] = {
    "chances": "the side on roll wins `win` of the games; a win is worth `average_win` points "
    "on average and a loss `average_loss` (gammons and backgammons counted)",
    "crawford": "the Crawford game: nobody may double",
    "post-crawford": "after the Crawford game: the trailer doubles at once, and the leader takes",
    "match-equity": "at `away`-away, `opponent_away`-away the side on roll wins the match "
    "`no_double` playing on, `double_take` if a double is taken and `double_pass` if it is "
    "passed (Kazaross XG2 table, the cube counted as dead)",
    "no-access": "the cube is the opponent's: the side on roll may not double",
    "take-point": "the taker needs `take_point` of the wins to take and has `taker_wins`",
    "too-good": "too good to double: playing on for a gammon is worth more than a cashed point",
    "market": "double now: the taker must pass, and many throws would lose the market",
}


def _reason(code: str, text: str, **facts: object) -> dict:
    if code not in CUBE_REASON_CODES:
        raise ValueError(f"unknown cube reason code {code!r}")
    return {"code": code, **facts, "text": text}


class CubeCoach:
    """Rates cube decisions from the chances an evaluator gives the side on roll."""

    def __init__(self, chances: Chances, name: str = "") -> None:
        self.chances = chances
        self.name = name

    def decide(
        self, position: Position, cube: CubeState | None = None, decision: str | None = None
    ) -> CubeDecision:
        """The right action and response, and what ``decision`` (one of :data:`DECISIONS`,
        by the side it belongs to) gives up."""
        cube = cube or CubeState()
        if decision is not None and decision not in DECISIONS:
            raise ValueError(f"a decision is one of {', '.join(DECISIONS)}, not {decision!r}")
        chances = tuple(float(c) for c in self.chances(position))
        p, w, l_ = values(chances)
        x = efficiency(position)
        own = "middle" if cube.owner is None else "me" if cube.owner == position.turn else "him"
        nd = cubeful(p, w, l_, own, x)
        dt = 2.0 * cubeful(p, w, l_, "him", x)
        dp = 1.0
        reasons = [
            _reason(
                "chances",
                f"You win {p:.0%} of games from here; a win is worth {w:.2f} points on "
                f"average and a loss {l_:.2f}",
                win=round(p, 4),
                average_win=round(w, 3),
                average_loss=round(l_, 3),
            )
        ]
        may_double = own != "him"
        post_crawford = (
            bool(cube.match)
            and not cube.crawford
            and (cube.match - 1 in cube.score and cube.score[0] != cube.score[1])
        )
        if cube.match and cube.crawford:
            may_double = False
            reasons.append(_reason("crawford", "The Crawford game: nobody may double"))
        elif post_crawford:
            reasons.append(
                _reason(
                    "post-crawford",
                    "After the Crawford game the trailer doubles at once (any game he loses, "
                    "doubled or not, loses him the match, so the cube costs him nothing), "
                    "and the leader takes",
                )
            )
        elif cube.match:
            away, opponent_away = (cube.match - cube.score[0], cube.match - cube.score[1])
            c = cube.value
            won, lost = after_game(away - c, opponent_away), after_game(away, opponent_away - c)
            mwc = (
                match_chances(chances, away, opponent_away, c),
                match_chances(chances, away, opponent_away, 2 * c),
                won,
            )
            nd, dt, dp = (2.0 * (m - lost) / (won - lost) - 1.0 for m in mwc)
            reasons.append(
                _reason(
                    "match-equity",
                    f"At {away}-away, {opponent_away}-away you win the match "
                    f"{mwc[0]:.0%} of the time playing on, {mwc[1]:.0%} if he takes your "
                    f"double and {mwc[2]:.0%} if he passes (Kazaross XG2 match equity table; "
                    "the cube counted as dead)",
                    away=away,
                    opponent_away=opponent_away,
                    no_double=round(mwc[0], 4),
                    double_take=round(mwc[1], 4),
                    double_pass=round(mwc[2], 4),
                )
            )
        if not may_double:
            action = "no-double"
            if own == "him":
                reasons.append(_reason("no-access", "The cube is your opponent's"))
        elif post_crawford:
            trailer = cube.score[0] < cube.score[1]
            action = "double" if trailer else "no-double"
        elif nd > dp and dt >= dp:
            action = "too-good"
        elif min(dt, dp) > nd:
            action = "double"
        else:
            action = "no-double"
        response = "take" if dt < dp or post_crawford else "pass"
        if cube.match and not cube.crawford and not post_crawford:
            won, lost = (
                after_game(away - 2 * c, opponent_away),
                after_game(away, opponent_away - 2 * c),
            )
            needs = (won - mwc[2]) / (won - lost)
            words = "at this score, gammons aside, from the match equity table"
        else:
            needs = taker_needs(w, l_, x)
            words = (
                "25% with a dead cube and no gammons, less as the cube he gets is worth something"
            )
        reasons.append(
            _reason(
                "take-point",
                f"The taker needs {needs:.0%} of the wins to take ({words}); he has {1 - p:.0%}",
                take_point=round(needs, 4),
                taker_wins=round(1 - p, 4),
            )
        )
        if action == "too-good":
            reasons.append(
                _reason(
                    "too-good",
                    "Too good to double: playing on for a gammon is worth more than the point "
                    "he would give up",
                )
            )
        elif action == "double" and response == "pass":
            reasons.append(
                _reason(
                    "market",
                    "Double now: he must pass, and many throws would lose your market",
                )
            )
        loss = None
        if decision is not None:
            loss = _loss(decision, action, response, nd, dt, dp, may_double)
        return CubeDecision(action, response, nd, dt, dp, chances, reasons, loss, self.name)


def _loss(
    decision: str, action: str, response: str, nd: float, dt: float, dp: float, may: bool
) -> float:
    """Equity the side making ``decision`` gives up against the right one."""
    if decision in ("take", "pass"):
        # The taker's equity is minus the doubler's.
        chosen = -dt if decision == "take" else -dp
        return max(0.0, max(-dt, -dp) - chosen)
    if not may:
        return 0.0 if decision == "no-double" else float("nan")
    after_double = min(dt, dp)
    best = max(nd, after_double)
    chosen = after_double if decision == "double" else nd
    return max(0.0, best - chosen)


def chances_function(evaluator_name: str = "auto", plies: int = 0) -> tuple[Chances, str]:
    """The chances of the side on roll from the best evaluator here (or the one named)."""
    from kiosk.tutor.evaluators.gnubg_nn import load_module, tan_board

    module = load_module() if evaluator_name in ("auto", "gnubg-nn") else None
    if module is not None:
        return (lambda pos: module.probabilities(tan_board(pos), plies)), "gnubg-nn"
    from kiosk.tutor.evaluators.builtin import BuiltinEvaluator

    return BuiltinEvaluator().chances_on_roll, "builtin"
