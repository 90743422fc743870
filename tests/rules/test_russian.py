"""Russian backgammon: the books' own statements as cases, and properties of the engine."""

import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.rules import BLACK, WHITE, RussianPosition, RussianTurn, get_russian_profile
from kiosk.rules.board import InvalidPositionError
from kiosk.rules.russian import (
    RUSSIAN_BAR,
    RUSSIAN_OFF,
    InvalidRussianNotationError,
    _arrays,
    step_moves,
)

CADY = get_russian_profile("russian-cady")
FOSTER = get_russian_profile("russian-foster")
START = RussianPosition.start()


def side(points=None, hand=0, bar=0, off=None):
    """Counts for one side; ``off`` defaults to the men left over from fifteen."""
    counts = [0] * 24
    for p, n in (points or {}).items():
        counts[p - 1] = n
    if off is None:
        off = 15 - sum(counts) - hand - bar
    return tuple(counts), hand, bar, off


def position(white, black, turn=WHITE, thrown=(True, True), doubled=(True, True)):
    return RussianPosition(
        (white[0], black[0]),
        (white[1], black[1]),
        (white[2], black[2]),
        (white[3], black[3]),
        turn,
        thrown,
        doubled,
    )


def play_part(turn, text=None):
    plays = turn.legal_plays()
    play = plays[0] if text is None else next(p for p in plays if str(p) == text)
    turn.play(play)
    return play


# -- the books' statements -------------------------------------------------------------


@pytest.mark.parametrize("profile", [CADY, FOSTER])
def test_six_six_is_four_sixes_four_aces_and_another_throw(profile):
    # Cady [000:859]: "sixes ... must first play four sixes and then four aces, and in
    # addition he has another throw"; Foster [004:119] the same with four fours.
    here = START.with_history(WHITE, thrown=True, doubled=True)
    turn = RussianTurn(here, 6, 6, profile)
    assert [(p.dice, p.bonus) for p in turn.parts] == [((6,) * 4, False), ((1,) * 4, True)]
    first = play_part(turn)
    assert all(s.die == 6 for s in first.steps) and len(first.steps) == 4
    second = play_part(turn)
    assert all(s.die == 1 for s in second.steps) and len(second.steps) == 4
    assert turn.over and turn.throws_again
    assert turn.next_position().turn == WHITE
    assert turn.describe() == "four 6s, then four 1s (bonus), then throw again"


def test_foster_four_fours_are_followed_by_four_threes():
    turn = RussianTurn(START.with_history(WHITE, thrown=True), 4, 4, FOSTER)
    assert [p.dice for p in turn.parts] == [(4,) * 4, (3,) * 4] and turn.throws_again


def test_the_upper_faces_come_first():
    turn = RussianTurn(START.with_history(WHITE, thrown=True, doubled=True), 5, 5, CADY)
    assert {s.die for p in turn.legal_plays() for s in p.steps} == {5}


@pytest.mark.parametrize("profile", [CADY, FOSTER])
def test_uppers_not_all_played_lose_the_opposites_and_the_throw(profile):
    # Foster [004:119]: "if all four cannot be played the opposites and the second throw
    # are lost"; Cady [000:863]: no opposites before the thrown set is finished.
    white = side({1: 1})  # one man, 14 borne off
    black = side({19: 2}, hand=13)  # the man can go 1-7-13, then 19 is closed
    turn = RussianTurn(position(white, black), 6, 6, profile)
    played = play_part(turn)
    assert len(played.steps) == 2
    assert turn.over and not turn.throws_again
    assert [p.dice for p in turn.lost] == [(1,) * 4]
    assert turn.next_position().turn == BLACK


@pytest.mark.parametrize("profile", [CADY, FOSTER])
def test_opposites_not_all_played_lose_only_the_throw(profile):
    # Foster [004:119]: "If the upper faces can be played, but not all the opposites, the
    # second throw is lost"; Cady [000:863]: no new throw before both sets are played.
    white = side({1: 2})
    black = side({14: 2}, hand=13)
    turn = RussianTurn(position(white, black), 6, 6, profile)
    play_part(turn, "1/13(2)")  # both men to 13, under the closed 14
    assert turn.part is not None and turn.part.bonus
    played = play_part(turn)
    assert played.steps == () and turn.over and not turn.throws_again


def test_first_doublet_exception_cady_each_players_first_doublet():
    # Cady [000:861]: no bonus "when he throws his first set of doublets in the game",
    # whenever it comes
    later = START.with_history(WHITE, thrown=True)  # has thrown, never a doublet
    first = RussianTurn(later, 3, 3, CADY)
    assert [p.dice for p in first.parts] == [(3,) * 4] and not first.throws_again
    play_part(first)
    assert first.next_position().doubled[WHITE]  # used up: the next doublet earns it
    second = RussianTurn(first.next_position().with_turn(WHITE), 3, 3, CADY)
    assert len(second.parts) == 2 and second.throws_again


def test_first_doublet_exception_foster_only_on_the_first_throw():
    # Foster [004:121]: only "the first throw of the game made by either player"
    on_first_throw = RussianTurn(START, 3, 3, FOSTER)
    assert len(on_first_throw.parts) == 1 and not on_first_throw.throws_again
    later = START.with_history(WHITE, thrown=True)  # a first doublet, not a first throw
    assert RussianTurn(later, 3, 3, FOSTER).throws_again
    assert not RussianTurn(later, 3, 3, CADY).throws_again


def test_cady_first_throw_doublet_is_also_his_first_doublet():
    assert not RussianTurn(START, 5, 5, CADY).throws_again


def test_foster_first_throw_enters_two_men():
    # Foster [004:117]: "After having entered two men on the first throw"
    turn = RussianTurn(START, 3, 1, FOSTER)
    assert [str(p) for p in turn.legal_plays()] == ["hand/1 hand/3"]
    later = RussianTurn(START.with_history(WHITE, thrown=True), 3, 1, FOSTER)
    assert "hand/4" in [str(p) for p in later.legal_plays()]
    # Cady has no such rule
    assert "hand/4" in [str(p) for p in RussianTurn(START, 3, 1, CADY).legal_plays()]


def test_foster_first_throw_enters_one_when_two_cannot():
    black = side({3: 2}, hand=13)
    here = position(side(hand=15), black, thrown=(False, True))
    plays = RussianTurn(here, 3, 1, FOSTER).legal_plays()
    assert [str(p) for p in plays] == ["hand/4"]  # in on the 1, on with the 3


def test_deuce_ace_cady_chooses_a_doublet_and_throws_again():
    # Cady [000:865]: "choose any doublets he likes on opposite faces ... and throw again"
    here = START.with_history(WHITE, thrown=True)
    turn = RussianTurn(here, 2, 1, CADY)
    play_part(turn)  # the 2-1 itself (the acey-deucey reading: see the profile)
    assert turn.needs_choice and turn.part is None and not turn.over
    turn.choose_doublet(5)
    assert [(p.dice, p.bonus) for p in turn.parts[1:]] == [((5,) * 4, True), ((2,) * 4, True)]
    play_part(turn)
    play_part(turn)
    assert turn.over and turn.throws_again
    # 2-1 is no doublet: Cady's first-doublet exception still stands afterwards
    assert not turn.next_position().doubled[WHITE]
    assert not RussianTurn(turn.next_position(), 4, 4, CADY).throws_again


def test_deuce_ace_is_allowed_before_the_first_doublet_and_not_in_foster():
    assert RussianTurn(START, 1, 2, CADY).throws_again
    foster = RussianTurn(START, 2, 1, FOSTER)
    assert [p.dice for p in foster.parts] == [(2, 1)] and not foster.throws_again
    assert not RussianTurn(START, 2, 1, CADY.replace(deuce_ace=False)).throws_again
    with pytest.raises(ValueError, match="only a deuce-ace"):
        foster.choose_doublet(6)


def test_deuce_ace_without_playing_the_throw():
    turn = RussianTurn(START, 2, 1, CADY.replace(deuce_ace_plays_throw=False))
    assert turn.needs_choice
    turn.choose_doublet(6)
    assert [p.dice for p in turn.parts] == [(6,) * 4, (1,) * 4]


def test_bonus_is_compulsory_unless_the_switch_says_otherwise():
    here = START.with_history(WHITE, thrown=True, doubled=True)
    turn = RussianTurn(here, 6, 6, CADY)
    play_part(turn)
    with pytest.raises(ValueError, match="must be played"):
        turn.decline()
    free = RussianTurn(here, 6, 6, CADY.replace(bonus_mandatory=False))
    play_part(free)
    free.decline()
    assert free.over and not free.throws_again


# -- Cady's optional custom: the opponent completes the throw [000:867-875] -------------

COMPLETES = CADY.replace(opponent_completes=True)


def test_the_opponent_completes_and_the_caster_comes_back_to_hit():
    white = side({1: 1})  # 14 borne off; six-six takes the man to 13, then 19 is closed
    black = side({19: 2})  # 13 borne off: a six bears a man off 19 and leaves a blot
    turn = RussianTurn(position(white, black), 6, 6, COMPLETES)
    play_part(turn, "1/13")
    assert turn.remainder == [6, 6] and turn.player == BLACK and turn.part is None
    assert [str(p) for p in turn.legal_plays()] == ["19/off"]
    play_part(turn)  # black plays one six with his own man, leaving a blot on 19
    assert turn.resuming and turn.player == WHITE
    play_part(turn, "13/19*")  # the caster comes in, taking up the blot
    assert not turn.remainder and turn.part == turn.parts[1]  # on to the four aces
    play_part(turn)
    assert turn.over and turn.throws_again


def test_when_the_opponent_completes_the_caster_does_not_throw_again():
    white = side({1: 1})
    black = side({19: 2, 5: 1}, hand=12)
    turn = RussianTurn(position(white, black), 6, 6, COMPLETES)
    play_part(turn, "1/13")
    play_part(turn)
    play_part(turn)
    assert turn.over and not turn.throws_again and not turn.remainder
    assert [p.dice for p in turn.lost] == [(1,) * 4]
    assert sum(turn.position.points[BLACK]) + turn.position.hand[BLACK] == 15


def test_without_the_custom_the_remainder_is_simply_lost():
    white = side({1: 1})
    black = side({19: 2})
    turn = RussianTurn(position(white, black), 6, 6, CADY)
    play_part(turn, "1/13")
    assert turn.over and not turn.remainder and not turn.throws_again


# -- entering, hitting, bearing off, scoring -------------------------------------------


def test_hitting_before_all_are_entered_and_the_hit_man_enters_first():
    # Cady [000:853-857]; Foster [004:117]
    white = side(hand=15)
    black = side({3: 1}, hand=14)
    here = position(white, black)
    hit = next(p for p in here.legal_plays((3, 1)) if str(p) == "hand/1 hand/3*")
    assert hit.result.bar[BLACK] == 1
    black_turn = hit.result.with_turn(BLACK)
    for play in black_turn.legal_plays((5, 2)):
        assert play.steps[0].src == RUSSIAN_BAR
    assert "bar/5 hand/2" in [str(p) for p in black_turn.legal_plays((5, 2))]


def test_no_entering_on_a_point_held_by_two():
    here = position(side(hand=15), side({6: 2}, hand=13))
    assert all(s.dst != 6 for p in here.legal_plays((6, 5)) for s in p.steps)


def test_bearing_off_as_in_the_ordinary_game():
    here = position(side({20: 1, 23: 1}), side({1: 2}, hand=13))
    texts = {str(p) for p in here.legal_plays((6, 2))}
    assert "20/off 23/off" in texts  # 6 bears off the rearmost (20), 2 the man on 23
    with_hand = position(side({23: 1}, hand=1), side({1: 2}, hand=13))
    assert all(s.dst != RUSSIAN_OFF for p in with_hand.legal_plays((2, 1)) for s in p.steps)


@pytest.mark.parametrize(
    "black, worth",
    [(side({20: 2}, off=13), 1), (side({20: 15}, off=0), 2), (side({20: 14}, hand=1), 3)],
)
def test_gammons_as_in_the_ordinary_game(black, worth):
    done = position(side(off=15), black)
    assert done.winner() == WHITE and done.score() == worth


# -- notation --------------------------------------------------------------------------


def test_notation_tells_hand_from_off():
    in_hand = position(side({24: 1}, hand=14), side(hand=15))
    borne_off = position(side({24: 1}, off=14), side(hand=15))
    assert in_hand.notation() == "R:w:h14,24x1,t,d:h15,t,d"
    assert borne_off.notation() == "R:w:24x1,o14,t,d:h15,t,d"
    for p in (in_hand, borne_off, START):
        assert RussianPosition.from_notation(p.notation()) == p


@pytest.mark.parametrize(
    "text, words",
    [
        ("R:w:h15", "R:<w|b>"),
        ("R:x:h15:h15", "R:<w|b>"),
        ("R:w:h14:h15", "14 men"),
        ("R:w:h15:h15,h1", "given twice"),
        ("R:w:h14,25x1:h15", "no point 25"),
        ("R:w:h14,3x1:h14,3x1", "both have men on point 3"),
        ("R:w:h15:q15", "is not h<n>"),
        ("4HPwATDgc/ABMA", "not a Russian position"),
    ],
)
def test_bad_notation_is_a_clear_error(text, words):
    with pytest.raises(InvalidRussianNotationError, match=words):
        RussianPosition.from_notation(text)


def test_notation_fuzz():
    rng = random.Random(15)
    alphabet = "R:wbhdotx,0123456789"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        try:
            p = RussianPosition.from_notation(text)
        except InvalidPositionError:
            continue
        assert RussianPosition.from_notation(p.notation()) == p


# -- properties over random games (hypothesis) ------------------------------------------


def random_turn(turn: RussianTurn, rng: random.Random) -> None:
    while not turn.over:
        if turn.needs_choice:
            turn.choose_doublet(rng.randint(1, 6))
            continue
        plays = turn.legal_plays()
        turn.play(plays[rng.randrange(len(plays))])


def reachable_position(profile, seed: int, throws: int) -> RussianPosition:
    rng = random.Random(seed)
    here = START
    for _ in range(throws):
        if here.winner() is not None:
            break
        turn = RussianTurn(here, rng.randint(1, 6), rng.randint(1, 6), profile)
        random_turn(turn, rng)
        here = turn.next_position()
    return here


games = st.builds(
    reachable_position,
    st.sampled_from([CADY, FOSTER]),
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=50),
)
dice = st.integers(min_value=1, max_value=6)
engine = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@engine
@given(games, dice, dice)
def test_plays_are_maximal_and_distinct(here, d1, d2):
    plays = here.legal_plays((d1, d2))
    assert len({len(p.steps) for p in plays}) == 1
    assert len({p.result for p in plays}) == len(plays)
    all_dice = [d1] * 4 if d1 == d2 else [d1, d2]
    for play in plays:
        left = list(all_dice)
        for step in play.steps:
            left.remove(step.die)
        me, op = _arrays(play.result)
        for die in set(left):
            assert not step_moves(me, op, die)


# Random games of each book's profile, take-backs included, are tests/rules/test_variants.py's
# (the one property test of every variant); Cady's optional custom of the opponent completing
# a throw is a switch, not a profile of its own: its games are played here.
def test_whole_random_games_with_the_opponent_completing_end_with_a_winner():
    profile = COMPLETES
    for seed in range(2):
        rng = random.Random(seed)
        here = START
        for _ in range(2000):
            if here.winner() is not None:
                break
            turn = RussianTurn(here, rng.randint(1, 6), rng.randint(1, 6), profile)
            random_turn(turn, rng)
            here = turn.next_position()
        assert here.winner() is not None and here.score() in (1, 2, 3)


# -- kiosk plays --variant -------------------------------------------------------------


def run(args, stdin=""):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYGAME", "SDL"))}
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "plays", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_kiosk_plays_russian():
    done = run(["--variant", "russian-cady", "R:w:h15,t,d:h15", "6", "6"])
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == "hand/6(4)"
    assert done.stderr.strip() == "this throw: four 6s, then four 1s (bonus), then throw again"
    done = run(["--variant", "russian-foster", "--batch"], "R:w:h15:h15 3 1\nnonsense 3 1\n")
    first, second = map(json.loads, done.stdout.splitlines())
    assert [p["move"] for p in first["plays"]] == ["hand/1 hand/3"]
    assert first["plays"][0]["result"] == "R:b:h13,1x1,3x1,t:h15"
    assert "not a Russian position" in second["error"]
