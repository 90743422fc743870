"""The table's records: every game, turn, verdict and lesson step, safe from a power cut.

``Store`` writes each application event in its own SQLite transaction and rebuilds the
unfinished game after a restart; ``kiosk.store.export`` writes games as Jellyfish ``.mat``
files that GNU Backgammon imports.
"""

from kiosk.store.errors import StoreBusyError, StoreDamagedError, StoreTroubleError
from kiosk.store.store import (
    DEFAULT_PATH,
    ENV_VAR,
    ClassAnswer,
    GameSummary,
    LessonRecord,
    MatchSummary,
    Store,
    StoreError,
    TurnRecord,
    default_path,
)
from kiosk.store.writer import StoreWriter

__all__ = [
    "DEFAULT_PATH",
    "ENV_VAR",
    "ClassAnswer",
    "GameSummary",
    "LessonRecord",
    "MatchSummary",
    "Store",
    "StoreBusyError",
    "StoreDamagedError",
    "StoreError",
    "StoreTroubleError",
    "StoreWriter",
    "TurnRecord",
    "default_path",
]
