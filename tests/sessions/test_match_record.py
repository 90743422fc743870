"""A match recorded in the store: kept over a restart, and exported as one .mat file that
GNU Backgammon imports with the right length, the score before every game, and the
Crawford game where the session had it."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.rules import Result
from kiosk.rules.chouette import Chouette
from kiosk.rules.session import Session
from kiosk.store import Store, StoreError
from kiosk.store.export import match_to_mat
from kiosk.store.sessions import keep_session, load_session, resume_session, start_session
from tests.store.games import record_random_game

GNUBG = "/usr/games/gnubg"
_SCORE = re.compile(
    r"The score \(after (\d+) games?\) is: \S+ (\d+), \S+ (\d+) \(match to (\d+) points?\)"
    r"(, Crawford game|, post-Crawford play)?"
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "table.sqlite3") as opened:
        yield opened


def play_match(store: Store, length: int, first_seed: int) -> tuple[int, Session, list[int]]:
    """Random games recorded as a match, the cube taken on turn 3 except in the Crawford game."""
    match_id, session = start_session(store, Session.match(length))
    ids = []
    seed = first_seed
    while not session.over:
        plan = session.next_game()
        cube = None if plan.crawford else {3: "take"}
        game_id, game = record_random_game(store, seed, match_id=match_id, cube=cube)
        winner, result, _ = game.result
        session.record(winner, result, game.cube.value)
        keep_session(store, match_id, session)
        ids.append(game_id)
        seed += 1
    return match_id, session, ids


def test_a_three_point_match_through_the_crawford_game_is_kept(store: Store) -> None:
    match_id, session, ids = play_match(store, 3, 10)
    assert [g.crawford for g in session.games] == [False, True, False]
    assert session.over and store.match(match_id).score == session.score == (2, 3)
    assert [store.game(g).points for g in ids] == [g.points for g in session.games]
    assert load_session(store, match_id) == session
    assert resume_session(store) is None  # the match is over: nothing to resume


def test_a_session_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with Store(path) as store:
        money_id, money = start_session(store, Session.money("parker", stake=2))
        money.record("black", Result.GAMMON, cube=2)
        keep_session(store, money_id, money)
        chouette_id, chouette = start_session(store, Chouette(["A", "B", "C"]))
        chouette.box_doubles()
        keep_session(store, chouette_id, chouette)
    with Store(path) as store:
        assert load_session(store, money_id) == money
        assert resume_session(store) == (chouette_id, chouette)
        with pytest.raises(StoreError):
            store.save_session(money_id, "money", "not json")
        with pytest.raises(StoreError):
            store.save_session(999, "money", "{}")
        store.save_session(money_id, "money", '{"format": 1}')
        with pytest.raises(StoreError, match="cannot be resumed"):
            load_session(store, money_id)
        assert store.session(12345) is None


def gnubg_scores(mat: Path, games: int, work: Path) -> list[tuple[int, int, int, str, str]]:
    """GNU Backgammon's reading of a ``.mat`` file's ``games``: for each, the score before
    it (white, black, match length), ", Crawford game" / ", post-Crawford play" / "", and
    the game text it exports."""
    script = ["set jacoby off", f"import mat {mat}", "first game"]
    outputs = []
    for n in range(games):
        if n:
            script.append("next game")
        outputs.append(work / f"game{n + 1}.txt")
        script.append(f"export game text {outputs[-1]}")
    run = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=work,
    )
    assert run.returncode == 0, run.stderr
    scores = []
    for number, out in enumerate(outputs):
        text = out.read_text()
        found = _SCORE.search(text)
        assert found, text[:300]
        played, white, black, length, crawford = found.groups()
        assert int(played) == number
        scores.append((int(white), int(black), int(length), crawford or "", text))
    return scores


@pytest.mark.skipif(not Path(GNUBG).exists(), reason="GNU Backgammon is not installed")
def test_gnubg_imports_the_match_with_its_length_and_scores(store: Store, tmp_path: Path) -> None:
    match_id, session, ids = play_match(store, 3, 10)
    mat = tmp_path / "match.mat"
    mat.write_text(match_to_mat(store, match_id=match_id))
    before = (0, 0)
    read = gnubg_scores(mat, len(ids), tmp_path)
    for number, (found, game) in enumerate(zip(read, session.games, strict=True)):
        white, black, length, crawford, text = found
        assert length == session.length
        assert (white, black) == before
        assert (crawford == ", Crawford game") == game.crawford
        post = any(g.crawford for g in session.games[:number])
        assert (crawford == ", post-Crawford play") == post
        wins = re.search(r"(\S+) wins (\d+) points?", text)
        assert wins.groups() == (str(game.winner), str(game.points))
        totals = list(before)
        totals[game.winner] += game.points
        before = (totals[0], totals[1])
    assert before == session.score
