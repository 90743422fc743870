"""``kiosk export``: write recorded games as a ``.mat`` file, or print a turn's Position ID."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kiosk.store.store import DEFAULT_PATH, ENV_VAR


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``export`` sub-command."""
    parser = subparsers.add_parser(
        "export",
        help="write recorded games as a Jellyfish .mat file for GNU Backgammon",
        description="Write a recorded game or match as a Jellyfish .mat file, which GNU "
        "Backgammon imports (import mat FILE), or print the Position ID before a turn.",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, metavar="N", help="the game numbered N")
    which.add_argument("--match", type=int, metavar="N", help="every game of match N")
    which.add_argument("--last", action="store_true", help="the most recent game (the default)")
    parser.add_argument(
        "--position",
        type=int,
        metavar="TURN",
        help="print the Position ID before turn TURN of the game instead (1 is the first turn; "
        "one past the last is the position now)",
    )
    parser.add_argument("--list", action="store_true", help="list the recorded games instead")
    parser.add_argument("--out", metavar="FILE", help="write the .mat file here (default stdout)")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"the record file (default ${ENV_VAR}, else {DEFAULT_PATH})",
    )
    parser.set_defaults(func=_run)


SQLITE_MAX_INT = 2**63 - 1  # the largest id SQLite can hold


def _fail(message: str) -> int:
    print(f"kiosk export: {message}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    from kiosk.store.export import inexact_turns, match_to_mat, position_before
    from kiosk.store.store import Store, StoreError, default_path

    path = Path(args.db).expanduser() if args.db else default_path()
    if not path.is_file():
        return _fail(f"there is no record file at {path} (give one with --db PATH)")
    if path.stat().st_size == 0:  # opening it would write the records' tables into it
        return _fail(f"{path} is empty: no games are recorded in it")
    for option in ("game", "match", "position"):
        number = getattr(args, option)
        if number is not None and not 0 <= number <= SQLITE_MAX_INT:
            what = "turn" if option == "position" else option
            return _fail(f"there is no {what} {number} in {path}")
    try:
        with Store(path) as store:
            if args.list:
                for game in store.games():
                    ended = (
                        f"{game.winner} won {game.result} ({game.points})"
                        if game.winner
                        else ("abandoned" if game.finished else "unfinished")
                    )
                    match = f" match {game.match_id} game {game.number}" if game.match_id else ""
                    print(f"game {game.id}{match}  {game.started}  {game.profile}  {ended}")
                return 0
            game_id = args.game
            if args.match is None and game_id is None:
                game_id = store.last_game()
                if game_id is None:
                    return _fail(f"{path} holds no games yet")
            if args.position is not None:
                if args.match is not None:
                    return _fail("--position needs a game (--game N or --last), not a match")
                print(position_before(store, game_id, args.position))
                return 0
            if args.match is not None:
                text = match_to_mat(store, match_id=args.match)
                approximate = [
                    (g.id, n) for g in store.games(args.match) for n in inexact_turns(store, g.id)
                ]
            else:
                text = match_to_mat(store, [game_id])
                approximate = [(game_id, n) for n in inexact_turns(store, game_id)]
    except StoreError as err:
        return _fail(str(err))
    for gid, number in approximate:
        print(
            f"kiosk export: note: game {gid} turn {number} was a wrong move let stand; "
            "the file shows the men that moved, which GNU Backgammon may call invalid",
            file=sys.stderr,
        )
    if not args.out:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as err:
        return _fail(f"cannot write {args.out}: {err.strerror or err}")
    print(f"wrote {os.path.abspath(args.out)}", file=sys.stderr)
    return 0
