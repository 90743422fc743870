"""A learner's own hint budget kept in a real SQLite file (issue 33)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kiosk.config import HintBudget
from kiosk.store import Store, StoreError, StoreWriter


def test_a_learners_hint_budget_is_kept_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    with Store(path) as store:
        assert store.learner_hints("ann") is None
        store.save_learner_hints("ann", " Budget 2 ")
        store.save_learner_hints("bo", "think")
        with pytest.raises(StoreError, match="not a hint budget"):
            store.save_learner_hints("cy", "all of them")
        with pytest.raises(StoreError, match="1 to 40"):
            store.save_learner_hints("", "think")
    with Store(path) as store:  # opened again: as kept
        assert store.learner_hints("ann") == HintBudget("budget", 2)
        assert store.learner_hints("bo") == HintBudget("think")
        assert store.learner_hints("cy") is None
        store.save_learner_hints("bo", None)  # forgotten: the table's setting holds
        assert store.learner_hints("bo") is None
    rows = sqlite3.connect(path).execute("SELECT learner, hints FROM learner_settings").fetchall()
    assert rows == [("ann", "budget 2")]


def test_a_damaged_setting_counts_as_none_and_the_writer_keeps_one(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO learner_settings VALUES ('ann', 'lots', '2026-01-01')")
    writer = StoreWriter(Store(path))
    try:
        assert writer.learner_hints("ann") is None
        writer.save_learner_hints("ann", "everything")
        assert writer.learner_hints("ann") == HintBudget("everything")  # read after the write
    finally:
        writer.close()
    with Store(path) as store:
        assert store.learner_hints("ann") == HintBudget("everything")
