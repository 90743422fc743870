"""Games played through the rules engine and recorded as the referee reports them."""

from __future__ import annotations

import random

from kiosk.books.crawley_games import PLAYERS, BookGame
from kiosk.rules import Colour, CubeAction, Game, Phase, Position, get_profile
from kiosk.store import Store


def record_random_game(
    store: Store,
    seed: int,
    *,
    match_id: int | None = None,
    cube: dict[int, str] | None = None,
    stop_after: int | None = None,
) -> tuple[int, Game]:
    """Play a game by random legal plays, recording each event as the referee emits it.

    ``cube`` maps a turn number to a cube action before that turn's throw: "take" (the side
    on roll doubles, if it may, and the other takes) or "pass" (the other passes).
    ``stop_after`` leaves the game unfinished after that many turns, the next dice thrown.
    """
    rng = random.Random(seed)
    game = Game(get_profile("modern"))
    game_id = store.start_game(
        "modern", Position.standard().position_id(), "white", match_id=match_id
    )
    while True:
        white, black = rng.randint(1, 6), rng.randint(1, 6)
        outcome = game.opening(white, black)
        event = {"event": "opening", "starter": None, "dice": [white, black]}
        if outcome.starter is not None:
            event["starter"] = str(outcome.starter)
        store.record(game_id, event)
        if outcome.starter is not None:
            break
    number = 0
    while game.phase != Phase.OVER:
        number += 1
        if game.phase == Phase.ROLL:
            action = (cube or {}).get(number)
            if action and CubeAction.DOUBLE in game.legal_cube_actions():
                doubler = game.turn
                game.double()
                store.record(game_id, {"event": "cube", "action": "double", "player": str(doubler)})
                store.record(
                    game_id, {"event": "cube", "action": action, "player": str(doubler.other)}
                )
                if action == "pass":
                    game.pass_()
                    winner, result, points = game.result
                    store.record(
                        game_id,
                        {
                            "event": "game-over",
                            "winner": str(winner),
                            "result": result.value,
                            "points": points,
                        },
                    )
                    break
                game.take()
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            game.roll(d1, d2)
            store.record(game_id, {"event": "dice", "player": str(game.turn), "dice": [d1, d2]})
        if stop_after is not None and number > stop_after:
            break
        mover, dice = game.turn, game.dice
        play = rng.choice(game.legal_plays())
        game.play(play)
        store.record(
            game_id,
            {
                "event": "play",
                "player": str(mover),
                "dice": list(dice),
                "move": str(play),
                "position": game.position.position_id(),
            },
        )
        if game.result:
            winner, result, points = game.result
            store.record(
                game_id,
                {
                    "event": "game-over",
                    "winner": str(winner),
                    "result": result.value,
                    "points": points,
                },
            )
    return game_id, game


def record_book_game(store: Store, book: BookGame) -> tuple[int, Game]:
    """Record one of Crawley's games as the referee would report it, under Crawley's rules."""
    game = Game(get_profile("crawley"))
    game_id = store.start_game("crawley", Position.standard().position_id(), "white")
    white, black = book.opening
    game.opening(white, black)
    starter = game.turn
    store.record(game_id, {"event": "opening", "starter": str(starter), "dice": [white, black]})
    game.choose_opening(book.opening_played)
    for turn in book.turns:
        mover = Colour.parse(PLAYERS[turn.player])
        assert game.turn == mover
        if game.phase == Phase.ROLL:
            game.roll(*turn.dice)
            store.record(game_id, {"event": "dice", "player": str(mover), "dice": list(turn.dice)})
        game.play(turn.move)
        store.record(
            game_id,
            {
                "event": "play",
                "player": str(mover),
                "dice": list(turn.dice),
                "move": turn.move,
                "position": game.position.position_id(),
            },
        )
    if game.result:
        winner, result, points = game.result
        store.record(
            game_id,
            {"event": "game-over", "winner": str(winner), "result": result.value, "points": points},
        )
    return game_id, game


#: 13/9 6/5 played with 3-1 (the 13/9 is a four), as the table held it once accepted.
WRONG_MOVE = Position.from_points(
    {13: 4, 9: 1, 8: 3, 6: 4, 5: 1, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5}, turn=Colour.BLACK
)


def record_wrong_move_let_stand(store: Store) -> int:
    """A game whose first turn is a wrong move the adversary accepted (laws mode)."""
    game = store.start_game("modern", Position.standard().position_id(), "white")
    store.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
    store.record(
        game,
        {
            "event": "play",
            "player": "white",
            "dice": [3, 1],
            "move": "",
            "accepted": True,
            "position": WRONG_MOVE.position_id(),
        },
    )
    return game
