"""The coach: rate each play as GNU Backgammon's tutor does, and say why, citing the books.

A play is rated by the equity it gives up against the best play of the roll:
``fine``, ``doubtful``, ``bad`` or ``very bad`` at GNU Backgammon's default thresholds of
0.03, 0.06 and 0.12 (configurable). The reasons come from :mod:`kiosk.tutor.features`.
In a teaching game a bad or very bad play comes with an offer to take it back.

The evaluator is chosen once, by :func:`choose_evaluator`: GNU Backgammon's nets in-process
(``gnubg-nn``) if they import, else the ``gnubg`` program if installed, else the built-in
evaluation. :class:`CoachWorker` rates in a background thread so the table never waits.

>>> from kiosk.rules import Position
>>> from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
>>> coach = Coach(BuiltinEvaluator())
>>> rating = coach.rate(Position.standard(), (3, 1), "8/5 6/5")
>>> rating.rating, rating.best_text
('fine', '8/5 6/5')
>>> [r["code"] for r in rating.reasons[:2]]
['best', 'makes-point']
>>> rating.reasons[1]["text"]
'Makes your five point (Cady, Tactics I)'

Each reason is a code with the facts it rests on (see
:data:`kiosk.tutor.features.REASON_CODES`) and its words, ``text``.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kiosk.rules import Play, Position
from kiosk.rules.profiles import RuleProfile, get_profile
from kiosk.tutor.evaluators import Evaluator, EvaluatorError, Scored
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.features import WRONG_CODES, Reason, explain, explain_error, gives_up
from kiosk.tutor.hints import RollGrades

log = logging.getLogger(__name__)

#: The question a verdict ends with when its play (or cube decision) may be taken back.
TAKE_BACK_QUESTION = " Take it back and think again?"

#: GNU Backgammon's tutor defaults: equity lost for doubtful, bad and very bad.
THRESHOLDS: tuple[float, float, float] = (0.03, 0.06, 0.12)
RATINGS: tuple[str, ...] = ("fine", "doubtful", "bad", "very bad")
EVALUATOR_NAMES: tuple[str, ...] = ("auto", "gnubg-nn", "gnubg", "builtin")


@dataclass(frozen=True)
class CoachConfig:
    """The coach's settings: which evaluator, how deep, and the rating thresholds."""

    evaluator: str = "auto"  # auto, gnubg-nn, gnubg or builtin
    plies: int = 2  # GNU Backgammon's look-ahead (0 is the bare net)
    thresholds: tuple[float, float, float] = THRESHOLDS
    timeout: float = 30.0  # seconds to wait for the gnubg program's answer

    def __post_init__(self) -> None:
        if self.evaluator not in EVALUATOR_NAMES:
            raise ValueError(
                f"coach evaluator {self.evaluator!r} is not one of {', '.join(EVALUATOR_NAMES)}"
            )
        if not isinstance(self.plies, int) or not 0 <= self.plies <= 3:
            raise ValueError(f"coach plies must be a whole number 0 to 3, not {self.plies!r}")
        check_thresholds(self.thresholds)
        if not isinstance(self.timeout, int | float) or not self.timeout > 0:
            raise ValueError(f"coach timeout must be a positive number, not {self.timeout!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> CoachConfig:
        """Settings from a configuration section (unknown keys are refused by name)."""
        data = dict(data or {})
        known = {"evaluator", "plies", "thresholds", "timeout"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown coach setting(s): {', '.join(unknown)}")
        if "thresholds" in data:
            value = data["thresholds"]
            if not isinstance(value, list | tuple) or len(value) != 3:
                raise ValueError("coach thresholds are three numbers: doubtful, bad, very bad")
            data["thresholds"] = tuple(value)
        return cls(**data)


def check_thresholds(thresholds: tuple[float, float, float]) -> None:
    """Raise ``ValueError`` unless the three thresholds are positive and increasing."""
    if len(thresholds) != 3 or not all(
        isinstance(t, int | float) and math.isfinite(t) and t > 0 for t in thresholds
    ):
        raise ValueError(f"thresholds are three positive numbers, not {thresholds!r}")
    if not thresholds[0] < thresholds[1] < thresholds[2]:
        raise ValueError(f"thresholds must increase (doubtful < bad < very bad): {thresholds}")


def classify(loss: float, thresholds: tuple[float, float, float] = THRESHOLDS) -> str:
    """The rating for an equity loss.

    >>> [classify(x) for x in (0.0, 0.03, 0.059, 0.07, 0.2)]
    ['fine', 'doubtful', 'doubtful', 'bad', 'very bad']
    """
    level = sum(1 for t in thresholds if loss >= t)
    return RATINGS[level]


@dataclass(frozen=True)
class Rating:
    """The coach's verdict on one play."""

    rating: str  # fine, doubtful, bad, very bad
    equity_loss: float | None  # equity given up against the best play
    move: str  # the play rated, in GNU Backgammon notation
    best: Play
    best_text: str
    reasons: list[dict[str, Any]]  # {"code", facts..., "text", "cite"?}
    tactics: list[dict[str, object]]
    evaluator: str  # which evaluator judged
    equity: float | None = None  # the play's equity for the player
    best_equity: float | None = None
    take_back_offered: bool = False
    only_play: bool = False
    alternatives: list[tuple[str, float]] = field(default_factory=list)  # best few, best first

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (the ``kiosk coach`` contract)."""

        def rounded(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "move": self.move,
            "rating": self.rating,
            "equity_loss": rounded(self.equity_loss),
            "best": self.best_text,
            "reasons": [dict(r) for r in self.reasons],
            "tactics": list(self.tactics),
            "evaluator": self.evaluator,
            "equity": rounded(self.equity),
            "best_equity": rounded(self.best_equity),
            "take_back": self.take_back_offered,
            "only_play": self.only_play,
            "alternatives": [{"move": m, "equity": round(e, 4)} for m, e in self.alternatives],
        }


class Coach:
    """Rates plays with one evaluator (falling back to the built-in one if it fails)."""

    def __init__(
        self,
        evaluator: Evaluator,
        thresholds: tuple[float, float, float] = THRESHOLDS,
        profile: str | RuleProfile | None = None,
        fallback: Evaluator | None = None,
    ) -> None:
        check_thresholds(thresholds)
        self.evaluator = evaluator
        low, mid, high = thresholds
        self.thresholds = (low, mid, high)
        self.profile = get_profile(profile)
        if fallback is None and not isinstance(evaluator, BuiltinEvaluator):
            fallback = BuiltinEvaluator()
        self.fallback = fallback
        # rolls worked out before their play (see prepare): the plays ranked, and the chances
        # after the best play of each
        self._prepared: dict[tuple[Position, tuple[int, int], str], list[Scored]] = {}
        self._best_chances: dict[Position, tuple[float, ...]] = {}
        self._deep: dict[Position, float] = {}  # the other plays of the last roll prepared
        self._deep_roll: tuple[Position, tuple[int, int], str] | None = None  # that roll

    def prepare(
        self, position: Position, dice: tuple[int, int], more: Callable[[], bool] = lambda: False
    ) -> None:
        """Rate the plays of ``dice`` in ``position`` before one is made (the dice have
        landed, the player thinks): :meth:`rate` then only works out what the play made
        adds, with the same verdict as without. Then, with an evaluator that works in a
        process of its own (``evaluates_elsewhere``: the ``gnubg`` program; one in this
        process would hold up the table's loop), as long as ``more()`` says nothing else
        waits, the other plays are looked at as closely one by one, so that most plays made
        add nothing at all. Raises :class:`EvaluatorError` if the evaluator fails
        (what was worked out is kept)."""
        d1, d2 = dice
        plays = position.legal_plays(d1, d2, self.profile)
        if len(plays) <= 1:
            return  # nothing to weigh
        key = (position, (d1, d2), self.profile.name)
        ranked = self._ranking(position, dice, self.profile)
        best = ranked[0][0].result
        if best not in self._best_chances:
            chances = mover_chances(self.evaluator, best)
            if len(self._best_chances) >= _PREPARED_KEPT:
                self._best_chances.pop(next(iter(self._best_chances)))
            if chances is not None:
                self._best_chances[best] = chances
        if self._deep_roll != key:
            self._deep, self._deep_roll = {}, key  # the previous roll's plays are of no use
        if not getattr(self.evaluator, "evaluates_elsewhere", False):
            return  # an evaluator in this process would hold the loop up while it works
        looked = {p for p, _ in ranked}
        for play in [p for p in plays if p not in looked][:_LOOK_FURTHER]:
            if play.result in self._deep:
                continue  # looked at already (asked again after an interruption)
            if not more():
                return
            self._deep[play.result] = self.evaluator.equity(play.result)

    def _ranking(
        self, position: Position, dice: tuple[int, int], rules: RuleProfile
    ) -> list[Scored]:
        """The evaluator's plays of ``dice`` in ``position`` ranked, best first: worked out
        once a roll and kept (the coach's preparation and the graded hints share it)."""
        key = (position, (dice[0], dice[1]), rules.name)
        ranked = self._prepared.get(key)
        if ranked is None:
            ranked = self.evaluator.evaluate_plays(position, *dice, profile=rules)
            if len(self._prepared) >= _PREPARED_KEPT:  # the oldest go
                self._prepared.pop(next(iter(self._prepared)))
            self._prepared[key] = ranked
        return ranked

    def _rank(self, position: Position, d1: int, d2: int, play: Play | None) -> Any:
        prepared = self._prepared.get((position, (d1, d2), self.profile.name))
        if prepared is not None:
            ranked = prepared
            if play is None or any(p == play for p, _ in ranked):
                return ranked, self.evaluator.name
            try:  # the play made was not among those looked at closely: it alone
                equity = self._deep.get(play.result)
                if equity is None:
                    equity = self.evaluator.equity(play.result)
            except EvaluatorError as err:
                log.warning("%s failed (%s); ranking the roll again", self.evaluator.name, err)
            else:  # as evaluate_plays(keep=play) ranks it: after any play of equal equity
                return sorted([*ranked, (play, equity)], key=lambda s: -s[1]), self.evaluator.name
        try:
            ranked = self.evaluator.evaluate_plays(
                position, d1, d2, keep=play, profile=self.profile
            )
            return ranked, self.evaluator.name
        except EvaluatorError as err:
            if self.fallback is None:
                raise
            log.warning(
                "%s failed (%s); rating with %s", self.evaluator.name, err, self.fallback.name
            )
            ranked = self.fallback.evaluate_plays(position, d1, d2, keep=play, profile=self.profile)
            return ranked, self.fallback.name

    def rate(
        self,
        position: Position,
        dice: tuple[int, int],
        play: Play | str,
        teaching: bool = False,
    ) -> Rating:
        """Rate ``play`` (a :class:`Play` or its notation) of ``dice`` in ``position``.

        Raises ``ValueError`` (``IllegalPlayError``, ``InvalidNotationError``) if the play
        is not a legal play of the roll.
        """
        d1, d2 = dice
        legal = position.legal_plays(d1, d2, self.profile)
        if isinstance(play, str):
            play = position.parse_play(d1, d2, play, self.profile)
        elif play not in legal:
            raise ValueError(f"{play} is not a legal play of {d1}-{d2} here")
        if len(legal) == 1:
            words = "The only legal play of the roll" if play.steps else "No legal play: lost"
            reason = {"code": "only-play", "text": words}
            return Rating(
                rating="fine",
                equity_loss=0.0,
                move=str(play),
                best=play,
                best_text=str(play),
                reasons=[reason],
                tactics=[],
                evaluator="rules",
                only_play=True,
            )
        ranked, judge = self._rank(position, d1, d2, play)
        return self._rating(position, play, ranked, judge, teaching)

    def ranked(self, position: Position, dice: tuple[int, int], count: int = 5) -> list[Rating]:
        """The ``count`` best plays of ``dice`` in ``position``, best first, each rated
        against the best with its reasons (one evaluation of the roll for them all).

        >>> from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
        >>> top = Coach(BuiltinEvaluator()).ranked(Position.standard(), (3, 1), 3)
        >>> [r.move for r in top][:1], top[0].rating, top[0].reasons[0]["code"]
        (['8/5 6/5'], 'fine', 'best')
        """
        d1, d2 = dice
        legal = position.legal_plays(d1, d2, self.profile)
        if len(legal) <= 1:
            return [self.rate(position, dice, play) for play in legal]
        ranked, judge = self._rank(position, d1, d2, None)
        return [self._rating(position, play, ranked, judge) for play, _ in ranked[:count]]

    def grade_roll(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None = None
    ) -> RollGrades:
        """Every play of ``dice`` in ``position`` weighed, for grading a lifted man's
        destinations (:class:`kiosk.tutor.hints.RollGrades`): the same ranking of the roll
        as :meth:`prepare`'s, worked out by whichever comes first."""
        rules = self.profile if profile is None else profile
        try:
            if len(position.legal_plays(*dice, profile=rules)) <= 1:
                return RollGrades.rate(position, dice, self.evaluator, rules)  # nothing to weigh
            return RollGrades.of(position, dice, self._ranking(position, dice, rules), rules)
        except EvaluatorError as err:
            if self.fallback is None:
                raise
            log.warning(
                "%s failed (%s); grading with %s", self.evaluator.name, err, self.fallback.name
            )
            return RollGrades.rate(position, dice, self.fallback, rules)

    def _rating(
        self,
        position: Position,
        play: Play,
        ranked: list[tuple[Play, float]],
        judge: str,
        teaching: bool = False,
    ) -> Rating:
        """The verdict on ``play`` among the evaluator's ``ranked`` plays of the roll."""
        best, best_equity = ranked[0]
        equity = next(e for p, e in ranked if p == play)
        loss = max(0.0, best_equity - equity)
        rating = classify(loss, self.thresholds)
        reasons = explain(position, play, best)
        error = play != best and loss >= self.thresholds[0]
        if error and not _names_wrong(reasons):
            reasons = explain_error(position, play, best) + reasons
        if rating in ("bad", "very bad") or (error and not _names_wrong(reasons)):
            # An error no feature explains is named by the chances it gives up, however small.
            floor = 0.005 if _names_wrong(reasons) else 0.001
            lost = self._gives_up(judge, play, best, floor)
            if lost is not None:
                reasons.insert(len(reasons) - 1, lost)  # before the race, which comes last
        if error:  # what the play does wrong is read first
            reasons.sort(key=lambda r: r.code not in WRONG_CODES)
        texts: list[dict[str, Any]] = [r.as_dict() for r in reasons]
        if play == best:
            texts.insert(0, {"code": "best", "text": "The best play of the roll"})
        tactics: list[dict[str, object]] = []
        for r in reasons:
            if r.tactic is not None and r.tactic.as_dict() not in tactics:
                tactics.append(r.tactic.as_dict())
        return Rating(
            rating=rating,
            equity_loss=loss,
            move=str(play),
            best=best,
            best_text=str(best),
            reasons=texts,
            tactics=tactics,
            evaluator=judge,
            equity=equity,
            best_equity=best_equity,
            take_back_offered=teaching and rating in ("bad", "very bad"),
            alternatives=[(str(p), e) for p, e in ranked[:3]],
        )

    def _gives_up(self, judge: str, play: Play, best: Play, floor: float = 0.005) -> Reason | None:
        """The reason naming what ``play`` gives up against ``best`` by the chances of the
        evaluator that judged (None if it gives no chances, or less than ``floor`` of each)."""
        evaluator = self.evaluator if judge == self.evaluator.name else self.fallback
        known = self._best_chances.get(best.result) if evaluator is self.evaluator else None
        try:
            mine = mover_chances(evaluator, play.result)
            theirs = known if known is not None else mover_chances(evaluator, best.result)
        except EvaluatorError as err:
            log.warning("no chances from %s: %s", judge, err)
            return None
        if mine is None or theirs is None:
            return None
        return gives_up(mine, theirs, str(best), floor)

    def close(self) -> None:
        """Release the evaluators."""
        self.evaluator.close()
        if self.fallback is not None:
            self.fallback.close()


def _names_wrong(reasons: Sequence[Reason]) -> bool:
    """Whether one of ``reasons`` names something the play does wrong."""
    return any(r.code in WRONG_CODES for r in reasons)


_PREPARED_KEPT = 4  # rolls whose working out is kept (the one on the table, and a few)
_LOOK_FURTHER = 48  # other plays of a roll looked at closely ahead, at most (a Pi's minute)


def mover_chances(evaluator: Evaluator | None, after: Position) -> tuple[float, ...] | None:
    """The five chances (win, win a gammon, win a backgammon, lose a gammon, lose a
    backgammon) of the side that just moved to ``after``, from ``evaluator`` at its depth;
    None for an evaluator that gives none."""
    from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator
    from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator

    if isinstance(evaluator, BuiltinEvaluator):
        return tuple(evaluator.chances(after))
    if not isinstance(evaluator, GnubgNNEvaluator | GnubgExternalEvaluator):
        return None
    on_roll = evaluator.chances(after)  # GNU Backgammon's: the side on roll's
    win, win_g, win_bg, lose_g, lose_bg = on_roll
    return (1.0 - win, lose_g, lose_bg, win_g, win_bg)


def coach_event(rating: Rating, player: str, teaching: bool) -> dict[str, Any]:
    """The application event that shows ``player`` the coach's verdict.

    >>> from kiosk.rules import Position
    >>> from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
    >>> r = Coach(BuiltinEvaluator()).rate(Position.standard(), (3, 1), "8/5 6/5")
    >>> coach_event(r, "white", teaching=True)["text"]
    'Good play: 8/5 6/5.'
    """
    take_back = teaching and rating.rating in ("bad", "very bad")
    if rating.rating == "fine":
        text = f"Good play: {rating.move or 'no move'}."
    else:
        loss = rating.equity_loss  # equity: points won or lost a game, on average
        cost = f" (it costs {loss:.2f} points a game on average)" if loss is not None else ""
        label = rating.rating.capitalize()
        text = f"{label} play. Better was {rating.best_text}{cost}."
        if take_back:
            text += TAKE_BACK_QUESTION
    return verdict_event(
        player,
        text,
        rating.reasons,
        rating.evaluator,
        take_back,
        tactics=list(rating.tactics),
        rating=rating.rating,
        equity_loss=rating.equity_loss,
        move=rating.move,
        best=rating.best_text,
    )


def verdict_event(
    player: str,
    text: str,
    reasons: Sequence[Mapping[str, Any]],
    evaluator: str,
    take_back: bool,
    **fields: Any,
) -> dict[str, Any]:
    """A coach event: the verdict ``text`` for ``player`` with its reasons (their words are
    the detail shown on Select), what rated it, whether a take-back is offered, and the
    ``fields`` of the kind of decision rated (a play's, or the cube's)."""
    return {
        "event": "coach",
        "to": player,
        "text": text,
        "detail": "\n".join(r["text"] for r in reasons),
        "reasons": [dict(r) for r in reasons],
        **fields,
        "evaluator": evaluator,
        "take_back": take_back,
    }


def choose_evaluator(config: CoachConfig | Mapping[str, Any] | None = None) -> Evaluator:
    """The strongest evaluator this machine offers, or the one the configuration names.

    ``auto`` tries gnubg-nn, then the gnubg program, then the built-in evaluator. A named
    evaluator that is not available raises :class:`EvaluatorError`.
    """
    from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program
    from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module

    if not isinstance(config, CoachConfig):
        config = CoachConfig.from_mapping(config)
    name = config.evaluator
    if name in ("auto", "gnubg-nn") and (name == "gnubg-nn" or load_module() is not None):
        return GnubgNNEvaluator(plies=config.plies)
    if name in ("auto", "gnubg") and (name == "gnubg" or find_program() is not None):
        return GnubgExternalEvaluator(plies=config.plies, timeout=config.timeout)
    return BuiltinEvaluator()


class Rater(Protocol):
    """What the coach's worker asks of its coach: a play rated, the cube judged."""

    profile: RuleProfile

    def rate(
        self, position: Position, dice: tuple[int, int], play: Play | str, teaching: bool = False
    ) -> Rating:
        """The verdict on ``play`` of ``dice`` in ``position``."""
        ...

    def prepare(
        self, position: Position, dice: tuple[int, int], more: Callable[[], bool] = ...
    ) -> None:
        """The plays of ``dice`` in ``position`` rated before one is made, the others while
        ``more()``."""
        ...

    def decide_cube(self, position: Position, cube: Any) -> Any:
        """The cube decision of the side on roll in ``position``."""
        ...

    def grade_roll(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None = None
    ) -> RollGrades:
        """Every play of ``dice`` in ``position`` weighed, for graded destinations."""
        ...


class CoachWorker:
    """Rates plays in a background thread and publishes a ``coach`` event for each.

    ``publish`` is usually :meth:`kiosk.app.events.EventBus.publish`. If rating fails, a
    ``coach`` event with ``rating`` ``None`` and the error is published instead, so the
    table carries on.
    """

    def __init__(
        self, coach: Rater, publish: Callable[[dict[str, Any]], None], teaching: bool = False
    ) -> None:
        self.coach = coach
        self.publish = publish
        self.teaching = teaching
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="coach", daemon=True)
        self._thread.start()

    def submit(
        self,
        position: Position,
        dice: tuple[int, int],
        play: Play | str,
        player: str,
        teaching: bool | None = None,
        profile: RuleProfile | None = None,
    ) -> None:
        """Queue one play to rate; returns at once. ``teaching`` and ``profile`` are the
        game's settings for this play (by default the worker's ``teaching`` and the
        coach's profile): each job carries its own, so a new game never changes the
        settings of a play being rated."""
        with self._idle:
            self._pending += 1
        self._jobs.put((position, dice, play, player, teaching, profile))

    def submit_cube(self, position: Position, cube: object, player: str) -> None:
        """Queue the cube decision of the side on roll in ``position`` (``cube``: a
        :class:`kiosk.tutor.cube.CubeState`), for ``player`` (who doubles or answers);
        returns at once. The worker publishes ``{"event": "cube-analysis", "to": player,
        "analysis": CubeDecision}`` (or ``"analysis": None`` if it cannot be worked out):
        what a double, a take or a pass there gives up is read from it."""
        with self._idle:
            self._pending += 1
        self._jobs.put(("cube", position, cube, player))

    def submit_prepare(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None = None
    ) -> None:
        """Queue the rating of the plays of ``dice`` in ``position`` before one is made (see
        :meth:`Coach.prepare`); returns at once, publishes nothing."""
        with self._idle:
            self._pending += 1
        self._jobs.put(("prepare", position, dice, profile))

    def submit_grades(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None = None
    ) -> None:
        """Queue every play of ``dice`` in ``position`` to be weighed; returns at once. The
        worker publishes ``{"event": "roll-grades", "grades": RollGrades}`` (``None`` if
        they cannot be worked out)."""
        with self._idle:
            self._pending += 1
        self._jobs.put(("grades", position, dice, profile))

    def _grades(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None
    ) -> dict[str, Any]:
        try:
            grades: RollGrades | None = self.coach.grade_roll(position, dice, profile)
        except Exception:  # the table must carry on whatever the evaluator does
            log.exception("the coach could not weigh the plays of %s", dice)
            grades = None
        return {"event": "roll-grades", "grades": grades}

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every queued play is rated; ``False`` if ``timeout`` ran out first."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _prepare(
        self, position: Position, dice: tuple[int, int], profile: RuleProfile | None
    ) -> None:
        try:
            if profile is not None:
                self.coach.profile = profile
            self.coach.prepare(position, dice, more=self._jobs.empty)  # until a play comes
        except Exception:  # the play is rated from scratch when it comes
            log.exception("the coach could not rate the plays of %s ahead", position.position_id())

    def _cube(self, position: Position, cube: object, player: str) -> dict[str, Any]:
        try:
            analysis = self.coach.decide_cube(position, cube)
        except Exception:  # the table must carry on whatever the evaluator does
            log.exception("the coach could not judge the cube in %s", position.position_id())
            analysis = None
        return {"event": "cube-analysis", "to": player, "analysis": analysis}

    def _rate(
        self,
        position: Position,
        dice: tuple[int, int],
        play: Play | str,
        player: str,
        teaching: bool | None,
        profile: RuleProfile | None,
    ) -> dict[str, Any]:
        teaching = self.teaching if teaching is None else teaching
        try:
            if profile is not None:
                self.coach.profile = profile  # only this thread rates: set for this job
            rating = self.coach.rate(position, dice, play, teaching=teaching)
            return coach_event(rating, player, teaching)
        except Exception as err:  # the table must carry on whatever the evaluator does
            log.exception("the coach could not rate %s", play)
            return {
                "event": "coach",
                "to": player,
                "text": "The coach could not rate this play.",
                "detail": str(err),
                "rating": None,
                "take_back": False,
            }

    def _run(self) -> None:
        resume: tuple[Any, ...] | None = None  # the roll prepared last, until its play comes
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job[0] == "prepare":
                resume = job[1:]
                self._prepare(*resume)
            elif job[0] == "cube":
                self.publish(self._cube(*job[1:]))
            elif job[0] == "grades":
                self.publish(self._grades(*job[1:]))
                if resume is not None and self._jobs.empty():
                    self._prepare(*resume)  # the closer look the grades broke off goes on
            else:
                resume = None  # the play is made: looking further is of no more use
                self.publish(self._rate(*job))
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread once queued plays are rated."""
        self._jobs.put(None)
        self._thread.join(timeout)
