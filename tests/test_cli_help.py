"""Every ``kiosk`` command explains itself: a description and help for each option, in
plain words, printed by ``--help`` without a warning; and ``kiosk run`` refuses a
``--position`` it cannot use with one clear line."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
# reStructuredText or Markdown left in words meant for a terminal
MARKUP = re.compile(r"``|`|:(class|func|meth|mod|attr):")


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str | None]]:
    """Every sub-command under ``parser``: (its words, its parser, its line in the list)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            lines = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), sub, lines.get(name)
                yield from commands(sub, (*path, name))


ALL = sorted(commands(build_parser()), key=lambda c: c[0])


def test_the_walk_finds_every_command() -> None:
    names = {" ".join(words) for words, _, _ in ALL}
    assert {"run", "doctor", "simulate-table", "table-watch", "commission"} <= names
    assert {"lesson list", "lesson check", "lesson run"} <= names
    assert len(names) >= 15


@pytest.mark.parametrize("words,parser,line", ALL, ids=[" ".join(c[0]) for c in ALL])
def test_each_command_has_a_description_and_help_for_every_option(
    words: tuple[str, ...], parser: argparse.ArgumentParser, line: str | None
) -> None:
    name = " ".join(words)
    assert line, f"kiosk {name} has no line in its parent's list of commands"
    described = parser.description or ""
    assert described and described != line, f"kiosk {name} has no description"
    for words_shown in (line, described):
        assert not MARKUP.search(words_shown), f"kiosk {name}: markup in {words_shown!r}"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        shown = "/".join(action.option_strings) or action.dest
        assert action.help, f"kiosk {name} {shown} has no help"
        assert action.help != argparse.SUPPRESS and not MARKUP.search(action.help)


@pytest.mark.parametrize("words", [c[0] for c in ALL], ids=[" ".join(c[0]) for c in ALL])
def test_help_prints_usage_and_description(
    words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*words, "--help"])
    out, err = capsys.readouterr()
    assert done.value.code == 0 and err == ""
    assert out.startswith(f"usage: kiosk {' '.join(words)}")
    assert "options:" in out


def test_kiosk_help_lists_every_command_and_says_nothing_else() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    done = subprocess.run(
        [sys.executable, "-W", "default", "-m", "kiosk", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    for words, _, line in ALL:
        if len(words) == 1:  # each command, with the start of its line
            shown = rf"^\s+{re.escape(words[0])}\s+{re.escape(str(line)[:20])}"
            assert re.search(shown, done.stdout, re.M), words[0]


def run_headless(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``kiosk run`` with no screen and no table."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", HOME=str(home))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BACKGAMMON_TABLE_CONFIG", "BACKGAMMON_TABLE"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_headless_run_refuses_a_bad_position_with_one_line(tmp_path: Path) -> None:
    done = run_headless("--position", "XYZ", home=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "kiosk run: --position XYZ: a Position ID has 14 characters, 'XYZ' has 3"
    ]


def test_headless_run_says_the_demonstration_cannot_start_from_a_position(
    tmp_path: Path,
) -> None:
    done = run_headless("--position", "4HPwATDgc/ABMA", home=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("kiosk run: --position needs a table or a screen")
