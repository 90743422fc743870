"""The other variants of backgammon the table referees while the game waits.

Each :class:`Variant` names its title, whether the coach can rate its plays, and makes a
referee for a new game of it. Its referee is a sibling of the ordinary game's
:class:`~kiosk.referee.Referee` under one interface (:class:`~kiosk.referee.judge.Judge`),
as python-chess's variants are of ``chess.Board``. Another variant is a rules module, a
referee module and one line in :data:`VARIANTS` (and an item in the menu).

>>> list(VARIANTS)
['russian-cady', 'russian-foster']
>>> variant("russian-cady").title, variant("russian-cady").coached
('Russian backgammon (Cady)', False)
>>> variant("tables")
Traceback (most recent call last):
...
ValueError: the variant is one of russian-cady, russian-foster, not 'tables'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.events import Event
from kiosk.referee.referee import RefereeConfig
from kiosk.referee.russian import RussianReferee
from kiosk.rules.russian import RussianPosition, get_russian_profile
from kiosk.table import TableLayout

Publish = Callable[[Event], None]


@dataclass(frozen=True)
class Variant:
    """One game the table referees."""

    name: str
    title: str
    coached: bool  # whether the coach has an evaluator for it
    make: Callable[[TableLayout, RefereeConfig, Publish], RussianReferee]

    def new_game(
        self, layout: TableLayout, config: RefereeConfig, emit: Publish
    ) -> RussianReferee:
        """A referee for a new game of this variant, its men to be laid out for the start."""
        return self.make(layout, config, emit)


def _russian(book: str) -> Callable[[TableLayout, RefereeConfig, Publish], RussianReferee]:
    def make(layout: TableLayout, config: RefereeConfig, emit: Publish) -> RussianReferee:
        referee = RussianReferee(get_russian_profile(book), layout, config, emit=emit)
        referee.set_up(RussianPosition.start())
        return referee

    return make


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("russian-cady", "Russian backgammon (Cady)", False, _russian("russian-cady")),
        Variant(
            "russian-foster", "Russian backgammon (Foster)", False, _russian("russian-foster")
        ),
    )
}


def variant(name: str) -> Variant:
    """The variant called ``name``; a clear error for any other."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise ValueError(f"the variant is one of {known}, not {name!r}") from None
