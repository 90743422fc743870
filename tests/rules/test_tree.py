"""Partial plays, for the referee: prefixes in any order, completion, destinations."""

from kiosk.rules import BAR, OFF, PlayTree, Position, Step, get_profile


def test_every_prefix_of_every_legal_play_is_partial():
    start = Position.standard()
    for d1, d2 in [(3, 1), (6, 5), (2, 2), (6, 6), (5, 5)]:
        tree = PlayTree(start, d1, d2)
        for play in tree.plays:
            here = start
            for step in play.steps:
                assert tree.is_partial(here) and not tree.is_complete(here)
                here = tree.after(here, step)
            assert tree.is_complete(here)
            assert tree.play_for(here) == play


def test_men_may_be_moved_in_any_order():
    # 6-6 from the start: the 13s may go before the 24s, and either man of a pair first
    start = Position.standard()
    tree = PlayTree(start, 6, 6)
    here = start
    for step in [Step(13, 7, 6), Step(13, 7, 6), Step(24, 18, 6), Step(24, 18, 6)]:
        here = tree.after(here, step)
        assert tree.is_partial(here)
    assert str(tree.play_for(here)) == "24/18(2) 13/7(2)"


def test_lower_die_first_is_a_legal_order():
    start = Position.standard()
    tree = PlayTree(start, 3, 1)
    after_one = tree.after(start, Step(6, 5, 1))
    assert tree.is_partial(after_one) and not tree.is_complete(after_one)
    done = tree.after(after_one, Step(8, 5, 3))
    assert tree.is_complete(done)
    assert str(tree.play_for(done)) == "8/5 6/5"


def test_a_step_that_spoils_the_play_is_not_partial():
    # one man on 10, black holds 1: 6-3 must be 10/4 (the larger); 10/7 alone is not a prefix
    p = Position.from_points({10: 1, 1: -2})
    tree = PlayTree(p, 6, 3)
    assert not tree.is_partial(tree.after(p, Step(10, 7, 3)))
    assert tree.is_complete(tree.after(p, Step(10, 4, 6)))
    # under Cady's rule the player may choose
    cady = PlayTree(p, 6, 3, get_profile("cady").larger_die)
    assert cady.is_complete(cady.after(p, Step(10, 7, 3)))


def test_destinations_of_a_lifted_man():
    start = Position.standard()
    tree = PlayTree(start, 6, 5)
    assert tree.destinations(start, 24) == [18, 13]  # 19 is held; 13 through 18
    assert tree.destinations(start, 6) == []  # 6/1 and 6/0 impossible
    assert tree.movable(start) == [24, 13, 8]
    p = Position.from_points({13: 2, 19: -2}, bar=(1, 0))
    entering = PlayTree(p, 6, 4)
    assert entering.movable(p) == [BAR]
    assert entering.destinations(p, BAR) == [21, 15]


def test_bearing_off_destination():
    p = Position.from_points({5: 1, 3: 1})
    tree = PlayTree(p, 6, 5)
    assert OFF in tree.destinations(p, 5)


def test_partials_lists_start_and_finals():
    start = Position.standard()
    tree = PlayTree(start, 3, 1)
    nodes = dict(tree.partials())
    assert nodes[start].dice_left == frozenset({(3, 1)})
    assert sum(1 for n in nodes.values() if n.complete) == len(tree.plays)
    assert tree.next_steps(start.swap_turn()) == []
