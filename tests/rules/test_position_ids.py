"""Malformed Position IDs: a clear error from the decoder, never anything else (issue 11).

The decoder is fuzzed with random strings (a few thousand here, 100,000 in the slow
set), and every command that reads a Position ID is run with a malformed one.
"""

import json
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.rules import (
    InvalidPositionError,
    InvalidPositionIdError,
    Position,
    decode_position_id,
    encode_position_id,
)

KIOSK = [sys.executable, "-m", "kiosk"]
START = "4HPwATDgc/ABMA"
BAD = "4HPwATDgc/AB=="  # twelve characters and "==" (once an IndexError)
ALPHABET = string.ascii_letters + string.digits + "+/"


def random_text(rng: random.Random) -> str:
    """A string of one of several kinds: near-IDs, padded IDs, any text."""
    kind = rng.randrange(6)
    if kind == 0:  # fourteen characters of the ID alphabet: any bit pattern
        return "".join(rng.choice(ALPHABET) for _ in range(14))
    if kind == 1:  # an ID cut short and padded, as base64 would be
        n = rng.randrange(8, 14)
        return "".join(rng.choice(ALPHABET) for _ in range(n)) + "=" * rng.randrange(1, 4)
    if kind == 2:  # a real ID with one character changed
        i = rng.randrange(14)
        return START[:i] + rng.choice(ALPHABET + "=!. é\x00") + START[i + 1 :]
    if kind == 3:  # mostly ones or mostly zeros (too many men, too few points)
        return "".join(rng.choice("/+A") for _ in range(14))
    if kind == 4:  # any printable text of any length
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(0, 20)))
    return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(10, 18)))


def check_one(text: str) -> None:
    """Decode ``text``: two sides of 25 counts, or InvalidPositionIdError; never anything else."""
    try:
        roller, other = decode_position_id(text)
    except InvalidPositionIdError as err:
        assert str(err) and "\n" not in str(err)
        return
    assert len(roller) == len(other) == 25
    assert sum(roller) <= 15 and sum(other) <= 15
    assert decode_position_id(encode_position_id(roller, other)) == (roller, other)
    try:
        position = Position.from_id(text)
    except InvalidPositionError as err:
        assert "both have men" in str(err)
        return
    assert Position.from_id(position.position_id()) == position


def fuzz(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        check_one(random_text(rng))


def test_the_reported_id_is_a_clear_error():
    with pytest.raises(InvalidPositionIdError, match="not a Position ID"):
        Position.from_id(BAD)
    assert issubclass(InvalidPositionIdError, InvalidPositionError)
    assert issubclass(InvalidPositionIdError, ValueError)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        (BAD, "bad characters '='"),
        ("4HPw ATDgc/ABM", "bad characters ' '"),
        ("4HPwATDgc/ABMé", "bad characters 'é'"),
        ("//////////////", "two complete sides"),
        (encode_position_id([16] + [0] * 24, [0] * 25), "side on roll 16 men"),
        ("AAAAAAAAAAAAA/", "beyond both sides"),
    ],
)
def test_each_fault_is_named(text, words):
    with pytest.raises(InvalidPositionIdError, match=words):
        decode_position_id(text)


def test_an_empty_board_is_an_id():
    assert decode_position_id("AAAAAAAAAAAAAA") == ([0] * 25, [0] * 25)


def test_not_text_is_refused():
    with pytest.raises(InvalidPositionIdError, match="is text"):
        decode_position_id(None)  # type: ignore[arg-type]


def test_fuzz_decoder():
    fuzz(4000, seed=11)


@pytest.mark.slow
def test_fuzz_decoder_at_length():
    fuzz(100_000, seed=1911)


# -- every command that reads a Position ID ------------------------------------------


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYGAME", "SDL"))}
    env["SDL_VIDEODRIVER"] = "dummy"
    return subprocess.run(
        KIOSK + args, input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


def one_clear_line(text: str) -> str:
    """The one line of ``text`` (no traceback), which must name the fault."""
    assert "Traceback" not in text and "IndexError" not in text
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert "is not a Position ID" in lines[0]
    return lines[0]


def test_plays():
    done = run(["plays", BAD, "3", "1"])
    assert done.returncode == 2 and done.stdout == ""
    assert one_clear_line(done.stderr).startswith("kiosk plays: ")


def test_plays_batch_answers_every_line():
    done = run(["plays", "--batch"], f"{BAD} 3 1\n{START} 3 1\n{BAD[:-1]}A 6 6\n{START} 2 1\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 4
    assert "is not a Position ID" in answers[0]["error"]
    assert len(answers[1]["plays"]) == 16 and len(answers[3]["plays"]) == 15
    assert "error" in answers[2]


def test_coach():
    done = run(["coach", BAD, "3", "1", "8/5 6/5"])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is not a Position ID" in json.loads(one_clear_line(done.stdout))["error"]


def test_scenario():
    done = run(["scenario", "-"], f"setup {BAD}\n")
    assert "Traceback" not in done.stderr
    errors = [e for e in map(json.loads, done.stdout.splitlines()) if e["event"] == "error"]
    assert len(errors) == 1 and "is not a Position ID" in errors[0]["message"]


def test_run_position():
    done = run(["run", "--port", "/nonexistent/table", "--position", BAD])
    assert done.returncode == 2 and done.stdout == ""
    assert one_clear_line(done.stderr).startswith("kiosk run: --position")


def test_lesson_check(tmp_path: Path):
    lessons = Path(__file__).resolve().parents[2] / "kiosk/tutor/lessons/data"
    text = (lessons / "01-the-board.toml").read_text()
    assert 'position = "standard"' in text
    lesson = tmp_path / "bad.toml"
    lesson.write_text(text.replace('position = "standard"', f'position = "{BAD}"', 1))
    done = run(["lesson", "check", str(lesson)])
    assert done.returncode != 0 and "Traceback" not in done.stderr
    one_clear_line(done.stderr + done.stdout)
