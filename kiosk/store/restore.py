"""Rebuilding a game from its recorded events: the position, the dice, the cube, the result.

The ``position`` Position ID in every ``play`` event is what the table held after the play;
the move is replayed through the rules engine to double-check it, and where the two disagree
(a wrong move that was let stand, or a profile that changed) the recorded position wins.

>>> from kiosk.rules import Position
>>> events = [
...     {"event": "opening", "starter": "white", "dice": [3, 1]},
...     {"event": "play", "player": "white", "dice": [3, 1], "move": "8/5 6/5",
...      "position": "sGfwATDgc/ABMA"},
...     {"event": "dice", "player": "black", "dice": [6, 4]},
... ]
>>> game = restore_game("modern", Position.standard().position_id(), "white", events)
>>> game.phase.value, str(game.turn), game.dice, str(game.turns[0].play)
('play', 'black', (6, 4), '8/5 6/5')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kiosk.rules import (
    MEN,
    Colour,
    CubeAction,
    Game,
    GameError,
    InvalidPositionError,
    Phase,
    Play,
    Position,
    Result,
    decode_position_id,
    encode_position_id,
    get_profile,
)


def position_from_id(position_id: str, turn: Colour) -> Position:
    """The position a Position ID names with ``turn`` on roll, even one the rules call impossible.

    A wrong move let stand may leave a board that no legal play reaches; it is kept as sensed.
    Raises :class:`~kiosk.rules.InvalidPositionError` for text that is not a Position ID.
    """
    try:
        return Position.from_id(position_id, turn)
    except InvalidPositionError:
        roller, other = decode_position_id(position_id)  # raises on a malformed ID
    men = (roller, other) if turn == Colour.WHITE else (other, roller)
    off = (max(0, MEN - sum(men[0])), max(0, MEN - sum(men[1])))
    return Position(men, off, turn, validate=False)


def turn_to(position_id: str, roller: Colour, mover: Colour) -> str:
    """A Position ID written with ``roller`` on roll, rewritten with ``mover`` on roll."""
    if roller == mover:
        return position_id
    first, second = decode_position_id(position_id)
    return encode_position_id(tuple(second), tuple(first))


def restore_game(
    profile: str, position_id: str, turn: str, events: Iterable[dict[str, Any]]
) -> Game:
    """The :class:`~kiosk.rules.Game` that ``events`` lead to from the starting position."""
    game = Game(get_profile(profile), position_from_id(position_id, Colour.parse(turn)))
    for event in events:
        _apply(game, event)
    return game


def _colour(value: object, default: Colour) -> Colour:
    try:
        return Colour.parse(str(value))
    except ValueError:
        return default


def _dice(value: object) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        if all(isinstance(d, int) and 1 <= d <= 6 for d in value):
            return value[0], value[1]
    return None


def _apply(game: Game, event: dict[str, Any]) -> None:
    kind = event.get("event")
    if kind == "opening":
        _opening(game, event)
    elif kind == "dice":
        dice = _dice(event.get("dice"))
        if dice is not None and game.phase != Phase.OVER:
            game.record_throw(_colour(event.get("player"), game.turn), dice)
    elif kind == "play":
        _play(game, event)
    elif kind == "cube":
        _cube(game, event)
    elif kind == "take-back" and game.turns:
        game.take_back()
    elif kind == "game-over":
        winner = _colour(event.get("winner"), game.turn)
        try:
            result = Result(event.get("result", "single"))
        except ValueError:
            result = Result.SINGLE
        points = event.get("points")
        game.record_result(winner, result, points if isinstance(points, int) else game.cube.value)


def _opening(game: Game, event: dict[str, Any]) -> None:
    if event.get("starter") is None or game.phase != Phase.OPENING:
        return
    cast = event.get("dice")
    if not isinstance(cast, list | tuple) or len(cast) != 2:
        return
    white, black = (tuple(c) if isinstance(c, list | tuple) else c for c in cast)
    try:
        game.opening(white, black)
    except GameError:
        return


def _play(game: Game, event: dict[str, Any]) -> None:
    dice = _dice(event.get("dice"))
    after_id = event.get("position")
    if dice is None or not isinstance(after_id, str):
        return
    mover = _colour(event.get("player"), game.turn)
    before = game.position.with_turn(mover)
    play = None
    if not event.get("accepted"):
        move = str(event.get("move") or "")
        try:
            if move:
                play = before.parse_play(*dice, move, profile=game.profile)
            else:
                play = next(p for p in before.legal_plays(*dice, game.profile) if not p.steps)
        except (ValueError, StopIteration):
            play = None
        if play is not None and play.result.position_id() != after_id:
            play = None
    if play is None:
        try:
            play = Play((), position_from_id(after_id, mover.other))
        except InvalidPositionError:
            return
    game.record_play(mover, dice, play)


def _cube(game: Game, event: dict[str, Any]) -> None:
    action = event.get("action")
    if game.phase == Phase.OVER:
        return
    if action == "double":
        game.record_cube(CubeAction.DOUBLE, _colour(event.get("player"), game.turn))
    elif action in ("take", "pass"):
        game.record_cube(CubeAction(action), _colour(event.get("player"), game.turn.other))
