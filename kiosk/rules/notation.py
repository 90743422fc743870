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
from itertools import groupby

from kiosk.rules.board import BAR, OFF


class InvalidNotationError(ValueError):
    """Text that is not a move in GNU Backgammon notation."""


class IllegalPlayError(ValueError):
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
    """The GNU Backgammon notation of a play's steps (``""`` for a play with no steps)."""
    steps = tuple(steps)
    # As in GNU Backgammon, every landing on a point where a blot stood is marked.
    hit_points = {s.dst for s in steps if s.hit}
    moves: list[tuple[int, int] | None] = sorted(((s.src, s.dst) for s in steps), reverse=True)
    texts = []
    for i, move in enumerate(moves):
        if move is None:
            continue
        src, end = move
        text = _NAMES[src]
        # Join the steps of one man: a move starting where this one ends.
        for j in range(i + 1, len(moves)):
            other = moves[j]
            if other is not None and other[0] == end:
                if end in hit_points:  # hit there: keep the intermediate point
                    text += _LANDINGS[end][True]
                end = other[1]
                moves[j] = None
        texts.append(text + _LANDINGS[end][end in hit_points])
    out = []
    for text, same in groupby(texts):
        count = len(list(same))
        out.append(text if count == 1 else f"{text}({count})")
    return " ".join(out)


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
