"""The scenario actions that cause the simulated table's real-world faults."""

from __future__ import annotations

import io

from kiosk.play.scenario import run_script

SCRIPT = """\
setup standard
opening 3 1
chatter 2
slide 8 5
slide 6 5
press done
chatter 0
tumble 6 4
off-centre 13
recentre 13
dead-reed 20 6
welded-reed 21 6 black
"""


def test_every_fault_action_runs_and_a_slid_man_is_judged_where_he_lands() -> None:
    events = run_script(SCRIPT.splitlines(), io.StringIO())
    assert [e for e in events if e["event"] == "error"] == []
    plays = [e for e in events if e["event"] == "play"]
    assert plays[0]["move"] == "8/5 6/5"  # the points slid over were never judged
    before_play = events[: events.index(plays[0])]
    assert not [e for e in before_play if e["event"] == "illegal"]


def test_a_fault_action_with_bad_arguments_is_one_clear_error() -> None:
    events = run_script(["setup standard", "dead-reed 20", "welded-reed x 1"], io.StringIO())
    errors = [e["message"] for e in events if e["event"] == "error"]
    assert errors[0].startswith("dead-reed LOC SLOT") and "1-24, bar or off" in errors[1]
