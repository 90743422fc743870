"""The stepped table fails loudly: a link that does not catch up raises, never judges stale."""

import pytest

from kiosk.link import SlotState, TableLayout
from kiosk.rig.stepped import SteppedTable, TableTimeout


def test_a_link_that_never_catches_up_raises(sensing):
    table = SteppedTable(TableLayout(sensing=sensing), timeout=0.5)
    try:
        table.wait(80, lambda now: None)  # the link delivers: no error
        table.link.stop()  # now nothing reads the table any more
        table.sim.place("6", "white")
        with pytest.raises(TableTimeout):
            table.wait(40, lambda now: None)
    finally:
        table.sim.close()


def test_the_stepped_table_is_the_designed_one():
    table = SteppedTable()
    try:
        assert table.layout == TableLayout() and table.layout.sensing == "occupancy"
        assert table.sim.layout.sensing == "occupancy"
        assert table.link.info is not None and table.link.info.layout.sensing == "occupancy"
    finally:
        table.close()


def test_every_step_is_called_once_the_table_shows(sensing):
    """``sensing`` (tests/referee/conftest.py) runs this on both tables: the man reads as
    his colour where the reeds tell it, else as a man of either colour."""
    table = SteppedTable(TableLayout(sensing=sensing))
    man = SlotState.BLACK if sensing == "polarity" else SlotState.OCCUPIED
    seen = []
    try:
        table.sim.place("13", "black")
        table.wait(100, lambda now: seen.append((now, table.listener.last.slots["13"][:2])))
    finally:
        table.close()
    assert [now for now, _ in seen] == [40, 80, 100]
    assert all(slots == (man, SlotState.EMPTY) for _, slots in seen)
