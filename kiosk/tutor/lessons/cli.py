"""``kiosk lesson``: list the lessons, check every lesson file, run a lesson headless."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``lesson`` sub-command."""
    parser = subparsers.add_parser(
        "lesson",
        help="list, check or run the lessons",
        description="The lessons from the books: list them, check every lesson file, or run "
        "one headless on the simulated table and print its events as JSON lines.",
    )
    sub = parser.add_subparsers(
        dest="lesson_command", metavar="ACTION", required=True, help="list, check or run"
    )
    listing = sub.add_parser(
        "list",
        help="list the lessons in order",
        description="Print each installed lesson, one a line: its number, its id (for "
        "'kiosk lesson run') and its title and summary.",
    )
    listing.set_defaults(func=_list)
    check = sub.add_parser(
        "check",
        help="check every lesson file (or the files given): its steps, every declared fact "
        "against the rules engine, GNU Backgammon and the books, every figure, book and "
        "verdict its words state against the facts that back it, every citation, and every "
        "play a step accepts, calls sound, refuses or gives as a book's, rated by GNU "
        "Backgammon at 2-ply (the bear-off count in a bear-off)",
        description="Read each lesson file and check it: its steps, every fact it declares "
        "(against the rules engine, GNU Backgammon and the books), every figure, book and "
        "verdict its words state, every citation, and every play a step names, rated by GNU "
        "Backgammon. Prints one line a lesson (ok or FAIL and why); exits with status 1 if "
        "any lesson fails.",
    )
    check.add_argument("files", nargs="*", help="lesson files (default: the installed lessons)")
    check.add_argument(
        "--write-ratings",
        action="store_true",
        help="keep GNU Backgammon's rating of every legal play of every play step in the "
        "lessons' ratings file, which the table reads to say what a learner's wrong play "
        "costs (the check fails while it is missing or out of date)",
    )
    check.set_defaults(func=_check)
    run = sub.add_parser(
        "run",
        help="run a lesson on the simulated table",
        description="Run one lesson headless on the simulated table, the learner's actions "
        "taken from a script or played by a simulated learner who answers right or wrong, "
        "and print the lesson's events as JSON lines.",
    )
    run.add_argument("lesson", help="the lesson's id (see 'kiosk lesson list') or a file")
    how = run.add_mutually_exclusive_group(required=True)
    how.add_argument("--script", help="the learner's actions, one a line ('-' for stdin)")
    how.add_argument(
        "--learner", choices=("right", "wrong"), help="a simulated learner plays it through"
    )
    run.add_argument("--settle-ms", type=int, default=300, help="settle time (default 300)")
    run.set_defaults(func=_run)


def _list(args: argparse.Namespace) -> int:
    from kiosk.tutor.lessons import survey

    lessons, damaged = survey()
    for info in lessons:
        print(f"{info.number:2}  {info.id:16}  {info.title}: {info.summary}")
    for err in damaged:
        print(f"kiosk lesson: left out, damaged: {err}", file=sys.stderr)
    return 1 if damaged else 0


def _check(args: argparse.Namespace) -> int:
    from kiosk.tutor.lessons.model import lesson_files
    from kiosk.tutor.lessons.ratings import Judge

    paths = [Path(f) for f in args.files] or lesson_files()
    judge = Judge()  # one GNU Backgammon for every file
    try:
        if args.write_ratings:
            _write_ratings(paths, judge)
        bad = sum(_check_file(path, judge) for path in paths)
    finally:
        judge.close()
    return 1 if bad else 0


def _write_ratings(paths: list[Path], judge: Any) -> None:
    """Rate every legal play of every play step of the lessons at ``paths`` and keep them."""
    from kiosk.tutor.lessons.model import LessonError, PlayStep, read_lesson
    from kiosk.tutor.lessons.ratings import rate_step, stored_entry, write_ratings

    entries: dict[str, dict[str, dict[str, Any]]] = {}
    for path in paths:
        try:
            lesson = read_lesson(path)
        except LessonError:
            continue  # the check says why
        steps = [s for s in lesson.steps if isinstance(s, PlayStep)]
        try:
            entries[lesson.id] = {
                str(s.number): stored_entry(s, rate_step(s, judge, lesson.profile))
                for s in steps
            }
        except LookupError as err:
            print(f"kiosk lesson check: ratings not written: {err}", file=sys.stderr)
            return
    print(f"ratings written to {write_ratings(entries)}")


def _check_file(path: Path, judge: Any) -> int:
    """Check one lesson file and print the verdict; 1 if it fails."""
    from kiosk.tutor.lessons.facts import check_lesson
    from kiosk.tutor.lessons.model import LessonError, PlayStep, read_lesson

    try:
        lesson = read_lesson(path)
    except LessonError as err:
        print(f"FAIL {err}")
        return 1
    problems = check_lesson(lesson, judge)
    wrong = [p for p in problems if not p.skipped]
    facts = sum(len(s.facts) for s in lesson.steps)
    plays = sum(
        len({p.result.position_id() for p in s.start.legal_plays(*s.dice, lesson.profile)})
        for s in lesson.steps
        if isinstance(s, PlayStep)
    )
    status = "FAIL" if wrong else "ok  "
    print(
        f"{status} {path.name}: {lesson.info.number} {lesson.title} "
        f"({len(lesson.steps)} steps, {facts} facts checked, {plays} legal plays rated)"
    )
    for problem in problems:
        print(f"     {path.name}: {problem}")
    return int(bool(wrong))


def _run(args: argparse.Namespace) -> int:
    from kiosk.rig.lessons import Learner, TableSession
    from kiosk.tutor.lessons import LessonError, load_lesson, read_lesson

    try:
        path = Path(args.lesson)
        lesson = read_lesson(path) if path.suffix == ".toml" else load_lesson(args.lesson)
    except LessonError as err:
        print(f"kiosk lesson: {err}", file=sys.stderr)
        return 2

    def show(event: dict[str, Any]) -> None:
        print(json.dumps(event), flush=True)

    with TableSession(lesson, settle_ms=args.settle_ms, on_event=show) as session:
        session.start()
        if args.learner:
            Learner(right=args.learner == "right").run(session)
        else:
            try:
                source = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")
            except OSError as err:
                print(f"kiosk lesson: cannot read {args.script}: {err.strerror}", file=sys.stderr)
                return 2
            with source:
                session.run(source)
    return 0
