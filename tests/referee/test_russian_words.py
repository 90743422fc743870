"""The words the Russian referee may use (``wording.russian_refusal``, ``laws.RUSSIAN_LAWS``):
a reason and what to do for every refusal, and citations by section, never by line."""

from __future__ import annotations

import re

import pytest

from kiosk.books import sources
from kiosk.referee.laws import RUSSIAN_LAWS
from kiosk.referee.wording import russian_refusal


@pytest.mark.parametrize("reason", sorted(RUSSIAN_LAWS))
def test_every_russian_refusal_has_a_reason_and_what_to_do(reason) -> None:
    words = russian_refusal(reason, (6, 4), moved=3, point=9, holders=2, adversary="black")
    assert words != "That is not a legal play of 6-4."
    assert re.search(r"\b(Put|put|Enter|enter|bring|It may go)\b", words), words
    assert "2 men of black's" in russian_refusal(
        "blocked", (6, 4), point=9, holders=2, adversary="black"
    )


@pytest.mark.parametrize("reason", sorted(RUSSIAN_LAWS))
def test_russian_laws_cite_sections_not_lines(reason) -> None:
    law = RUSSIAN_LAWS[reason]
    assert not re.search(r"\[\d{3}:\d+", law), law
    cite = law[law.rindex("(") + 1 : law.rindex(")")]
    assert sources.check(cite) == [], cite


def test_a_refusal_says_what_the_numbers_are() -> None:
    words = russian_refusal("no-die", (5, 5, 5, 5), moved=3, dests=("point 8",))
    assert words.startswith("That man went 3 points, and the number to play is 5")
    assert words.endswith("It may go to point 8.")
