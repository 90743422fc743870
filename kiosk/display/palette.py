"""The display's colours, and the contrast between two of them.

Everything that signals (the men that may move, where a lifted man may go and what each
destination costs, a hit, a wrong placement, the last play, a lesson's lights, a verdict)
takes its colour from Okabe and Ito's palette for colour-blind readers, and differs from
the others by its shape too (a ring, a filled disc, a dashed ring, hatching, an arrow, an
outline, a tick, a diamond or a cross):
red and green are never the only difference. Every text is drawn on a colour it contrasts
with at least 4.5 to 1 (WCAG 2, success criterion 1.4.3), which the tests measure on the
frames the renderer draws.

>>> round(contrast((255, 255, 255), (0, 0, 0)), 1)
21.0
>>> contrast(TEXT, WARNING_BG) >= 4.5
True
"""

from __future__ import annotations

RGB = tuple[int, int, int]

# Okabe, M. and Ito, K. (2008), "Color Universal Design: how to make figures and
# presentations that are friendly to colorblind people".
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)

# The board: wood, felt and the points (told apart by lightness).
BACKGROUND: RGB = (16, 24, 22)
COLUMN: RGB = (22, 33, 30)
FRAME: RGB = (92, 60, 36)
FRAME_EDGE: RGB = (58, 37, 22)
FELT: RGB = (30, 72, 58)
BAR_WOOD: RGB = (74, 48, 29)
POINT_LIGHT: RGB = (226, 211, 178)
POINT_DARK: RGB = (164, 66, 48)
SENSOR_STRIP: RGB = (14, 14, 14)
TRAY_BED: RGB = (18, 34, 28)
FRAME_NUMBER: RGB = (226, 206, 170)
FRAME_NUMBER_FAR: RGB = (200, 184, 156)  # the player across the board's number, smaller
MAN_WHITE: RGB = (236, 230, 214)
MAN_BLACK: RGB = (36, 36, 42)

# What the board signals, each with its shape.
MOVABLE: RGB = YELLOW  # a ring and a glow round the man that may move
LIFTED: RGB = (240, 240, 232)  # a dashed ring where the lifted man was
TARGET: RGB = SKY_BLUE  # a filled disc, edged dark, where he may go
GHOST_EDGE: RGB = SKY_BLUE  # a pale man's dashed ring: a man to put there
HIT: RGB = VERMILLION  # a ring with four ticks round a target that hits a blot
ILLEGAL: RGB = VERMILLION  # the point hatched, and a card with a cross
ARROW: RGB = ORANGE  # the last play's arrows
LIGHT: RGB = REDDISH_PURPLE  # a lesson's outline round a point
RIGHT: RGB = BLUISH_GREEN  # a lesson answer: a tick
WRONG: RGB = VERMILLION  # a lesson answer: a cross; a book's wrong figure: a ring
EDGE: RGB = (12, 22, 40)  # the dark edge round arrows and targets
GRADE_COLOURS: dict[str, RGB] = {  # a graded destination (kiosk.tutor.hints), with its shape:
    "best": BLUISH_GREEN,  # a filled disc with a tick
    "fair": ORANGE,  # a filled diamond
    "costly": VERMILLION,  # a cross
}
CONNECTED: RGB = BLUISH_GREEN  # the dot beside "Table connected"
LOST: RGB = VERMILLION  # the dot and the screen's border when the table is lost
CHART_SERIES: tuple[RGB, ...] = (SKY_BLUE, ORANGE, REDDISH_PURPLE, BLUISH_GREEN)

# Text and what it is drawn on.
BAND: RGB = (14, 22, 20)
BAND_TURN: RGB = (24, 40, 35)
TEXT: RGB = (240, 240, 232)
DIM: RGB = (150, 160, 154)
ACCENT: RGB = (255, 204, 64)
WARNING_BG: RGB = (140, 45, 0)  # a dark vermillion, under a warning's words
ILLEGAL_CARD: RGB = (150, 42, 0)
LOST_BG: RGB = (70, 16, 16)
DETAIL_BG: RGB = (10, 18, 16)
CUBE_FACE: RGB = (236, 232, 220)
CUBE_EDGE: RGB = (40, 40, 40)
CARD: RGB = (12, 20, 18)
CARD_EDGE: RGB = ACCENT
CARD_TEXT: RGB = TEXT
CARD_DIM: RGB = DIM
CURSOR: RGB = ACCENT
CURSOR_TEXT: RGB = BAND
RATING_COLOURS: dict[str, RGB] = {  # the coach's word, on a chip of DETAIL_BG
    "fine": BLUISH_GREEN,
    "doubtful": YELLOW,
    "bad": ORANGE,
    "very bad": VERMILLION,
}


def luminance(colour: RGB) -> float:
    """The relative luminance of an sRGB colour (WCAG 2), 0 for black to 1 for white."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour[:3]
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(first: RGB, second: RGB) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
