"""The board as an SVG picture for the web pages, drawn from the display's view model.

:func:`picture` takes what a :class:`~kiosk.display.view.TableView` shows (the men as the
table senses them, or as the game has them; the dice, the cube, the last play's arrows,
the lifted man and where it may go, a wrong placement, a lesson's lit points) and
:func:`svg` draws it the way white, sitting at the bottom edge, sees the table: points 1-6
bottom right, 19-24 top right, the bar in the middle, the trays on the right. Points are
numbered for the side on roll, as GNU Backgammon numbers them.

Colours are the table's own (:mod:`kiosk.display.palette`, Okabe and Ito's for every
mark), so a mark on the projector is the colour it is on the table, and no mark is told by
its colour alone: the men that may move have their point outlined, the lifted man's point a
pale outline, the points it may go to a dashed one with a dot, a wrong placement a cross, a
lesson's points a star, the last play solid arrows and a candidate play dashed ones.

>>> from kiosk.rules import Position
>>> text = svg(from_position(Position.standard(), dice=(3, 1)))
>>> text.startswith("<svg") and 'data-dice="3-1"' in text and text.count('class="man ') == 30
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import escape

from kiosk.display import palette
from kiosk.display.calibration import COLUMNS
from kiosk.display.view import TableView
from kiosk.events import Kind
from kiosk.rules import Position
from kiosk.table.sensing import true_counts

WIDTH, HEIGHT = 1000, 800
LEFT, BAR_LEFT, BAR_RIGHT, RIGHT = 40.0, 430.0, 490.0, 880.0
TOP, BOTTOM = 60.0, 740.0
POINT_W = (BAR_LEFT - LEFT) / 6
TRAY_X, TRAY_W = 905.0, 70.0
R = 29.0  # a man's radius
STACK = 5  # men drawn on a point before the count is written on the last one


def _hex(rgb: palette.RGB) -> str:
    """An SVG colour from the display's RGB (the palette's colours mean the same here)."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


# The board and every mark in the table's own colours (kiosk.display.palette), so that a
# mark on the projector is the colour it is under the table's clear top.
FRAME, FELT, BAR_WOOD = _hex(palette.FRAME), _hex(palette.FELT), _hex(palette.BAR_WOOD)
POINT_LIGHT, POINT_DARK = _hex(palette.POINT_LIGHT), _hex(palette.POINT_DARK)
NUMBER = _hex(palette.FRAME_NUMBER)
MAN_WHITE, MAN_BLACK = _hex(palette.MAN_WHITE), _hex(palette.MAN_BLACK)
MOVABLE, LIFTED, TARGET = _hex(palette.MOVABLE), _hex(palette.LIFTED), _hex(palette.TARGET)
ILLEGAL, ARROW, LIGHT = _hex(palette.ILLEGAL), _hex(palette.ARROW), _hex(palette.LIGHT)
EDGE = _hex(palette.EDGE)  # the dark edge round the pale marks and the targets' dots
ORANGE = _hex(palette.ORANGE)  # the dice's edge
PREVIEW = _hex(palette.SKY_BLUE)  # a candidate play, dashed: the table's "put a man there"
# Only the web board's: the men's edges (the table's men are real ones).
MAN_WHITE_EDGE, MAN_BLACK_EDGE = "#3a3a3a", "#d8d8d8"


@dataclass(frozen=True)
class Picture:
    """What one drawing of the board shows; locations are the table's (white's numbering)."""

    men: Mapping[str, tuple[int, int]]
    turn: str = "white"
    dice: tuple[int, int] | None = None
    cube: tuple[int, str | None] = (1, None)
    arrows: tuple[tuple[str, str], ...] = ()  # the last play
    preview: tuple[tuple[str, str], ...] = ()  # a candidate play shown, dashed
    lifted: str | None = None
    targets: tuple[str, ...] = ()
    illegal: str | None = None
    lights: tuple[str, ...] = ()
    movable: tuple[str, ...] = ()
    position_id: str = ""

    def men_key(self) -> str:
        """A short digest of where the men are (see :func:`men_key`)."""
        return men_key(self.men)

    def key(self) -> str:
        """A short digest of everything drawn (the pages compare it to see a change)."""
        text = repr(
            (
                sorted(self.men.items()),
                self.turn,
                self.dice,
                self.cube,
                self.arrows,
                self.preview,
                self.lifted,
                self.targets,
                self.illegal,
                self.lights,
                self.movable,
            )
        )
        return hashlib.blake2s(text.encode(), digest_size=6).hexdigest()


def men_key(men: Mapping[str, tuple[int, int]]) -> str:
    """A short digest of where the men are (the SVG's ``data-men``: a page's board is known
    by it).

    >>> men_key({"24": (2, 0), "1": (0, 2)}) == men_key({"1": (0, 2), "24": (2, 0), "5": (0, 0)})
    True
    """
    shown = sorted((where, (w, b)) for where, (w, b) in men.items() if w or b)
    return hashlib.blake2s(repr(shown).encode(), digest_size=6).hexdigest()


def from_view(view: TableView, preview: tuple[tuple[str, str], ...] = ()) -> Picture:
    """The board a :class:`TableView` shows: the men as sensed if the table reports them."""
    men: Mapping[str, tuple[int, int]] | None = view.board
    if not men or not any(w or b for w, b in men.values()):
        men = true_counts(view.position)
    illegal = view.illegal[0] if view.illegal else None
    lesson = view.mode == Kind.LESSON
    return Picture(
        men=dict(men),
        turn="white" if lesson else view.turn,  # a lesson numbers the points for its learner
        dice=view.dice,
        cube=view.cube,
        arrows=tuple(view.last_play) if not lesson or view.preview else (),
        preview=preview,
        lifted=view.lifted,
        targets=tuple(view.targets),
        illegal=illegal or None,
        lights=tuple(view.lights),
        movable=tuple(view.movable),
        position_id=view.position.position_id(),
    )


def from_position(
    position: Position,
    dice: tuple[int, int] | None = None,
    arrows: Iterable[tuple[str, str]] = (),
) -> Picture:
    """A position as the game has it (a handout's, a lesson's), with a play's arrows."""
    return Picture(
        men=true_counts(position),
        turn=str(position.turn),
        dice=dice,
        arrows=tuple(arrows),
        position_id=position.position_id(),
    )


# -- where things are --------------------------------------------------------------------------


def _point_x(point: int) -> float:
    column = COLUMNS[str(point)][0]  # 0-11 from the left, as the table's display has it
    left = LEFT if column < 6 else BAR_RIGHT
    return left + POINT_W * (column % 6 + 0.5)


def _top(point: int) -> bool:
    return COLUMNS[str(point)][1]


def _man_y(top: bool, k: int) -> float:
    return TOP + R + 2 * R * k if top else BOTTOM - R - 2 * R * k


def anchor(where: str) -> tuple[float, float]:
    """Where an arrow to or from a location ends."""
    if where.isdigit():
        point = int(where)
        return _point_x(point), _man_y(_top(point), 3)
    bar_x = (BAR_LEFT + BAR_RIGHT) / 2
    if where == "bar-white":
        return bar_x, _man_y(False, 2)
    if where == "bar-black":
        return bar_x, _man_y(True, 2)
    if where == "off-white":
        return TRAY_X + TRAY_W / 2, BOTTOM - 120
    return TRAY_X + TRAY_W / 2, TOP + 120


# -- drawing ------------------------------------------------------------------------------------


def svg(picture: Picture, title: str = "") -> str:
    """The SVG text of ``picture`` (presentation attributes only: no inline styles)."""
    dice = f"{picture.dice[0]}-{picture.dice[1]}" if picture.dice else ""
    label = escape(title or _describe(picture), quote=True)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="board" role="img" aria-label="{label}" data-key="{picture.key()}" '
        f'data-men="{picture.men_key()}" '
        f'data-position="{escape(picture.position_id)}" data-dice="{dice}" '
        f'data-turn="{picture.turn}">',
        f"<title>{label}</title>",
        _defs(),
        f'<rect class="frame" x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="18" '
        f'fill="{FRAME}"/>',
        f'<rect class="felt" x="{LEFT}" y="{TOP}" width="{BAR_LEFT - LEFT}" '
        f'height="{BOTTOM - TOP}" fill="{FELT}"/>',
        f'<rect class="felt" x="{BAR_RIGHT}" y="{TOP}" width="{RIGHT - BAR_RIGHT}" '
        f'height="{BOTTOM - TOP}" fill="{FELT}"/>',
        f'<rect class="bar" x="{BAR_LEFT}" y="{TOP}" width="{BAR_RIGHT - BAR_LEFT}" '
        f'height="{BOTTOM - TOP}" fill="{BAR_WOOD}"/>',
        f'<rect class="felt" x="{TRAY_X}" y="{TOP}" width="{TRAY_W}" height="{BOTTOM - TOP}" '
        f'rx="8" fill="{FELT}"/>',
    ]
    for point in range(1, 25):
        out.append(_triangle(point))
    out.extend(_numbers(picture.turn))
    marks, glyphs = _marks(picture)
    out.extend(marks)
    for where, (white, black) in sorted(picture.men.items()):
        if white:
            out.extend(_men(where, "white", white))
        if black:
            out.extend(_men(where, "black", black))
    out.extend(glyphs)
    out.extend(_arrows(picture.arrows, ARROW, dashed=False))
    out.extend(_arrows(picture.preview, PREVIEW, dashed=True))
    if picture.dice:
        out.extend(_dice(picture.dice, picture.turn))
    out.extend(_cube(picture.cube))
    out.append("</svg>")
    return "".join(out)


def _describe(picture: Picture) -> str:
    throw = f", {picture.turn} to play {picture.dice[0]}-{picture.dice[1]}" if picture.dice else ""
    return f"The board{throw}"


def _defs() -> str:
    return (
        "<defs>"
        f'<marker id="head-play" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{ARROW}"/></marker>'
        f'<marker id="head-preview" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{PREVIEW}"/></marker>'
        "</defs>"
    )


def _triangle(point: int) -> str:
    x = _point_x(point)
    half = POINT_W / 2 - 2
    top = _top(point)
    base = TOP if top else BOTTOM
    tip = base + (BOTTOM - TOP) * 0.42 * (1 if top else -1)
    colour, shade = (POINT_DARK, "dark") if point % 2 else (POINT_LIGHT, "light")
    return (
        f'<polygon class="point {shade}" data-point="{point}" points="{x - half:.1f},{base} '
        f'{x + half:.1f},{base} {x:.1f},{tip:.1f}" fill="{colour}"/>'
    )


def _numbers(turn: str) -> list[str]:
    """Each point's number for the side on roll (large, by the board) and for the other
    side (small, by the frame's edge): a play is read in its mover's numbering."""
    out = []
    for point in range(1, 25):
        mine = point if turn != "black" else 25 - point
        top = _top(point)
        x = _point_x(point)
        near, far = (TOP - 8, 20.0) if top else (BOTTOM + 27, HEIGHT - 8.0)
        out.append(
            f'<text class="number" x="{x:.1f}" y="{near}" text-anchor="middle" font-size="24" '
            f'font-family="sans-serif" font-weight="bold" fill="{NUMBER}">{mine}</text>'
            f'<text class="number other" x="{x:.1f}" y="{far}" text-anchor="middle" '
            f'font-size="15" font-family="sans-serif" fill="{NUMBER}" fill-opacity="0.6">'
            f"{25 - mine}</text>"
        )
    other = "black" if turn != "black" else "white"
    out.append(
        f'<text class="number other" x="{TRAY_X + TRAY_W / 2}" y="20" text-anchor="middle" '
        f'font-size="13" font-family="sans-serif" fill="{NUMBER}" fill-opacity="0.6">'
        f"{other}</text>"
        f'<text class="number" x="{TRAY_X + TRAY_W / 2}" y="{TOP - 8}" text-anchor="middle" '
        f'font-size="15" font-family="sans-serif" font-weight="bold" fill="{NUMBER}">'
        f"{turn if turn == 'black' else 'white'}</text>"
    )
    return out


def _outline(where: str) -> str:
    """The outline of a location: a point's triangle, or the bar's or a tray's half."""
    if where.isdigit():
        point = int(where)
        x, half, top = _point_x(point), POINT_W / 2 - 4, _top(point)
        base = TOP + 3 if top else BOTTOM - 3
        tip = base + (BOTTOM - TOP) * 0.42 * (1 if top else -1)
        return f'points="{x - half:.1f},{base} {x + half:.1f},{base} {x:.1f},{tip:.1f}"'
    if where.startswith("bar-"):
        x0, x1 = BAR_LEFT + 3, BAR_RIGHT - 3
    else:
        x0, x1 = TRAY_X + 3, TRAY_X + TRAY_W - 3
    middle = (TOP + BOTTOM) / 2
    y0, y1 = (TOP + 3, middle - 10) if where.endswith("black") else (middle + 10, BOTTOM - 3)
    return f'points="{x0},{y0} {x1},{y0} {x1},{y1} {x0},{y1}"'


def _marks(picture: Picture) -> tuple[list[str], list[str]]:
    """The outlines (drawn under the men) and the symbols (over them) of every mark."""
    out: list[str] = []
    glyphs: list[str] = []
    for where in picture.movable:
        out.append(
            f'<polygon class="edge" {_outline(where)} fill="none" stroke="{EDGE}" '
            f'stroke-width="8"/>'
            f'<polygon class="mark movable" {_outline(where)} fill="none" stroke="{MOVABLE}" '
            f'stroke-width="4"/>'
        )
    for where in picture.lights:
        x, y = anchor(where)
        out.append(
            f'<polygon class="mark light" data-where="{where}" {_outline(where)} '
            f'fill="{LIGHT}" fill-opacity="0.35" stroke="{LIGHT}" stroke-width="6"/>'
        )
        glyphs.append(
            f'<text x="{x:.1f}" y="{y + 12:.1f}" text-anchor="middle" font-size="56" '
            f'fill="{LIGHT}" stroke="#000" stroke-width="2">★</text>'
        )
    for where in picture.targets:
        x, y = anchor(where)
        out.append(
            f'<polygon class="mark target" data-where="{where}" {_outline(where)} '
            f'fill="{TARGET}" fill-opacity="0.3" stroke="{TARGET}" stroke-width="6" '
            f'stroke-dasharray="14 8"/>'
        )
        glyphs.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="10" fill="{TARGET}" stroke="{EDGE}" '
            f'stroke-width="2"/>'
        )
    if picture.lifted:
        out.append(
            f'<polygon class="edge" {_outline(picture.lifted)} fill="none" stroke="{EDGE}" '
            f'stroke-width="12"/>'
            f'<polygon class="mark lifted" data-where="{picture.lifted}" '
            f'{_outline(picture.lifted)} fill="none" stroke="{LIFTED}" stroke-width="6"/>'
        )
    if picture.illegal:
        x, y = anchor(picture.illegal)
        out.append(
            f'<polygon class="mark illegal" data-where="{picture.illegal}" '
            f'{_outline(picture.illegal)} fill="{ILLEGAL}" fill-opacity="0.35" '
            f'stroke="{ILLEGAL}" stroke-width="8"/>'
        )
        glyphs.append(
            f'<path d="M{x - 22:.1f},{y - 22:.1f} L{x + 22:.1f},{y + 22:.1f} '
            f'M{x + 22:.1f},{y - 22:.1f} L{x - 22:.1f},{y + 22:.1f}" stroke="#fff" '
            f'stroke-width="14" stroke-linecap="round"/>'
            f'<path d="M{x - 22:.1f},{y - 22:.1f} L{x + 22:.1f},{y + 22:.1f} '
            f'M{x + 22:.1f},{y - 22:.1f} L{x - 22:.1f},{y + 22:.1f}" stroke="{ILLEGAL}" '
            f'stroke-width="8" stroke-linecap="round"/>'
        )
    return out, glyphs


def _men(where: str, colour: str, count: int) -> list[str]:
    body, edge = (MAN_WHITE, MAN_WHITE_EDGE) if colour == "white" else (MAN_BLACK, MAN_BLACK_EDGE)
    out = []
    if where.startswith("off-"):
        top = where == "off-black"
        for k in range(count):
            y = TOP + 8 + 15 * k if top else BOTTOM - 20 - 15 * k
            out.append(
                f'<rect class="man {colour}" x="{TRAY_X + 8}" y="{y}" width="{TRAY_W - 16}" '
                f'height="12" rx="4" fill="{body}" stroke="{edge}" stroke-width="2"/>'
            )
        return out
    if where.startswith("bar-"):
        x, top = (BAR_LEFT + BAR_RIGHT) / 2, where == "bar-black"
        ys = [(_man_y(top, k) + (30 if top else -30)) for k in range(min(count, STACK))]
    else:
        point = int(where)
        x, top = _point_x(point), _top(point)
        ys = [_man_y(top, k) for k in range(min(count, STACK))]
    for y in ys:
        out.append(
            f'<circle class="man {colour}" cx="{x:.1f}" cy="{y:.1f}" r="{R - 1}" fill="{body}" '
            f'stroke="{edge}" stroke-width="3"/>'
        )
    if count > STACK:
        out.append(
            f'<text x="{x:.1f}" y="{ys[-1] + 10:.1f}" text-anchor="middle" font-size="30" '
            f'font-family="sans-serif" font-weight="bold" fill="{edge}">{count}</text>'
        )
    return out


def _arrows(arrows: tuple[tuple[str, str], ...], colour: str, dashed: bool) -> list[str]:
    out = []
    marker = "head-preview" if dashed else "head-play"
    dash = ' stroke-dasharray="18 10"' if dashed else ""
    for src, dst in arrows:
        (x0, y0), (x1, y1) = anchor(src), anchor(dst)
        bend = min(70.0, abs(x1 - x0) * 0.25) if _top_of(src) == _top_of(dst) else 0.0
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2 + (bend if _top_of(src) else -bend)
        d = f"M{x0:.1f},{y0:.1f} Q{mx:.1f},{my:.1f} {x1:.1f},{y1:.1f}"
        out.append(
            f'<path class="arrow{" preview" if dashed else ""}" d="{d}" fill="none" '
            f'stroke="#000" stroke-opacity="0.6" stroke-width="14"{dash}/>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="8"{dash} '
            f'marker-end="url(#{marker})"/>'
        )
    return out


def _top_of(where: str) -> bool:
    return _top(int(where)) if where.isdigit() else where.endswith("black")


def _dice(dice: tuple[int, int], turn: str) -> list[str]:
    centre = (BAR_RIGHT + RIGHT) / 2 if turn != "black" else (LEFT + BAR_LEFT) / 2
    body, pip = (MAN_WHITE, "#111") if turn != "black" else (MAN_BLACK, "#f5f5f5")
    out = []
    for i, face in enumerate(dice):
        x, y, s = centre - 80 + 95 * i, (TOP + BOTTOM) / 2 - 33, 66
        out.append(
            f'<g class="die" data-face="{face}"><rect x="{x}" y="{y}" width="{s}" height="{s}" '
            f'rx="10" fill="{body}" stroke="{ORANGE}" stroke-width="4"/>'
        )
        for px, py in _PIPS[face]:
            out.append(
                f'<circle cx="{x + px * s:.1f}" cy="{y + py * s:.1f}" r="6.5" fill="{pip}"/>'
            )
        out.append("</g>")
    return out


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)),
}


def _cube(cube: tuple[int, str | None]) -> list[str]:
    value, owner = cube
    x = (BAR_LEFT + BAR_RIGHT) / 2 - 26
    y = {"white": BOTTOM - 60, "black": TOP + 8}.get(str(owner), (TOP + BOTTOM) / 2 - 26)
    shown = 64 if value <= 1 and owner is None else value
    return [
        f'<g class="cube" data-value="{value}" data-owner="{owner or ""}">'
        f'<rect x="{x}" y="{y}" width="52" height="52" rx="6" fill="#f7f2e4" stroke="#222" '
        f'stroke-width="3"/><text x="{x + 26}" y="{y + 36}" text-anchor="middle" '
        f'font-size="{28 if shown < 10 else 22}" font-family="sans-serif" font-weight="bold" '
        f'fill="#222">{shown}</text></g>'
    ]
