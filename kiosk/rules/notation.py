"""Move notation in GNU Backgammon's style: ``24/18 13/8``, ``8/5(2)``, ``bar/22*``, ``6/off``.

Formatting follows GNU Backgammon: moves sorted from the highest point, the
steps of one man joined into one move (``24/13``), an intermediate point kept
only where the man hit there (``24/18*/13``), repeated moves counted (``(2)``).

>>> from kiosk.rules import Position
>>> start = Position.standard()
>>> str(start.parse_play(6, 6, '24/18(2) 13/7(2)'))
'24/18(2) 13/7(2)'
>>> str(start.parse_play(6, 5, '24/13'))
'24/13'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.errors import TableError
from kiosk.rules.board import BAR, OFF


class InvalidNotationError(TableError, ValueError):
    """Text that is not a move in GNU Backgammon notation."""


class IllegalPlayError(TableError, ValueError):
    """A play that the rules do not allow for this position and roll."""


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


@dataclass(frozen=True, slots=True)
class Step:
    """One man moved by one die: from ``src`` to ``dst`` (mover's numbering), hitting or not.

    >>> str(Step(25, 22, 3, hit=True))
    'bar/22*'
    """

    src: int
    dst: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_name(self.src)}/{_name(self.dst)}{'*' if self.hit else ''}"


def format_play(steps: Iterable[Step]) -> str:
    """The GNU Backgammon notation of a play's steps (``""`` for a play with no steps).

    As GNU Backgammon's ``FormatMove`` writes it: the moves from the highest point, one man's
    steps joined (an intermediate point kept only where it hit), the same move made by
    several men counted, and one star for each point where a blot was hit, on the first
    move to land there:

    >>> from kiosk.rules import Position
    >>> str(Position.from_id('4HPhAwTgc+IBMA').parse_play(6, 4, '10/4* 8/4'))
    '10/4* 8/4'
    """
    steps = tuple(steps)
    if len(steps) == 2 and not (steps[0].hit or steps[1].hit):  # most plays: the same words
        return _two_steps(steps[0], steps[1])
    return _joined(steps)


def _joined(steps: tuple[Step, ...]) -> str:
    """:func:`format_play` of any steps."""
    hit_points = {s.dst for s in steps if s.hit}
    moves: list[tuple[int, int] | None] = [*sorted(((s.src, s.dst) for s in steps), reverse=True)]
    paths: dict[tuple[int, ...], int] = {}  # each man's path, and how many men made it
    for i, move in enumerate(moves):
        if move is None:
            continue
        path = [move[0]]
        end = move[1]
        # Join the steps of one man: a move starting where this one ends.
        for j in range(i + 1, len(moves)):
            other = moves[j]
            if other is not None and other[0] == end:
                if end in hit_points:  # hit there: keep the intermediate point
                    path.append(end)
                end = other[1]
                moves[j] = None
        path.append(end)
        paths[tuple(path)] = paths.get(tuple(path), 0) + 1
    starred: set[int] = set()
    out = []
    for way, count in paths.items():
        text = _NAMES[way[0]]
        for point in way[1:-1]:
            text += _LANDINGS[point][True]
            starred.add(point)
        end = way[-1]
        hit = end in hit_points and end not in starred
        starred |= {end} if hit else set()
        text += _LANDINGS[end][hit]
        out.append(text if count == 1 else f"{text}({count})")
    return " ".join(out)


def _two_steps(first: Step, second: Step) -> str:
    """:func:`format_play` of two steps that hit nothing, as :func:`_joined` writes them."""
    (s1, d1), (s2, d2) = sorted(((first.src, first.dst), (second.src, second.dst)), reverse=True)
    if s2 == d1:  # one man moved twice
        return f"{_NAMES[s1]}/{_NAMES[d2]}"
    if s1 == s2 and d1 == d2:
        return f"{_NAMES[s1]}/{_NAMES[d1]}(2)"
    return f"{_NAMES[s1]}/{_NAMES[d1]} {_NAMES[s2]}/{_NAMES[d2]}"


_NAMES = tuple(_name(p) for p in range(BAR + 1))
# each point as the end of a move: (not hit, hit), e.g. ("/22", "/22*")
_LANDINGS = tuple((f"/{name}", f"/{name}*") for name in _NAMES)


_POINT = r"(?:bar|b|off|o|\d{1,2})"
_MOVE = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$", re.IGNORECASE)


def _point(text: str) -> int:
    t = text.lower().rstrip("*")
    if t in ("bar", "b"):
        return BAR
    if t in ("off", "o"):
        return OFF
    n = int(t)
    if not 0 <= n <= 25:
        raise InvalidNotationError(f"there is no point {n} (points are 1-24, bar and off)")
    return n


def parse_moves(text: str) -> list[list[int]]:
    """The men's paths a notation names: one list of points per man moved.

    >>> parse_moves('bar/22* 13/7(2)')
    [[25, 22], [13, 7], [13, 7]]
    """
    paths: list[list[int]] = []
    for token in text.replace(",", " ").split():
        m = _MOVE.match(token)
        if not m:
            raise InvalidNotationError(
                f"{token!r} is not a move; write it like 24/18, bar/22*, 6/off or 8/5(2)"
            )
        points = [_point(p) for p in m.group(1).split("/")]
        for a, b in zip(points, points[1:], strict=False):
            if a == OFF or b == BAR:
                raise InvalidNotationError(f"{token!r}: men enter from the bar and bear off")
            if b >= a:
                raise InvalidNotationError(
                    f"{token!r} moves backwards: men move from higher points to lower ones"
                )
        count = int(m.group(2) or 1)
        if count < 1:
            raise InvalidNotationError(f"{token!r}: a move is repeated at least once")
        paths.extend(list(points) for _ in range(count))
    return paths
