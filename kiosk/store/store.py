"""The table's records in one SQLite file: games, matches, every event, turns, lesson progress.

Each event is written in its own transaction as it happens, in WAL mode with
``synchronous=FULL``, so a power cut loses nothing that was recorded and never leaves a
half-written turn. The turns, and a game's result, are derived from the events in the same
transaction that stores them. Everything is ordered by its id, never by the clock (the
table has no real-time clock and its time may step back); the timestamps are for people.

The file and its write-ahead log are private to the kiosk's user (``0600``). Opening checks
the file whole while it is small (``START_CHECK_BYTES``) and, beyond that, only what a
restart reads, so the start costs the same after years; :meth:`Store.check` checks it all.
Old games keep what replays and ``.mat`` files need and lose the rest (:meth:`Store.prune`).

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> with Store(os.path.join(folder, "table.sqlite3")) as store:
...     game = store.start_game("modern", "4HPwATDgc/ABMA", "white")
...     store.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
...     store.record(game, {"event": "play", "player": "white", "dice": [3, 1],
...                         "move": "8/5 6/5", "position": "sGfwATDgc/ABMA"})
...     store.turns(game)[0].move, store.unfinished_game() == game
('8/5 6/5', True)
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, cast

from kiosk.config import HintBudget
from kiosk.files import shorten
from kiosk.rules import Colour, Game, InvalidPositionError, decode_position_id, get_profile
from kiosk.store.errors import (
    StoreDamagedError,
    StoreTroubleError,
    from_os,
    from_sqlite,
    os_words,
)
from kiosk.store.errors import (
    StoreError as StoreError,
)
from kiosk.store.restore import restore_game, turn_to

SCHEMA_VERSION = 1
DEFAULT_PATH = "~/.local/share/backgammon-table/table.sqlite3"
ENV_VAR = "BACKGAMMON_TABLE_DB"
HEADER = b"SQLite format 3\x00"
START_CHECK_BYTES = 16 << 20  # a file up to this size is checked whole at every start
WAL_LIMIT_BYTES = 4 << 20  # the write-ahead log is cut back to this after a checkpoint
KEEP_WHOLE_GAMES = 200  # the latest games keep every event; older ones what replays need
#: The events an old game keeps: what rebuilding it, replaying it and its .mat file read.
KEPT_KINDS = ("opening", "dice", "play", "cube", "take-back", "game-over", "abandoned")

_SCHEMA = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    length INTEGER NOT NULL,
    profile TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER REFERENCES matches(id),
    number INTEGER NOT NULL,
    started TEXT NOT NULL,
    profile TEXT NOT NULL,
    mode TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    match_length INTEGER NOT NULL,
    start_position TEXT NOT NULL,
    start_turn TEXT NOT NULL,
    finished TEXT,
    winner TEXT,
    result TEXT,
    points INTEGER
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX events_by_game ON events(game_id, id);
CREATE TABLE turns (
    game_id INTEGER NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    colour TEXT NOT NULL,
    die1 INTEGER NOT NULL,
    die2 INTEGER NOT NULL,
    move TEXT NOT NULL,
    accepted INTEGER NOT NULL,
    position_before TEXT NOT NULL,
    position_after TEXT NOT NULL,
    event_id INTEGER NOT NULL REFERENCES events(id),
    PRIMARY KEY (game_id, number)
);
CREATE TABLE lessons (
    player_slot TEXT NOT NULL,
    lesson_id TEXT NOT NULL,
    step INTEGER NOT NULL,
    done INTEGER NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (player_slot, lesson_id)
);
"""

# A session of several games (match, money, rubber, set, chouette): its state as one JSON
# row, rewritten after each game. Added to older files of the same version when opened.
_SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id),
    kind TEXT NOT NULL,
    updated TEXT NOT NULL,
    state TEXT NOT NULL
)
"""

# What the installer's side keeps across restarts (the PIN's wrong tries). Added likewise.
_INSTALLER = """
CREATE TABLE IF NOT EXISTS installer (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
)
"""


# Each learner's own settings (how much a lifted man's destinations are shown: the hint
# budget, as [tutor] hints writes it), set by the learner at the table or by the teacher.
_LEARNER_SETTINGS = """
CREATE TABLE IF NOT EXISTS learner_settings (
    learner TEXT PRIMARY KEY,
    hints TEXT NOT NULL,
    updated TEXT NOT NULL
)
"""


# One student's answers read along an index (the teacher's progress page, a page at a time).
_CLASS_ANSWERS_BY_STUDENT = (
    "CREATE INDEX IF NOT EXISTS class_answers_by_student ON class_answers(student, id)"
)

# The answers a class gave in the companion's votes (kiosk/companion): made when first used.
_CLASS_ANSWERS = """
CREATE TABLE IF NOT EXISTS class_answers (
    id INTEGER PRIMARY KEY,
    class_id TEXT NOT NULL,
    student TEXT NOT NULL,
    question TEXT NOT NULL,
    position TEXT NOT NULL,
    dice TEXT NOT NULL,
    answer TEXT NOT NULL,
    best TEXT NOT NULL,
    correct INTEGER NOT NULL,
    equity_loss REAL,
    at TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class TurnRecord:
    """One turn as recorded: who, the dice, the move, and the Position IDs around it.

    ``position_before`` has the mover on roll; ``position_after`` the adversary. ``move`` is
    GNU Backgammon notation, ``""`` when no man could move or when a wrong move was let stand
    (``accepted``).
    """

    number: int
    colour: str
    dice: tuple[int, int]
    move: str
    position_before: str
    position_after: str
    accepted: bool = False


@dataclass(frozen=True)
class GameSummary:
    """One game in the list of games: when, under which rules, and how it ended (if it has)."""

    id: int
    started: str
    profile: str
    winner: str | None
    result: str | None
    points: int | None
    match_id: int | None = None
    number: int = 1
    players: tuple[str, str] = ("white", "black")
    mode: str = "teaching"
    match_length: int = 0
    finished: str | None = None
    start_position: str = ""
    start_turn: str = "white"


@dataclass(frozen=True)
class MatchSummary:
    """One match: its length, its rules and the score so far (white's, black's)."""

    id: int
    started: str
    length: int
    profile: str
    score: tuple[int, int]


@dataclass(frozen=True)
class ClassAnswer:
    """One student's answer to a class vote: the play chosen, the best one, how far off."""

    class_id: str
    student: str
    question: str
    position: str  # "" for a lesson's question
    dice: tuple[int, int] | None  # None for a lesson's question
    answer: str
    best: str
    correct: bool
    equity_loss: float | None
    at: str


@dataclass(frozen=True)
class LessonRecord:
    """How far one learner (a player slot) has come in one lesson, and when."""

    player_slot: str
    lesson_id: str
    step: int
    done: bool
    updated: str


def default_path() -> Path:
    """Where the records live: ``$BACKGAMMON_TABLE_DB``, else ``~/.local/share/...``."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_PATH).expanduser()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """The records of one table: open it once, record every event, read games back.

    ``busy_ms`` is how long a statement waits for another program holding the file;
    ``checked=False`` skips the check at opening (a second connection to a file just checked).
    """

    def __init__(
        self, path: str | os.PathLike[str], *, busy_ms: int = 10_000, checked: bool = True
    ) -> None:
        self.path = Path(path).expanduser()
        self.busy_ms = busy_ms
        self._checked = checked
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise from_os(
                err, f"cannot create the folder {self.path.parent} for the records"
            ) from None
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a record file")
        if self.path.exists() and not os.access(self.path, os.R_OK | os.W_OK):
            raise StoreTroubleError(f"{self.path} cannot be used: {_not_writable(self.path)}")
        _private_file(self.path)
        try:
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=busy_ms / 1000
            )
        except sqlite3.Error as err:
            raise from_sqlite(err, f"cannot open the records {self.path}", self.path) from None
        try:
            self._open()
        except sqlite3.DatabaseError as err:
            self._db.close()
            found = from_sqlite(err, f"{self.path} cannot be opened", self.path)
            if isinstance(found, StoreDamagedError):
                raise StoreDamagedError(
                    f"{self.path} cannot be read as the table's records ({err}); move it aside "
                    "and a new one is made at the next start",
                    code=found.code,
                ) from None
            if "readonly" in str(err):
                raise StoreTroubleError(
                    f"{self.path} cannot be written ({_not_writable(self.path)})",
                    code=found.code,
                ) from None
            raise found from None
        except StoreError:
            self._db.close()
            raise
        for kin in log_files(self.path):  # the log SQLite made beside it: private too
            _private_file(kin, create=False)

    def _open(self) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")
        size = _header_size(self.path)
        if size <= START_CHECK_BYTES and self._checked:
            self._verdict(db.execute("PRAGMA quick_check").fetchall())
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path} cannot use write-ahead logging (mode {mode})")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer version of the table software "
                f"(records version {version}; this one reads up to {SCHEMA_VERSION})"
            )
        if version == 0:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables:
                raise StoreError(f"{self.path} is an SQLite file, but not the table's records")
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sessions'").fetchone():
            with self._transaction():
                db.execute(_SESSIONS)
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'installer'").fetchone():
            with self._transaction():
                db.execute(_INSTALLER)
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'learner_settings'").fetchone():
            with self._transaction():
                db.execute(_LEARNER_SETTINGS)
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if "pruned" not in columns:
            with self._transaction():
                db.execute("ALTER TABLE games ADD COLUMN pruned INTEGER NOT NULL DEFAULT 0")
        if size > START_CHECK_BYTES and self._checked:
            self._probe()

    def _probe(self) -> None:
        """Read what a restart reads (the latest game, its events and turns, the latest
        session): a damaged page there is found now, at a cost that does not grow."""
        db = self._db
        last = db.execute(f"{_GAME_SELECT} ORDER BY id DESC LIMIT 1").fetchone()
        if last is not None:
            events = "SELECT count(*), sum(length(body)) FROM events WHERE game_id = ?"
            db.execute(events, (last[0],)).fetchone()
            db.execute("SELECT count(*) FROM turns WHERE game_id = ?", (last[0],)).fetchone()
        db.execute("SELECT * FROM sessions ORDER BY match_id DESC LIMIT 1").fetchone()
        db.execute("SELECT * FROM matches ORDER BY id DESC LIMIT 1").fetchone()
        db.execute("SELECT count(*) FROM lessons").fetchone()

    def _verdict(self, rows: list[tuple[Any, ...]]) -> None:
        """Raise :class:`StoreError` unless an integrity check's rows say ``ok``: the first
        problem named, the others counted (SQLite lists them on many lines)."""
        if rows and rows[0][0] == "ok":
            return
        lines = [
            line.strip()
            for (text,) in rows
            for line in str(text).splitlines()
            if line.strip() and not line.startswith("***")
        ]
        first = lines[0][:200] if lines else "no answer"
        more = f" (and {len(lines) - 1} more problems)" if len(lines) > 1 else ""
        raise StoreDamagedError(f"{self.path} is damaged: {first}{more}")

    def check(self) -> None:
        """Check the whole file (SQLite's ``quick_check``) on a connection of its own, so
        that this one is not held meanwhile; :class:`StoreError` if it is damaged."""
        try:
            probe = sqlite3.connect(self.path, timeout=self.busy_ms / 1000)
            try:
                rows = probe.execute("PRAGMA quick_check").fetchall()
            finally:
                probe.close()
        except sqlite3.Error as err:
            raise from_sqlite(err, f"{self.path} cannot be checked", self.path) from None
        self._verdict(rows)

    def copy_to(self, target: str | os.PathLike[str]) -> bool:
        """Copy the records as this connection reads them into a new file ``target`` (the
        file itself may be gone or cut short); whether the copy is whole."""
        try:
            copy = sqlite3.connect(target)
            try:
                with self._lock:
                    self._db.backup(copy)
                rows = copy.execute("PRAGMA quick_check").fetchall()
            finally:
                copy.close()
        except sqlite3.Error:
            return False
        return rows == [("ok",)]

    # -- life cycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (everything recorded is already on disk)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def news(self) -> list[tuple[bool, str]]:
        """What happened to the records since the last call, as ``(saving, words)``: a store
        written directly raises its errors instead, so it has nothing to tell."""
        return []

    # -- writing ---------------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._lock, self.path)

    def new_match(self, length: int, profile: str, *, match_id: int | None = None) -> int:
        """Start a match to ``length`` points (0: games without a match length); its id
        (``match_id`` if given: a writer that hands out ids before writing)."""
        if not isinstance(length, int) or length < 0:
            raise StoreError(f"a match is played to 0 or more points, not {length!r}")
        name = _profile_name(profile)
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO matches (id, started, length, profile) VALUES (?, ?, ?, ?)",
                (match_id, _now(), length, name),
            )
        return _row_id(cursor)

    def next_ids(self) -> tuple[int, int]:
        """The ids the next game and the next match will have."""
        rows = self._read("SELECT (SELECT max(id) FROM games), (SELECT max(id) FROM matches)")
        game, match = rows[0]
        return (game or 0) + 1, (match or 0) + 1

    def save_session(self, match_id: int, kind: str, state: str) -> None:
        """Keep a session's state (JSON text) with its match, replacing what was kept before."""
        try:
            if not isinstance(json.loads(state), dict):
                raise ValueError("not a JSON object")
        except (TypeError, ValueError) as err:
            raise StoreError(f"a session's state is kept as a JSON object: {err}") from None
        with self._transaction() as db:
            if not db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone():
                raise StoreError(f"there is no match {match_id} in {self.path}")
            db.execute(
                "INSERT INTO sessions (match_id, kind, updated, state) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET kind = excluded.kind, "
                "updated = excluded.updated, state = excluded.state",
                (match_id, str(kind), _now(), state),
            )

    def session(self, match_id: int) -> tuple[str, str] | None:
        """The kind and JSON state kept for a match's session, if any."""
        rows = self._read("SELECT kind, state FROM sessions WHERE match_id = ?", (match_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def last_session(self) -> tuple[int, str, str] | None:
        """The latest session (the highest match id, whatever the clock said): its match
        id, kind and JSON state."""
        rows = self._read(
            "SELECT match_id, kind, state FROM sessions ORDER BY match_id DESC LIMIT 1"
        )
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def start_game(
        self,
        profile: str,
        position_id: str,
        turn: str,
        *,
        players: tuple[str, str] = ("white", "black"),
        match_id: int | None = None,
        match_length: int = 0,
        mode: str = "teaching",
        game_id: int | None = None,
    ) -> int:
        """Record a new game from ``position_id`` with ``turn`` ("white"/"black") on roll; its id.

        ``players`` names white's and black's players. In a match, ``match_length`` defaults
        to the match's length. ``game_id``: the id to give it (a writer that hands out ids
        before writing); by default the next one.
        """
        name = _profile_name(profile)
        _check_position_id(position_id)
        try:
            colour = Colour.parse(str(turn))
        except ValueError as err:
            raise StoreError(str(err)) from None
        if len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
            raise StoreError(f"give the two players' names, white's then black's: {players!r}")
        with self._transaction() as db:
            number = 1
            if match_id is not None:
                row = db.execute("SELECT length FROM matches WHERE id = ?", (match_id,)).fetchone()
                if row is None:
                    raise StoreError(f"there is no match {match_id} in {self.path}")
                match_length = match_length or row[0]
                number += db.execute(
                    "SELECT count(*) FROM games WHERE match_id = ?", (match_id,)
                ).fetchone()[0]
            cursor = db.execute(
                "INSERT INTO games (id, match_id, number, started, profile, mode, white, black, "
                "match_length, start_position, start_turn) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    match_id,
                    number,
                    _now(),
                    name,
                    str(mode),
                    players[0].strip(),
                    players[1].strip(),
                    int(match_length),
                    position_id.strip(),
                    str(colour),
                ),
            )
        return _row_id(cursor)

    def record(self, game_id: int, event: dict[str, Any]) -> None:
        """Write one application event of a game, timestamped, in its own transaction.

        A ``play`` event adds a turn and a ``take-back`` removes the last one; ``game-over``
        (or a passed double) ends the game.
        An event that cannot be stored raises :class:`StoreError` and writes nothing.
        """
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise StoreError(f"an event is a dict with an 'event' name, not {event!r}")
        kind = event["event"]
        turn = _play_fields(event) if kind == "play" else None
        try:
            body = json.dumps(event, default=str, ensure_ascii=False)
        except (TypeError, ValueError) as err:
            raise StoreError(f"the {kind!r} event cannot be written down: {err}") from None
        at = _now()
        with self._transaction() as db:
            game = db.execute(
                "SELECT start_position, start_turn FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if game is None:
                raise StoreError(f"there is no game {game_id} in {self.path}")
            cursor = db.execute(
                "INSERT INTO events (game_id, at, kind, body) VALUES (?, ?, ?, ?)",
                (game_id, at, kind, body),
            )
            if turn is not None:
                self._add_turn(db, game_id, game, turn, _row_id(cursor))
            elif kind == "game-over":
                self._finish(db, game_id, at, event)
            elif kind == "cube" and event.get("action") == "pass":
                self._finish_passed(db, game_id, at, event)
            elif kind == "take-back":
                self._take_back(db, game_id, event)
            elif kind == "abandoned":
                db.execute(
                    "UPDATE games SET finished = ? WHERE id = ? AND finished IS NULL",
                    (at, game_id),
                )

    def _add_turn(
        self,
        db: sqlite3.Connection,
        game_id: int,
        game: tuple[Any, ...],
        turn: tuple[Any, ...],
        event_id: int,
    ) -> None:
        mover, dice, move, after, accepted = turn
        last = db.execute(
            "SELECT number, colour, position_after FROM turns WHERE game_id = ? "
            "ORDER BY number DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        if last is None:
            number, before = 1, turn_to(game[0], Colour.parse(game[1]), mover)
        else:
            number = last[0] + 1
            before = turn_to(last[2], Colour.parse(last[1]).other, mover)
        db.execute(
            "INSERT INTO turns (game_id, number, colour, die1, die2, move, accepted, "
            "position_before, position_after, event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                number,
                str(mover),
                dice[0],
                dice[1],
                move,
                accepted,
                before,
                after,
                event_id,
            ),
        )

    def _take_back(self, db: sqlite3.Connection, game_id: int, event: dict[str, Any]) -> None:
        """A play taken back (the coach's offer in a teaching game) is no longer a turn."""
        last = db.execute(
            "SELECT number, colour, move FROM turns WHERE game_id = ? ORDER BY number DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        if last is None:
            raise StoreError(f"game {game_id} has no play to take back")
        if event.get("player") is not None and str(event["player"]) != last[1]:
            raise StoreError(
                f"the take-back names {event['player']}, but {last[1]} played the last turn"
            )
        db.execute("DELETE FROM turns WHERE game_id = ? AND number = ?", (game_id, last[0]))

    def _finish(self, db: sqlite3.Connection, game_id: int, at: str, event: dict[str, Any]) -> None:
        points = event.get("points")
        db.execute(
            "UPDATE games SET finished = ?, winner = ?, result = ?, points = ? WHERE id = ?",
            (
                at,
                str(event.get("winner")) if event.get("winner") is not None else None,
                str(event.get("result")) if event.get("result") is not None else None,
                points if isinstance(points, int) else None,
                game_id,
            ),
        )

    def _finish_passed(
        self, db: sqlite3.Connection, game_id: int, at: str, event: dict[str, Any]
    ) -> None:
        try:
            passer = Colour.parse(str(event.get("player")))
        except ValueError:
            return
        takes = db.execute(
            "SELECT count(*) FROM events WHERE game_id = ? AND kind = 'cube' "
            "AND json_extract(body, '$.action') = 'take'",
            (game_id,),
        ).fetchone()[0]
        db.execute(
            "UPDATE games SET finished = ?, winner = ?, result = 'single', points = ? "
            "WHERE id = ? AND finished IS NULL",
            (at, str(passer.other), 2**takes, game_id),
        )

    def abandon_game(self, game_id: int) -> None:
        """Mark a game left unfinished on purpose, so it is no longer resumed."""
        self.record(game_id, {"event": "abandoned"})

    def save_lesson_step(
        self, player_slot: str, lesson_id: str, step: int, done: bool = False
    ) -> None:
        """Remember how far ``player_slot`` has come in a lesson."""
        if not isinstance(step, int) or step < 0:
            raise StoreError(f"a lesson step is a number from 0, not {step!r}")
        with self._transaction() as db:
            db.execute(
                "INSERT INTO lessons (player_slot, lesson_id, step, done, updated) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_slot, lesson_id) DO UPDATE SET "
                "step = excluded.step, done = excluded.done, updated = excluded.updated",
                (str(player_slot), str(lesson_id), step, int(bool(done)), _now()),
            )

    def save_learner_hints(self, learner: str, hints: str | None) -> None:
        """Keep ``learner``'s own hint budget (``legal``, ``everything``, ``budget N``,
        ``think``: see :class:`kiosk.config.HintBudget`); None forgets it (the table's holds)."""
        if not isinstance(learner, str) or not 1 <= len(learner) <= 40:
            raise StoreError(f"a learner is named by 1 to 40 characters, not {learner!r}")
        with self._transaction() as db:
            if hints is None:
                db.execute("DELETE FROM learner_settings WHERE learner = ?", (learner,))
                return
            try:
                budget = HintBudget.parse(hints)
            except ValueError as err:
                raise StoreError(str(err)) from None
            db.execute(
                "INSERT INTO learner_settings (learner, hints, updated) VALUES (?, ?, ?) "
                "ON CONFLICT (learner) DO UPDATE SET hints = excluded.hints, "
                "updated = excluded.updated",
                (learner, str(budget), _now()),
            )

    def save_pin_failures(self, failures: int, key: str = "pin_failures") -> None:
        """Keep how many wrong PINs were entered in a row (0 after the right one); ``key``
        names another PIN's count (the teacher's)."""
        if not isinstance(failures, int) or failures < 0:
            raise StoreError(f"wrong PINs are counted from 0, not {failures!r}")
        with self._transaction() as db:
            db.execute(
                "INSERT INTO installer (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(key), failures),
            )

    def prune(self, keep: int = KEEP_WHOLE_GAMES, batch: int = 20) -> int:
        """Drop from finished games older than the latest ``keep`` the events that neither
        rebuilding, replaying nor exporting them reads (the coach's verdicts, messages,
        notices); at most ``batch`` games a call, so that each call is short. How many
        games were pruned."""
        kinds = ", ".join(f"'{k}'" for k in KEPT_KINDS)
        with self._transaction() as db:
            newest = db.execute(
                "SELECT id FROM games ORDER BY id DESC LIMIT 1 OFFSET ?", (keep,)
            ).fetchone()
            if newest is None:
                return 0
            old = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM games WHERE id <= ? AND pruned = 0 AND finished IS NOT NULL "
                    "ORDER BY id LIMIT ?",
                    (newest[0], batch),
                )
            ]
            for game_id in old:
                db.execute(
                    f"DELETE FROM events WHERE game_id = ? AND kind NOT IN ({kinds}) "
                    "AND id NOT IN (SELECT event_id FROM turns WHERE game_id = ?)",
                    (game_id, game_id),
                )
                db.execute("UPDATE games SET pruned = 1 WHERE id = ?", (game_id,))
        return len(old)

    # -- reading ---------------------------------------------------------------------------

    def learner_hints(self, learner: str) -> HintBudget | None:
        """``learner``'s own hint budget, if one is kept (a damaged one counts as none)."""
        rows = self._read("SELECT hints FROM learner_settings WHERE learner = ?", (str(learner),))
        try:
            return HintBudget.parse(rows[0][0]) if rows else None
        except ValueError:
            return None

    def pin_failures(self, key: str = "pin_failures") -> int:
        """How many wrong PINs were entered in a row, as last kept (``key``: whose)."""
        rows = self._read("SELECT value FROM installer WHERE key = ?", (str(key),))
        return int(rows[0][0]) if rows else 0

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as err:
                raise from_sqlite(err, f"cannot read {self.path}", self.path) from None

    def unfinished_game(self) -> int | None:
        """The most recent game that has not ended, if any."""
        rows = self._read("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1")
        return rows[0][0] if rows else None

    def game(self, game_id: int) -> GameSummary:
        """One game's summary (raises :class:`StoreError` if there is no such game)."""
        rows = self._read(f"{_GAME_SELECT} WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"there is no game {game_id} in {self.path}")
        return _summary(rows[0])

    def games(self, match_id: int | None = None) -> list[GameSummary]:
        """Every game, oldest first, or only those of one match."""
        if match_id is None:
            rows = self._read(f"{_GAME_SELECT} ORDER BY id")
        else:
            rows = self._read(f"{_GAME_SELECT} WHERE match_id = ? ORDER BY id", (match_id,))
        return [_summary(row) for row in rows]

    def recent_games(self, limit: int) -> list[GameSummary]:
        """The last ``limit`` games finished with a winner, oldest first: those rows only,
        read newest first along the games' ids (the Replay menu's list)."""
        rows = self._read(
            f"{_GAME_SELECT} WHERE finished IS NOT NULL AND finished != '' "
            "AND winner IS NOT NULL AND winner != '' ORDER BY id DESC LIMIT ?",
            (int(limit),),
        )
        return [_summary(row) for row in reversed(rows)]

    def match(self, match_id: int) -> MatchSummary:
        """One match with its score (raises :class:`StoreError` if there is no such match)."""
        rows = self._read(
            "SELECT id, started, length, profile FROM matches WHERE id = ?", (match_id,)
        )
        if not rows:
            raise StoreError(f"there is no match {match_id} in {self.path}")
        _, started, length, profile = rows[0]
        where = f"match {match_id}"
        _expect(where, "start", started, str)
        _expect(where, "length", length, int)
        _known_profile(where, profile)
        score = {"white": 0, "black": 0}
        for game in self.games(match_id):
            if game.winner in score and game.points:
                score[game.winner] += game.points
        match_id, started, length, profile = rows[0]
        return MatchSummary(match_id, started, length, profile, (score["white"], score["black"]))

    def last_game(self) -> int | None:
        """The most recently started game, if any."""
        rows = self._read("SELECT max(id) FROM games")
        return cast("int | None", rows[0][0])

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """A game's events as they were recorded, in order."""
        self.game(game_id)
        rows = self._read("SELECT id, body FROM events WHERE game_id = ? ORDER BY id", (game_id,))
        return [_event(game_id, event_id, body) for event_id, body in rows]

    def timeline(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        """A game's events with the time each was recorded (ISO 8601, UTC)."""
        self.game(game_id)
        rows = self._read(
            "SELECT id, at, body FROM events WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [(str(at), _event(game_id, event_id, body)) for event_id, at, body in rows]

    def turns(self, game_id: int) -> list[TurnRecord]:
        """A game's turns, first to last."""
        self.game(game_id)
        rows = self._read(
            "SELECT number, colour, die1, die2, move, position_before, position_after, accepted "
            "FROM turns WHERE game_id = ? ORDER BY number",
            (game_id,),
        )
        return [_turn(game_id, *row) for row in rows]

    def load_game(self, game_id: int) -> Game:
        """The game as its events leave it: position, dice, cube, turns and result."""
        summary = self.game(game_id)
        try:
            return restore_game(
                summary.profile, summary.start_position, summary.start_turn, self.events(game_id)
            )
        except ValueError as err:
            raise StoreError(f"game {game_id} cannot be rebuilt: {err}") from None

    def lesson_progress(self, player_slot: str) -> dict[str, tuple[int, bool]]:
        """How far ``player_slot`` has come in each lesson: lesson id -> (step, done)."""
        rows = self._read(
            "SELECT lesson_id, step, done FROM lessons WHERE player_slot = ? ORDER BY lesson_id",
            (str(player_slot),),
        )
        return {lesson: (step, bool(done)) for lesson, step, done in rows}

    # -- the class companion's records -------------------------------------------------------

    def all_lesson_progress(self) -> list[LessonRecord]:
        """Every learner's progress in every lesson, by learner then lesson."""
        rows = self._read(
            "SELECT player_slot, lesson_id, step, done, updated FROM lessons "
            "ORDER BY player_slot, lesson_id"
        )
        return [
            LessonRecord(slot, lesson, step, bool(done), at)
            for slot, lesson, step, done, at in rows
        ]

    def learners(self, offset: int, limit: int) -> tuple[int, list[str]]:
        """How many learners there are (a lesson begun or a class answer kept), and the
        names of ``limit`` of them from ``offset`` in alphabetical order, case aside: the
        names alone, read along the indexes."""
        names = {row[0] for row in self._read("SELECT DISTINCT player_slot FROM lessons")}
        if self._has_class_answers():
            names.update(row[0] for row in self._read("SELECT DISTINCT student FROM class_answers"))
        ordered = sorted(names, key=str.lower)
        return len(ordered), ordered[max(0, offset) : max(0, offset) + max(0, limit)]

    def progress_of(self, names: list[str]) -> tuple[list[LessonRecord], list[ClassAnswer]]:
        """The lesson progress (by learner, then lesson) and the class answers (oldest first)
        of the learners named: their rows only."""
        if not names:
            return [], []
        marks = ", ".join("?" * len(names))
        rows = self._read(
            "SELECT player_slot, lesson_id, step, done, updated FROM lessons "
            f"WHERE player_slot IN ({marks}) ORDER BY player_slot, lesson_id",
            tuple(names),
        )
        lessons = [
            LessonRecord(slot, lesson, step, bool(done), at)
            for slot, lesson, step, done, at in rows
        ]
        answers = self._class_answers_where(f"student IN ({marks})", tuple(names))
        return lessons, answers

    def _has_class_answers(self) -> bool:
        return bool(self._read("SELECT 1 FROM sqlite_master WHERE name = 'class_answers'"))

    def save_class_answer(self, answer: ClassAnswer) -> None:
        """Keep one student's answer to a class vote."""
        dice = answer.dice
        if dice is not None and not (
            len(dice) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in dice)
        ):
            raise StoreError(f"an answer's dice are two numbers 1 to 6, not {dice!r}")
        if answer.position:
            _check_position_id(answer.position)
        with self._transaction() as db:
            db.execute(_CLASS_ANSWERS)
            db.execute(_CLASS_ANSWERS_BY_STUDENT)
            db.execute(
                "INSERT INTO class_answers (class_id, student, question, position, dice, answer, "
                "best, correct, equity_loss, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    str(answer.class_id),
                    str(answer.student),
                    str(answer.question),
                    answer.position,
                    f"{dice[0]}-{dice[1]}" if dice else "",
                    str(answer.answer),
                    str(answer.best),
                    int(bool(answer.correct)),
                    answer.equity_loss,
                    answer.at or _now(),
                ),
            )

    def class_answers(self, student: str | None = None) -> list[ClassAnswer]:
        """The answers kept from class votes, oldest first (one student's, if named)."""
        if student is None:
            return self._class_answers_where("1", ())
        return self._class_answers_where("student = ?", (student,))

    def _class_answers_where(self, condition: str, args: tuple[object, ...]) -> list[ClassAnswer]:
        """The class answers meeting ``condition`` (SQL, with ``args``), oldest first."""
        if not self._has_class_answers():
            return []
        rows = self._read(
            "SELECT class_id, student, question, position, dice, answer, best, correct, "
            f"equity_loss, at FROM class_answers WHERE {condition} ORDER BY id",
            args,
        )
        return [
            ClassAnswer(c, s, q, p, (int(d[0]), int(d[2])) if d else None, a, b, bool(ok), loss, at)
            for c, s, q, p, d, a, b, ok, loss, at in rows
        ]

    def activity_since(self, since: str) -> tuple[int, int]:
        """Games started and lessons worked on (by anyone) since ``since`` (ISO 8601, UTC)."""
        games = self._read("SELECT count(*) FROM games WHERE started >= ?", (since,))[0][0]
        lessons = self._read("SELECT count(*) FROM lessons WHERE updated >= ?", (since,))[0][0]
        return int(games), int(lessons)


_GAME_SELECT = (
    "SELECT id, started, profile, winner, result, points, match_id, number, white, black, "
    "mode, match_length, finished, start_position, start_turn FROM games"
)


def _private_file(path: Path, create: bool = True) -> None:
    """Make the records file (created if need be) readable by its owner only."""
    try:
        if create and not path.exists() and not path.is_symlink():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        info = path.stat()
        if info.st_uid == os.geteuid() and info.st_mode & 0o077:
            path.chmod(0o600)
    except OSError:
        return  # SQLite says what is wrong with the path, in its own words


def _not_writable(path: Path) -> str:
    """Why this user cannot read and write ``path``, in words."""
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "the file system it is on is mounted read-only"
    except OSError as err:
        return os_words(err)
    return (
        "this user may not read and write it: check its owner, its mode and its attributes "
        f"(lsattr {path})"
    )


def log_files(path: Path) -> tuple[Path, Path]:
    """The write-ahead log and its index beside the records."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _header_size(path: Path) -> int:
    """The file's size; :class:`StoreError` if it is not empty and not an SQLite file."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(HEADER))
            size = os.fstat(f.fileno()).st_size
    except OSError as err:
        raise from_os(err, f"cannot read {path}") from None
    if size and head != HEADER:
        raise StoreDamagedError(
            f"{path} cannot be read as the table's records (it is not an SQLite file); move "
            "it aside and a new one is made at the next start"
        )
    return size


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id SQLite gave the row just inserted."""
    row_id = cursor.lastrowid
    if row_id is None:
        raise StoreError("the database gave no id to the row just written")
    return row_id


def _summary(row: tuple[Any, ...]) -> GameSummary:
    """A row of ``_GAME_SELECT`` as a summary (white's and black's names joined), each value
    checked: a damaged row is a :class:`StoreError`, not a surprise further on."""
    game_id = row[0]
    where = f"game {game_id}"
    _expect(where, "start", row[1], str)
    names = ("result", "points", "match", "number", "white player", "black player")
    kinds: tuple[Any, ...] = ((str, None), (int, None), (int, None), int, str, str)
    for name, value, kind in zip(names, row[4:10], kinds, strict=True):
        _expect(where, name, value, kind)
    more = ("mode", "match length", "finish", "start position", "start turn")
    later: tuple[Any, ...] = (str, int, (str, None), str, str)
    for name, value, kind in zip(more, row[10:], later, strict=True):
        _expect(where, name, value, kind)
    _known_profile(where, row[2])
    _colour_name(where, "winner", row[3], optional=True)
    _colour_name(where, "start turn", row[14])
    _position_id(where, "start position", row[13])
    (_, started, profile, winner, result, points, match, number, white, black) = row[:10]
    mode, length, finished, position, turn = row[10:]
    return GameSummary(
        game_id, started, profile, winner, result, points, match, number, (white, black),
        mode, length, finished, position, turn,
    )  # fmt: skip


def _damaged(where: str, what: str, value: object) -> StoreError:
    shown = shorten(repr(value), 40)
    return StoreError(f"the records of {where} are damaged: its {what} is {shown}")


def _expect(where: str, what: str, value: object, kind: type | tuple[Any, ...]) -> None:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if k is None and value is None:
            return
        if k is not None and isinstance(value, k) and not isinstance(value, bool):
            return
    raise _damaged(where, what, value)


def _known_profile(where: str, value: object) -> None:
    try:
        get_profile(str(value))
    except (KeyError, ValueError):
        raise _damaged(where, "rule profile", value) from None


def _colour_name(where: str, what: str, value: object, optional: bool = False) -> None:
    if value in ("white", "black") or (optional and value is None):
        return
    raise _damaged(where, what, value)


def _position_id(where: str, what: str, value: object) -> None:
    try:
        decode_position_id(str(value))
    except InvalidPositionError:
        raise _damaged(where, what, value) from None


def _event(game_id: int, event_id: int, body: object) -> dict[str, Any]:
    """One event's JSON body, which must be an object with an ``event`` name."""
    try:
        event = json.loads(body) if isinstance(body, str | bytes) else None
    except ValueError:
        event = None
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        raise _damaged(f"game {game_id}", f"event {event_id}", body)
    return event


def _turn(
    game_id: int,
    number: object,
    colour: object,
    d1: object,
    d2: object,
    move: object,
    before: object,
    after: object,
    accepted: object,
) -> TurnRecord:
    """One row of ``turns``, checked."""
    where = f"game {game_id}"
    _expect(where, "turn number", number, int)
    what = f"turn {number}"
    _colour_name(where, f"{what}'s player", colour)
    for die in (d1, d2):
        if not isinstance(die, int) or not 1 <= die <= 6:
            raise _damaged(where, f"{what}'s dice", (d1, d2))
    _expect(where, f"{what}'s move", move, str)
    _position_id(where, f"{what}'s position before", before)
    _position_id(where, f"{what}'s position after", after)
    return TurnRecord(
        cast(int, number),
        cast(str, colour),
        (cast(int, d1), cast(int, d2)),
        cast(str, move),
        cast(str, before),
        cast(str, after),
        bool(accepted),
    )


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` under the store's lock; rolled back on any error."""

    def __init__(
        self, db: sqlite3.Connection, lock: threading.Lock, path: Path | None = None
    ) -> None:
        self.db = db
        self.lock = lock
        self.path = path

    def __enter__(self) -> sqlite3.Connection:
        self.lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            self.lock.release()
            raise from_sqlite(err, "cannot write the records", self.path) from None
        except BaseException:
            self.lock.release()
            raise
        return self.db

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        try:
            if kind is None:
                self.db.execute("COMMIT")
                return
            self.db.execute("ROLLBACK")
        except sqlite3.Error as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise from_sqlite(err, "cannot write the records", self.path) from None
        finally:
            self.lock.release()
        if isinstance(value, sqlite3.Error):
            raise from_sqlite(value, "cannot write the records", self.path) from value


def _profile_name(profile: str) -> str:
    try:
        return get_profile(profile).name
    except (KeyError, ValueError) as err:
        raise StoreError(str(err)) from None


def _check_position_id(position_id: object) -> None:
    if not isinstance(position_id, str):
        raise StoreError(f"a Position ID is text, not {position_id!r}")
    try:
        decode_position_id(position_id)
    except InvalidPositionError as err:
        raise StoreError(str(err)) from None


def _play_fields(event: dict[str, Any]) -> tuple[Colour, tuple[int, int], str, str, bool]:
    """The turn a ``play`` event records, or :class:`StoreError` naming what is missing."""
    try:
        mover = Colour.parse(str(event.get("player")))
    except ValueError as err:
        raise StoreError(f"a play event needs the player: {err}") from None
    dice = event.get("dice")
    if not (
        isinstance(dice, list | tuple)
        and len(dice) == 2
        and all(isinstance(d, int) and 1 <= d <= 6 for d in dice)
    ):
        raise StoreError(f"a play event needs the two dice, 1 to 6: {dice!r}")
    move = event.get("move", "")
    if not isinstance(move, str):
        raise StoreError(f"a play event's move is text: {move!r}")
    after = event.get("position")
    _check_position_id(after)
    return mover, (dice[0], dice[1]), move, str(after).strip(), bool(event.get("accepted"))
