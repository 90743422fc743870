"""The stepped table fails loudly: a link that does not catch up raises, never judges stale."""

import pytest

from kiosk.play.stepped import SteppedTable, TableTimeout


def test_a_link_that_never_catches_up_raises():
    table = SteppedTable(timeout=0.5)
    try:
        table.wait(80, lambda now: None)  # the link delivers: no error
        table.link.stop()  # now nothing reads the table any more
        table.sim.place("6", "white")
        with pytest.raises(TableTimeout):
            table.wait(40, lambda now: None)
    finally:
        table.sim.close()


def test_every_step_is_called_once_the_table_shows():
    table = SteppedTable()
    seen = []
    try:
        table.sim.place("13", "black")
        table.wait(100, lambda now: seen.append((now, table.listener.last.slots["13"][0].name)))
    finally:
        table.close()
    assert [now for now, _ in seen] == [40, 80, 100]
    assert all(man == "BLACK" for _, man in seen)
