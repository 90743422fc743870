"""Our legal plays, Position IDs and notation against GNU Backgammon's own code.

The ``gnubg-nn`` package (module ``gnubg_nn``; source github.com/StonesAndDice/gnubg-nn-pypi,
``src/gnubgmodule/gnubgmodule.cpp``) wraps GNU Backgammon's C move generator:
``gnubg_nn.moves(board, d1, d2, 1)`` calls ``GenerateMoves`` and returns, for each legal
play, the 20-character position key of the board after it (mover still in ``board[1]``)
and its checker moves ``((from, to), ...)`` in the mover's numbering (25 the bar, 0 off,
no hit marks). GNU Backgammon lists one entry per distinct resulting position and applies
the larger-die rule, which is exactly what our ``generate`` promises, so the result sets
must be equal, with no exclusions. Two differences of form, not of rules:

* for a roll that cannot be played GNU Backgammon lists nothing, where we list one empty
  play whose result is the same board with the other side on roll
  (:func:`oracles.gnubg_results` maps the first to the second);
* ``gnubg_nn`` has no move-notation function (``FormatMove`` is not exposed), so notation is
  checked by formatting GNU Backgammon's own checker moves (hits worked out by making the
  moves, :func:`oracles.steps_of`) with our formatter: the text must be the one we print
  for the play reaching the same position, whichever path each generator recorded.

Positions come from two fixed-seed sources: whole games played by our engine
(:func:`oracles.draw_games`, the same set the OpenSpiel oracle uses) and boards set up
directly (:func:`oracles.draw_positions`: scattered men, one to four men on the bar against
three to six closed points, primes, bear-offs, bear-offs against men on the bar, and rolls
of which either die but not both can be played, where the larger-die rule decides), which
games rarely reach. Position IDs are compared both ways with ``gnubg_nn.position_id`` and
``gnubg_nn.board_from_position_id``, for the positions and for every play's result.
"""

from __future__ import annotations

from collections import Counter

import pytest

gnubg_nn = pytest.importorskip("gnubg_nn")

from oracles import (  # noqa: E402
    cases,
    categories,
    describe,
    draw_games,
    draw_positions,
    gnubg_board,
    gnubg_results,
    result_set,
    steps_of,
)

from kiosk.rules import Position, format_play, generate  # noqa: E402

GAME_SEED = 3  # the OpenSpiel oracle's default set
BOARD_SEED = 11
CASES = 3000
SLOW_CASES = 30000

#: Each case kind the constructed boards must contain at least this often.
COVERAGE = {
    "bar-2+": 300,
    "bar-vs-closed-6": 50,
    "blocked-by-prime-4+": 300,
    "no-play": 100,
    "one-die-only": 100,
    "larger-die-decides": 100,
    "partial-doublet": 20,
    "bear-off-overshoot": 100,
    "game-ends": 50,
}


@pytest.fixture(scope="module")
def game_cases() -> list[tuple[Position, int, int]]:
    return list(cases(draw_games(GAME_SEED, CASES)))


@pytest.fixture(scope="module")
def board_cases() -> list[tuple[Position, int, int]]:
    return draw_positions(BOARD_SEED, CASES)


def plays_differences(checks: list[tuple[Position, int, int]]) -> list[str]:
    out = []
    for position, d1, d2 in checks:
        plays = generate(position, d1, d2)
        theirs_steps = gnubg_results(position, d1, d2)
        ours, theirs = result_set(plays), set(theirs_steps)
        steps = max(len(p.steps) for p in plays)
        their_steps = max(len(s) for s in theirs_steps.values())
        if ours != theirs or steps != their_steps:
            out.append(
                f"{position.position_id()} {position.turn} on roll, {d1}-{d2}: "
                f"ours only {describe(ours - theirs)}, gnubg only {describe(theirs - ours)}, "
                f"dice used {steps} vs {their_steps}"
            )
    return out


def notation_differences(checks: list[tuple[Position, int, int]]) -> list[str]:
    out = []
    for position, d1, d2 in checks:
        ours = {p.result: str(p) for p in generate(position, d1, d2)}
        for result, moves in gnubg_results(position, d1, d2).items():
            text = format_play(steps_of(position, moves))
            if result in ours and ours[result] != text:
                out.append(
                    f"{position.position_id()} {position.turn} on roll, {d1}-{d2}: "
                    f"gnubg's moves {moves} read {text!r}, we print {ours[result]!r}"
                )
    return out


def id_differences(checks: list[tuple[Position, int, int]]) -> list[str]:
    out = []
    for position, d1, d2 in checks:
        for p in [position, *(play.result for play in generate(position, d1, d2))]:
            board = gnubg_board(p)
            theirs = gnubg_nn.position_id(board)
            if theirs != p.position_id():
                out.append(f"{p!r}: gnubg writes {theirs}, we write {p.position_id()}")
            back = [list(side) for side in gnubg_nn.board_from_position_id(p.position_id())]
            if back != board:
                out.append(f"{p.position_id()}: gnubg reads {back}, we mean {board}")
    return out


def report(differences: list[str]) -> str:
    return f"{len(differences)} differences:\n" + "\n".join(differences[:20])


def test_start_position_and_opening_roll():
    start = Position.standard()
    assert gnubg_nn.position_id(gnubg_board(start)) == start.position_id() == "4HPwATDgc/ABMA"
    assert set(gnubg_results(start, 6, 5)) == result_set(generate(start, 6, 5))


def test_no_play_is_listed_as_the_unchanged_board():
    # Black on roll with three men on the bar against white's closed board.
    closed = {p: 2 for p in range(1, 7)} | {p: -2 for p in range(19, 25)}
    position = Position.from_points(closed, bar=(0, 3), turn=Position.standard().turn.other)
    assert gnubg_nn.moves(gnubg_board(position), 6, 6) == ()
    assert set(gnubg_results(position, 6, 6)) == result_set(generate(position, 6, 6))
    assert result_set(generate(position, 6, 6)) == {position.swap_turn()}


def test_constructed_boards_cover_the_hard_parts(board_cases):
    counts: Counter = Counter()
    for position, d1, d2 in board_cases:
        counts.update(categories(position, d1, d2, generate(position, d1, d2)))
    short = {k: (counts[k], need) for k, need in COVERAGE.items() if counts[k] < need}
    assert not short, f"constructed set too thin (found, needed): {short}"


def test_same_plays_as_gnubg_in_games(game_cases):
    assert len(game_cases) == CASES
    differences = plays_differences(game_cases)
    assert not differences, report(differences)


def test_same_plays_as_gnubg_on_constructed_boards(board_cases):
    differences = plays_differences(board_cases)
    assert not differences, report(differences)


def test_position_ids_agree_with_gnubg(game_cases, board_cases):
    differences = id_differences(game_cases[::3] + board_cases[::3])
    assert not differences, report(differences)


def test_notation_agrees_with_gnubgs_moves(game_cases, board_cases):
    differences = notation_differences(game_cases + board_cases)
    assert not differences, report(differences)


@pytest.mark.slow
def test_same_plays_as_gnubg_many_positions():
    checks = list(cases(draw_games(GAME_SEED + 1000, SLOW_CASES)))
    checks += draw_positions(BOARD_SEED + 1000, SLOW_CASES)
    differences = plays_differences(checks) + notation_differences(checks)
    assert not differences, report(differences)
