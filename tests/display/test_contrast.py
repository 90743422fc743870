"""Every word the renderer draws contrasts with what it is drawn on by at least 4.5 to 1
(WCAG 2, success criterion 1.4.3), in normal and in large text, measured on the frames.

Each view is drawn twice by two renderers, the second with every word left blank (the
same size, nothing in it): the pixels that differ are the words. Where such a pixel has
exactly a colour a word was drawn in (a glyph's solid inside, not its anti-aliased
edge), the blank frame's pixel there is what that word lies on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pygame
import pytest
from display_views import VIEWS

from kiosk.display import Calibration, Renderer
from kiosk.display.palette import RGB, contrast, luminance
from kiosk.display.text import TextCache
from kiosk.display.view import TableView

MINIMUM = 4.5
SOLID = 12  # pixels of one pair before it counts: a word's insides, not a stray edge


def test_contrast_is_wcags() -> None:
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast((0, 0, 255), (255, 255, 255)) == pytest.approx(8.59, abs=0.01)
    assert luminance((255, 0, 0)) == pytest.approx(0.2126)


def _frame(
    make: Callable[[], TableView], large: bool, size: tuple[int, int], blank: RGB | None = None
) -> tuple[np.ndarray, set[RGB]]:
    """A frame's pixels (a row each) and the colours its words were drawn in; with
    ``blank``, every word of that colour left blank (its size kept, nothing in it)."""
    inks: set[RGB] = set()
    real = TextCache.render

    def render(self: TextCache, text: str, size: int, colour: RGB) -> pygame.Surface:
        inks.add(tuple(colour))
        drawn = real(self, text, size, colour)
        if tuple(colour) != blank:
            return drawn
        return pygame.Surface(drawn.get_size(), pygame.SRCALPHA)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TextCache, "render", render)
        renderer = Renderer(pygame.Surface(size), Calibration.default(*size), large_text=large)
        renderer.draw(make(), 0)
    return pygame.surfarray.array3d(renderer.surface).reshape(-1, 3), inks


def words_and_ground(
    make: Callable[[], TableView], large: bool, size: tuple[int, int]
) -> tuple[set[RGB], Counter]:
    """The (word colour, colour under it) pairs of one frame, with their pixel counts.

    The words of each colour are found by leaving them, and only them, blank: the pixels
    that change and have exactly that colour are the insides of its letters (an edge
    blended with the ground never has it), and the blank frame shows what lies under them.
    """
    shown, inks = _frame(make, large, size)
    pairs: Counter = Counter()
    for ink in inks:
        bare, _ = _frame(make, large, size, blank=ink)
        letters = (shown != bare).any(axis=1) & (shown == np.array(ink)).all(axis=1)
        grounds, counts = np.unique(bare[letters], axis=0, return_counts=True)
        for ground, n in zip(grounds.tolist(), counts.tolist(), strict=True):
            pairs[(ink, tuple(ground))] += n
    return inks, pairs


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("make", VIEWS, ids=[v.__name__ for v in VIEWS])
def test_every_word_contrasts_with_what_it_is_drawn_on(
    make: Callable[[], TableView], large: bool
) -> None:
    inks, pairs = words_and_ground(make, large, (1280, 720))
    assert inks and pairs, "no words were found on the frame"
    weak = {
        (ink, ground, round(contrast(ink, ground), 2)): n
        for (ink, ground), n in pairs.items()
        if n >= SOLID and contrast(ink, ground) < MINIMUM
    }
    assert not weak, f"words below {MINIMUM}:1 (ink, ground, ratio): pixels {weak}"


def test_the_measure_sees_the_words_and_what_is_under_them() -> None:
    from kiosk.display.palette import ACCENT, BAND, BAND_TURN, DIM, ILLEGAL_CARD, TEXT

    _, pairs = words_and_ground(VIEWS[1], False, (1280, 720))  # the wrong placement
    seen = {pair for pair, n in pairs.items() if n >= SOLID}
    assert (TEXT, ILLEGAL_CARD) in seen  # the card's reason
    assert (DIM, BAND) in seen and (ACCENT, BAND_TURN) in seen  # "Their turn", "YOUR TURN"


def test_the_ratios_of_the_palettes_text_colours() -> None:
    """The pairs the renderer uses, as numbers (printed with -s for the record)."""
    from kiosk.display import palette as p

    pairs = {
        "text on band": (p.TEXT, p.BAND),
        "dim on band on roll": (p.DIM, p.BAND_TURN),
        "accent on band on roll": (p.ACCENT, p.BAND_TURN),
        "text on warning": (p.TEXT, p.WARNING_BG),
        "accent on warning": (p.ACCENT, p.WARNING_BG),
        "text on wrong placement's card": (p.TEXT, p.ILLEGAL_CARD),
        "text on lost table": (p.TEXT, p.LOST_BG),
        "cursor text on cursor": (p.CURSOR_TEXT, p.CURSOR),
        "card dim on card": (p.CARD_DIM, p.CARD),
        "text on felt": (p.TEXT, p.FELT),
        "accent on felt": (p.ACCENT, p.FELT),
        "number on frame": (p.FRAME_NUMBER, p.FRAME),
        "far player's number on frame": (p.FRAME_NUMBER_FAR, p.FRAME),
        "entering table on frame": (p.ACCENT, p.FRAME),
        "cube": (p.BAND, p.CUBE_FACE),
        **{f"coach {r} on chip": (c, p.DETAIL_BG) for r, c in p.RATING_COLOURS.items()},
        **{f"chart series {i}": (c, p.CARD) for i, c in enumerate(p.CHART_SERIES)},
    }
    for name, (ink, ground) in pairs.items():
        ratio = contrast(ink, ground)
        print(f"{name}: {ratio:.2f}")
        assert ratio >= MINIMUM, name
