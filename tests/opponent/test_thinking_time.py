"""``kiosk scenario`` gives the same events however long the table thinks (issue 32): each
action waits until what the table is deciding is decided, in the script's own time.

The table's thinking is slowed at construction time, as ``kiosk scenario`` is handed its
opponents: each decision of :class:`SlowOpponent` takes ``delay`` seconds more."""

from __future__ import annotations

import time
from typing import Any

import pytest

from kiosk.rig.scenario import ScenarioRunner
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.opponent import Opponent
from tests.referee.hands import kinds

DELAYS_MS = (0, 500, 3000)

# White (the visitor) plays 2-1 in a race that leaves the table (black) far ahead: at the
# start of its turn the table doubles, and ``take`` follows the Done at once; then the
# table's throw, and its men moved as soon as the dice have rested.
TABLE_DOUBLES = ["turn white", "setup 7v0DAAD27gcAAA", "opponent black intermediate",
                 "dice 2 1", "lift 5", "place 4", "lift 5", "place 3", "wait 400",
                 "press done", "take", "dice 3 1", "lift 4", "place off", "wait 400"]  # fmt: skip
# The visitor doubles; the table answers; the visitor throws.
VISITOR_DOUBLES = ["turn white", "setup 7v0DAAD27gcAAA", "opponent black", "double",
                   "dice 2 1", "wait 400"]  # fmt: skip
# The table doubles, and its man is moved before the double is answered.
MOVED_BEFORE_THE_ANSWER = [*TABLE_DOUBLES[:10], "lift 4", "place 1", "wait 400"]


class SlowOpponent(Opponent):
    """An opponent whose every decision takes ``delay`` seconds longer."""

    def __init__(self, level: str, delay: float) -> None:
        super().__init__(level, evaluator=BuiltinEvaluator(), seed=3)
        self.delay = delay

    def choose(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay)
        return super().choose(*args, **kwargs)

    def cube_action(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay)
        return super().cube_action(*args, **kwargs)

    def answer_double(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay)
        return super().answer_double(*args, **kwargs)


def _events(script: list[str], delay_ms: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def opponents(level: str) -> Opponent:
        return SlowOpponent(level, delay_ms / 1000)

    with ScenarioRunner(events.append, sensing="polarity", opponents=opponents) as runner:
        runner.run(script)
    # the table's connection names the pseudo-terminal it was served on: another each run
    return [e for e in events if e["event"] != "table"]


@pytest.mark.parametrize(
    "script",
    [TABLE_DOUBLES, VISITOR_DOUBLES, MOVED_BEFORE_THE_ANSWER],
    ids=["table", "visitor", "moved"],
)
def test_the_same_events_however_long_the_table_thinks(script: list[str]) -> None:
    streams = {delay: _events(script, delay) for delay in DELAYS_MS}
    assert streams[500] == streams[0]
    assert streams[3000] == streams[0]
    assert kinds(streams[0], "error") == []


def test_the_tables_double_is_answered_and_its_play_moved_at_once() -> None:
    events = _events(TABLE_DOUBLES, 0)
    assert [(c["action"], c["player"]) for c in kinds(events, "cube")] == [
        ("double", "black"),
        ("take", "white"),
    ]
    (shown,) = kinds(events, "opponent-play")
    assert shown["dice"] == [3, 1] and shown["move"] == "4/off"
    assert kinds(events, "play")[-1]["move"] == "4/off"
    assert kinds(events, "illegal") == []


def test_a_man_moved_while_the_tables_double_waits() -> None:
    (illegal,) = kinds(_events(MOVED_BEFORE_THE_ANSWER, 0), "illegal")
    assert illegal["reason"] == "answer-the-double"
    assert illegal["message"].startswith("Black has doubled: white takes or passes")
