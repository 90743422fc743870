"""GNU Backgammon's verdict on every play a lesson names: the lesson check's referee.

A play step accepts some plays (``accept``), calls others sound (``good``) and may set the
books' plays beside them (``books``); every other legal play is refused ("put the men back
and try again"). :func:`check_plays` rates each of them with the reference evaluator and
reports a step that teaches an error as right:

* an accepted play more than :data:`ACCEPT` behind the best;
* a play called sound more than :data:`GOOD` behind;
* a play within :data:`ACCEPT` of the best that is refused, or only called sound (every
  legal play is rated, not only those GNU Backgammon's move filter keeps);
* a book's play (or a replayed turn of Crawley's games) more than :data:`ACCEPT` behind the
  best whose loss the step does not say: it may be shown as history at any loss, with a
  ``loss`` or ``rating`` fact of the step (checked by :mod:`.facts`) saying how much.

The reference is GNU Backgammon at 2-ply, cubeless money equity: its nets in-process
(gnubg-nn) where they are installed, else the ``gnubg`` program over its socket. In a
bear-off (the side on roll has every man home and no contact is left) plays are rated by
the throws they need on average to bear every man off, counted exactly as GNU
Backgammon's one-sided bear-off database counts them (:mod:`kiosk.tutor.evaluators.bearoff`),
with the thresholds in throws (:data:`ACCEPT_THROWS`, :data:`GOOD_THROWS`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kiosk.files import FileProblem, read_text, write_atomically
from kiosk.rules import Play, Position, RuleProfile
from kiosk.rules.profiles import get_profile
from kiosk.tutor.evaluators import Evaluator, EvaluatorError, Scored
from kiosk.tutor.evaluators.bearoff import expected_throws, home_of
from kiosk.tutor.features import has_contact
from kiosk.tutor.lessons.model import PlayStep

log = logging.getLogger(__name__)

#: Every legal play of every play step, rated as ``kiosk lesson check`` rates them and kept
#: by ``kiosk lesson check --write-ratings``, so that a learner's wrong play is answered with
#: what it costs at once (the check fails while an entry is missing or out of date).
RATINGS_FILE = Path(__file__).with_name("data") / "ratings.json"
#: How far a stored loss may drift from GNU Backgammon's fresh one (its nets' noise).
STORED_TOLERANCE = 0.005

#: Cubeless equity an accepted play may give up (and a refused one must), and a sound one.
ACCEPT, GOOD = 0.03, 0.06
#: The same in a bear-off, in throws to bear every man off.
ACCEPT_THROWS, GOOD_THROWS = 0.03, 0.1
PLIES = 2


def is_bearoff(position: Position) -> bool:
    """Whether the side on roll has every man home and no contact is left."""
    me = position.turn
    return not has_contact(position) and sum(home_of(position, me)) + position.off[me] == 15


@dataclass(frozen=True)
class Rated:
    """The plays of one roll, rated: ``losses`` maps each play looked at (by the Position ID
    it leaves) to what it gives up against ``best``, in ``unit`` (equity or throws)."""

    best: Play
    losses: dict[str, float]
    unit: str  # "equity" or "throws"
    judge: str  # who rated: "gnubg-nn 2-ply", "gnubg 2-ply" or "the bear-off count"

    def loss(self, play: Play) -> float:
        """What ``play`` gives up against the best (it must have been looked at)."""
        return self.losses[play.result.position_id()]

    @property
    def thresholds(self) -> tuple[float, float]:
        """How far an accepted and a sound play may be behind, in this rating's unit."""
        return (ACCEPT_THROWS, GOOD_THROWS) if self.unit == "throws" else (ACCEPT, GOOD)

    def words(self, loss: float) -> str:
        """A loss in this rating's unit, e.g. ``0.25 in equity`` or ``0.12 throws``."""
        return f"{loss:.3f} throws" if self.unit == "throws" else f"{loss:.3f} in equity"


class Judge:
    """GNU Backgammon at 2-ply, found and started only when first asked."""

    def __init__(self, evaluator: Evaluator | None = None) -> None:
        self._evaluator = evaluator
        self._looked = evaluator is not None
        self._rated: dict[tuple[str, int, tuple[int, int], str, tuple[str, ...]], Rated] = {}

    @property
    def evaluator(self) -> Evaluator:
        """The reference evaluator; LookupError when this machine has none."""
        if not self._looked:
            self._looked = True
            from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program
            from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module

            if load_module() is not None:
                self._evaluator = GnubgNNEvaluator(plies=PLIES)
            elif find_program() is not None:
                self._evaluator = GnubgExternalEvaluator(plies=PLIES)
        if self._evaluator is None:
            raise LookupError("GNU Backgammon (gnubg-nn or the gnubg program) is not installed")
        return self._evaluator

    def ranked(
        self, start: Position, dice: tuple[int, int], profile: str | RuleProfile | None = None
    ) -> list[Scored]:
        """The plays GNU Backgammon's move filter keeps, best first, with their equities."""
        try:
            return self.evaluator.evaluate_plays(start, *dice, profile=profile)
        except EvaluatorError as err:
            raise LookupError(f"GNU Backgammon could not answer: {err}") from None

    def equity(self, after: Position) -> float:
        """GNU Backgammon's 2-ply equity of ``after`` for the side that moved."""
        try:
            return self.evaluator.equity(after)
        except EvaluatorError as err:
            raise LookupError(f"GNU Backgammon could not answer: {err}") from None

    def rate(
        self,
        start: Position,
        dice: tuple[int, int],
        named: Iterable[Play] = (),
        profile: str | RuleProfile | None = None,
    ) -> Rated:
        """Every play GNU Backgammon's filter keeps, and every play in ``named``, rated (the
        same question twice is answered once)."""
        named = list(named)
        key = (
            start.position_id(),
            int(start.turn),
            dice,
            get_profile(profile).name,
            tuple(sorted(p.result.position_id() for p in named)),
        )
        if key not in self._rated:
            self._rated[key] = self._rate(start, dice, named, profile)
        return self._rated[key]

    def _rate(
        self,
        start: Position,
        dice: tuple[int, int],
        named: list[Play],
        profile: str | RuleProfile | None,
    ) -> Rated:
        if is_bearoff(start):
            legal = start.legal_plays(*dice, profile)
            me = start.turn
            throws = {p.result.position_id(): expected_throws(home_of(p.result, me)) for p in legal}
            best = min(legal, key=lambda p: throws[p.result.position_id()])
            low = throws[best.result.position_id()]
            losses = {pid: t - low for pid, t in throws.items()}
            return Rated(best, losses, "throws", "the bear-off count")
        ranked = self.ranked(start, dice, profile)
        best, best_equity = ranked[0]
        equities = {p.result.position_id(): e for p, e in ranked}
        for play in named:
            pid = play.result.position_id()
            if pid not in equities:  # left out by the filter as far worse: look at it alone
                equities[pid] = self.equity(play.result)
        losses = {pid: max(0.0, best_equity - e) for pid, e in equities.items()}
        return Rated(best, losses, "equity", f"{self.evaluator.name} {PLIES}-ply")

    def close(self) -> None:
        """Stop the evaluator, if one was started."""
        if self._evaluator is not None:
            self._evaluator.close()


def _said(step: PlayStep, play: Play) -> bool:
    """Whether a ``loss`` or ``rating`` fact of ``step`` is about ``play``."""
    for fact in step.facts:
        words = fact.partition(" = ")[0].split(" ", 1)
        if words[0] in ("loss", "rating") and len(words) == 2:
            try:
                named = step.start.parse_play(*step.dice, words[1])
            except ValueError:
                continue
            if named.result.position_id() == play.result.position_id():
                return True
    return False


def play_problems(
    step: PlayStep, judge: Judge, profile: str | RuleProfile | None = None
) -> list[str]:
    """What is wrong with the plays ``step`` accepts, calls sound, refuses or sets beside
    them as a book's (see the module docstring); LookupError without GNU Backgammon."""
    legal = step.start.legal_plays(*step.dice, profile)
    if len({p.result.position_id() for p in legal}) <= 1:
        return []
    accepted = [step.plays[t] for t in step.accept]
    good = [step.plays[t] for t in step.good]
    books = [
        (f"{book.book}'s play {'for a gammon' if text == book.gammon else 'for a hit'}", text)
        for book in step.books
        for text in dict.fromkeys((book.hit, book.gammon))
        if text
    ]
    # Every legal play is rated, not only those GNU Backgammon's move filter keeps: a play
    # the filter drops can still be within ACCEPT of the best, and the step must accept it.
    rated = judge.rate(step.start, step.dice, legal, profile)
    accept, sound = rated.thresholds
    best = f"the best, {rated.best} ({rated.judge})"
    out = []
    if step.replay:
        play = accepted[0]
        loss = rated.loss(play)
        if loss > accept and not _said(step, play):
            out.append(
                f"Crawley's {play} is {rated.words(loss)} behind {best}: say its loss "
                "(a loss or rating fact of the turn)"
            )
        return out
    for play in accepted:
        if (loss := rated.loss(play)) > accept:
            out.append(f"accepts {play}, {rated.words(loss)} behind {best}")
    for play in good:
        loss = rated.loss(play)
        if loss > sound:
            out.append(f"calls {play} sound, {rated.words(loss)} behind {best}")
        elif loss <= accept:
            out.append(f"only calls {play} sound, {rated.words(loss)} from {best}: accept it")
    named = {p.result.position_id() for p in (*accepted, *good)}
    for pid, loss in rated.losses.items():
        if loss <= accept and pid not in named:
            refused = next(p for p in legal if p.result.position_id() == pid)
            if refused.result.position_id() == rated.best.result.position_id():
                out.append(f"refuses {refused}, the best ({rated.judge})")
            else:
                out.append(f"refuses {refused}, only {rated.words(loss)} from {best}")
    for who, text in books:
        play = step.plays[text]
        loss = rated.loss(play)
        if play.result.position_id() not in named and loss > accept and not _said(step, play):
            out.append(
                f"sets {who}, {text}, beside today's without its loss "
                f"({rated.words(loss)} behind {best}): add a loss or rating fact"
            )
    return out


def rate_step(step: PlayStep, judge: Judge, profile: str | RuleProfile | None = None) -> Rated:
    """Every legal play of ``step``'s roll, rated (LookupError without GNU Backgammon)."""
    return judge.rate(step.start, step.dice, step.start.legal_plays(*step.dice, profile), profile)


def stored_entry(step: PlayStep, rated: Rated) -> dict[str, Any]:
    """What :data:`RATINGS_FILE` keeps of a step's rated plays."""
    return {
        "start": step.start.position_id(),
        "turn": step.start.turn.name.lower(),
        "dice": list(step.dice),
        "best": str(rated.best),
        "unit": rated.unit,
        "judge": rated.judge,
        "losses": {pid: round(loss, 4) for pid, loss in sorted(rated.losses.items())},
    }


@cache
def stored_ratings() -> Mapping[str, Mapping[str, Any]]:
    """The stored ratings by lesson id and step number (empty, and said in the log, when the
    file is missing or damaged: the lesson then shows the wanted play without the cost)."""
    try:
        data = json.loads(read_text(RATINGS_FILE, "the lessons' stored ratings"))
    except (FileNotFoundError, FileProblem, ValueError) as err:
        log.warning("the lessons' stored ratings cannot be read: %s", err)
        return {}
    return data if isinstance(data, dict) else {}


def stored_step(lesson_id: str, step: PlayStep) -> dict[str, Any] | None:
    """The stored ratings of ``step``'s plays, if they are of this very position and roll."""
    entry = stored_ratings().get(lesson_id, {}).get(str(step.number))
    if not isinstance(entry, dict):
        return None
    same = (
        entry.get("start") == step.start.position_id()
        and entry.get("turn") == step.start.turn.name.lower()
        and entry.get("dice") == list(step.dice)
        and isinstance(entry.get("losses"), dict)
    )
    return entry if same else None


def stored_problem(lesson_id: str, step: PlayStep, rated: Rated) -> str | None:
    """Why the stored ratings of ``step`` do not match a fresh rating, or None."""
    entry = stored_step(lesson_id, step)
    fix = f"run 'kiosk lesson check --write-ratings' ({RATINGS_FILE.name})"
    if entry is None:
        return f"no stored ratings of this step's plays: {fix}"
    fresh = stored_entry(step, rated)
    if entry["unit"] != fresh["unit"] or set(entry["losses"]) != set(fresh["losses"]):
        return f"the stored ratings are of other plays: {fix}"
    if entry.get("judge") != fresh["judge"]:
        return None  # another GNU Backgammon (the program, not its nets): its own rounding
    drift = max(abs(entry["losses"][k] - v) for k, v in fresh["losses"].items())
    if drift > STORED_TOLERANCE:
        return f"a stored loss is {drift:.3f} away from GNU Backgammon's: {fix}"
    return None


def write_ratings(entries: Mapping[str, Mapping[str, dict[str, Any]]]) -> Path:
    """Keep ``entries`` (by lesson id, then step number) in :data:`RATINGS_FILE`, beside the
    stored ratings of the lessons not given."""
    data = {k: dict(v) for k, v in stored_ratings().items()}
    data.update({k: dict(v) for k, v in entries.items()})
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    stored_ratings.cache_clear()
    return write_atomically(RATINGS_FILE, text, mode=0o644)
