"""The scenario actions that cause the simulated table's real-world faults."""

from __future__ import annotations

import io

from kiosk.rig.scenario import run_script

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


def _moves(chatter: int) -> list[dict[str, object]]:
    script = [
        "setup standard",
        f"chatter {chatter}",
        "dice 3 1",
        "lift 8",
        "place 5",
        "lift 6",
        "place 5",
        "press done",
    ]
    return [e for e in run_script(script, io.StringIO()) if e["event"] != "table"]


def test_chattering_reeds_under_lifted_and_placed_men_are_waited_for() -> None:
    clean = _moves(0)
    assert clean[-1]["event"] == "play" and clean[-1]["move"] == "8/5 6/5"
    for flips in (5, 20):  # 20 flips outlast a hand's step and the firmware's debounce
        assert _moves(flips) == clean
