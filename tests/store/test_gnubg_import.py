"""GNU Backgammon imports our .mat files and reads back the same game, turn by turn.

GNU Backgammon (Debian's ``gnubg``, run as ``gnubg -t``) imports the exported file and
writes each game as text: before every turn it prints who is to play, the dice, and the
Position ID with the mover on roll. Those must be our recorded turns, one for one.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from kiosk.books.crawley_games import GAMES
from kiosk.store import Store
from kiosk.store.export import match_to_mat
from tests.store.games import record_book_game, record_random_game

GNUBG = "/usr/games/gnubg"

pytestmark = pytest.mark.skipif(
    not Path(GNUBG).exists(),
    reason=f"GNU Backgammon is not installed at {GNUBG} (apt-get install gnubg; .ci/run does)",
)

_TURN = re.compile(
    r"Move number \d+:\s+(\S+) to play (\d)(\d)\s+GNU Backgammon\s+Position ID: (\S+)"
)
_WINS = re.compile(r"^(\S+) wins (\d+) points?", re.MULTILINE)


def gnubg_games(mat: Path, games: int, work: Path) -> list[str]:
    """Import ``mat`` into GNU Backgammon and return its text export of each game."""
    script = ["set jacoby off", f"import mat {mat}", "first game"]
    outputs = []
    for n in range(games):
        if n:
            script.append("next game")
        out = work / f"game{n + 1}.txt"
        script.append(f"export game text {out}")
        outputs.append(out)
    run = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=work,
    )
    assert run.returncode == 0, run.stderr
    complaints = [
        line
        for line in (run.stdout + run.stderr).splitlines()
        if re.search(r"invalid|unrecognised|not a valid|illegal", line, re.IGNORECASE)
    ]
    assert complaints == []
    missing = [str(p) for p in outputs if not p.exists()]
    assert not missing, f"GNU Backgammon wrote no game text: {run.stdout[-2000:]}"
    return [p.read_text() for p in outputs]


def gnubg_turns(text: str) -> list[tuple[str, tuple[int, int], str]]:
    """(player, dice, Position ID before the move) for every turn GNU Backgammon read."""
    return [(m[1], tuple(sorted((int(m[2]), int(m[3])))), m[4]) for m in _TURN.finditer(text)]


def our_turns(store: Store, game_id: int) -> list[tuple[str, tuple[int, int], str]]:
    return [(t.colour, tuple(sorted(t.dice)), t.position_before) for t in store.turns(game_id)]


def test_gnubg_reads_a_match_with_hits_bar_bear_offs_and_the_cube(
    store: Store, tmp_path: Path
) -> None:
    match = store.new_match(25, "modern")
    ids = [
        record_random_game(store, seed=1, match_id=match, cube={5: "take", 8: "take"})[0],
        record_random_game(store, seed=2, match_id=match, cube={4: "pass"})[0],
        record_random_game(store, seed=3, match_id=match)[0],
    ]
    text = match_to_mat(store, match_id=match)
    # what the file must exercise: hits, entering from the bar, bearing off, the cube
    for needed in ("*", " 25/", "/0", "Doubles => 4", "Takes", "Drops", " 25 point match"):
        assert needed in text, needed
    mat = tmp_path / "match.mat"
    mat.write_text(text)
    exported = gnubg_games(mat, len(ids), tmp_path)
    for game_id, game_text in zip(ids, exported, strict=True):
        theirs = gnubg_turns(game_text)
        ours = our_turns(store, game_id)
        assert len(theirs) == len(ours) > 2
        for number, (their, our) in enumerate(zip(theirs, ours, strict=True), start=1):
            assert their == our, f"game {game_id} turn {number}"
        summary = store.game(game_id)
        assert _WINS.search(game_text).groups() == (summary.winner, str(summary.points))


def test_gnubg_reads_crawleys_first_game(store: Store, tmp_path: Path) -> None:
    game_id, played = record_book_game(store, GAMES[0])
    mat = tmp_path / "crawley.mat"
    mat.write_text(match_to_mat(store, [game_id]))
    (game_text,) = gnubg_games(mat, 1, tmp_path)
    theirs = gnubg_turns(game_text)
    assert theirs == our_turns(store, game_id)
    assert len(theirs) == len(played.turns)
    winner, _, points = played.result
    assert _WINS.search(game_text).groups() == (str(winner), str(points))


def test_gnubg_reads_a_game_black_opens_and_one_unfinished(store: Store, tmp_path: Path) -> None:
    seed = 0
    while True:
        black_opens, _ = record_random_game(store, seed=seed)
        if store.turns(black_opens)[0].colour == "black":
            break
        seed += 1
    unfinished, _ = record_random_game(store, seed=seed + 1, stop_after=12)
    mat = tmp_path / "two.mat"
    text = match_to_mat(store, [black_opens, unfinished])
    assert "\n  1)                             " in text  # black's opening in the right column
    mat.write_text(text)
    first, second = gnubg_games(mat, 2, tmp_path)
    assert gnubg_turns(first) == our_turns(store, black_opens)
    assert gnubg_turns(second) == our_turns(store, unfinished)
    assert len(our_turns(store, unfinished)) == 12
    assert _WINS.search(second) is None


def test_kiosk_export_writes_a_file_gnubg_imports(db_path: Path, tmp_path: Path) -> None:
    from kiosk.cli import main

    with Store(db_path) as store:
        game_id, _ = record_random_game(store, seed=9)
        ours = our_turns(store, game_id)
    out = tmp_path / "last.mat"
    assert main(["export", "--db", str(db_path), "--last", "--out", str(out)]) == 0
    (game_text,) = gnubg_games(out, 1, tmp_path)
    assert gnubg_turns(game_text) == ours
