"""Issue 36 item 1: the store knows damage from trouble. Only a file SQLite says is damaged is
moved aside; a full descriptor table, a lock or a refused permission is said as what it is and
the writes wait for it to pass. On real SQLite files, with the process's real descriptor limit."""

from __future__ import annotations

import os
import resource
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kiosk.rules import Position
from kiosk.store import (
    Store,
    StoreBusyError,
    StoreDamagedError,
    StoreError,
    StoreTroubleError,
    StoreWriter,
)

START = Position.standard().position_id()


@contextmanager
def descriptors_exhausted(spare: int = 0) -> Iterator[int]:
    """Every descriptor the process may open taken (``spare`` left), then given back."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    used = len(os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (used + 40, hard))
    held: list[int] = []
    try:
        for _ in range(200):  # bounded: the limit is 40 above what is open
            try:
                held.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
        for _ in range(min(spare, len(held))):
            os.close(held.pop())
        yield len(held)
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _aside(db_path: Path) -> list[str]:
    return sorted(p.name for p in db_path.parent.iterdir() if "damaged" in p.name)


def test_a_full_descriptor_table_is_trouble_not_damage(db_path: Path) -> None:
    """The attack: ~1,100 idle connections took every descriptor and the healthy records file
    was moved aside 7-9 times a run, writes refused for good. Now: said as too many open
    files, nothing moved aside, every write made once descriptors are free again."""
    writer = StoreWriter(Store(db_path), watch_s=0.05)
    game = writer.start_game("modern", START, "white")
    assert writer.flush()
    with descriptors_exhausted():
        for n in range(30):
            writer.record(game, {"event": "message", "to": "both", "text": f"during {n}"})
        time.sleep(1.0)  # twenty watches of the file, a full check's worth of trouble
        writer._next_check = 0.0  # the whole-file check comes due while descriptors are out
        time.sleep(0.5)
    assert writer.flush(10.0)
    assert _aside(db_path) == []
    assert writer.dropped == 0
    texts = [e["text"] for e in writer.events(game) if e["event"] == "message"]
    assert texts == [f"during {n}" for n in range(30)]
    for saving, words in writer.news():
        assert saving or "damaged" not in words, words
    writer.close()


def test_the_full_check_without_descriptors_is_not_called_damage(db_path: Path) -> None:
    with Store(db_path) as store:
        with descriptors_exhausted(), pytest.raises(StoreTroubleError) as caught:
            store.check()
    assert not isinstance(caught.value, StoreDamagedError)
    assert "open files" in str(caught.value)


def test_sqlite_says_which_error_and_the_store_keeps_it(db_path: Path) -> None:
    """One family callers catch by name, SQLite's code kept."""
    with Store(db_path) as store:
        game = store.start_game("modern", START, "white")
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with Store(db_path, busy_ms=50, checked=False) as store:
            with pytest.raises(StoreBusyError) as busy:
                store.record(game, {"event": "message", "to": "both", "text": "x"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert busy.value.code is not None and busy.value.code & 0xFF == sqlite3.SQLITE_BUSY
    assert busy.value.transient and isinstance(busy.value, StoreError)
    db_path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 8000)
    with pytest.raises(StoreDamagedError) as damaged:
        Store(db_path)
    assert not damaged.value.transient


def test_a_file_damaged_for_sqlite_is_still_moved_aside(db_path: Path) -> None:
    """Damage SQLite's own check finds is recovered as before: moved aside, a new file."""
    writer = StoreWriter(Store(db_path), watch_s=0.05)
    game = writer.start_game("modern", START, "white")
    for n in range(200):
        writer.record(game, {"event": "message", "to": "both", "text": f"before {n} " * 20})
    assert writer.flush()
    checkpoint = sqlite3.connect(db_path)
    checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    checkpoint.close()
    with open(db_path, "r+b") as f:  # the pages after the schema overwritten
        f.seek(4096 * 3)
        f.write(b"\xa5" * 4096 * 4)
    writer._next_check = 0.0
    deadline = time.monotonic() + 10
    while not _aside(db_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _aside(db_path)
    writer.record(game, {"event": "message", "to": "both", "text": "after"})
    assert writer.flush()
    writer.close()
