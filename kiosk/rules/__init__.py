"""The rules of backgammon: positions, legal plays, notation, rule profiles, scoring.

Pure Python, no I/O. Points are counted from the side on roll (``BAR`` 25, ``OFF`` 0).
The Russian game, a variant beside the standard one, is in :mod:`kiosk.rules.russian`.

>>> from kiosk.rules import Position
>>> [str(p) for p in Position.standard().legal_plays(6, 5)][:3]
['24/13', '24/18 13/8', '24/18 8/3']
"""

from kiosk.rules.chances import (
    all_rolls,
    entering_chances,
    hit_points,
    shots,
    shots_by_attacker,
)
from kiosk.rules.game import (
    Cube,
    CubeAction,
    Game,
    GameError,
    OpeningThrow,
    Phase,
    Result,
    Turn,
    decide_opening,
    next_starter,
    score_game,
)
from kiosk.rules.moves import Play, Step, generate, roll_dice
from kiosk.rules.notation import IllegalPlayError, InvalidNotationError, format_play, parse_moves
from kiosk.rules.position import (
    BAR,
    BLACK,
    MEN,
    OFF,
    WHITE,
    Colour,
    InvalidPositionError,
    InvalidPositionIdError,
    Position,
    decode_position_id,
    encode_position_id,
)
from kiosk.rules.profiles import PROFILES, RuleProfile, get_profile
from kiosk.rules.russian import (
    RUSSIAN_PROFILES,
    RussianPlay,
    RussianPosition,
    RussianProfile,
    RussianTurn,
    get_russian_profile,
)
from kiosk.rules.tree import Node, PlayTree

__all__ = [
    "BAR",
    "BLACK",
    "MEN",
    "OFF",
    "WHITE",
    "PROFILES",
    "RUSSIAN_PROFILES",
    "Colour",
    "Cube",
    "CubeAction",
    "Game",
    "GameError",
    "IllegalPlayError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "Node",
    "OpeningThrow",
    "Phase",
    "Play",
    "PlayTree",
    "Position",
    "Result",
    "RuleProfile",
    "RussianPlay",
    "RussianPosition",
    "RussianProfile",
    "RussianTurn",
    "Step",
    "Turn",
    "all_rolls",
    "decide_opening",
    "decode_position_id",
    "encode_position_id",
    "entering_chances",
    "format_play",
    "generate",
    "get_profile",
    "get_russian_profile",
    "hit_points",
    "next_starter",
    "parse_moves",
    "roll_dice",
    "score_game",
    "shots",
    "shots_by_attacker",
]
