"""Plain, large text: the font pygame ships, cached renders, wrapping to fit a box."""

from __future__ import annotations

import os
import unicodedata
from collections import OrderedDict

import pygame

FONT_FILE = os.path.join(os.path.dirname(pygame.__file__), "freesansbold.ttf")
Colour = tuple[int, int, int]


def printable(text: str) -> str:
    r"""``text`` as the renderer may draw it: each control character (a NUL from a damaged
    setting, an escape) shown as ``?``; line ends are the caller's to split.

    >>> printable("port\x00\x1b[2J")
    'port??[2J'
    """
    if text.isprintable():
        return text
    return "".join(
        "?" if c not in "\n\r" and unicodedata.category(c) == "Cc" else c for c in text
    )


class TextCache:
    """Fonts by pixel size and rendered lines, kept so that a steady frame costs no rendering."""

    def __init__(self, limit: int = 400) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._renders: OrderedDict[tuple[str, int, Colour], pygame.Surface] = OrderedDict()
        self._limit = limit

    def font(self, size: int) -> pygame.font.Font:
        """The shipped sans-serif font at ``size`` pixels."""
        size = max(6, int(size))
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = pygame.font.Font(FONT_FILE, size)
        return font

    def render(self, text: str, size: int, colour: Colour) -> pygame.Surface:
        """One line of anti-aliased text on a transparent background."""
        text = printable(text)
        key = (text, int(size), colour)
        surface = self._renders.get(key)
        if surface is None:
            surface = self.font(size).render(text, True, colour)
            self._renders[key] = surface
            if len(self._renders) > self._limit:
                self._renders.popitem(last=False)
        else:
            self._renders.move_to_end(key)
        return surface

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        """``text`` broken into lines no wider than ``width`` (a long word is cut)."""
        font = self.font(size)
        lines: list[str] = []
        for paragraph in printable(text).splitlines() or [""]:
            line = ""
            for word in paragraph.split():
                trial = f"{line} {word}" if line else word
                if font.size(trial)[0] <= width:
                    line = trial
                    continue
                if line:
                    lines.append(line)
                while font.size(word)[0] > width and len(word) > 1:
                    cut = len(word) - 1
                    while cut > 1 and font.size(word[:cut])[0] > width:
                        cut -= 1
                    lines.append(word[:cut])
                    word = word[cut:]
                line = word
            lines.append(line)
        return lines

    def fit(
        self, text: str, width: int, height: int, largest: int, smallest: int, max_lines: int
    ) -> tuple[int, list[str]]:
        """The largest size (down to ``smallest``) at which ``text`` fits the box, and its lines.

        At the smallest size, lines beyond ``max_lines`` are dropped and the last kept line
        ends with an ellipsis.
        """
        size = max(largest, smallest)
        while True:
            lines = self.wrap(text, size, width)
            spacing = self.font(size).get_linesize()
            if (len(lines) <= max_lines and len(lines) * spacing <= height) or size <= smallest:
                break
            size = max(smallest, int(size * 0.9))
        spacing = self.font(size).get_linesize()
        keep = max(1, min(max_lines, height // max(spacing, 1)))
        if len(lines) > keep:
            lines = lines[:keep]
            last = lines[-1]
            font = self.font(size)
            while last and font.size(last + "...")[0] > width:
                last = last[:-1]
            lines[-1] = last.rstrip() + "..."
        return size, lines

    def block(
        self,
        lines: list[str],
        size: int,
        colour: Colour,
        align: str = "left",
    ) -> pygame.Surface:
        """Several lines on one transparent surface, aligned ``left``, ``centre`` or ``right``."""
        renders = [self.render(line, size, colour) for line in lines]
        spacing = self.font(size).get_linesize()
        width = max((r.get_width() for r in renders), default=1)
        surface = pygame.Surface((max(width, 1), max(spacing * len(renders), 1)), pygame.SRCALPHA)
        for i, r in enumerate(renders):
            if align == "centre":
                x = (width - r.get_width()) // 2
            elif align == "right":
                x = width - r.get_width()
            else:
                x = 0
            surface.blit(r, (x, i * spacing))
        return surface
