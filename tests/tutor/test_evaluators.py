"""The three evaluators: board conversions, equities, agreement, the gnubg process's life."""

import os
import signal
import stat
from pathlib import Path

import pytest

from kiosk.rules import WHITE, Position
from kiosk.tutor.evaluators import cubeless_equity, rank_plays
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.evaluators.builtin_features import feature_vector
from kiosk.tutor.evaluators.gnubg_external import (
    GnubgExternalEvaluator,
    fibs_board,
    find_program,
)
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module, tan_board

GNUBG = load_module()
needs_nn = pytest.mark.skipif(GNUBG is None, reason="gnubg-nn is not installed")
needs_program = pytest.mark.skipif(find_program() is None, reason="gnubg is not installed")

# Positions with a clear best play (known from GNU Backgammon) for each roll.
KNOWN = [
    ("4HPwATDgc/ABMA", (3, 1), "8/5 6/5"),
    ("4HPwATDgc/ABMA", (4, 2), "8/4 6/4"),
    ("4HPwATDgc/ABMA", (6, 1), "13/7 8/7"),
    ("4HPwATDgc/ABMA", (5, 3), "8/3 6/3"),
]


def _game(seed_rolls):
    position = Position.standard()
    seen = []
    for d1, d2 in seed_rolls:
        plays = position.legal_plays(d1, d2)
        position = plays[len(plays) // 2].result
        seen.append(position)
    return seen


GAME = _game([(6, 4), (5, 2), (3, 3), (6, 1), (4, 2), (5, 5), (2, 1), (6, 3), (4, 4), (5, 1)])


@needs_nn
def test_tan_board_is_gnubgs_board():
    for position in [Position.standard(), *GAME]:
        assert GNUBG.position_id(tan_board(position)) == position.position_id()


@needs_nn
def test_nn_equities_match_gnubgs_own_move_list():
    evaluator = GnubgNNEvaluator(plies=0)
    start = Position.standard()
    listed = GNUBG.best_move(tan_board(start), 6, 4, n=0, list=1)[1]
    ours = {str(p): e for p, e in evaluator.evaluate_plays(start, 6, 4)}
    assert len(ours) == len(listed)
    top = max(ours.values())
    assert top == pytest.approx(listed[0][3], abs=1e-5)
    assert evaluator.equity(start.parse_play(6, 4, "24/18 18/14").result) == pytest.approx(
        listed[0][3], abs=1e-5
    )


@needs_nn
@pytest.mark.parametrize(("pid", "dice", "best"), KNOWN)
def test_nn_finds_the_known_best_play(pid, dice, best):
    ranked = GnubgNNEvaluator(plies=1).evaluate_plays(Position.from_id(pid), *dice)
    assert str(ranked[0][0]) == best
    assert all(a[1] >= b[1] for a, b in zip(ranked, ranked[1:], strict=False))


@pytest.mark.parametrize(("pid", "dice", "best"), KNOWN[:3])
def test_builtin_finds_the_known_best_play(pid, dice, best):
    ranked = BuiltinEvaluator().evaluate_plays(Position.from_id(pid), *dice)
    assert str(ranked[0][0]) == best
    assert len(ranked) == len(Position.from_id(pid).legal_plays(*dice))


def test_builtin_reads_contact_and_races_and_won_games():
    kind, values = feature_vector(Position.standard().parse_play(3, 1, "8/5 6/5").result)
    assert kind == "contact" and values[0] == 1.0
    race = Position.from_points({6: 5, 5: 5, 4: 5, 20: -5, 21: -5, 22: -5})
    assert feature_vector(race.swap_turn())[0] == "race"
    won = Position.from_points({20: -1}, off=(15, 14), turn=Position.standard().turn.other)
    assert BuiltinEvaluator().equity(won) == 1.0
    # Bearing a man off beats moving inside in a plain race.
    bear = race.legal_plays(6, 5)
    best = BuiltinEvaluator().evaluate_plays(race, 6, 5)[0][0]
    assert best.result.off[race.turn] == max(p.result.off[race.turn] for p in bear)


def test_rank_plays_filters_like_gnubgs_move_filter():
    start = Position.standard()
    plays = start.legal_plays(3, 1)
    quick = {p.result: i / 10 for i, p in enumerate(plays)}  # the last play leads by far
    slot = plays[0]
    ranked = rank_plays(plays, quick.get, lambda r: -quick[r], keep=slot, width=3, window=0.25)
    kept = {p for p, _ in ranked}
    assert len(ranked) == 4 and slot in kept and plays[-1] in kept
    assert ranked[0][0] == slot  # the deep look reverses the order
    assert rank_plays([], quick.get, quick.get) == []


def test_cubeless_equity_counts_gammons():
    assert cubeless_equity((1.0, 1.0, 0.0, 0.0, 0.0)) == 2.0
    assert cubeless_equity((0.0, 0.0, 0.0, 1.0, 1.0)) == -3.0


def test_fibs_board_line_layout():
    line = fibs_board(Position.standard(), (3, 1)).split(":")
    assert line[:6] == ["board", "coach", "gnubg", "0", "0", "0"]
    board = [int(x) for x in line[6:32]]
    assert board[1] == -2 and board[24] == 2 and board[6] == 5 and board[19] == -5
    assert sum(x for x in board if x > 0) == 15 and -sum(x for x in board if x < 0) == 15
    assert line[32:36] == ["1", "3", "1", "3"]


@pytest.fixture(scope="module")
def program():
    evaluator = GnubgExternalEvaluator(plies=0)
    yield evaluator
    evaluator.close()


@needs_program
def test_program_speaks_the_versioned_interface(program):
    assert program.best_move(Position.standard(), 3, 1) == "8/5 6/5"
    assert program.interface >= 2


@needs_program
@pytest.mark.parametrize(("pid", "dice", "best"), KNOWN[:2])
def test_program_finds_the_known_best_play(program, pid, dice, best):
    assert str(program.evaluate_plays(Position.from_id(pid), *dice)[0][0]) == best


@needs_program
@needs_nn
def test_program_and_wheel_agree_on_equities():
    nn = GnubgNNEvaluator(plies=0)
    external = GnubgExternalEvaluator(plies=0)
    try:
        for position in GAME[:4]:
            for play in position.legal_plays(4, 1)[:3]:
                # The two builds carry slightly different contact nets.
                assert external.equity(play.result) == pytest.approx(
                    nn.equity(play.result), abs=0.1
                )
        race = Position.from_points({6: 3, 5: 4, 3: 2, 20: -5, 21: -4, 23: -3})
        assert external.equity(race) == pytest.approx(nn.equity(race), abs=1e-3)
    finally:
        external.close()


@needs_program
def test_program_is_restarted_after_it_dies(program):
    start = Position.standard().parse_play(3, 1, "8/5 6/5").result
    first = program.equity(start)
    pid = program.pid
    os.kill(pid, signal.SIGKILL)
    assert program.equity(start) == pytest.approx(first, abs=1e-6)
    assert program.pid is not None and program.pid != pid


@needs_program
def test_close_stops_the_program():
    evaluator = GnubgExternalEvaluator(plies=0)
    evaluator.equity(Position.standard().swap_turn())
    pid = evaluator.pid
    evaluator.close()
    assert evaluator.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_builtin_never_rates_a_play_lesson_7_accepts_worse_than_doubtful():
    from kiosk.tutor.coach import Coach
    from kiosk.tutor.lessons import load_lesson
    from kiosk.tutor.lessons.model import PlayStep

    coach = Coach(BuiltinEvaluator())
    rated = 0
    for step in load_lesson("openings").steps:
        if isinstance(step, PlayStep):
            for move in step.accept:
                rating = coach.rate(step.start, step.dice, move, teaching=True)
                assert rating.rating in ("fine", "doubtful"), (step.number, move, rating)
                assert not rating.take_back_offered
                rated += 1
    assert rated >= 30
    # The three plays issue 12 found rated "very bad", "bad" and "doubtful".
    start = Position.standard()
    for dice, move in (((2, 1), "13/11 6/5"), ((3, 2), "13/11 13/10"), ((4, 3), "13/10 13/9")):
        assert coach.rate(start, dice, move).rating in ("fine", "doubtful"), move


def test_builtin_chances_are_five_probabilities():
    chances = BuiltinEvaluator().chances(Position.standard().parse_play(3, 1, "8/5 6/5").result)
    assert len(chances) == 5 and all(0.0 <= c <= 1.0 for c in chances)
    assert chances[1] <= chances[0] and chances[2] <= chances[1]


def test_a_short_race_of_men_all_home_is_counted_exactly():
    """The one-sided bear-off count gives GNU Backgammon's own figures (its bear-off
    database) where the nets misjudge most; the built-in evaluator uses it."""
    from kiosk.tutor.evaluators import bearoff

    small = Position.from_points(
        {1: 3, 2: 3, 3: 1, 4: 1, 5: 1, 19: -2, 20: -1, 21: -1, 23: -1, 24: -2}, turn=WHITE
    )
    race = bearoff.homes(small)
    assert race == ((3, 3, 1, 1, 1, 0), (2, 1, 0, 1, 1, 2))
    exact = bearoff.win_chance(*race)
    assert round(exact, 4) == 0.5716
    assert BuiltinEvaluator().chances(small)[0] == pytest.approx(1 - exact)  # for the mover
    module = load_module()
    if module is not None:
        assert module.probabilities(tan_board(small), 0)[0] == pytest.approx(exact, abs=1e-3)
    assert bearoff.homes(Position.standard()) is None  # contact: the nets judge


def test_the_shipped_bear_off_table_is_the_count():
    """Every home of up to ten men: the table in the package holds what the count gives."""
    from kiosk.tutor.evaluators import bearoff

    homes = bearoff.all_homes()
    assert len(homes) == 8008 == len(set(homes))  # C(16, 6): ten men or fewer on six points
    for home in homes:
        counted = bearoff.count_rolls_to_finish(home)
        shipped = bearoff.rolls_to_finish(home)
        assert len(counted) <= bearoff.THROWS and not any(shipped[len(counted) :])
        assert shipped[: len(counted)] == pytest.approx(counted, abs=1e-7), home


def test_builtin_chances_on_roll_look_one_throw_ahead():
    """The side on roll's chances before it throws (what the cube coach reads): the mean,
    over the 36 throws, of the chances after the play the net likes best."""
    builtin = BuiltinEvaluator()
    # White on roll with two men on its ace point: every throw bears both off.
    won = Position.from_points({1: 2, 19: -2, 24: -1}, off=(13, 12))
    assert builtin.chances_on_roll(won) == [1.0, 0.0, 0.0, 0.0, 0.0]
    # One man on the six point against one on his six: 27 throws of 36 bear it off at once
    # (all but 1-1, 2-1, 3-1, 4-1 and 3-2); black then misses just as often, and white wins.
    race = Position.from_points({6: 1, 19: -1}, off=(14, 14))
    assert builtin.chances_on_roll(race)[0] == pytest.approx(27 / 36 + 9 / 36 * 9 / 36)
    start = builtin.chances_on_roll(Position.standard())
    assert len(start) == 5 and 0.5 < start[0] < 0.56  # the side to throw first is ahead
    module = load_module()
    if module is not None:
        gnubg = module.probabilities(tan_board(Position.standard()), 1)
        assert start[0] == pytest.approx(gnubg[0], abs=0.02)


def _listening_sockets(pid: int) -> set[str]:
    """The kinds of socket the process holds open (by /proc: 'unix', 'tcp', 'tcp6'...)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    kinds = set()
    for kind in ("unix", "tcp", "tcp6", "udp", "udp6"):
        table = Path(f"/proc/{pid}/net/{kind}").read_text().splitlines()[1:]
        column = 6 if kind == "unix" else 9  # the inode's column in that table
        if any(line.split()[column] in inodes for line in table if len(line.split()) > column):
            kinds.add(kind)
    return kinds


@needs_program
def test_gnubg_listens_on_a_private_unix_socket_only(program):
    """Issue 27, item 13: the socket bound 127.0.0.1 on a port found by bind-close-reuse,
    unauthenticated: any user of the machine could reach gnubg or take the port first."""
    program.best_move(Position.standard(), 3, 1)
    path = Path(program._socket_path)
    assert not path.exists()  # gnubg removes the socket's name once the kiosk is connected
    folder = path.parent.stat()
    assert stat.S_IMODE(folder.st_mode) == 0o700 and folder.st_uid == os.geteuid()
    assert _listening_sockets(program.pid) == {"unix"}  # no TCP or UDP port at all
    program.close()
    assert not path.parent.exists()  # the folder goes with the process
