"""The game core, between the referee and the application.

:class:`GameCore` owns the game on the table and the referee judging it, the cube
(:class:`CubeDealer`), the table's own side (:class:`TableSide`), the session of several
games (:class:`PlaySession`) and a game of another variant played while the game waits;
it is the only thing that changes them during play, and it publishes typed events. The
application's modes and ``kiosk scenario`` (:mod:`kiosk.rig.scenario`, in the rig above
this package: a script parser over the same core and a simulated table) both drive it;
lessons run headless through it too (:mod:`kiosk.rig.lessons`).
"""

from kiosk.play.core import CoreSettings, GameCore, TooLate
from kiosk.play.cube import CubeDealer, CubeError, cube_json
from kiosk.play.sessions import PlaySession, throw_off, with_rules
from kiosk.play.side import DEFAULT_LEVEL, TableSide, level_of, table_name

__all__ = [
    "DEFAULT_LEVEL",
    "CoreSettings",
    "CubeDealer",
    "CubeError",
    "GameCore",
    "PlaySession",
    "TableSide",
    "TooLate",
    "cube_json",
    "level_of",
    "table_name",
    "throw_off",
    "with_rules",
]
