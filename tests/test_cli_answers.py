"""Issue 27, item 10: every `kiosk` entry point answers bad input with one line, never a
traceback: each case as it was reported, run as the installer runs it (a real process)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.store import Store
from kiosk.store.export import match_to_mat
from tests.store.games import record_random_game

ROOT = Path(__file__).resolve().parents[1]


def kiosk(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """``kiosk ARGS`` in a process of its own; it must end without a traceback."""
    run = subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=dict(os.environ, **(env or {})),
    )
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    return run


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "table.sqlite3"
    with Store(path) as store:
        match = store.new_match(5, "modern")
        record_random_game(store, 1, match_id=match)
        record_random_game(store, 2, match_id=match)
    return path


DAMAGE = {
    "unknown profile": "UPDATE games SET profile = 'nonsense'",
    "bad colour": "UPDATE turns SET colour = 'purple' WHERE number = 3",
    "bad Position ID": "UPDATE turns SET position_after = 'xx' WHERE number = 3",
    "non-JSON body": "UPDATE events SET body = 'not json' WHERE id = 3",
    "array body": "UPDATE events SET body = '[1, 2]' WHERE id = 3",
    "non-numeric points": "UPDATE games SET points = 'x'",
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_kiosk_export_on_damaged_records(records: Path, tmp_path: Path, damage: str) -> None:
    path = tmp_path / "table.sqlite3"
    shutil.copy(records, path)
    raw = sqlite3.connect(path)
    raw.execute(DAMAGE[damage])
    raw.commit()
    raw.close()
    for args in (["--game", "1"], ["--match", "1"], ["--last"]):
        run = kiosk("export", "--db", str(path), *args)
        if run.returncode:
            assert run.returncode == 2 and run.stderr.count("\n") == 1
            assert run.stderr.startswith("kiosk export: the records of ")


def test_kiosk_coach_cube_beyond_the_match_equity_table() -> None:
    run = kiosk("coach-cube", "4HPwATDgc/ABMA", "--match", "26")
    assert run.returncode == 2
    assert json.loads(run.stdout) == {
        "error": "the match equity table covers 1 to 25 points away, not 26"
    }


def test_kiosk_run_with_events_in_a_missing_folder(tmp_path: Path) -> None:
    run = kiosk("run", "--port", "/dev/null", "--events", str(tmp_path / "no" / "e.jsonl"))
    assert run.returncode == 2
    assert (
        run.stderr
        == f"kiosk run: --events {tmp_path / 'no' / 'e.jsonl'}: No such file or directory\n"
    )


@pytest.mark.parametrize("command", ["simulate-table", "table-watch"])
@pytest.mark.parametrize(
    "option", ["--point-slots 99", "--point-slots 0", "--bar-slots 99", "--tray-slots -1"]
)
def test_the_table_commands_refuse_layouts_out_of_range(command: str, option: str) -> None:
    run = kiosk(command, *option.split())
    assert run.returncode == 2 and "is not from 1 to 15" in run.stderr
    assert run.stderr.count("\n") == 1


@pytest.mark.parametrize("value", ["0", "-5"])
def test_simulate_table_refuses_a_scan_rate_that_is_no_rate(value: str) -> None:
    run = kiosk("simulate-table", "--scan-hz", value)
    assert run.returncode == 2 and "is not from 1 to 2000" in run.stderr


def test_kiosk_plays_batch_answers_every_line_and_cuts_long_ones() -> None:
    long = "x" * 100_000
    lines = ["4HPwATDgc/ABMA 3 1", "", "   ", long, "4HPwATDgc/ABMA 6 6"]
    run = kiosk("plays", "--batch", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(lines)  # one answer a line: they stay in step
    assert answers[0]["dice"] == [3, 1] and answers[4]["dice"] == [6, 6]
    assert all("error" in a for a in answers[1:4])
    assert len(answers[3]["error"]) < 300 and len(run.stdout) < 10_000


def test_a_mat_file_escapes_the_names_in_its_header(tmp_path: Path) -> None:
    """Item 13: `.mat` headers did not escape `"` or NUL."""
    with Store(tmp_path / "t.sqlite3") as store:
        game, _ = record_random_game(store, 3)
        store._db.execute(
            "UPDATE games SET white = ?, black = ? WHERE id = ?",
            ('Ann "the \\ hat"', "Bob\x00]\n; [Player 1 x", game),
        )
        text = match_to_mat(store, [game])
    header = [line for line in text.splitlines() if line.startswith("; [Player")]
    assert header == ["; [Player 1 \"Ann_'the_/_hat'\"]", '; [Player 2 "Bob]_;_[Player_1_x"]']
    assert "\x00" not in text
