"""Occupancy-only sensing: the scenario action, and what the counts alone cannot tell."""

from kiosk.rules import Position
from kiosk.table import TableLayout, occupancy, project
from kiosk.table.sensing import colour_in
from tests.referee.hands import kinds, run

HIT = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 19: -5, 12: -5, 1: -4})


def test_the_sensing_action_is_answered():
    events = run(["sensing occupancy", "sensing polarity", "sensing colour"])
    assert kinds(events, "sensing") == [
        {"event": "sensing", "mode": "occupancy"},
        {"event": "sensing", "mode": "polarity"},
    ]
    [error] = kinds(events, "error")
    assert error["line"] == 3 and "occupancy or polarity" in error["message"]


def test_an_occupancy_table_plays_a_hit_in_any_order():
    for order in (["lift 24", "place 20", "lift 20 black", "place bar black"],
                  ["lift 20 black", "wait 400", "place bar black", "lift 24", "place 20"]):
        events = run(["sensing occupancy", f"setup {HIT.position_id()}", "dice 4 1", *order,
                      "lift 6", "place 5", "wait 400", "press done"])
        assert kinds(events, "illegal") == []
        assert [p["move"] for p in kinds(events, "play")] == ["24/20* 6/5"]


def test_a_blot_point_reading_one_man_is_unsure():
    layout = TableLayout()
    reference = project(HIT, layout)
    counts = occupancy(reference)
    counts["24"] -= 1  # white's man from 24 lands on 20 and the black blot is lifted
    board, unsure = colour_in(counts, reference, HIT.turn)
    assert unsure == ["20"] and board["20"] == (0, 1)  # read first as the blot
    board, _ = colour_in(counts, reference, HIT.turn, hit=["20"])
    assert board["20"] == (1, 0)  # or as the man that hit it


def test_two_plays_the_counts_cannot_tell_apart_are_asked_about(sensing):
    position = Position.from_points(
        {20: 1, 6: 13, 22: -1, 21: -1, 17: -1, 16: -1, 1: -11}, bar=(1, 0)
    )
    play = ["lift bar", "place 21", "lift 21 black", "place bar black",
            "lift 20", "place 17", "lift 17 black", "place bar black", "wait 400", "press done"]
    events = run([f"setup {position.position_id()}", "dice 4 3", *play])
    if sensing == "polarity":
        assert [p["move"] for p in kinds(events, "play")] == ["bar/21* 20/17*"]
        return
    [choose] = kinds(events, "choose")
    assert set(choose["options"]) >= {"bar/21* 20/17*", "bar/22* 20/16*"}
    index = choose["options"].index("bar/21* 20/17*") + 1
    events = run([f"setup {position.position_id()}", "dice 4 3", *play, f"choose {index}"])
    assert [p["move"] for p in kinds(events, "play")] == ["bar/21* 20/17*"]


def test_a_runner_for_an_occupancy_table_reads_occupancy_frames():
    from kiosk.rig.scenario import ScenarioRunner
    from kiosk.table.layout import SlotState

    events: list[dict] = []
    with ScenarioRunner(events.append, sensing="occupancy") as runner:
        runner.sim.set_position({"6": ("white", 5), "19": ("black", 5)})
        runner.wait(200)
        frame = runner.listener.last
        assert runner.sim.layout.sensing == "occupancy"
        assert frame is not None
        for where in ("6", "19"):  # no colour on the wire, only men
            assert frame.slots[where].count(SlotState.OCCUPIED) == 5
            assert SlotState.WHITE not in frame.slots[where]
            assert SlotState.BLACK not in frame.slots[where]
