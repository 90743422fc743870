"""Cases the noisy-table soak (``benchmarks/bench_noise.py``) found, each a scenario."""

from tests.referee.hands import kinds, run


def test_a_man_moved_wrongly_off_a_point_fuller_than_its_slots():
    # nine men on the 4 point (six slots): lifting one is not seen, only where he lands
    events = run(
        ["turn white", "setup xgZYpkG7/gMAAA", "dice 3 5", "wait 400", "lift 4", "place 2",
         "wait 1000"]
    )  # fmt: skip
    (alarm,) = kinds(events, "illegal")
    assert alarm["reason"] == "wrong-distance" and "from 4 to 2" in alarm["message"]


def test_a_play_whose_counts_also_show_a_partial_play_is_taken_at_done():
    # 6-1 with black blots on 13 and 12: 19/18/12* leaves the counts of 19/13* (one man
    # on 13, one on 12, one on black's bar); at Done the complete reading is the play
    events = run(
        ["turn white", "setup HwdUggrBI4dRCQ", "dice 6 1", "wait 400", "lift 19", "place 18",
         "lift 18", "place 12", "lift 12 black", "place bar black", "wait 400", "press done"]
    )  # fmt: skip
    assert kinds(events, "illegal") == []
    assert [p["move"] for p in kinds(events, "play")] == ["19/12*"]


def test_a_second_man_put_wrongly_on_a_point_just_hit_is_never_taken_for_a_play():
    # 6-5: 22/16* hits white's blot (it goes to the bar); the other man from 22 is then
    # put on 16 too. Counted men read like 22/17* 22/16* with the man hit on 16 not yet
    # lifted, so an occupancy table asks for that man first; at Done it is refused either
    # way, and no play is taken.
    events = run(
        ["turn black", "setup L0bhBwDvwAMwDA", "dice 6 5", "wait 400", "lift 22", "wait 400",
         "place 16", "lift 16 white", "place bar white", "lift 22", "place 16", "wait 1000",
         "press done"]
    )  # fmt: skip
    assert kinds(events, "illegal") and kinds(events, "play") == []
