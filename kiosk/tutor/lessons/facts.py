"""The facts a lesson step states, declared beside its words and checked against the rules
engine, GNU Backgammon and the books' text.

A step's ``facts`` is a list of short claims, each worked out again by :func:`check_step`
on the step's board (a play step's starting position; ``after MOVE:`` for the position its
play leaves). The forms (points are each side's own, colours ``white`` or ``black``):

``shots COLOUR POINT = N``
    the adversary's throws (of 36) that hit COLOUR's blot on POINT;
``hitters COLOUR POINT = 6-4 5-5``
    exactly those throws (higher die first) hit it; ``shots COLOUR P1 P2 = N``: the throws
    that hit either of two blots (each throw counted once);
``stranded COLOUR OPTION = N``
    Parker's count of COLOUR's stranded men by his option 1, 2 or 3 (COLOUR has lost);
``set A B = X to Y``
    the exact odds on winning a set of three games up from A games to B, each game even;
``pips COLOUR = N``, ``men COLOUR POINT = N``
    a side's pip count, or its men on a point (``bar``, ``off``);
``throws COLOUR = X``
    the throws a side with every man home needs on average to bear them all off (to X's
    decimals), as GNU Backgammon's one-sided bear-off database counts them;
``keith COLOUR = N``, ``keith = double|no-double take|pass``
    Tom Keith's count of a side: its pips, plus 2 for each man beyond one on its ace point,
    1 for each beyond one on its deuce point and for each beyond three on its trey point,
    and 1 for each of its 4, 5 and 6 points that is empty; the side on roll adds a seventh
    of that (dropping any fraction). The side on roll doubles when its count is no more
    than 4 above the other's, and the other takes when it is at least 2 above;
``8-9-12 = double|no-double take|pass``
    the 8-9-12 rule for the side on roll in a race: it doubles when it leads by at least 8%
    of its pip count (it would redouble from 9%), and the other passes from 12%;
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
``cube A B [crawford|post-crawford] = double|no-double take|pass``
    the same at a match score: the side on roll A points from winning the match, the
    other B away (when one side is 1 away, say whether this is the Crawford game or
    after it); the step's words must name the score (``A-away`` and ``B-away``, and
    ``Crawford`` when one side is 1 away);
``match-equity A B [post-crawford] = N``
    a side A points from winning the match, against one B away, wins it N% of the time
    (rounded) by the Kazaross XG2 table (:mod:`kiosk.rules.met`);
``russian PROFILE POSITION D1 D2 = WORDS``
    in Russian backgammon under a book's rules (``russian-cady``, ``russian-foster``), the
    throw's parts from that position, as :meth:`kiosk.rules.russian.RussianTurn.describe`
    says them (``four 6s, then four 1s (bonus), then throw again``);
``calc EXPRESSION = N``
    the arithmetic the words do on figures other facts establish (``2 x 18 + 5 x 7 = 71``,
    ``95 // 7 = 13``; ``+ - x * / //`` and brackets), rounded to N's last digit.

What a step states, and what backs it (:func:`claims`, :func:`unbacked`). The words are
what a visitor reads that the lesson wrote: the text, the explanation, a question's right
choice (the wrong ones are offered as wrong), the notes and names of the books' plays, a
chart's books and a replayed turn's lead and note (the rest of a replayed turn is the
book's own record, parsed by the engine); a lesson's title and summary are read the same
way and backed by any fact of the lesson. They state:

* a *figure*: every number in digits (with a percentage or a decimal) or in words from
  two to ninety-nine, ``twice`` and ``triple``, is a count of men, points, pips, throws,
  shots, ways or games, a percentage or an equity. It is backed by a fact of the step that
  states the same number: as its value, in a quote's words, in a calculation, a distance,
  an entering count or a match score, or as a figure of the rule of thumb it computes
  (Keith's count: 2, 3, 4; the 8-9-12 rule: 8, 9, 12); or by a question's ``check`` and
  its figure, or by a chart's exact counts. The points and moves a fact is about back
  nothing (``men white 10 = 1`` backs a 1, not a 10). Not figures: a point's
  name (``your 13 point``, ``his 4 and 2``, ``your six point``, ``(your 24)``), a die's
  face (``the 5 would enter``, ``with the three``, ``the 6s``), a throw or a score
  (``6-2``, ``two-two``, ``double five``, ``6-3``, ``13 to 8``), a move (``13/10*``,
  ``8/5(2)``), a law, section, rule, table, lesson, turn or line (``law 12``, ``Tactics
  V``, ``#21``, ``the 8-9-12 rule``, ``[003:365]``), a match's length (``a 7-point
  match``, ``a match to 3``), a year, ``one`` and ordinals (too often a pronoun or an
  order to be a count), and the game's fixed furniture (``two dice``, ``the two sides``,
  a throw's ``two numbers``, ``the 36 throws``);
* a *book's claim*: a book named (Cady, Hoffmann, Parker, Crawley, Foster, and Hoyle and
  Berkeley as others print them) is backed by a ``quote`` of that book, or of a book that
  prints its words (Hoyle: Crawley's or Cady's transcription; Berkeley: Cady's), only
  when the quote does not say the opposite of what the words say of the book (a key term
  said plainly in one and under a negation in the other, :mod:`.quotes`); and a section
  the step cites, of a book its words do not name, must not advise what the words forbid;
* a *verdict*: a rating or today's analysis (``doubtful``, ``very bad``, ``rates``,
  ``a shade``, ``level with``, ``almost level``, ``close behind``, ``today's analysis``,
  ``today's choice``, ``first choice``, ...) is backed by a fact of GNU Backgammon's:
  ``best``, ``rating``, ``loss``, ``cube`` or ``match-equity``.

:func:`check_lesson` reports every claim no fact backs, and every fact that does not hold.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from kiosk.books import sources
from kiosk.rules import Colour, Position, all_rolls, generate, shots
from kiosk.tutor.lessons import figures, quotes
from kiosk.tutor.lessons.model import (
    BookPlay,
    ChartStep,
    ExplainStep,
    Lesson,
    PlayStep,
    QuestionStep,
    Step,
)
from kiosk.tutor.lessons.ratings import (
    RATINGS_FILE,
    Judge,
    play_problems,
    rate_step,
    stored_problem,
)


@dataclass(frozen=True)
class Problem:
    """A fact that does not hold, or could not be checked (``skipped``), or a claim of the
    step's words that no fact backs (``fact`` empty)."""

    step: int
    fact: str
    message: str
    skipped: bool = False

    def __str__(self) -> str:
        mark = "skipped" if self.skipped else "wrong"
        what = f"{self.fact!r}: " if self.fact else ""
        return f"step {self.step}: {what}{mark}: {self.message}"


# -- what a step states ---------------------------------------------------------------------

_COUNT = (
    r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?"
    r"|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twice|triple"
)
_WORD_VALUES = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen".split()
    )
} | {
    w: 10 * n
    for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
_WORD_VALUES |= {"twice": 2, "triple": 3}
_FIGURE = re.compile(r"\b(\d+(?:\.\d+)?)(?:\b|(?=%))|\b(" + _COUNT + r")\b", re.IGNORECASE)
_FACE = r"(?:[1-6]|two|three|four|five|six)"
_NOUNS = r"(?:%|(?:percent|pips?|men|throws|rolls|shots|chances|ways|times|games|away|points)\b)"
_MOVE = re.compile(r"(?<![\w/])(?:bar|\d+)(?:/(?:\d+|off)\*?)+(?:\(\d\))?|\bbar/|\(\d\)")
_THROW = re.compile(r"\b\d+-\d+\b|\b\d+ to \d+\b")  # a throw, a score, a move in words
#: What is not a figure: each is blanked out of the words before their figures are read.
_NOT_FIGURES = [
    _MOVE,
    re.compile(r"\b\d+(?:-\d+){2,}\b"),  # the 8-9-12 rule
    _THROW,
    *(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            r"\[\d{3}:\d+\]",  # a line of a book
            r"#\d+(?:\s+and\s+#\d+)*",  # Hoyle's rules
            r"\b(?:laws?|Tactics|Problems?|No\.|Tables?|lessons?|Ch\.|Chapter|turns?|steps?"
            r"|lines?)\s+(?:\d+|[IVX]+\b)(?:\s*(?:-|,|and|to)\s*(?:\d+|[IVX]+\b))*",
            r"\b(?:ace|deuce|trey|trois|quatre|cinque|size|one|two|three|four|five|six)"
            r"-(?:ace|deuce|trey|trois|quatre|cinque|one|two|three|four|five|six)\b",
            r"\bdouble " + _FACE + r"\b",
            r"\b[1-6]s\b",  # the 6s
            r"\b\d+-point match(?:es)?\b|\bmatch(?:es)? to \d+\b",
            r"\b1[5-9]\d\d\b",  # a year
            r"\btwo (?:dice|sides|numbers|books|plans)\b",  # the game's furniture
            r"\b(?:of|in|the|these) (?:the )?36\b(?: (?:throws|rolls))?",
        )
    ),
]
#: A die's face (``with the three``, ``a 3 enters``, ``the six is closed``), once the points'
#: names are out of the way.
_DIE_FACES = [
    re.compile(r"\b(?:with (?:the|a)|any|rolls? a|throws? a)\s+" + _FACE + r"\b", re.I),
    re.compile(
        r"\b(?:a|an|the)\s+" + _FACE + r"(?=\s+(?:would|could|can|cannot|is|takes?|bears?"
        r"|moves?|enters?|lands?|brings?|goes|has|must|from|at|for|with|still|of|be|as)\b"
        r"|\s+on (?:a|the) die\b|\s*[,.;:)])",
        re.IGNORECASE,
    ),
]
#: A point's name: ``your 13 point``, ``(your 24)``, ``his 6, 4 and 2 points``, ``your six
#: and five points``, ``on 13,``, ``the 12.``
_POSSESSIVE = r"your|his|her|its|their|my|own|either|black's|white's|F's|L's|opponent's|adversary's"
_PLACES = [
    re.compile(
        r"\b(" + before + r")\s+(" + spot + r"(?:(?:,\s*|\s+(?:and|or|to)\s+)" + spot + r")*)"
        r"(?:\s+(points?)\b|" + after + ")",
        re.IGNORECASE,
    )
    for before, spot, after in (
        (_POSSESSIVE, r"\d+\b", r"(?!\s*" + _NOUNS + r")"),
        (
            r"the|on|to|from|at|onto|of|empty|point|closed|open|both",
            r"\d+\b",
            r"(?=\s*(?:[,.;:)]|$)|\s+(?:to|and|or|from|in|on|by|for|but|with|is|are|need|make)\b)",
        ),
        (
            _POSSESSIVE + r"|the|on|to|from|at|onto|of|empty|point|closed|open|both",
            r"(?:two|three|four|five|six|ace|deuce|trey|trois|quatre|cinque|bar)",
            r"(?!)",
        ),
    )
]
_BOOK = re.compile(r"\b(Cady|Hoffmann|Parker|Crawley|Foster|Hoyle|Berkeley)\b")
#: The books whose transcription a quote backing a book's name may come from.
_PRINTED_IN = {"Hoyle": ("Hoyle", "Crawley", "Cady"), "Berkeley": ("Cady",)}
_VERDICT = re.compile(
    r"\b(?:doubtful|very bad|a bad play|bad today|rates?|rated|a shade|level with|almost level"
    r"|almost equal|close behind|nearly as well|about as well|first choice|"
    r"today's (?:analysis|choice)|the coach's measure)\b",
    re.IGNORECASE,
)
_GNU_KINDS = ("best", "rating", "loss", "cube", "match-equity")


def words(step: Step) -> str:
    """What a visitor reads of ``step`` that the lesson wrote (see the module docstring)."""
    if isinstance(step, PlayStep) and step.replay:
        return step.lesson_words
    parts = [step.text, getattr(step, "explain", "")]
    if isinstance(step, QuestionStep):
        parts.append(step.choices[step.answer])
    if isinstance(step, ChartStep):
        parts += [f"{book}'s figures" for book in step.books]
    for book in getattr(step, "books", ()):
        if isinstance(book, BookPlay):
            parts.append(f"{book.book}: {book.note}")
    return " ".join(" ".join(parts).split())


def _value(word: str) -> float:
    word = word.lower()
    if word[0].isdigit():
        return float(word)
    tens, _, unit = word.partition("-")
    return _WORD_VALUES[tens] + (_WORD_VALUES[unit] if unit else 0)


def _unplace(match: re.Match[str]) -> str:
    spots = re.split(r",\s*|\s+(?:and|or|to)\s+", match.group(2))
    noun = (match.group(3) or "").lower()
    named = noun == "point" or (noun == "points" and len(spots) > 1)
    if named or (not noun and all(int(s) <= 24 for s in spots)):
        return " ~ "
    return match.group(0)


def _figures(text: str) -> list[tuple[float, str]]:
    """The figures the words state: each value and the words it stands in."""
    for pattern in _NOT_FIGURES:
        text = pattern.sub(" ~ ", text)
    for place in _PLACES:
        text = place.sub(_unplace, text)
    for pattern in _DIE_FACES:
        text = pattern.sub(" ~ ", text)
    found = []
    for m in _FIGURE.finditer(text):
        after = re.match(r"%|\s+[a-z]+", text[m.end() :], re.IGNORECASE)
        label = m.group(0) + (after.group(0) if after else "")
        found.append((_value(m.group(1) or m.group(2)), label))
    return found


@dataclass(frozen=True)
class Claim:
    """One thing a step's words state: a figure (its ``value``), a book's name or a verdict."""

    kind: str  # "figure", "book" or "verdict"
    words: str  # as the step words it
    value: float = 0.0

    def __str__(self) -> str:
        return self.words if self.kind == "book" else repr(self.words)


def claims(step: Step) -> list[Claim]:
    """Every figure, book and verdict the step's words state (see the module docstring)."""
    text = words(step)
    said = [Claim("figure", label, value) for value, label in _figures(text)]
    said += [Claim("book", book) for book in dict.fromkeys(_BOOK.findall(text))]
    said += [Claim("verdict", m.group(0)) for m in _VERDICT.finditer(text)]
    return said


def _backing_figures(step: Step) -> set[float]:
    """Every figure the step's facts state: their values, a quote's words, a calculation's
    and a chance's figures (not the points and moves a fact is about), and its check's or
    its chart's figures."""
    named: set[float] = set()
    for fact in step.facts:
        claim = re.sub(r"^after .+?: ", "", fact)
        kind = claim.split(" ", 1)[0]
        named |= _RULE_FIGURES.get(kind, set())
        if kind == "quote":
            claim = claim.partition(":")[2]
        elif kind not in ("calc", "distance", "enter", "match-equity", "set", "cube"):
            claim = _MOVE.sub(" ", _THROW.sub(" ", claim.rpartition(" = ")[2]))
        named |= {_value(m.group(1) or m.group(2)) for m in _FIGURE.finditer(claim)}
    if isinstance(step, QuestionStep) and step.check:
        named.add(figures.check(step.check))
        named |= {float(w) for w in re.findall(r"\d+", step.check)}
    if isinstance(step, ChartStep):
        named |= {float(x) for pair in step.exact.items() for x in pair}
    return named


def _quotes(step: Step) -> dict[str, list[str]]:
    """The words the step's facts quote, by book."""
    found: dict[str, list[str]] = {}
    for fact in step.facts:
        m = re.match(r"(?:after .+?: )?quote (\S+) \d+: (.+)", fact)
        if m:
            found.setdefault(m.group(1), []).append(m.group(2))
    return found


def contradicted(step: Step, book: str) -> str | None:
    """How the step's quotes of ``book`` (or of a book printing its words) say the opposite
    of what its words say of it (:mod:`.quotes`), or None."""
    printers = _PRINTED_IN.get(book, (book,))
    quoted = " . ".join(q for b in printers for q in _quotes(step).get(b, ()))
    return quotes.contradiction(words(step), book, quoted, printers) if quoted else None


def unbacked(step: Step) -> list[Claim]:
    """The claims of ``step`` that none of its facts backs: a book's claim is backed by a
    quote of it only when the quote does not say the opposite (:func:`contradicted`)."""
    figures_named = _backing_figures(step)
    quoted = set(_quotes(step))
    kinds = {re.sub(r"^after .+?: ", "", f).split()[0] for f in step.facts if f.strip()}

    def backed(claim: Claim) -> bool:
        if claim.kind == "figure":
            return claim.value in figures_named
        if claim.kind == "book":
            printers = set(_PRINTED_IN.get(claim.words, (claim.words,)))
            return bool(quoted & printers) and contradicted(step, claim.words) is None
        return bool(kinds & set(_GNU_KINDS))

    return [claim for claim in claims(step) if not backed(claim)]


def _unbacked_message(step: Step, claim: Claim) -> str:
    why = contradicted(step, claim.words) if claim.kind == "book" else None
    if why:
        return f"states {claim} but its quote of {claim.words} says the opposite ({why})"
    return f"states {claim} but no fact backs it"


def cited_against(step: Step) -> list[str]:
    """Each section the step cites, of a book its words do not name, that its words go
    against: they forbid what the section advises (:func:`.quotes.forbids_advice`)."""
    try:
        cited = sources.parse(step.cite) if step.cite else []
    except sources.CitationError:
        return []  # reported as a bad citation
    named = set(_BOOK.findall(words(step)))
    found = []
    for c in cited:
        if c.book in named:
            continue
        section = sources.section_text(c)
        why = quotes.forbids_advice(words(step), c.book, section) if section else None
        if why:
            found.append(f"cites {c} but {why}")
    return found


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


def keith(position: Position, colour: Colour) -> int:
    """Tom Keith's count of ``colour``'s men (see the module docstring)."""
    men = [position.count(colour, p) for p in range(7)]
    count = position.pips(colour) + 2 * max(0, men[1] - 1) + max(0, men[2] - 1)
    count += max(0, men[3] - 3) + sum(1 for p in (4, 5, 6) if men[p] == 0)
    return count + count // 7 if position.turn == colour else count


def set_chance(mine: int, his: int, up: int = 3) -> Fraction:
    """The chance of winning a set of ``up`` games up from ``mine`` games to ``his``, each
    game an even chance and counting one."""
    if mine >= up:
        return Fraction(1)
    if his >= up:
        return Fraction(0)
    return (set_chance(mine + 1, his, up) + set_chance(mine, his + 1, up)) / 2


def set_odds(mine: int, his: int, up: int = 3) -> str:
    """The odds on a set as players give them: ``11 to 5`` on (or against) the side with
    ``mine`` games.

    >>> set_odds(1, 0), set_odds(2, 0), set_odds(2, 1), set_odds(0, 1)
    ('11 to 5', '7 to 1', '3 to 1', '5 to 11')
    """
    p = set_chance(mine, his, up)
    return f"{p.numerator} to {p.denominator - p.numerator}"


def rule_of_thumb(rule: str, position: Position) -> str:
    """The cube action and response a race rule of thumb (``keith``, ``8-9-12``) gives the
    side on roll, as ``double take`` or ``no-double pass`` (see the module docstring)."""
    me, him = position.turn, position.turn.other
    if rule == "keith":
        above = keith(position, me) - keith(position, him)
        double, take = above <= 4, above >= 2
    else:
        lead = 100 * (position.pips(him) - position.pips(me)) / position.pips(me)
        double, take = lead >= 8, lead < 12
    return f"{'double' if double else 'no-double'} {'take' if take else 'pass'}"


#: The figures each rule of thumb's definition states, backed by a fact that computes it.
_RULE_FIGURES = {"keith": {2.0, 3.0, 4.0}, "8-9-12": {8.0, 9.0, 12.0}}


_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
}


def _calculate(expression: str) -> float:
    """The value of a ``calc`` fact's arithmetic (ValueError for anything else)."""

    def value(node: ast.expr) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return cast("float", _OPERATORS[type(node.op)](value(node.left), value(node.right)))
        raise ValueError(f"{expression!r} is not plain arithmetic")

    try:
        tree = ast.parse(re.sub(r"(?<=[\d)\s])x(?=[\d(\s])", "*", expression), mode="eval")
        return value(tree.body)
    except (SyntaxError, ZeroDivisionError):
        raise ValueError(f"{expression!r} is not plain arithmetic") from None


def _one(fact: str, step: Step, board: Position, judge: Judge) -> str | None:
    """None if ``fact`` holds, else what is wrong (raises LookupError if it cannot be judged)."""
    position = _board(step, board)
    claim = fact
    got: object  # what the engine, a book or GNU Backgammon gives for the claim
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
        parts = left.split()
        post = parts[3:] == ["post-crawford"]
        chance = kazaross_xg2().equity(int(parts[1]), int(parts[2]), post_crawford=post)
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
    if claim.startswith("cube "):
        score = MatchScore.parse(claim.partition(" = ")[0][5:])
        missing = score.unsaid(words(step))
        if missing:
            return f"the step's words do not name the score ({', '.join(missing)})"
        got = _program_cube(position, score)
        return None if got == claim.split(" = ")[1] else f"GNU Backgammon says {got} at {score}"
    if claim.startswith(("keith = ", "8-9-12 = ")):
        rule, _, want = claim.partition(" = ")
        got = rule_of_thumb(rule, position)
        return None if got == want else f"the {rule} rule gives {got}"
    if claim.startswith("calc "):
        expression, _, want = claim[5:].rpartition(" = ")
        value = _calculate(expression)
        places = len(want.partition(".")[2])
        if not want or abs(round(value, places) - float(want)) > 1e-9:
            return f"it comes to {value:g}"
        return None
    left, _, right = claim.partition(" = ")
    parts, want = left.split(), right.strip()
    if not right:
        return "a fact is written 'WHAT = VALUE'"
    kind = parts[0]
    if kind == "throws":
        from kiosk.tutor.evaluators.bearoff import expected_throws, home_of

        colour = Colour.parse(parts[1])
        if not position.all_home(colour):
            return f"{colour} has men outside its home table: no bear-off count"
        value = expected_throws(home_of(position, colour))
        places = len(want.partition(".")[2])
        return None if f"{value:.{places}f}" == want else f"the bear-off count gives {value:.3f}"
    if kind in ("shots", "hitters", "men", "pips", "keith"):
        colour = Colour.parse(parts[1])
        if kind == "pips":
            got = position.pips(colour)
        elif kind == "keith":
            got = keith(position, colour)
        elif kind == "men":
            got = _men(position, colour, parts[2])
        elif kind == "shots" and len(parts) > 3:  # any of several blots
            from kiosk.tutor.features import shots_at

            got = shots_at(position, colour, [int(w) for w in parts[2:]])
        elif kind == "shots":
            got = shots(position, colour, int(parts[2]))
        else:
            hitters = _hitters(position, colour, int(parts[2]))
            return None if hitters == _rolls(want) else f"the engine finds {sorted(hitters)}"
        return None if str(got) == want else f"the engine finds {got}"
    if kind == "stranded":
        from kiosk.rules.stranded import stranded_count

        got = stranded_count(position, Colour.parse(parts[1]), int(parts[2])).total
        return None if str(got) == want else f"Parker's count gives {got}"
    if kind == "set":
        got = set_odds(int(parts[1]), int(parts[2]))
        return None if got == want else f"the exact odds are {got}"
    if kind == "distance":
        got = figures.shots_at_distance(int(parts[1]), [int(w) for w in parts[3:]])
        return None if str(got) == want else f"the engine finds {got}"
    if kind == "enter":
        got = figures.entering(int(parts[1]))
        return None if str(got) == want else f"the engine finds {got}"
    if kind in ("best", "rating", "loss"):
        if not isinstance(step, PlayStep):
            return f"{kind} needs a play step"
        ranked = judge.ranked(step.start, step.dice)
        best_play, best_equity = ranked[0]
        if kind == "best":
            want_play = step.start.parse_play(*step.dice, want)
            return None if want_play == best_play else f"GNU Backgammon's best is {best_play}"
        play = step.start.parse_play(*step.dice, " ".join(parts[1:]))
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


@dataclass(frozen=True)
class MatchScore:
    """A match score for a cube decision: the side on roll ``mine`` points from winning the
    match, the other ``his``; ``crawford`` is ``""``, ``"crawford"`` or ``"post-crawford"``.

    >>> str(MatchScore.parse("2 1 post-crawford"))
    '2-away, 1-away, post-Crawford'
    """

    mine: int
    his: int
    crawford: str = ""

    @classmethod
    def parse(cls, text: str) -> MatchScore:
        """``A B [crawford|post-crawford]`` (ValueError for anything else)."""
        m = re.fullmatch(r"(\d+) (\d+)(?: (crawford|post-crawford))?", text.strip())
        if not m or not 1 <= int(m.group(1)) <= 25 or not 1 <= int(m.group(2)) <= 25:
            raise ValueError(f"write the score as 'A B [crawford|post-crawford]', not {text!r}")
        score = cls(int(m.group(1)), int(m.group(2)), m.group(3) or "")
        if (1 in (score.mine, score.his)) != bool(score.crawford):
            raise ValueError(
                "say crawford or post-crawford exactly when a side is 1 away"
                if 1 in (score.mine, score.his)
                else "crawford and post-crawford need a side 1 away"
            )
        if score.mine == score.his == 1:
            raise ValueError("at 1-away against 1-away the cube is dead")
        return score

    def __str__(self) -> str:
        word = {"": "", "crawford": ", Crawford", "post-crawford": ", post-Crawford"}[self.crawford]
        return f"{self.mine}-away, {self.his}-away{word}"

    def unsaid(self, text: str) -> list[str]:
        """What of the score ``text`` does not name."""
        need = [f"{self.mine}-away", f"{self.his}-away"] + (["Crawford"] if self.crawford else [])
        return [w for w in need if w.lower() not in text.lower()]

    def fibs_fields(self, fields: list[str]) -> None:
        """Write the score into a FIBS board line's fields (the side on roll is "you")."""
        length = max(self.mine, self.his)
        fields[3:6] = [str(length), str(length - self.mine), str(length - self.his)]
        # the last two fields: the match is played without the Crawford rule / the
        # Crawford game is over (both 0 in the Crawford game itself)
        fields[-2:] = ["0", "1" if self.crawford == "post-crawford" else "0"]


def _program_cube(position: Position, score: MatchScore | None = None) -> str:
    """The gnubg program's cube action and response for the side on roll: money play, or
    at a match ``score``."""
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
        if score is not None:
            score.fibs_fields(fields)
        action = program.request(":".join(fields))
        fields[40] = "1"  # the side on roll has doubled; the other answers
        response = program.request(":".join(fields))
    finally:
        program.close()
    action = "double" if action == "double" else "no-double"
    return f"{action} {'take' if response in ('take', 'beaver') else 'pass'}"


def check_step(step: Step, board: Position, judge: Judge | None = None) -> list[Problem]:
    """Every declared fact of ``step`` checked; ``board`` is the position it shows."""
    judge = judge or Judge()
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


def check_lesson(lesson: Lesson, judge: Judge | None = None) -> list[Problem]:
    """Every step's facts and citations checked, every claim of its words backed (the
    claims of the lesson's title and summary, as step 0, by any fact of the lesson), and
    every play a step names rated by GNU Backgammon (:func:`.ratings.play_problems`)."""
    judge = judge or Judge()
    heading = ExplainStep(
        number=0,
        kind="explain",
        text=f"{lesson.info.title}. {lesson.info.summary}",
        facts=tuple(fact for step in lesson.steps for fact in step.facts),
    )
    problems = [
        Problem(0, "", f"the title or summary states {claim} but no fact of the lesson backs it")
        for claim in unbacked(heading)
    ]
    board = Position.standard()
    for step in lesson.steps:
        board = getattr(step, "position", None) or getattr(step, "board", None) or board
        for claim in unbacked(step):
            problems.append(Problem(step.number, "", _unbacked_message(step, claim)))
        problems += [Problem(step.number, "cite", message) for message in cited_against(step)]
        problems += check_step(step, board, judge)
        cites = [step.cite, *(b.cite for b in getattr(step, "books", ()) if hasattr(b, "cite"))]
        for cite in cites:
            if not cite and step.kind != "setup":
                problems.append(Problem(step.number, "cite", "no citation"))
            for message in sources.check(cite) if cite else ():
                problems.append(Problem(step.number, "cite", message))
        if isinstance(step, PlayStep):
            problems += _play_problems(step, judge, lesson)
            board = step.plays[step.accept[0]].result
    return problems


def _play_problems(step: PlayStep, judge: Judge, lesson: Lesson) -> list[Problem]:
    try:
        found = play_problems(step, judge, lesson.profile)
        stale = (
            stored_problem(lesson.id, step, rate_step(step, judge, lesson.profile))
            if lesson.path.resolve().parent == RATINGS_FILE.resolve().parent  # installed
            else None
        )
    except LookupError as err:
        return [Problem(step.number, "plays", str(err), skipped=True)]
    if stale is not None:
        found.append(stale)
    return [Problem(step.number, "plays", message) for message in found]
