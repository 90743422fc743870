"""The referee of Russian backgammon: sensed boards into the Russian game's events.

Russian backgammon (:mod:`kiosk.rules.russian`) is played on the same table: every man
starts in its side's tray (the tray holds the men in hand, and later the men borne off:
a side bears off only once all its men are entered, so the count tells which), both
sides enter in the same table and move the same way round. On the table the common track
runs from location ``24`` (its point 1) to location ``1`` (its point 24), so the common
home is the table's points 1-6.

The referee judges each part of a throw on its own: the thrown dice, and after a doublet
with the bonus the doublet played four times and then its opposite faces four times, each
ended with Done (``play`` events, the bonus parts with ``"bonus": true``), and then
``throw-again``; Cady's deuce-ace waits for :meth:`RussianReferee.choose_doublet`. A man
put where the part does not allow is ``illegal`` with the reason and the books' rule.

>>> from kiosk.rules.russian import RUSSIAN_HAND
>>> table_location(WHITE, RUSSIAN_HAND), table_location(BLACK, 1), table_location(BLACK, 24)
('off-white', '24', '1')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.events import (
    MISSING,
    Destinations,
    Dice,
    Error,
    Event,
    GameOver,
    Illegal,
    Legal,
    Message,
    Notice,
    PartToPlay,
    Played,
    Setup,
    SetupOk,
    ThrowAgain,
)
from kiosk.referee import wording
from kiosk.referee.laws import RUSSIAN_LAWS
from kiosk.referee.referee import RefereeConfig
from kiosk.rules import BLACK, WHITE, Colour
from kiosk.rules.russian import (
    POINTS,
    RUSSIAN_BAR,
    RUSSIAN_HAND,
    RUSSIAN_OFF,
    RussianPlay,
    RussianPosition,
    RussianProfile,
    RussianTurn,
    format_russian,
    single_steps,
)
from kiosk.table import LOCATIONS, DieReading, TableLayout, TableReading
from kiosk.table.sensing import Occupancy, Sensed, cap, colour_in, key


def table_location(colour: Colour, where: int) -> str:
    """The table location of a Russian location of ``colour``'s (hand and off: its tray)."""
    if where in (RUSSIAN_HAND, RUSSIAN_OFF):
        return f"off-{colour}"
    if where == RUSSIAN_BAR:
        return f"bar-{colour}"
    return str(POINTS + 1 - where)


def _track(where: str, colour: Colour) -> int:
    """A table location of ``colour``'s men on the common track (0: the tray, in hand)."""
    if where.startswith("off-"):
        return 0
    if where.startswith("bar-"):
        return 0
    return POINTS + 1 - int(where)


def _words(point: int) -> str:
    """A point of the common track in words (past 24: borne off)."""
    return "off" if point > POINTS else "the tray" if point <= 0 else f"point {point}"


def russian_board(position: RussianPosition) -> Sensed:
    """Every table location's ``(white, black)`` men in a Russian position, uncapped."""
    board: Sensed = {where: (0, 0) for where in LOCATIONS}
    for colour in (WHITE, BLACK):
        counts = [(RUSSIAN_HAND, position.hand[colour]), (RUSSIAN_BAR, position.bar[colour])]
        counts += [(RUSSIAN_OFF, position.off[colour])]
        counts += [(p, position.points[colour][p - 1]) for p in range(1, POINTS + 1)]
        for where, n in counts:
            if n:
                spot = table_location(colour, where)
                w, b = board[spot]
                board[spot] = (w + n, b) if colour == WHITE else (w, b + n)
    return board


class RussianReferee:
    """Watches one Russian game at the table (``profile``: a book's rules)."""

    def __init__(
        self,
        profile: RussianProfile,
        layout: TableLayout | None = None,
        config: RefereeConfig | None = None,
        emit: Callable[[Event], None] | None = None,
    ) -> None:
        self.profile = profile
        self.layout = layout or TableLayout()
        self.config = config or RefereeConfig()
        self._emit_cb = emit or (lambda event: None)
        self.position = RussianPosition.start()
        self.turn: RussianTurn | None = None
        self._target: RussianPosition | None = None
        self._board: Sensed | None = None
        self._changed_at = 0
        self._judged: tuple[Any, ...] | None = None
        # boards a part in play may show on the way
        self._partials: dict[tuple[Any, ...], list[Any]] = {}
        # boards searched: whether they lead to a play
        self._leads: dict[tuple[Any, ...], bool] = {}
        self._complete: dict[tuple[Any, ...], RussianPlay] = {}
        self._illegal: tuple[str | None, str] | None = None  # the wrong placement said
        self._faces: tuple[int, int] | None = None
        self._faces_since = 0
        self._armed = True
        self._over = False
        # the board and place a lifted man was shown for
        self._lift_shown: tuple[Any, ...] | None = None
        self._counts: Occupancy | None = None  # the men counted by a table blind to colour
        # partial boards by their counts
        self._by_counts: dict[tuple[int, ...], tuple[Any, ...]] = {}

    # -- what the runner asks --------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has been won."""
        return self._over

    @property
    def setting_up(self) -> bool:
        """Whether the men are still being laid out."""
        return self._target is not None

    @property
    def wanted(self) -> Sensed | None:
        """The men the players are asked to lay out, while they are (every location's
        ``(white, black)``, however many slots it has)."""
        return None if self._target is None else russian_board(self._target)

    def set_up(self, position: RussianPosition) -> None:
        """Have the players lay ``position`` out (every man in its tray for a new game)."""
        self.position, self.turn, self._target, self._over = position, None, position, False
        self._partials, self._complete, self._by_counts = {}, {}, {}
        self._judged = None

    def reconnected(self) -> None:
        """The table came back after a pulled cable or a restart: judge its board afresh."""
        self._judged = None

    def sense(self, reading: TableReading, now: int) -> None:
        """A settled reading of the table: judged by its colours where the table senses
        them, else by its counts, each point's men coloured as the part being played
        leaves them (a point holds one side's men at a time)."""
        if reading.colours is not None:
            self._counts = None
            self._look(dict(reading.colours), now)
        else:
            self._counts = dict(reading.counts)
            self._look(self._coloured(self._counts), now)

    def peek(self, reading: TableReading) -> Sensed:
        """The board ``reading`` shows as the referee would colour it (nothing changes)."""
        if reading.colours is not None:
            return dict(reading.colours)
        return self._coloured(dict(reading.counts))

    @property
    def seen(self) -> Sensed | None:
        """The board as the referee judges it (coloured from the game on a table that
        senses only where men are); None before the first reading."""
        return self._board

    def _look(self, board: Sensed, now: int) -> None:
        if board != self._board:
            self._board, self._changed_at = board, now

    def _coloured(self, counts: Occupancy) -> Sensed:
        """Men counted on a table that cannot see colour, given their colours: a board a
        legal part may show on the way if one has these counts, else each point as the
        last known board had it (the trays and bars are one side's each)."""
        found = self._by_counts.get(tuple(counts.get(w, 0) for w in LOCATIONS))
        if found is not None:
            return dict(zip(LOCATIONS, found, strict=True))
        if self._target is not None:
            reference, mover = self._target, self._target.turn
        elif self.turn is not None:
            reference, mover = self.turn.position, self.turn.player
        else:
            reference, mover = self.position, self.position.turn
        return colour_in(counts, cap(russian_board(reference), self.layout), mover)[0]

    def dice(self, wells: tuple[DieReading, DieReading], now: int) -> None:
        """What the two dice wells read: a throw once both faces have rested."""
        first, second = wells[0].face, wells[1].face
        showing = None if first is None or second is None else (first, second)
        if showing != self._faces:
            self._faces, self._faces_since = showing, now
            if showing is None:
                self._armed = True
        self._settle(now)

    def tick(self, now: int) -> None:
        """Time passes: count a rested throw, judge the board once it has settled."""
        self._settle(now)
        if self._board is None or now - self._changed_at < self.config.settle_ms:
            return
        if self._counts is not None:  # colours follow the part being played now
            self._board = self._coloured(self._counts)
        k = key(self._board)
        if k != self._judged:
            self._judged = k
            self._judge(self._board)

    def throw(self, d1: int, d2: int, now: int = 0) -> None:
        """The dice thrown by the side on roll (from any source: wells, buttons, digital)."""
        if self._over:
            self._publish(Error(message="The game is over."))
            return
        if self._target is not None:
            self._notice("setup-first", "Lay every man in its tray first: then throw.")
            return
        if self.turn is not None and not self.turn.over:
            self._publish(
                Error(message=f"{self.position.turn} has not finished the throw: press Done first.")
            )
            return
        mover = self.position.turn
        self.turn = RussianTurn(self.position, d1, d2, self.profile)
        self._publish(Dice(player=mover, dice=(d1, d2)))
        self._next_part()

    def choose_doublet(self, n: int) -> None:
        """Cady's deuce-ace: the caster names the doublet he plays (with its opposite)."""
        turn = self.turn
        if turn is None or not turn.needs_choice:
            self._publish(Error(message="No doublet is to be chosen now (only after a 2-1)."))
            return
        try:
            turn.choose_doublet(n)
        except ValueError as err:
            self._publish(Error(message=str(err)))
            return
        self._next_part()

    def press_done(self, colour: Colour | None, now: int) -> None:
        """Done: the part on the board is played (it must be a legal play of it)."""
        turn = self.turn
        if self._target is not None:
            self._notice("setup-first", "Lay every man in its tray first.")
            return
        if turn is None or turn.over or turn.needs_choice:
            self._notice("done-not-now", "There is no part to end: throw the dice.")
            return
        if colour is not None and colour != turn.player:
            self._notice("done-not-now", f"{colour}: it is {turn.player}'s part, not yours.")
            return
        board = self._board or {}
        play = self._complete.get(key(self._normalised(board)))
        if play is None:
            mover = turn.player
            if self._first_two() and turn.position.hand[mover] >= 2:
                self._illegal_event(
                    "enter-two",
                    "Your first throw must enter two men from the tray.",
                    RUSSIAN_LAWS["enter-two"],
                )
            else:
                self._illegal_event(
                    "incomplete",
                    f"That is not the whole of {self._part_words()}: move every die you can.",
                    RUSSIAN_LAWS["no-die"],
                )
            return
        self._played(play)

    # -- judging ---------------------------------------------------------------------------

    def _settle(self, now: int) -> None:
        if self._faces is None or not self._armed:
            return
        if now - self._faces_since < self.config.dice_rest:
            return
        self._armed = False
        self.throw(*self._faces)

    def _judge(self, board: Sensed) -> None:
        if self._target is not None:
            self._judge_setup(board)
            return
        if self.turn is None or not self._partials:
            return
        mover = self.turn.player
        side = 0 if mover == WHITE else 1
        normal = self._normalised(board)
        k = key(normal)
        if k in self._partials:
            if self._illegal is not None:
                self._illegal = None
                self._publish(Legal(player=mover))  # put right: the red card goes
            if k in self._complete and self._complete[k].steps:
                said = f"You have played {self._part_words()}: press Done."
                self._publish(Message(to=str(mover), text=said))
            return
        start = cap(russian_board(self.turn.position), self.layout)
        men = sum(v[side] for v in normal.values())
        if men < sum(v[side] for v in start.values()):
            self._lifted(normal, start, mover)  # a man in the hand: judged when put down
            return
        self._explain(normal, start, mover)

    def _judge_setup(self, board: Sensed) -> None:
        assert self._target is not None
        want = cap(russian_board(self._target), self.layout)
        if key(board) == key(want):
            self._target = None
            self._publish(SetupOk(restored=False))
            self._publish(
                Message(
                    to="both",
                    text="Both sides enter on points 1 to 6 (marked on the board) and race "
                    "round to points 19 to 24, the shared home. "
                    f"{self.position.turn.name.capitalize()} throws first.",
                )
            )
            self._build()
            return
        for where in LOCATIONS:
            have, need = board.get(where, (0, 0)), want[where]
            if have != need:
                self._publish(
                    Setup(
                        corrections=({"table": where, "have": have, "want": need},),
                        message="Lay every man in its tray: fifteen white, fifteen black."
                        if self.position == RussianPosition.start()
                        else f"Location {where} should hold {need[0]} white and {need[1]} black.",
                    )
                )
                return

    def _normalised(self, board: Sensed) -> Sensed:
        """The board with any adverse man still sharing a point with the mover's put on his
        bar (a hit whose blot has not yet been lifted off)."""
        if self.turn is None:
            return board
        mover = self.turn.player
        out = dict(board)
        other = f"bar-{mover.other}"
        for where, (w, b) in board.items():
            mine, theirs = (w, b) if mover == WHITE else (b, w)
            if where.isdigit() and mine and theirs == 1:
                out[where] = (mine, 0) if mover == WHITE else (0, mine)
                ow, ob = out.get(other, (0, 0))
                out[other] = (ow, ob + 1) if mover == WHITE else (ow + 1, ob)
        return out

    def _explain(self, board: Sensed, start: Sensed, mover: Colour) -> None:
        """An illegal placement: where, why in the Russian rules' words, and what to do."""
        side = 0 if mover == WHITE else 1
        added = [w for w in LOCATIONS if board.get(w, (0, 0))[side] > start[w][side]]
        taken = [w for w in LOCATIONS if board.get(w, (0, 0))[side] < start[w][side]]
        where = added[0] if added else None
        me = self.turn.position if self.turn else self.position
        src = _track(taken[0], mover) if len(taken) == 1 else None
        dst = _track(where, mover) if where is not None else None
        moved = dst - src if src is not None and dst is not None and dst > src else None
        reason, point, holders = "no-die", None, 0
        if me.bar[mover] and where != f"bar-{mover}" and board[f"bar-{mover}"][side]:
            reason = "bar-first"
        elif where is not None and where.isdigit():
            point = POINTS + 1 - int(where)
            holders = me.points[mover.other][point - 1]
            if holders >= 2:
                reason = "blocked"
            elif self._first_two() and me.hand[mover] >= 2:
                reason = "enter-two"
        elif where == f"off-{mover}" and (me.hand[mover] or any(me.points[mover][:18])):
            reason = "not-home"
        if self._illegal == (where, reason):
            return
        self._illegal = (where, reason)
        part = self.turn.part.dice if self.turn is not None and self.turn.part else ()
        text = wording.russian_refusal(
            reason,
            part,
            moved=moved,
            point=point,
            holders=holders,
            adversary=str(mover.other),
            dests=[_words(d) for d in self._destinations(src)] if src is not None else (),
        )
        self._illegal_event(reason, text, RUSSIAN_LAWS[reason], where)

    def _destinations(self, src: int) -> list[int]:
        """Where a man of the mover's from ``src`` (on the common track; 0: the tray) may go
        with a number of the part being played, in the position it started from."""
        turn = self.turn
        if turn is None or turn.part is None:
            return []
        found = []
        for die in sorted(set(turn.part.dice)):
            for play in single_steps(turn.position.with_turn(turn.player), die):
                (step,) = play.steps
                here = 0 if step.src == RUSSIAN_HAND else step.src
                if here == src and step.dst not in found:
                    found.append(step.dst)
        return sorted(found)

    def _lifted(self, board: Sensed, start: Sensed, mover: Colour) -> None:
        """A man in the hand: where it may go, shown at once (table locations too)."""
        side = 0 if mover == WHITE else 1
        taken = [w for w in LOCATIONS if board.get(w, (0, 0))[side] < start[w][side]]
        if len(taken) != 1 or self._lift_shown == (key(board), taken[0]):
            return
        self._lift_shown = (key(board), taken[0])
        src = _track(taken[0], mover)
        dests = self._destinations(src)
        self._publish(
            Destinations(
                src=_words(src),
                to=tuple(_words(d) for d in dests),
                player=mover,
                table={
                    "from": taken[0],
                    "to": [table_location(mover, RUSSIAN_OFF if d > POINTS else d) for d in dests],
                },
            )
        )

    def _first_two(self) -> bool:
        turn = self.turn
        return bool(
            turn and self.profile.first_throw_enters_two and turn.first_throw and turn.index == 0
        )

    # -- the parts of a throw --------------------------------------------------------------

    def _build(self) -> None:
        """Index every board a legal play of the part may show on the way (any order)."""
        self._partials, self._complete, self._illegal = {}, {}, None
        self._by_counts = {}
        turn = self.turn
        if turn is None or turn.over or turn.needs_choice:
            return
        plays = turn.legal_plays()
        for play in plays:
            self._complete[key(cap(russian_board(play.result), self.layout))] = play
        self._leads = {}
        for k in self._complete:
            self._partials[k] = []
        start = turn.position.with_turn(turn.player)
        self._partials.pop(key(cap(russian_board(start), self.layout)), None)
        self._walk(start, list(turn.part.dice) if turn.part is not None else [])
        self._partials[key(cap(russian_board(start), self.layout))] = []
        self._index_counts()

    def _index_counts(self) -> None:
        """The part's boards by their counts alone, for a table blind to colour."""
        self._by_counts = {}
        for k in [*self._complete, *self._partials]:
            self._by_counts.setdefault(tuple(w + b for w, b in k), k)

    def _walk(self, position: RussianPosition, dice: list[int]) -> bool:
        """Index the boards single steps of the part's dice lead to on the way to a legal
        play of it (hits included); whether ``position`` leads to one."""
        here = key(cap(russian_board(position), self.layout))
        if here in self._partials:
            return True
        if here in self._leads:
            return self._leads[here]
        found = here in self._complete
        for die in sorted(set(dice)):
            rest = list(dice)
            rest.remove(die)
            for step in single_steps(position, die):
                found = self._walk(step.result, rest) or found
        self._leads[here] = found
        if found:
            self._partials[here] = []
        return found

    def _next_part(self) -> None:
        """Say what is to be played now, or end the turn."""
        turn = self.turn
        assert turn is not None
        self._build()
        if turn.needs_choice:
            self._notice(
                "choose-doublet",
                "Deuce-ace: choose any doublet; you play it, then its opposite, then throw "
                "again (Cady, Russian Backgammon: the deuce-ace).",
            )
            return
        if turn.over:
            self._end_turn()
            return
        part = turn.part
        if part is not None:
            plays = turn.legal_plays()
            if len(plays) == 1 and not plays[0].steps:
                self._played(plays[0])  # nothing can be played: the part is lost
                return
            self._publish(
                PartToPlay(
                    player=turn.player,
                    dice=part.dice,
                    bonus=part.bonus,
                    message=f"Now {self._part_words()}" + (" (the bonus)." if part.bonus else "."),
                )
            )

    def _part_words(self) -> str:
        part = self.turn.part if self.turn else None
        return part.describe() if part else "the throw"

    def _played(self, play: RussianPlay) -> None:
        turn = self.turn
        assert turn is not None
        part = turn.part
        mover = turn.player
        try:
            turn.play(play)
        except ValueError as err:
            self._publish(Error(message=str(err)))
            return
        self._publish(
            Played(
                player=mover,
                dice=(part.dice[0], part.dice[1]) if part else turn.roll,
                move=format_russian(play.steps),
                position=(turn.next_position() if turn.over else turn.position).notation(),
                bonus=True if part is not None and part.bonus else MISSING,
                variant="russian",
            )
        )
        if turn.lost:
            lost = ", ".join(p.describe() for p in turn.lost)
            self._notice("part-lost", f"Not played in full: {lost} and the new throw are lost.")
        self._next_part()

    def _end_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        self.position = turn.next_position()
        winner = self.position.winner()
        if winner is not None:
            self._over = True
            points = self.position.score()
            result = {1: "single", 2: "gammon", 3: "backgammon"}[points]
            self._publish(GameOver(winner=winner, result=result, points=points))
            return
        if turn.throws_again:
            self._publish(ThrowAgain(player=turn.mover))

    # -- events ----------------------------------------------------------------------------

    def _illegal_event(self, reason: str, message: str, law: str, where: str | None = None) -> None:
        mover = self.turn.player if self.turn else self.position.turn
        table = where if where is not None else MISSING
        self._lift_shown = None  # the man lifted again: where it may go, shown again
        self._publish(Illegal(reason=reason, message=message, law=law, player=mover, table=table))

    def _notice(self, about: str, message: str) -> None:
        self._publish(Notice(about=about, message=message))

    def _publish(self, event: Event) -> None:
        self._emit_cb(event)
