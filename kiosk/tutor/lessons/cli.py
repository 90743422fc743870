"""``kiosk lesson``: list the lessons, check every lesson file, run a lesson headless."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``lesson`` sub-command."""
    parser = subparsers.add_parser(
        "lesson",
        help="list, check or run the lessons",
        description="The lessons from the books: list them, check every lesson file, or run "
        "one headless on the simulated table and print its events as JSON lines.",
    )
    sub = parser.add_subparsers(dest="lesson_command", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="list the lessons in order")
    listing.set_defaults(func=_list)
    check = sub.add_parser(
        "check",
        help="check every lesson file (or the files given): its steps, every declared fact "
        "against the rules engine, GNU Backgammon and the books, every figure, book and "
        "verdict its words state against the facts that back it, and every citation",
    )
    check.add_argument("files", nargs="*", help="lesson files (default: the installed lessons)")
    check.set_defaults(func=_check)
    run = sub.add_parser("run", help="run a lesson on the simulated table")
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
    from kiosk.tutor.lessons.facts import check_lesson
    from kiosk.tutor.lessons.model import LessonError, lesson_files, read_lesson

    paths = [Path(f) for f in args.files] or lesson_files()
    bad = 0
    for path in paths:
        try:
            lesson = read_lesson(path)
        except LessonError as err:
            print(f"FAIL {err}")
            bad += 1
            continue
        problems = check_lesson(lesson)
        wrong = [p for p in problems if not p.skipped]
        facts = sum(len(s.facts) for s in lesson.steps)
        status = "FAIL" if wrong else "ok  "
        print(
            f"{status} {path.name}: {lesson.info.number} {lesson.title} "
            f"({len(lesson.steps)} steps, {facts} facts checked)"
        )
        for problem in problems:
            print(f"     {path.name}: {problem}")
        bad += bool(wrong)
    return 1 if bad else 0


def _run(args: argparse.Namespace) -> int:
    from kiosk.tutor.lessons import LessonError, load_lesson, read_lesson
    from kiosk.tutor.lessons.headless import Learner, TableSession

    try:
        path = Path(args.lesson)
        lesson = read_lesson(path) if path.suffix == ".toml" else load_lesson(args.lesson)
    except LessonError as err:
        print(f"kiosk lesson: {err}", file=sys.stderr)
        return 2

    def show(event: dict) -> None:
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
