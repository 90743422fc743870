"""The referee: judges every settled picture of the table against the legal plays.

It is fed sensed boards, dice readings, button presses and the time, and it
reports what it decides as events (plain dicts with an ``"event"`` key) to one
callback. It holds no threads and does no I/O, so it runs the same under the
real link, the simulated table and the tests.

Points in events are written from the mover's side (``"8"``, ``"bar"``,
``"off"``); ``"table"`` fields name the physical locations for the display.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from kiosk.link import DieReading, TableLayout
from kiosk.referee.reasons import law
from kiosk.rules import (
    BAR,
    OFF,
    WHITE,
    Colour,
    Game,
    GameError,
    Phase,
    Play,
    PlayTree,
    Position,
)
from kiosk.table.sensing import (
    Sensed,
    cap,
    describe,
    key,
    location,
    point_of,
    project,
    true_counts,
)

Event = dict
Candidate = tuple[Position, tuple[int, ...]]


class Mode(StrEnum):
    """How strictly the referee applies the laws."""

    TEACHING = "teaching"  # every illegal move must be put right at once
    LAWS = "laws"  # the books' laws: touch-move, and a wrong move stands if accepted


@dataclass(frozen=True)
class RefereeConfig:
    """Timing and strictness."""

    settle_ms: int = 300  # a board must stay unchanged this long before it is judged
    auto_done_ms: int | None = None  # end a complete play after it stays settled this long
    mode: Mode = Mode.TEACHING


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


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
        self._changed_at = 0
        self._judged: tuple | None = None
        self._target: Position | None = None  # set while the board is being set up or restored
        self._restoring = False
        self._illegal: tuple[str, str] | None = None
        self._tree: PlayTree | None = None
        self._index: dict[tuple, list[Position]] = {}
        self._mine: set[tuple] = set()  # the mover's men in every partial play
        self._theirs: set[tuple] = set()  # the adversary's men, hit men on their way included
        self._done: dict[tuple, set[tuple]] = {}  # complete plays: the mover's men -> adversary's
        self._candidates: list[Candidate] = []  # partial plays the board may show, dice left
        self._lifted: set[int] = set()
        self._lift_reported: tuple | None = None
        self._touched: tuple[int, Position] | None = None  # laws mode: a man that must be played
        self._choices: list[Play] = []
        self._wrong: Position | None = None
        self._dice_armed = True
        self._cocked: tuple[bool, bool] = (False, False)
        self._complete_since: int | None = None
        self._check_table = False  # after a reconnect: restore the table if it was disturbed
        self._last_guidance: list[dict] | None = None

    # -- inputs ------------------------------------------

    def set_up(self, position: Position, restoring: bool = False) -> None:
        """Guide the players to lay out ``position`` (a new game, a lesson, or a restore)."""
        self._target = position
        self._restoring = restoring
        self._judged = None
        self._last_guidance = None

    def board(self, board: Sensed, now: int) -> None:
        """A settled frame from the table's firmware (already debounced per switch)."""
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

    def dice(self, wells: tuple[DieReading, DieReading], now: int) -> None:
        """What the two dice wells read."""
        cocked = (wells[0] == DieReading.COCKED, wells[1] == DieReading.COCKED)
        if cocked != self._cocked:
            self._cocked = cocked
            for well, is_cocked in enumerate(cocked, start=1):
                if is_cocked:
                    self._emit(
                        "cocked",
                        well=well,
                        message=f"Die {well} is not lying flat: throw both dice again.",
                        law="A cocked die makes the throw void (Cady law 4; Foster law 6).",
                    )
        faces = (wells[0].face, wells[1].face)
        if None in faces:
            self._dice_armed = True
            return
        if not self._dice_armed or self._target is not None:
            return
        self._dice_armed = False
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
            self._emit(
                "error",
                message=f"{self.game.turn} has not finished playing: "
                "press Done before the next throw.",
            )
        elif phase == Phase.OVER:
            self._emit("error", message="The game is over: start a new one from the menu.")

    def tick(self, now: int) -> None:
        """Time passes: judge the board once it has settled."""
        if self._board is None:
            return
        if now - self._changed_at < self.config.settle_ms:
            return
        k = key(self._board)
        if self._judged != k:
            self._judged = k
            self._judge(self._board, now)
        auto = self.config.auto_done_ms
        if (
            auto is not None
            and self._complete_since is not None
            and now - self._complete_since >= auto
        ):
            self.press_done(None, now)

    def press_done(self, colour: Colour | None, now: int) -> None:
        """A player's Done button (``None``: whoever is on roll)."""
        if colour is not None and colour != self.game.turn:
            if self.game.phase == Phase.PLAY:
                self._illegal_event("not-your-turn", f"It is {self.game.turn}'s turn to play.")
            return
        if self.game.phase != Phase.PLAY or self._board is None:
            return
        if self._board != self._judged_board():
            self._judged = key(self._board)
            self._judge(self._board, now)
        k = key(self._board)
        if k in self._index:
            self._finish_if_complete()
        elif self._in_motion(self._board):
            mover = self.game.turn
            adv = mover.other
            wanted = self._done.get(_part(self._board, mover), set())
            if wanted and _part(self._board, adv) not in wanted:
                self._illegal_event(
                    "hit-not-on-bar", f"Put the hit man on {adv}'s bar before you finish."
                )
            else:
                self._illegal_event("must-use-both", "Finish your move: put the man down.")
        elif self.config.mode == Mode.LAWS and self._illegal is not None:
            self._offer_wrong_move()
        elif self._illegal is not None:
            self._illegal_event(*self._illegal)

    def reconnected(self) -> None:
        """The table is back after a disconnect: check it against the game before going on."""
        self._check_table = True
        self._judged = None

    def accept(self) -> None:
        """Laws mode: the adversary accepts a wrong move, which then stands."""
        if self._wrong is not None:
            self._wrong_stands()

    def choose(self, index: int) -> None:
        """The player picks one of the plays offered by a ``choose`` event."""
        if not 0 <= index < len(self._choices):
            self._emit("error", message=f"There is no choice {index + 1}.")
            return
        play = self._choices[index]
        self._choices = []
        self._end_turn(play)

    # -- setting up ------------------------------------------

    def _judge_setup(self, board: Sensed, now: int) -> None:
        assert self._target is not None
        want = project(self._target, self.layout)
        in_play = self._restoring and self._tree is not None and key(board) in self._index
        if board == want or in_play:
            restoring = self._restoring
            self._target = None
            self._restoring = False
            self._emit("setup-ok", restored=restoring)
            if in_play:
                self._judge_play(board, now)
            elif self.game.phase == Phase.PLAY and self.game.dice:
                self._build_tree()
            return
        corrections = []
        for where, (w, b) in want.items():
            have_w, have_b = board[where]
            for colour, have, need in ((WHITE, have_w, w), (WHITE.other, have_b, b)):
                if have != need:
                    corrections.append(
                        {"table": where, "colour": str(colour), "have": have, "want": need}
                    )
        first = corrections[0]
        colour = Colour.parse(first["colour"])
        diff = first["want"] - first["have"]
        verb = f"put {diff} more" if diff > 0 else f"take {-diff}"
        men = "man" if abs(diff) == 1 else "men"
        if corrections == self._last_guidance:
            return
        self._last_guidance = corrections
        self._emit(
            "setup",
            corrections=corrections,
            message=f"{verb.capitalize()} {colour} {men} "
            f"{'on' if diff > 0 else 'off'} {describe(first['table'], colour)}.",
            law=law("setup"),
        )

    # -- the dice ------------------------------------------

    def _opening(self, white: int, black: int) -> None:
        try:
            outcome = self.game.opening(white, black)
        except GameError as err:
            self._emit("error", message=str(err))
            return
        if outcome.starter is None:
            self._emit("opening", starter=None, message="Both dice alike: throw again.")
            return
        event = {"starter": str(outcome.starter), "dice": [white, black]}
        if outcome.dice and not outcome.option:
            self._emit("opening", **event, message=f"{outcome.starter} plays {white}-{black}.")
            self._start_play()
        elif outcome.option:
            self._emit(
                "opening",
                **event,
                option=True,
                message=f"{outcome.starter} may play {white}-{black} or throw both dice again.",
            )
            self._start_play()
        else:
            self._emit("opening", **event, message=f"{outcome.starter} throws both dice to start.")

    def _roll(self, d1: int, d2: int) -> None:
        try:
            self.game.roll(d1, d2)
        except GameError as err:
            self._emit("error", message=str(err))
            return
        self._emit("dice", player=str(self.game.turn), dice=[d1, d2])
        self._start_play()

    def _start_play(self) -> None:
        self._build_tree()
        plays = self._tree.plays if self._tree else []
        if self.game.phase == Phase.PLAY and len(plays) == 1 and not plays[0].steps:
            self._end_turn(plays[0])

    def _build_tree(self) -> None:
        game = self.game
        assert game.dice is not None
        position = game.position
        self._tree = position.play_tree(*game.dice, profile=game.profile)
        self._index = {}
        mover = position.turn
        adv = mover.other
        self._mine, self._theirs, self._done = set(), set(), {}
        for partial, node in self._tree.partials():
            seen = project(partial, self.layout)
            self._index.setdefault(key(seen), []).append(partial)
            self._mine.add(_part(seen, mover))
            self._theirs.add(_part(seen, adv))
            if node.complete:
                self._done.setdefault(_part(seen, mover), set()).add(_part(seen, adv))
            hits = partial.bar(adv) - position.bar(adv)
            if hits <= 0:
                continue
            # the hit man in the hand, or still standing where it was hit
            counts = true_counts(partial)
            bar = location(adv, BAR)
            side = 0 if adv == WHITE else 1
            in_hand = dict(counts)
            in_hand[bar] = _add(counts[bar], side, -1)
            self._theirs.add(_part(cap(in_hand, self.layout), adv))
            for point in range(1, 25):
                if position.is_blot(adv, point) and partial.count(adv, point) == 0:
                    where = location(adv, point)
                    left = dict(in_hand)
                    left[where] = _add(in_hand[where], side, 1)
                    self._theirs.add(_part(cap(left, self.layout), adv))
        self._candidates = [(position, self._tree.dice)]
        self._lifted = set()
        self._touched = None
        self._judged = None

    # -- judging ------------------------------------------

    def _judged_board(self) -> Sensed | None:
        return self._board if self._judged == key(self._board) else None

    def _judge(self, board: Sensed, now: int) -> None:
        if self._check_table and self._target is None:
            self._check_table = False
            last = self._candidates[0][0] if self._tree is not None else self.game.position
            if key(board) not in self._index and board != project(last, self.layout):
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
            self._illegal_event("throw-first", f"{mover}: throw the dice before moving.")
        else:
            self._illegal_event(
                "not-your-turn",
                f"It is {mover}'s turn; {mover.other}, put your men back.",
            )

    def _judge_play(self, board: Sensed, now: int) -> None:
        k = key(board)
        found = self._index.get(k)
        if found:
            self._progress(found, now)
            return
        if self._in_motion(board):
            return  # a man in the hand, or a hit man on its way to the bar
        reason, message = self._diagnose(board)
        self._illegal_event(reason, message)

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
                self._illegal_event(
                    "touch-move",
                    f"You lifted the man on your {_name(src)} point: it must be played.",
                )
                return
            self._touched = None
        self._candidates = reached
        self._lifted = set()
        self._lift_reported = None
        self._clear_illegal()
        if any(tree.is_complete(c) for c, _ in reached):
            self._complete_since = now

    def _reach(self, start: Position, left: tuple[int, ...], targets: set[Position]) -> list:
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

    def _in_motion(self, board: Sensed) -> bool:
        """Whether each side's men match some partial play, allowing for men in the hand.

        The mover may be carrying a man; a hit man may be in the hand, still on its
        point, or already on the bar before the hitter has moved.
        """
        mover = self.game.turn
        if _part(board, mover.other) not in self._theirs:
            return False
        mine = _part(board, mover)
        if mine in self._mine:
            return True
        side = 0 if mover == WHITE else 1
        for i, where in enumerate(board):
            if board[where][side] < self.layout.slots(where):
                if mine[:i] + (mine[i] + 1,) + mine[i + 1 :] in self._mine:
                    return True
        return False

    def _watch_lift(self, board: Sensed) -> None:
        """Report where a lifted man may go, at once, while it is in the hand."""
        if self.game.phase != Phase.PLAY or self._tree is None or self._target is not None:
            return
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
            for base in self._index.get(key(fuller), ()):
                # prefer the last judged play, then the fewest steps taken
                node = self._tree.node(base)
                left = max(len(d) for d in node.dice_left) if node else 0
                options.append(((base not in bases, -left), where, base, fuller))
        if options:
            _, where, base, want = min(options, key=lambda o: o[0])
            src = point_of(mover, where)
            report = (key(want), src)
            if report == self._lift_reported:
                return
            self._lift_reported = report
            self._lifted.add(src)
            dests = self._tree.destinations(base, src)
            self._emit(
                "destinations",
                **{"from": _name(src), "to": [_name(d) for d in dests]},
                player=str(mover),
                table={"from": where, "to": [location(mover, d) for d in dests]},
            )
            moved_here = base.count(mover, src) > self.game.position.count(mover, src)
            if not dests and not moved_here:
                if base.bar(mover) and src != BAR:
                    self._illegal_event("bar-first", "Enter your man from the bar first.")
                else:
                    self._illegal_event(
                        "cannot-move",
                        f"The man on your {_name(src)} point cannot move with "
                        f"{self._dice_text()}; put it back.",
                    )
            elif self.config.mode == Mode.LAWS and self._touched is None:
                self._touched = (src, base)

    # -- diagnosis ------------------------------------------

    def _diagnose(self, board: Sensed) -> tuple[str, str]:
        """The reason code and message for an illegal board, measured from the last legal one."""
        base = self._candidates[0][0]
        mover = self.game.turn
        adv = mover.other
        side = 0 if mover == WHITE else 1
        want = project(base, self.layout)
        gains: list[int] = []
        losses: list[int] = []
        adv_gain: list[str] = []
        adv_loss: list[str] = []
        for where in board:
            d = board[where][side] - want[where][side]
            gains += [point_of(mover, where)] * max(d, 0)
            losses += [point_of(mover, where)] * max(-d, 0)
            a = board[where][1 - side] - want[where][1 - side]
            adv_gain += [where] * max(a, 0)
            adv_loss += [where] * max(-a, 0)
        adv_bar = location(adv, BAR)
        hit_spots = [w for w in adv_loss if base.is_blot(adv, point_of(adv, w))]
        stray = [w for w in adv_gain if w != adv_bar]
        if adv_loss and not gains and not losses:
            return (
                "wrong-checker",
                f"That is {adv}'s man: put it back on {describe(adv_loss[0], mover)}.",
            )
        if stray and hit_spots and len(stray) <= len(hit_spots):
            return (
                "hit-not-on-bar",
                f"The hit man belongs on {adv}'s bar, not on {describe(stray[0], mover)}.",
            )
        if stray or len(adv_loss) > len(hit_spots):
            where = stray[0] if stray else adv_loss[0]
            return (
                "wrong-checker",
                f"Only your own men move: put {adv}'s man back ({describe(where, mover)}).",
            )
        if gains and not losses:
            capped = [p for p in range(25, 0, -1) if base.count(mover, p) >= self._slots(mover, p)]
            if not capped:
                where = location(mover, gains[0])
                return "unknown", f"There is one man too many on {describe(where, mover)}."
            losses = capped[:1]
        if not gains:
            return (
                "unknown",
                "The men on the table match no legal play: put back the last man moved.",
            )
        pairs = _pair(sorted(losses, reverse=True), sorted(gains, reverse=True))
        for src, dst in pairs:
            verdict = self._judge_step(base, src, dst)
            if verdict:
                return verdict
            base = _moved(base, src, dst)
        return self._spoils_play()

    def _slots(self, colour: Colour, point: int) -> int:
        return self.layout.slots(location(colour, point))

    def _judge_step(self, base: Position, src: int, dst: int) -> tuple[str, str] | None:
        mover = base.turn
        dice = self._dice_left(base)
        there = "off" if dst == OFF else f"your {_name(dst)} point"
        if dst >= src:
            return (
                "wrong-distance",
                f"Men move forward only, toward your home table: not {_name(src)} to {_name(dst)}.",
            )
        if base.bar(mover) and src != BAR:
            return "bar-first", "You have a man on the bar: enter it before moving any other man."
        if dst == OFF:
            outside = [p for p in range(7, 26) if base.count(mover, p) - (p == src) > 0]
            if outside or src > 6:
                far = max(outside + ([src] if src > 6 else []))
                return (
                    "bear-off-not-home",
                    f"You cannot bear off yet: your man on {_name(far)} is not home.",
                )
            if src in dice or src in _sums(dice):
                return None
            higher = [p for p in range(src + 1, 7) if base.count(mover, p)]
            if higher and any(d > src for d in dice):
                return (
                    "bear-off-higher",
                    f"A {max(dice)} bears off from a lower point only when none stand higher: "
                    f"you have men on your {higher[-1]} point.",
                )
            if not any(d >= src for d in dice):
                return (
                    "wrong-distance",
                    f"No number of {self._dice_text()} bears off from your {src} point.",
                )
            return None
        if base.count(mover.other, 25 - dst) >= 2:
            return (
                "blocked-point",
                f"Your {dst} point is held by {mover.other}: you cannot stop there.",
            )
        distance = src - dst
        routes = _routes(dice, distance)
        if not routes:
            return (
                "wrong-distance",
                f"That man moved {distance} points from {_name(src)} to {_name(dst)}; "
                f"your dice {self._dice_text()} do not add up to {distance}.",
            )
        blocked = set()
        for route in routes:
            here, open_route = src, True
            for die in route[:-1]:
                here -= die
                if base.count(mover.other, 25 - here) >= 2:
                    blocked.add(here)
                    open_route = False
                    break
            if open_route:
                return None
        return (
            "blocked-point",
            f"On the way to {there}, your {min(blocked)} point is held by {mover.other}: "
            "a man may not stop there even between its two numbers.",
        )

    def _spoils_play(self) -> tuple[str, str]:
        tree = self._tree
        assert tree is not None
        dice = self.game.dice
        assert dice is not None
        used = {len(p.steps) for p in tree.plays}
        if dice[0] != dice[1] and used == {1} and self.game.profile.larger_die:
            return (
                "must-use-larger",
                f"Only one number of {dice[0]}-{dice[1]} can be played, so it must be the "
                f"{max(dice)}.",
            )
        n = used.pop() if used else 0
        return (
            "must-use-both",
            f"That move leaves a number you could play unused: this throw must use {n} "
            f"{'numbers' if n != 1 else 'number'}.",
        )

    def _dice_left(self, position: Position) -> list[int]:
        tree = self._tree
        assert tree is not None
        node = tree.node(position)
        if node is not None:
            return list(max(node.dice_left, key=len))
        return list(tree.dice)

    def _dice_text(self) -> str:
        d = self.game.dice
        return f"{d[0]}-{d[1]}" if d else "the dice"

    # -- ending a turn ------------------------------------------

    def _finish_if_complete(self) -> None:
        tree = self._tree
        assert tree is not None
        complete = [c for c, _ in self._candidates if tree.is_complete(c)]
        if not complete:
            used = {len(p.steps) for p in tree.plays}
            n = used.pop() if used else 0
            self._illegal_event(
                "must-use-both",
                f"Your play is not finished: {self._dice_text()} must use {n} "
                f"{'numbers' if n != 1 else 'number'} here.",
            )
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
        self._emit(
            "choose",
            player=str(self.game.turn),
            options=[str(p) for p in plays],
            message="The switches cannot tell these plays apart: which did you make?",
        )

    def _end_turn(self, play: Play) -> None:
        game = self.game
        mover, dice = game.turn, game.dice
        assert dice is not None
        game.play(play)
        self._emit(
            "play",
            player=str(mover),
            dice=list(dice),
            move=str(play),
            position=game.position.position_id(),
        )
        self._after_turn()

    def _after_turn(self) -> None:
        game = self.game
        self._tree = None
        self._index = {}
        self._candidates = [(game.position, ())]
        self._illegal = None
        self._judged = None
        self._complete_since = None
        self._lift_reported = None
        self._choices = []
        if game.result is not None:
            winner, result, points = game.result
            self._emit("game-over", winner=str(winner), result=result.value, points=points)

    def _offer_wrong_move(self) -> None:
        """Laws mode: the turn ends on a wrong move, which stands unless the adversary objects."""
        assert self._board is not None and self.game.dice is not None
        self._wrong = self._reconstruct(self._board)
        if self._bearing_penalty():
            return
        self._emit(
            "wrong-move",
            player=str(self.game.turn),
            reason=self._illegal[0] if self._illegal else "unknown",
            message=f"{self.game.turn.other}: that move breaks the rules. Accept it, or ask "
            "for it to be put right before you throw.",
            law="A wrong move stands once the adversary has thrown without claiming it "
            "(Cady law 11; Crawley law 5; Foster law 9).",
        )

    def _bearing_penalty(self) -> bool:
        """Laws mode: men borne off while one is up (or, by Foster's law, before all are home)
        go to the bar and must enter again; the rest of the move stands."""
        wrong, start = self._wrong, self.game.position
        assert wrong is not None
        mover = start.turn
        borne = wrong.off[mover] - start.off[mover]
        man_up = start.bar(mover) > 0
        not_home = not start.all_home(mover) and self.game.profile.name.startswith("foster")
        if borne <= 0 or not (man_up or not_home):
            return False
        men = [list(wrong.men[0]), list(wrong.men[1])]
        off = list(wrong.off)
        off[mover] -= borne
        men[mover][24] += borne
        self._wrong = Position((men[0], men[1]), (off[0], off[1]), mover, validate=False)
        men_text = "man borne off goes" if borne == 1 else f"{borne} men borne off go"
        self._emit(
            "penalty",
            player=str(mover),
            message=f"{mover}: the {men_text} on your bar and must enter again.",
            law="Men borne off while a man is up must be entered again (Cady law 12; Crawley "
            "law 4); Foster's law 13 puts them on the bar, and does the same for men borne "
            "off before all are home.",
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
        self._emit(
            "play",
            player=str(turn.colour),
            dice=list(turn.dice),
            move="",
            accepted=True,
            position=turn.play.result.position_id(),
        )
        self._after_turn()

    def _reconstruct(self, board: Sensed) -> Position:
        """The whole position the table shows, using the last known counts where slots cap them."""
        base = true_counts(self._candidates[0][0])
        men: list[list[int]] = [[0] * 25, [0] * 25]
        off = [0, 0]
        for colour in (WHITE, WHITE.other):
            side = 0 if colour == WHITE else 1
            for where, counts in board.items():
                if where.startswith(("bar-", "off-")) and not where.endswith(str(colour)):
                    continue
                n = counts[side]
                if n >= self.layout.slots(where):
                    n = max(n, base[where][side])
                point = point_of(colour, where)
                if point == OFF:
                    off[colour] = n
                else:
                    men[colour][point - 1] += n
        return Position((men[0], men[1]), (off[0], off[1]), self.game.turn, validate=False)

    # -- events ------------------------------------------

    def _illegal_event(self, reason: str, message: str) -> None:
        self._complete_since = None
        if self._illegal == (reason, message):
            return
        self._illegal = (reason, message)
        self._emit(
            "illegal",
            reason=reason,
            message=message,
            law=law(reason),
            player=str(self.game.turn),
            table=self._offending(),
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

    def _clear_illegal(self) -> None:
        if self._illegal is not None:
            self._illegal = None
            self._emit("legal", player=str(self.game.turn))

    def _emit(self, name: str, **fields: object) -> None:
        from dataclasses import replace

        from kiosk.events import Played, event_for

        event = event_for(name, **fields)
        if isinstance(event, Played) and not event.accepted and self.game.turns:
            event = replace(event, play=self.game.turns[-1].play)  # the Play itself, typed
        self._emit_cb(event)


def _part(board: Sensed, colour: Colour) -> tuple[int, ...]:
    """One side's sensed counts, location by location."""
    side = 0 if colour == WHITE else 1
    return tuple(board[where][side] for where in board)


def _add(pair: tuple[int, int], side: int, n: int) -> tuple[int, int]:
    return (pair[0] + n, pair[1]) if side == 0 else (pair[0], pair[1] + n)


def _moved(position: Position, src: int, dst: int) -> Position:
    mover = position.turn
    men = [list(position.men[0]), list(position.men[1])]
    off = list(position.off)
    men[mover][src - 1] -= 1
    if dst == OFF:
        off[mover] += 1
    else:
        men[mover][dst - 1] += 1
    return Position((men[0], men[1]), (off[0], off[1]), mover, validate=False)


def _pair(losses: list[int], gains: list[int]) -> list[tuple[int, int]]:
    """Match the points men left with the points men reached, farthest first."""
    return list(zip(losses, gains, strict=False))


def _sums(dice: Iterable[int]) -> set[int]:
    dice = list(dice)
    out: set[int] = set()
    for n in range(2, len(dice) + 1):
        out.add(sum(sorted(dice)[:n]))
        out.add(sum(sorted(dice, reverse=True)[:n]))
    return out


def _routes(dice: list[int], distance: int) -> list[list[int]]:
    """The orders of dice (a subset of those left) that carry one man exactly ``distance``."""
    routes: list[list[int]] = []

    def walk(left: list[int], route: list[int], total: int) -> None:
        if total == distance and route:
            routes.append(list(route))
            return
        if total >= distance:
            return
        for i, d in enumerate(left):
            if d in left[:i]:
                continue
            walk(left[:i] + left[i + 1 :], route + [d], total + d)

    walk(list(dice), [], 0)
    return routes
