"""The ``kiosk plays`` command-line contract, run as a real subprocess."""

import json
import os
import subprocess
import sys

from kiosk.rules import Position

KIOSK = [sys.executable, "-m", "kiosk"]


def run(args, stdin=""):
    # the command's own environment: nothing set by other tests (such as pygame's prompt)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYGAME", "SDL"))}
    return subprocess.run(
        KIOSK + args, input=stdin, capture_output=True, text=True, timeout=60, env=env
    )


def test_plays_prints_one_play_a_line():
    done = run(["plays", "4HPwATDgc/ABMA", "3", "1"])
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) == 16 and "8/5 6/5" in lines
    assert lines == [str(p) for p in Position.standard().legal_plays(3, 1)]


def test_plays_bad_input_is_explained():
    done = run(["plays", "4HPwATDgc/ABMA", "9", "1"])
    assert done.returncode == 2 and "1 to 6" in done.stderr


def test_no_legal_play_is_said_on_stderr():
    closed = Position.from_points({**{p: -2 for p in range(19, 25)}, 13: 5}, bar=(1, 0))
    done = run(["plays", closed.position_id(), "6", "5"])
    assert done.returncode == 0 and done.stdout == "" and "no legal play" in done.stderr


def test_batch_contract():
    lines = "4HPwATDgc/ABMA 3 1\nnot-an-id 1 2\n4HPwATDgc/ABMA 6 6\n4HPwATDgc/ABMA 1\n"
    done = run(["plays", "--batch"], lines)
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 4
    first = answers[0]
    assert first["position"] == "4HPwATDgc/ABMA" and first["dice"] == [3, 1]
    assert {"move": "8/5 6/5", "result": "sGfwATDgc/ABMA"} in first["plays"]
    assert len({p["result"] for p in first["plays"]}) == len(first["plays"]) == 16
    assert "error" in answers[1] and "not-an-id" in answers[1]["error"]
    assert answers[2]["dice"] == [6, 6]
    assert "error" in answers[3] and "two dice" in answers[3]["error"]


def test_batch_profile_changes_the_answer():
    p = Position.from_points({10: 1, 1: -2})
    line = f"{p.position_id()} 6 3\n"
    modern = json.loads(run(["plays", "--batch"], line).stdout)
    cady = json.loads(run(["plays", "--batch", "--profile", "cady"], line).stdout)
    assert [x["move"] for x in modern["plays"]] == ["10/4"]
    assert sorted(x["move"] for x in cady["plays"]) == ["10/4", "10/7"]
