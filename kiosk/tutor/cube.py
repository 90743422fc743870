"""The coach on the doubling cube: double, no double or too good; take or pass.

The side on roll, before throwing, may double if the cube is in the middle or its own.
The coach works out three cubeful equities for it, as GNU Backgammon's cube analysis does
(:mod:`kiosk.tutor.cubeful`): *no double*, *double, take* and *double, pass*, looking
``plies`` throws ahead with its net's best play of each throw and, at every position on
the way, the cube turned (or not) as suits each side; at the end of the look-ahead the
chances are turned into cubeful equities with Janowski's model of a live cube (money
play) or its generalisation to match play, where the match equity table gives the take
and cash points at every cube level and the taker's redouble is counted. Without a
look-ahead (``plies`` 0) the same model is applied to the chances of the position itself.

* double when both *double, take* and *double, pass* are worth at least *no double*; the
  other side passes when *double, take* would be worth more to the doubler than *double,
  pass*;
* *too good* when playing on is worth more than cashing (*no double* beats *double,
  pass*): the side on roll plays on for a gammon.

Equities are given in units of the cube as it stands (+1 a cashed game), in match play
too, where the match winning chances are put back into those units as GNU Backgammon
does, so that ``equity_loss`` reads as in money play; the reasons give the match winning
chances themselves.

>>> from kiosk.rules import Position
>>> decision = CubeCoach(chances=lambda p: (0.5, 0.13, 0.005, 0.13, 0.005)).decide(
...     Position.standard())
>>> decision.action, decision.response
('no-double', 'take')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.rules import Colour, Position
from kiosk.tutor import cubeful
from kiosk.tutor.evaluators.gnubg_nn import tan_board

Chances = Callable[[Position], Sequence[float]]

ACTIONS = ("double", "no-double", "too-good")
RESPONSES = ("take", "pass")
DECISIONS = ("double", "no-double", "take", "pass")

#: How far each evaluator looks ahead for a cube decision (a decision comes once a turn):
#: GNU Backgammon's own 2-ply with its nets; one throw with the built-in net, which is
#: slower (about 0.2 s here) and no better two throws deep.
PLIES = {"gnubg-nn": 2, "builtin": 1}


@dataclass(frozen=True)
class CubeState:
    """The cube: its value, who owns it (``None``: the middle), and the match, if any."""

    value: int = 1
    owner: Colour | None = None
    match: int = 0  # 0: money play
    score: tuple[int, int] = (0, 0)  # (side on roll, opponent)
    crawford: bool = False  # this is the Crawford game
    jacoby: bool = False  # money play: gammons count only once the cube is turned

    def __post_init__(self) -> None:
        if self.value < 1 or self.value & (self.value - 1):
            raise ValueError(f"the cube shows a power of two, not {self.value}")
        if self.match < 0 or any(s < 0 or (self.match and s >= self.match) for s in self.score):
            raise ValueError(f"a score of {self.score} does not fit a {self.match}-point match")

    def seen_by(self, side: Colour) -> cubeful.Cube:
        """The cube and score from ``side``'s seat (``side`` on roll)."""
        owner = "centre" if self.owner is None else "me" if self.owner == side else "him"
        away = self.match - self.score[0] if self.match else 0
        opp_away = self.match - self.score[1] if self.match else 0
        return cubeful.Cube(self.value, owner, away, opp_away, self.crawford, self.jacoby)


@dataclass(frozen=True)
class CubeDecision:
    """The coach's verdict on a cube decision (equities for the side on roll)."""

    action: str
    response: str
    no_double: float
    double_take: float
    double_pass: float
    chances: tuple[float, ...]
    reasons: list[dict[str, Any]] = field(default_factory=list)
    equity_loss: float | None = None  # of the decision asked about, if one was
    evaluator: str = ""
    plies: int = 0  # how many throws ahead the evaluator looked

    def loss_of(self, decision: str) -> float:
        """The equity ``decision`` (one of :data:`DECISIONS`) gives up against the right
        one, for the side making it (the doubler for ``double`` and ``no-double``, the
        taker for ``take`` and ``pass``).

        >>> d = CubeDecision("double", "take", 0.6, 0.8, 1.0, (0.7, 0, 0, 0, 0))
        >>> d.loss_of("double"), round(d.loss_of("pass"), 2), d.loss_of("take")
        (0.0, 0.2, 0.0)
        """
        if decision not in DECISIONS:
            raise ValueError(f"a decision is one of {', '.join(DECISIONS)}, not {decision!r}")
        return _loss(decision, self.no_double, self.double_take, self.double_pass, True)

    def right_for(self, decision: str) -> str:
        """The right decision in place of ``decision``: the action for a double, the
        response for a take or a pass.

        >>> d = CubeDecision("too-good", "pass", 1.2, 1.5, 1.0, (0.9, 0.5, 0, 0, 0))
        >>> d.right_for("double"), d.right_for("take")
        ('too-good', 'pass')
        """
        return self.action if decision == "double" else self.response

    def as_dict(self) -> dict[str, Any]:
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
            "plies": self.plies,
        }


def values(chances: Sequence[float]) -> tuple[float, float, float]:
    """``(p, W, L)``: the chance of winning and the average win and loss in points."""
    win, win_g, win_bg, lose_g, lose_bg = chances[:5]
    p = min(max(win, 1e-6), 1 - 1e-6)
    return p, 1.0 + (win_g + win_bg) / p, 1.0 + (lose_g + lose_bg) / (1.0 - p)


def cubeful_money(p: float, w: float, l_: float, own: str, x: float) -> float:
    """Janowski's money equity for a win chance ``p``, average win ``w`` and loss ``l_``,
    the cube ``own``-ed (``me``, ``middle`` or ``him``) and efficiency ``x``."""
    cube = cubeful.Cube(owner={"middle": "centre"}.get(own, own))
    dead = p * (w + l_) - l_
    return (1.0 - x) * dead + x * cubeful.money_live(p, w, l_, cube)


def taker_needs(w: float, l_: float, x: float) -> float:
    """The taker's share of the wins at which taking and passing are equal in money play
    (Janowski; with a dead cube and no gammons, 25%)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if 2.0 * cubeful_money(mid, w, l_, "him", x) < 1.0:
            lo = mid
        else:
            hi = mid
    return 1.0 - lo


#: The reason codes of a cube decision and what each one's facts mean (chances are the side
#: on roll's, before it throws; match chances are fractions of 1).
CUBE_REASON_CODES: dict[str, str] = {
    "chances": "the side on roll wins `win` of the games; a win is worth `average_win` points "
    "on average and a loss `average_loss` (gammons and backgammons counted)",
    "crawford": "the Crawford game: nobody may double",
    "post-crawford": "after the Crawford game: the trailer doubles at once, and the leader takes",
    "match-equity": "at `away`-away, `opponent_away`-away the side on roll wins the match "
    "`no_double` playing on, `double_take` if a double is taken and `double_pass` if it is "
    "passed (Kazaross XG2 table, the cube live: redoubles counted)",
    "no-access": "the cube is the opponent's: the side on roll may not double",
    "take-point": "taking is worth `take` to the taker and passing `pass` (points of the "
    "cube as it stands, or chances to win the match in match play)",
    "too-good": "too good to double: playing on for a gammon is worth more than a cashed point",
    "market": "double now: the taker must pass, and many throws would lose the market",
}


def _reason(code: str, text: str, **facts: object) -> dict[str, Any]:
    if code not in CUBE_REASON_CODES:
        raise ValueError(f"unknown cube reason code {code!r}")
    return {"code": code, **facts, "text": text}


class _ChancesOnly:
    """A look-ahead of no throws: the coach's chances for the position itself."""

    def __init__(self, chances: Chances, position: Position) -> None:
        self.chances, self.position, self.name = chances, position, ""

    def probabilities(self, board: cubeful.Board) -> Sequence[float]:
        return self.chances(self.position)

    def after_rolls(self, board: cubeful.Board) -> list[Any]:  # never asked at 0 plies
        raise AssertionError("no look-ahead without a net")


class CubeCoach:
    """Rates cube decisions: from ``chances`` alone, or looking ``plies`` throws ahead with
    ``backend`` (:class:`kiosk.tutor.cubeful.Backend`)."""

    def __init__(
        self,
        chances: Chances,
        name: str = "",
        backend: cubeful.Backend | None = None,
        plies: int = 0,
    ) -> None:
        self.chances = chances
        self.name = name
        self.backend = backend
        self.plies = plies if backend is not None else 0

    def _equities(self, position: Position, cube: cubeful.Cube) -> cubeful.Equities:
        board = tuple(tuple(side) for side in tan_board(position))
        if self.backend is not None and self.plies:
            return cubeful.decide(self.backend, board, cube, self.plies)  # type: ignore[arg-type]
        return cubeful.decide(_ChancesOnly(self.chances, position), board, cube, 0)  # type: ignore[arg-type]

    def decide(
        self, position: Position, cube: CubeState | None = None, decision: str | None = None
    ) -> CubeDecision:
        """The right action and response, and what ``decision`` (one of :data:`DECISIONS`,
        by the side it belongs to) gives up."""
        state = cube or CubeState()
        if decision is not None and decision not in DECISIONS:
            raise ValueError(f"a decision is one of {', '.join(DECISIONS)}, not {decision!r}")
        chances = tuple(float(c) for c in self.chances(position))
        p, w, l_ = values(chances)
        seen = state.seen_by(position.turn)
        eq = self._equities(position, seen)
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
        may_double = seen.may_double()
        if seen.match:
            nd, dt, dp = (
                self._units(m, seen) for m in (eq.no_double, eq.double_take, eq.double_pass)
            )
        else:
            nd, dt, dp = eq.no_double, eq.double_take, eq.double_pass
        if seen.match and state.crawford:
            reasons.append(_reason("crawford", "The Crawford game: nobody may double"))
        elif seen.post_crawford:
            reasons.append(
                _reason(
                    "post-crawford",
                    "After the Crawford game the trailer doubles at once (any game he loses, "
                    "doubled or not, loses him the match, so the cube costs him nothing), "
                    "and the leader takes",
                )
            )
        if seen.match and not state.crawford:
            reasons.append(
                _reason(
                    "match-equity",
                    f"At {seen.away}-away, {seen.opp_away}-away you win the match "
                    f"{eq.no_double:.0%} of the time playing on, {eq.double_take:.0%} if he "
                    f"takes your double and {eq.double_pass:.0%} if he passes (Kazaross XG2 "
                    "match equity table; redoubles counted)",
                    away=seen.away,
                    opponent_away=seen.opp_away,
                    no_double=round(eq.no_double, 4),
                    double_take=round(eq.double_take, 4),
                    double_pass=round(eq.double_pass, 4),
                )
            )
        if not may_double:
            action = "no-double"
            if seen.owner == "him":
                reasons.append(_reason("no-access", "The cube is your opponent's"))
        elif dt >= nd and dp >= nd:
            action = "double"
        elif nd > dp:
            action = "too-good"
        else:
            action = "no-double"
        response = "take" if dt < dp else "pass"
        reasons.append(self._take_reason(seen, eq, response))
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
            loss = _loss(decision, nd, dt, dp, may_double)
        return CubeDecision(
            action, response, nd, dt, dp, chances, reasons, loss, self.name, self.plies
        )

    @staticmethod
    def _units(mwc: float, cube: cubeful.Cube) -> float:
        """A match winning chance in units of the cube as it stands (+1: the cube cashed,
        -1: the cube lost), as GNU Backgammon reports match equities."""
        won, lost = cube.mwc(won=cube.value), cube.mwc(lost=cube.value)
        return 2.0 * (mwc - lost) / (won - lost) - 1.0

    @staticmethod
    def _take_reason(cube: cubeful.Cube, eq: cubeful.Equities, response: str) -> dict[str, Any]:
        """What taking and passing are worth to the taker, in words that agree with
        ``response``."""
        verdict = "he should take" if response == "take" else "he should pass"
        if cube.match:
            take, drop = 1.0 - eq.double_take, 1.0 - eq.double_pass
            words = (
                f"If he takes he wins the match {take:.1%} of the time, if he passes "
                f"{drop:.1%}: {verdict}"
            )
        else:
            take, drop = -eq.double_take, -eq.double_pass
            words = (
                f"Taking leaves him {take:+.2f} (in points of the cube as it stands), "
                f"passing {drop:+.2f}: {verdict}"
            )
        return _reason("take-point", words, take=round(take, 4), **{"pass": round(drop, 4)})


def _loss(decision: str, nd: float, dt: float, dp: float, may: bool) -> float:
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


def cube_event(
    analysis: CubeDecision,
    decision: str,
    player: str,
    thresholds: tuple[float, float, float],
    teaching: bool,
) -> dict[str, Any]:
    """The coach's verdict on ``player``'s cube ``decision`` (``double``, ``take`` or
    ``pass``), rated like a checker play: the equity it gives up against the right decision,
    at the same thresholds; in a teaching game a bad double or pass may be taken back.

    >>> analysis = CubeDecision("no-double", "take", 0.4, 0.3, 1.0, (0.6, 0, 0, 0, 0))
    >>> event = cube_event(analysis, "double", "white", (0.03, 0.06, 0.12), teaching=True)
    >>> event["rating"], event["take_back"]
    ('bad', True)
    >>> print(event["text"])  # doctest: +NORMALIZE_WHITESPACE
    Bad double: better not to double yet (it costs 0.10 points a game on average).
    Take it back and think again?
    """
    from kiosk.tutor.coach import TAKE_BACK_QUESTION, classify, verdict_event

    loss = analysis.loss_of(decision)
    rating = classify(loss, thresholds)
    take_back = teaching and rating in ("bad", "very bad") and decision in ("double", "pass")
    if rating == "fine":
        text = f"Good {decision}."
    else:
        better = {
            "double": "to play on for a gammon (too good to double)"
            if analysis.action == "too-good"
            else "not to double yet",
            "take": "to pass",
            "pass": "to take",
        }[decision]
        text = (
            f"{rating.capitalize()} {decision}: better {better} "
            f"(it costs {loss:.2f} points a game on average)."
        )
        if take_back:
            text += TAKE_BACK_QUESTION
    reasons = analysis.reasons if decision == "double" else taker_reasons(analysis)
    return verdict_event(
        player,
        text,
        reasons,
        analysis.evaluator,
        take_back,
        rating=rating,
        equity_loss=round(loss, 4),
        cube=decision,
        best=analysis.right_for(decision),
    )


def taker_reasons(analysis: CubeDecision) -> list[dict[str, Any]]:
    """The reasons of a cube decision as the player who was doubled reads them: his own
    chances, what taking and passing leave him, the match from his score; what only the
    doubler could do (the market, too good to double, whose cube it is) said of the doubler.

    >>> d = CubeDecision("double", "pass", 0.5, 1.3, 1.0, (0.69, 0, 0, 0, 0), [
    ...     _reason("chances", "...", win=0.69, average_win=1.2, average_loss=1.0),
    ...     _reason("take-point", "...", take=-1.3, **{"pass": -1.0}),
    ...     _reason("market", "...")])
    >>> for reason in taker_reasons(d):
    ...     print(reason["text"])
    You win 31% of games from here (your opponent 69%)
    Taking leaves you -1.30 (in points of the cube as it stands), passing -1.00: you should pass
    Your opponent doubled at the right time: many of his throws would have lost his market
    """
    should = f"you should {analysis.response}"
    out: list[dict[str, Any]] = []
    for reason in analysis.reasons:
        code, facts = reason["code"], {k: v for k, v in reason.items() if k not in ("code", "text")}
        if code == "chances":
            p = float(reason["win"])
            text = f"You win {1 - p:.0%} of games from here (your opponent {p:.0%})"
        elif code == "take-point" and "match-equity" in {r["code"] for r in analysis.reasons}:
            text = (
                f"If you take you win the match {reason['take']:.1%} of the time, if you pass "
                f"{reason['pass']:.1%}: {should}"
            )
        elif code == "take-point":
            text = (
                f"Taking leaves you {reason['take']:+.2f} (in points of the cube as it stands), "
                f"passing {reason['pass']:+.2f}: {should}"
            )
        elif code == "match-equity":
            text = (
                f"At {reason['opponent_away']}-away, {reason['away']}-away you win the match "
                f"{1 - float(reason['double_take']):.0%} of the time if you take and "
                f"{1 - float(reason['double_pass']):.0%} if you pass; "
                f"{1 - float(reason['no_double']):.0%} had your opponent played on "
                "(Kazaross XG2 match equity table; redoubles counted)"
            )
        elif code == "market":
            text = (
                "Your opponent doubled at the right time: many of his throws would have lost "
                "his market"
            )
        elif code == "too-good":
            text = (
                "Your opponent was too good to double: playing on, his gammons would have "
                "been worth more to him than the point your pass gives him"
            )
        elif code == "no-access":
            continue
        else:
            text = str(reason["text"])
        out.append(_reason(code, text, **facts))
    return out


def chances_function(evaluator_name: str = "auto", plies: int = 0) -> tuple[Chances, str]:
    """The chances of the side on roll from the best evaluator here (or the one named)."""
    from kiosk.tutor.evaluators.gnubg_nn import load_module

    module = load_module() if evaluator_name in ("auto", "gnubg-nn") else None
    if module is not None:
        return (lambda pos: module.probabilities(tan_board(pos), plies)), "gnubg-nn"
    from kiosk.tutor.evaluators.builtin import BuiltinEvaluator

    return BuiltinEvaluator().chances_on_roll, "builtin"


def cube_coach(evaluator_name: str = "auto") -> CubeCoach:
    """The cube coach with the best net here (or the one named), looking ahead as far as
    suits it (:data:`PLIES`)."""
    from kiosk.tutor.evaluators.gnubg_nn import load_module

    module = load_module() if evaluator_name in ("auto", "gnubg-nn") else None
    if module is not None:
        backend: cubeful.Backend = cubeful.GnubgNNBackend(module)
        chances: Chances = lambda pos: module.probabilities(tan_board(pos), 0)  # noqa: E731
        return CubeCoach(chances, "gnubg-nn", backend, PLIES["gnubg-nn"])
    from kiosk.tutor.evaluators.builtin import BuiltinEvaluator

    net = BuiltinEvaluator()
    backend = cubeful.PositionBackend(net.chances_for, net.best_plays, "builtin")
    # The chances before throwing come from the backend: the look-ahead that follows them
    # reuses their throws' best plays rather than rating every play again.
    return CubeCoach(backend.chances_on_roll, "builtin", backend, PLIES["builtin"])
