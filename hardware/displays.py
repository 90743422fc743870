"""The displays a builder can buy to lie under the table, as the design's input.

The frame, the sheets, the gap between the two rows of points and every cut file follow
from the display chosen (``documents.build``). Each entry names a real set and where its
figures come from. **Check each figure against the set you buy** before cutting: makers
change a model's case between production runs, and no catalogue could be reached from the
machine these documents are built on, so the figures below were entered from the makers'
published specification pages, not read from them here.

The picture (active area) follows from the visible diagonal the maker states and the 16:9
shape; a set's picture is taken as centred in its outline, the builder centring it with
shims to within ``PLACEMENT`` (measure yours: many sets have a wider bottom bezel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INCH = 25.4
PLACEMENT = 2.0  # mm: how well the builder centres the picture under the sheets (shims)


@dataclass(frozen=True)
class Display:
    """A television as the frame must hold it: lying flat, screen up, its stand removed."""

    key: str  # names its cut files' folder: hardware/cut/<key>/
    model: str
    source: str  # where the figures come from
    visible_inches: float  # the diagonal of the picture the maker states
    outline: tuple[float, float, float]  # width, height, depth without the stand (mm)
    vesa: tuple[int, int]  # the mounting holes' pattern on its back (mm)
    vesa_screw: str
    price: float  # euros, an estimate

    @property
    def picture(self) -> tuple[float, float]:
        """The active area (mm): width and height of a 16:9 picture of the stated diagonal."""
        diagonal = self.visible_inches * INCH
        ratio = math.hypot(16, 9)
        return diagonal * 16 / ratio, diagonal * 9 / ratio

    @property
    def bezel(self) -> tuple[float, float]:
        """The case's border beside and above the picture (mm), each side."""
        width, height = self.picture
        return (self.outline[0] - width) / 2, (self.outline[1] - height) / 2


DISPLAYS = (
    Display(
        key="50in",
        model="Samsung UE50CU7100K (50-inch Crystal UHD, 2023)",
        source="Samsung's published specification: 49.5-inch visible diagonal, set without "
        "stand 1117.0 x 645.6 x 60.1 mm, VESA 200 x 200",
        visible_inches=49.5,
        outline=(1117.0, 645.6, 60.1),
        vesa=(200, 200),
        vesa_screw="M8",
        price=380.0,
    ),
    Display(
        key="43in",
        model="Samsung UE43CU7100K (43-inch Crystal UHD, 2023)",
        source="Samsung's published specification: 42.5-inch visible diagonal, set without "
        "stand 965.5 x 559.9 x 60.1 mm, VESA 100 x 100",
        visible_inches=42.5,
        outline=(965.5, 559.9, 60.1),
        vesa=(100, 100),
        vesa_screw="M6",
        price=320.0,
    ),
)
CHOSEN = "50in"  # the one the bill of materials orders


def display(key: str = CHOSEN) -> Display:
    """The display named ``key``."""
    for found in DISPLAYS:
        if found.key == key:
            return found
    raise ValueError(f"no display {key!r}: choose one of {[d.key for d in DISPLAYS]}")
