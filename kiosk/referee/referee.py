"""The referee: judges every settled picture of the table against the legal plays.

It is fed sensed boards, dice readings, button presses and the time, and it
reports what it decides as events (plain dicts with an ``"event"`` key) to one
callback. It holds no threads and does no I/O, so it runs the same under the
real link, the simulated table and the tests.

Occupancy sensing (one reed a slot: a :class:`~kiosk.table.TableReading` without colours):
the men get their colours from location (each side's bar and tray) and from the game's
history, against
the last board known to be right. Within one turn the mover's men move and the
adversary's only go to the bar, so counts per point, bar and tray tell every legal
partial play apart, and every verdict is the same as on a table that senses colour.
Where the counts alone cannot tell two situations apart, the referee does this:

- a point that held the adversary's blot and now reads one man (or more) may hold that
  blot or the mover's man that hit it, the blot in the hand or on the bar: it takes
  the reading that is a partial play, else one with a man in the hand (no verdict
  yet), else one where only the hit man is astray (``hit-not-on-bar``);
- a man put on an empty point is the mover's unless only the adversary has lost men
  elsewhere (then ``wrong-checker``, as with colour sensing);
- an adversary's man put on the mover's own point reads as one of the mover's men
  there: the verdict names the count ("one man too many"), not the colour;
- two plays with hits may read alike (with 4-3 and blots on 22, 21, 17 and 16,
  ``bar/21* 20/17*`` and ``bar/22* 20/16*`` both leave one man on each of those points
  and two on the bar): the referee follows every
  partial play the counts may show and, at Done, asks which play was made (``choose``),
  as it does where full points hide a man;
- a wrong placement can leave the counts of a legal play still in motion: after
  ``22/16*`` with 6-5 (white's man on the bar), black's other man wrongly put from 22 on
  16 reads like ``22/17* 22/16*`` with the man hit on 16 not yet lifted; the referee asks
  for that man on the bar ("hit-to-bar") and judges the board once it settles so;
- a wrong placement can leave the same counts as a legal play: after ``18/12*`` with
  6-1, a man put from 19 to 17 reads like ``19/13* 18/17`` (one man each on 17, 13 and
  12, one on the bar); the referee takes the legal reading, as it must when the counts
  are all it has (the soak in ``benchmarks/bench_noise.py`` does not count these);
- while setting up, a man of the wrong colour on a point is not seen: the set-up is
  checked by counts, and the first play shows any mistake.

Points in events are written from the mover's side (``"8"``, ``"bar"``,
``"off"``); ``"table"`` fields name the physical locations for the display.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any

from kiosk.events import (
    Choose,
    Cocked,
    Destinations,
    Dice,
    Error,
    Event,
    GameOver,
    Illegal,
    Legal,
    Notice,
    Opening,
    Penalty,
    Played,
    Setup,
    SetupOk,
    WrongMove,
)
from kiosk.referee import diagnosis, faults, laws, wording
from kiosk.referee.index import PlayIndex, side_part
from kiosk.referee.reasons import law
from kiosk.referee.wording import name
from kiosk.rules import (
    WHITE,
    Colour,
    Game,
    GameError,
    Phase,
    Play,
    PlayTree,
    Position,
)
from kiosk.rules.profiles import StartCast
from kiosk.table import LOCATIONS, DieReading, TableLayout, TableReading
from kiosk.table.sensing import (
    Occupancy,
    Sensed,
    colour_in,
    describe,
    key,
    location,
    point_of,
    project,
    true_counts,
)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a roll's partial plays are indexed: building
    them makes tens of thousands of small tuples, none in a cycle, whose collections were
    the worst pauses of preparing a roll (``benchmarks/bench_referee.py``)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


Candidate = tuple[Position, tuple[int, ...]]
_SLOT = {where: i for i, where in enumerate(LOCATIONS)}
_COLOURINGS_KEPT = 64  # readings whose colourings are kept for one state of the game


#: Why Done does nothing outside a play.
_NOT_PLAYING = {
    Phase.OPENING: "Throw the opening dice first: Done ends a play.",
    Phase.OPENING_OPTION: "Play the opening throw, or throw both dice again.",
    Phase.ROLL: "Throw the dice first: Done ends a play.",
    Phase.DOUBLE_OFFERED: "Answer the double first.",
    Phase.OVER: "The game is over: start a new one from the menu.",
}
MIN_DICE_REST_MS = 200  # a die still tumbling shows a face for less than this


class Mode(StrEnum):
    """How strictly the referee applies the laws."""

    TEACHING = "teaching"  # every illegal move must be put right at once
    LAWS = "laws"  # the books' laws: touch-move, and a wrong move stands if accepted


@dataclass(frozen=True)
class RefereeConfig:
    """Timing and strictness."""

    settle_ms: int = 300  # a board must stay unchanged this long before it is judged
    accept_ms: int = 90  # ... or this long, if it shows a legal (partial) play or a man in hand
    auto_done_ms: int | None = None  # end a complete play after it stays settled this long
    mode: Mode = Mode.TEACHING
    dice_rest_ms: int = 300  # both wells must show the same faces this long for a throw
    still_ms: int = 6000  # a man unread this long (held, or off his reed) is named
    fault_ms: int = 15000  # a switch that contradicts the game this long, no hand near

    @property
    def dice_rest(self) -> int:
        """The rest time in force: faces shown for under ``MIN_DICE_REST_MS`` never count."""
        return max(self.dice_rest_ms, MIN_DICE_REST_MS)


class Referee:
    """Watches one game at the table; see the module docstring for its inputs and events."""

    def __init__(
        self,
        game: Game,
        layout: TableLayout | None = None,
        config: RefereeConfig | None = None,
        emit: Callable[[Event], None] | None = None,
    ) -> None:
        self.game = game
        self.layout = layout or TableLayout()
        self.config = config or RefereeConfig()
        self._emit_cb = emit or (lambda event: None)
        self._board: Sensed | None = None
        self._counts: Occupancy | None = None  # the last board of an occupancy-sensing table
        # what the counts were last coloured by
        self._coloured_against: tuple[Any, ...] | None = None
        self._readings: list[Sensed] = []  # every colouring of the counts worth judging
        self._colouring_state: tuple[object, ...] | None = None  # what colourings are kept for
        self._colourings: dict[tuple[tuple[str, int], ...], tuple[Sensed, list[Sensed]]] = {}
        self._changed_at = 0
        self._judged: tuple[Any, ...] | None = None
        self._target: Position | None = None  # set while the board is being set up or restored
        self._restoring = False
        self._illegal: tuple[str, str] | None = None
        self._plays: PlayIndex | None = None  # the roll's partial plays, while one is played
        self._candidates: list[Candidate] = []  # partial plays the board may show, dice left
        self._lifted: set[int] = set()
        self._lift_reported: tuple[Any, ...] | None = None
        self._touched: tuple[int, Position] | None = None  # laws mode: a man that must be played
        self._choices: list[Play] = []
        self._wrong: Position | None = None
        self._dice_armed = True  # the next faces to rest are a new throw
        self._white_cast: tuple[int, int] | None = None  # a two-dice starting cast: white's
        self._wells_read = False
        self._faces: tuple[int, int] | None = None  # the faces both wells show, if they do
        self._faces_since = 0
        self._noticed: set[object] = set()  # notices given once until their cause goes
        self._odd: tuple[str, tuple[int, int], int] | None = None  # one man off, since when
        # a man that can't move
        self._lift_verdict: tuple[tuple[Any, ...], tuple[str, str]] | None = None
        self._mask: dict[str, tuple[int, int]] = {}  # men to add where switches misread
        self._cocked: tuple[bool, bool] = (False, False)
        self._complete_since: int | None = None
        self._expected: Play | None = None  # the table's own play, shown to be moved for it
        self._check_table = False  # after a reconnect: restore the table if it was disturbed
        self._last_guidance: list[dict[str, Any]] | None = None
        self._reeds = faults.ReedWatch()  # reeds that chatter, stick or never close

    # -- inputs ------------------------------------------

    def set_up(self, position: Position, restoring: bool = False, in_play: bool = False) -> None:
        """Guide the players to lay out ``position`` (a new game, a lesson, or a restore).

        ``in_play``: a restart in the middle of a turn, whose men already moved for the
        throw may stand as they are (a play taken back must be put back instead)."""
        self._target = position
        self._restoring = restoring
        self._judged = None
        self._last_guidance = None
        if in_play and self.game.phase == Phase.PLAY and self.game.dice:
            self._build_tree()

    def sense(self, reading: TableReading, now: int) -> None:
        """A settled reading of the table (the one way a board comes in): judged by its
        colours where the table senses them, else by its counts, the men given their
        colours from location and the game's history."""
        reading, said = faults.repaired(self._reeds, reading, now)  # faulty reeds put right
        for words in said:
            self._publish(Notice(about="reed-fault", message=words))
        if reading.colours is not None:
            self._look(dict(reading.colours), now)
        else:
            self._count(dict(reading.counts), now)

    def peek(self, reading: TableReading) -> Sensed:
        """The board ``reading`` shows as the referee would colour it, before it takes the
        reading in (it changes nothing in the referee)."""
        if reading.colours is not None:
            return dict(reading.colours)
        kept = self._readings
        try:
            return self._coloured(dict(reading.counts))
        finally:
            self._readings = kept

    @property
    def seen(self) -> Sensed | None:
        """The board as the referee judges it, coloured from the game where the table
        senses only where men are; None before the first reading."""
        return self._board

    def _look(self, board: Sensed, now: int) -> None:
        """A settled board whose men's colours are known."""
        if board == self._board:
            return
        self._board = board
        self._changed_at = now
        self._complete_since = None
        if self.game.phase == Phase.OPENING_OPTION and self._target is None:
            side = 0 if self.game.turn == WHITE else 1
            want = project(self.game.position, self.layout)
            if any(board[w][side] != want[w][side] for w in board):
                self.game.choose_opening(True)  # the starter plays the cast by moving a man
        self._watch_lift(board)

    def _count(self, counts: Occupancy, now: int) -> None:
        """A settled board from a table that senses men but not their colour (one reed a
        slot): the men are given colours from location and the game's history."""
        if counts == self._counts:
            return
        self._counts = dict(counts)
        self._coloured_against = None
        self._look(self._coloured(counts), now)

    def readings(self, counts: Occupancy) -> list[Sensed]:
        """Every colouring of an occupancy board worth judging, the first against the last
        board known to be right; then, where the counts cannot tell a blot from the man
        that hit it, each way of reading those blots that leaves the adversary's men as
        some partial play (a hit man in the hand allowed) would, against each partial play
        still in the running (19/13* or 19/18/12* with 6-1). The ways are found from the
        roll's partial plays, never by trying every set of blots, so the cost does not
        grow with the blots standing. It changes nothing in the referee."""
        return self._colour(counts)[1]

    def _colour(self, counts: Occupancy) -> tuple[Sensed, list[Sensed]]:
        """The colouring of ``counts`` the referee takes (see :meth:`_coloured`) and every
        one worth judging (see :meth:`readings`), worked out once for each reading and
        state of the game."""
        state = (self._reference(), self._plays, tuple(self._candidates), self.game.turn)
        if state != self._colouring_state:
            self._colouring_state = state
            self._colourings = {}
        found = self._colourings.get(counts_key := tuple(counts.items()))
        if found is None:
            options = self._options(counts)
            found = (self._best(counts, options), options)
            if len(self._colourings) >= _COLOURINGS_KEPT:
                self._colourings.clear()
            self._colourings[counts_key] = found
        return found

    def _unsure(self, position: Position, counts: Occupancy) -> tuple[Sensed, Sensed, list[str]]:
        """``position`` as the slots read it, ``counts`` coloured against it, and the points
        where the counts cannot tell the adversary's blot from the man that hit it."""
        other = project(position, self.layout)
        start, unsure = colour_in(counts, other, self.game.turn)
        return other, start, unsure

    def _options(self, counts: Occupancy) -> list[Sensed]:
        """See :meth:`readings`."""
        mover = self.game.turn
        board, _ = colour_in(counts, project(self._reference(), self.layout), mover)
        plays = self._plays
        if plays is None or self._target is not None:
            return [board]
        options = [board]
        adv = mover.other
        for position in dict.fromkeys(c for c, _ in self._candidates):
            other, start, unsure = self._unsure(position, counts)
            found = [start]
            if unsure:
                # a reading that fits one of the adversary's partial-play sides hits
                # exactly the blots that side has lost: one reading for each such side
                hits = {
                    tuple(i for i, where in enumerate(unsure) if theirs[_SLOT[where]] == 0)
                    for theirs in plays.theirs
                }
                for chosen in sorted((h for h in hits if h), key=lambda h: (len(h), h)):
                    option = colour_in(counts, other, mover, [unsure[i] for i in chosen])[0]
                    if side_part(option, adv) in plays.theirs:
                        found.append(option)
            options += [o for o in found if o not in options]
        return options

    def _coloured(self, counts: Occupancy) -> Sensed:
        """An occupancy board coloured against the last board known to be right. Where the
        counts cannot tell a blot from the man that hit it, the reading that shows a
        partial play, else one with men in the hand, else one where the mover's men are
        right (only the hit man astray), else one with every man accounted for."""
        board, self._readings = self._colour(counts)
        return board

    def _best(self, counts: Occupancy, options: list[Sensed]) -> Sensed:
        """The reading :meth:`_coloured` takes among ``options`` (see :meth:`readings`)."""
        board, plays = options[0], self._plays
        if plays is None or self._target is not None:
            return board
        for option in options:
            if plays.shows_partial(option):
                return option
        for option in options:
            if plays.in_motion(option):
                return option
        mover = self.game.turn
        # the mover's men right with a blot read as hit: he stands on the blot's point,
        # so it was hit this turn; no more blots than the roll has steps
        steps = len(plays.tree.dice)
        unsure_of = [self._unsure(p, counts) for p in dict.fromkeys(c for c, _ in self._candidates)]
        if side_part(board, mover) in plays.mine:
            return board
        for other, start, unsure in unsure_of:
            for n in range(min(steps, len(unsure)) + 1):
                for hit in combinations(unsure, n):
                    option = colour_in(counts, other, mover, hit)[0] if n else start
                    if side_part(option, mover) in plays.mine:
                        return option
        # every man accounted for: each side's count depends only on how many are hit
        reference = project(self._reference(), self.layout)
        if _same_men(board, reference):
            return board
        for other, start, unsure in unsure_of:
            for n in range(len(unsure) + 1):
                option = colour_in(counts, other, mover, unsure[:n])[0] if n else start
                if _same_men(option, reference):
                    return option
        return board

    def _reference(self) -> Position:
        """The last position known to be on the table: the one being set up, the last
        legal partial play, a wrong move offered, or the game's."""
        if self._target is not None:
            return self._target
        if self._plays is not None:
            return self._candidates[0][0]
        return self._wrong if self._wrong is not None else self.game.position

    def dice(self, wells: tuple[DieReading, DieReading], now: int) -> None:
        """What the two dice wells read."""
        cocked = (wells[0] == DieReading.COCKED, wells[1] == DieReading.COCKED)
        if cocked != self._cocked:
            self._cocked = cocked
            for well, is_cocked in enumerate(cocked, start=1):
                if is_cocked:
                    self._publish(
                        Cocked(
                            well=well,
                            message=f"Die {well} is not lying flat: throw both dice again.",
                            law="A cocked die makes the throw void (Cady law 4; Foster law 6).",
                        )
                    )
        first, second = wells[0].face, wells[1].face
        showing = None if first is None or second is None else (first, second)
        if not self._wells_read:  # dice already lying in the wells are no throw of this game
            self._wells_read = True
            self._dice_armed = showing is None
        if showing == self._faces:
            self._settle_dice(now)
            return
        if self._faces is not None and self._dice_armed:
            self._notice("dice-settling", "Waiting for the dice to settle.", once=True)
        self._faces, self._faces_since = showing, now
        if showing is None:
            self._dice_armed = True
        self._settle_dice(now)

    def _settle_dice(self, now: int) -> None:
        """Count the throw once both dice have rested (see ``RefereeConfig.dice_rest_ms``)."""
        faces = self._faces
        if faces is None or not self._dice_armed:
            return
        if now - self._faces_since < self.config.dice_rest:
            return
        if self._target is not None:
            self._notice(
                "setup-first",
                "Set the men out as shown first: the throw counts once the board is right.",
                once=True,
            )
            return
        self._dice_armed = False
        self._noticed.discard("dice-settling")
        self._noticed.discard("setup-first")
        self.throw(faces[0], faces[1], now)

    def throw(self, d1: int, d2: int, now: int) -> None:
        """The dice thrown, from any source (wells, buttons, digital dice)."""
        phase = self.game.phase
        if phase == Phase.OPENING:
            self._opening(d1, d2)
        elif phase == Phase.OPENING_OPTION:
            self.game.choose_opening(False)
            self._roll(d1, d2)
        elif phase == Phase.ROLL:
            if self._wrong is not None:
                self._wrong_stands()
            self._roll(d1, d2)
        elif phase == Phase.PLAY:
            self._publish(
                Error(
                    message=f"{self.game.turn} has not finished playing: "
                    "press Done before the next throw."
                )
            )
        elif phase == Phase.OVER:
            self._publish(Error(message="The game is over: start a new one from the menu."))

    def tick(self, now: int) -> None:
        """Time passes: count dice that have rested, judge the board once it has settled:
        after ``accept_ms`` if it shows a legal partial or whole play (or a man in the
        hand), after ``settle_ms`` otherwise (a wrong board is never called while the hand
        may still be moving)."""
        self._settle_dice(now)
        if self._board is None:
            return
        still = now - self._changed_at
        if still < min(self.config.accept_ms, self.config.settle_ms):
            return
        if self._counts is not None:  # colours follow the game as it is now
            seen = (self._reference(), self._plays, self.game.turn)
            if seen != self._coloured_against:
                self._coloured_against = seen
                self._board = self._coloured(self._counts)
        k = key(self._board)
        if still < self.config.settle_ms and self._judged != k and not self._acceptable():
            return
        if self._judged != k:
            self._judged = k
            self._judge(self._board, now)
        self._watch_still(now)
        auto = self.config.auto_done_ms
        if (
            auto is not None
            and self._complete_since is not None
            and now - self._complete_since >= auto
        ):
            self.press_done(None, now)

    def _acceptable(self) -> bool:
        """Whether the board may be judged before the full settle: it shows a legal partial
        or whole play, or one with a man in the hand (no verdict against the player), or
        the men as they stand while no play is awaited, or the position being set up."""
        board = self._board
        assert board is not None
        if self._check_table or self._touched is not None:
            return False
        if self._target is not None:
            return board == project(self._target, self.layout)
        plays = self._plays
        if self.game.phase != Phase.PLAY or plays is None:
            expected = self._wrong if self._wrong is not None else self.game.position
            return self._masked(board) == project(expected, self.layout)
        board = self._masked(board)
        if plays.shows_partial(board):
            return True
        lifted = self._lift_verdict is not None and self._lift_verdict[0] == key(board)
        return not lifted and plays.in_motion(board)

    def due(self, now: int) -> int | None:
        """The next time after ``now`` (on the clock ``tick`` is given) at which a tick may
        judge the board or count the dice, while one is pending: the loop wakes then, not
        at its next frame, so that the settle is honoured to the millisecond."""
        times = []
        if self._faces is not None and self._dice_armed:
            times.append(self._faces_since + self.config.dice_rest)
        if self._board is not None and self._judged != key(self._board):
            times += (self._changed_at + self.config.accept_ms,
                      self._changed_at + self.config.settle_ms)
        if self._complete_since is not None and self.config.auto_done_ms is not None:
            times.append(self._complete_since + self.config.auto_done_ms)
        later = [t for t in times if t > now]
        return min(later) if later else None

    def press_done(self, colour: Colour | None, now: int) -> None:
        """A player's Done button (``None``: whoever is on roll)."""
        phase, turn = self.game.phase, self.game.turn
        if colour is not None and colour != turn:
            if phase == Phase.PLAY:
                self._illegal_event("not-your-turn", wording.not_your_done(turn), again=True)
            else:
                self._notice("done-not-now", f"{colour}: it is {turn}'s turn, not yours.")
            return
        if self._target is not None:
            self._notice("setup-first", "Set the men out as shown first.")
            return
        if phase != Phase.PLAY:
            self._notice("done-not-now", _NOT_PLAYING.get(phase, "There is no play to end."))
            return
        if self._board is None:
            self._notice("no-board", "The table has not been read yet: check its cable.")
            return
        if self._board != self._judged_board():
            self._judged = key(self._board)
            self._judge(self._board, now)
        plays = self._plays
        if plays is None:  # judging the board ended the turn
            return
        board = self._masked(self._board)
        if plays.shows_partial(board):
            self._finish_if_complete()
        elif plays.in_motion(board):
            adv = turn.other
            shared = [w for w in board if w[0].isdigit() and min(board[w]) > 0]
            if shared or plays.hit_man_left(board):
                self._illegal_event(
                    "hit-not-on-bar", wording.hit_to_bar(adv, shared, turn), again=True
                )
            else:
                self._illegal_event(
                    "must-use-both", "Finish your move: put the man down.", again=True
                )
        elif self.config.mode == Mode.LAWS and self._illegal is not None:
            self._offer_wrong_move()
        elif self._illegal is not None:
            self._illegal_event(*self._illegal, again=True)
        elif self._odd is not None:
            self._notice("off-centre", self._unread_words())
        else:
            self._notice("still-reading", "The table is still settling: press Done again.")

    def reconnected(self) -> None:
        """The table is back after a disconnect: check it against the game before going on."""
        self._check_table = True
        self._judged = None

    def accept(self) -> None:
        """Laws mode: the adversary accepts a wrong move, which then stands."""
        if self._wrong is not None:
            self._wrong_stands()
        else:
            self._notice("nothing-to-accept", "There is no wrong move to accept.")

    def choose(self, index: int) -> None:
        """The player picks one of the plays offered by a ``choose`` event."""
        if not 0 <= index < len(self._choices):
            self._publish(Error(message=f"There is no choice {index + 1}."))
            return
        play = self._choices[index]
        self._choices = []
        self._end_turn(play)

    # -- setting up ------------------------------------------

    def _judge_setup(self, board: Sensed, now: int) -> None:
        assert self._target is not None
        want = project(self._target, self.layout)
        plays = self._plays
        in_play = self._restoring and plays is not None and plays.shows_partial(board)
        if board == want or in_play:
            restoring = self._restoring
            self._target = None
            self._restoring = False
            self._publish(SetupOk(restored=restoring))
            if in_play:
                self._judge_play(board, now)
            elif self.game.phase == Phase.PLAY and self.game.dice:
                self._build_tree()
            return
        corrections = []
        wrong: list[tuple[str, Colour, int, int]] = []  # (location, colour, have, want)
        for where, (w, b) in want.items():
            have_w, have_b = board[where]
            for colour, have, need in ((WHITE, have_w, w), (WHITE.other, have_b, b)):
                if have != need:
                    wrong.append((where, colour, have, need))
        corrections = [
            {"table": where, "colour": str(colour), "have": have, "want": need}
            for where, colour, have, need in wrong
        ]
        where, colour, have, need = wrong[0]
        diff = need - have
        verb = f"put {diff} more" if diff > 0 else f"take {-diff}"
        men = "man" if abs(diff) == 1 else "men"
        if corrections == self._last_guidance:
            return
        self._last_guidance = corrections
        self._publish(
            Setup(
                corrections=tuple(corrections),
                message=f"{verb.capitalize()} {colour} {men} "
                f"{'on' if diff > 0 else 'off'} {describe(where, colour)}.",
                law=law("setup"),
            )
        )

    # -- the dice ------------------------------------------

    def _opening(self, d1: int, d2: int) -> None:
        """The starting cast: white's die and black's, or under a two-dice profile (Parker)
        each side's two dice, white's cast first."""
        cast: tuple[int | tuple[int, int], int | tuple[int, int]] = (d1, d2)
        if self.game.profile.start_cast == StartCast.TWO_DICE_TOTAL:
            if self._white_cast is None:
                self._white_cast = (d1, d2)
                self._publish(
                    Opening(
                        starter=None,
                        message=f"White cast {d1}-{d2} ({d1 + d2}): now black casts both dice.",
                    )
                )
                return
            cast, self._white_cast = (self._white_cast, (d1, d2)), None
        white, black = cast
        try:
            outcome = self.game.opening(white, black)
        except GameError as err:
            self._publish(Error(message=str(err)))
            return
        if outcome.starter is None:
            thrown = sum(black) if isinstance(black, tuple) else black
            self._publish(
                Opening(
                    starter=None,
                    message=f"Both threw {thrown}: each throws again."
                    if isinstance(black, int)
                    else f"Both cast {thrown}: white casts again first.",
                )
            )
            return
        if isinstance(white, tuple) and isinstance(black, tuple):
            total = (
                f"{sum(white)} to {sum(black)}"
                if outcome.starter == Colour.WHITE
                else (f"{sum(black)} to {sum(white)}")
            )
            self._publish(
                Opening(
                    starter=outcome.starter,
                    dice=(white, black),
                    message=f"{outcome.starter} casts higher ({total}) and throws both dice "
                    "to start.",
                )
            )
            return
        starter, cast_dice = outcome.starter, (white, black)
        if outcome.dice and not outcome.option:
            said = f"{starter} plays {white}-{black}."
            self._publish(Opening(starter=starter, dice=cast_dice, message=said, plays=True))
            self._start_play()
        elif outcome.option:
            self._publish(
                Opening(
                    starter=starter,
                    dice=cast_dice,
                    option=True,
                    message=f"{starter} may play {white}-{black} or throw both dice again.",
                )
            )
            self._start_play()
        else:
            said = f"{starter} throws both dice to start."
            self._publish(Opening(starter=starter, dice=cast_dice, message=said))

    def _roll(self, d1: int, d2: int) -> None:
        try:
            self.game.roll(d1, d2)
        except GameError as err:
            self._publish(Error(message=str(err)))
            return
        self._publish(Dice(player=self.game.turn, dice=(d1, d2)))
        self._start_play()

    def _start_play(self) -> None:
        self._build_tree()
        plays = self._plays.tree.plays if self._plays else []
        if self.game.phase == Phase.PLAY and len(plays) == 1 and not plays[0].steps:
            self._end_turn(plays[0])

    def _build_tree(self, plays: list[Play] | None = None) -> None:
        """The partial-play index of the roll: every legal play, or only ``plays``."""
        game = self.game
        assert game.dice is not None
        position = game.position
        self._expected = None
        with _collector_paused():  # tens of thousands of small tuples, none in a cycle
            self._plays = PlayIndex(
                position,
                *game.dice,
                self.layout,
                larger_die=game.profile.larger_die,
                plays=plays or position.legal_plays(*game.dice, profile=game.profile),
            )
        self._candidates = [(position, self._plays.tree.dice)]
        self._lifted = set()
        self._touched = None
        self._judged = None

    @property
    def target(self) -> Position | None:
        """The position the players are laying out, while they are."""
        return self._target

    @property
    def wanted(self) -> Sensed | None:
        """The men the players are asked to lay out, while they are (every location's
        ``(white, black)``, however many slots it has)."""
        return None if self._target is None else true_counts(self._target)

    @property
    def setting_up(self) -> bool:
        """Whether the players are still laying out a position (a new game or a restore)."""
        return self._target is not None

    def expect(self, play: Play) -> None:
        """The table's own turn (a game against the table): ``play``, a legal play of the
        dice thrown, is the only one right. Its men may be moved in any order (a hit man
        to the bar as usual); any other placement is ``not-the-tables-move``, and the turn
        ends by itself once the men stand as shown.

        Raises :class:`GameError` if no play is awaited or ``play`` is not legal here.
        """
        game = self.game
        if game.phase != Phase.PLAY or game.dice is None or self._plays is None:
            raise GameError("the table's play is shown only while a play is awaited")
        if play not in self._plays.tree.plays:
            raise GameError(f"{play} is not a legal play of {game.dice[0]}-{game.dice[1]}")
        self._build_tree([play])
        self._expected = play
        if self._board is not None:
            self._judged = None  # the board as it stands is judged again against the play

    @property
    def _tree(self) -> PlayTree | None:
        return self._plays.tree if self._plays is not None else None

    # -- judging ------------------------------------------

    def _judged_board(self) -> Sensed | None:
        board = self._board
        return board if board is not None and self._judged == key(board) else None

    def _judge(self, board: Sensed, now: int) -> None:
        if self._check_table and self._target is None:
            self._check_table = False
            last = self._candidates[0][0] if self._tree is not None else self.game.position
            shown = self._plays is not None and self._plays.shows_partial(board)
            if not shown and board != project(last, self.layout):
                self.set_up(last, restoring=True)
        if self._target is not None:
            self._judge_setup(board, now)
            return
        phase = self.game.phase
        if phase == Phase.PLAY and self._tree is not None:
            self._judge_play(board, now)
        elif phase in (Phase.ROLL, Phase.OPENING, Phase.OPENING_OPTION, Phase.DOUBLE_OFFERED):
            self._judge_waiting(board, now)

    def _judge_waiting(self, board: Sensed, now: int) -> None:
        board = self._masked(board)
        game = self.game
        expected = self._wrong if self._wrong is not None else game.position
        want = project(expected, self.layout)
        if board == want:
            self._clear_illegal()
            return
        mover = game.turn
        side = 0 if mover == WHITE else 1
        moved_mine = any(board[w][side] != want[w][side] for w in board)
        if moved_mine and game.phase in (Phase.ROLL, Phase.OPENING):
            self._illegal_event("throw-first", wording.throw_first(mover))
        elif game.phase == Phase.DOUBLE_OFFERED:
            self._illegal_event("answer-the-double", wording.answer_double_first(mover))
        else:
            self._illegal_event(
                "not-your-turn",
                f"It is {mover}'s turn; {mover.other}, put your men back.",
            )

    def _judge_play(self, board: Sensed, now: int) -> None:
        plays = self._plays
        assert plays is not None
        board = self._masked(board)
        self._odd = None
        found = plays.partials(board)
        if found and self._counts is not None:  # every partial play the counts may show
            for reading in self._readings:
                found += [p for p in plays.partials(reading) if p not in found]
        if found:
            self._progress(found, now)
            return
        odd = self._one_off(board)
        if odd is not None and self._off_a_full_point(*odd):
            odd = None  # a man moved from a point fuller than its slots: judged as a move
        if odd is not None:
            self._odd = (*odd, self._changed_at)
        if self._lift_verdict is not None and self._lift_verdict[0] == key(board):
            self._illegal_event(*self._lift_verdict[1])  # a man lifted that cannot move
            return
        if plays.in_motion(board):
            # a man in the hand, or a hit man on its way to the bar: no verdict yet
            shared = [w for w in board if w[0].isdigit() and min(board[w]) > 0]
            if shared:
                adv = self.game.turn.other
                self._notice(
                    "hit-to-bar",
                    f"Put {adv}'s hit man from {describe(shared[0], self.game.turn)} "
                    f"on {adv}'s bar.",
                )
            return
        if odd is not None:
            return  # a man off-centre or a switch misreading: words, after a while
        assert self.game.dice is not None
        verdict = diagnosis.diagnose(
            board, self._candidates[0][0], plays, self.game.dice, self.game.profile
        )
        self._illegal_event(*verdict)

    def _masked(self, board: Sensed) -> Sensed:
        """The board with the readings of misreading switches put right; a switch that
        reads right again (the board fits the game without its correction) is trusted."""
        if not self._mask:
            return board
        plays = self._plays
        if plays is not None:
            fits = plays.shows_partial(board) or plays.in_motion(board)
        else:
            fits = board == project(self._reference(), self.layout)
        if fits:
            self._mask = {}
            return board
        fixed = dict(board)
        for where, (dw, db) in self._mask.items():
            w, b = fixed[where]
            fixed[where] = (max(w + dw, 0), max(b + db, 0))
        return fixed

    def _one_off(self, board: Sensed) -> tuple[str, tuple[int, int]] | None:
        """The one location where the board differs from the last legal one, and the men
        ``(white, black)`` to add there (one, or minus one) that would make the board a
        partial play. (A man moved wrongly changes two locations: not this.)"""
        plays = self._plays
        assert plays is not None
        base = project(self._candidates[0][0], self.layout)
        changed = [where for where in board if board[where] != base[where]]
        if len(changed) != 1:
            return None
        found = []
        for where in changed:
            w, b = board[where]
            for change in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                pair = (w + change[0], b + change[1])
                if min(pair) < 0 or sum(pair) > self.layout.slots(where):
                    continue
                fixed = {**board, where: pair}
                if plays.shows_partial(fixed):
                    if fixed == base:
                        return where, change
                    found.append((where, change))
        return found[0] if found else None

    def _off_a_full_point(self, where: str, change: tuple[int, int]) -> bool:
        """Whether one man of the mover more at ``where`` (``change`` takes him away) may
        have come from a point holding more men than it has slots, whose reeds do not see
        one lifted: then it is a man moved, not a switch misreading."""
        mover = self.game.turn
        if change[0 if mover == WHITE else 1] != -1:
            return False
        base = self._candidates[0][0]
        return any(
            base.count(mover, p) > self.layout.slots(location(mover, p)) for p in range(1, 26)
        )

    def _watch_still(self, now: int) -> None:
        """A board one man off the game that stays so: a man off-centre is named after
        ``still_ms``; after ``fault_ms`` with no hand near, the switch is reported once as
        misreading and the referee follows the game there."""
        if self._odd is None or self._plays is None:
            return
        where, change, since = self._odd
        mover = self.game.turn
        still = now - since
        if still >= self.config.still_ms and sum(change) > 0:
            self._notice("off-centre", self._unread_words(), once_for=(where, since))
        if still >= self.config.fault_ms:
            self._odd = None
            self._notice("switch-fault", wording.reed_fault(describe(where, mover)))
            dw, db = self._mask.get(where, (0, 0))
            self._mask[where] = (dw + change[0], db + change[1])
            self._judged = None

    def _unread_words(self) -> str:
        """What to do about the man the table does not read (``_odd``): in the hand, or
        off his reed, the same words are right."""
        assert self._odd is not None
        where, change, _ = self._odd
        mover = self.game.turn
        own = change[0 if mover == WHITE else 1] > 0
        colour = mover if own else mover.other
        return wording.off_centre(describe(where, mover), own=own, colour=colour)

    def _progress(self, found: list[Position], now: int) -> None:
        tree = self._tree
        assert tree is not None
        targets = set(found)
        reached: list[Candidate] = []
        for position, left in self._candidates:
            for state in self._reach(position, left, targets):
                if state not in reached:
                    reached.append(state)
        if not reached:  # men were moved back: any way of reaching the board will do
            for position in found:
                node = tree.node(position)
                reached += [(position, left) for left in node.dice_left] if node else []
        if self._touched is not None:
            src, before = self._touched
            mover = self.game.turn
            if all(c.count(mover, src) >= before.count(mover, src) for c, _ in reached):
                self._illegal_event("touch-move", wording.touch_move(src))
                return
            self._touched = None
        self._candidates = reached
        self._lifted = set()
        self._lift_reported = None
        self._clear_illegal()
        if any(tree.is_complete(c) for c, _ in reached):
            self._complete_since = now
            if self._expected is not None:  # the table's play stands as shown: its turn ends
                self._finish_if_complete()

    def _reach(self, start: Position, left: tuple[int, ...], targets: set[Position]) -> list[Any]:
        """The (position, dice left) in ``targets`` reached from ``start`` by steps of the dice
        left; when a lift was seen, by a way that moves a man from a lifted point."""
        tree = self._tree
        assert tree is not None
        found = [(start, left)] if start in targets else []
        frontier = [(start, left, False)]
        seen = {(start, left)}
        while frontier:
            here, dice, used_lift = frontier.pop()
            for step, there in tree.next_steps(here):
                if step.die not in dice:
                    continue
                rest = list(dice)
                rest.remove(step.die)
                state = (there, tuple(rest))
                lifted = used_lift or not self._lifted or step.src in self._lifted
                if state in seen:
                    continue
                seen.add(state)
                if there in targets and lifted:
                    found.append(state)
                frontier.append((there, state[1], lifted))
        return found

    def _watch_lift(self, board: Sensed) -> None:
        """Report where a lifted man may go, at once, while it is in the hand."""
        plays = self._plays
        if self.game.phase != Phase.PLAY or plays is None or self._target is not None:
            return
        tree = plays.tree
        mover = self.game.turn
        side = 0 if mover == WHITE else 1
        options = []
        bases = [c for c, _ in self._candidates]
        for where in board:
            w, b = board[where]
            if w + b >= self.layout.slots(where):
                continue
            fuller = dict(board)
            fuller[where] = (w + 1, b) if side == 0 else (w, b + 1)
            for base in plays.partials(fuller):
                # prefer the last judged play, then the fewest steps taken
                node = tree.node(base)
                left = max(len(d) for d in node.dice_left) if node else 0
                options.append(((base not in bases, -left), where, base, fuller))
        if options:
            _, where, base, want = min(options, key=lambda o: o[0])
            src = point_of(mover, where)
            report = (key(want), src)
            if report == self._lift_reported:
                return
            self._lift_reported = report
            carrying = bool(self._lifted)  # a man already in the hand: two are carried
            self._lifted.add(src)
            dests = tree.destinations(base, src)
            self._publish(
                Destinations(
                    src=name(src),
                    to=tuple(name(d) for d in dests),
                    player=mover,
                    table={"from": where, "to": [location(mover, d) for d in dests]},
                    base=base.position_id(),
                )
            )
            moved_here = base.count(mover, src) > self.game.position.count(mover, src)
            # another reading (two men in the hand, a man in passing) may let it move
            stuck = all(
                not tree.destinations(b, point_of(mover, w)) for _, w, b, _ in options
            )
            if not dests and not moved_here and stuck and not carrying:
                assert self.game.dice is not None
                # said once the hand has settled with the man still lifted
                self._lift_verdict = (key(board), diagnosis.cannot_move(base, src, self.game.dice))
            elif self.config.mode == Mode.LAWS and self._touched is None:
                self._touched = (src, base)

    # -- ending a turn ------------------------------------------

    def _finish_if_complete(self) -> None:
        tree = self._tree
        assert tree is not None
        complete = [c for c, _ in self._candidates if tree.is_complete(c)]
        if not complete:
            assert self._plays is not None and self.game.dice is not None
            self._illegal_event(*diagnosis.unfinished(self._plays, self.game.dice), again=True)
            return
        plays = []
        for c in complete:
            play = tree.play_for(c)
            if play is not None and play not in plays:
                plays.append(play)
        if len(plays) == 1:
            self._end_turn(plays[0])
            return
        self._choices = plays
        self._publish(
            Choose(
                player=self.game.turn,
                options=tuple(str(p) for p in plays),
                message="The switches cannot tell these plays apart: which did you make?",
            )
        )

    def _end_turn(self, play: Play) -> None:
        game = self.game
        mover, dice = game.turn, game.dice
        assert dice is not None
        game.play(play)
        self._publish(
            Played(
                player=mover,
                dice=dice,
                move=str(play),
                position=game.position.position_id(),
                play=play,
            )
        )
        self._after_turn()

    def _after_turn(self) -> None:
        game = self.game
        self._plays = None
        self._expected = None
        self._candidates = [(game.position, ())]
        self._illegal = None
        self._judged = None
        self._complete_since = None
        self._lift_reported = None
        self._lift_verdict = None
        self._choices = []
        if game.result is not None:
            winner, result, points = game.result
            self._publish(GameOver(winner=winner, result=result.value, points=points))

    def _offer_wrong_move(self) -> None:
        """Laws mode: the turn ends on a wrong move, which stands unless the adversary objects."""
        assert self._board is not None and self.game.dice is not None
        self._wrong = laws.shown_position(
            self._board, self._candidates[0][0], self.layout, self.game.turn
        )
        if self._bearing_penalty():
            return
        self._publish(
            WrongMove(
                player=self.game.turn,
                reason=self._illegal[0] if self._illegal else "unknown",
                message=f"{self.game.turn.other}: that move breaks the rules. Accept it, or "
                "ask for it to be put right before you throw.",
                law=laws.WRONG_MOVE_LAW,
            )
        )

    def _bearing_penalty(self) -> bool:
        """Laws mode: men borne off against the laws go to the bar; the rest stands."""
        assert self._wrong is not None
        mover = self.game.turn
        penalty = laws.bearing_penalty(self._wrong, self.game.position, self.game.profile)
        if penalty is None:
            return False
        self._wrong, borne = penalty
        men_text = "man borne off goes" if borne == 1 else f"{borne} men borne off go"
        self._publish(
            Penalty(
                player=mover,
                message=f"{mover}: the {men_text} on your bar and must enter again.",
                law=laws.PENALTY_LAW,
            )
        )
        penalised = self._wrong
        self._wrong_stands()
        self.set_up(penalised.swap_turn(), restoring=True)
        return True

    def _wrong_stands(self) -> None:
        wrong = self._wrong
        assert wrong is not None and self.game.dice is not None
        self._wrong = None
        turn = self.game.let_stand(wrong.swap_turn())
        self._publish(
            Played(
                player=turn.colour,
                dice=turn.dice,
                move="",
                accepted=True,
                position=turn.play.result.position_id(),
            )
        )
        self._after_turn()

    # -- events ------------------------------------------

    def _illegal_event(self, reason: str, message: str, again: bool = False) -> None:
        """One alarm per wrong placement; ``again``: answer a press with it once more."""
        self._complete_since = None
        if self._expected is not None:
            reason = "not-the-tables-move"
            message = f"That is not the table's move: move its men as shown, {self._expected}."
        if self._illegal == (reason, message) and not again:
            return
        self._illegal = (reason, message)
        self._lift_reported = None  # the man lifted again: where it may go, shown again
        self._publish(
            Illegal(
                reason=reason,
                message=message,
                law=law(reason),
                player=self.game.turn,
                table=self._offending(),
            )
        )

    def _offending(self) -> str | None:
        """The table location to mark: where a man was wrongly put down, else where one was
        taken from (the last legal board compared with the one on the table)."""
        board = self._board
        if board is None:
            return None
        base = self._candidates[0][0] if self._tree is not None else self.game.position
        want = project(base, self.layout)
        changed = [w for w in board if board[w] != want[w]]
        gained = [w for w in changed if sum(board[w]) > sum(want[w])]
        return (gained + changed)[0] if changed else None

    def _notice(
        self, about: str, message: str, once: bool = False, once_for: object = None
    ) -> None:
        """A plain word that is no verdict: why nothing happens yet, or what to do next.
        ``once``: not again until its cause goes; ``once_for``: once for that cause."""
        if once and about in self._noticed:
            return
        if once_for is not None:
            if (about, once_for) in self._noticed:
                return
            self._noticed.add((about, once_for))
        self._noticed.add(about)
        self._publish(Notice(about=about, message=message))

    def _clear_illegal(self) -> None:
        if self._illegal is not None:
            self._illegal = None
            self._publish(Legal(player=self.game.turn))

    def _publish(self, event: Event) -> None:
        self._emit_cb(event)


def _same_men(board: Sensed, reference: Sensed) -> bool:
    """Whether each side has as many men on ``board`` as on ``reference``."""
    return all(
        sum(pair[i] for pair in board.values()) == sum(pair[i] for pair in reference.values())
        for i in (0, 1)
    )
