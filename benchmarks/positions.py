"""The fixed set of (position, roll) pairs the rules benchmark times.

Drawn like the oracle tests' positions (``tests/rules/oracles.py``: whole games played by
our engine with fixed-seed policies, so contact, races, men on the bar against closed
boards, primes, bear-offs and doublets are all there), with a seed of its own. Game
records are kept rather than loose positions because OpenSpiel can only be walked to a
position through play.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "tests" / "rules"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from oracles import GameRecord, cases, draw_games  # noqa: E402

from kiosk.rules import Position  # noqa: E402

SEED = 20_240
N_CASES = 3000


def games(n_cases: int = N_CASES) -> list[GameRecord]:
    """The benchmark's games (deterministic): enough for ``n_cases`` cases."""
    return draw_games(SEED, n_cases)


def position_rolls(records: list[GameRecord] | None = None) -> list[tuple[Position, int, int]]:
    """The benchmark's (position, d1, d2) cases, in order."""
    return list(cases(records if records is not None else games()))
