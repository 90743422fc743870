"""The variants the table referees while the game waits, by the rules' one registry.

Each :class:`TableVariant` is a variant of :data:`kiosk.rules.variants.VARIANTS` with the
referee that judges it at the table (a sibling of the ordinary game's
:class:`~kiosk.referee.Referee` under one interface, :class:`~kiosk.referee.judge.Judge`,
as python-chess's variants are of ``chess.Board``) and whether the coach can rate its
plays. A variant refereed at the table is one line in :data:`REFEREES` (the recipe:
:mod:`kiosk.rules.variants`).

>>> sorted(REFEREES)
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
from kiosk.rules.variants import VARIANTS, Variant
from kiosk.table import TableLayout

Publish = Callable[[Event], None]
Make = Callable[[Variant, TableLayout, RefereeConfig, Publish], RussianReferee]


@dataclass(frozen=True)
class TableVariant:
    """A variant of the rules (``rules``) refereed at the table by what ``make`` makes."""

    rules: Variant
    coached: bool  # whether the coach has an evaluator for it
    make: Make

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def title(self) -> str:
        return self.rules.title

    def new_game(self, layout: TableLayout, config: RefereeConfig, emit: Publish) -> RussianReferee:
        """A referee for a new game of this variant, its men to be laid out for the start."""
        return self.make(self.rules, layout, config, emit)


def _russian(
    rules: Variant, layout: TableLayout, config: RefereeConfig, emit: Publish
) -> RussianReferee:
    referee = RussianReferee(get_russian_profile(rules.name), layout, config, emit=emit)
    referee.set_up(RussianPosition.start())
    return referee


#: The variants refereed at the table besides the ordinary game (the core's own), by name.
REFEREES: dict[str, TableVariant] = {
    name: TableVariant(VARIANTS[name], coached, make)
    for name, coached, make in (
        ("russian-cady", False, _russian),
        ("russian-foster", False, _russian),
    )
}


def variant(name: str) -> TableVariant:
    """The variant called ``name`` refereed at the table; a clear error for any other."""
    try:
        return REFEREES[name]
    except KeyError:
        known = ", ".join(REFEREES)
        raise ValueError(f"the variant is one of {known}, not {name!r}") from None
