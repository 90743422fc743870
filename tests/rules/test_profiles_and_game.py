"""Rule profiles where the books disagree, the game model, the cube and scoring."""

import pytest

from kiosk.rules import (
    BLACK,
    PROFILES,
    WHITE,
    CubeAction,
    Game,
    GameError,
    Phase,
    Position,
    Result,
    decide_opening,
    get_profile,
    next_starter,
    score_game,
)


def finished(loser_points, loser_bar=0, loser_off=0):
    """White has borne off everything; black's men given in black's own numbering."""
    black = [0] * 25
    for point, n in loser_points.items():
        black[point - 1] = n
    black[24] = loser_bar
    return Position(([0] * 25, black), (15, loser_off), BLACK)


def test_every_profile_is_named_after_a_book_or_modern():
    assert set(PROFILES) == {
        "modern",
        "cady",
        "hoffmann",
        "parker",
        "crawley",
        "foster",
        "foster-american",
    }
    for profile in PROFILES.values():
        assert profile.citation


def test_unknown_profile():
    with pytest.raises(ValueError, match="choose one of"):
        get_profile("hoyle")


def test_larger_die_differs_between_foster_and_cady():
    p = Position.from_points({10: 1, 1: -2})
    assert [str(x) for x in p.legal_plays(6, 3, "foster")] == ["10/4"]
    assert sorted(str(x) for x in p.legal_plays(6, 3, "cady")) == ["10/4", "10/7"]


def test_opening_regimes():
    # modern: the winner plays the two numbers
    assert decide_opening(get_profile("modern"), 2, 5).dice == (5, 2)
    assert decide_opening(get_profile("modern"), 2, 5).starter == BLACK
    # Cady, Hoffmann, Crawley: the winner may play them or throw afresh
    for name in ("cady", "hoffmann", "crawley"):
        outcome = decide_opening(get_profile(name), 5, 2)
        assert outcome.option and outcome.dice == (5, 2)
    # Foster: a fresh throw, unless the players agreed beforehand
    assert decide_opening(get_profile("foster"), 5, 2).dice is None
    agreed = get_profile("foster").replace(opening_agreed=True)
    assert decide_opening(agreed, 5, 2).dice == (5, 2)
    # Parker: both dice each, the higher total starts and throws again
    parker = get_profile("parker")
    outcome = decide_opening(parker, (6, 1), (3, 3))
    assert outcome.starter == WHITE and outcome.dice is None
    with pytest.raises(GameError, match="two dice each"):
        decide_opening(parker, 6, 3)
    # ties are thrown again
    assert decide_opening(get_profile("modern"), 4, 4).starter is None


def test_game_with_the_winners_option():
    game = Game(profile="crawley")
    assert game.opening(5, 2).option
    assert game.phase == Phase.OPENING_OPTION
    game.choose_opening(False)  # L in Crawley's first game rejects a 5-2
    assert game.phase == Phase.ROLL and game.turn == WHITE
    game.roll(1, 1)
    game.play("8/7(2) 6/5(2)")
    assert game.turn == BLACK and game.phase == Phase.ROLL


def test_scoring_single_gammon_backgammon_modern():
    modern = get_profile("modern")
    assert score_game(finished({6: 5}, loser_off=10), modern) == (WHITE, Result.SINGLE, 1)
    assert score_game(finished({6: 15}), modern) == (WHITE, Result.GAMMON, 2)
    assert score_game(finished({6: 14, 20: 1}), modern) == (WHITE, Result.BACKGAMMON, 3)
    assert score_game(finished({6: 14}, loser_bar=1), modern) == (WHITE, Result.BACKGAMMON, 3)
    assert score_game(finished({6: 14}, loser_bar=1), modern, cube=4)[2] == 12
    assert score_game(Position.standard(), modern) is None


def test_backgammon_zone_differs_between_books():
    outer = finished({6: 14, 15: 1})  # a straggler in the winner's outer table
    on_bar = finished({6: 14}, loser_bar=1)
    assert score_game(outer, get_profile("foster"))[1] == Result.BACKGAMMON  # winner's half
    assert score_game(outer, get_profile("modern"))[1] == Result.GAMMON
    assert score_game(outer, get_profile("cady"))[1] == Result.BACKGAMMON
    assert score_game(on_bar, get_profile("hoffmann"))[1] == Result.BACKGAMMON
    assert score_game(on_bar, get_profile("parker"))[1] == Result.GAMMON  # bar not named
    assert score_game(on_bar, get_profile("crawley"))[1] == Result.GAMMON


def test_backgammon_value_and_american_scoring():
    bg = finished({6: 14, 20: 1})
    assert score_game(bg, get_profile("cady"))[2] == 3
    assert score_game(bg, get_profile("cady").replace(backgammon_value=4))[2] == 4
    assert score_game(bg, get_profile("foster-american")) == (WHITE, Result.BACKGAMMON, 1)
    # a loser who has borne off a man and is hit loses only a single game (Cady)
    hit_after_bearing = finished({6: 13}, loser_bar=1, loser_off=1)
    assert score_game(hit_after_bearing, get_profile("cady"))[1] == Result.SINGLE


def test_who_throws_first_next_game():
    assert next_starter(get_profile("cady"), WHITE, Result.SINGLE) == WHITE
    assert next_starter(get_profile("cady"), WHITE, Result.GAMMON) is None
    assert next_starter(get_profile("crawley"), BLACK, Result.GAMMON) == BLACK
    assert next_starter(get_profile("modern"), WHITE, Result.SINGLE) is None


def test_cube_actions():
    game = Game()
    game.start_with(WHITE)
    assert game.legal_cube_actions() == [CubeAction.DOUBLE]
    game.double()
    assert game.legal_cube_actions() == [CubeAction.TAKE, CubeAction.PASS]
    game.take()
    assert game.cube.value == 2 and game.cube.owner == BLACK
    assert game.legal_cube_actions() == []  # black owns the cube now
    with pytest.raises(GameError, match="black owns the cube"):
        game.double()
    game.roll(3, 1)
    game.play("8/5 6/5")
    assert game.legal_cube_actions() == [CubeAction.DOUBLE]
    game.double()
    game.pass_()
    assert game.phase == Phase.OVER and game.result == (BLACK, Result.SINGLE, 2)


def test_no_cube_in_the_old_books():
    game = Game(profile="crawley")
    game.start_with(BLACK)
    assert game.legal_cube_actions() == []
    with pytest.raises(GameError, match="no doubling"):
        game.double()
    parker = Game(profile="parker")
    parker.start_with(BLACK)
    assert parker.legal_cube_actions() == [CubeAction.DOUBLE]


def test_game_refuses_out_of_turn_actions_and_keeps_state():
    game = Game()
    with pytest.raises(GameError, match="waiting for opening"):
        game.roll(3, 1)
    game.opening(3, 1)
    before = game.position
    with pytest.raises(ValueError):
        game.play("24/20 24/23 13/12")
    assert game.position == before and game.phase == Phase.PLAY
    with pytest.raises(GameError, match="1 to 6"):
        Game(phase=Phase.ROLL).roll(0, 3)


def test_game_ends_with_score():
    position = Position.from_points({1: 1, 6: -15})
    game = Game(position=position)
    game.start_with(WHITE)
    game.roll(2, 1)
    game.play("1/off")
    assert game.phase == Phase.OVER
    assert game.result == (WHITE, Result.BACKGAMMON, 3)  # black's men all in white's home
