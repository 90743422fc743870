"""Replaying a game turn by turn: Crawley's recorded games (1858) and games played here.

A ``Replay`` holds the position before every turn; ``event()`` is the ``position``
event that shows the current step, with the play's arrows and the book's note.

>>> replay = book_replays()[0]
>>> replay.event().text.startswith("Crawley, First Game")
True
>>> replay.forward(), replay.index
(True, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.books.crawley_games import GAMES, PLAYERS, SOURCE, BookGame
from kiosk.display.view import play_arrows
from kiosk.events import PositionShown
from kiosk.rules import Colour, Game, Play, Position


@dataclass(frozen=True)
class ReplayStep:
    """One turn: who threw what, the play, and a note to show beside it."""

    colour: Colour
    dice: tuple[int, int]
    play: Play
    before: Position
    note: str = ""


class Replay:
    """A game to step through; step 0 is the starting position, step n shows turn n played."""

    def __init__(self, title: str, start: Position, steps: list[ReplayStep], source: str) -> None:
        self.title = title
        self.start = start
        self.steps = steps
        self.source = source
        self.index = 0

    def forward(self) -> bool:
        """Show the next turn; ``False`` past the end."""
        if self.index >= len(self.steps):
            return False
        self.index += 1
        return True

    def backward(self) -> bool:
        """Show the turn before; ``False`` before the start."""
        if self.index == 0:
            return False
        self.index -= 1
        return True

    def event(self) -> PositionShown:
        """The ``position`` event that shows the current step."""
        if self.index == 0:
            return PositionShown(
                position=self.start.position_id(),
                turn=self.start.turn,
                dice=None,
                move="",
                arrows=(),
                text=f"{self.title}: the start ({self.source}). Done: next turn.",
            )
        step = self.steps[self.index - 1]
        after = step.play.result
        move = str(step.play) or "no move possible"
        text = (
            f"Turn {self.index} of {len(self.steps)}: {step.colour} threw "
            f"{step.dice[0]}-{step.dice[1]} and played {move}."
        )
        return PositionShown(
            position=after.position_id(),
            turn=after.turn,
            dice=step.dice,
            move=str(step.play),
            arrows=play_arrows(step.play, step.colour),
            text=text,
            detail=step.note,
        )


def book_replay(book: BookGame) -> Replay:
    """One of Crawley's games, played out under his rules."""
    position = Position.standard(turn=Colour.parse(PLAYERS[book.turns[0].player]))
    steps = []
    for turn in book.turns:
        play = position.parse_play(*turn.dice, turn.move, profile="crawley")
        note = f"[{SOURCE}, line {turn.line}] {turn.note}".strip()
        steps.append(ReplayStep(position.turn, turn.dice, play, position, note))
        position = play.result
    title = f"Crawley, {book.title} (1858)"
    return Replay(title, Position.standard(turn=steps[0].colour), steps, "Crawley 1858, Ch. III")


def book_replays() -> list[Replay]:
    """Crawley's two recorded games."""
    return [book_replay(book) for book in GAMES]


def recorded_replay(title: str, game: Game) -> Replay:
    """A game played at this table, as the store gave it back."""
    steps = [ReplayStep(t.colour, t.dice, t.play, t.before) for t in game.turns]
    start = game.turns[0].before if game.turns else game.position
    return Replay(title, start, steps, "played at this table")
