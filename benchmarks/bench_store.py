"""What the records cost: one event written and on disk, resuming a long game, exporting it.

Games are played by random legal plays and recorded event by event into a real SQLite
file (WAL, synchronous=FULL, one transaction per event, as on the table). Reported: the
time for ``record()`` to return (the event is then on disk), split into play events (which
also add a turn) and the rest; ``load_game`` of the longest game; ``.mat`` export of all
the games; and the file size per event.

Then a year-sized file (``YEAR_GAMES`` games, ``LEARNERS`` x ``LESSONS`` progress rows,
class answers), its rows written straight: the Replay menu's list of the last games
(``replay_menu_ms``, the menu's own code) and one page of the companion's progress view
(``progress_page_ms``, the server's own code), each the median of ``LISTING_RUNS`` reads;
beside them, the same read the old way, everything then filtered
(``replay_menu_all_rows_ms``, ``progress_all_rows_ms``).

Run: .venv/bin/python benchmarks/bench_store.py [--games N] [--dir FOLDER] [--quick]
(``--dir`` chooses where the file is written: the disk being measured; default a temporary
folder.) The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

from kiosk.rules import Game, Phase, Position, get_profile
from kiosk.store import Store
from kiosk.store.export import match_to_mat
from kiosk.store.store import ClassAnswer


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _play_game(store: Store, rng: random.Random, times: dict[str, list[float]]) -> int:
    def record(game_id: int, event: dict) -> None:
        start = time.perf_counter()
        store.record(game_id, event)
        elapsed = (time.perf_counter() - start) * 1000
        times["play" if event["event"] == "play" else "other"].append(elapsed)

    game = Game(get_profile("modern"))
    game_id = store.start_game("modern", Position.standard().position_id(), "white")
    while True:
        white, black = rng.randint(1, 6), rng.randint(1, 6)
        outcome = game.opening(white, black)
        starter = str(outcome.starter) if outcome.starter is not None else None
        record(game_id, {"event": "opening", "starter": starter, "dice": [white, black]})
        if outcome.starter is not None:
            break
    while game.phase != Phase.OVER:
        if game.phase == Phase.ROLL:
            dice = rng.randint(1, 6), rng.randint(1, 6)
            game.roll(*dice)
            record(game_id, {"event": "dice", "player": str(game.turn), "dice": list(dice)})
        mover, dice = game.turn, game.dice
        play = rng.choice(game.legal_plays())
        record(game_id, {"event": "legal", "player": str(mover)})  # a verdict as men land
        game.play(play)
        record(
            game_id,
            {
                "event": "play",
                "player": str(mover),
                "dice": list(dice),
                "move": str(play),
                "position": game.position.position_id(),
            },
        )
    winner, result, points = game.result
    record(
        game_id,
        {"event": "game-over", "winner": str(winner), "result": result.value, "points": points},
    )
    return game_id


YEAR_GAMES = 14_600  # forty games a day
LEARNERS, LESSONS = 2_000, 24  # 48,000 progress rows
ANSWERS = 6_000  # class answers
LISTING_RUNS = 15


def _year_file(path: Path) -> None:
    """A file as a year of use leaves it, its rows written straight."""
    with Store(path):
        pass  # the schema
    rng = random.Random(365)
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            "INSERT INTO games (number, started, profile, mode, white, black, match_length, "
            "start_position, start_turn, finished, winner, result, points) "
            "VALUES (1, ?, 'modern', 'teaching', 'white', 'black', 0, '4HPwATDgc/ABMA', "
            "'white', ?, ?, 'single', 1)",
            [
                (f"2026-{1 + n * 12 // YEAR_GAMES:02d}-01T10:00:00", "2026-01-01T11:00:00",
                 rng.choice(("white", "black")))
                for n in range(YEAR_GAMES)
            ],
        )
        db.executemany(
            "INSERT INTO lessons (player_slot, lesson_id, step, done, updated) "
            "VALUES (?, ?, ?, ?, '2026-01-01T10:00:00')",
            [
                (f"learner-{n:04d}", f"lesson-{k:02d}", rng.randint(1, 20), rng.random() < 0.5)
                for n in range(LEARNERS)
                for k in range(LESSONS)
            ],
        )
    db.close()
    with Store(path) as store:
        for n in range(ANSWERS):
            store.save_class_answer(
                ClassAnswer(
                    "c1", f"learner-{rng.randrange(LEARNERS):04d}", f"q{n}", "4HPwATDgc/ABMA",
                    (3, 1), "8/5 6/5", "8/5 6/5", rng.random() < 0.5, 0.0,
                    "2026-01-01T10:00:00.000+00:00",
                )
            )


def _median_ms(read: Callable[[], object], clock: Callable[[], float]) -> float:
    """The median time of ``read`` by ``clock`` (wall, or this process's CPU)."""
    times = []
    for _ in range(LISTING_RUNS):
        start = clock()
        read()
        times.append((clock() - start) * 1000)
    return round(statistics.median(times), 2)


def listings(folder: str) -> dict[str, object]:
    """The Replay menu's and the progress page's reads on a year-sized file."""
    from kiosk.app.menus import TableMenus
    from kiosk.companion.server import CompanionServer
    from kiosk.config import CompanionSection

    path = Path(folder) / "year.sqlite3"
    _year_file(path)
    with Store(path) as store:
        app = SimpleNamespace(store=store, report_store=print)
        menus = TableMenus.__new__(TableMenus)
        menus.app = app  # type: ignore[assignment]
        server = CompanionServer(CompanionSection(), None, store=store)  # type: ignore[arg-type]
        assert len(menus.recorded_games()) == 8 and len(server._learners(1)[1]) == 50
        reads: dict[str, Callable[[], object]] = {
            "replay_menu": menus.recorded_games,
            "progress_page": lambda: server._learners(1),
            "replay_menu_all_rows": lambda: [
                g for g in store.games() if g.finished and g.winner
            ][-8:],
            "progress_all_rows": lambda: (store.all_lesson_progress(), store.class_answers()),
        }
        figures: dict[str, object] = {"year_games": YEAR_GAMES, "progress_rows": LEARNERS * LESSONS}
        for name, read in reads.items():
            figures[f"{name}_ms"] = _median_ms(read, time.perf_counter)
            figures[f"{name}_cpu_ms"] = _median_ms(read, time.process_time)
    print(
        f"a year's file ({YEAR_GAMES} games, {LEARNERS * LESSONS} progress rows): the Replay "
        f"menu {figures['replay_menu_ms']} ms (every game read: "
        f"{figures['replay_menu_all_rows_ms']} ms), a page of progress "
        f"{figures['progress_page_ms']} ms (every row read: {figures['progress_all_rows_ms']} ms); "
        f"by CPU time {figures['replay_menu_cpu_ms']} and {figures['progress_page_cpu_ms']} ms"
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games to record (default 10)")
    parser.add_argument("--dir", help="folder for the record file (default: a temporary one)")
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    if args.quick:
        args.games = min(args.games, 2)
    rng = random.Random(2024)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "bench.sqlite3"
        times: dict[str, list[float]] = {"play": [], "other": []}
        with Store(path) as store:
            ids = [_play_game(store, rng, times) for _ in range(args.games)]
            longest = max(ids, key=lambda g: len(store.turns(g)))
            start = time.perf_counter()
            store.load_game(longest)
            load_ms = (time.perf_counter() - start) * 1000
            turns = len(store.turns(longest))
            start = time.perf_counter()
            match_to_mat(store, ids)
            export_ms = (time.perf_counter() - start) * 1000
        events = len(times["play"]) + len(times["other"])
        size = path.stat().st_size + sum(
            p.stat().st_size for p in Path(folder).glob("bench.sqlite3-*")
        )
    everything = times["play"] + times["other"]
    figures = {
        "events": events,
        "record_p50_ms": round(_percentile(everything, 0.50), 3),
        "record_p99_ms": round(_percentile(everything, 0.99), 3),
        "record_worst_ms": round(max(everything), 3),
        "play_record_p50_ms": round(_percentile(times["play"], 0.50), 3),
        "play_record_p99_ms": round(_percentile(times["play"], 0.99), 3),
        "load_game_ms": round(load_ms, 2),
        "load_game_turns": turns,
        "export_ms": round(export_ms, 2),
        "export_games": len(ids),
        "bytes_per_event": round(size / events),
    }
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        figures.update(listings(folder))
    print(
        f"record(): {events} events written and synced, p50 {figures['record_p50_ms']} ms, "
        f"p99 {figures['record_p99_ms']} ms, worst {figures['record_worst_ms']} ms "
        f"(play events p50 {figures['play_record_p50_ms']} ms)"
    )
    print(
        f"load_game of a {turns}-turn game: {figures['load_game_ms']} ms; .mat export of "
        f"{len(ids)} games: {figures['export_ms']} ms; {figures['bytes_per_event']} bytes/event"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
