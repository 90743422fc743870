"""The table as an opponent: it chooses its plays and its cube actions, and reviews the game.

A visitor alone at the table plays against it. The table chooses its play for a position and
a roll, shows it ("I play 13/7 8/7"), and the visitor moves its men for it; the referee then
checks each man against the play. This module is the thinking part, with no I/O of its own:

* :class:`Opponent` chooses a play at one of three :data:`LEVELS` (``beginner``, the
  friendly default; ``intermediate``; ``expert``), and the cube actions;
* :class:`OpponentWorker` thinks off the caller's thread, with a time limit after which the
  built-in evaluator answers instead;
* :func:`review` finds a visitor's three worst plays of a game, with the better play.

How each level chooses its play (equities from the evaluator, as the coach uses them):

* ``expert``: GNU Backgammon's best play at 0-ply (gnubg-nn in-process, else the ``gnubg``
  program), or the built-in evaluator's where neither is installed; always the same play
  for the same position and roll. (Against GNU Backgammon at 2-ply, its 1-ply choice gave
  up no less equity on the benchmark's positions, and 2-ply takes about 0.7 s a roll.)
* ``intermediate`` and ``beginner``: every legal play is ranked at 0-ply; the plays losing
  at most the level's ``cap`` of equity against the best are the candidates (the best is
  always one), and one is drawn with weight ``exp(-loss / temperature)``. The intermediate
  level (cap 0.12, temperature 0.04) slips now and then; the beginner (cap 0.25,
  temperature 0.10) often, but never by more than the cap: no absurd play.

The draw is seeded by the opponent's ``seed``, the Position ID, the side on roll and the
dice, so the same turn always gets the same play: after a restart in the middle of the
table's turn, asking again restores the pending play (while the same evaluator answers).
The pending play can also be stored: :meth:`OpponentPlay.event` is the ``opponent-play``
event, and :meth:`OpponentPlay.from_event` rebuilds the play from it and the position
before the play.

The cube (money play): where the evaluator has a net to ask for the chances (gnubg-nn,
the built-in net), the opponent decides as the cube coach does (:class:`CubeCoach`,
Janowski's model of the live cube): it doubles when both *double, take* and *double,
pass* beat *no double*, plays on when it is too good, and takes when the take is worth
more than the point it would give up. With GNU Backgammon over its socket, which gives
equities only, it goes by the cubeless equity of the side on roll, ``E``, gammons
included, with a dead cube: it doubles when ``E`` is at least :data:`DOUBLE_POINT` (0.4,
about 70% of the games without gammons), unless it is too good (``E`` above
:data:`TOO_GOOD`, 1.0: playing on for a gammon is worth more than the point the visitor
would give up); it takes when its own ``E`` is at least :data:`TAKE_POINT` (-0.5: a take
is then worth ``2E``, no worse than the point lost by a pass; 25% of the games without
gammons). Either way, no cube under a rule profile without doubling, and no double from
the side that does not hold the cube.

The contract for the application (the later wave):

1. On the table's turn, once the dice have settled, ``worker.submit(position, dice)``
   returns a future at once; its result is an :class:`OpponentPlay` (the main loop polls
   ``future.done()`` or passes a ``callback``, called on the worker thread).
2. ``play.event()`` is ``{"event": "opponent-play", "player", "dice", "move", "position",
   "text"}``: ``position`` the Position ID after the play (the visitor on roll, as in the
   referee's ``play`` event), ``text`` the words to show and speak. The referee then expects
   ``play.play.steps`` (each a man from ``src`` to ``dst``, the mover's numbering) in any
   order, and ``play.play.result`` when the last man is in place.
3. Store that event. After a restart with the table's turn pending, rebuild the play with
   :meth:`OpponentPlay.from_event` (the game's position and the stored event); or ask the
   opponent again with the same seed.
4. Before the table's throw, ``worker.submit_cube(position, game.cube)`` gives a
   :class:`CubeVerdict` (:meth:`Opponent.cube_action`: ``double``, ``no-double`` or
   ``too-good``); when the visitor doubles, ``submit_cube(position, game.cube,
   doubled=True)`` gives ``take`` or ``pass`` (:meth:`Opponent.answer_double`). Its
   ``text`` is the words to show and speak.
5. At the end of the game, :func:`review` with the visitor's ``Turn`` records.

>>> from kiosk.rules import Position, BLACK
>>> from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
>>> table = Opponent("expert", evaluator=BuiltinEvaluator())
>>> choice = table.choose(Position.standard(BLACK), (3, 1))
>>> choice.event()
{'event': 'opponent-play', 'player': 'black', 'dice': [3, 1], 'move': '8/5 6/5', \
'position': 'sGfwATDgc/ABMA', 'text': 'I play 8/5 6/5.'}
>>> worker = OpponentWorker(table)
>>> worker.submit(Position.standard(BLACK), (3, 1)).result(timeout=10).move
'8/5 6/5'
>>> worker.close()
"""

from __future__ import annotations

import contextlib
import logging
import math
import random
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool as BrokenExecutor
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from typing import Any, TypeVar

from kiosk.rules import Cube, Play, Position
from kiosk.rules.profiles import RuleProfile, get_profile
from kiosk.tutor.coach import Coach
from kiosk.tutor.cube import CubeCoach, CubeDecision, CubeState, cube_coach, values
from kiosk.tutor.evaluators import Evaluator, EvaluatorError, Scored
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.features import WRONG_CODES

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Level:
    """How an opponent chooses: the evaluator's depth, the largest equity it may give up in
    one play (``cap``) and how freely it strays from the best play (``temperature``; 0:
    always the best)."""

    name: str
    plies: int
    cap: float
    temperature: float

    def __post_init__(self) -> None:
        if self.cap < 0 or self.temperature < 0 or (self.temperature > 0) != (self.cap > 0):
            raise ValueError(f"level {self.name}: cap and temperature are both 0 or positive")


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", plies=0, cap=0.25, temperature=0.10),
        Level("intermediate", plies=0, cap=0.12, temperature=0.04),
        Level("expert", plies=0, cap=0.0, temperature=0.0),
    )
}

#: The friendly level a visitor gets unless they choose.
DEFAULT_LEVEL = "beginner"

#: Cubeless equity of the side on roll from which the opponent doubles.
DOUBLE_POINT = 0.4
#: Cubeless equity above which the opponent plays on for a gammon instead of cashing.
TOO_GOOD = 1.0
#: The lowest cubeless equity of its own at which the opponent takes a double.
TAKE_POINT = -0.5


def get_level(level: str | Level | None) -> Level:
    """The level of that name (``None``: the default); a clear error for an unknown one."""
    if level is None:
        return LEVELS[DEFAULT_LEVEL]
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level.strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown opponent level {level!r}; choose one of: {', '.join(LEVELS)}"
        ) from None


def make_evaluator(level: str | Level | None = None, evaluator: str = "auto") -> Evaluator:
    """The evaluator a level thinks with: the strongest here (or the one named, as in the
    coach's settings) at the level's depth."""
    from kiosk.tutor.coach import CoachConfig, choose_evaluator

    return choose_evaluator(CoachConfig(evaluator=evaluator, plies=get_level(level).plies))


def cube_coach_for(evaluator: Evaluator) -> CubeCoach | None:
    """The cube coach judging by the chances of ``evaluator``'s net, where it has one to
    ask (gnubg-nn, the built-in net); None for GNU Backgammon over its socket."""
    if evaluator.name not in ("gnubg-nn", "builtin"):
        return None
    return cube_coach(evaluator.name)


def _dice(dice: Iterable[int]) -> tuple[int, int]:
    d1, d2 = (int(d) for d in dice)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"a die shows 1 to 6, not {d1}-{d2}")
    return d1, d2


@dataclass(frozen=True)
class OpponentPlay:
    """The table's play of a roll, and how it was chosen."""

    before: Position  # the table on roll
    dice: tuple[int, int]
    play: Play
    level: str
    evaluator: str  # which evaluator ranked the plays ("rules": there was one play only)
    loss: float = 0.0  # equity given up against the evaluator's best play
    best: Play | None = None

    @property
    def player(self) -> str:
        """The table's colour, ``white`` or ``black``."""
        return str(self.before.turn)

    @property
    def move(self) -> str:
        """The play in GNU Backgammon notation (empty if no man can move)."""
        return str(self.play)

    @property
    def text(self) -> str:
        """What the table says: ``I play 13/7 8/7.``"""
        if not self.play.steps:
            return f"I cannot move with {self.dice[0]}-{self.dice[1]}."
        return f"I play {self.move}."

    def event(self) -> dict[str, Any]:
        """The ``opponent-play`` event (the scenario contract, with the words to show)."""
        return {
            "event": "opponent-play",
            "player": self.player,
            "dice": list(self.dice),
            "move": self.move,
            "position": self.play.result.position_id(),
            "text": self.text,
        }

    @classmethod
    def from_event(
        cls, before: Position, event: Mapping[str, Any], profile: str | RuleProfile | None = None
    ) -> OpponentPlay:
        """The pending play again, from the position before it and its stored event.

        Raises ``ValueError`` if the event does not fit the position (another player, an
        illegal move, or a Position ID after the play that the move does not reach).
        """
        if event.get("event") != "opponent-play":
            raise ValueError(f"not an opponent-play event: {event.get('event')!r}")
        if event.get("player") != str(before.turn):
            raise ValueError(f"the event is {event.get('player')}'s play, {before.turn} is on roll")
        dice = _dice(event["dice"])
        play = before.parse_play(*dice, str(event["move"]), profile)
        if play.result.position_id() != event.get("position"):
            raise ValueError(
                f"{event['move']} leads to {play.result.position_id()}, not {event.get('position')}"
            )
        return cls(before, dice, play, level="restored", evaluator="restored")


@dataclass(frozen=True)
class CubeVerdict:
    """The opponent's cube action, and the cubeless equity it judged by (for the table)."""

    action: str  # double, no-double, too-good, take, pass
    equity: float | None  # cubeless, for the opponent; None when no cube may be used
    evaluator: str
    reason: str = ""

    @property
    def text(self) -> str:
        """What the table says."""
        return {
            "double": "I double.",
            "no-double": "",
            "too-good": "",
            "take": "I take.",
            "pass": "I pass.",
        }[self.action]


class Opponent:
    """The table's player at one level.

    ``evaluator`` defaults to the strongest on this machine at the level's depth
    (:func:`make_evaluator`); if it fails (:class:`EvaluatorError`) the ``fallback`` (the
    built-in evaluator) answers. ``seed`` makes the lower levels' choices reproducible.
    """

    def __init__(
        self,
        level: str | Level | None = None,
        evaluator: Evaluator | None = None,
        fallback: Evaluator | None = None,
        seed: int = 0,
        profile: str | RuleProfile | None = None,
    ) -> None:
        self.level = get_level(level)
        self.evaluator = evaluator if evaluator is not None else make_evaluator(self.level)
        if fallback is None and not isinstance(self.evaluator, BuiltinEvaluator):
            fallback = BuiltinEvaluator()
        self.fallback = fallback
        self.seed = seed
        self.profile = get_profile(profile)
        self.cube_coach = cube_coach_for(self.evaluator)
        # the plays of the position before its throw, ranked ahead by (d1, d2) (see prepare)
        self._ahead: dict[tuple[int, int], tuple[list[Scored], str]] = {}
        self._ahead_of: Position | None = None

    # -- plays -------------------------------------------------------------------------

    def prepare(self, position: Position, dice: Iterable[int]) -> None:
        """Rank the plays of ``dice`` in ``position`` before they are thrown (the table's
        turn has begun), so that :meth:`choose` finds them ranked: the same choice, at once.
        Only the last position prepared is kept."""
        d1, d2 = _dice(dice)
        if position != self._ahead_of:
            self._ahead, self._ahead_of = {}, position
        if (d1, d2) not in self._ahead and len(position.legal_plays(d1, d2, self.profile)) > 1:
            self._ahead[(d1, d2)] = self._ranked(position, d1, d2, ahead=False)

    def _ranked(
        self, position: Position, d1: int, d2: int, ahead: bool = True
    ) -> tuple[list[Scored], str]:
        if ahead and position == self._ahead_of and (d1, d2) in self._ahead:
            return self._ahead[(d1, d2)]
        try:
            ranked = self.evaluator.evaluate_plays(position, d1, d2, profile=self.profile)
            return ranked, self.evaluator.name
        except EvaluatorError as err:
            if self.fallback is None:
                raise
            log.warning(
                "%s failed (%s); playing with %s", self.evaluator.name, err, self.fallback.name
            )
            ranked = self.fallback.evaluate_plays(position, d1, d2, profile=self.profile)
            return ranked, self.fallback.name

    def rng(self, position: Position, dice: tuple[int, int]) -> random.Random:
        """The random source for one turn: the same seed, position and roll, the same draw."""
        low, high = sorted(dice)
        return random.Random(f"{self.seed}/{position.position_id()}/{position.turn}/{high}{low}")

    def choose(self, position: Position, dice: Iterable[int]) -> OpponentPlay:
        """The table's play of ``dice`` for the side on roll in ``position``."""
        d1, d2 = _dice(dice)
        legal = position.legal_plays(d1, d2, self.profile)
        if len(legal) == 1:
            return OpponentPlay(position, (d1, d2), legal[0], self.level.name, "rules")
        ranked, judge = self._ranked(position, d1, d2)
        best, top = ranked[0]
        play, equity = best, top
        if self.level.temperature > 0:
            candidates = [(p, e) for p, e in ranked if top - e <= self.level.cap]
            weights = [math.exp((e - top) / self.level.temperature) for _, e in candidates]
            play, equity = self.rng(position, (d1, d2)).choices(candidates, weights)[0]
        return OpponentPlay(
            position, (d1, d2), play, self.level.name, judge, max(0.0, top - equity), best
        )

    # -- the cube ----------------------------------------------------------------------

    def _cubeless(self, after: Position) -> tuple[float, str]:
        """Cubeless equity of ``after`` for the side not on roll, and who judged."""
        try:
            return self.evaluator.equity(after), self.evaluator.name
        except EvaluatorError:
            if self.fallback is None:
                raise
            return self.fallback.equity(after), self.fallback.name

    def _coach_decides(self, position: Position, cube: Cube) -> tuple[CubeDecision, float]:
        """The cube coach's decision for the side on roll in ``position``, and that side's
        cubeless equity (gammons counted) from the same chances."""
        assert self.cube_coach is not None
        state = CubeState(cube.value, cube.owner)
        decision = self.cube_coach.decide(position, state)
        p, w, l_ = values(decision.chances)
        return decision, p * w - (1.0 - p) * l_

    def cube_action(self, position: Position, cube: Cube | None = None) -> CubeVerdict:
        """Before its throw (the table on roll in ``position``): double or not."""
        cube = cube or Cube()
        if not self.profile.doubling:
            return CubeVerdict("no-double", None, "rules", f"no doubling in {self.profile.name}")
        if not cube.may_double(position.turn):
            return CubeVerdict("no-double", None, "rules", "the cube is the visitor's")
        if self.cube_coach is not None:
            decision, mine = self._coach_decides(position, cube)
            reason = "playing on for a gammon" if decision.action == "too-good" else ""
            return CubeVerdict(decision.action, mine, decision.evaluator, reason)
        # equity() is for the side that just moved: here the visitor, about to wait.
        theirs, judge = self._cubeless(position)
        mine = -theirs
        if mine > TOO_GOOD:
            return CubeVerdict("too-good", mine, judge, "playing on for a gammon")
        if mine >= DOUBLE_POINT:
            return CubeVerdict("double", mine, judge)
        return CubeVerdict("no-double", mine, judge)

    def answer_double(self, position: Position, cube: Cube | None = None) -> CubeVerdict:
        """The visitor (on roll in ``position``) doubles: take or pass.

        Raises ``ValueError`` where the visitor may not double (no doubling in the profile,
        or the cube is the table's).
        """
        cube = cube or Cube()
        if not self.profile.doubling:
            raise ValueError(f"there is no doubling under the {self.profile.name} rules")
        if not cube.may_double(position.turn):
            raise ValueError("the cube is the table's: the visitor may not double")
        if self.cube_coach is not None:
            decision, theirs = self._coach_decides(position, cube)
            return CubeVerdict(decision.response, -theirs, decision.evaluator)
        mine, judge = self._cubeless(position)
        if mine >= TAKE_POINT:
            return CubeVerdict("take", mine, judge)
        return CubeVerdict("pass", mine, judge)

    def review(
        self,
        plays: Iterable[tuple[Position, Iterable[int], Play | str]],
        cubes: Iterable[tuple[Position, CubeState, str]] = (),
    ) -> tuple[list[ReviewItem], list[CubeReviewItem]]:
        """The visitor's costliest plays (:func:`review`) and cube decisions
        (:func:`cube_review`) of a game, by this opponent's evaluator and rules."""
        found = review(plays, self.evaluator, self.profile, fallback=self.fallback)
        return found, cube_review(cubes, self.cube_coach)

    def close(self) -> None:
        """Release the evaluators."""
        self.evaluator.close()
        if self.fallback is not None:
            self.fallback.close()


#: Every throw, each order of the two dice its own (a ranking may list equal plays in the
#: order the dice give them), the likeliest first: the non-doubles, then the doubles.
AHEAD_ORDER: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(1, 7) for b in range(1, 7) if a != b
) + tuple((a, a) for a in range(1, 7))


class OpponentWorker:
    """Thinks for an :class:`Opponent` off the caller's thread, one question at a time.

    If the opponent's evaluator has not answered within ``time_limit`` seconds (a slow or
    stuck engine) or fails, the ``fallback`` opponent (the same level and seed with the
    built-in evaluator) chooses instead, so the visitor never waits much longer than the
    limit. The engine's late answer is then dropped.
    """

    def __init__(
        self,
        opponent: Opponent,
        fallback: Opponent | None = None,
        time_limit: float = 2.0,
        apart: bool = False,
    ) -> None:
        if not time_limit > 0:
            raise ValueError(f"the time limit is a positive number of seconds, not {time_limit}")
        self.opponent = opponent
        self.fallback = fallback or Opponent(
            opponent.level, BuiltinEvaluator(), seed=opponent.seed, profile=opponent.profile
        )
        self.time_limit = time_limit
        self.apart = apart
        self._turns = ThreadPoolExecutor(1, thread_name_prefix="opponent")
        self._engine: Executor
        if apart:  # its own process: the caller's threads never wait for the engine's
            spec = (opponent.level.name, opponent.seed, opponent.profile.name)
            self._engine = ProcessPoolExecutor(
                1, mp_context=get_context("spawn"), initializer=_apart_start, initargs=spec
            )
            self._engine.submit(_apart_ready)  # started now, ready by the first question
        else:
            self._engine = ThreadPoolExecutor(1, thread_name_prefix="opponent-engine")
        self._closed = threading.Event()
        self._ahead_lock = threading.Lock()
        self._ahead: list[Future[Any]] = []  # the throws' rankings ahead (submit_ahead)

    def submit(
        self,
        position: Position,
        dice: Iterable[int],
        callback: Callable[[OpponentPlay], None] | None = None,
    ) -> Future[OpponentPlay]:
        """Start thinking about the table's play of ``dice``; returns at once.

        ``callback``, if given, is called with the play on the worker thread.
        """
        dice = _dice(dice)
        return self._submit("choose", (position, dice), callback)

    def submit_ahead(self, position: Position) -> None:
        """Start ranking the plays of every throw in ``position`` (the table on roll, its
        dice not thrown yet: :meth:`Opponent.prepare`), one throw at a time; returns at once.
        Any question asked after takes the rankings not yet started off the queue. Only at
        0-ply (every level's depth)."""
        if self._closed.is_set():
            raise RuntimeError("the opponent worker is closed")
        self._drop_ahead()
        if self.opponent.level.plies > 0:
            # Deeper, a ranking under way when the dice land holds the play up by more than
            # ranking ahead saves (bench_coach, gnubg-nn at 2-ply: p50 139 ms became 357).
            return
        with self._ahead_lock:
            self._ahead = [self._ask("prepare", (position, dice)) for dice in AHEAD_ORDER]

    def _drop_ahead(self) -> None:
        """Take the rankings ahead that have not started off the engine's queue."""
        with self._ahead_lock:
            for future in self._ahead:
                future.cancel()
            self._ahead = []

    def submit_cube(
        self,
        position: Position,
        cube: Cube | None = None,
        doubled: bool = False,
        callback: Callable[[CubeVerdict], None] | None = None,
    ) -> Future[CubeVerdict]:
        """Start judging the cube; returns at once. With ``doubled`` the visitor (on roll)
        has doubled and the answer is take or pass (:meth:`Opponent.answer_double`, whose
        ``ValueError`` the future raises); else the table (on roll) decides whether to
        double (:meth:`Opponent.cube_action`)."""
        method = "answer_double" if doubled else "cube_action"
        return self._submit(method, (position, cube), callback)

    def submit_review(
        self,
        turns: list[tuple[Position, tuple[int, int], Play]],
        cubes: list[tuple[Position, CubeState, str]] | None = None,
    ) -> Future[tuple[list[ReviewItem], list[CubeReviewItem]]]:
        """Start reviewing the visitor's turns and cube decisions (:meth:`Opponent.review`),
        after what it is thinking about: no time limit, no fallback."""
        if self._closed.is_set():
            raise RuntimeError("the opponent worker is closed")
        return self._turns.submit(lambda: self._ask("review", (turns, cubes or [])).result())

    def _submit(
        self, method: str, args: tuple[Any, ...], callback: Callable[..., Any] | None
    ) -> Future[Any]:
        if self._closed.is_set():
            raise RuntimeError("the opponent worker is closed")
        future = self._turns.submit(self._think, method, args)
        if callback is not None:

            def done(finished: Future[Any]) -> None:
                if finished.exception() is None:
                    callback(finished.result())

            future.add_done_callback(done)
        return future

    def _ask(self, method: str, args: tuple[Any, ...]) -> Future[Any]:
        """Ask the engine: the opponent's ``method`` in its process, or in a thread here."""
        if self.apart:
            return self._engine.submit(_apart_ask, method, args)
        return self._engine.submit(getattr(self.opponent, method), *args)

    def _think(self, method: str, args: tuple[Any, ...]) -> Any:
        self._drop_ahead()  # a question now comes before the throws that may never come
        engine = self._ask(method, args)
        try:
            return engine.result(timeout=self.time_limit)
        except FutureTimeout:
            log.warning(
                "the table's evaluator took over %.1f s; the built-in evaluator answers",
                self.time_limit,
            )
        except (EvaluatorError, BrokenExecutor) as err:
            log.warning("the table's evaluator failed (%s); the built-in evaluator answers", err)
        return getattr(self.fallback, method)(*args)

    def close(self) -> None:
        """Stop taking turns; a stuck engine is left to finish on its own."""
        self._closed.set()
        self._turns.shutdown(wait=True)
        self._engine.shutdown(wait=False, cancel_futures=True)


_APART: dict[str, Opponent] = {}  # in the engine's own process: its opponent


def _apart_start(level: str, seed: int, profile: str) -> None:
    """The engine's process starts: the opponent of ``level``, its evaluator loaded there."""
    _APART["opponent"] = Opponent(level, seed=seed, profile=profile)


def _apart_ready() -> bool:
    """Nothing: the engine's process is up (its evaluator loaded)."""
    return "opponent" in _APART


def _apart_ask(method: str, args: tuple[Any, ...]) -> Any:
    """The opponent's answer, in the engine's own process."""
    return getattr(_APART["opponent"], method)(*args)


@dataclass(frozen=True)
class ReviewItem:
    """One of the visitor's plays, with the equity it gave up, the better play, and the
    coach's rating and reasons (what the play does wrong first)."""

    before: Position
    dice: tuple[int, int]
    play: Play
    best: Play
    loss: float
    evaluator: str
    turn_number: int = field(default=0)  # its place among the plays reviewed, from 1
    rating: str = "fine"  # the coach's: fine, doubtful, bad, very bad
    reasons: tuple[Mapping[str, Any], ...] = ()  # the coach's reasons: code, facts, text

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, for the display: the position before, the play and the better one."""
        return {
            "turn": self.turn_number,
            "player": str(self.before.turn),
            "position": self.before.position_id(),
            "dice": list(self.dice),
            "move": str(self.play),
            "best": str(self.best),
            "equity_loss": round(self.loss, 4),
            "evaluator": self.evaluator,
            "rating": self.rating,
            "reasons": [dict(r) for r in self.reasons],
        }

    @property
    def words(self) -> str:
        """The play, what it costs and why (the coach's first reasons), and the better one.

        >>> start = Position.standard()
        >>> play, best = start.parse_play(6, 1, "24/18 24/23"), start.parse_play(6, 1, "13/7 8/7")
        >>> why = ({"code": "misses-point", "text": "Misses your bar point"},)
        >>> print(ReviewItem(start, (6, 1), play, best, 0.14, "builtin", 2, "very bad", why).words)
        6-1: you played 24/23 24/18, very bad (it costs 0.14 points a game). Misses your bar
        point. Better 13/7 8/7.
        """
        cost = f"it costs {self.loss:.2f} points a game" if self.loss >= 0.005 else "nearly best"
        texts = [(r.get("code"), str(r["text"]).rstrip(".")) for r in self.reasons]
        wrong = [text for code, text in texts if code in WRONG_CODES]
        why = wrong[:2] or [text for code, text in texts if code not in _NOT_WHY][:1]
        because = "".join(f" {w}." for w in why)
        return (
            f"{self.dice[0]}-{self.dice[1]}: you played {self.play}, {self.rating} ({cost})."
            f"{because} Better {self.best}."
        )


#: The coach's reasons the review leaves out: the best play's own mark, the race's count.
_NOT_WHY = frozenset({"best", "race", "only-play"})


def review(
    plays: Iterable[tuple[Position, Iterable[int], Play | str]],
    evaluator: Evaluator | None = None,
    profile: str | RuleProfile | None = None,
    count: int = 3,
    fallback: Evaluator | None = None,
) -> list[ReviewItem]:
    """The ``count`` plays that gave up the most equity, worst first, each with the best play
    and the coach's rating and reasons (:meth:`kiosk.tutor.coach.Coach.rate`, as after Done).

    ``plays`` are the visitor's (position before, dice, play) in the order played (a
    :class:`~kiosk.rules.Turn`'s ``before``, ``dice`` and ``play``). Only plays that lost
    equity are listed; forced plays are skipped. If ``evaluator`` fails, ``fallback`` (by
    default the built-in one) judges.
    """
    judge = evaluator if evaluator is not None else make_evaluator("expert")
    rules = get_profile(profile)
    coach = Coach(judge, profile=rules, fallback=fallback)
    items = []
    for number, (before, dice, play) in enumerate(plays, start=1):
        rolled = _dice(dice)
        if isinstance(play, str):
            play = before.parse_play(*rolled, play, rules)
        rated = coach.rate(before, rolled, play)
        loss = rated.equity_loss or 0.0
        if rated.only_play or loss <= 1e-6:
            continue
        why = tuple(rated.reasons)
        found = ReviewItem(before, rolled, play, rated.best, loss, rated.evaluator, number)
        items.append(replace(found, rating=rated.rating, reasons=why))
    if evaluator is None:
        with contextlib.suppress(EvaluatorError):
            judge.close()
    items.sort(key=lambda item: -item.loss)
    return items[:count]


@dataclass(frozen=True)
class CubeReviewItem:
    """One of the visitor's cube decisions that gave equity away, and the right one."""

    before: Position  # the doubler on roll
    cube_value: int  # the cube before the double
    decision: str  # double, take or pass
    right: str  # what the cube coach would have done: no-double, too-good, take, pass
    loss: float
    evaluator: str

    @property
    def words(self) -> str:
        """The decision and the better one, in words.

        >>> item = CubeReviewItem(Position.standard(), 2, "pass", "take", 0.3, "builtin")
        >>> item.words
        'you passed the double to 4, better to take'
        """
        stake = 2 * self.cube_value
        better = {
            "no-double": "not to double yet",
            "too-good": "to play on for a gammon",
            "take": "to take",
            "pass": "to pass",
        }.get(self.right, self.right)
        did = {"double": "doubled", "take": "took the double", "pass": "passed the double"}
        return f"you {did[self.decision]} to {stake}, better {better}"


def cube_review(
    decisions: Iterable[tuple[Position, CubeState, str]], coach: CubeCoach | None = None
) -> list[CubeReviewItem]:
    """The visitor's cube ``decisions`` (the position with the doubler on roll, the cube
    before the double, and ``double``, ``take`` or ``pass``) that gave equity away, worst
    first, each with the right decision (the built-in net's cube coach if none is given)."""
    judge = coach if coach is not None else cube_coach("builtin")
    items = []
    for before, cube, decision in decisions:
        analysis = judge.decide(before, cube)
        loss = analysis.loss_of(decision)
        if loss > 1e-6:
            right = analysis.right_for(decision)
            items.append(
                CubeReviewItem(before, cube.value, decision, right, loss, analysis.evaluator)
            )
    items.sort(key=lambda item: -item.loss)
    return items
