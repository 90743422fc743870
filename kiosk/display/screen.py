"""The screen itself: a full-screen window, or a headless surface, and screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from kiosk.display.calibration import Calibration
from kiosk.display.renderer import Renderer
from kiosk.display.view import TableView
from kiosk.link import TableLayout

if TYPE_CHECKING:
    from kiosk.config import DisplaySection

INPUT_EVENTS = (
    pygame.KEYDOWN,
    pygame.KEYUP,
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.QUIT,
)


# The window was shown, uncovered, resized or restored: what it showed may be gone.
EXPOSED = (
    pygame.VIDEOEXPOSE,
    pygame.VIDEORESIZE,
    pygame.WINDOWSHOWN,
    pygame.WINDOWEXPOSED,
    pygame.WINDOWRESTORED,
    pygame.WINDOWMAXIMIZED,
    pygame.WINDOWSIZECHANGED,
    pygame.WINDOWFOCUSGAINED,
)
SETTLING_FRAMES = 60  # drawn every time while a new window is being mapped


def is_headless() -> bool:
    """Whether there is no screen to draw on: ``SDL_VIDEODRIVER=dummy``, or no X/Wayland
    display and no other video driver named in ``SDL_VIDEODRIVER`` (such as ``kmsdrm``)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver == "dummy":
        return True
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    return not driver


def save_screenshot(surface: pygame.Surface, path: str | os.PathLike[str]) -> str:
    """Save ``surface`` as an image (PNG unless the name says otherwise); returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(target))
    return str(target)


LOGICAL_1080P = (1920, 1080)  # the size drawn at when the GPU scales the picture up


def drawing_size(width: int, height: int, render: str) -> tuple[int, int]:
    """The size the picture is drawn at for a ``width`` x ``height`` screen under the
    ``[display] render`` setting: the screen's own, or (``"1080p"``, and ``"auto"`` on a
    screen larger than 1920x1080) the largest size of the same shape within 1920x1080, which
    SDL scales up to the screen on the GPU.

    >>> drawing_size(3840, 2160, "auto"), drawing_size(1920, 1080, "auto")
    ((1920, 1080), (1920, 1080))
    >>> drawing_size(3840, 2160, "native"), drawing_size(2560, 1600, "1080p")
    ((3840, 2160), (1728, 1080))
    """
    fit = min(LOGICAL_1080P[0] / width, LOGICAL_1080P[1] / height)
    if render == "native" or fit >= 1:
        return width, height
    return round(width * fit), round(height * fit)


def open_surface(
    width: int, height: int, fullscreen: bool, headless: bool, scaled: bool = False
) -> pygame.Surface:
    """The display surface: the screen (full-screen or a window) or a headless one; with
    ``scaled``, ``width`` x ``height`` is the size drawn at and SDL scales it up to the screen
    on the GPU (``pygame.SCALED``: input is mapped back to that size)."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    if headless:
        return pygame.display.set_mode((width, height))
    if pygame.display.get_driver() == "x11":
        # The picture is drawn in software; SDL would otherwise show it through an OpenGL
        # texture, which on a machine without a GPU driver loads Mesa's llvmpipe (about
        # 100 MB). X11's shared-memory images show it as fast. (Wayland and KMS/DRM have
        # no such path: there the texture stays.) An installer's own setting wins.
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    pygame.display.set_caption("Backgammon Table")
    flags = pygame.SCALED if scaled else 0
    if fullscreen and scaled and pygame.display.get_driver() == "x11":
        # X11 with no window manager (a kiosk, Xvfb) leaves a scaled full-screen window at
        # the size drawn at while SDL draws it screen-sized: a quarter shows. A borderless
        # window in the corner, which SDL makes the screen's size, shows all of it.
        os.environ.setdefault("SDL_VIDEO_WINDOW_POS", "0,0")
        surface = pygame.display.set_mode((width, height), flags | pygame.NOFRAME)
        pygame.mouse.set_visible(False)
        return surface
    if fullscreen:
        surface = pygame.display.set_mode((width, height), flags | pygame.FULLSCREEN)
        pygame.mouse.set_visible(False)
        return surface
    return pygame.display.set_mode((width, height), flags)


class Display:
    """The screen under the board: draws a view each frame and collects the players' input.

    With ``settings`` (the ``[display]`` section) the words are drawn large while
    ``large_text`` is on, as the installer's settings menu switches it, and a screen larger
    than 1920x1080 is drawn at 1920x1080 and scaled up on the GPU unless ``render`` is
    ``"native"`` (:func:`drawing_size`): at 4K the first frame of a new explanation card takes
    a Pi about 37 ms drawn at full size, about 13 ms so (``benchmarks/bench_display_4k.py``).
    ``calibration`` stays the screen's; the renderer's is that scaled to the size drawn at.
    """

    def __init__(
        self,
        calibration: Calibration,
        fullscreen: bool = True,
        headless: bool | None = None,
        layout: TableLayout | None = None,
        settings: DisplaySection | None = None,
    ) -> None:
        self.headless = is_headless() if headless is None else headless
        self.settings = settings  # [display]: large_text is followed as it changes
        self.warning: str | None = None
        if not self.headless and fullscreen:
            pygame.display.init()
            sizes = pygame.display.get_desktop_sizes()
            if sizes and sizes[0] != (calibration.width, calibration.height):
                # Same glass, another resolution: the slots stay where they are physically.
                self.warning = (
                    f"The screen is {sizes[0][0]}x{sizes[0][1]} but the calibration was made at "
                    f"{calibration.width}x{calibration.height}; scaled to fit. "
                    "Run 'kiosk calibrate' to check."
                )
                calibration = calibration.scaled(*sizes[0])
        render = settings.render if settings is not None else "native"
        size = drawing_size(calibration.width, calibration.height, render)
        self.screen_size = (calibration.width, calibration.height)
        scaled = size != self.screen_size
        if scaled:
            calibration = calibration.scaled(*size)
        self.surface = open_surface(*size, fullscreen, self.headless, scaled=scaled)
        large = settings is not None and settings.large_text
        self.renderer = Renderer(self.surface, calibration, layout, large_text=large)
        self._frames = 0

    @property
    def calibration(self) -> Calibration:
        """The calibration in use (scaled to the screen if its resolution differed, and to
        the size drawn at: pointer positions come in that size too)."""
        return self.renderer.calibration

    def frame(self, view: TableView, now_ms: int, redraw: bool = True) -> list[pygame.event.Event]:
        """Draw ``view`` and show what changed (only if ``redraw``, or the window was
        uncovered: then all of it), and return the key, mouse and quit events since last
        frame."""
        events = pygame.event.get()
        self._frames += 1
        if self.settings is not None and self.settings.large_text != self.renderer.large_text:
            self.renderer.set_large_text(self.settings.large_text)
            redraw = True
        if self._frames <= SETTLING_FRAMES or any(e.type in EXPOSED for e in events):
            self.renderer.invalidate()  # what the window showed may be gone: all of it
            redraw = True
        if redraw:
            changed = self.renderer.draw(view, now_ms)
            if changed == [self.surface.get_rect()]:
                pygame.display.flip()
            elif changed:
                pygame.display.update(changed)  # only the areas that changed
        return [event for event in events if event.type in INPUT_EVENTS]

    def screenshot(self, path: str | os.PathLike[str]) -> str:
        """Save what is on the screen now as an image; returns the path."""
        return save_screenshot(self.surface, path)

    def close(self) -> None:
        """Close the window (or the headless surface)."""
        pygame.display.quit()
