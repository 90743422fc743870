"""The records written by a thread of their own, so that the table's loop never waits on the disk.

:class:`StoreWriter` has the methods of :class:`~kiosk.store.Store` the application calls.
A write (an event, a new game, a session, a lesson step, the PIN's wrong tries) is queued
and returns at once; a new game's or match's id is handed out before it is written. A read
waits for the writes queued before it (briefly: :class:`StoreError` if they cannot be
written) and goes through a second connection that never waits long on another program.

The writer thread watches the file between writes. What it finds comes back through
:meth:`StoreWriter.news`, which the loop polls: ``(False, words)`` when games stop being
saved (the file locked by another program for seconds, deleted, replaced, cut short or
damaged, the disk full), ``(True, words)`` when they are saved again. A deleted or damaged
file is recovered where it can be: from what the open connection still reads, else a new
file with the session and game under way written into it again, the damaged one kept.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> writer = StoreWriter(Store(os.path.join(folder, "table.sqlite3")))
>>> game = writer.start_game("modern", "4HPwATDgc/ABMA", "white")  # returns at once
>>> writer.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
>>> writer.unfinished_game() == game, writer.news()
(True, [])
>>> writer.close()
"""

from __future__ import annotations

import collections
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, cast

from kiosk.config import HintBudget
from kiosk.rules import Game
from kiosk.store.errors import (
    OS_WORDS,
    StoreDamagedError,
    StoreTroubleError,
    from_os,
    from_sqlite,
    os_words,
)
from kiosk.store.salvage import salvage
from kiosk.store.store import (
    HEADER,
    ClassAnswer,
    GameSummary,
    LessonRecord,
    MatchSummary,
    Store,
    StoreError,
    TurnRecord,
    log_files,
)

log = logging.getLogger(__name__)

WATCH_S = 1.0  # how often the file is looked at (between writes, and while idle)
STALLED_S = 3.0  # a write held up this long is said (a locked file)
READ_WAIT_S = 1.0  # how long a read waits for the writes queued before it
WRITE_BUSY_MS = 500  # how long one write waits for another program before trying again
READ_BUSY_MS = 200  # how long a read waits for another program
MAX_WAITING = 20_000  # writes kept while the file cannot be written (then the oldest go)
FULL_CHECK_S = 24 * 3600  # how often the whole file is checked, when idle
FIRST_CHECK_S = 600.0  # the first whole check, this long after the start
RECHECK_S = 60.0  # a whole check that could not be made is tried again this long after

Write = tuple[str, tuple[Any, ...], dict[str, Any]]


class StoreWriter:
    """A :class:`Store` behind a writer thread (see the module docstring)."""

    def __init__(self, store: Store, *, watch_s: float = WATCH_S) -> None:
        self.path = store.path
        self._store = store
        self._reader = Store(self.path, busy_ms=READ_BUSY_MS, checked=False)
        self._watch_s = watch_s
        self._cond = threading.Condition()
        self._queue: collections.deque[Write] = collections.deque()
        self._busy: Write | None = None  # the write being made
        self._busy_since = 0.0
        self._news: list[tuple[bool, str]] = []
        self._trouble: str | None = None  # why games are not being saved now
        self._trouble_since = 0.0
        self._trouble_said = False
        self.dropped = 0  # writes lost: refused by the store, or beyond MAX_WAITING
        self._closing = False
        self._identity = _identity(self.path)
        self._size = _size(self.path)
        self._journal: list[Write] = []  # the session and game under way, to write again
        self._next_game, self._next_match = store.next_ids()
        self._next_check = time.monotonic() + FIRST_CHECK_S
        self._prune = True
        self._watch_trouble = False  # the watch could not look at the file
        self._recovering = False  # the file is being put right: reads and flushes wait
        self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
        self._thread.start()

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, busy_ms: int = WRITE_BUSY_MS, watch_s: float = WATCH_S
    ) -> StoreWriter:
        """The records at ``path`` behind a writer. A file SQLite finds damaged at the start
        is kept aside and a new one made with what can still be read of it (the game under
        way, its session, the lessons' progress); the table is told as when damage is found
        while running. Trouble that is not damage is raised, the file left as it is."""
        path = Path(path).expanduser()
        try:
            return cls(Store(path, busy_ms=busy_ms), watch_s=watch_s)
        except StoreDamagedError as err:
            damage = err
        kept = _aside(path)
        if kept is None:
            raise damage
        log.error("store: %s; kept as %s, a new file made", damage, kept.name)
        store = Store(path, busy_ms=busy_ms)
        found = salvage(kept)
        written = found.write_into(store)
        writer = cls(store, watch_s=watch_s)
        if found.game is not None and written:
            how = (
                f"a new one was started with the game under way ({written} of its events read back)"
            )
        elif found.game is not None:
            how = "a new one was started; the game under way could not be read back"
        else:
            how = "a new one was started"
        with writer._cond:
            writer._news += [
                (False, "the records file was found damaged at the start"),
                (
                    True,
                    f"The records file was found damaged at the start: {how}; the old one "
                    f"is kept as {kept.name}.",
                ),
            ]
        return writer

    # -- writes: queued, they return at once ---------------------------------------------------

    def start_game(self, profile: str, position_id: str, turn: str, **options: Any) -> int:
        """Queue a new game (see :meth:`Store.start_game`); its id, handed out now."""
        with self._cond:
            game_id = self._next_game
            self._next_game += 1
        self._put("start_game", (profile, position_id, turn), {**options, "game_id": game_id})
        return game_id

    def new_match(self, length: int, profile: str) -> int:
        """Queue a new match (see :meth:`Store.new_match`); its id, handed out now."""
        with self._cond:
            match_id = self._next_match
            self._next_match += 1
        self._put("new_match", (length, profile), {"match_id": match_id})
        return match_id

    def record(self, game_id: int, event: dict[str, Any]) -> None:
        """Queue one event of a game (see :meth:`Store.record`)."""
        self._put("record", (game_id, event), {})

    def abandon_game(self, game_id: int) -> None:
        """Queue the mark of a game left unfinished on purpose."""
        self.record(game_id, {"event": "abandoned"})

    def save_session(self, match_id: int, kind: str, state: str) -> None:
        """Queue a session's state (see :meth:`Store.save_session`)."""
        self._put("save_session", (match_id, kind, state), {})

    def save_lesson_step(
        self, player_slot: str, lesson_id: str, step: int, done: bool = False
    ) -> None:
        """Queue a learner's step in a lesson."""
        self._put("save_lesson_step", (player_slot, lesson_id, step, done), {})

    def save_learner_hints(self, learner: str, hints: str | None) -> None:
        """Queue a learner's own hint budget (see :meth:`Store.save_learner_hints`)."""
        self._put("save_learner_hints", (learner, hints), {})

    def save_pin_failures(self, failures: int, key: str = "pin_failures") -> None:
        """Queue the count of wrong PINs in a row (``key``: whose)."""
        self._put("save_pin_failures", (failures, key), {})

    def save_class_answer(self, answer: ClassAnswer) -> None:
        """Queue one student's answer to a class vote (see :meth:`Store.save_class_answer`)."""
        self._put("save_class_answer", (answer,), {})

    def _put(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        write = (name, args, kwargs)
        with self._cond:
            if self._closing:
                raise StoreError("the records are closed")
            self._remember(write)
            self._queue.append(write)
            if len(self._queue) > MAX_WAITING:
                self._queue.popleft()
                self.dropped += 1
                if self.dropped == 1:
                    log.error("store: more than %d records waited; the oldest go", MAX_WAITING)
            self._cond.notify_all()

    def _remember(self, write: Write) -> None:
        """Keep the writes of the session and game under way (the caller holds the lock)."""
        name, _, kwargs = write
        if name == "new_match":
            self._journal = [write]
        elif name == "start_game":
            in_match = kwargs.get("match_id") is not None
            self._journal = [w for w in self._journal if in_match and w[0] != "start_game"]
            self._journal = [w for w in self._journal if w[0] != "record"] + [write]
        elif name in ("record", "save_session") and len(self._journal) < MAX_WAITING:
            self._journal.append(write)

    # -- reads: after the writes queued before them ----------------------------------------

    def _read(self, name: str, *args: Any) -> Any:
        deadline = time.monotonic() + READ_WAIT_S
        with self._cond:
            while self._queue or self._busy is not None or self._recovering:
                left = deadline - time.monotonic()
                if left <= 0 and self._recovering and not self._waiting():
                    raise StoreError("the records cannot be read now: the file is being put right")
                if left <= 0:
                    raise StoreError(
                        f"the records cannot be read now: {self._waiting()} records wait to "
                        "be written" + (f" ({self._trouble})" if self._trouble else "")
                    )
                self._cond.wait(left)
            reader = self._reader
        return getattr(reader, name)(*args)

    def unfinished_game(self) -> int | None:
        """The most recent game that has not ended, if any."""
        return cast("int | None", self._read("unfinished_game"))

    def last_game(self) -> int | None:
        """The most recently started game, if any."""
        return cast("int | None", self._read("last_game"))

    def game(self, game_id: int) -> GameSummary:
        """One game's summary."""
        return cast("GameSummary", self._read("game", game_id))

    def games(self, match_id: int | None = None) -> list[GameSummary]:
        """Every game, oldest first, or only those of one match."""
        return cast("list[GameSummary]", self._read("games", match_id))

    def recent_games(self, limit: int) -> list[GameSummary]:
        """The last ``limit`` games finished with a winner, oldest first."""
        return cast("list[GameSummary]", self._read("recent_games", limit))

    def match(self, match_id: int) -> MatchSummary:
        """One match with its score."""
        return cast("MatchSummary", self._read("match", match_id))

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """A game's events as recorded."""
        return cast("list[dict[str, Any]]", self._read("events", game_id))

    def timeline(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        """A game's events as recorded, each with when it was recorded."""
        return cast("list[tuple[str, dict[str, Any]]]", self._read("timeline", game_id))

    def turns(self, game_id: int) -> list[TurnRecord]:
        """A game's turns."""
        return cast("list[TurnRecord]", self._read("turns", game_id))

    def load_game(self, game_id: int) -> Game:
        """The game as its events leave it."""
        return cast("Game", self._read("load_game", game_id))

    def session(self, match_id: int) -> tuple[str, str] | None:
        """The kind and JSON state kept for a match's session, if any."""
        return cast("tuple[str, str] | None", self._read("session", match_id))

    def last_session(self) -> tuple[int, str, str] | None:
        """The latest session: its match id, kind and JSON state."""
        return cast("tuple[int, str, str] | None", self._read("last_session"))

    def lesson_progress(self, player_slot: str) -> dict[str, tuple[int, bool]]:
        """How far ``player_slot`` has come in each lesson."""
        return cast("dict[str, tuple[int, bool]]", self._read("lesson_progress", player_slot))

    def learner_hints(self, learner: str) -> HintBudget | None:
        """``learner``'s own hint budget, if one is kept."""
        return cast("HintBudget | None", self._read("learner_hints", learner))

    def pin_failures(self, key: str = "pin_failures") -> int:
        """How many wrong PINs were entered in a row, as last kept (``key``: whose)."""
        return cast("int", self._read("pin_failures", key))

    def all_lesson_progress(self) -> list[LessonRecord]:
        """Every learner's progress in every lesson, by learner then lesson."""
        return cast("list[LessonRecord]", self._read("all_lesson_progress"))

    def class_answers(self, student: str | None = None) -> list[ClassAnswer]:
        """The answers kept from class votes, oldest first (one student's, if named)."""
        return cast("list[ClassAnswer]", self._read("class_answers", student))

    def activity_since(self, since: str) -> tuple[int, int]:
        """Games started and lessons worked on since ``since`` (ISO 8601, UTC)."""
        return cast("tuple[int, int]", self._read("activity_since", since))

    def learners(self, offset: int, limit: int) -> tuple[int, list[str]]:
        """How many learners there are, and the names on one page of them."""
        return cast("tuple[int, list[str]]", self._read("learners", offset, limit))

    def progress_of(self, names: list[str]) -> tuple[list[LessonRecord], list[ClassAnswer]]:
        """The lesson progress and class answers of the learners named."""
        found = self._read("progress_of", names)
        return cast("tuple[list[LessonRecord], list[ClassAnswer]]", found)

    # -- what the loop polls -------------------------------------------------------------------

    def news(self) -> list[tuple[bool, str]]:
        """What happened to the records since the last call, as ``(saving, words)``."""
        with self._cond:
            now = time.monotonic()
            if self._busy is not None and now - self._busy_since > STALLED_S:
                self._trouble_at("the records file is held by another program", now)
            if self._trouble and not self._trouble_said and now - self._trouble_since >= STALLED_S:
                self._trouble_said = True
                self._news.append((False, f"{self._trouble} ({self._waiting()} waiting)"))
            news, self._news = self._news, []
        return news

    @property
    def waiting(self) -> int:
        """Writes not yet made."""
        with self._cond:
            return self._waiting()

    def _waiting(self) -> int:
        return len(self._queue) + (self._busy is not None)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued write has been made (or refused); ``False`` on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._queue or self._busy is not None or self._recovering:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self, timeout: float = 5.0) -> None:
        """Write what is queued (for at most ``timeout`` seconds), then close the file."""
        with self._cond:
            if self._closing:
                return
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)
        left = self.waiting
        if left:
            log.error(
                "store: %d records could not be written before closing (%s)",
                left,
                self._trouble or "the writer did not finish in time",
            )
        if self._thread.is_alive():
            return  # the writer still holds the file; the process ends soon
        self._close_files()

    def __enter__(self) -> StoreWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the writer thread ---------------------------------------------------------------------

    def _run(self) -> None:
        next_watch = time.monotonic() + self._watch_s
        while True:
            with self._cond:
                while not self._queue and not self._closing and time.monotonic() < next_watch:
                    self._cond.wait(max(0.0, next_watch - time.monotonic()))
                if self._closing and (not self._queue or self._trouble):
                    return  # all written, or the file cannot take them: stop
                write = self._queue[0] if self._queue else None
                self._busy, self._busy_since = write, time.monotonic()
            if time.monotonic() >= next_watch:
                self._watch()
                next_watch = time.monotonic() + self._watch_s
            if write is None:
                self._idle()
                done = True
            else:
                done = self._write(write)
            with self._cond:
                if done and write is not None and self._queue and self._queue[0] is write:
                    self._queue.popleft()
                self._busy = None
                self._cond.notify_all()
                if not done:  # the file cannot be written now: try again in a while
                    self._cond.wait(self._watch_s)
                    next_watch = 0.0

    def _write(self, write: Write) -> bool:
        """Make one write; ``False`` if it must be tried again (the file is damaged and being
        recovered, or in trouble that may pass: held, full, out of descriptors)."""
        name, args, kwargs = write
        try:
            try:
                getattr(self._store, name)(*args, **kwargs)
            except sqlite3.Error as err:  # the connection itself is gone
                raise from_sqlite(err, "cannot write the records", self.path) from None
        except StoreDamagedError:
            with self._cond:
                self._trouble_at("the records file is damaged", time.monotonic())
            self._recover("found damaged")
            return False
        except StoreTroubleError as err:
            with self._cond:
                first = self._trouble is None
                self._trouble_at(_transient(str(err)), time.monotonic())
            if first:  # logged once while it lasts, not at every try
                log.warning("store: %s", err)
            return False
        except StoreError as err:
            with self._cond:
                self.dropped += 1
            log.error("store: a record was refused: %s", err)
            return True
        self._size = max(self._size, _size(self.path))
        if name == "record" and args[1].get("event") == "game-over":
            self._prune = True
        with self._cond:
            if self._trouble is not None:
                self._saved_again("Games are being saved again.")
        return True

    def _trouble_at(self, why: str, now: float, at_once: bool = False) -> None:
        """Games are not being saved, for ``why`` (said once it lasts ``STALLED_S``, or at
        once); the caller holds the lock."""
        if self._trouble is None:
            self._trouble, self._trouble_since, self._trouble_said = why, now, False
            log.error("store: %s", why)
        if at_once and not self._trouble_said:
            self._trouble_said = True
            self._news.append((False, why))

    def _tell_trouble(self) -> None:
        """The trouble found said now, if it is not yet (the caller holds the lock)."""
        if self._trouble is not None and not self._trouble_said:
            self._trouble_said = True
            self._news.append((False, self._trouble))

    def _saved_again(self, words: str) -> None:
        """Games are saved again (the caller holds the lock)."""
        if self._trouble_said:
            self._news.append((True, words))
        self._trouble, self._trouble_said = None, False
        log.warning("store: %s", words)

    def _idle(self) -> None:
        """Nothing to write: prune old games, and now and then check the whole file."""
        if self._prune:
            try:
                self._prune = self._store.prune() > 0
            except StoreError as err:
                self._prune = False
                log.warning("store: old games not pruned: %s", err)
        if time.monotonic() >= self._next_check:
            self._next_check = time.monotonic() + FULL_CHECK_S
            try:
                self._store.check()
            except StoreTroubleError as err:  # not damage: the check is made again soon
                self._next_check = time.monotonic() + RECHECK_S
                log.warning("store: the whole-file check waits: %s", err)
            except StoreError as err:
                with self._cond:
                    self._trouble_at(f"the records file is damaged ({err})", time.monotonic())
                self._recover("found damaged by the whole-file check")

    # -- watching the file -----------------------------------------------------------------------

    def _watch(self) -> None:
        """Is the file still ours, and whole? If not, say so and recover what can be; if it
        cannot be looked at now (no descriptor left, permission), say that and look again."""
        try:
            problem = self._file_problem()
        except StoreTroubleError as err:
            with self._cond:
                first = self._trouble is None
                self._trouble_at(_transient(str(err)), time.monotonic())
                self._watch_trouble = True
            if first:  # logged once while it lasts, not at every look
                log.warning("store: %s", err)
            return
        if self._watch_trouble and problem is None:
            with self._cond:
                self._watch_trouble = False
                if self._trouble is not None and not self._queue:
                    self._saved_again("Games are being saved again.")
        if problem is None:
            return
        with self._cond:
            self._trouble_at(f"the records file was {problem}", time.monotonic())
        self._recover(problem)

    def _file_problem(self) -> str | None:
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return "deleted"
        except OSError as err:
            raise from_os(err, "the records file cannot be looked at") from None
        if (info.st_dev, info.st_ino) != self._identity:
            return "replaced by another file"
        if info.st_size < self._size:
            return f"cut short ({info.st_size} bytes of {self._size})"
        if info.st_size:
            try:
                with open(self.path, "rb") as f:
                    head = f.read(len(HEADER))
            except FileNotFoundError:
                return "deleted"
            except OSError as err:
                raise from_os(err, "the records file cannot be read") from None
            if head != HEADER:
                return "overwritten"
        return None

    def _recover(self, problem: str) -> None:
        """Put a sound file at the path again: a file put there by someone else is taken as
        it is; otherwise the records as the open connection still reads them, else a new
        file (the damaged one kept beside it) with the session and game under way.

        What was found is said when the recovery ends, in the same news as how it ended: a
        file mended at once reaches the loop as one piece of news, never as a failure alone
        that the players must dismiss while the records are already whole again (a press
        meant for the game would close that notice instead). Reads and :meth:`flush` wait
        for it (a read meanwhile found its connection closed under it)."""
        with self._cond:
            self._recovering = True
        try:
            self._mend(problem)
        finally:
            with self._cond:
                self._recovering = False
                self._cond.notify_all()

    def _mend(self, problem: str) -> None:
        """The work of :meth:`_recover`."""
        replaced = problem.startswith("replaced")
        copy = self.path.with_name(f".{self.path.name}.{os.getpid()}-recover")
        copy.unlink(missing_ok=True)
        whole = not replaced and self._store.copy_to(copy)
        if not whole and not replaced:
            trouble = _cannot_check(self.path)
            if trouble is not None:  # the file cannot be judged now: left as it is
                copy.unlink(missing_ok=True)
                with self._cond:
                    self._trouble_at(_transient(str(trouble)), time.monotonic())
                    self._tell_trouble()
                log.warning("store: the records file is not moved aside: %s", trouble)
                return
        self._close_files()
        kept = None
        try:
            if not replaced and (self.path.exists() or self.path.is_symlink()):
                kept = _aside(self.path)
            if whole:
                os.chmod(copy, 0o600)
                os.replace(copy, self.path)
            try:
                self._open_files()
            except StoreError:
                if not replaced:
                    raise
                kept = _aside(self.path)  # another file that is no records: kept, not used
                self._open_files()
        except (OSError, StoreError) as err:
            with self._cond:
                self._tell_trouble()
                self._trouble_at(
                    f"the records file was {problem} and cannot be made again ({err})",
                    time.monotonic(),
                    at_once=True,
                )
            return
        finally:
            copy.unlink(missing_ok=True)
        if not whole:
            self._write_journal()
        if whole:
            how = "written again from what the table still held"
        elif replaced and kept is None:
            how = "games are saved into the new one"
        else:
            how = "a new one was started with the game under way"
        where = f"; the old one is kept as {kept.name}" if kept else ""
        with self._cond:
            self._tell_trouble()
            self._saved_again(f"The records file was {problem}: {how}{where}.")

    def _open_files(self) -> None:
        self._store = Store(self.path, busy_ms=WRITE_BUSY_MS)
        self._reader = Store(self.path, busy_ms=READ_BUSY_MS, checked=False)
        self._identity = _identity(self.path)
        self._size = _size(self.path)
        self._prune = True

    def _close_files(self) -> None:
        for store in (self._reader, self._store):
            try:
                store.close()
            except sqlite3.Error:
                continue

    def _write_journal(self) -> None:
        """Write the session and the game under way into a new file."""
        with self._cond:
            journal = list(self._journal)
            queued = {id(w) for w in self._queue}
        for write in journal:
            if id(write) in queued:
                continue  # it is written in its turn anyway
            name, args, kwargs = write
            try:
                getattr(self._store, name)(*args, **kwargs)
            except StoreError as err:
                log.warning("store: %s not written again: %s", name, err)


def _identity(path: Path) -> tuple[int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)
    return info.st_dev, info.st_ino


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _aside(path: Path) -> Path | None:
    """Move a damaged file (and its log) out of the way, beside it; its new path."""
    for n in range(1, 1000):
        target = path.with_name(f"{path.name}.damaged-{n}")
        if target.exists():
            continue
        try:
            os.replace(path, target)
        except OSError:
            return None
        for kin, moved in zip(log_files(path), log_files(target), strict=True):
            try:
                os.replace(kin, moved)
            except OSError:
                continue
        return target
    return None


def _transient(text: str) -> str:
    """Words for trouble that may pass (a lock, a full disk, no descriptor left)."""
    lowered = text.lower()
    if "held by another program" in lowered or "locked" in lowered or "busy" in lowered:
        return "the records file is held by another program"
    for words in OS_WORDS.values():
        if words in text:
            return words
    if "full" in lowered:
        return "the disk is full"
    if "readonly" in lowered or "read-only" in lowered:
        return "the records file cannot be written (read-only)"
    if "i/o error" in lowered:
        return "the disk cannot be written (an input/output error)"
    return f"the records cannot be written now ({text})"


def _cannot_check(path: Path) -> StoreTroubleError | None:
    """Trouble that keeps the file at ``path`` from being judged now (descriptors, a lock,
    permission), else ``None``: the file can be opened, so what was found is its own."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return None
    except OSError as err:
        return StoreTroubleError(f"the records file cannot be opened: {os_words(err)}")
    os.close(fd)
    try:
        probe = sqlite3.connect(path, timeout=0.2)
    except sqlite3.Error as err:
        found = from_sqlite(err, "the records file cannot be opened", path)
        return found if isinstance(found, StoreTroubleError) else None
    probe.close()
    return None
