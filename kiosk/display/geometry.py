"""The shapes the display draws, worked out from a calibration.

Everything follows the calibrated slots: a point's triangle runs along its line of slots
from the table's edge past the last slot, the bar and trays surround their slots, and the
players' text bands lie between the board and the screen's edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from kiosk.display.calibration import Calibration, Point
from kiosk.table.layout import BARS, POINTS, TRAYS

FloatPoint = tuple[float, float]
MIN_BAND = 56  # pixels: a text band is never thinner, even if it must overlap the board


@dataclass(frozen=True)
class Strip:
    """One location's line of slots: where it starts and ends, its direction and width."""

    location: str
    slots: tuple[Point, ...]
    inward: FloatPoint  # unit vector from the edge slot towards the last slot
    pitch: float  # distance between neighbouring slots
    half_width: float  # half the point's width at its base
    base: FloatPoint  # centre of the base, at the table's edge
    tip: FloatPoint  # the point's apex, beyond the last slot

    @property
    def triangle(self) -> list[FloatPoint]:
        """The point's triangle: two base corners and the apex."""
        (bx, by), (ux, uy) = self.base, self.inward
        vx, vy = -uy, ux
        hw = self.half_width
        return [(bx + vx * hw, by + vy * hw), (bx - vx * hw, by - vy * hw), self.tip]

    def ring_radius(self, slot_radius: int) -> int:
        """The radius of a slot's ring: the man's, or less where the slots are closer."""
        return max(3, int(min(slot_radius, self.pitch * 0.48)))


def _unit(a: Point, b: Point, fallback: FloatPoint) -> tuple[FloatPoint, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return fallback, 0.0
    return (dx / length, dy / length), length


class Geometry:
    """The shapes of the board for one calibration."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self.radius = calibration.slot_radius
        self.size = (calibration.width, calibration.height)
        centre_y = calibration.height / 2
        self.strips: dict[str, Strip] = {}
        for where in (*POINTS, *BARS, *TRAYS):
            self.strips[where] = self._strip(where, centre_y)
        self.board = self._board_rect()
        self.bar = self._bar_rect()
        self.trays = {where: self._tray_rect(where) for where in TRAYS}
        top_tips = max(self.strips[p].tip[1] for p in POINTS[12:])
        bottom_tips = min(self.strips[p].tip[1] for p in POINTS[:12])
        self.centre_y = int((top_tips + bottom_tips) / 2)
        gap_h = max(int(bottom_tips - top_tips), self.radius * 2)
        self.gap = pygame.Rect(self.board.left, self.centre_y - gap_h // 2, self.board.width, gap_h)
        width, height = self.size
        self.frame = self.board.inflate(int(self.radius * 1.4), int(self.radius * 1.4))
        top_h = max(self.frame.top - 4, MIN_BAND)
        bottom_h = max(height - self.frame.bottom - 4, MIN_BAND)
        self.bands = {
            "black": pygame.Rect(0, 0, width, top_h),
            "white": pygame.Rect(0, height - bottom_h, width, bottom_h),
        }
        self.halves = {  # each player's half of the board, from the centre line to their edge
            "black": pygame.Rect(
                self.board.left, self.board.top, self.board.width, self.centre_y - self.board.top
            ),
            "white": pygame.Rect(
                self.board.left,
                self.centre_y,
                self.board.width,
                self.board.bottom - self.centre_y,
            ),
        }

    def _strip(self, where: str, centre_y: float) -> Strip:
        slots = self.calibration.slots[where]
        r = self.radius
        towards_centre = (0.0, 1.0) if slots[0][1] < centre_y else (0.0, -1.0)
        inward, length = _unit(slots[0], slots[-1], towards_centre)
        pitch = length / (len(slots) - 1) if len(slots) > 1 else 2.0 * r
        half_width = self._half_width(where) if where in POINTS else r * 1.1
        before = pitch * 0.5 + r * 0.15
        after = pitch * 0.5 + r * 0.35
        base = (slots[0][0] - inward[0] * before, slots[0][1] - inward[1] * before)
        tip = (slots[-1][0] + inward[0] * after, slots[-1][1] + inward[1] * after)
        return Strip(where, slots, inward, max(pitch, 1.0), half_width, base, tip)

    def _half_width(self, point: str) -> float:
        n = int(point)
        same_row = range(1, 13) if n <= 12 else range(13, 25)
        here = self.calibration.slots[point][0]
        gaps = [
            math.dist(here, self.calibration.slots[str(m)][0])
            for m in (n - 1, n + 1)
            if m in same_row
        ]
        return max(min(gaps) * 0.47, self.radius * 0.6)

    def _board_rect(self) -> pygame.Rect:
        xs: list[float] = []
        ys: list[float] = []
        for where in POINTS:
            for x, y in self.strips[where].triangle:
                xs.append(x)
                ys.append(y)
        for where in BARS:
            x, y, w, h = self.calibration.location_rect(where)
            xs += [x, x + w]
            ys += [y, y + h]
        return pygame.Rect(
            int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 1, int(max(ys) - min(ys)) + 1
        )

    def _bar_rect(self) -> pygame.Rect:
        bar_slots = [xy for where in BARS for xy in self.calibration.slots[where]]
        centre = sum(x for x, _ in bar_slots) / len(bar_slots)
        left_edges = [
            max(x for x, _ in self.strips[p].triangle)
            for p in POINTS
            if self.strips[p].base[0] < centre
        ]
        right_edges = [
            min(x for x, _ in self.strips[p].triangle)
            for p in POINTS
            if self.strips[p].base[0] > centre
        ]
        left = max(left_edges, default=centre - self.radius * 1.3)
        right = min(right_edges, default=centre + self.radius * 1.3)
        if right - left < self.radius * 2.2:
            left, right = centre - self.radius * 1.3, centre + self.radius * 1.3
        return pygame.Rect(int(left), self.board.top, int(right - left), self.board.height)

    def _tray_rect(self, where: str) -> pygame.Rect:
        x, y, w, h = self.calibration.location_rect(where)
        pad = max(4, self.radius // 4)
        return pygame.Rect(x - pad, y - pad, w + 2 * pad, h + 2 * pad)

    def anchor(self, where: str) -> FloatPoint:
        """Where an arrow to or from a location ends: a point's inner end, else the middle."""
        strip = self.strips[where]
        if where in POINTS:
            x, y = strip.slots[-1]
            return (
                x + strip.inward[0] * strip.pitch * 0.3,
                y + strip.inward[1] * strip.pitch * 0.3,
            )
        xs = [x for x, _ in strip.slots]
        ys = [y for _, y in strip.slots]
        return (sum(xs) / len(xs), sum(ys) / len(ys))
