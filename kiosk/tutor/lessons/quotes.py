"""Whether a book's words, quoted or cited, say what a lesson's words say of that book.

A step names a book (or cites it) and quotes it among its facts. A passage of the book, a
quoted line or a cited section, backs what the step says of it only when it does not say
the opposite:

* the words a step says of a book (:func:`attributed`) are the clauses that name it and
  the clauses after them that name no other book (``It spoils his bearing off`` goes on
  with what ``Crawley and Cady both advise``); a book the step only cites is said the
  clauses that name no book;
* every key term (a word of four letters or more, not a common word, taken by its stem)
  is said plainly or under a negation (``not``, ``never``, ``no``, ``rather than``...
  within a few words before it);
* a passage *contradicts* the words when a key term they share is said only plainly in
  one and only under a negation in the other: the book prints ``he should wait for a
  blot`` where the step has him say ``do not wait``.

A book is backed by a quote of it that the step's words do not contradict. A section a
step cites without naming its book is held to less, since a whole section says many
things: the step must not forbid (``never``, ``do not``...) what the section advises
plainly and nowhere under a negation (:func:`forbids_advice`).

>>> said = "Crawley and Cady both advise it. But both warn: run, and do not wait for a shot."
>>> contradiction(said, "Cady", "he should wait for a blot")
'the book says wait, the step says not wait'
>>> said = "Crawley warns you to run and not wait; Cady tells you to wait for a blot."
>>> contradiction(said, "Cady", "he should wait for a blot") is None
True
>>> contradiction(said, "Crawley", "never wait for a blot") is None
True
>>> said = "Crawley: be bold rather than careful."
>>> contradiction(said, "Crawley", "Be over-bold rather than over-wary") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable

BOOKS = re.compile(r"\b(Cady|Hoffmann|Parker|Crawley|Foster|Hoyle|Berkeley)\b")
_NEGATORS = frozenset(
    "not never no nor none neither without cannot nothing instead until don't doesn't "
    "didn't "
    "isn't aren't won't can't shouldn't mustn't".split()
)
_REACH = 3  # the words after a negation that it governs (small words not counted)
_SMALL = frozenset(
    "a an the he she it you his her its their has have had is are was be been".split()
)
#: Common words that carry no claim of their own.
_COMMON = frozenset(
    """
    about above after again against also always another anything away back been before
    being below best better between both cannot could does doing done down each either
    else even ever every from further gives have having here himself into itself just keep
    keeps kept less like made make makes many more most much must next only other others
    ought over same says said should since some such than that their them then there these
    they thing this those though thus till under until upon very well were what when where
    whether which while whom whose will with within would your yours yourself adversary
    opponent player players game games point points table tables play played plays playing
    throw throws thrown take takes taken first second rule rules book books text printed
    tells tell told advice advise advises warns warn rather
    """.split()
)


def _stem(word: str) -> str:
    word = word.lower().replace("’", "'").removesuffix("'s")
    for suffix in ("ings", "ing", "edly", "ed", "es", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def terms(text: str) -> dict[str, set[bool]]:
    """Each key term of ``text`` (by its stem) and how it is said: True under a negation.

    >>> terms("do not wait for a shot; run rather than wait")
    {'wait': {True}, 'shot': {True}}
    """
    found: dict[str, set[bool]] = {}
    for clause in re.split(r"[.;:!?,()]|\bbut\b", text, flags=re.IGNORECASE):
        words = re.findall(r"[A-Za-z’'-]+", clause)
        negated_until, rather, i = -1, False, 0
        for word in words:
            low = word.lower().replace("’", "'")
            if low in _SMALL:
                continue
            i += 1
            if low in _NEGATORS or (low == "than" and rather):
                negated_until, rather = i + _REACH, False
                continue
            rather = rather or low == "rather"
            for part in low.split("-"):
                if len(part) >= 4 and part not in _COMMON:
                    found.setdefault(_stem(part), set()).add(i <= negated_until)
    return found


def _clauses(text: str) -> list[str]:
    return [c for c in re.split(r"(?<=[.;!?])\s+|\s+but\s+|:\s+", text) if c.strip()]


def attributed(text: str, book: str, printed_in: Iterable[str] = ()) -> str:
    """The words of ``text`` said of ``book`` (or of a book that prints its words): the
    clauses naming it and those after them naming no other book; if it is never named, the
    clauses naming no book at all."""
    names = {book, *printed_in}
    said, current, unnamed = [], set[str](), []
    for clause in _clauses(text):
        named = set(BOOKS.findall(clause))
        if named:
            current = named
        elif not current:
            unnamed.append(clause)
        if current & names:
            said.append(clause)
    return " ".join(said) if said else " ".join(unnamed)


def contradiction(text: str, book: str, passage: str, printed_in: Iterable[str] = ()) -> str | None:
    """How ``passage`` of ``book`` says the opposite of what ``text`` says of the book, or
    None (see the module docstring)."""
    said = terms(attributed(text, book, printed_in))
    for term, how in terms(passage).items():
        if term in said and not said[term] & how:
            book_says = ("not " if True in how else "") + term
            step_says = ("not " if True in said[term] else "") + term
            return f"the book says {book_says}, the step says {step_says}"
    return None


_FORBID = re.compile(
    r"\b(?:never|do not|don't|must not|should not)\s+((?:[A-Za-z'-]+\s+){0,2}[A-Za-z'-]+)", re.I
)


def forbidden(text: str) -> set[str]:
    """The key terms ``text`` forbids: within a few words after ``never``, ``do not``...

    >>> sorted(forbidden("Run: never wait for a shot."))
    ['wait']
    """
    return {term for m in _FORBID.finditer(text) for term in terms(m.group(1))}


def forbids_advice(text: str, book: str, section: str) -> str | None:
    """How a step that cites ``section`` of ``book`` (without naming it) forbids what the
    section says plainly and nowhere under a negation, or None."""
    said = terms(section)
    for term in sorted(forbidden(attributed(text, book))):
        if said.get(term) == {False}:
            return f"the step forbids {term}, which the cited section advises"
    return None
