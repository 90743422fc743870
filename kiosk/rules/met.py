"""Match equity: each side's chance to win a match from the score, before a game starts.

The figures are the Kazaross XG2 match equity table as GNU Backgammon ships it
(``met/Kazaross-XG2.xml``: copyright 2011 Neil Kazaross, rolled out with eXtreme Gammon to
9 points and GNU Backgammon to 15, extended to 25; transcribed by Michael Petch). It is
copied value for value into ``kiosk/rules/data/met_kazaross_xg2.json`` with its copyright
and permission notice; a test checks the copy against GNU Backgammon's file when that is
installed.

Scores are given as points *away* (still needed to win). A side 1-away plays the Crawford
game against a trailer (the pre-Crawford table's 1-away row), and after it the post-Crawford
table applies.

>>> round(match_equity(1, 2), 4)         # the Crawford game, leader 1-away, trailer 2-away
0.6774
>>> round(match_equity(2, 1, post_crawford=True), 4)   # the trailer after the Crawford game
0.488
>>> match_equity(5, 5)
0.5
>>> match_equity(30, 1)
Traceback (most recent call last):
...
kiosk.rules.met.MatchEquityError: the match equity table covers 1 to 25 points away, not 30
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from kiosk.errors import TableError

DATA_FILE = "met_kazaross_xg2.json"


class MatchEquityError(TableError, ValueError):
    """A score the table does not cover (the message says which)."""


@dataclass(frozen=True)
class MatchEquityTable:
    """A published match equity table: its name, its source and licence, and its figures."""

    name: str
    source: str
    copyright: str
    licence: str
    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]

    @property
    def length(self) -> int:
        """The longest match (in points away) the table covers."""
        return len(self.pre_crawford)

    @property
    def citation(self) -> str:
        """A one-line citation for the screen and the lessons."""
        return f"{self.name} ({self.copyright.split('.')[0]}), via GNU Backgammon"

    def equity(self, away: int, opponent_away: int, *, post_crawford: bool = False) -> float:
        """The chance (0 to 1) that a side ``away`` points from winning wins the match.

        ``post_crawford``: the Crawford game has been played and one side is 1-away.
        """
        for n in (away, opponent_away):
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= self.length:
                raise MatchEquityError(
                    f"the match equity table covers 1 to {self.length} points away, not {n!r}"
                )
        if post_crawford and (away == 1) != (opponent_away == 1):
            if away == 1:
                return 1.0 - self.post_crawford[opponent_away - 1]
            return self.post_crawford[away - 1]
        return self.pre_crawford[away - 1][opponent_away - 1]


@cache
def kazaross_xg2() -> MatchEquityTable:
    """The table shipped with the package (read once)."""
    text = resources.files("kiosk.rules").joinpath("data", DATA_FILE).read_text("utf-8")
    data = json.loads(text)
    return MatchEquityTable(
        name=data["name"],
        source=data["source"],
        copyright=data["copyright"],
        licence=data["licence"],
        pre_crawford=tuple(tuple(row) for row in data["pre_crawford"]),
        post_crawford=tuple(data["post_crawford"]),
    )


def match_equity(away: int, opponent_away: int, *, post_crawford: bool = False) -> float:
    """The chance that a side ``away`` points from winning wins, by the Kazaross XG2 table."""
    return kazaross_xg2().equity(away, opponent_away, post_crawford=post_crawford)
