"""The computer opponent: its levels, its cube, thinking off the main thread, the review."""

import os
import random
import stat
import threading
import time

import pytest

from kiosk.rules import BLACK, WHITE, Cube, Position
from kiosk.tutor.evaluators import EvaluatorError
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module, tan_board
from kiosk.tutor.opponent import (
    AHEAD_ORDER,
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    Opponent,
    OpponentPlay,
    OpponentWorker,
    get_level,
    review,
)

GNUBG = load_module()
needs_nn = pytest.mark.skipif(GNUBG is None, reason="gnubg-nn is not installed")
needs_program = pytest.mark.skipif(find_program() is None, reason="gnubg is not installed")


def random_game_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """Turns with a choice from games of random legal plays (reproducible)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.standard()
        while position.winner() is None and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(*dice)
            if len(plays) > 1:
                found.append((position, dice))
            position = rng.choice(plays).result
    return found


POSITIONS = random_game_positions(1, 40)

# Black on the bar against white's closed board: no play at all.
SHUT_OUT = Position.from_points(
    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3, 13: -14}, bar=(0, 1), turn=BLACK
)


class Remembering:
    """The built-in evaluator, remembering its rankings: the tests ask about the same
    positions at every level and seed, and the answers do not change."""

    name = "builtin"

    def __init__(self) -> None:
        self.inner = BuiltinEvaluator()
        self.ranked: dict = {}

    def equity(self, after):
        return self.inner.equity(after)

    def evaluate_plays(self, position, d1, d2, keep=None, profile=None):
        key = (position, d1, d2, profile)
        if key not in self.ranked:
            self.ranked[key] = self.inner.evaluate_plays(position, d1, d2, keep, profile)
        return list(self.ranked[key])

    def close(self):
        self.inner.close()


@pytest.fixture(scope="module")
def builtin():
    return Remembering()


def evaluators():
    """Every evaluator this machine has, for the cube tests."""
    params = [pytest.param("builtin", id="builtin")]
    params.append(pytest.param("gnubg-nn", id="gnubg-nn", marks=needs_nn))
    params.append(pytest.param("gnubg", id="gnubg", marks=needs_program))
    return params


def make(name: str):
    if name == "gnubg-nn":
        return GnubgNNEvaluator(plies=0)
    if name == "gnubg":
        return GnubgExternalEvaluator(plies=0)
    return BuiltinEvaluator()


# -- levels ----------------------------------------------------------------------------


def test_levels_and_the_friendly_default():
    assert list(LEVELS) == ["beginner", "intermediate", "expert"]
    assert get_level(None).name == DEFAULT_LEVEL == "beginner"
    assert get_level(" Expert ").name == "expert"
    with pytest.raises(ValueError, match="beginner, intermediate, expert"):
        get_level("grandmaster")
    assert LEVELS["beginner"].cap > LEVELS["intermediate"].cap > LEVELS["expert"].cap == 0


@needs_nn
def test_expert_plays_gnubgs_best_at_zero_ply():
    table = Opponent("expert", evaluator=GnubgNNEvaluator(plies=0))
    for position, (d1, d2) in POSITIONS:
        moves = GNUBG.best_move(tan_board(position), d1, d2, n=0)
        text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}" for a, b in moves)
        gnubg_best = position.parse_play(d1, d2, text)
        chosen = table.choose(position, (d1, d2))
        assert chosen.play == gnubg_best, (position.position_id(), d1, d2, text)
        assert chosen.loss == 0 and chosen.evaluator == "gnubg-nn"


def test_expert_is_the_evaluators_best(builtin):
    table = Opponent("expert", evaluator=builtin)
    for position, dice in POSITIONS[:20]:
        best = builtin.evaluate_plays(position, *dice)[0][0]
        assert table.choose(position, dice).play == best


def test_beginner_strays_but_never_beyond_its_cap(builtin):
    table = Opponent("beginner", evaluator=builtin, seed=4)
    cap = LEVELS["beginner"].cap
    losses = []
    for position, dice in POSITIONS:
        chosen = table.choose(position, dice)
        ranked = dict(builtin.evaluate_plays(position, *dice))
        top = max(ranked.values())
        loss = top - ranked[chosen.play]
        assert loss <= cap + 1e-9
        assert chosen.loss == pytest.approx(loss)
        assert chosen.best is not None and ranked[chosen.best] == top
        losses.append(loss)
    assert sum(x > 0 for x in losses) >= 5  # human-like slips...
    assert sum(x == 0 for x in losses) >= 10  # ...but often the best play


def test_levels_rank_by_strength(builtin):
    mean = {}
    for name in LEVELS:
        table = Opponent(name, evaluator=builtin, seed=2)
        mean[name] = sum(table.choose(p, d).loss for p, d in POSITIONS) / len(POSITIONS)
    assert mean["expert"] == 0 < mean["intermediate"] < mean["beginner"]


def test_choice_is_reproducible_from_position_dice_and_seed(builtin):
    first = Opponent("beginner", evaluator=builtin, seed=7)
    again = Opponent("beginner", evaluator=builtin, seed=7)  # after a restart
    other = Opponent("beginner", evaluator=builtin, seed=8)
    cases = POSITIONS
    ours = [first.choose(p, d).play for p, d in cases]
    assert ours == [again.choose(p, d).play for p, d in reversed(cases)][::-1]
    assert ours == [first.choose(p, d[::-1]).play for p, d in cases]  # 3-1 is 1-3
    assert ours != [other.choose(p, d).play for p, d in cases]


def test_forced_and_impossible_plays_need_no_evaluator(builtin):
    chosen = Opponent("expert", evaluator=builtin).choose(SHUT_OUT, (6, 5))
    assert chosen.move == "" and chosen.evaluator == "rules"
    assert chosen.text == "I cannot move with 6-5."
    assert chosen.event()["position"] == SHUT_OUT.swap_turn().position_id()


def test_the_profile_decides_what_is_legal(builtin):
    # One man left, two off the ace point: the modern rules force the larger die.
    position = Position.from_points({9: 1, 24: -1}, turn=WHITE)
    modern = Opponent("expert", evaluator=builtin).choose(position, (6, 4))
    assert all(len(p.steps) for p in position.legal_plays(6, 4))
    assert modern.play in position.legal_plays(6, 4)
    cady = Opponent("expert", evaluator=builtin, profile="cady")
    assert cady.choose(position, (6, 4)).play in position.legal_plays(6, 4, "cady")


def test_bad_dice_are_refused(builtin):
    with pytest.raises(ValueError, match="1 to 6"):
        Opponent(evaluator=builtin).choose(Position.standard(), (7, 1))


# -- the event and a restart mid-turn -------------------------------------------------------


def test_opponent_play_event_and_restore(builtin):
    before = Position.standard(BLACK)
    chosen = Opponent("expert", evaluator=builtin).choose(before, (6, 1))
    event = chosen.event()
    assert event == {
        "event": "opponent-play",
        "player": "black",
        "dice": [6, 1],
        "move": "13/7 8/7",
        "position": chosen.play.result.position_id(),
        "text": "I play 13/7 8/7.",
    }
    restored = OpponentPlay.from_event(before, event)
    assert restored.play == chosen.play and restored.move == "13/7 8/7"
    assert [str(s) for s in restored.play.steps] == [str(s) for s in chosen.play.steps]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"player": "white"}, "white's play"),
        ({"move": "24/23 13/7"}, "leads to"),
        ({"move": "24/10"}, "24/10"),
        ({"event": "play"}, "not an opponent-play event"),
        ({"dice": [7, 1]}, "1 to 6"),
    ],
)
def test_restore_refuses_an_event_that_does_not_fit(builtin, change, message):
    before = Position.standard(BLACK)
    event = Opponent("expert", evaluator=builtin).choose(before, (6, 1)).event()
    with pytest.raises(ValueError, match=message):
        OpponentPlay.from_event(before, {**event, **change})


# -- failing engines and the worker -----------------------------------------------------


def test_a_dead_engine_falls_back_to_the_builtin_evaluator():
    dead = GnubgExternalEvaluator(plies=0, program="/bin/false", start_timeout=5)
    table = Opponent("expert", evaluator=dead)
    chosen = table.choose(Position.standard(), (3, 1))
    assert chosen.evaluator == "builtin" and chosen.move == "8/5 6/5"
    assert table.cube_action(Position.standard()).evaluator == "builtin"
    table.close()
    with pytest.raises(EvaluatorError):
        Opponent("expert", evaluator=dead, fallback=None).evaluator.equity(Position.standard())


def test_worker_answers_off_the_calling_thread(builtin):
    worker = OpponentWorker(Opponent("expert", evaluator=builtin))
    seen = []
    done = threading.Event()

    def callback(play):
        seen.append((play.move, threading.current_thread() is not threading.main_thread()))
        done.set()

    future = worker.submit(Position.standard(WHITE), [4, 2], callback=callback)
    assert future.result(timeout=10).move == "8/4 6/4"
    assert done.wait(10) and seen == [("8/4 6/4", True)]
    worker.close()
    with pytest.raises(RuntimeError, match="closed"):
        worker.submit(Position.standard(), (4, 2))


def test_worker_time_limit_hands_a_stuck_engine_over_to_the_builtin(tmp_path):
    # A "gnubg" that starts but never opens its port: the engine is stuck for 3 s.
    stuck = tmp_path / "gnubg"
    stuck.write_text("#!/bin/sh\nexec sleep 20\n")
    stuck.chmod(stuck.stat().st_mode | stat.S_IXUSR)
    engine = GnubgExternalEvaluator(plies=0, program=str(stuck), start_timeout=3)
    worker = OpponentWorker(Opponent("expert", evaluator=engine), time_limit=0.3)
    start = time.monotonic()
    chosen = worker.submit(Position.standard(), (3, 1)).result(timeout=10)
    assert time.monotonic() - start < 2.5
    assert chosen.evaluator == "builtin" and chosen.move == "8/5 6/5"
    worker.close()


def test_worker_judges_the_cube_off_the_calling_thread(tmp_path):
    leading = race(HUGE_LEAD, off=(0, 1))
    worker = OpponentWorker(Opponent("beginner", evaluator=BuiltinEvaluator()))
    said = []
    offer = worker.submit_cube(leading, Cube(), callback=lambda v: said.append(v.text))
    assert offer.result(timeout=10).action == "double"
    assert worker.submit_cube(leading, doubled=True).result(timeout=10).action == "pass"
    with pytest.raises(ValueError, match="table's"):
        worker.submit_cube(leading, Cube(2, BLACK), doubled=True).result(timeout=10)
    worker.close()
    assert said == ["I double."]
    # A stuck engine: the built-in evaluator answers within the time limit.
    stuck = tmp_path / "gnubg"
    stuck.write_text("#!/bin/sh\nexec sleep 20\n")
    stuck.chmod(stuck.stat().st_mode | stat.S_IXUSR)
    engine = GnubgExternalEvaluator(plies=0, program=str(stuck), start_timeout=3)
    worker = OpponentWorker(Opponent("expert", evaluator=engine), time_limit=0.3)
    verdict = worker.submit_cube(leading, doubled=True).result(timeout=10)
    assert verdict.action == "pass" and verdict.evaluator == "builtin"
    worker.close()


@needs_nn
def test_restart_mid_turn_gives_the_same_pending_play():
    game = random_game_positions(5, 12)
    before_restart = OpponentWorker(Opponent("beginner", seed=99))
    pending = [before_restart.submit(p, d).result(timeout=10) for p, d in game]
    before_restart.close()
    after_restart = OpponentWorker(Opponent("beginner", seed=99))
    for (position, dice), play in zip(game, pending, strict=True):
        again = after_restart.submit(position, dice).result(timeout=10)
        assert again.play == play.play and again.evaluator == "gnubg-nn"
        assert OpponentPlay.from_event(position, play.event()).play == play.play
    after_restart.close()


def test_worker_refuses_a_bad_time_limit(builtin):
    with pytest.raises(ValueError, match="positive"):
        OpponentWorker(Opponent(evaluator=builtin), time_limit=0)


# -- the cube ------------------------------------------------------------------------------

# Races (no gammons), given in the numbering of the side on roll (white here).
HUGE_LEAD = {1: 8, 2: 7, 19: -7, 20: -7}  # the other side has borne one man off
SMALL_LEAD = {1: 3, 2: 3, 3: 1, 4: 1, 5: 1, 19: -2, 20: -1, 21: -1, 23: -1, 24: -2}  # ~57%
SEVENTY = {1: 1, 3: 6, 4: 1, 6: 1, 19: -2, 20: -2, 21: -1, 22: -2, 23: -1, 24: -1}  # ~69%
EIGHTY_SIX = {1: 3, 2: 2, 3: 4, 19: -1, 20: -2, 21: -2, 22: -2, 23: -1, 24: -1}  # ~86%


def race(points, off=None):
    return Position.from_points(points, off=off, turn=WHITE)


@pytest.mark.parametrize("name", evaluators())
def test_huge_race_lead_doubles_and_the_table_passes_one(name):
    table = Opponent("expert", evaluator=make(name))
    leading = race(HUGE_LEAD, off=(0, 1))
    verdict = table.cube_action(leading)
    assert verdict.action == "double" and verdict.text == "I double."
    assert 0.5 < verdict.equity <= 1.0
    # The visitor on roll with the same lead doubles the table out.
    answer = table.answer_double(leading)
    assert answer.action == "pass" and answer.text == "I pass."
    table.close()


@pytest.mark.parametrize("name", evaluators())
def test_small_race_lead_is_no_double(name):
    table = Opponent("expert", evaluator=make(name))
    verdict = table.cube_action(race(SMALL_LEAD))
    assert verdict.action == "no-double" and 0 < verdict.equity < 0.4
    assert table.answer_double(race(SMALL_LEAD)).action == "take"
    table.close()


@pytest.mark.parametrize("name", evaluators())
def test_take_with_thirty_percent(name):
    table = Opponent("expert", evaluator=make(name))
    # The visitor, on roll, wins about 70%: the table keeps about 30% and takes.
    answer = table.answer_double(race(SEVENTY))
    assert answer.action == "take" and answer.text == "I take."
    assert -0.5 <= answer.equity < 0
    table.close()


@pytest.mark.parametrize("name", [p for p in evaluators() if p.id != "builtin"])
def test_pass_with_fourteen_percent(name):
    table = Opponent("expert", evaluator=make(name))
    answer = table.answer_double(race(EIGHTY_SIX))
    assert answer.action == "pass" and answer.equity < -0.5
    assert table.cube_action(race(EIGHTY_SIX)).action == "double"
    table.close()


@needs_nn
def test_cube_reads_gnubgs_chances():
    table = Opponent("expert", evaluator=GnubgNNEvaluator(plies=0))
    for points, win in ((SEVENTY, 0.69), (EIGHTY_SIX, 0.86), (SMALL_LEAD, 0.57)):
        chances = GNUBG.probabilities(tan_board(race(points)), 0)
        assert chances[0] == pytest.approx(win, abs=0.01)
        assert -table.answer_double(race(points)).equity == pytest.approx(2 * win - 1, abs=0.02)


def test_too_good_to_double_plays_on_for_the_gammon(builtin):
    # White nearly home and dry, every black man still far from home: a gammon is likely.
    gammonish = Position.from_points({1: 5, 2: 5, 3: 5, 10: -8, 11: -7}, turn=WHITE)
    verdict = Opponent("expert", evaluator=builtin).cube_action(gammonish)
    assert verdict.equity > 1.0 and verdict.action == "too-good" and verdict.text == ""


def test_no_cube_without_doubling_or_without_the_cube(builtin):
    leading = race(HUGE_LEAD, off=(0, 1))
    for profile in ("cady", "foster", "hoffmann"):
        table = Opponent("expert", evaluator=builtin, profile=profile)
        verdict = table.cube_action(leading)
        assert verdict.action == "no-double" and verdict.equity is None
        assert profile in verdict.reason
        with pytest.raises(ValueError, match="no doubling"):
            table.answer_double(leading)
    table = Opponent("expert", evaluator=builtin, profile="parker")
    assert table.cube_action(leading).action == "double"
    # The visitor (black) owns the cube: white, the table, may not double.
    owned = table.cube_action(leading, Cube(2, BLACK))
    assert owned.action == "no-double" and "visitor" in owned.reason
    with pytest.raises(ValueError, match="table's"):
        table.answer_double(leading, Cube(2, BLACK))
    assert table.answer_double(leading, Cube(2, WHITE)).action == "pass"


# -- the review ---------------------------------------------------------------------------


def visitor_game():
    start = Position.standard()
    return [
        (start, (3, 1), "8/5 6/5"),  # the best play
        (start, (6, 1), "24/18 24/23"),
        (start, (4, 2), "24/20 24/22"),
        (start, (5, 3), "13/8 13/10"),
        (start, (6, 5), "24/13"),  # also the best play
        (start, (2, 1), "13/11 6/5"),
    ]


@pytest.mark.parametrize("name", [evaluators()[0], evaluators()[1]])
def test_review_shows_the_three_worst_plays_with_the_better_one(name):
    evaluator = make(name)
    items = review(visitor_game(), evaluator=evaluator)
    assert len(items) == 3
    losses = [item.loss for item in items]
    assert losses == sorted(losses, reverse=True) and losses[-1] > 0
    moves = {str(item.play) for item in items}
    assert not moves & {"8/5 6/5", "24/13"}
    everything = review(visitor_game(), evaluator=evaluator, count=10)
    assert [i.loss for i in everything[:3]] == losses
    for item in everything:
        ranked = evaluator.evaluate_plays(item.before, *item.dice, keep=item.play)
        assert item.best == ranked[0][0]
        assert item.loss == pytest.approx(ranked[0][1] - dict(ranked)[item.play])
    worst = items[0].as_dict()
    assert set(worst) == {
        "turn",
        "player",
        "position",
        "dice",
        "move",
        "best",
        "equity_loss",
        "evaluator",
        "rating",
        "reasons",
    }
    assert worst["position"] == Position.standard().position_id()
    assert worst["turn"] in range(2, 7) and worst["evaluator"] == name


def test_review_gives_the_coachs_reasons_for_each_costly_play(builtin):
    """One path with the coach: each play reviewed carries the rating and reasons the
    coach gives after Done, an error's first naming what the play does wrong, and the
    review's words say it."""
    from kiosk.play.side import TableSide
    from kiosk.tutor.coach import Coach
    from kiosk.tutor.features import WRONG_CODES

    items = review(visitor_game(), evaluator=builtin)
    coach = Coach(builtin)
    errors = 0
    for item in items:
        rated = coach.rate(item.before, item.dice, item.play)
        assert (item.rating, list(item.reasons)) == (rated.rating, rated.reasons)
        assert item.loss == pytest.approx(rated.equity_loss)
        if item.loss >= 0.03:
            errors += 1
            first = item.reasons[0]
            assert first["code"] in WRONG_CODES  # what it does wrong, read first
            assert first["text"].rstrip(".") in item.words
        assert item.words.startswith(f"{item.dice[0]}-{item.dice[1]}: you played {item.play}, ")
        assert item.words.endswith(f"Better {item.best}.")
    assert errors >= 2
    text = TableSide._review((items, []))
    lines = text.splitlines()
    assert lines[0] == "Review, your costliest plays and cube decisions:"
    assert lines[1:] == [f"- {i.words}" for i in items]
    assert "Leaves blots" in text and "Misses the chance to make your" in text


def test_review_skips_forced_plays_and_reads_turn_records(builtin):
    forced = SHUT_OUT.legal_plays(6, 5)[0]
    start = Position.standard()
    split = start.parse_play(6, 1, "24/18 24/23")
    items = review([(SHUT_OUT, (6, 5), forced), (start, [6, 1], split)], evaluator=builtin)
    assert [(i.turn_number, i.play, str(i.best)) for i in items] == [(2, split, "13/7 8/7")]
    with pytest.raises(ValueError):
        review([(start, (6, 1), "24/10")], evaluator=builtin)


def test_the_worker_may_think_in_a_process_of_its_own():
    """The table's engine in its own process (the loop's threads never wait for it): the
    same play, cube action and review as the same opponent gives here."""
    here = Opponent("intermediate", seed=3)
    worker = OpponentWorker(
        Opponent("intermediate", BuiltinEvaluator(), seed=3), time_limit=60, apart=True
    )
    try:
        before = Position.standard(BLACK)
        assert worker._engine.submit(os.getpid).result(60) != os.getpid()
        assert worker.submit(before, (6, 4)).result(60).play == here.choose(before, (6, 4)).play
        cube = worker.submit_cube(before, Cube()).result(60)
        assert cube.action == here.cube_action(before, Cube()).action
        turns = [(Position.standard(), (3, 1), "13/10 6/5")]
        assert worker.submit_review(turns).result(60) == here.review(turns)
    finally:
        worker.close()
        here.close()


class CountedRanks(BuiltinEvaluator):
    """The built-in evaluator, counting the throws it is asked to rank."""

    def __init__(self, pause: float = 0.0) -> None:
        super().__init__()
        self.pause = pause
        self.ranked = 0

    def evaluate_plays(self, position, d1, d2, keep=None, profile=None):
        self.ranked += 1
        time.sleep(self.pause)
        return super().evaluate_plays(position, d1, d2, keep, profile)


def test_plays_ranked_ahead_are_the_same_choices_asked_of_nobody_when_the_dice_land():
    ahead = Opponent("beginner", CountedRanks(), seed=4)
    fresh = Opponent("beginner", BuiltinEvaluator(), seed=4)
    evaluator = ahead.evaluator
    assert isinstance(evaluator, CountedRanks)
    for position, dice in POSITIONS[:12]:
        for throw in AHEAD_ORDER:
            ahead.prepare(position, throw)
        asked = evaluator.ranked
        assert ahead.choose(position, dice) == fresh.choose(position, dice)
        assert evaluator.ranked == asked  # found ranked: nothing more asked
        reverse = dice[::-1]
        assert ahead.choose(position, reverse) == fresh.choose(position, reverse)
    fresh.close()


def test_a_question_takes_the_rankings_ahead_off_the_queue():
    evaluator = CountedRanks(pause=0.05)
    worker = OpponentWorker(Opponent("expert", evaluator=evaluator), time_limit=30)
    position, dice = POSITIONS[3]
    try:
        worker.submit_ahead(position)
        start = time.monotonic()
        play = worker.submit(position, dice).result(30)
        assert time.monotonic() - start < 0.05 * 4  # not after all 36 throws
        assert play == Opponent("expert", BuiltinEvaluator()).choose(position, dice)
        assert evaluator.ranked < len(AHEAD_ORDER)
    finally:
        worker.close()


def test_the_throws_ahead_are_every_throw_each_order_once():
    assert sorted(AHEAD_ORDER) == [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_a_deeper_opponent_does_not_rank_ahead():
    deep = Level("deep", plies=2, cap=0.0, temperature=0.0)
    evaluator = CountedRanks()
    worker = OpponentWorker(Opponent(deep, evaluator=evaluator), time_limit=30)
    try:
        worker.submit_ahead(POSITIONS[0][0])
        assert worker.submit(*POSITIONS[0]).result(30) and evaluator.ranked == 1
    finally:
        worker.close()
