"""What can still be read from a damaged records file: the game under way, its match and
session, the lesson progress and the PIN's wrong tries, written into a new file.

Each part is read on its own and a part that cannot be read is left out: a damaged page
costs what is on it, not the rest. The events are read by the table, not by its index (an
index is what SQLite most often finds damaged), in their order, until the first that
cannot be read.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.store.errors import StoreError
from kiosk.store.store import Store

log = logging.getLogger(__name__)


@dataclass
class Salvage:
    """What was read from a damaged file."""

    game: tuple[Any, ...] | None = None  # id, match, profile, mode, white, black, length, start
    events: list[dict[str, Any]] = field(default_factory=list)
    match: tuple[int, int, str] | None = None  # id, length, profile
    session: tuple[str, str] | None = None  # kind, state
    lessons: list[tuple[str, str, int, bool]] = field(default_factory=list)
    pin_failures: int = 0

    def write_into(self, store: Store) -> int:
        """Write what was read into ``store`` (a new file); how many events of the game
        under way were written again."""
        if self.match is not None:
            _try(store.new_match, self.match[1], self.match[2], match_id=self.match[0])
            if self.session is not None:
                _try(store.save_session, self.match[0], *self.session)
        for slot, lesson, step, done in self.lessons:
            _try(store.save_lesson_step, slot, lesson, step, done)
        if self.pin_failures:
            _try(store.save_pin_failures, self.pin_failures)
        if self.game is None:
            return 0
        game_id, match_id, profile, mode, white, black, length, position, turn = self.game
        if match_id is not None and self.match is None:
            match_id = None
        started = _try(
            store.start_game,
            profile,
            position,
            turn,
            players=(white, black),
            match_id=match_id,
            match_length=length,
            mode=mode,
            game_id=game_id,
        )
        if started is False:
            return 0
        written = 0
        for event in self.events:
            if _try(store.record, game_id, event) is False:
                break  # the rest follows from this one: stop at the first refused
            written += 1
        return written


def salvage(path: Path) -> Salvage:
    """Read what can be read of the records at ``path`` (a damaged file, kept aside)."""
    found = Salvage()
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        log.warning("store: nothing can be read from %s: %s", path, err)
        return found
    try:
        found.game = _one(
            db,
            "SELECT id, match_id, profile, mode, white, black, match_length, start_position, "
            "start_turn FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1",
        )
        if found.game is not None:
            found.events = _events(db, int(found.game[0]))
            match_id = found.game[1]
        else:
            match_id = None
        if match_id is not None:
            found.match = _one(db, "SELECT id, length, profile FROM matches WHERE id = ?", match_id)
            found.session = _one(
                db, "SELECT kind, state FROM sessions WHERE match_id = ?", match_id
            )
        found.lessons = _all(db, "SELECT player_slot, lesson_id, step, done FROM lessons")
        pin = _one(db, "SELECT value FROM installer WHERE key = 'pin_failures'")
        found.pin_failures = int(pin[0]) if pin else 0
    finally:
        db.close()
    return found


def _one(db: sqlite3.Connection, sql: str, *args: Any) -> tuple[Any, ...] | None:
    try:
        row = db.execute(sql, args).fetchone()
    except sqlite3.Error as err:
        log.warning("store: not read from the damaged file: %s (%s)", sql.split(" FROM ")[1], err)
        return None
    return tuple(row) if row is not None else None


def _all(db: sqlite3.Connection, sql: str) -> list[Any]:
    try:
        return [tuple(row) for row in db.execute(sql)]
    except sqlite3.Error as err:
        log.warning("store: not read from the damaged file: %s (%s)", sql.split(" FROM ")[1], err)
        return []


def _events(db: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
    """The game's events in order, read by the table (not its index) up to the first that
    cannot be read."""
    events: list[dict[str, Any]] = []
    try:
        cursor = db.execute(
            "SELECT body FROM events NOT INDEXED WHERE game_id = ? ORDER BY id", (game_id,)
        )
        for (body,) in cursor:
            event = json.loads(body)
            if not isinstance(event, dict):
                break
            events.append(event)
    except (sqlite3.Error, ValueError) as err:
        log.warning("store: game %d read up to event %d: %s", game_id, len(events), err)
    return events


def _try(write: Any, *args: Any, **kwargs: Any) -> Any:
    """``write(*args, **kwargs)``; ``False`` (logged) if the new file refuses it."""
    try:
        return write(*args, **kwargs)
    except StoreError as err:
        log.warning("store: not written again: %s", err)
        return False
