"""What the records cost: one event written and on disk, resuming a long game, exporting it.

Games are played by random legal plays and recorded event by event into a real SQLite
file (WAL, synchronous=FULL, one transaction per event, as on the table). Reported: the
time for ``record()`` to return (the event is then on disk), split into play events (which
also add a turn) and the rest; ``load_game`` of the longest game; ``.mat`` export of all
the games; and the file size per event.

Run: .venv/bin/python benchmarks/bench_store.py [--games N] [--dir FOLDER] [--quick]
(``--dir`` chooses where the file is written: the disk being measured; default a temporary
folder.) The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from kiosk.rules import Game, Phase, Position, get_profile
from kiosk.store import Store
from kiosk.store.export import match_to_mat


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
