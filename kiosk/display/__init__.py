"""The display under the physical board: the board itself, highlights and each player's text.

``Calibration`` (screen position of every slot; ``Calibration.default(width, height)``,
``load_calibration(path)``, ``save_calibration(path, cal)``), ``Renderer(surface,
calibration)`` that draws a :class:`~kiosk.display.view.TableView` in one call, and
:class:`Display`, which owns the full-screen window (or a headless surface) and gives the
application its key and mouse events. ``kiosk calibrate`` makes the calibration.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the checker sees the names' own types; at run time they load when used
    from kiosk.display.calibration import Calibration as Calibration
    from kiosk.display.calibration import calibration_path as calibration_path
    from kiosk.display.calibration import load_calibration as load_calibration
    from kiosk.display.calibration import load_or_default as load_or_default
    from kiosk.display.calibration import save_calibration as save_calibration
    from kiosk.display.renderer import Renderer as Renderer
    from kiosk.display.screen import Display as Display
    from kiosk.display.screen import is_headless as is_headless
    from kiosk.display.screen import open_surface as open_surface
    from kiosk.display.screen import save_screenshot as save_screenshot

# Names are imported when first used, so that importing a part of this package (such as
# the ``kiosk calibrate`` command's registration) does not load pygame.
_EXPORTS = {
    "Calibration": "calibration",
    "calibration_path": "calibration",
    "load_calibration": "calibration",
    "load_or_default": "calibration",
    "save_calibration": "calibration",
    "Renderer": "renderer",
    "Display": "screen",
    "is_headless": "screen",
    "open_surface": "screen",
    "save_screenshot": "screen",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'kiosk.display' has no attribute {name!r}")
    return getattr(import_module(f"kiosk.display.{_EXPORTS[name]}"), name)
