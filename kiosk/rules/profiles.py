"""Rule profiles: where the books disagree, each book's answer, and today's rules.

The differences are catalogued in ``shared/books/CATALOGUE.md`` (section 1.19).
``modern`` is today's standard game and the default.

>>> from kiosk.rules.profiles import get_profile
>>> get_profile('cady').larger_die
False
>>> get_profile('foster').larger_die
True
>>> sorted(PROFILES)
['cady', 'crawley', 'foster', 'foster-american', 'hoffmann', 'modern', 'parker']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class StartCast(StrEnum):
    """How the first throw of a game is cast."""

    ONE_DIE = "one-die"  # each side throws one die; the higher starts
    TWO_DICE_TOTAL = "two-dice-total"  # each side throws both dice; the higher total starts


class OpeningNumbers(StrEnum):
    """What happens to the numbers of the starting cast."""

    PLAY = "play"  # the winner must play the two numbers thrown (today's rule)
    WINNER_OPTION = "winner-option"  # the winner may play them or throw both dice afresh
    RETHROW = "rethrow"  # the winner throws both dice afresh
    USE_IF_AGREED = "use-if-agreed"  # played only if both players agreed beforehand


class Scoring(StrEnum):
    """How a finished game is counted."""

    ENGLISH = "english"  # hit 1, gammon 2, backgammon 3 (or 4 by agreement)
    AMERICAN = "american"  # every game counts one


class BackgammonZone(StrEnum):
    """Where the loser's straggler must stand for a backgammon."""

    WINNER_HOME = "winner-home"  # the winner's home (inner) table
    WINNER_HOME_OR_BAR = "winner-home-or-bar"  # the winner's home table or the bar
    WINNER_HALF = "winner-half"  # anywhere on the winner's half: home and outer tables
    WINNER_HALF_OR_BAR = "winner-half-or-bar"  # the winner's half or the bar


class NextGameFirst(StrEnum):
    """Who throws first in the next game."""

    THROW_OFF = "throw-off"  # both throw for it again
    SINGLE_WINNER = "single-winner"  # the winner of a single game; after a gammon, throw off
    WINNER = "winner"  # the previous winner


@dataclass(frozen=True)
class RuleProfile:
    """One book's answers to the questions where the books differ.

    ``citation`` names where each answer comes from, for the tutor and the laws lesson.
    """

    name: str
    title: str
    larger_die: bool = True
    start_cast: StartCast = StartCast.ONE_DIE
    opening_numbers: OpeningNumbers = OpeningNumbers.PLAY
    scoring: Scoring = Scoring.ENGLISH
    backgammon_value: int = 3
    backgammon_zone: BackgammonZone = BackgammonZone.WINNER_HOME_OR_BAR
    next_game_first: NextGameFirst = NextGameFirst.THROW_OFF
    doubling: bool = False
    opening_agreed: bool = False
    citation: str = ""

    def replace(self, **changes: Any) -> RuleProfile:
        """A copy with some answers changed (for example ``backgammon_value=4`` by agreement)."""
        return dataclasses.replace(self, **changes)


PROFILES: dict[str, RuleProfile] = {
    p.name: p
    for p in (
        RuleProfile(
            "modern",
            "Today's standard rules",
            doubling=True,
            citation="Today's rules: the larger die must be played; one die each to start, "
            "and the winner plays those numbers; gammon 2, backgammon 3; doubling cube.",
        ),
        RuleProfile(
            "cady",
            "Cady, Backgammon (1895)",
            larger_die=False,
            opening_numbers=OpeningNumbers.WINNER_OPTION,
            backgammon_zone=BackgammonZone.WINNER_HALF_OR_BAR,
            next_game_first=NextGameFirst.SINGLE_WINNER,
            citation="Cady, The Restrictions in Playing (free choice of die); Throwing "
            "(winner's option); Bearing (backgammon 3 or 4 by agreement, out of the "
            "winner's tables; the single-game winner throws first).",
        ),
        RuleProfile(
            "hoffmann",
            "Hoffmann, Hoyle's Games Modernized (1909)",
            opening_numbers=OpeningNumbers.WINNER_OPTION,
            backgammon_zone=BackgammonZone.WINNER_HOME_OR_BAR,
            next_game_first=NextGameFirst.SINGLE_WINNER,
            citation="Hoffmann, Playing (winner's option); Bearing off the Men (backgammon: "
            "a man on the bar or in the winner's home table; 3 or 4 by agreement).",
        ),
        RuleProfile(
            "parker",
            "Parker Brothers, Modern Backgammon",
            start_cast=StartCast.TWO_DICE_TOTAL,
            opening_numbers=OpeningNumbers.RETHROW,
            backgammon_zone=BackgammonZone.WINNER_HOME,
            doubling=True,
            citation="Parker, How to Play (both dice each, higher total starts and throws "
            "again); Scoring by Games (backgammon: a man in the winner's inner table); "
            "Optional Doubling.",
        ),
        RuleProfile(
            "crawley",
            "Crawley, Backgammon: Its Theory and Practice (1858)",
            opening_numbers=OpeningNumbers.WINNER_OPTION,
            backgammon_zone=BackgammonZone.WINNER_HOME,
            next_game_first=NextGameFirst.WINNER,
            citation="Crawley, Ch. III Instructions (probationary throw at the winner's "
            "option; backgammon: men not out of the adversary's table); Second Game "
            "(the previous winner sometimes throws first).",
        ),
        RuleProfile(
            "foster",
            "Foster's Complete Hoyle (1897), the English game",
            opening_numbers=OpeningNumbers.USE_IF_AGREED,
            backgammon_zone=BackgammonZone.WINNER_HALF,
            citation="Foster, law 12 (the larger die); laws 3-4 (one die each, the numbers "
            "played only by consent); The Object of the Game (backgammon: a man on the "
            "winner's half of the board).",
        ),
        RuleProfile(
            "foster-american",
            "Foster's Complete Hoyle (1897), the American game",
            opening_numbers=OpeningNumbers.USE_IF_AGREED,
            scoring=Scoring.AMERICAN,
            backgammon_zone=BackgammonZone.WINNER_HALF,
            citation="Foster, The American Game: gammons and backgammons are not counted; "
            "every game is one.",
        ),
    )
}

DEFAULT_PROFILE = PROFILES["modern"]


def get_profile(name: str | RuleProfile | None) -> RuleProfile:
    """The profile of that name (``None`` gives ``modern``); a clear error for an unknown one."""
    if name is None:
        return DEFAULT_PROFILE
    if isinstance(name, RuleProfile):
        return name
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown rule profile {name!r}; choose one of: {known}") from None
