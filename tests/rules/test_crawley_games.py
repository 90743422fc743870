"""Crawley's two recorded games (1858) replayed through the rules engine, turn by turn.

Every play the book records must be legal for its dice under the ``crawley`` profile, and
what the book says of the position afterwards (a hit, a point made, a throw that cannot be
played, the end and its result) must hold.
"""

from __future__ import annotations

from functools import cache

import pytest

from kiosk.books.crawley_games import GAMES, PLAYERS, BookGame, BookTurn, to_point
from kiosk.rules import BLACK, WHITE, Game, Position, Result

PROFILE = "crawley"
BOOK_LINES = (361, 593)  # the two games in shared/books/003_cb84f7dcf7cee574.txt

COLOUR = {"L": BLACK, "F": WHITE}


def _cases() -> list:
    return [
        pytest.param(game, i, id=f"{game.title.split()[0].lower()}-{t.line}-{t.player}")
        for game in GAMES
        for i, t in enumerate(game.turns)
    ]


@cache
def _positions(game: BookGame) -> tuple[Position, ...]:
    """The position before each recorded turn (and after the last), by the book's plays."""
    position = Position.standard(turn=COLOUR[game.turns[0].player])
    positions = [position]
    for turn in game.turns:
        position = position.parse_play(*turn.dice, turn.move, profile=PROFILE).result
        positions.append(position)
    return tuple(positions)


def _before(game: BookGame, index: int) -> Position:
    # Replaying up to this turn must succeed first; an earlier failure is reported there.
    try:
        return _positions(game)[index]
    except ValueError as error:
        pytest.skip(f"an earlier turn of the {game.title} does not replay: {error}")


def _where(turn: BookTurn) -> str:
    return f"[003:{turn.line}] {turn.player} {turn.dice[0]}-{turn.dice[1]} {turn.move or '-'}"


def _dice_count(dice: tuple[int, int]) -> int:
    return 4 if dice[0] == dice[1] else 2


def _passed(position: Position) -> bool:
    """Whether no man of either side can meet one of the other's again."""
    rear = []
    for colour in (WHITE, BLACK):
        points = [p for p in range(1, 26) if position.count(colour, p)]
        rear.append(max(points, default=0))
    return rear[0] + rear[1] < 25


# -- the data ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.title)
def test_turns_alternate_and_cite_the_game(game: BookGame) -> None:
    assert BOOK_LINES[0] <= game.line < game.opening_line <= game.turns[0].line
    lines = [t.line for t in game.turns]
    assert lines == sorted(set(lines)), "one turn a line, in book order"
    assert BOOK_LINES[0] <= lines[0] and lines[-1] <= BOOK_LINES[1]
    assert lines[-1] == game.result_line
    for a, b in zip(game.turns, game.turns[1:], strict=False):
        assert a.player != b.player, f"{_where(a)} then {_where(b)}: same player twice"
    for t in game.turns:
        assert t.player in PLAYERS
        assert all(1 <= d <= 6 for d in t.dice), _where(t)
        assert (t.move == "") == (t.unplayed == _dice_count(t.dice)), _where(t)
        assert t.makes is None or 1 <= t.makes <= 24, _where(t)


def test_crawley_points_match_the_setting_out() -> None:
    """The labels name the same point for both players, and fit the starting position."""
    start = Position.standard()
    for number in range(1, 13):
        for side in "bw":
            label = f"{number}{side}"
            assert to_point(label, "L") + to_point(label, "F") == 25
    # Each side's two back men stand on the opponent's ace point: 1w for L, 1b for F.
    assert start.count(BLACK, to_point("1w", "L")) == 2
    assert start.count(WHITE, to_point("1b", "F")) == 2
    # The five cornered men on 12 of the far side; three on 8 and five on 6 of one's own.
    for player, far, own in (("L", "w", "b"), ("F", "b", "w")):
        colour = COLOUR[player]
        assert start.count(colour, to_point(f"12{far}", player)) == 5
        assert start.count(colour, to_point(f"8{own}", player)) == 3
        assert start.count(colour, to_point(f"6{own}", player)) == 5
    with pytest.raises(ValueError):
        to_point("13b", "L")


# -- every turn --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "index"), _cases())
def test_book_play_is_legal(game: BookGame, index: int) -> None:
    turn = game.turns[index]
    before = _before(game, index)
    assert before.turn == COLOUR[turn.player], _where(turn)
    play = before.parse_play(*turn.dice, turn.move, profile=PROFILE)  # raises if illegal
    legal = before.legal_plays(*turn.dice, profile=PROFILE)
    assert play in legal
    # As many numbers are played as the book says can be, and no legal play does more.
    dice_used = _dice_count(turn.dice) - turn.unplayed
    if play.result.winner() is not None:  # the last men off may leave numbers over
        dice_used = min(dice_used, before.on_board(before.turn))
    assert len(play.steps) == dice_used, _where(turn)
    assert max(len(p.steps) for p in legal) == dice_used, _where(turn)
    if turn.move == "":
        assert [str(p) for p in legal] == [""], f"{_where(turn)}: the book says no move"


@pytest.mark.parametrize(("game", "index"), _cases())
def test_what_the_book_says_of_the_play(game: BookGame, index: int) -> None:
    turn = game.turns[index]
    before = _before(game, index)
    play = before.parse_play(*turn.dice, turn.move, profile=PROFILE)
    after = play.result
    me = COLOUR[turn.player]
    # The book mentions every man taken up, and only those.
    assert any(s.hit for s in play.steps) == turn.hit, _where(turn)
    if turn.makes is not None:
        assert before.count(me, turn.makes) < 2 <= after.count(me, turn.makes), _where(turn)
    if turn.leaves_blot:
        assert any(after.is_blot(me, p) for p in range(1, 25)), _where(turn)
    if turn.all_home:
        assert after.all_home(me), _where(turn)
    if turn.passed:
        assert _passed(after) and not _passed(before), _where(turn)
    if turn.vacant is not None:
        empty = [p for p in range(1, 7) if after.count(me, p) == 0]
        assert len(empty) == turn.vacant, f"{_where(turn)}: empty points {empty}"


# -- whole games through kiosk.rules.Game --------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.title)
def test_game_replays_to_the_books_result(game: BookGame) -> None:
    g = Game(profile=PROFILE)
    f_die, l_die = game.opening
    outcome = g.opening(f_die, l_die)
    first = game.turns[0]
    winner = COLOUR["F"] if f_die > l_die else COLOUR["L"]
    assert outcome.starter == winner == COLOUR[first.player]
    assert outcome.option, "Crawley leaves the cast to the winner's choice [003:357]"
    g.choose_opening(game.opening_played)
    for i, turn in enumerate(game.turns):
        if i == 0 and game.opening_played:
            assert sorted(g.dice) == sorted(turn.dice) == sorted(game.opening)
        else:
            g.roll(*turn.dice)
        assert g.turn == COLOUR[turn.player], _where(turn)
        assert g.result is None, f"{_where(turn)}: the game ended early"
        g.play(turn.move)
    assert g.result is not None, "the book's last play ends the game"
    winner_colour, result, points = g.result
    assert winner_colour == COLOUR[game.winner]
    assert result == Result(game.result)
    assert points == {"single": 1, "gammon": 2, "backgammon": 3}[game.result]


def test_first_game_ends_in_a_gammon_second_in_a_single() -> None:
    first, second = (_positions(game)[-1] for game in GAMES)
    assert first.winner() == BLACK and first.off[WHITE] == 0
    assert second.winner() == WHITE and second.off[BLACK] == 13


# -- the catalogue's claim about the first game, move 41 [003:447] --------------------------------


def _turn_at(game: BookGame, line: int) -> tuple[int, BookTurn]:
    return next((i, t) for i, t in enumerate(game.turns) if t.line == line)


def test_first_game_move_41_the_four_cannot_be_used() -> None:
    """L 6-4, men on 5, 3 and 2, the ace point held: the 6 bears from the 5, the 4 is lost."""
    game = GAMES[0]
    index, turn = _turn_at(game, 447)
    assert index == 40, "the 41st recorded play of the first game"
    before = _before(game, index)
    assert turn.player == "L" and turn.dice == (6, 4)
    assert {p for p in range(1, 25) if before.count(BLACK, p)} == {5, 3, 2}
    assert before.bar(BLACK) == 0
    assert before.count(WHITE, 24) >= 2, "F holds L's ace point"
    legal = before.legal_plays(6, 4, profile=PROFILE)
    assert [str(p) for p in legal] == ["5/off"]
    (step,) = legal[0].steps
    assert (step.src, step.dst, step.die) == (5, 0, 6)
    # The 4 alone: neither 5/1 (blocked) nor a bearing off past the man on the 5.
    assert all(s.die == 6 for p in legal for s in p.steps)


def test_first_game_double_six_plays_only_two() -> None:
    """F's 6-6 at [003:389]: two men 8w to 2w, and no other six can be played."""
    game = GAMES[0]
    index, _ = _turn_at(game, 389)
    legal = _before(game, index).legal_plays(6, 6, profile=PROFILE)
    assert [str(p) for p in legal] == ["8/2(2)"]


@pytest.mark.parametrize("line", [409, 413, 459])
def test_first_game_closed_out(line: int) -> None:
    game = GAMES[0]
    index, turn = _turn_at(game, line)
    before = _before(game, index)
    me = COLOUR[turn.player]
    assert before.bar(me) >= 1
    for d in turn.dice:
        assert before.count(me.other, d) >= 2, f"entry point {d} is held"
    assert [str(p) for p in before.legal_plays(*turn.dice, profile=PROFILE)] == [""]
