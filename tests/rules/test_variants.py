"""One property test for every variant and rule profile (issue 32): random games with
take-backs, as python-chess's perft tests and OpenSpiel's random-simulation tests walk
every game they know through one interface.

Each game of :data:`kiosk.rules.variants.VARIANTS` under each of its profiles is played
from its start to its end by random choices; at every choice the men are all there, the
position reads back from its notation, the plays are one per result and all as long,
and a choice taken back (now and then) gives back the game exactly as it was.
"""

from __future__ import annotations

import random

import pytest

from kiosk.rules import BLACK, WHITE, Position
from kiosk.rules.variants import (
    VARIANTS,
    Standard,
    StandardGame,
    Variant,
    VariantGame,
    find_variant,
)

MAX_THROWS = 3000  # a random game of any variant ends long before
GAMES = 2  # random games per variant and profile (more in the slow run below)

PROFILES = [(name, profile) for name, v in VARIANTS.items() for profile in v.profiles]


def _check_choices(variant: Variant, game: VariantGame) -> None:
    for colour in (WHITE, BLACK):
        assert game.men(colour) == 15
    assert variant.parse(game.notation()) == game.position()
    plays = [c for c in game.choices() if not isinstance(c, int)]
    assert len({len(p.steps) for p in plays}) <= 1  # as many dice in every play
    assert len({p.result for p in plays}) == len(plays)  # one play per result


def play_random_game(variant: Variant, profile: str, seed: int) -> VariantGame:
    """A game of ``variant`` under ``profile`` played to its end by random choices, a
    choice taken back and made again (maybe another) one time in five."""
    rng = random.Random(seed)
    game = variant.new_game(profile)
    throws = 0
    while game.winner() is None:
        _check_choices(variant, game)
        choices = game.choices()
        if not choices:
            assert throws < MAX_THROWS, "the game does not end"
            throws += 1
            game.throw(rng.randint(1, 6), rng.randint(1, 6))
            continue
        before = game.state()
        game.choose(rng.choice(choices))
        if rng.random() < 0.2:
            game.take_back()
            assert game.state() == before
            assert game.choices() == choices
            game.choose(rng.choice(choices))
    assert game.choices() == []
    return game


@pytest.mark.parametrize(("name", "profile"), PROFILES)
def test_random_games_with_take_backs(name: str, profile: str) -> None:
    for seed in range(GAMES):
        play_random_game(VARIANTS[name], profile, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "profile"), PROFILES)
def test_many_random_games_with_take_backs(name: str, profile: str) -> None:
    for seed in range(100, 130):
        play_random_game(VARIANTS[name], profile, seed)


def test_every_variant_and_profile_is_played() -> None:
    assert {name for name, _ in PROFILES} == {"standard", "russian-cady", "russian-foster"}
    assert {p for _, p in PROFILES} >= {"modern", "cady", "foster", "russian-cady"}
    with pytest.raises(ValueError, match="not 'tables'"):
        find_variant("tables")


# -- the recipe: a variant added ----------------------------------------------------------


class Nackgammon(Standard):
    """Nackgammon (Nick Ballard's): the ordinary game's rules from another start, two of
    each side's men taken from the mid-point and the six point to its 23 point."""

    name = "nackgammon"
    title = "Nackgammon"

    def start(self) -> Position:
        return Position.from_points(
            {24: 2, 23: 2, 13: 4, 8: 3, 6: 4, 1: -2, 2: -2, 12: -4, 17: -3, 19: -4}
        )


def test_a_variant_added_is_played_by_the_same_test(monkeypatch: pytest.MonkeyPatch) -> None:
    # step 2 of the recipe (kiosk/rules/variants.py): one line in VARIANTS
    monkeypatch.setitem(VARIANTS, Nackgammon.name, Nackgammon())
    variant = find_variant("nackgammon")
    game = play_random_game(variant, "modern", seed=1)
    assert isinstance(game, StandardGame) and game.game.turns[0].before == variant.start()
