"""Clumsy hands never raise an alarm: only what has settled is judged."""

from tests.referee.hands import kinds, run

PLAY_31 = ["lift 6", "place 5", "wait 400", "press done"]


def alarms(events):
    return kinds(events, "illegal")


def notices(events, about):
    return [e for e in kinds(events, "notice") if e["about"] == about]


def test_a_man_slid_across_points():
    events = run(
        ["setup standard", "dice 3 1", "lift 8", "place 7", "lift 7", "place 6 white",
         "lift 6", "place 5", *PLAY_31]
    )
    assert alarms(events) == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_man_bounces_where_it_lands():
    events = run(
        ["setup standard", "dice 3 1", "lift 8", "place 4", "lift 4", "place 5", "lift 5",
         "place 5", *PLAY_31]
    )
    assert alarms(events) == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_two_men_carried_at_once():
    events = run(
        ["setup standard", "dice 3 1", "lift 8", "lift 6", "wait 1500", "place 5", "place 5",
         "wait 400", "press done"]
    )
    assert alarms(events) == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_man_held_a_while_is_no_man_to_push():
    events = run(["setup standard", "dice 3 1", "lift 8", "wait 5500", "place 5", "lift 6",
                  "place 5", "wait 400", "press done"])
    assert notices(events, "off-centre") == []  # thinking with a man in the hand
    events = run(["setup standard", "dice 3 1", "lift 8", "wait 7000", "place 5", "lift 6",
                  "place 5", "wait 400", "press done"])
    [notice] = notices(events, "off-centre")
    assert "push" not in notice["message"].split(":")[0]  # what it is, then what to do
    assert notice["message"].startswith("The man from your 8 point is not read yet: put it down")
    assert alarms(events) == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_hand_resting_on_a_man():
    events = run(["setup standard", "dice 3 1", "lift 13", "wait 2000", "place 13",
                  "lift 8", "place 5", *PLAY_31])
    assert alarms(events) == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_man_off_centre_is_named_in_words():
    events = run(["setup standard", "dice 3 1", "lift 12 black", "wait 6500", "place 12 black",
                  "lift 8", "place 5", *PLAY_31])
    assert alarms(events) == []
    [notice] = notices(events, "off-centre")  # right whether it is held or off its reed
    assert notice["message"] == (
        "A black man is missing from your 12 point: put it back, pushed right into its place."
    )
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_switch_that_fails_mid_game_is_reported_once_and_the_game_goes_on():
    # black's man on white's 12 point reads as gone (a dead reed) and stays so
    events = run(["setup standard", "dice 3 1", "lift 12 black", "wait 16000", "lift 8",
                  "place 5", *PLAY_31])
    assert alarms(events) == []
    [fault] = notices(events, "switch-fault")
    assert "your 12 point" in fault["message"]
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_wrong_placement_after_clumsy_moments_still_gets_its_alarm():
    events = run(["setup standard", "dice 3 1", "lift 13", "place 12", "lift 12", "place 11",
                  "wait 400"])
    assert [e["reason"] for e in alarms(events)] == ["wrong-distance"]
