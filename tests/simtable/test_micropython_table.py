"""The simulated table with its firmware run by real MicroPython (the WebAssembly port)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys

import pytest

from kiosk.link import QueueListener, TableLink
from kiosk.rig.scenario import run_script
from kiosk.simtable import STARTING_POSITION, SimulatedTable
from kiosk.simtable.micropython import unavailable

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="Node.js is not installed: no MicroPython to run"
)

SESSION = """\
setup standard
opening 3 1
chatter 4
lift 8
place 5
lift 6
place 5
press done
unplug
replug
dice 6 4
lift 24
place 18
lift 18
place 14
press done
"""


def test_micropython_is_installed_when_node_is() -> None:
    assert unavailable() is None


def _comparable(events: list[dict]) -> list[dict]:
    """The events without what differs by design: the runtime and the pty's path."""
    return [
        {k: v.split(" on /")[0] if k == "message" else v for k, v in e.items() if k != "runtime"}
        for e in events
    ]


def test_a_whole_session_gives_the_same_events_under_both_interpreters() -> None:
    cpython = run_script(SESSION.splitlines(), io.StringIO())
    micropython = run_script(SESSION.splitlines(), io.StringIO(), firmware="micropython")
    connected = [e for e in micropython if e.get("status") == "connected"]
    assert connected and all(e["runtime"] == "micropython" for e in connected)
    assert {e["runtime"] for e in cpython if e.get("status") == "connected"} == {"cpython"}
    assert _comparable(micropython) == _comparable(cpython)
    assert [e["event"] for e in micropython].count("play") == 2


def test_the_identify_names_micropython() -> None:
    listener = QueueListener()
    with SimulatedTable(firmware="micropython") as sim:
        sim.set_position(STARTING_POSITION)
        with TableLink(sim.port_name, listener=listener, silence_timeout=None) as link:
            assert link.wait_connected(10)
            assert link.info is not None and link.info.runtime == "micropython"
            sim.advance(50)
            frame = listener.frames.get(timeout=5)
            assert frame.counts()["13"][1] == 5


def test_kiosk_scenario_runs_the_firmware_under_micropython(tmp_path) -> None:
    script = tmp_path / "session.txt"
    script.write_text("setup standard\nopening 3 1\nlift 8\nplace 5\n")
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "scenario", "--firmware", "micropython", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    events = [json.loads(line) for line in done.stdout.splitlines()]
    table = [e for e in events if e["event"] == "table"]
    assert table[0]["status"] == "connected" and table[0]["runtime"] == "micropython"
