"""Issue 36 item 2: records found damaged at the start were said on standard error only, the
file left in place (every start the same) and the game under way lost. Now the file is kept
aside, a new one made with the game under way read back, and the table says so as when the
damage is found while running."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.app.build import open_records
from kiosk.config import Config
from kiosk.store import Store, StoreWriter
from tests.store.games import record_random_game


def _damage_the_index(path: Path) -> None:
    """Overwrite the root page of the events' index: SQLite's check fails at the start, the
    events themselves can still be read."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'events_by_game'"
        ).fetchone()[0]
    db.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\x0d" + b"\xa5" * (page_size - 1))


def _game_under_way(path: Path) -> tuple[int, str, int]:
    with Store(path) as store:
        store.save_lesson_step("white", "openings", 4)
        record_random_game(store, 3)  # a finished game first
        game_id, game = record_random_game(store, 7, stop_after=9)
        return game_id, game.position.position_id(), len(store.events(game_id))


def test_damage_found_at_the_start_is_recovered_at_the_start(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    game_id, position, events = _game_under_way(path)
    _damage_the_index(path)
    config = Config()
    config.store.path = str(path)
    writer, problem = open_records(config)
    assert problem == "" and isinstance(writer, StoreWriter)
    try:
        news = writer.news()
        assert news[0] == (False, "the records file was found damaged at the start")
        assert news[1][0] is True and "kept as table.sqlite3.damaged-1" in news[1][1]
        assert f"{events} of its events read back" in news[1][1]
        assert (tmp_path / "table.sqlite3.damaged-1").exists()
        assert writer.unfinished_game() == game_id
        assert writer.load_game(game_id).position.position_id() == position
        assert writer.lesson_progress("white") == {"openings": (4, False)}
    finally:
        writer.close()
    with Store(path) as again:  # the next start finds a sound file: nothing more is moved
        assert again.unfinished_game() == game_id
    kept = [p.name for p in tmp_path.iterdir() if "damaged" in p.name]
    assert [name for name in kept if not name.endswith(("-wal", "-shm"))] == [
        "table.sqlite3.damaged-1"
    ]


def test_a_file_that_is_no_database_at_all_is_kept_aside_and_a_new_one_made(
    tmp_path: Path,
) -> None:
    path = tmp_path / "table.sqlite3"
    path.write_bytes(b"these are not the records" * 100)
    writer = StoreWriter.open(path)
    try:
        assert "a new one was started" in writer.news()[1][1]
        assert writer.unfinished_game() is None
    finally:
        writer.close()
    assert (tmp_path / "table.sqlite3.damaged-1").read_bytes().startswith(b"these are not")
