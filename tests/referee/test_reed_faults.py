"""Issue 36 item 3: a chattering reed froze judging; a welded or dead reed blamed the player.
Each fault is now named with its point and slot, the rest of the board judged, and the
player never told a rule was broken for what a reed did. The referee is fed frames as the
link delivers them (``BoardFrame.reading``), one every 40 ms, with a reed made faulty."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kiosk.link import TableLayout
from kiosk.link.frames import BoardFrame
from kiosk.referee import Referee, RefereeConfig
from kiosk.rules import Game, Phase, Position
from kiosk.table import LOCATIONS, SlotState, project
from kiosk.table.sensing import NO_DICE
from tests.referee.hands import kinds

LAYOUT = TableLayout()
START = Position.standard()
DONE = START.parse_play(3, 1, "8/5 6/5").result.swap_turn()
FRAME_MS = 40

Fault = Callable[[str, list[SlotState], int], None]


def _frame(position: Position, now: int, fault: Fault) -> BoardFrame:
    board = project(position, LAYOUT)
    slots = {}
    for where in LOCATIONS:
        men = sum(board[where])
        states = [SlotState.OCCUPIED] * men + [SlotState.EMPTY] * (LAYOUT.slots(where) - men)
        fault(where, states, now)
        slots[where] = tuple(states)
    return BoardFrame(seq=now // FRAME_MS, slots=slots, dice=NO_DICE)


def welded(point: str, slot: int) -> Fault:
    def fault(where: str, states: list[SlotState], now: int) -> None:
        if where == point:
            states[slot] = SlotState.OCCUPIED

    return fault


def dead(point: str, slot: int) -> Fault:
    def fault(where: str, states: list[SlotState], now: int) -> None:
        if where == point:
            states[slot] = SlotState.EMPTY

    return fault


def chattering(point: str, slot: int, every_ms: int = 40) -> Fault:
    def fault(where: str, states: list[SlotState], now: int) -> None:
        if where == point and (now // every_ms) % 2:
            states[slot] = SlotState.OCCUPIED if not states[slot] else SlotState.EMPTY

    return fault


def _play(fault: Fault) -> tuple[list[dict], Game, int]:
    """The table left a while as set up, 3-1 thrown, 8/5 6/5 played, Done pressed; the
    events, the game, and how many boards the referee coloured and judged anew."""
    events: list[dict] = []
    game = Game(position=START, phase=Phase.ROLL)
    referee = Referee(game, LAYOUT, RefereeConfig(), emit=lambda e: events.append(e.to_json()))
    reading = LAYOUT.sensing
    now = 0
    boards = 0

    def run(position: Position, until: int) -> None:
        nonlocal now, boards
        while now < until:
            before = referee.seen
            referee.sense(_frame(position, now, fault).reading(reading), now)
            boards += referee.seen is not before
            referee.tick(now)
            now += FRAME_MS

    run(START, 6000)  # the table as set up, before the throw
    referee.throw(3, 1, now)
    run(START, now + 500)
    run(DONE, now + 3000)
    referee.press_done(None, now)
    run(DONE.swap_turn().swap_turn(), now + 500)
    return events, game, boards


@pytest.mark.parametrize(
    "fault, named",
    [
        (welded("5", 2), "point 5, slot 3 from the edge"),  # stuck closed, a point left empty
        (dead("6", 0), "point 6, slot 1 from the edge"),  # under the five men on the 6 point
        (chattering("3", 0), "point 3, slot 1 from the edge"),  # every 40 ms, slower than 12
        (chattering("8", 1), "point 8, slot 2 from the edge"),  # under a man that is played
    ],
)
def test_a_faulty_reed_is_named_and_the_right_play_accepted(fault: Fault, named: str) -> None:
    events, game, boards = _play(fault)
    assert kinds(events, "illegal") == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]
    said = [n["message"] for n in kinds(events, "notice") if n["about"] == "reed-fault"]
    assert len(said) == 1 and named in said[0] and "kiosk commission" in said[0], said
    assert boards < 20, boards  # not a new board to colour every 40 ms (the 26% of a core)
