"""Issue 27: the records written by a thread of their own, watched, recovered, ordered by ids,
private, bounded; on real SQLite files."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from pathlib import Path

import pytest

from kiosk.rules import WHITE, Position, Result
from kiosk.rules.session import Session
from kiosk.store import Store, StoreError, StoreWriter
from kiosk.store import store as store_module
from kiosk.store.export import match_to_mat
from kiosk.store.sessions import keep_session, resume_session, start_session
from tests.store.games import record_random_game

START = Position.standard().position_id()
WAIT = 10.0


def _news_until(writer: StoreWriter, saving: bool, timeout: float = WAIT) -> list:
    """Poll ``news()`` as the loop does until news with ``saving`` comes; all the news."""
    seen: list = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen += writer.news()
        if any(s is saving for s, _ in seen):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"no news saying saving={saving} in {timeout} s: {seen}")


def _play(writer: StoreWriter, game: int, plays: int, start: int = 0) -> list[dict]:
    events = []
    for n in range(start, start + plays):
        event = {"event": "message", "to": "both", "text": f"play {n}"}
        writer.record(game, event)
        events.append(event)
    return events


def test_writes_return_at_once_while_another_program_holds_the_file(db_path: Path) -> None:
    """Item 5: a locked file held the loop ~10 s per event. Writes now return at once; after
    a few seconds the loop hears that games are not being saved; nothing is lost."""
    writer = StoreWriter(Store(db_path, busy_ms=200), watch_s=0.2)
    game = writer.start_game("modern", START, "white")
    assert writer.flush()
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    started = time.monotonic()
    sent = _play(writer, game, 20)
    assert time.monotonic() - started < 0.5  # twenty events queued, none waited
    news = _news_until(writer, False)
    assert time.monotonic() - started < 6  # said within seconds
    assert "held by another program" in news[0][1]
    holder.execute("ROLLBACK")
    holder.close()
    assert "saved again" in _news_until(writer, True)[-1][1]
    assert writer.events(game) == sent
    writer.close()


def test_a_deleted_file_is_said_and_written_again_from_the_open_connection(db_path: Path) -> None:
    """Item 9: a file deleted under the running table lost the games since, silently."""
    writer = StoreWriter(Store(db_path), watch_s=0.2)
    first = writer.start_game("modern", START, "white")
    before = _play(writer, first, 10)
    assert writer.flush()
    db_path.unlink()
    after = _play(writer, first, 10, start=10)
    news = _news_until(writer, True)
    assert news[0] == (False, "the records file was deleted")
    assert "written again" in news[-1][1]
    assert writer.flush()
    writer.close()
    with Store(db_path) as again:  # the file at the path holds every event
        assert again.events(first) == before + after


def test_a_file_mended_at_once_is_told_in_one_piece_of_news(db_path: Path) -> None:
    """The deletion and its mending reach the loop together: a failure told alone put a note
    over the game that the player's Done then closed, the turn not ended (issue 36)."""
    writer = StoreWriter(Store(db_path), watch_s=0.05)
    game = writer.start_game("modern", START, "white")
    _play(writer, game, 400)  # a copy that takes a few milliseconds to make
    assert writer.flush()
    db_path.unlink()
    deadline = time.monotonic() + WAIT
    batches: list[list] = []
    while time.monotonic() < deadline and not any(s for b in batches for s, _ in b):
        news = writer.news()  # polled far more often than the loop's 30 a second
        if news:
            batches.append(news)
    assert batches and batches[0][0] == (False, "the records file was deleted"), batches
    assert batches[0][-1][0] is True and "written again" in batches[0][-1][1], batches
    writer.close()


@pytest.mark.parametrize("cut", [0, 4096])
def test_a_file_cut_short_is_said_and_the_game_under_way_kept(db_path: Path, cut: int) -> None:
    """Item 9: a file truncated under the running table lost the games since, silently."""
    writer = StoreWriter(Store(db_path), watch_s=0.2)
    for seed in range(3):
        record_random_game(writer, seed)
    game = writer.start_game("modern", START, "white")
    before = _play(writer, game, 5)
    assert writer.flush()
    checkpoint = sqlite3.connect(db_path)
    checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    checkpoint.close()
    os.truncate(db_path, cut)
    after = _play(writer, game, 5, start=5)
    news = _news_until(writer, True)
    said = news[0][1]  # the watch sees it cut short, or the next write finds it damaged
    assert news[0][0] is False and ("cut short" in said or "damaged" in said), said
    assert writer.flush()
    assert writer.events(game) == before + after  # the game under way goes on being saved
    writer.close()


def test_reads_see_the_writes_queued_before_them(db_path: Path) -> None:
    with StoreWriter(Store(db_path)) as writer:
        match = writer.new_match(3, "modern")
        game = writer.start_game("modern", START, "white", match_id=match)
        writer.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
        writer.save_lesson_step("guest-1", "01-setup", 2)
        writer.save_pin_failures(4)
        assert writer.game(game).match_id == match
        assert writer.events(game)[0]["event"] == "opening"
        (when, opened), = writer.timeline(game)  # what a restart reads to see a game's age
        assert opened["event"] == "opening" and when[:4].isdigit()
        assert writer.lesson_progress("guest-1") == {"01-setup": (2, False)}
        assert writer.pin_failures() == 4
        assert writer.unfinished_game() == game and writer.news() == []


def test_a_refused_write_is_counted_and_the_writer_goes_on(db_path: Path) -> None:
    with StoreWriter(Store(db_path)) as writer:
        writer.record(999, {"event": "opening"})  # no such game
        game = writer.start_game("modern", START, "white")
        writer.record(game, {"event": "opening", "starter": "white", "dice": [3, 1]})
        assert writer.flush() and writer.dropped == 1
        assert len(writer.events(game)) == 1


def test_the_latest_session_is_found_by_its_id_whatever_the_clock_said(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 4: the Pi has no real-time clock; a match saved after the clock stepped back
    was not resumed (the sessions were ordered by their wall-clock time)."""
    with Store(db_path) as store:
        monkeypatch.setattr(store_module, "_now", lambda: "2031-05-01T10:00:00.000+00:00")
        old, session = start_session(store, Session.match(3))
        keep_session(store, old, session.record(WHITE, Result.SINGLE))
        monkeypatch.setattr(store_module, "_now", lambda: "1970-01-01T00:00:10.000+00:00")
        new, session = start_session(store, Session.match(5))  # after a boot without a clock
        keep_session(store, new, session.record(WHITE, Result.GAMMON))
        match_id, resumed = resume_session(store)
        assert match_id == new and resumed.length == 5 and resumed.score == (2, 0)


def test_the_file_and_its_log_are_private(db_path: Path) -> None:
    """Item 13: the database and its write-ahead log were created 0644."""
    old = os.umask(0o022)
    try:
        with Store(db_path) as store:
            store.start_game("modern", START, "white")
            wal = db_path.with_name(db_path.name + "-wal")
            assert wal.exists()
            for path in (db_path, wal):
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        db_path.chmod(0o644)  # copied in by hand: made private when opened
        Store(db_path).close()
        assert stat.S_IMODE(db_path.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_old_games_keep_what_replays_and_exports_read(db_path: Path) -> None:
    """Item 12: every event of every game was kept (233 KB a game, 3.4 GB a year)."""
    with Store(db_path) as store:
        games = []
        for seed in range(5):
            game, _ = record_random_game(store, seed)
            store.record(game, {"event": "coach", "text": "a long verdict " * 200})
            games.append(game)
        mats = [match_to_mat(store, [g]) for g in games]
        boards = [store.load_game(g).position for g in games]
        assert store.prune(keep=2) == 3
        assert store.prune(keep=2) == 0  # done once
        for game, mat, board in zip(games, mats, boards, strict=True):
            kinds = {e["event"] for e in store.events(game)}
            assert ("coach" in kinds) == (game in games[-2:])
            assert match_to_mat(store, [game]) == mat and store.load_game(game).position == board


def test_the_start_reads_what_a_restart_needs_and_the_full_check_finds_the_rest(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 12: every start ran quick_check over the whole file (28 s a GB). Beyond
    START_CHECK_BYTES the start reads only what a restart reads; check() reads it all."""
    with Store(db_path) as store:
        for seed in range(12):
            record_random_game(store, seed)
    raw = sqlite3.connect(db_path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    first_page = raw.execute(
        "SELECT min(pageno) FROM dbstat WHERE name = 'events' AND pagetype = 'leaf'"
    ).fetchone()[0]
    raw.close()
    data = bytearray(db_path.read_bytes())
    page = 4096
    data[(first_page - 1) * page : first_page * page] = b"\x07" * page  # the oldest events
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged|malformed"):  # small: checked at the start
        Store(db_path)
    monkeypatch.setattr(store_module, "START_CHECK_BYTES", 16 * 1024)
    with Store(db_path) as store:  # large: the latest game reads back, the start is quick
        assert len(store.turns(store.last_game())) > 0
        with pytest.raises(StoreError, match="damaged|malformed"):
            store.check()


def test_the_wrong_pins_are_kept(db_path: Path) -> None:
    with Store(db_path) as store:
        assert store.pin_failures() == 0
        store.save_pin_failures(3)
    with Store(db_path) as store:
        assert store.pin_failures() == 3


def test_a_read_while_the_file_is_put_right_waits_for_it(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read made while a deleted file was being written again went to the connection the
    recovery was closing under it; it now waits for the file to be whole again."""
    writer = StoreWriter(Store(db_path), watch_s=0.05)
    game = writer.start_game("modern", START, "white")
    sent = _play(writer, game, 5)
    assert writer.flush()
    open_files = StoreWriter._open_files
    closed = threading.Event()

    def slow_open(self: StoreWriter) -> None:
        closed.set()  # the old connections are closed, the new ones not yet open
        time.sleep(0.4)
        open_files(self)

    monkeypatch.setattr(StoreWriter, "_open_files", slow_open)
    db_path.unlink()
    assert closed.wait(WAIT)
    assert writer.events(game) == sent
    assert writer.flush()
    writer.close()
