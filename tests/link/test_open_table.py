"""Finding the table, and falling back to a real-time simulated table."""

from __future__ import annotations

import time

import pytest

from kiosk.link import LinkStatus, QueueListener, SlotState, TableLayout, connect, open_table
from kiosk.simtable import SimulatedTable, realtime_table

WAIT = 5.0


@pytest.fixture
def no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(connect.PORT_ENV, raising=False)
    monkeypatch.setattr(connect, "DEFAULT_DEVICE", "/nonexistent/backgammon-table")
    monkeypatch.setattr(connect.list_ports, "comports", lambda: [])


def test_the_environment_names_the_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(connect.PORT_ENV, "/dev/ttyACM7")
    assert connect.find_table_port() == "/dev/ttyACM7"


def test_without_a_table_nothing_is_found_or_simulated_on_request(no_table: None) -> None:
    assert connect.find_table_port() is None
    with pytest.raises(LookupError):
        open_table()


@pytest.mark.parametrize(
    ("layout", "senses", "man"),
    [
        (None, "occupancy", SlotState.OCCUPIED),
        (TableLayout(sensing="polarity"), "polarity", SlotState.WHITE),
    ],
    ids=["the design", "polarity on request"],
)
def test_without_a_table_a_real_time_simulation_serves(
    no_table: None, layout: TableLayout | None, senses: str, man: SlotState
) -> None:
    """The simulated table senses as the designed one (one reed a slot: a man of either
    colour), or as the layout the kiosk asks for."""
    listener = QueueListener()
    link, sim = open_table(layout=layout, listener=listener, simulator=realtime_table)
    assert sim is not None
    try:
        assert link.wait_connected(WAIT)
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.CONNECTED and event.info is not None
        assert event.info.layout.sensing == senses
        listener.frames.get(timeout=WAIT)  # the dump
        assert isinstance(sim, SimulatedTable)
        sim.place("22", "white")
        while (frame := listener.frames.get(timeout=WAIT)).counts()["22"][1] == 0:
            pass
        assert frame.counts()["22"] == (man, 1)
        deadline = time.monotonic() + WAIT
        while not link.counters().table and time.monotonic() < deadline:
            time.sleep(0.05)
        assert link.counters().table["scans"] > 0  # heartbeats arrive
    finally:
        link.stop()
        sim.close()
