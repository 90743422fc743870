"""Properties of the ordinary game's move generator over random reachable positions and rolls
(hypothesis); those every variant shares (men kept, one play per result, take-backs) are
``test_variants.py``'s."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.rules import OFF, Position, format_play, parse_moves
from kiosk.rules.moves import apply_step, step_moves, to_arrays

dice = st.integers(min_value=1, max_value=6)


@st.composite
def reachable(draw) -> Position:
    """A position reached from the start by random legal plays (up to a whole game)."""
    position = Position.standard()
    for _ in range(draw(st.integers(min_value=0, max_value=120))):
        d1, d2 = draw(dice), draw(dice)
        plays = position.legal_plays(d1, d2)
        position = plays[draw(st.integers(min_value=0, max_value=len(plays) - 1))].result
        if position.winner() is not None:
            break
    return position


settings.register_profile(
    "engine", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("engine")


@given(reachable(), dice, dice)
def test_no_play_uses_fewer_dice_than_another(position, d1, d2):
    plays = position.legal_plays(d1, d2)
    assert len({len(p.steps) for p in plays}) == 1
    # every play is maximal: no unused die can move any man from where it ends
    all_dice = [d1] * 4 if d1 == d2 else [d1, d2]
    for play in plays:
        left = list(all_dice)
        for step in play.steps:
            left.remove(step.die)
        me, op = to_arrays(play.result.swap_turn())
        for die in set(left):
            assert not list(step_moves(me, op, die))


@given(reachable(), dice, dice)
def test_notation_roundtrips(position, d1, d2):
    for play in position.legal_plays(d1, d2):
        text = str(play)
        assert position.parse_play(d1, d2, text) == play
        assert format_play(play.steps) == text
        # the parsed paths move exactly the men the steps move
        assert sum(len(path) - 1 for path in parse_moves(text)) <= len(play.steps)


@given(reachable())
def test_position_id_roundtrips(position):
    assert Position.from_id(position.position_id(), turn=position.turn) == position


@given(reachable(), dice, dice)
def test_steps_replay_to_the_result(position, d1, d2):
    for play in position.legal_plays(d1, d2):
        tree_position = position
        for step in play.steps:
            assert tree_position.count(position.turn, step.src) > 0
            assert step.dst == OFF or step.src - step.dst == step.die
            tree_position = apply_step(tree_position, step)
        assert tree_position.swap_turn() == play.result


@given(reachable(), dice, dice, st.booleans())
def test_hit_points_are_the_hits_of_the_legal_plays(position, d1, d2, larger_die):
    from kiosk.rules import hit_points
    from kiosk.rules.moves import generate

    plays = generate(position, d1, d2, larger_die)
    assert hit_points(position, d1, d2, larger_die) == {
        s.dst for p in plays for s in p.steps if s.hit
    }
