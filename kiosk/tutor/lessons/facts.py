"""The facts a lesson step states, declared beside its words and checked against the rules
engine, GNU Backgammon and the books' text.

A step's ``facts`` is a list of short claims, each worked out again by :func:`check_step`
on the step's board (a play step's starting position; ``after MOVE:`` for the position its
play leaves). The forms (points are each side's own, colours ``white`` or ``black``):

``shots COLOUR POINT = N``
    the adversary's throws (of 36) that hit COLOUR's blot on POINT;
``hitters COLOUR POINT = 6-4 5-5``
    exactly those throws (higher die first) hit it;
``pips COLOUR = N``, ``men COLOUR POINT = N``
    a side's pip count, or its men on a point (``bar``, ``off``);
``distance D [stops S ...] = N``, ``enter OPEN = N``
    the lessons' figures (:mod:`.figures`);
``best = MOVE``, ``rating MOVE = fine|doubtful|bad|very bad``, ``loss MOVE = X``
    GNU Backgammon's verdict at 2-ply on a play step's roll (``loss`` to within 0.01);
``quote BOOK LINE: words``
    the words stand on that line of the book's transcription;
``take-point = N``
    the taker's share of the wins (in percent) with a dead cube and no gammons;
``cube = double|no-double take|pass``
    the ``gnubg`` program's own money-play cube decision (Jacoby off) for the side on roll;
``match-equity A B [post-crawford] = N``
    a side A points from winning the match, against one B away, wins it N% of the time
    (rounded) by the Kazaross XG2 table (:mod:`kiosk.rules.met`);
``russian PROFILE POSITION D1 D2 = WORDS``
    in Russian backgammon under a book's rules (``russian-cady``, ``russian-foster``), the
    throw's parts from that position, as :meth:`kiosk.rules.russian.RussianTurn.describe`
    says them (``four 6s, then four 1s (bonus), then throw again``).

:func:`fact_bearing` says whether a step's words state a figure, a rating or a book's
claim; :func:`check_lesson` insists that every such step declares facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.books import sources
from kiosk.rules import Colour, Position, all_rolls, generate, shots
from kiosk.tutor.lessons import figures
from kiosk.tutor.lessons.model import Lesson, PlayStep, Step

_NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen)"
_CLAIM = re.compile(
    _NUMBER + r"\s+(throws?|rolls?|pips?|shots?|chances?)\b"
    r"|\bof the 36\b|\b(doubtful|bad play|rates?|a shade|level with|behind)\b"
    r"|today's analysis|\d\.\d\d",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Problem:
    """A fact that does not hold, or could not be checked (``skipped``)."""

    step: int
    fact: str
    message: str
    skipped: bool = False

    def __str__(self) -> str:
        mark = "skipped" if self.skipped else "wrong"
        return f"step {self.step}: {self.fact!r}: {mark}: {self.message}"


def fact_bearing(step: Step) -> bool:
    """Whether the step's words state a count, a distance, a rating or an analysis."""
    words = " ".join((step.text, getattr(step, "explain", "")))
    return bool(_CLAIM.search(words))


class _Judge:
    """GNU Backgammon at 2-ply, made once and only if a fact asks for it."""

    def __init__(self) -> None:
        self._evaluator = None
        self.missing = False

    def ranked(self, start: Position, dice: tuple[int, int]):
        if self._evaluator is None and not self.missing:
            from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module

            if load_module() is None:
                self.missing = True
            else:
                self._evaluator = GnubgNNEvaluator(plies=2)
        if self._evaluator is None:
            return None
        return self._evaluator.evaluate_plays(start, *dice)

    def equity(self, after: Position) -> float:
        """GNU Backgammon's 2-ply equity of ``after`` for the side that moved."""
        assert self._evaluator is not None
        return self._evaluator.equity(after)


def _board(step: Step, board: Position) -> Position:
    return step.start if isinstance(step, PlayStep) else board


def _rolls(text: str) -> set[tuple[int, int]]:
    out = set()
    for word in text.split():
        a, b = word.split("-")
        out.add((max(int(a), int(b)), min(int(a), int(b))))
    return out


def _hitters(position: Position, colour: Colour, point: int) -> set[tuple[int, int]]:
    board = position.with_turn(colour.other)
    return {
        (max(d1, d2), min(d1, d2))
        for d1, d2, _ in all_rolls()
        if any(s.hit and s.dst == 25 - point for p in generate(board, d1, d2) for s in p.steps)
    }


def _men(position: Position, colour: Colour, where: str) -> int:
    if where == "bar":
        return position.bar(colour)
    if where == "off":
        return position.off[colour]
    return position.count(colour, int(where))


def _one(fact: str, step: Step, board: Position, judge: _Judge) -> str | None:
    """None if ``fact`` holds, else what is wrong (raises LookupError if it cannot be judged)."""
    position = _board(step, board)
    claim = fact
    m = re.fullmatch(r"after (.+?): (.+)", fact)
    if m:
        if not isinstance(step, PlayStep):
            return "'after MOVE:' needs a play step"
        position = step.start.parse_play(*step.dice, m.group(1)).result
        claim = m.group(2)
    if claim.startswith("quote "):
        q = re.fullmatch(r"quote (.+?) (\d+): (.+)", claim)
        if not q or q.group(1) not in sources.BOOKS:
            return "write quote BOOK LINE: words"
        found = sources.quote(q.group(1), int(q.group(2)), q.group(3))
        if found is None:
            raise LookupError("the book's transcription is not on this machine")
        return None if found else f"line {q.group(2)} of {q.group(1)} does not say so"
    if claim.startswith("take-point = "):
        from kiosk.tutor.cube import taker_needs

        got = round(100 * taker_needs(1.0, 1.0, 0.0))
        return None if str(got) == claim.split(" = ")[1] else f"Janowski's model gives {got}"
    if claim.startswith("match-equity "):
        from kiosk.rules.met import kazaross_xg2

        left, _, want = claim.partition(" = ")
        words = left.split()
        post = words[3:] == ["post-crawford"]
        chance = kazaross_xg2().equity(int(words[1]), int(words[2]), post_crawford=post)
        got = round(100 * chance)
        return None if str(got) == want.strip() else f"the Kazaross XG2 table gives {got}"
    if claim.startswith("russian "):
        from kiosk.rules.russian import RussianPosition, RussianTurn

        left, _, want = claim.partition(" = ")
        _, profile, notation, d1, d2 = left.split()
        turn = RussianTurn(RussianPosition.from_notation(notation), int(d1), int(d2), profile)
        got = turn.describe()
        return None if got == want.strip() else f"the Russian rules give {got!r}"
    if claim.startswith("cube = "):
        got = _program_cube(position)
        return None if got == claim.split(" = ")[1] else f"GNU Backgammon says {got}"
    left, _, right = claim.partition(" = ")
    words, want = left.split(), right.strip()
    if not right:
        return "a fact is written 'WHAT = VALUE'"
    kind = words[0]
    if kind in ("shots", "hitters", "men", "pips"):
        colour = Colour.parse(words[1])
        if kind == "pips":
            got: object = position.pips(colour)
        elif kind == "men":
            got = _men(position, colour, words[2])
        elif kind == "shots":
            got = shots(position, colour, int(words[2]))
        else:
            got = _hitters(position, colour, int(words[2]))
            return None if got == _rolls(want) else f"the engine finds {sorted(got)}"
        return None if str(got) == want else f"the engine finds {got}"
    if kind == "distance":
        got = figures.shots_at_distance(int(words[1]), [int(w) for w in words[3:]])
        return None if str(got) == want else f"the engine finds {got}"
    if kind == "enter":
        got = figures.entering(int(words[1]))
        return None if str(got) == want else f"the engine finds {got}"
    if kind in ("best", "rating", "loss"):
        if not isinstance(step, PlayStep):
            return f"{kind} needs a play step"
        ranked = judge.ranked(step.start, step.dice)
        if ranked is None:
            raise LookupError("GNU Backgammon (gnubg-nn) is not installed")
        best_play, best_equity = ranked[0]
        if kind == "best":
            want_play = step.start.parse_play(*step.dice, want)
            return None if want_play == best_play else f"GNU Backgammon's best is {best_play}"
        play = step.start.parse_play(*step.dice, " ".join(words[1:]))
        equity = next((e for p, e in ranked if p == play), None)
        if equity is None:  # filtered out as far worse: look at it on its own
            equity = judge.equity(play.result)
        loss = max(0.0, best_equity - equity)
        if kind == "loss":
            ok = abs(loss - float(want)) <= 0.01
            return None if ok else f"GNU Backgammon puts it {loss:.3f} behind"
        from kiosk.tutor.coach import classify

        got = classify(loss)
        return None if got == want else f"GNU Backgammon rates it {got} ({loss:.3f} behind)"
    return f"unknown fact {kind!r}"


def _program_cube(position: Position) -> str:
    """The gnubg program's cube action and response for the side on roll, money play."""
    from kiosk.tutor.evaluators.gnubg_external import (
        GnubgExternalEvaluator,
        fibs_board,
        find_program,
    )

    if find_program() is None:
        raise LookupError("the gnubg program is not installed")
    program = GnubgExternalEvaluator(plies=0, settings=("set jacoby off",))
    try:
        fields = fibs_board(position).split(":")
        action = program.request(":".join(fields))
        fields[40] = "1"  # the side on roll has doubled; the other answers
        response = program.request(":".join(fields))
    finally:
        program.close()
    action = "double" if action == "double" else "no-double"
    return f"{action} {'take' if response in ('take', 'beaver') else 'pass'}"


def check_step(step: Step, board: Position, judge: _Judge | None = None) -> list[Problem]:
    """Every declared fact of ``step`` checked; ``board`` is the position it shows."""
    judge = judge or _Judge()
    problems = []
    for fact in step.facts:
        try:
            message = _one(fact, step, board, judge)
        except LookupError as err:
            problems.append(Problem(step.number, fact, str(err), skipped=True))
            continue
        except (ValueError, IndexError) as err:
            message = f"cannot be read: {err}"
        if message:
            problems.append(Problem(step.number, fact, message))
    return problems


def check_lesson(lesson: Lesson) -> list[Problem]:
    """Every step's facts and citations checked, and every fact-bearing step has facts."""
    judge = _Judge()
    problems: list[Problem] = []
    board = Position.standard()
    for step in lesson.steps:
        board = getattr(step, "position", None) or getattr(step, "board", None) or board
        # A replayed turn's words come from the book's own moves, parsed by the engine.
        replayed = getattr(step, "replay", 0)
        if fact_bearing(step) and not (step.facts or getattr(step, "check", "") or replayed):
            problems.append(Problem(step.number, "", "states a figure but declares no facts"))
        problems += check_step(step, board, judge)
        cites = [step.cite, *(b.cite for b in getattr(step, "books", ()) if hasattr(b, "cite"))]
        for cite in cites:
            if not cite and step.kind != "setup":
                problems.append(Problem(step.number, "cite", "no citation"))
            for message in sources.check(cite) if cite else ():
                problems.append(Problem(step.number, "cite", message))
        if isinstance(step, PlayStep):
            board = step.plays[step.accept[0]].result
    return problems
