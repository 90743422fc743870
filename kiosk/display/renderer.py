"""Draws a :class:`~kiosk.display.view.TableView` on the screen under the physical board.

The men and dice are physical; the display draws what lies under them and around them:
the points, bar and trays; a glow under the men that may move; the lifted man's slot and
the slots where it may land; an illegal placement in red with the reason; the last play
as arrows; and, in a band along each player's edge and facing that player, their
message, dice, turn, pip count, score, cube and whether the table is connected.

Everything that does not change from frame to frame (the board, text, bands) is drawn
once and kept, so a frame is a handful of blits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any, NamedTuple

import pygame

from kiosk.display.calibration import Calibration
from kiosk.display.geometry import Geometry, Strip
from kiosk.display.overlays import chart_card, list_card
from kiosk.display.palette import (
    ACCENT,
    ARROW,
    BACKGROUND,
    BAND,
    BAND_TURN,
    BAR_WOOD,
    CARD,
    CARD_DIM,
    CARD_EDGE,
    CARD_TEXT,
    COLUMN,
    CONNECTED,
    CUBE_EDGE,
    CUBE_FACE,
    CURSOR,
    CURSOR_TEXT,
    DETAIL_BG,
    DIM,
    EDGE,
    FELT,
    FRAME,
    FRAME_EDGE,
    FRAME_NUMBER,
    FRAME_NUMBER_FAR,
    GHOST_EDGE,
    GRADE_COLOURS,
    HIT,
    ILLEGAL,
    ILLEGAL_CARD,
    LIFTED,
    LIGHT,
    LOST,
    LOST_BG,
    MAN_BLACK,
    MAN_WHITE,
    MOVABLE,
    POINT_DARK,
    POINT_LIGHT,
    RATING_COLOURS,
    RGB,
    RIGHT,
    SENSOR_STRIP,
    TARGET,
    TEXT,
    TRAY_BED,
    WARNING_BG,
    WRONG,
)
from kiosk.display.payloads import Correction
from kiosk.display.prompts import Prompt
from kiosk.display.text import TextCache
from kiosk.display.view import MENU_KEYS, PlayerText, TableView, button_label, score_lines
from kiosk.display.wording import GRADE_WORDS, hints_left
from kiosk.events import Kind
from kiosk.link import TableLayout
from kiosk.table.layout import POINTS, TRAYS
from kiosk.table.sensing import true_counts

DETAIL_CLOSE = "Select again: close"
ANSWER_FOOTER = "Select: next choice    Done: answer"
PULSE_LEVELS = 6
LARGE_TEXT = 1.35  # how much larger the words are with [display] large_text

# One drawing call on a surface the caller knows: ``put(pygame.draw.circle, colour, xy, r)``.
Put = Callable[..., object]
Op = tuple[Callable[..., pygame.Rect], tuple[Any, ...]]


class _Shown(NamedTuple):
    """What the surface shows: the board (Russian numbering or not), and the drawings
    over it (as :func:`_frozen` keys) with the area each covers."""

    russian: bool
    keys: list[Hashable]
    rects: list[pygame.Rect]


def _frozen(value: Any) -> Any:
    """``value`` (a drawing call, its arguments) as something hashable, equal when equal."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, pygame.Rect):
        return ("rect", value.x, value.y, value.w, value.h)
    return value


def _whole_shapes(damage: list[pygame.Rect], shapes: list[pygame.Rect]) -> list[pygame.Rect]:
    """The areas to draw again, grown to hold whole every shape they touch (a thick line
    drawn clipped lands a pixel or so off, so a shape is never drawn clipped) and merged
    where they overlap (no pixel is drawn twice)."""
    areas = list(damage)
    changed = True
    while changed:
        changed = False
        merged: list[pygame.Rect] = []
        for area in areas:
            for shape in shapes:
                if area.colliderect(shape) and not area.contains(shape):
                    area = area.union(shape)
                    changed = True
            for i, other in enumerate(merged):
                if area.colliderect(other):
                    merged[i] = other.union(area)
                    changed = True
                    break
            else:
                merged.append(area)
        areas = merged
    return areas


def _on(surface: pygame.Surface) -> Put:
    """Draw straight onto ``surface`` (a panel, the static board)."""
    return lambda fn, *args: fn(surface, *args)


def _shade(colour: RGB, factor: float) -> RGB:
    return (
        max(0, min(255, int(colour[0] * factor))),
        max(0, min(255, int(colour[1] * factor))),
        max(0, min(255, int(colour[2] * factor))),
    )


def _whole(lines: list[str], text: str) -> bool:
    """Whether ``lines`` (from :meth:`TextCache.fit`) hold all of ``text``, none cut off."""
    return " ".join(lines).split() == text.split()


def _other(colour: str) -> str:
    return "black" if colour == "white" else "white"


def _shows_dice(view: TableView, colour: str) -> bool:
    """Whether ``colour``'s band is the one on turn (its dice shown, lit): the player on
    roll's, and against the table the visitor's for the table's turn too."""
    if view.winner is not None or view.opening:
        return False
    return view.turn == colour or (view.visitor == colour and view.turn == view.table)


class Renderer:
    """Draws whole frames of the table for one surface and calibration."""

    def __init__(
        self,
        surface: pygame.Surface,
        calibration: Calibration,
        layout: TableLayout | None = None,
        *,
        large_text: bool = False,
    ) -> None:
        self.layout = layout or TableLayout()
        calibration.check(self.layout)
        if surface.get_size() != (calibration.width, calibration.height):
            raise ValueError(
                f"the calibration is for a {calibration.width}x{calibration.height} screen, "
                f"not {surface.get_width()}x{surface.get_height()}"
            )
        self.surface = surface
        self.calibration = calibration
        self.geometry = Geometry(calibration)
        self.text = TextCache()
        self.large_text = large_text
        self.scale = LARGE_TEXT if large_text else 1.0  # of every word's size
        self._statics: dict[bool, pygame.Surface] = {False: self._draw_static(False)}
        self._sprites: dict[tuple[Any, ...], pygame.Surface] = {}
        self._panels: dict[str, tuple[tuple[Any, ...], pygame.Surface, tuple[int, int]]] = {}
        self._counts_key: tuple[Any, ...] | None = None
        self._counts: Mapping[str, tuple[int, int]] = {}
        self._arrows_key: tuple[Any, ...] | None = None
        self._arrows: list[tuple[list[tuple[float, float]], list[tuple[float, float]]]] = []
        self._ops: list[Op] = []  # this frame's drawing over the board, recorded first
        self._shown: _Shown | None = None  # what the surface shows now
        self._scratch: pygame.Surface | None = None  # where shapes are drawn to find their area

    def set_large_text(self, on: bool) -> None:
        """Draw the words larger (``on``) or at their usual size from the next frame."""
        if on != self.large_text:
            self.large_text, self.scale = on, LARGE_TEXT if on else 1.0
            self._panels.clear()

    def invalidate(self) -> None:
        """Forget what the surface shows: the next :meth:`draw` draws the whole frame."""
        self._shown = None

    # -- the frame ------------------------------------------------------------

    def draw(self, view: TableView, now_ms: int) -> list[pygame.Rect]:
        """Bring the surface up to a whole frame of ``view`` and return the areas that
        changed (the caller shows them: ``pygame.display.update``); none if nothing did.

        The frame's drawing over the board is recorded first and compared with the last
        frame's: only the areas of what went or came are drawn again (the board put back
        there, then every drawing that touches them, in order, clipped to them), so the
        surface ends the same as a whole frame drawn afresh (:meth:`invalidate` forces one).
        """
        russian = view.mode == Kind.RUSSIAN
        ops: list[Op] = []
        self._ops = ops
        self._record(view, now_ms)
        keys = [_frozen(op) for op in ops]
        shown = self._shown
        screen = self.surface.get_rect()
        if shown is not None and shown.russian == russian:
            if keys == shown.keys:
                return []
            rects, damage = self._compare(shown, ops, keys)
            shapes = [
                r for (fn, _), r in zip(ops, rects, strict=True) if fn is not pygame.Surface.blit
            ]
            damage = _whole_shapes(damage, shapes)
            if sum(a.width * a.height for a in damage) * 2 <= screen.width * screen.height:
                board = self._static(russian)
                for area in damage:
                    self.surface.set_clip(area)
                    self.surface.blit(board, area, area)
                    for (fn, args), rect in zip(ops, rects, strict=True):
                        if rect.colliderect(area):
                            fn(self.surface, *args)
                self.surface.set_clip(None)
                self._shown = _Shown(russian, keys, rects)
                return damage
        # A new board, or most of the screen changed: the whole frame, unclipped.
        self.surface.blit(self._static(russian), (0, 0))
        rects = [pygame.Rect(fn(self.surface, *args)).clip(screen) for fn, args in ops]
        self._shown = _Shown(russian, keys, rects)
        return [screen]

    def _compare(
        self, shown: _Shown, ops: list[Op], keys: list[Hashable]
    ) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
        """Each of this frame's drawings' area, and the areas to draw again: those of the
        drawings that went and that came (all drawings' if the ones kept changed order)."""
        waiting: dict[Hashable, list[int]] = {}
        for i, key in enumerate(shown.keys):
            waiting.setdefault(key, []).append(i)
        rects: list[pygame.Rect] = []
        damage: list[pygame.Rect] = []
        kept: list[int] = []
        for op, key in zip(ops, keys, strict=True):
            same = waiting.get(key)
            if same:
                kept.append(same.pop(0))
                rects.append(shown.rects[kept[-1]])
            else:
                rects.append(self._area(op))
                damage.append(rects[-1])
        if kept != sorted(kept):
            return rects, [r for r in rects + shown.rects if r.width and r.height]
        damage.extend(shown.rects[i] for left in waiting.values() for i in left)
        return rects, [r for r in damage if r.width and r.height]

    def _area(self, op: Op) -> pygame.Rect:
        """The part of the screen a drawing covers (a blit's by its size; a shape's drawn on
        a scratch surface)."""
        fn, args = op
        screen = self.surface.get_rect()
        if fn is pygame.Surface.blit:
            source, where = args[0], args[1]
            topleft = where.topleft if isinstance(where, pygame.Rect) else where
            return pygame.Rect(topleft, source.get_size()).clip(screen)
        if self._scratch is None:
            self._scratch = pygame.Surface(screen.size, depth=8)
        return pygame.Rect(fn(self._scratch, *args)).clip(screen)

    def _put(self, fn: Callable[..., pygame.Rect], *args: Any) -> None:
        """Record one drawing call on the screen (done by :meth:`draw`)."""
        self._ops.append((fn, args))

    def _record(self, view: TableView, now_ms: int) -> None:
        """Record the frame's drawing over the board."""
        counts = self._men(view)
        pulse = (math.sin(now_ms / 1000 * math.tau * 0.8) + 1) / 2
        if view.illegal and view.illegal[0] in self.geometry.strips:
            self._draw_illegal_point(view.illegal[0])
        for where in view.lights:
            if where in self.geometry.strips:
                self._draw_light(where)
        if view.simulated:
            self._draw_men(counts)
        if view.setup:
            self._draw_setup(view.setup, counts)
        mover = view.turn
        for where in view.movable:
            if where in self.geometry.strips:
                self._draw_movable(where, counts, mover)
        if view.lifted in self.geometry.strips:
            self._draw_lifted(view, counts)
        for where in view.targets:
            if where in self.geometry.strips:
                self._draw_target(where, counts, mover, pulse, view.grades.get(where))
        self._draw_arrows(view.last_play)
        for where, men, each in view.stranded:
            self._draw_stranded(where, men, each)
        sides = view.sides()  # against the table: the visitor's side only
        for colour in sides:
            self._blit_panel(f"gap-{colour}", self._gap_panel, view, colour)
        for colour in ("white", "black"):
            if colour in sides and view.show_detail.get(colour) and view.message(colour):
                self._blit_panel(f"detail-{colour}", self._detail_panel, view, colour)
            self._blit_panel(f"band-{colour}", self._band_panel, view, colour)
        self._blit_panel("cube", self._cube_panel, view, "white")
        if view.illegal:  # under the cards: a menu opened over it is read whole
            self._blit_panel("illegal", self._illegal_panel, view, view.facing(view.turn))
        if (view.grades or view.hint_note) and view.lifted is not None:
            self._blit_panel("grades", self._grades_panel, view, view.facing(view.turn))
        for colour in sides:
            if view.chart:
                self._blit_panel(f"chart-{colour}", self._chart_panel, view, colour)
            if view.answers:
                self._blit_panel(f"answers-{colour}", self._answers_panel, view, colour)
            if view.menu and view.menu_player in (colour, None):
                self._blit_panel(f"menu-{colour}", self._menu_panel, view, colour)
        if view.lesson_result is not None:
            self._draw_result(view.lesson_result)
        if view.busy:
            self._draw_spinner(now_ms)
        if not view.connected:
            self._put(
                pygame.draw.rect, LOST, self.surface.get_rect(), max(4, self.geometry.radius // 4)
            )

    def draw_board(self, russian: bool = False) -> None:
        """Draw the bare board: frame, points, bar, trays and the sensor strips; the points
        numbered for the game played (``russian``: the common track, its entering table)."""
        self.surface.blit(self._static(russian), (0, 0))
        self._shown = None  # what the last frame drew over the board is gone

    def _static(self, russian: bool) -> pygame.Surface:
        """The bare board (drawn once for each numbering)."""
        if russian not in self._statics:
            self._statics[russian] = self._draw_static(russian)
        return self._statics[russian]

    # -- men and highlights ---------------------------------------------------

    def _men(self, view: TableView) -> Mapping[str, tuple[int, int]]:
        """(white, black) men at every location: as sensed if the view has it, else as played."""
        if view.board is not None:
            return view.board
        key = (view.position.position_id(), view.position.turn)
        if key != self._counts_key:
            self._counts = true_counts(view.position)
            self._counts_key = key
        return self._counts

    def _draw_men(self, counts: Mapping[str, tuple[int, int]]) -> None:
        """The men themselves, for a simulated table with none on it."""
        for where, strip in self.geometry.strips.items():
            white, black = counts.get(where, (0, 0))
            colour = "white" if white else "black"
            count = white or black
            if not count:
                continue
            body, edge = (MAN_WHITE, MAN_BLACK) if colour == "white" else (MAN_BLACK, MAN_WHITE)
            radius = max(3, int(strip.ring_radius(self.geometry.radius) * 0.95))
            if where in TRAYS:
                radius = max(3, int(min(self.geometry.radius, strip.pitch * 0.45)))
            shown = min(count, len(strip.slots))
            for xy in strip.slots[:shown]:
                self._put(pygame.draw.circle, body, xy, radius)
                self._put(pygame.draw.circle, edge, xy, radius, 2)
            if count > shown:
                label = self.text.render(str(count), radius, edge)
                self._put(pygame.Surface.blit, label, label.get_rect(center=strip.slots[shown - 1]))

    def _draw_setup(
        self, corrections: tuple[Correction, ...], counts: Mapping[str, tuple[int, int]]
    ) -> None:
        """The men still to lay out: a pale man (a disc of his colour, dashed round) in each
        slot a man should fill, a cross on each man to take away."""
        edge_width = max(2, self.geometry.radius // 8)
        for c in corrections:
            where = c.table
            if where not in self.geometry.strips:
                continue
            strip = self.geometry.strips[where]
            radius = max(3, int(strip.ring_radius(self.geometry.radius) * 0.95))
            if where in TRAYS:
                radius = max(3, int(min(self.geometry.radius, strip.pitch * 0.45)))
            total = sum(counts.get(where, (0, 0)))
            want, have = c.want, c.have
            white = c.colour == "white"
            for i in range(total, total + max(0, want - have)):
                xy = self._slot(where, i)
                key = ("ghost", white, radius)
                sprite = self._sprites.get(key)
                if sprite is None:
                    sprite = pygame.Surface((2 * radius + 2, 2 * radius + 2), pygame.SRCALPHA)
                    body = MAN_WHITE if white else MAN_BLACK
                    pygame.draw.circle(sprite, (*body, 120), (radius + 1, radius + 1), radius)
                    for k in range(12):  # a dashed ring: a man that is not there yet
                        a0, a1 = k / 12 * math.tau, (k + 0.5) / 12 * math.tau
                        rect = pygame.Rect(1, 1, 2 * radius, 2 * radius)
                        pygame.draw.arc(sprite, (*GHOST_EDGE, 255), rect, a0, a1, edge_width)
                    self._sprites[key] = sprite
                self._put(pygame.Surface.blit, sprite, sprite.get_rect(center=xy))
            for i in range(total - 1, total - 1 - max(0, have - want), -1):
                x, y = self._slot(where, max(i, 0))
                d = radius * 0.55
                for sign in (1, -1):
                    a, b = (x - d, y - sign * d), (x + d, y + sign * d)
                    self._put(pygame.draw.line, EDGE, a, b, edge_width + 4)
                    self._put(pygame.draw.line, HIT, a, b, edge_width + 1)

    def _draw_light(self, where: str) -> None:
        """A lesson pointing at a location: its outline lit."""
        width = max(4, self.geometry.radius // 5)
        if where in POINTS:
            self._put(pygame.draw.polygon, LIGHT, self.geometry.strips[where].triangle, width)
        else:
            x, y, w, h = self.calibration.location_rect(where)
            self._put(pygame.draw.rect, LIGHT, (x, y, w, h), width, self.geometry.radius // 2)

    def _draw_result(self, correct: bool) -> None:
        """A lesson answer's verdict: a tick or a cross, readable from either side."""
        cx, cy = self.geometry.bar.centerx, self.geometry.centre_y
        r = int(self.geometry.radius * 1.2)
        self._put(pygame.draw.circle, RIGHT if correct else WRONG, (cx, cy), r)
        w = max(4, r // 4)
        if correct:
            tick = [(cx - r * 0.5, cy), (cx - r * 0.1, cy + r * 0.4), (cx + r * 0.5, cy - r * 0.4)]
            self._put(pygame.draw.lines, TEXT, False, tick, w)
        else:
            d = r * 0.45
            self._put(pygame.draw.line, TEXT, (cx - d, cy - d), (cx + d, cy + d), w)
            self._put(pygame.draw.line, TEXT, (cx - d, cy + d), (cx + d, cy - d), w)

    def _draw_stranded(self, where: str, men: int, each: int) -> None:
        """Parker's count in a zone that holds the loser's men: men x worth = points."""
        if where in self.geometry.strips:
            centre = self._slot(where, 5)
        else:
            x, y, w, h = self.calibration.location_rect(where)
            centre = (x + w // 2, y + h // 2)
        size = max(14, int(self.geometry.radius * 0.9 * self.scale))
        label = self.text.render(f"{men} x {each} = {men * each}", size, TEXT)
        box = label.get_rect(center=centre).inflate(size // 2, size // 4)
        box.clamp_ip(self.surface.get_rect())  # a tray at the screen's edge
        self._put(pygame.draw.rect, BAND, box, 0, size // 3)  # width 0: filled
        self._put(pygame.draw.rect, ACCENT, box, 2, size // 3)
        self._put(pygame.Surface.blit, label, label.get_rect(center=box.center))

    def _own(self, counts: Mapping[str, tuple[int, int]], where: str, colour: str) -> int:
        white, black = counts.get(where, (0, 0))
        return white if colour == "white" else black

    def _slot(self, where: str, index: int) -> tuple[int, int]:
        strip = self.geometry.strips[where]
        return strip.slots[max(0, min(index, len(strip.slots) - 1))]

    def _draw_illegal_point(self, where: str) -> None:
        """The location of a wrong placement, filled and hatched (not told by colour alone)."""
        key = ("illegal", where)
        sprite = self._sprites.get(key)
        strip = self.geometry.strips[where]
        if where in POINTS:
            xs, ys = [x for x, _ in strip.triangle], [y for _, y in strip.triangle]
            box = pygame.Rect(int(min(xs)), int(min(ys)), 0, 0)
            box.size = (int(max(xs)) - box.x + 2, int(max(ys)) - box.y + 2)
        else:
            box = pygame.Rect(self.calibration.location_rect(where))
        if sprite is None:
            sprite = pygame.Surface(box.size, pygame.SRCALPHA)
            if where in POINTS:
                corners = [(x - box.x, y - box.y) for x, y in strip.triangle]
                pygame.draw.polygon(sprite, ILLEGAL, corners)
            else:
                pygame.draw.rect(
                    sprite, ILLEGAL, sprite.get_rect(), border_radius=self.geometry.radius
                )
            hatch = pygame.Surface(box.size, pygame.SRCALPHA)
            step = max(8, self.geometry.radius * 2 // 3)
            for x in range(-box.height, box.width, step):
                pygame.draw.line(
                    hatch, ILLEGAL_CARD, (x, box.height), (x + box.height, 0), max(2, step // 3)
                )
            hatch.blit(sprite, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)  # inside only
            sprite.blit(hatch, (0, 0))
            self._sprites[key] = sprite
        self._put(pygame.Surface.blit, sprite, box.topleft)
        self._draw_sensor_strip(self._put, strip)

    def _draw_movable(self, where: str, counts: Mapping[str, Any], mover: str) -> None:
        strip = self.geometry.strips[where]
        xy = self._slot(where, self._own(counts, where, mover) - 1)
        ring = strip.ring_radius(self.geometry.radius)
        self._blit_glow(MOVABLE, int(ring * 1.45), xy, 0.8)
        width = max(3, ring // 6)
        self._put(pygame.draw.circle, EDGE, xy, ring + 1, width + 2)  # seen on a light point
        self._put(pygame.draw.circle, MOVABLE, xy, ring, width)

    def _draw_lifted(self, view: TableView, counts: Mapping[str, Any]) -> None:
        where = str(view.lifted)
        own = self._own(counts, where, view.turn)
        # The sensed board no longer holds the lifted man; the played position still does.
        xy = self._slot(where, own if view.board is not None else own - 1)
        ring = self.geometry.strips[where].ring_radius(self.geometry.radius)
        # a ring of beads (the place the man left), unlike the solid rings and discs
        bead = max(2, ring // 5)
        for i in range(12):
            angle = i / 12 * math.tau
            at = (xy[0] + ring * math.cos(angle), xy[1] + ring * math.sin(angle))
            self._put(pygame.draw.circle, EDGE, at, bead + 1)
            self._put(pygame.draw.circle, LIFTED, at, bead)
        self._put(pygame.draw.circle, EDGE, xy, max(3, ring // 4) + 2)
        self._put(pygame.draw.circle, LIFTED, xy, max(3, ring // 4))

    def target_slot(self, view: TableView, where: str) -> int:
        """The slot a lifted man would land on at ``where``: the next free one, or a blot's."""
        counts = self._men(view)
        own = self._own(counts, where, view.turn)
        other = self._own(counts, where, _other(view.turn))
        if where in POINTS and own == 0 and other == 1:
            return 0
        return min(own, self.calibration.slot_count(where) - 1)

    def _draw_target(
        self,
        where: str,
        counts: Mapping[str, tuple[int, int]],
        mover: str,
        pulse: float,
        grade: str | None = None,
    ) -> None:
        own = self._own(counts, where, mover)
        hit = where in POINTS and own == 0 and self._own(counts, where, _other(mover)) == 1
        index = 0 if hit else own
        xy = self._slot(where, index)
        ring = self.geometry.strips[where].ring_radius(self.geometry.radius)
        colour = TARGET if grade is None else GRADE_COLOURS[grade]
        self._blit_glow(colour, int(ring * 1.7), xy, 0.45 + 0.55 * pulse)
        self._put(pygame.draw.circle, colour, xy, ring, max(3, ring // 6))
        disc = max(4, int(ring * 0.55))
        if grade is None:
            self._put(pygame.draw.circle, EDGE, xy, disc + 2)  # a filled disc, edged dark
            self._put(pygame.draw.circle, TARGET, xy, disc)
        else:
            self._grade_mark(self._put, grade, xy, disc)
        if hit:  # a ring with four ticks pointing in: a blot is hit there
            outer = ring + max(4, ring // 4)
            width = max(3, ring // 6)
            self._put(pygame.draw.circle, HIT, xy, outer, width)
            for i in range(4):
                angle = (i + 0.5) / 4 * math.tau
                c, s_ = math.cos(angle), math.sin(angle)
                start = (xy[0] + (outer + width) * c, xy[1] + (outer + width) * s_)
                end = (xy[0] + (ring - width) * c, xy[1] + (ring - width) * s_)
                self._put(pygame.draw.line, HIT, start, end, width)

    @staticmethod
    def _grade_mark(put: Put, grade: str, xy: tuple[int, int], size: int) -> None:
        """A graded destination's shape, edged dark: ``best`` a disc with a tick, ``fair``
        a diamond, ``costly`` a cross (the shapes tell them apart without their colours)."""
        colour = GRADE_COLOURS[grade]
        x, y = xy
        width = max(3, size // 3)
        if grade == "best":
            put(pygame.draw.circle, EDGE, xy, size + 2)
            put(pygame.draw.circle, colour, xy, size)
            tick = [
                (x - size * 0.5, y),
                (x - size * 0.1, y + size * 0.45),
                (x + size * 0.55, y - size * 0.4),
            ]
            put(pygame.draw.lines, EDGE, False, tick, width)
        elif grade == "fair":
            r = size * 1.15
            diamond = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
            put(
                pygame.draw.polygon,
                EDGE,
                [(a + (a - x) * 0.2, b + (b - y) * 0.2) for a, b in diamond],
            )
            put(pygame.draw.polygon, colour, diamond)
        else:
            r = size * 0.85
            for a, b in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
                put(pygame.draw.line, EDGE, a, b, width + 4)
            for a, b in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
                put(pygame.draw.line, colour, a, b, width)

    def _blit_glow(self, colour: RGB, radius: int, xy: tuple[int, int], strength: float) -> None:
        level = max(1, min(PULSE_LEVELS, round(strength * PULSE_LEVELS)))
        key = ("glow", colour, radius, level)
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = pygame.Surface((2 * radius + 1, 2 * radius + 1), pygame.SRCALPHA)
            steps = 10
            for i in range(steps):
                alpha = int(190 * level / PULSE_LEVELS * (i + 1) / steps)
                r = int(radius * (1 - i / steps))
                pygame.draw.circle(sprite, (*colour, alpha), (radius, radius), max(r, 1))
            self._sprites[key] = sprite
        self._put(pygame.Surface.blit, sprite, (xy[0] - radius, xy[1] - radius))

    def _draw_arrows(self, last_play: tuple[tuple[str, str], ...]) -> None:
        if last_play != self._arrows_key:
            self._arrows_key = last_play
            self._arrows = [
                self._arrow_shape(a, b)
                for a, b in last_play
                if a in self.geometry.strips and b in self.geometry.strips and a != b
            ]
        width = max(4, int(self.geometry.radius * 0.26))
        for line, head in self._arrows:
            self._put(pygame.draw.lines, EDGE, False, line, width + 4)
            self._put(pygame.draw.polygon, EDGE, head, 0)
            self._put(pygame.draw.lines, ARROW, False, line, width)
            self._put(pygame.draw.polygon, ARROW, head, 0)
            self._put(pygame.draw.polygon, EDGE, head, 2)

    def _arrow_shape(
        self, src: str, dst: str
    ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        """A curve bowed towards the board's centre line, and its head."""
        (x0, y0), (x1, y1) = self.geometry.anchor(src), self.geometry.anchor(dst)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        length = math.hypot(x1 - x0, y1 - y0)
        bow = max(-0.35 * length, min(0.35 * length, self.geometry.centre_y - my))
        cx, cy = mx, my + bow
        head_len = self.geometry.radius * 0.9
        points = []
        for i in range(21):
            t = i / 20
            points.append(
                (
                    (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t**2 * x1,
                    (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t**2 * y1,
                )
            )
        ex, ey = points[-1]
        px, py = points[-3]
        angle = math.atan2(ey - py, ex - px)
        back = (ex - head_len * math.cos(angle), ey - head_len * math.sin(angle))
        spread = head_len * 0.55
        head = [
            (ex, ey),
            (back[0] + spread * math.sin(angle), back[1] - spread * math.cos(angle)),
            (back[0] - spread * math.sin(angle), back[1] + spread * math.cos(angle)),
        ]
        line = [p for p in points if math.hypot(p[0] - ex, p[1] - ey) >= head_len * 0.8]
        return (line + [back] if len(line) >= 1 else [points[0], back]), head

    def _draw_spinner(self, now_ms: int) -> None:
        cx, cy = self.geometry.bar.centerx, self.geometry.centre_y
        radius = max(8, int(self.geometry.radius * 0.6))
        turn = (now_ms // 90) % 8
        for i in range(8):
            angle = i / 8 * math.tau
            shade = 0.3 + 0.7 * (((i - turn) % 8) / 7)
            dot = (int(cx + radius * math.cos(angle)), int(cy + radius * math.sin(angle)))
            self._put(pygame.draw.circle, _shade(TEXT, shade), dot, max(3, radius // 4))

    # -- cached panels ---------------------------------------------------------

    def _blit_panel(
        self, name: str, build: Callable[..., Any], view: TableView, colour: str
    ) -> None:
        """Blit a panel drawn by ``build``; it is redrawn only when what it shows changes."""
        key = build(view, colour, None)
        cached = self._panels.get(name)
        if cached is None or cached[0] != key:
            made = build(view, colour, key)
            if made is None:
                self._panels[name] = (key, pygame.Surface((0, 0)), (0, 0))
                return
            surface, where = made
            if colour == "black" and name != "cube":
                surface = pygame.transform.flip(surface, True, True)
            cached = self._panels[name] = (key, surface, where)
        if cached[1].get_width():
            self._put(pygame.Surface.blit, cached[1], cached[2])

    def _band_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        message = view.message(colour)
        mine = _shows_dice(view, colour)
        state = (
            colour,
            mine,
            view.turn,
            view.visitor,
            view.winner,
            view.opening,
            view.mode,
            view.in_lesson,
            view.hide_pips,
            view.dice if mine else None,
            view.cocked if mine else (),
            view.lost_throw,
            (message.text, bool(message.detail), message.warning, message.rating, message.take_back)
            if message
            else None,
            bool(view.show_detail.get(colour)),
            view.pips,
            view.score,
            view.cube,
            view.match_length,
            view.session,
            view.connected,
            view.connection_message,
            view.legend.get(colour, ()),
            view.keys,
        )
        if key is None:
            return state
        rect = self.geometry.bands[colour]
        band = BandPainter(self.text, rect.size, colour, self.scale)
        surface = band.paint(view, message)
        return surface, rect.topleft

    def _gap_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        over = view.winner and view.mode == Kind.GAME
        result = view.prompts.get(colour, Prompt.RESULT) if over else None
        if view.choices and view.facing(view.turn) == colour:
            options = "   ".join(f"{i}) {c}" for i, c in enumerate(view.choices, start=1))
            content = ("choose", f"Which play? {options}")
        elif result is not None:  # the game's end, on the board until a button
            content = ("result", result.text)
        elif view.busy:
            content = ("busy", view.busy)
        elif view.banner and view.illegal is None:  # a wrong move's message comes first
            content = ("banner", view.banner)
        else:
            content = None
        if key is None:
            return content
        if content is None:
            return None
        gap = self.geometry.gap
        half = gap.height // 2
        inner = gap.inflate(-2 * self.geometry.radius, 0)
        # Keep the bar (and the busy spinner on it) clear: text sits in the facing player's
        # right-hand half, as a player reads the board.
        width = max(inner.right - self.geometry.bar.right - self.geometry.radius, inner.width // 3)
        panel = pygame.Surface((width, half), pygame.SRCALPHA)
        largest = int(half * 0.62)
        smallest = min(largest, int(max(14, half * 0.3) * self.scale))
        size, lines = self.text.fit(content[1], width, half, largest, smallest, 2)
        colour_text = ACCENT if content[0] in ("choose", "result") else TEXT
        block = self.text.block(lines, size, colour_text, "centre")
        at = block.get_rect(center=(width // 2, half // 2))
        backing = at.inflate(size // 2, size // 8).clip(panel.get_rect())  # over an arrow too
        pygame.draw.rect(panel, (*BAND, 200), backing, border_radius=size // 3)
        if content[0] == "result":
            pygame.draw.rect(panel, ACCENT, backing, 3, border_radius=size // 3)
        panel.blit(block, at)
        if colour == "white":
            where = (inner.right - width, gap.top + half)
        else:
            where = (inner.left, gap.top)
        return panel, where

    def _illegal_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        assert view.illegal is not None
        where, _code, message = view.illegal
        if key is None:
            return (where, message, colour)
        geometry = self.geometry
        wide = min(0.42 * self.scale, 0.6)
        width = min(int(geometry.board.width * wide), max(geometry.radius * 14, 320))
        height = max(geometry.gap.height - 8, geometry.radius * 2)
        panel = pygame.Surface((width, height), pygame.SRCALPHA)
        pygame.draw.rect(panel, ILLEGAL_CARD, panel.get_rect(), border_radius=height // 6)
        pygame.draw.rect(panel, TEXT, panel.get_rect(), 3, border_radius=height // 6)
        icon = min(height // 2, geometry.radius * 2)  # a cross in a ring: "not there"
        centre = (12 + icon // 2, height // 2)
        pygame.draw.circle(panel, TEXT, centre, icon // 2, max(2, icon // 10))
        d = icon * 0.22
        for sign in (1, -1):
            a = (centre[0] - d, centre[1] - sign * d)
            b = (centre[0] + d, centre[1] + sign * d)
            pygame.draw.line(panel, TEXT, a, b, max(2, icon // 9))
        left = icon + 24
        smallest = min(int(height * 0.36), int(max(14, height * 0.18) * self.scale))
        size, lines = self.text.fit(
            message, width - left - 12, height - 12, int(height * 0.36), smallest, 3
        )
        block = self.text.block(lines, size, TEXT, "centre")
        panel.blit(block, block.get_rect(center=((left + width - 12) // 2, height // 2)))
        cx = geometry.anchor(where)[0] if where in geometry.strips else geometry.board.centerx
        x = int(min(max(cx - width / 2, geometry.board.left), geometry.board.right - width))
        return panel, (x, geometry.centre_y - height // 2)

    def _detail_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        message = view.message(colour)
        assert message is not None, "an explanation is drawn only under its message"
        if key is None:
            return (message.text, message.detail, message.title)
        rect = self.geometry.halves[colour]
        panel = pygame.Surface(rect.size)
        panel.fill(DETAIL_BG)
        pygame.draw.rect(panel, ACCENT, panel.get_rect(), 4)
        pad = max(12, rect.height // 14)
        big = max(18, int(self.calibration.height * 0.042 * self.scale))
        small = max(14, int(self.calibration.height * 0.032 * self.scale))
        # Drawn upright for the player whose edge is at the panel's bottom.
        title_size, title = self.text.fit(
            message.title or message.text, rect.width - 2 * pad, big * 3, big, small, 2
        )
        hint = self.text.render(DETAIL_CLOSE, max(12, small * 3 // 4), DIM)
        top = pad
        title_block = self.text.block(title, title_size, ACCENT)
        panel.blit(title_block, (pad, top))
        top += title_block.get_height() + pad // 2
        room = rect.height - top - hint.get_height() - pad * 2
        size, lines = self.text.fit(
            message.detail or message.text,
            rect.width - 2 * pad,
            room,
            small,
            max(12, small * 2 // 3),
            max(1, room // max(self.text.font(small * 2 // 3).get_linesize(), 1)),
        )
        panel.blit(self.text.block(lines, size, TEXT), (pad, top))
        panel.blit(
            hint, (rect.width - pad - hint.get_width(), rect.height - pad - hint.get_height())
        )
        return panel, rect.topleft

    def _card_place(self, colour: str, width: int, height: int) -> tuple[int, int]:
        """Where a card of this size goes: over the bar, on ``colour``'s side of the centre.

        Black's place mirrors white's, so the card turned for black lies the same for them.
        """
        geometry = self.geometry
        x = min(max(geometry.bar.centerx - width // 2, 0), self.calibration.width - width)
        y = geometry.centre_y + 6
        if colour == "white":
            return x, y
        return self.calibration.width - x - width, self.calibration.height - y - height

    def _card_line(self) -> int:
        return max(12, int(self.calibration.height * 0.032 * self.scale))

    def _list_panel(
        self, colour: str, title: str, items: tuple[str, ...], cursor: int, footer: str
    ) -> Any:
        line = self._card_line()
        half = self.geometry.halves[colour]
        wide = min(0.46 * self.scale, 0.62)  # of the board: larger words, a wider card
        width = int(min(self.geometry.board.width * wide, max(line * 18, half.width * 0.3)))
        rows = len(items) + (1 if title else 0) + (1 if footer else 0)
        height = min(half.height - 12, int(line * 1.4 * rows + line * 1.5))
        card = list_card(self.text, (width, height), title, items, cursor, footer, line)
        return card, self._card_place(colour, width, height)

    def _menu_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        items = view.menu
        if view.keys and len(view.menu_numbers) == len(items):  # the number keys pick them
            items = tuple(
                f"{MENU_KEYS[n - 1]}  {t}" if n <= len(MENU_KEYS) else t
                for n, t in zip(view.menu_numbers, items, strict=True)
            )
        state = (view.menu_title, items, view.menu_cursor, view.menu_footer)
        if key is None:
            return state
        return self._list_panel(colour, *state)

    def _answers_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        state = ("Your answer", view.answers, view.answer_cursor, ANSWER_FOOTER)
        if key is None:
            return state
        strip = self._answers_strip(colour, view.answers, view.answer_cursor)
        if strip is not None:  # short answers (a count): in the centre, off the men
            return strip
        return self._list_panel(colour, *state)

    def _answers_strip(self, colour: str, answers: tuple[str, ...], cursor: int) -> Any:
        """Short answers in a row along the centre line, on ``colour``'s side of it and left
        of the bar (the banner is on the right), so the men counted stay in sight; None
        when they do not fit there."""
        geometry = self.geometry
        half = geometry.gap.height // 2
        inner = geometry.gap.inflate(-2 * geometry.radius, 0)
        width = geometry.bar.left - geometry.radius // 2 - inner.left
        if max(len(a) for a in answers) > 24:
            return None
        label = "Your answer:"
        size = max(12, int(min(half * 0.55, self._card_line() * 1.1)))
        while True:  # the largest size at which the row fits
            font = self.text.font(size)
            pad = size // 2
            boxes = [font.size(a)[0] + pad for a in answers]
            total = font.size(label)[0] + pad + sum(boxes) + pad * len(answers)
            if total <= width:
                break
            if size <= 14:
                return None
            size -= 1
        panel = pygame.Surface((total + pad, half), pygame.SRCALPHA)
        pygame.draw.rect(panel, (*CARD, 235), panel.get_rect(), border_radius=pad)
        pygame.draw.rect(panel, CARD_EDGE, panel.get_rect(), 2, border_radius=pad)
        words = self.text.render(label, size, CARD_TEXT)
        x = pad
        panel.blit(words, words.get_rect(midleft=(x, half // 2)))
        x += words.get_width() + pad
        for i, (answer, box_w) in enumerate(zip(answers, boxes, strict=True)):
            box = pygame.Rect(x, (half - size - pad // 2) // 2, box_w, size + pad // 2)
            chosen = i == cursor
            if chosen:
                pygame.draw.rect(panel, CURSOR, box, border_radius=pad // 2)
            text = self.text.render(answer, size, CURSOR_TEXT if chosen else CARD_TEXT)
            panel.blit(text, text.get_rect(center=box.center))
            x += box_w + pad
        if colour == "white":
            where = (inner.left, geometry.gap.top + half)
        else:
            where = (self.calibration.width - inner.left - panel.get_width(), geometry.gap.top)
        return panel, where

    def _grades_panel(
        self, view: TableView, colour: str, key: tuple[object, ...] | None
    ) -> tuple[object, ...] | tuple[pygame.Surface, tuple[int, int]]:
        """The graded destinations' legend, each grade's shape with its words (and what a
        budget has left), or the hint budget's note ("Think first"), along the centre line
        on ``colour``'s side, left of the bar (smaller words where they would not fit)."""
        graded = bool(view.grades)
        content = (colour, graded, view.hints_left if graded else None, view.hint_note)
        if key is None:
            return content
        geometry = self.geometry
        half = geometry.gap.height // 2
        inner = geometry.gap.inflate(-2 * geometry.radius, 0)
        room = geometry.bar.left - geometry.radius // 2 - inner.left
        size = max(12, int(min(half * 0.45, self._card_line())))
        while True:  # the largest size at which the row fits left of the bar
            pad, mark = size // 2, size // 2
            pieces: list[tuple[str | None, pygame.Surface]] = []
            if graded:
                pieces = [
                    (g, self.text.render(GRADE_WORDS[g], size, CARD_TEXT)) for g in GRADE_WORDS
                ]
                if view.hints_left is not None:
                    words = hints_left(view.hints_left)
                    pieces.append((None, self.text.render(words, size, CARD_DIM)))
            else:
                pieces = [(None, self.text.render(view.hint_note, size, CARD_TEXT))]
            total = pad + sum(
                (2 * mark + pad // 2 if g else 0) + w.get_width() + pad for g, w in pieces
            )
            if total <= room or size <= 12:
                break
            size -= 1
        panel = pygame.Surface((total, half), pygame.SRCALPHA)
        pygame.draw.rect(panel, (*CARD, 235), panel.get_rect(), border_radius=pad)
        if not graded:
            pygame.draw.rect(panel, CARD_EDGE, panel.get_rect(), 2, border_radius=pad)
        x = pad
        for grade, words_shown in pieces:
            if grade is not None:
                self._grade_mark(_on(panel), grade, (x + mark, half // 2), mark)
                x += 2 * mark + pad // 2
            panel.blit(words_shown, words_shown.get_rect(midleft=(x, half // 2)))
            x += words_shown.get_width() + pad
        if colour == "white":
            where = (inner.left, geometry.gap.top + half)
        else:
            where = (self.calibration.width - inner.left - panel.get_width(), geometry.gap.top)
        return panel, where

    def _chart_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        chart = view.chart or {}
        if key is None:
            return repr(sorted(chart.items(), key=lambda item: item[0]))
        half = self.geometry.halves[colour]
        width = int(self.geometry.board.width * 0.5)
        height = half.height - 12
        card = chart_card(self.text, (width, height), chart, self._card_line())
        return card, self._card_place(colour, width, height)

    def _cube_panel(self, view: TableView, colour: str, key: tuple[Any, ...] | None) -> Any:
        value, owner = view.cube
        # Russian backgammon is played without the cube; a lesson's is not the game's
        shown = view.mode != Kind.RUSSIAN and not view.in_lesson
        if key is None:
            return (value, owner, shown)
        if not shown:
            return None
        geometry = self.geometry
        column = geometry.board.left - geometry.radius
        size = int(min(geometry.radius * 1.9, max(column * 0.6, geometry.radius * 1.2)))
        cx = column // 2 if column >= size + 8 else geometry.board.left + size
        if owner == "white":
            cy = geometry.board.bottom - size
        elif owner == "black":
            cy = geometry.board.top + size
        else:
            cy = geometry.centre_y
        panel = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(panel, CUBE_FACE, panel.get_rect(), border_radius=size // 7)
        pygame.draw.rect(panel, CUBE_EDGE, panel.get_rect(), 2, border_radius=size // 7)
        label = self.text.render(
            str(64 if value == 1 and owner is None else value), size // 2, BAND
        )
        if owner is None:
            label = pygame.transform.rotate(label, 90)
        elif owner == "black":
            label = pygame.transform.flip(label, True, True)
        panel.blit(label, label.get_rect(center=(size // 2, size // 2)))
        return panel, (cx - size // 2, cy - size // 2)

    # -- the board, drawn once -----------------------------------------------

    def _draw_static(self, russian: bool) -> pygame.Surface:
        geometry = self.geometry
        width, height = geometry.size
        r = geometry.radius
        surface = pygame.Surface((width, height))
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            surface = surface.convert()
        surface.fill(BACKGROUND)
        frame = geometry.frame
        pygame.draw.rect(surface, FRAME_EDGE, frame.inflate(6, 6), border_radius=r // 2)
        pygame.draw.rect(surface, FRAME, frame, border_radius=r // 2)
        pygame.draw.rect(surface, FELT, geometry.board)
        pygame.draw.rect(surface, BAR_WOOD, geometry.bar)
        pygame.draw.line(surface, FRAME_EDGE, geometry.bar.midtop, geometry.bar.midbottom, 2)
        for where in POINTS:
            strip = geometry.strips[where]
            light = int(where) % 2 == 0
            fill = POINT_LIGHT if light else POINT_DARK
            pygame.draw.polygon(surface, fill, strip.triangle)
            pygame.draw.polygon(surface, _shade(fill, 0.75), strip.triangle, 2)
            self._draw_sensor_strip(_on(surface), strip)
            self._draw_rings(surface, strip, _shade(fill, 0.72))
        for where in ("bar-white", "bar-black"):
            strip = geometry.strips[where]
            self._draw_sensor_strip(_on(surface), strip)
            self._draw_rings(surface, strip, _shade(BAR_WOOD, 1.5))
        for where in TRAYS:
            tray = geometry.trays[where]
            pygame.draw.rect(surface, FRAME, tray.inflate(8, 8), border_radius=r // 2)
            pygame.draw.rect(surface, TRAY_BED, tray, border_radius=r // 3)
            strip = geometry.strips[where]
            pill_w = int(min(tray.width * 0.8, r * 2))
            pill_h = max(3, int(min(strip.pitch * 0.7, r * 1.6)))
            for x, y in strip.slots:
                pill = pygame.Rect(0, 0, pill_w, pill_h)
                pill.center = (x, y)
                pygame.draw.rect(surface, _shade(TRAY_BED, 1.9), pill, border_radius=pill_h // 2)
            self._draw_sensor_strip(_on(surface), strip)
        self._draw_point_numbers(surface, frame, russian)
        return surface

    def _draw_sensor_strip(self, put: Put, strip: Strip) -> None:
        """The dark line the sensor strip covers anyway (so it never hides a highlight)."""
        first, last = strip.slots[0], strip.slots[-1]
        if first == last:
            return
        width = max(2, int(self.geometry.radius * 0.22))
        put(pygame.draw.line, SENSOR_STRIP, first, last, width)

    def _draw_rings(self, surface: pygame.Surface, strip: Strip, colour: RGB) -> None:
        ring = strip.ring_radius(self.geometry.radius)
        for xy in strip.slots:
            pygame.draw.circle(surface, colour, xy, ring, 2)

    def _draw_point_numbers(
        self, surface: pygame.Surface, frame: pygame.Rect, russian: bool
    ) -> None:
        """The points' numbers on the frame at their bases, each facing its reader: along
        each player's edge that player's own number (1-12) and, beside it, turned for the
        player across the board, his number for the same point (13-24, as the coach names
        the far side). For Russian backgammon the common track's numbers, both ways up,
        the entering table (points 1-6, where both sides enter) marked."""
        band = (frame.height - self.geometry.board.height) / 2
        size = max(10, int(band * 0.8))
        small = max(9, int(band * 0.62))
        for where in POINTS:
            n = int(where)
            strip = self.geometry.strips[where]
            x = int(strip.base[0])
            near_edge = n <= 12  # white's edge (the bottom); black's at the top
            y = (
                (frame.bottom + self.geometry.board.bottom) // 2
                if near_edge
                else (frame.top + self.geometry.board.top) // 2
            )
            if russian:
                track = 25 - n  # the common track runs from location 24 (its point 1)
                colour = ACCENT if track <= 6 else FRAME_NUMBER
                upright = self.text.render(str(track), size, colour)
                turned = pygame.transform.flip(upright, True, True)
                gap = upright.get_width() // 2 + 3
                surface.blit(upright, upright.get_rect(center=(x - gap, y)))
                surface.blit(turned, turned.get_rect(center=(x + gap, y)))
                continue
            own = n if near_edge else 25 - n  # the near player's number
            far = 25 - own  # the player across the board names it so
            mine = self.text.render(str(own), size, FRAME_NUMBER)
            theirs = self.text.render(str(far), small, FRAME_NUMBER_FAR)
            if near_edge:  # white reads his own upright; black reads his, turned
                theirs = pygame.transform.flip(theirs, True, True)
            else:
                mine = pygame.transform.flip(mine, True, True)
            gap = max(mine.get_width(), theirs.get_width()) // 2 + 4
            # the near player's number on his left of the point's centre, as he reads it
            near_x, far_x = (x - gap, x + gap) if near_edge else (x + gap, x - gap)
            surface.blit(mine, mine.get_rect(center=(near_x, y)))
            surface.blit(theirs, theirs.get_rect(center=(far_x, y)))
        if russian:
            self._draw_entering_table(surface, frame, size)

    def _draw_entering_table(self, surface: pygame.Surface, frame: pygame.Rect, size: int) -> None:
        """Russian backgammon's entering table (the track's points 1-6, the table's 24-19):
        a bracket along its points' tips, "both sides enter here" both ways up."""
        xs = [int(self.geometry.strips[str(n)].base[0]) for n in range(19, 25)]
        left, right = min(xs) - size, max(xs) + size
        gap = self.geometry.gap
        y = gap.top + 4
        pygame.draw.line(surface, ACCENT, (left, y), (right, y), 3)
        for end in (left, right):
            pygame.draw.line(surface, ACCENT, (end, y), (end, y - size), 3)
        line = max(11, int(gap.height * 0.16))
        words = self.text.render("Both sides enter here: points 1-6", line, ACCENT)
        turned = pygame.transform.flip(words, True, True)
        centre = (left + right) // 2
        surface.blit(turned, turned.get_rect(midtop=(centre, y + 4)))
        surface.blit(words, words.get_rect(midtop=(centre, y + 8 + turned.get_height())))


class BandPainter:
    """One player's band, drawn upright as that player sees it."""

    def __init__(
        self, text: TextCache, size: tuple[int, int], colour: str, scale: float = 1.0
    ) -> None:
        self.text = text
        self.width, self.height = size
        self.colour = colour
        self.scale = scale  # of the words' sizes (large text)

    def paint(self, view: TableView, message: PlayerText | None) -> pygame.Surface:
        """The band's surface: turn and dice, message, pips and score, connection."""
        w, h = self.width, self.height
        mine = _shows_dice(view, self.colour)
        surface = pygame.Surface((w, h))
        surface.fill(BAND_TURN if mine else BAND)
        if mine:
            pygame.draw.rect(surface, ACCENT, (0, 0, w, max(4, h // 22)))
        pad = max(12, h // 8) if self.scale == 1 else max(8, h // 10)  # room for large words
        left = self._turn_and_dice(surface, view, mine, pad)
        right = self._connection(surface, view, pad)
        right = self._scores(surface, view, right, pad)
        self._message(
            surface, message, view, pygame.Rect(left, pad, right - left - pad, h - 2 * pad)
        )
        return surface

    def _turn_and_dice(self, surface: pygame.Surface, view: TableView, mine: bool, pad: int) -> int:
        h = self.height
        label_size = max(12, int(h * 0.2 * self.scale))
        die = int(h * 0.5)
        font = self.text.font(label_size)
        width = max(2 * die + 3 * pad, font.size("FIRST THROW")[0] + 2 * pad)
        thrown = view.lost_throw  # the throw this side could not play, kept in sight
        lost = thrown[1] if thrown is not None and thrown[0] == self.colour else None
        if view.mode in (Kind.LESSON, Kind.REPLAY):
            label = self.text.render(view.mode.upper(), label_size, ACCENT)
        elif view.opening:
            label = self.text.render("FIRST THROW", label_size, ACCENT)
        elif view.winner is not None:
            won = view.winner == self.colour
            tables = view.visitor is not None and view.table == self.colour
            words, colour = ("YOU WON", ACCENT) if won else ("Game over", DIM)
            if tables:  # the table's own side speaks for the table
                words = "I WON" if won else "Game over"
            elif view.visitor is not None and not won:
                words, colour = "TABLE WON", ACCENT
            label = self.text.render(words, label_size, colour)
        elif mine and view.turn != self.colour:  # the visitor throws and moves for the table
            label = self.text.render("TABLE'S TURN", label_size, ACCENT)
        elif mine:
            words = "MY TURN" if view.table == self.colour and view.visitor else "YOUR TURN"
            label = self.text.render(words, label_size, ACCENT)
        elif lost:
            label = self.text.render("NO PLAY", label_size, ACCENT)
        else:
            label = self.text.render("Their turn", label_size, DIM)
        if label.get_width() > width - 2 * pad:  # a long label fits the column
            scale = (width - 2 * pad) / label.get_width()
            label = pygame.transform.smoothscale(
                label, (width - 2 * pad, max(1, int(label.get_height() * scale)))
            )
        surface.blit(label, (pad, pad))
        if mine or lost:
            top = pad + label.get_height() + pad // 2
            size = min(die, h - top - pad // 2)
            faces = (view.dice if mine else lost) or ()
            for i in range(2):
                rect = pygame.Rect(pad + i * (size + pad), top, size, size)
                if (i + 1) in view.cocked:
                    self._cocked_die(surface, rect)
                elif i < len(faces):
                    self._die(surface, rect, faces[i])
        return width

    def _die(self, surface: pygame.Surface, rect: pygame.Rect, face: int) -> None:
        light = self.colour == "white"
        body = (240, 236, 226) if light else (34, 34, 38)
        pip = (20, 20, 20) if light else (240, 240, 240)
        pygame.draw.rect(surface, body, rect, border_radius=rect.width // 6)
        pygame.draw.rect(surface, (120, 120, 120), rect, 2, border_radius=rect.width // 6)
        spots = {
            1: [(1, 1)],
            2: [(0, 0), (2, 2)],
            3: [(0, 0), (1, 1), (2, 2)],
            4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
            6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
        }.get(face, [])
        step = rect.width / 4
        for row, col in spots:
            centre = (int(rect.left + step * (col + 1)), int(rect.top + step * (row + 1)))
            pygame.draw.circle(surface, pip, centre, max(2, rect.width // 10))

    def _cocked_die(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, WARNING_BG, rect, border_radius=rect.width // 6)
        pygame.draw.rect(surface, LOST, rect, 3, border_radius=rect.width // 6)
        mark = self.text.render("?", int(rect.height * 0.8), TEXT)
        surface.blit(mark, mark.get_rect(center=rect.center))

    def _scores(self, surface: pygame.Surface, view: TableView, right: int, pad: int) -> int:
        h = self.height
        me = 0 if self.colour == "white" else 1
        pips = view.pips[me]
        big = max(14, int(h * 0.34))
        small = max(11, int(h * 0.17 * self.scale))
        room = h - pad // 2  # the three lines, shrunk together if larger words need it
        while big > 14 and self._height(big) + pad // 3 + 2 * self._height(small) > room:
            big -= 1
            small = max(11, min(small, big // 2))
        pip_label = self.text.render("?" if view.hide_pips else f"{pips}", big, TEXT)
        pip_word = self.text.render("pips", small, DIM)
        score, cube = score_lines(view, self.colour)
        score_label = self.text.render(score, small, TEXT)
        cube_label = self.text.render(cube, small, DIM)
        width = max(
            pip_label.get_width() + pip_word.get_width() + pad // 2,
            score_label.get_width(),
            cube_label.get_width(),
        )
        x = right - width - pad
        surface.blit(pip_label, (x, pad))
        surface.blit(
            pip_word,
            (
                x + pip_label.get_width() + pad // 2,
                pad + pip_label.get_height() - pip_word.get_height(),
            ),
        )
        y = pad + pip_label.get_height() + pad // 3
        surface.blit(score_label, (x, y))
        surface.blit(cube_label, (x, y + score_label.get_height()))
        pygame.draw.line(surface, COLUMN, (x - pad, pad), (x - pad, h - pad), 2)
        return x - pad

    def _connection(self, surface: pygame.Surface, view: TableView, pad: int) -> int:
        h = self.height
        small = max(11, int(h * 0.16 * self.scale))
        width = int(h * 2.3)
        x = self.width - width - pad
        dot = max(6, h // 9)
        colour = CONNECTED if view.connected else LOST
        text = "Table connected" if view.connected else (view.connection_message or "No table")
        if not view.connected:
            box = pygame.Rect(x - pad // 2, pad // 2, width + pad, h - pad)
            pygame.draw.rect(surface, LOST_BG, box, border_radius=pad)
        pygame.draw.circle(surface, colour, (x + dot, h // 2), dot)
        size, lines = self.text.fit(
            text, width - 3 * dot, h - 2 * pad, small, int(10 * self.scale), 3
        )
        block = self.text.block(lines, size, TEXT if not view.connected else DIM)
        surface.blit(block, block.get_rect(midleft=(x + 3 * dot, h // 2)))
        return x - pad

    def _legend(self, view: TableView, size: int, width: int) -> pygame.Surface | None:
        """The buttons that do something now on this side, and what they do."""
        legend = view.legend.get(self.colour, ())
        if not legend or (view.visitor is not None and self.colour == view.table):
            return None  # against the table nobody sits at its side to press a button
        parts = [(button_label(b, self.colour, view.keys), what) for b, what in legend]
        gap = self.text.font(size).size("    ")[0]
        pieces = []
        for name, what in parts:
            pieces.append(self.text.render(f"{name}:", size, ACCENT))
            pieces.append(self.text.render(f" {what}", size, TEXT))
        total = sum(p.get_width() for p in pieces) + gap * (len(parts) - 1)
        line = pygame.Surface((total, max(p.get_height() for p in pieces)), pygame.SRCALPHA)
        x = 0
        for i, piece in enumerate(pieces):
            line.blit(piece, (x, 0))
            x += piece.get_width() + (gap if i % 2 else 0)
        if total > width:
            line = pygame.transform.smoothscale(
                line, (width, max(1, line.get_height() * width // total))
            )
        return line

    def _message(
        self, surface: pygame.Surface, message: PlayerText | None, view: TableView, box: pygame.Rect
    ) -> None:
        if message is None or not message.text:
            message = PlayerText("")
        h = self.height
        small = max(12, int(h * 0.18 * self.scale))
        rating = self._rating(message.rating, small) if message.rating else None
        beside = rating.get_width() + small if rating else 0
        hint = self._legend(view, small, box.width - beside)
        room = (
            box.height - max(r.get_height() for r in (hint, rating) if r)
            if hint or rating
            else box.height
        )
        text_box = box
        if message.warning:
            pygame.draw.rect(surface, WARNING_BG, box.inflate(box.height // 6, 0), border_radius=10)
            sign = min(room, int(h * 0.3 * self.scale))
            if message.text and sign >= 12:  # a warning sign: not told by its colour alone
                self._warning_sign(
                    surface, pygame.Rect(box.left, box.top + (room - sign) // 2, sign, sign)
                )
                text_box = box.inflate(-(sign + sign // 3), 0).move((sign + sign // 3) // 2, 0)
        if message.text:
            largest = int(h * 0.34 * self.scale)
            smallest = min(largest, max(12, int(h * 0.2 * self.scale)))
            size, lines = self.text.fit(message.text, text_box.width, room, largest, smallest, 2)
            if self.scale > 1 and not _whole(lines, message.text):  # all of it, if smaller
                usual = max(12, int(h * 0.2))
                size, lines = self.text.fit(message.text, text_box.width, room, largest, usual, 2)
            block = self.text.block(lines, size, TEXT)
            surface.blit(block, block.get_rect(midleft=(text_box.left, box.top + room // 2)))
        if hint:
            surface.blit(hint, hint.get_rect(bottomleft=(box.left + beside, box.bottom)))
        if rating:
            surface.blit(rating, rating.get_rect(bottomleft=box.bottomleft))

    def _rating(self, rating: str, size: int) -> pygame.Surface:
        """The coach's word on a dark chip edged in its colour (readable on a warning too)."""
        colour = RATING_COLOURS.get(rating, DIM)
        words = self.text.render(f"Coach: {rating}", size, colour)
        pad = max(3, size // 4)
        chip = pygame.Surface((words.get_width() + 2 * pad, words.get_height()), pygame.SRCALPHA)
        pygame.draw.rect(chip, DETAIL_BG, chip.get_rect(), border_radius=pad)
        pygame.draw.rect(chip, colour, chip.get_rect(), 1, border_radius=pad)
        chip.blit(words, (pad, 0))
        return chip

    def _warning_sign(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """A triangle with an exclamation mark."""
        corners = [(box.centerx, box.top), box.bottomright, box.bottomleft]
        pygame.draw.polygon(surface, TEXT, corners)
        mark = self.text.render("!", int(box.height * 0.75), WARNING_BG)
        surface.blit(mark, mark.get_rect(midbottom=(box.centerx, box.bottom + box.height // 12)))

    def _height(self, size: int) -> int:
        """The height of a line of text at ``size``."""
        return self.text.font(size).get_height()
