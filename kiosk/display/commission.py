"""The commissioning screen: the board's slots as marks, the one to fill lit, the findings.

Drawn over the calibration, so each mark sits under its slot on the glass; each dice well's
nine Hall switches are drawn as its ring and centre, on a 3 x 3 grid beside the field. Pure
drawing: ``kiosk commission`` feeds it a ``Commissioning`` walk.
"""

from __future__ import annotations

import pygame

from kiosk.display.calibration import Calibration
from kiosk.link import LOCATIONS
from kiosk.link.commission import WELL_CELLS, Commissioning

# Where each well cell sits in the well, on a 3 x 3 grid: the ring going round from corner
# 1, then the centre (hardware/geometry.py, WELL_CELLS).
CELL_GRID = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (1, 1))

BACKGROUND = (8, 14, 12)
MARK = (90, 90, 90)
LIT = (80, 200, 255)
BAD = (230, 70, 60)
TEXT = (235, 235, 235)


class CommissionScreen:
    """Draws a commissioning walk on ``surface``."""

    def __init__(self, surface: pygame.Surface, calibration: Calibration) -> None:
        self.surface = surface
        self.calibration = calibration
        pygame.font.init()
        self.font = pygame.font.Font(None, max(18, surface.get_height() // 28))

    def _cell_xy(self, well: int, cell: int) -> tuple[int, int]:
        width, height = self.surface.get_size()
        size = max(8, height // 40)
        x0 = round(width * (0.6 + 0.12 * well))
        y0 = height // 2 - size
        column, row = CELL_GRID[cell]
        return x0 + column * size, y0 + row * size

    def draw(self, walk: Commissioning) -> None:
        """The marks, the lit one, the bad ones and the instruction."""
        surface = self.surface
        surface.fill(BACKGROUND)
        radius = max(4, surface.get_height() // 90)
        bad = set(walk.bad_slots())
        step = walk.current
        lit = (step.location, step.slot) if step is not None and step.well is None else None
        for location in LOCATIONS:
            for slot in range(self.calibration.slot_count(location)):
                key = (location, slot)
                colour = LIT if key == lit else BAD if key in bad else MARK
                xy = self.calibration.slot_xy(location, slot)
                pygame.draw.circle(surface, colour, xy, radius)
        bad_cells = {(f.step.well, f.step.cell) for f in walk.findings if f.step.well is not None}
        for well in (0, 1):
            for cell in range(WELL_CELLS):
                colour = BAD if (well, cell) in bad_cells else MARK
                if step is not None and (step.well, step.cell) == (well, cell):
                    colour = LIT
                pygame.draw.circle(surface, colour, self._cell_xy(well, cell), radius)
        lines = [walk.instruction()]
        lines += [f"{f.step.name()}: {f.reason}" for f in walk.findings[-4:]]
        y = 8
        for line in lines:
            image = self.font.render(line, True, TEXT)
            surface.blit(image, (8, y))
            y += image.get_height() + 4
