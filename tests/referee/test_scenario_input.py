"""`kiosk scenario` on bad input: one clear error line per bad line, the rest still run."""

import json
import subprocess
import sys

from tests.referee.hands import kinds, run

BAD = b"setup standard\ndice 3 1\nlift 8 \xff\xfe\nlift 8\nplace 5\nwait 400\n"


def _scenario(args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "scenario", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _without_ports(events):
    return [e for e in events if e["event"] != "table"]


def test_a_file_with_bad_utf8_reads_as_standard_input_does(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_bytes(BAD)
    from_file = _scenario([str(script)])
    from_stdin = _scenario(["-"], stdin=BAD)
    assert _without_ports(from_file) == _without_ports(from_stdin)
    [error] = kinds(from_file, "error")
    assert error == {"event": "error", "line": 3, "message": "the line is not UTF-8 text"}
    assert kinds(from_file, "destinations")  # the lines after it still ran


def test_every_bad_line_gets_one_error_line():
    events = run(["wait 99999999", "wait soon", "cocked 3", "choose x", "jump", "dice 7 1"])
    errors = kinds(events, "error")
    assert [e["line"] for e in errors] == [1, 2, 3, 4, 5, 6]
    assert "60000" in errors[0]["message"]
