"""Parker's chouette: the throw-off, the captain, a partner declining the box's double,
the rotation after each game and the settlement per player."""

from __future__ import annotations

import pytest

from kiosk.rules import BLACK, WHITE, Result, get_profile
from kiosk.rules.chouette import Chouette, ChouetteError, ThrowOff, player_names


def seated_four() -> Chouette:
    throw = ThrowOff(player_names(4, ["Ann", "Bob", "", "Dee"]))
    assert throw.pending == ["Ann", "Bob", "Player 3", "Dee"]
    for who, die in [(1, 4), (2, 6), (3, 4), (4, 2)]:
        throw.throw(who, die)
    assert throw.pending == ["Ann", "Player 3"]  # tied: they throw again
    throw.throw("Player 3", 5)
    with pytest.raises(ChouetteError, match="does not throw now"):
        throw.throw("Bob", 3)
    throw.throw("Ann", 5)  # tied again
    assert throw.pending == ["Ann", "Player 3"] and not throw.done
    throw.throw("Ann", 1)
    throw.throw("Player 3", 2)
    assert throw.done and throw.order == ["Bob", "Player 3", "Ann", "Dee"]
    return Chouette.seated(throw, stake=1)


def test_a_chouette_of_four_declining_and_rotating() -> None:
    game = seated_four()
    assert (game.box, game.captain, game.partners) == (
        "Bob",
        "Player 3",
        ["Player 3", "Ann", "Dee"],
    )
    # game 1: the box (white) doubles; Dee declines by himself, the captain takes
    assert game.box_doubles(declines=["Dee"]) == {"Player 3": 1, "Dee": -1}
    assert game.shares == {"Player 3": 2, "Ann": 1}
    with pytest.raises(ChouetteError, match="other side"):
        game.box_doubles()
    # the box wins a gammon at 2: 4 a share; the captain carries Dee's share
    assert game.finish(WHITE, Result.GAMMON) == {"Ann": -4, "Bob": 12, "Player 3": -8}
    # box wins: the next partner is captain, the beaten captain goes to the bottom
    assert (game.box, game.partners) == ("Bob", ["Ann", "Dee", "Player 3"])
    assert game.score == [-4, 12, -7, -1]
    # game 2: the partnership (black) wins a single: the captain takes the box
    assert game.finish(BLACK) == {"Ann": 1, "Bob": -3, "Player 3": 1, "Dee": 1}
    assert (game.box, game.partners) == ("Ann", ["Dee", "Player 3", "Bob"])
    # game 3: the captain doubles, the box passes: each partner wins the stake at 1
    assert game.partners_double(box_takes=False) == {"Ann": -3, "Bob": 1, "Player 3": 1, "Dee": 1}
    assert (game.box, game.partners) == ("Dee", ["Player 3", "Bob", "Ann"])
    assert game.score == [-6, 10, -5, 1] and sum(game.score) == 0
    assert game.games == 3


def test_the_captain_declining_ends_the_game_for_all() -> None:
    game = seated_four()
    paid = game.box_doubles(captain_takes=False)
    assert paid == {"Ann": -1, "Bob": 3, "Player 3": -1, "Dee": -1}
    assert game.box == "Bob" and game.captain == "Ann"


def test_the_captain_decides_disagreements() -> None:
    game = seated_four()
    views = {"Player 3": "13/7 13/11", "Ann": "24/18 13/11", "Dee": "24/18 13/11"}
    assert game.consult(views) == "13/7 13/11"
    with pytest.raises(ChouetteError, match="not in the partnership"):
        game.consult({"Bob": "6/off", "Player 3": "8/2"})
    with pytest.raises(ChouetteError, match="captain"):
        game.consult({"Ann": "8/2"})


def test_players_names_and_bad_input() -> None:
    assert player_names(3) == ["Player 1", "Player 2", "Player 3"]
    for count in (2, 9, "4"):
        with pytest.raises(ChouetteError):
            player_names(count)
    with pytest.raises(ChouetteError, match="same name"):
        player_names(3, ["Ann", "Ann"])
    throw = ThrowOff(player_names(3))
    for bad in ((4, 3), ("Zed", 3), (1, 7), (1, 0)):
        with pytest.raises(ChouetteError):
            throw.throw(*bad)
    assert throw.pending == ["Player 1", "Player 2", "Player 3"]
    game = seated_four()
    with pytest.raises(ChouetteError):
        game.box_doubles(declines=["Bob"])  # the box is not a partner
    with pytest.raises(ChouetteError):
        game.box_doubles(declines=["Player 3"])  # the captain declines for all
    with pytest.raises(ChouetteError):
        game.finish("red")
    with pytest.raises(ChouetteError):
        Chouette(["A", "B", "C"], profile=get_profile("hoffmann")).box_doubles()
    assert game.score == [0, 0, 0, 0]


def test_stranded_count_and_round_trip_mid_game() -> None:
    game = seated_four()
    game.box_doubles(declines=["Ann"])
    again = Chouette.from_json(game.to_json())
    assert again == game
    # a stranded-men count of 7 at the cube of 2: 14 a share; the captain holds two
    assert again.finish("partners", points=7) == {"Bob": -42, "Player 3": 28, "Dee": 14}
    assert again.score == [-1, -42, 29, 14]
    with pytest.raises(ChouetteError):
        Chouette.from_json('{"format": 1}')
    with pytest.raises(ChouetteError):
        Chouette.from_json("not json")


def test_the_order_and_tallies_in_words() -> None:
    game = seated_four()
    game.finish(WHITE, Result.GAMMON)
    assert game.seating() == [
        "In the box: Bob (+6)",
        "Playing opponent: Ann (-2)",
        "Partner: Dee (-2)",
        "Partner: Player 3 (-2)",
    ]
    assert game.who_plays() == "Ann plays for the partnership against Bob in the box."
