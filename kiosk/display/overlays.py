"""Cards drawn over a player's half of the board: the menu, a lesson's question, a chart.

Each is drawn upright for the player whose edge is at the card's bottom; the renderer
turns black's copy through 180 degrees.
"""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.display.palette import (
    CARD,
    CARD_DIM,
    CARD_EDGE,
    CARD_TEXT,
    CHART_SERIES,
    CURSOR,
    CURSOR_TEXT,
    RGB,
    WRONG,
)
from kiosk.display.text import TextCache

MARKERS = ("circle", "square", "triangle", "diamond")  # each series its own, not colour alone


def list_card(
    text: TextCache,
    size: tuple[int, int],
    title: str,
    items: tuple[str, ...],
    cursor: int,
    footer: str,
    line: int,
) -> pygame.Surface:
    """A titled list with the item under the cursor highlighted, and a footer."""
    width, height = size
    pad = max(8, line // 2)
    card = pygame.Surface(size)
    card.fill(CARD)
    pygame.draw.rect(card, CARD_EDGE, card.get_rect(), 3, border_radius=pad)
    y = pad
    if title:
        tsize, lines = text.fit(
            title, width - 2 * pad, line * 2, int(line * 1.15), line * 3 // 4, 1
        )
        block = text.block(lines, tsize, CURSOR)
        card.blit(block, (pad, y))
        y += block.get_height() + pad // 2
    footer_surface = text.render(footer, max(10, line * 2 // 3), CARD_DIM) if footer else None
    bottom = height - pad - (footer_surface.get_height() if footer_surface else 0)
    row = max(int(line * 1.35), 1)
    visible = max(1, (bottom - y) // row)
    first = min(max(0, cursor - visible + 1), max(0, len(items) - visible))
    top = y
    for i, item in enumerate(items[first : first + visible], start=first):
        box = pygame.Rect(pad, y, width - 2 * pad, row - 4)
        selected = i == cursor
        if selected:
            pygame.draw.rect(card, CURSOR, box, border_radius=row // 4)
        room = box.width - pad - (line + pad if len(items) > visible else 0)
        isize, lines = text.fit(item, room, box.height, line, line * 2 // 3, 1)
        label = text.render(lines[0], isize, CURSOR_TEXT if selected else CARD_TEXT)
        card.blit(label, label.get_rect(midleft=(box.left + pad // 2, box.centery)))
        y += row
    if first > 0:  # drawn over the rows, in their right margin
        _more(card, (width - pad - line, top - pad // 2), line, up=True)
    if first + visible < len(items):
        _more(card, (width - pad - line, bottom - pad // 2), line, up=False)
    if footer_surface:
        card.blit(footer_surface, (pad, height - pad - footer_surface.get_height()))
    return card


def _more(card: pygame.Surface, at: tuple[int, int], size: int, up: bool) -> None:
    """A triangle in the card's margin: more items above (``up``) or below the ones shown."""
    x, y = at
    half = size // 2
    if up:
        points = [(x, y + half), (x + size, y + half), (x + half, y)]
    else:
        points = [(x, y - half), (x + size, y - half), (x + half, y)]
    pygame.draw.polygon(card, CURSOR, points)
    pygame.draw.polygon(card, CURSOR_TEXT, points, 2)  # seen on the highlighted row too


def chart_card(
    text: TextCache, size: tuple[int, int], chart: dict[str, Any], line: int
) -> pygame.Surface:
    """A lesson's chart: each series as a line of points (each its colour and marker, also
    shown in the legend), the books' wrong figures ringed."""
    width, height = size
    pad = max(8, line // 2)
    card = pygame.Surface(size)
    card.fill(CARD)
    pygame.draw.rect(card, CARD_EDGE, card.get_rect(), 3, border_radius=pad)
    small = max(10, line * 2 // 3)
    tsize, lines = text.fit(str(chart.get("title", "")), width - 2 * pad, line * 2, line, small, 1)
    title = text.block(lines, tsize, CURSOR)
    card.blit(title, (pad, pad))
    series = [s for s in chart.get("series", ()) if isinstance(s, dict) and s.get("values")]
    points = [(float(x), float(y)) for s in series for x, y in s["values"]]
    legend_h = text.font(small).get_linesize()
    plot = pygame.Rect(
        pad + small * 3,
        pad * 2 + title.get_height(),
        width - pad * 2 - small * 3,
        height - pad * 4 - title.get_height() - legend_h * 2,
    )
    if not points or plot.width < 20 or plot.height < 20:
        return card
    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y1 = max(ys) if max(ys) > 0 else 1.0

    def at(x: float, y: float) -> tuple[int, int]:
        return (
            int(plot.left + (x - x0) / (x1 - x0) * plot.width),
            int(plot.bottom - y / y1 * plot.height),
        )

    pygame.draw.line(card, CARD_DIM, plot.bottomleft, plot.bottomright, 2)
    pygame.draw.line(card, CARD_DIM, plot.bottomleft, plot.topleft, 2)
    for value in (0, y1 / 2, y1):
        label = text.render(f"{value:g}", small, CARD_DIM)
        card.blit(label, label.get_rect(midright=(plot.left - 4, at(x0, value)[1])))
    for x in sorted(set(xs)):
        label = text.render(f"{x:g}", small, CARD_DIM)
        card.blit(label, label.get_rect(midtop=(at(x, 0)[0], plot.bottom + 2)))
    legend_x = pad
    legend_y = height - pad - legend_h
    mark = max(4, line // 5)
    for i, s in enumerate(series):
        colour = CHART_SERIES[i % len(CHART_SERIES)]
        marker = MARKERS[i % len(MARKERS)]
        line_points = [at(float(x), float(y)) for x, y in sorted(s["values"])]
        if len(line_points) > 1:
            pygame.draw.lines(card, colour, False, line_points, 3)
        for xy in line_points:
            _marker(card, marker, colour, xy, mark)
        _marker(card, marker, colour, (legend_x + mark, legend_y + legend_h // 2), mark)
        name = text.render(str(s.get("name", "")), small, colour)
        card.blit(name, (legend_x + 3 * mark, legend_y))
        legend_x += 3 * mark + name.get_width() + pad * 2
    for wrong in chart.get("wrong", ()):
        try:
            xy = at(float(wrong["x"]), float(wrong["book_value"]))
        except (KeyError, TypeError, ValueError):
            continue
        ring = max(7, line // 3)
        pygame.draw.circle(card, CARD_TEXT, xy, ring + 3, 2)  # told from an orange series
        pygame.draw.circle(card, WRONG, xy, ring, 3)
    axis = text.render(str(chart.get("x_label", "")), small, CARD_DIM)
    card.blit(axis, axis.get_rect(bottomright=(width - pad, height - pad)))
    return card


def _marker(card: pygame.Surface, shape: str, colour: RGB, xy: tuple[int, int], r: int) -> None:
    """A chart point drawn as ``shape`` (circle, square, triangle or diamond) of radius ``r``."""
    x, y = xy
    if shape == "square":
        pygame.draw.rect(card, colour, (x - r, y - r, 2 * r, 2 * r))
    elif shape == "triangle":
        pygame.draw.polygon(card, colour, [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)])
    elif shape == "diamond":
        pygame.draw.polygon(
            card, colour, [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
        )
    else:
        pygame.draw.circle(card, colour, xy, r)
