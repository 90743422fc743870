"""Recorded games as Jellyfish ``.mat`` text, the match format GNU Backgammon imports.

The layout follows GNU Backgammon's own ``export match mat``: white is the first (left)
player, black the second; each move is written from the mover's side, one die at a time,
with 25 for the bar, 0 for off and ``*`` for a hit; the cube as ``Doubles => N``,
``Takes`` and ``Drops``; a game without a match length is a " 0 point match".

>>> print(mat_row(1, "31: 8/5 6/5", "64: 24/18 13/9"))
  1) 31: 8/5 6/5                 64: 24/18 13/9
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.rules import BAR, OFF, Colour, Play, Position, RuleProfile, Step, get_profile
from kiosk.rules.moves import to_arrays
from kiosk.store.restore import position_from_id
from kiosk.store.store import GameSummary, Store, StoreError, TurnRecord

STANDARD_ID = Position.standard().position_id()
_LEFT_WIDTH = 27  # GNU Backgammon writes "%3d) %-27s " before the second player's move


class ExportError(StoreError):
    """The games asked for cannot be written as a ``.mat`` file (the message says why)."""


@dataclass(frozen=True)
class Cell:
    """One entry of a ``.mat`` game: what one player did (a roll and move, or a cube action)."""

    colour: Colour
    text: str
    exact: bool = True  # False: a wrong move let stand, written as the men that moved


def mat_row(number: int, left: str, right: str = "") -> str:
    """One numbered line: the first player's entry, then the second's."""
    line = f"{number:3d}) {left:<{_LEFT_WIDTH}} {right}"
    return line.rstrip()


def mat_step(step: Step) -> str:
    """One man moved by one die, as GNU Backgammon writes it in a ``.mat`` file."""
    return f"{step.src}/{step.dst}{'*' if step.hit else ''}"


def mat_play(dice: tuple[int, int], steps: Sequence[Step]) -> str:
    """A roll and its play: ``31: 8/5 6/5``, ``66: 24/18 24/18 13/7* 13/7``, ``54:`` (no move)."""
    return f"{dice[0]}{dice[1]}: " + " ".join(mat_step(s) for s in steps)


def changed_steps(before: Position, after: Position) -> list[Step]:
    """The men that moved between two positions of the mover, paired from the back: the
    nearest description of a wrong move, which no legal play reaches."""
    me, op = to_arrays(before)
    mover = before.turn
    after_me = [after.off[mover], *after.men[mover]]
    sources: list[int] = []
    targets: list[int] = []
    for point in range(BAR, OFF - 1, -1):
        diff = after_me[point] - me[point]
        sources += [point] * max(0, -diff)
        targets += [point] * max(0, diff)
    return [
        Step(src, dst, src - dst if dst else src, OFF < dst < BAR and op[dst] == 1)
        for src, dst in zip(sources, targets, strict=False)
    ]


def game_cells(store: Store, game: GameSummary) -> list[Cell]:
    """The entries of one recorded game in order: plays and cube actions."""
    turns: list[TurnRecord] = store.turns(game.id)
    profile = get_profile(game.profile)
    cells: list[Cell] = []
    played = 0
    plays: list[int] = []  # where each play's cell is, for a take-back
    cube = 1
    for event in store.events(game.id):
        kind = event.get("event")
        if kind == "play" and played < len(turns):
            plays.append(len(cells))
            cells.append(_play_cell(turns[played], profile))
            played += 1
        elif kind == "take-back" and plays:
            played -= 1
            del cells[plays.pop()]
        elif kind == "cube":
            action = event.get("action")
            try:
                colour = Colour.parse(str(event.get("player")))
            except ValueError:
                continue
            if action == "double":
                cube *= 2
                cells.append(Cell(colour, f" Doubles => {cube}"))
            elif action == "take":
                cells.append(Cell(colour, " Takes"))
            elif action == "pass":
                cells.append(Cell(colour, " Drops"))
    return cells


def _play_cell(turn: TurnRecord, profile: str | RuleProfile | None) -> Cell:
    mover = Colour.parse(turn.colour)
    before = position_from_id(turn.position_before, mover)
    after = position_from_id(turn.position_after, mover.other)
    play: Play | None = None
    if not turn.accepted:
        try:
            if turn.move:
                play = before.parse_play(*turn.dice, turn.move, profile=profile)
            else:
                play = next(p for p in before.legal_plays(*turn.dice, profile) if not p.steps)
        except (ValueError, StopIteration):
            play = None
        if play is not None and play.result.position_id() != turn.position_after:
            play = None
    if play is not None:
        return Cell(mover, mat_play(turn.dice, play.steps))
    return Cell(mover, mat_play(turn.dice, changed_steps(before, after.with_turn(mover))), False)


def layout_game(cells: Sequence[Cell]) -> list[str]:
    """The numbered lines of one game: white's entries on the left, black's on the right."""
    lines: list[str] = []
    slot = 0  # even: the left column of row slot // 2 + 1; odd: the right column
    left: str | None = None
    for cell in cells:
        column = 0 if cell.colour == Colour.WHITE else 1
        if slot % 2 != column:  # the other player has nothing here: leave the column empty
            if left is not None:
                lines.append(mat_row(slot // 2 + 1, left))
                left = None
            slot += 1
        if column == 0:
            left = cell.text
        else:
            lines.append(mat_row(slot // 2 + 1, left or "", cell.text))
            left = None
        slot += 1
    if left is not None:
        lines.append(mat_row(slot // 2 + 1, left))
    return lines


def _name(text: str) -> str:
    """A player's name as a ``.mat`` file can hold it: no colon, no spaces, no quote,
    backslash or control character (the header quotes it), 20 letters.

    >>> _name('Ann "the hat" O\\\\Neil\\x00:1')
    "Ann_'the_hat'_O/Neil"
    """
    cleaned = "".join(c for c in text if c.isprintable() or c.isspace())
    cleaned = cleaned.strip().replace(":", "-").replace('"', "'").replace("\\", "/")
    return re.sub(r"\s+", "_", cleaned)[:20] or "player"


def _selection(
    store: Store, game_ids: Sequence[int] | None, match_id: int | None
) -> tuple[list[GameSummary], int, dict[int, tuple[int, int]]]:
    """The games, the match length, and the score before each game (white's, black's)."""
    if match_id is not None:
        if game_ids is not None:
            raise ExportError("give either the games or the match, not both")
        store.match(match_id)  # raises for an unknown match
        games = store.games(match_id)
        if not games:
            raise ExportError(f"match {match_id} has no games yet")
    else:
        if isinstance(game_ids, int) or game_ids is None:
            raise ExportError("give a list of game numbers, or match_id=")
        if not game_ids:
            raise ExportError("no games to export")
        games = [store.game(g) for g in game_ids]
    for game in games:
        if game.start_position != STANDARD_ID:
            raise ExportError(
                f"game {game.id} began from a set-up position ({game.start_position}), and a "
                ".mat file can only hold games from the starting position"
            )
    matches = {g.match_id for g in games}
    one_match = len(matches) == 1 and None not in matches
    length = games[0].match_length if one_match else 0
    scores: dict[int, tuple[int, int]] = {}
    if one_match:
        earlier = store.games(games[0].match_id)
    else:
        earlier = games
    tally = {"white": 0, "black": 0}
    for game in earlier:
        scores[game.id] = (tally["white"], tally["black"])
        if game.winner in tally and game.points:
            tally[game.winner] += game.points
    return games, length, scores


def match_to_mat(
    store: Store, game_ids: Sequence[int] | None = None, *, match_id: int | None = None
) -> str:
    """The ``.mat`` text of some recorded games, or of a whole match (``match_id=``).

    Games of one match keep its length and running score; any other games are written as
    a session without a match length, the score counted from the first of them.
    Raises :class:`ExportError` (a ``ValueError``) for unknown games or games that a
    ``.mat`` file cannot hold.
    """
    games, length, scores = _selection(store, game_ids, match_id)
    first = games[0]
    white, black = (_name(p) for p in first.players)
    date, _, time = first.started.partition("T")
    header = [
        '; [Site "Backgammon Table"]',
        f'; [Player 1 "{white}"]',
        f'; [Player 2 "{black}"]',
        f'; [EventDate "{date.replace("-", ".")}"]',
        f'; [EventTime "{time[:5].replace(":", ".")}"]',
        '; [Variation "Backgammon"]',
        f'; [Rules "{get_profile(first.profile).name}"]',
        "",
        f" {length} point match",
        "",
    ]
    lines = header
    for number, game in enumerate(games, start=1):
        w, b = scores[game.id]
        lines.append(f" Game {number}")
        lines.append(f" {f'{white} : {w}':<31}{black} : {b}")
        cells = game_cells(store, game)
        rows = layout_game(cells)
        if game.winner in ("white", "black") and game.points:
            s = "s" if game.points != 1 else ""
            wins = f"Wins {game.points} point{s}"
            if game.winner == "black" and cells and cells[-1].colour == Colour.WHITE:
                # white's last entry (a drop) has the row to itself: black wins beside it,
                # as GNU Backgammon writes it and reads it back
                row, entry = rows[-1].split(") ", 1)
                rows[-1] = mat_row(int(row), entry, " " + wins)
            else:
                pad = " " * 6 if game.winner == "white" else " " * 34
                rows.append(f"{pad}{wins}")
        lines.extend(rows)
        lines.append("")
    return "\n".join(lines) + "\n"


def game_to_mat(store: Store, game_id: int) -> str:
    """The ``.mat`` text of one recorded game."""
    return match_to_mat(store, [game_id])


def inexact_turns(store: Store, game_id: int) -> list[int]:
    """The turns of a game that a ``.mat`` file can only approximate (wrong moves let stand)."""
    game = store.game(game_id)
    turns = store.turns(game_id)
    profile = get_profile(game.profile)
    return [t.number for t in turns if not _play_cell(t, profile).exact]


def position_before(store: Store, game_id: int, turn: int) -> str:
    """The Position ID before turn ``turn`` (1 is the first), the mover on roll.

    One past the last turn gives the position now, the side to play next on roll.
    """
    game = store.game(game_id)
    turns = store.turns(game_id)
    if 1 <= turn <= len(turns):
        return turns[turn - 1].position_before
    if turn == len(turns) + 1:
        return turns[-1].position_after if turns else game.start_position
    raise ExportError(
        f"game {game_id} has {len(turns)} turn{'s' if len(turns) != 1 else ''}: "
        f"ask for a turn from 1 to {len(turns) + 1}"
    )
