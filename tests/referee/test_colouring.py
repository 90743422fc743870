"""Colouring an occupancy board: the referee's bounded search takes the same reading as
trying every set of blots read as hit (the way it was done before, kept here as the
reference), and finds the same partial plays, however many blots stand."""

from __future__ import annotations

import random
from itertools import combinations

from kiosk.referee import Referee
from kiosk.referee.index import side_part
from kiosk.rules import Game, Position, get_profile
from kiosk.rules.moves import apply_step
from kiosk.table import TableLayout, TableReading, project
from kiosk.table.sensing import Occupancy, Sensed, colour_in, occupancy


def _exhaustive(referee: Referee, counts: Occupancy) -> tuple[Sensed, list[Sensed]]:
    """The reading taken and the readings worth judging, by trying every subset of the
    unsure blots against every partial play in the running."""
    mover = referee.game.turn
    layout = referee.layout
    reference = project(referee._reference(), layout)
    board, _ = colour_in(counts, reference, mover)
    plays = referee._plays
    assert plays is not None
    options = [board]
    for position in dict.fromkeys(c for c, _ in referee._candidates):
        other = project(position, layout)
        start, unsure = colour_in(counts, other, mover)
        found = [start] + [
            colour_in(counts, other, mover, hit)[0]
            for n in range(1, len(unsure) + 1)
            for hit in combinations(unsure, n)
        ]
        options += [o for o in found if o not in options]
    tests = (
        plays.shows_partial,
        plays.in_motion,
        lambda o: side_part(o, mover) in plays.mine,
        lambda o: all(
            sum(p[i] for p in o.values()) == sum(p[i] for p in reference.values())
            for i in (0, 1)
        ),
    )
    for fits in tests:
        for option in options:
            if fits(option):
                return option, options
    return board, options


def _blotted(rng: random.Random) -> Position:
    """White to play; black with six to nine blots, white's men in stacks and a blot."""
    points = rng.sample(range(1, 25), 24)
    blots = rng.randint(6, 9)
    layout = {p: -1 for p in points[:blots]}
    layout[points[blots]] = -(15 - blots)
    white = points[blots + 1 : blots + 6]
    for point, men in zip(white, (4, 4, 3, 3, 1), strict=True):
        layout[point] = men
    return Position.from_points(layout)


def _boards(rng: random.Random, referee: Referee) -> list[Sensed]:
    """Boards a hand may leave: partial plays (hit men on the bar, in the hand or left on
    their point), men lifted, men put on the wrong point."""
    plays = referee._plays
    assert plays is not None
    tree = plays.tree
    layout = referee.layout
    boards = []
    position = tree.start
    for _ in range(3):
        steps = tree.next_steps(position)
        if not steps:
            break
        step, after = rng.choice(steps)
        board = project(after, layout)
        boards.append(board)
        for where in rng.sample(sorted(board), 4):  # a man more or fewer somewhere
            w, b = board[where]
            if w + b:
                boards.append({**board, where: (w - 1, b) if w else (w, b - 1)})
            boards.append({**board, where: (w + 1, b) if w or not b else (w, b + 1)})
        if step.hit:  # the hit man in the hand
            bar = "bar-black"
            w, b = board[bar]
            boards.append({**board, bar: (w, b - 1)})
        position = after
    wrong = apply_step(tree.start, tree.next_steps(tree.start)[0][0])
    boards.append(project(wrong, layout))
    return boards


def test_the_bounded_colouring_takes_the_reading_every_subset_would() -> None:
    rng = random.Random(34)
    layout = TableLayout()
    checked = 0
    for _ in range(12):
        position = _blotted(rng)
        game = Game(get_profile("modern"), position)
        game.start_with(position.turn)
        game.record_throw(game.turn, (rng.randint(1, 6), rng.randint(1, 6)))
        referee = Referee(game, layout)
        referee._build_tree()
        now = 0
        for board in _boards(rng, referee):
            counts = occupancy(board)
            want, options = _exhaustive(referee, counts)
            assert referee.peek(TableReading(counts)) == want
            readings = referee.readings(counts)
            plays = referee._plays
            assert plays is not None
            assert {
                p for r in readings for p in plays.partials(r)
            } == {p for o in options for p in plays.partials(o)}
            checked += 1
            now += 1000
            referee.sense(TableReading(counts), now)  # candidates move on with the play
            referee.tick(now + 400)
    assert checked > 150


def test_a_reading_is_coloured_once_for_each_state_of_the_game() -> None:
    position = Position.from_points(
        {p: -1 for p in (2, 4, 7, 9, 11, 14, 16, 18, 21, 23)}
        | {1: -5, 6: 5, 8: 3, 13: 5, 24: 2}
    )
    game = Game(get_profile("modern"), position)
    game.start_with(position.turn)
    game.record_throw(game.turn, (6, 6))
    referee = Referee(game, TableLayout())
    referee._build_tree()
    reading = TableReading(occupancy(project(position, TableLayout())))
    first = referee.peek(reading)
    assert referee.peek(reading) is first  # the same reading: nothing worked out again
    referee.sense(reading, 0)
    referee.tick(400)
    assert referee.seen == first
