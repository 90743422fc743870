"""Reading screenshots: one pixel's colour, the pixels where two frames differ."""

from __future__ import annotations

import pygame


def rgb(surface: pygame.Surface, xy: tuple[float, float]) -> tuple[int, int, int]:
    """The colour of one pixel."""
    colour = surface.get_at((int(xy[0]), int(xy[1])))
    return (colour.r, colour.g, colour.b)


def differing(a: pygame.Surface, b: pygame.Surface, area: pygame.Rect) -> pygame.mask.Mask:
    """The pixels of ``area`` where two surfaces differ, as a mask of ``area``'s size."""
    first = a.subsurface(area).copy()
    second = b.subsurface(area).copy()
    forward = first.copy()
    forward.blit(second, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    backward = second.copy()
    backward.blit(first, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    forward.blit(backward, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(forward, (0, 0, 0, 255), (1, 1, 1, 255))
    same.invert()
    return same
