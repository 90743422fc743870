"""The simulated table's model, its line commands and the ``simulate-table`` command.

The simulated table is the designed one (one reed a slot) unless asked to tell colour.
"""

from __future__ import annotations

import argparse
import io
import os
import time

import pytest

from kiosk.link import DieReading, QueueListener, SlotState, TableLayout, TableLink
from kiosk.link import cli as link_cli
from kiosk.simtable import SimulatedTable
from kiosk.simtable.console import execute
from kiosk.table.layout import SENSINGS

WHITE, BLACK, EMPTY = SlotState.WHITE, SlotState.BLACK, SlotState.EMPTY
OCCUPIED = SlotState.OCCUPIED


@pytest.fixture
def sim(sensing: str):
    with SimulatedTable(TableLayout(point_slots=4, sensing=sensing), seed=3) as table:
        yield table


@pytest.mark.parametrize("sensing", SENSINGS)
def test_the_model_keeps_the_true_count_and_senses_the_first_slots(sim: SimulatedTable) -> None:
    """The model keeps every man's colour; the slots read it only where the reeds tell it."""
    black = BLACK if sim.layout.sensing == "polarity" else OCCUPIED
    sim.set_position({"17": ("black", 7)})
    assert len(sim.men("17")) == 7
    assert sim.sensed("17") == (black,) * 4
    assert sim.lift("17") is BLACK
    assert sim.sensed("17") == (black,) * 4
    sim.place("17", WHITE)
    assert sim.lift("17", "black") is BLACK
    assert sim.men("17")[-1] is WHITE
    for _ in range(3):
        sim.lift("17")
    assert sim.men("17") == (BLACK,) * 3
    assert sim.sensed("17") == (black,) * 3 + (EMPTY,)


def test_bad_requests_are_refused(sim: SimulatedTable) -> None:
    with pytest.raises(ValueError):
        sim.lift("3")
    with pytest.raises(ValueError):
        sim.place("25", "white")
    with pytest.raises(ValueError):
        sim.place("3", "red")
    with pytest.raises(ValueError):
        sim.set_dice(0, 7)
    with pytest.raises(ValueError):
        sim.cock(3)
    with SimulatedTable(realtime=True) as table, pytest.raises(RuntimeError):
        table.advance(5)


def test_dice_read_back(sim: SimulatedTable) -> None:
    faces = sim.throw()
    assert sim.dice() == tuple(DieReading(f) for f in faces)
    sim.cock(1)
    assert sim.dice()[0] is DieReading.COCKED
    sim.clear_dice()
    assert sim.dice() == (DieReading.EMPTY, DieReading.EMPTY)


def test_the_port_name_survives_a_replug(sim: SimulatedTable) -> None:
    target = os.readlink(sim.port_name)
    sim.unplug()
    assert not os.path.exists(sim.port_name) and not sim.plugged
    sim.replug()
    assert os.path.exists(sim.port_name) and os.readlink(sim.port_name).startswith("/dev/pts/")
    assert target.startswith("/dev/pts/")


def test_console_commands_drive_the_table(sim: SimulatedTable) -> None:
    assert execute(sim, "start") == "ok"
    assert sim.men("13") == (WHITE,) * 5
    assert execute(sim, "place 13 white 2") == "ok"
    assert len(sim.men("13")) == 7
    assert execute(sim, "lift 13") == "ok" and execute(sim, "move 1 bar-black") == "ok"
    assert sim.men("bar-black") == (BLACK,)
    assert execute(sim, "dice 3 1") == "ok" and sim.dice() == (DieReading.THREE, DieReading.ONE)
    assert execute(sim, "cock 2") == "ok" and sim.dice()[1] is DieReading.COCKED
    assert execute(sim, "noise 10") == "injected 10 bytes"
    assert "13: WWWWWW" in execute(sim, "show")
    assert execute(sim, "unplug") == "ok" and not sim.plugged
    assert execute(sim, "replug") == "ok" and sim.plugged
    assert execute(sim, "lift 22").startswith("error: no man at 22")
    assert execute(sim, "dance").startswith("error: unknown command")
    assert execute(sim, "place").startswith("error:")
    assert "place LOC" in execute(sim, "help")


@pytest.mark.parametrize(
    ("options", "sensing"), [([], "occupancy"), (["--sensing", "polarity"], "polarity")]
)
def test_simulate_table_command_serves_a_pty_and_reads_stdin(
    monkeypatch, capsys, options: list[str], sensing: str
) -> None:
    parser = argparse.ArgumentParser()
    link_cli.register(parser.add_subparsers())
    args = parser.parse_args(["simulate-table", "--point-slots", "5", *options])
    monkeypatch.setattr("sys.stdin", io.StringIO("place 7 black\nshow\nquit\n"))
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("simulated table on /")
    assert f"{sensing} sensing" in out.splitlines()[0]
    assert "7: B" in out and "13: WWWWW" in out  # the men themselves, whatever the reeds read


def test_the_simulated_table_is_the_designed_one_and_reads_men_without_colour() -> None:
    layout = TableLayout()
    assert layout.sensing == "occupancy"
    with SimulatedTable() as sim:
        assert sim.layout == layout
        listener = QueueListener()
        with TableLink(sim.port_name, layout=layout, listener=listener) as link:
            assert link.wait_connected(5)
            assert link.info is not None and link.info.layout.sensing == "occupancy"
            sim.place("6", "white")
            sim.place("6", "white")
            sim.place("19", "black")
            sim.advance(50)
            frame = None
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                frame = listener.frames.get(timeout=5)
                if frame.occupancy()["19"]:
                    break
            assert frame is not None
            assert frame.slots["6"][:3] == (SlotState.OCCUPIED,) * 2 + (SlotState.EMPTY,)
            assert frame.occupancy()["6"] == 2 and frame.occupancy()["19"] == 1
            assert frame.sensed()["6"] == (0, 0)  # no colour is read
            assert "O" in frame.to_payload()
