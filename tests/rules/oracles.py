"""Shared helpers for the rules oracles and the rules benchmark.

Three things live here:

* a fixed-seed **position generator** (:func:`draw_games`) that plays whole games with our
  own engine, choosing plays by a few simple policies so that the positions cover the cases
  where move generators go wrong: contact and races, men on the bar (one, two or more)
  against closed or partly closed boards, points blocked by primes, rolls of which only one
  die can be played, doublets of which fewer than four steps can be played, rolls that
  cannot be played at all, and bearing off (with dice larger than the highest point);
* :func:`categories`, which says which of those cases a position and roll fall into;
* adapters that turn the answers of the two independent implementations into sets of our
  :class:`~kiosk.rules.Position` objects: :class:`OpenSpielOracle` (DeepMind OpenSpiel's
  ``backgammon`` game) and :func:`gnubg_results` (GNU Backgammon's own move generator, via
  the ``gnubg-nn`` package, module ``gnubg_nn``).

The drawn positions are *game records* rather than loose positions because OpenSpiel's
Python API cannot set up an arbitrary board (see :class:`OpenSpielOracle`): it has to be
walked there, turn by turn, through its own legal actions.

Both oracle modules are optional (``pyspiel`` and ``gnubg_nn`` are imported lazily).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from kiosk.rules import BLACK, OFF, WHITE, Colour, Play, Position, Step, generate
from kiosk.rules.moves import to_arrays

Roll = tuple[int, int]

#: The 21 distinct rolls, low die first.
ROLLS: tuple[Roll, ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
DOUBLETS: tuple[Roll, ...] = tuple((d, d) for d in range(1, 7))


# -- game records -----------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn of a drawn game.

    ``position`` has the side on roll to move; ``dice`` is the roll actually played (the
    play chosen led to ``result``, which has the other side on roll); ``extra`` are further
    rolls to check in the same position (chosen where the position is interesting).
    """

    position: Position
    dice: Roll
    extra: tuple[Roll, ...]
    result: Position

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll to check in this position: the one played first."""
        return (self.dice, *self.extra)


@dataclass(frozen=True)
class GameRecord:
    """A game from the standard start, white opening with a non-doublet."""

    policies: tuple[str, str]
    turns: tuple[Turn, ...]


def cases(games: Sequence[GameRecord]) -> Iterator[tuple[Position, int, int]]:
    """Every (position, d1, d2) to check in ``games``, in order."""
    for game in games:
        for turn in game.turns:
            for d1, d2 in turn.rolls:
                yield turn.position, d1, d2


# -- policies -------------------------------------------------------------------------
#
# A policy picks the play to continue the game with. Each scores the plays; the best is
# taken (ties broken at random) except for an occasional random play, so that games wander.


def _home_points(position: Position, colour: Colour) -> int:
    return sum(1 for p in range(1, 7) if position.count(colour, p) >= 2)


def _blots(position: Position, colour: Colour) -> int:
    return sum(1 for n in position.men[colour][:24] if n == 1)


def _score_blitz(position: Position, play: Play) -> tuple:
    """Attack: men sent to the bar first, then points closed in the home board."""
    me, them = position.turn, position.turn.other
    result = play.result
    return (result.bar(them), _home_points(result, me))


def _score_runner(position: Position, play: Play) -> tuple:
    """Run: bring the rearmost men home first, towards a race and a bear-off."""
    men = play.result.men[position.turn]
    return (-sum((i + 1) ** 2 * n for i, n in enumerate(men)), play.result.off[position.turn])


def _score_closer(position: Position, play: Play) -> tuple:
    """Close the board on a man: keep one on the bar, then make home points, then hit more."""
    me, them = position.turn, position.turn.other
    result = play.result
    return (min(result.bar(them), 1), _home_points(result, me), result.bar(them))


def _score_safe(position: Position, play: Play) -> tuple:
    """Play safe: fewest blots left, then the most points in the home board."""
    me = position.turn
    return (-_blots(play.result, me), _home_points(play.result, me))


def _score_feeder(position: Position, play: Play) -> tuple:
    """Feed the attacker: blots left in his home board (our 19-24 points), then anywhere."""
    men = play.result.men[position.turn]
    return (sum(1 for n in men[18:24] if n == 1), _blots(play.result, position.turn))


POLICIES: dict[str, Callable[[Position, Play], tuple] | None] = {
    "random": None,
    "blitz": _score_blitz,
    "runner": _score_runner,
    "safe": _score_safe,
    "closer": _score_closer,
    "feeder": _score_feeder,
}

#: The policy pairs (white, black) the games cycle through.
MATCHUPS: tuple[tuple[str, str], ...] = (
    ("closer", "feeder"),
    ("blitz", "random"),
    ("runner", "runner"),
    ("random", "random"),
    ("random", "closer"),
    ("blitz", "safe"),
    ("feeder", "closer"),
    ("random", "blitz"),
    ("runner", "blitz"),
    ("safe", "runner"),
    ("blitz", "blitz"),
)


def _choose(rng: random.Random, policy: str, position: Position, plays: list[Play]) -> Play:
    # In a fixed order that does not depend on the order the engine lists its plays in.
    plays = sorted(plays, key=lambda p: p.result.position_id())
    score = POLICIES[policy]
    if score is None or len(plays) == 1 or rng.random() < 0.15:
        return rng.choice(plays)
    scored = [(score(position, p), i) for i, p in enumerate(plays)]
    best = max(s for s, _ in scored)
    return plays[rng.choice([i for s, i in scored if s == best])]


# -- what a position and roll exercise ------------------------------------------------


def highest(position: Position, colour: Colour) -> int:
    """The highest point ``colour`` occupies in its own numbering (25 for the bar, 0 if none)."""
    side = position.men[colour]
    for i in range(24, -1, -1):
        if side[i]:
            return i + 1
    return 0


def is_contact(position: Position) -> bool:
    """Whether some man of one side still has to pass a man of the other."""
    return highest(position, WHITE) + highest(position, BLACK) > 25


def closed_points_in_entry(position: Position) -> int:
    """How many of the six entry points (the adversary's home board) the adversary holds."""
    them = position.turn.other
    return _home_points(position, them)


def longest_block(position: Position) -> int:
    """The longest run of consecutive points the adversary holds in front of the mover's men."""
    me, them = position.turn, position.turn.other
    back = highest(position, me)
    run = best = 0
    for p in range(back - 1, 0, -1):  # mover's numbering; his point p is their 25 - p
        if position.count(them, 25 - p) >= 2:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


def categories(position: Position, d1: int, d2: int, plays: Sequence[Play]) -> frozenset[str]:
    """The cases a position and roll exercise (``plays`` are our engine's plays for them)."""
    me = position.turn
    tags: set[str] = {"doublet" if d1 == d2 else "non-doublet"}
    tags.add("contact" if is_contact(position) else "race")
    bar = position.bar(me)
    if bar:
        tags.add("bar")
        if bar >= 2:
            tags.add("bar-2+")
        closed = closed_points_in_entry(position)
        if closed >= 4:
            tags.add("bar-vs-closed-4+")
        if closed == 6:
            tags.add("bar-vs-closed-6")
    if longest_block(position) >= 4:
        tags.add("blocked-by-prime-4+")
    if position.all_home(me) and not bar:
        tags.add("bear-off")
        if max(d1, d2) > highest(position, me):
            tags.add("bear-off-overshoot")
    steps = max(len(p.steps) for p in plays)
    if steps == 0:
        tags.add("no-play")
    elif d1 != d2 and steps == 1:
        tags.add("one-die-only")
        if {p.result for p in generate(position, d1, d2, larger_die=False)} != {
            p.result for p in plays
        }:
            tags.add("larger-die-decides")
    elif d1 == d2 and steps < 4:
        tags.add("partial-doublet")
    if any(s.hit for p in plays for s in p.steps):
        tags.add("hit-possible")
    if any(p.result.winner() is not None for p in plays):
        tags.add("game-ends")
    return frozenset(tags)


def _interesting(position: Position) -> bool:
    me = position.turn
    return bool(
        position.bar(me)
        or position.all_home(me)
        or closed_points_in_entry(position) >= 4
        or longest_block(position) >= 4
    )


# -- drawing the games --------------------------------------------------------------


def draw_games(
    seed: int, n_cases: int, max_turns: int = 300, extra_rolls: int = 2
) -> list[GameRecord]:
    """Whole games played with our engine until they give ``n_cases`` (position, roll) pairs.

    Deterministic for a given seed. In interesting positions (a man on the bar, a closed or
    partly closed entry board, a prime of four or more points, bearing off) ``extra_rolls``
    further rolls are checked besides the one played: one doublet and the rest any roll.
    """
    rng = random.Random(seed)
    games: list[GameRecord] = []
    total = 0
    g = 0
    while total < n_cases:
        policies = MATCHUPS[g % len(MATCHUPS)]
        g += 1
        position = Position.standard()
        turns: list[Turn] = []
        d1, d2 = rng.sample(range(1, 7), 2)  # the opening throw is never a doublet
        while total < n_cases and len(turns) < max_turns and position.winner() is None:
            plays = generate(position, d1, d2)
            extra: list[Roll] = []
            if extra_rolls and turns and _interesting(position):
                pool = [r for r in ROLLS if r != tuple(sorted((d1, d2)))]
                doublets = [r for r in pool if r[0] == r[1]]
                extra.append(rng.choice(doublets))
                rest = [r for r in pool if r not in extra]
                extra.extend(rng.sample(rest, extra_rolls - 1))
            extra = extra[: max(0, n_cases - total - 1)]
            play = _choose(rng, policies[position.turn], position, plays)
            turns.append(Turn(position, (d1, d2), tuple(extra), play.result))
            total += 1 + len(extra)
            position = play.result
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        games.append(GameRecord(policies, tuple(turns)))
    return games


# -- constructed positions ------------------------------------------------------------
#
# Positions set up directly rather than reached in play: far from the usual game, but all
# legal boards. For oracles that can take any board (GNU Backgammon); OpenSpiel cannot.

SCENARIOS = ("scatter", "bar-vs-board", "prime", "bear-off", "bear-off-vs-bar", "larger-die")


def _place(rng: random.Random, counts: list[int], men: int, points: Sequence[int]) -> None:
    """Drop ``men`` men one by one on random points of ``points`` (own numbering)."""
    for _ in range(men):
        counts[rng.choice(points) - 1] += 1


def constructed_position(rng: random.Random, scenario: str) -> Position:
    """A random legal position of the given scenario, with a random side on roll.

    ``scatter``: each side has a random number of men anywhere, some on the bar;
    ``bar-vs-board``: the mover has one to four men on the bar against three to six closed
    home points; ``prime``: the mover's back men sit behind a prime of four to six points;
    ``bear-off``: both sides have all men home; ``bear-off-vs-bar``: the mover bears off
    while the adversary has men on the bar or in the mover's home board; ``larger-die``:
    see :func:`larger_die_case` (use that for its roll).
    """
    if scenario == "larger-die":
        return larger_die_case(rng)[0]
    me = rng.choice((WHITE, BLACK))
    mine, theirs = [0] * 25, [0] * 25  # own numbering each; theirs point p is our 25 - p

    def free_for_me(points: Sequence[int]) -> list[int]:
        return [p for p in points if theirs[25 - p - 1] == 0]

    def free_for_them(points: Sequence[int]) -> list[int]:
        return [p for p in points if mine[25 - p - 1] == 0]

    if scenario == "scatter":
        theirs[24] = rng.choice((0, 0, 0, 1, 2))
        _place(rng, theirs, rng.randint(1, 15 - theirs[24]), range(1, 25))
        mine[24] = rng.choice((0, 0, 1, 2, 3))
        _place(rng, mine, rng.randint(1, 15 - mine[24]), free_for_me(range(1, 25)))
    elif scenario == "bar-vs-board":
        closed = rng.sample(range(1, 7), rng.randint(3, 6))
        for p in closed:
            theirs[p - 1] = 2
        spare = 15 - 2 * len(closed)
        _place(rng, theirs, rng.randint(0, spare), range(1, 25))
        mine[24] = rng.randint(1, 4)
        _place(rng, mine, rng.randint(0, 15 - mine[24]), free_for_me(range(1, 25)))
    elif scenario == "prime":
        length = rng.randint(4, 6)
        start = rng.randint(1, 18 - length + 1)  # their points start..start+length-1
        for p in range(start, start + length):
            theirs[p - 1] = 2
        _place(rng, theirs, rng.randint(0, 15 - 2 * length), range(1, 25))
        behind = [p for p in range(26 - start, 25)]  # our points behind their prime
        _place(rng, mine, rng.randint(1, 4), free_for_me(behind) or [24])
        _place(rng, mine, rng.randint(0, 8), free_for_me(range(1, 25)))
    elif scenario in ("bear-off", "bear-off-vs-bar"):
        if scenario == "bear-off":
            _place(rng, theirs, rng.randint(1, 15), range(1, 7))
        else:
            theirs[24] = rng.randint(0, 2)
            _place(rng, theirs, rng.randint(1, 5), range(19, 25))
            _place(rng, theirs, rng.randint(0, 8), range(1, 19))
        _place(rng, mine, rng.randint(1, 15), free_for_me(range(1, 7)) or [6])
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    # A point may have been filled by both sides when the free list fell back; repair.
    for p in range(1, 25):
        if mine[p - 1] and theirs[25 - p - 1]:
            theirs[25 - p - 1] = 0
    men = (mine, theirs) if me == WHITE else (theirs, mine)
    return Position(men, None, me)


def larger_die_case(rng: random.Random) -> tuple[Position, int, int]:
    """A roll of which either die can be played but not both, and which die matters.

    The mover's one free man stands on point ``s``; ``s - a`` and ``s - b`` are open but
    ``s - a - b`` is closed, and his other men (if any) sit below ``min(a, b)`` where no
    die moves them (they cannot bear off: the free man is outside the home board).
    """
    me = rng.choice((WHITE, BLACK))
    a, b = rng.sample(range(1, 7), 2)
    s = rng.randint(max(a + b + 1, 7), 24)
    mine, theirs = [0] * 25, [0] * 25
    mine[s - 1] = 1
    theirs[25 - (s - a - b) - 1] = rng.randint(2, 4)
    low = min(a, b)
    below = [p for p in range(1, low + 1) if p != s - a - b]
    if below:
        _place(rng, mine, rng.randint(0, 6), below)
    _place(
        rng,
        theirs,
        rng.randint(0, 8),
        [p for p in range(1, 25) if 25 - p not in (s, s - a, s - b) and 25 - p > low],
    )
    men = (mine, theirs) if me == WHITE else (theirs, mine)
    return Position(men, None, me), a, b


def draw_positions(seed: int, n: int) -> list[tuple[Position, int, int]]:
    """``n`` constructed (position, d1, d2) cases, cycling through :data:`SCENARIOS`."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        scenario = SCENARIOS[i % len(SCENARIOS)]
        if scenario == "larger-die":
            out.append(larger_die_case(rng))
            continue
        position = constructed_position(rng, scenario)
        out.append((position, rng.randint(1, 6), rng.randint(1, 6)))
    return out


# -- helpers on results ----------------------------------------------------------------


def steps_of(position: Position, moves: Sequence[tuple[int, int]]) -> tuple[Step, ...]:
    """Our steps for a list of ``(from, to)`` moves (mover's numbering, 25 bar, 0 off).

    Whether each step hits is worked out by making the moves in turn; the die is the
    distance (smaller than the die actually thrown when bearing off with a larger one).
    """
    me, op = to_arrays(position)
    steps = []
    for src, dst in moves:
        hit = dst != OFF and op[dst] == 1
        me[src] -= 1
        me[dst] += 1
        if hit:
            op[dst] = 0
            op[0] += 1
        steps.append(Step(src, dst, src - dst, hit))
    return tuple(steps)


def result_set(plays: Sequence[Play]) -> set[Position]:
    """The distinct positions a list of plays leads to."""
    return {p.result for p in plays}


def describe(positions: set[Position]) -> list[str]:
    """Position IDs (side on roll after the play to move) for messages, sorted."""
    return sorted(p.position_id() for p in positions)


# -- GNU Backgammon (gnubg-nn) -------------------------------------------------------------


def gnubg_board(position: Position) -> list[list[int]]:
    """GNU Backgammon's ``anBoard``: ``[side not on roll, side on roll]``, each 25 counts.

    Each side counts from its own ace point (index 0) to its 24 point (23), bar at 24:
    exactly our ``men[colour]`` layout.
    """
    me = position.turn
    return [list(position.men[me.other]), list(position.men[me])]


def from_gnubg(board: Sequence[Sequence[int]], mover: Colour) -> Position:
    """Our position after ``mover`` has played, from GNU Backgammon's board after the move.

    ``gnubg_nn.moves`` returns the board from the mover's side still (mover in
    ``board[1]``); the result has the other side on roll, as ours do.
    """
    other, me = (tuple(side) for side in board)
    men = (me, other) if mover == WHITE else (other, me)
    return Position(men, None, mover.other)


def gnubg_results(position: Position, d1: int, d2: int) -> dict[Position, tuple]:
    """GNU Backgammon's legal plays: resulting position -> its steps ``((from, to), ...)``.

    GNU Backgammon lists no move at all for a roll that cannot be played; that is reported
    here as the single result "position unchanged, other side on roll" with no steps, which
    is how our engine lists it.
    """
    import gnubg_nn

    mover = position.turn
    out: dict[Position, tuple] = {}
    for key, steps in gnubg_nn.moves(gnubg_board(position), d1, d2, 1):
        out[from_gnubg(gnubg_nn.board_from_position_key(key), mover)] = steps
    if not out:
        out[position.swap_turn()] = ()
    return out


# -- OpenSpiel -------------------------------------------------------------------------


class OpenSpielOracle:
    """DeepMind OpenSpiel's ``backgammon`` game, driven through its Python API.

    OpenSpiel's ``BackgammonState::SetState`` is C++ only: the Python binding
    (``open_spiel/python/pybind11/games_backgammon.cc``) exposes ``board``,
    ``augment_with_hit_info``, ``checker_moves_to_spiel_move``,
    ``spiel_move_to_checker_moves`` and ``translate_action``, but no setter, and
    ``to_struct``/``new_initial_state(str)`` are not implemented for backgammon. So a
    position is reached the way a game reaches it: from the initial state, by applying the
    dice as chance outcomes and then, each turn, the OpenSpiel action(s) whose resulting
    board is the one our recorded play led to (:meth:`advance`).

    Player 0 (``x``) is our white, player 1 (``o``) our black. OpenSpiel's absolute points
    0..23 run from x's 24 point to x's ace point, so x's point ``p`` is index ``24 - p``
    and o's point ``p`` is index ``p - 1``.

    An OpenSpiel action moves two checkers (one per die); a doublet is played as two
    consecutive actions by the same player (``double_turn``). A turn's plays are therefore
    the distinct boards reached by one action, or by two for a doublet.
    """

    def __init__(self) -> None:
        import pyspiel

        # The default turn limit (500 player turns) would end long games early.
        self.game = pyspiel.load_game("backgammon", {"max_player_turns": 1_000_000})
        self.opening_outcome: dict[Roll, int] = {}
        for outcome, _ in self.game.new_initial_state().chance_outcomes():
            state = self.game.new_initial_state()
            state.apply_action(outcome)
            if state.current_player() == 0:  # x (white) starts
                self.opening_outcome[self._dice(state)] = outcome
        state = self.game.new_initial_state()
        state.apply_action(next(iter(self.opening_outcome.values())))
        state.apply_action(state.legal_actions()[0])
        self.roll_outcome: dict[Roll, int] = {}
        for outcome, _ in state.chance_outcomes():
            child = state.child(outcome)
            self.roll_outcome[self._dice(child)] = outcome
        assert len(self.opening_outcome) == 15 and len(self.roll_outcome) == 21

    @staticmethod
    def _dice(state) -> Roll:
        t = state.observation_tensor(0)
        return tuple(sorted((int(t[-2]), int(t[-1]))))  # type: ignore[return-value]

    def new_game(self):
        """The state before white's opening throw (a chance node)."""
        return self.game.new_initial_state()

    def roll(self, state, d1: int, d2: int, opening: bool = False):
        """A copy of chance-node ``state`` with the dice ``d1``-``d2`` thrown."""
        table = self.opening_outcome if opening else self.roll_outcome
        return state.child(table[(min(d1, d2), max(d1, d2))])

    @staticmethod
    def position(state, turn: Colour) -> Position:
        """The board of an OpenSpiel state as our position, with ``turn`` on roll."""
        t = state.observation_tensor(0)
        sides = []
        for player in (0, 1):
            counts = []
            for i in range(24):
                a, b, c, more = t[96 * player + 4 * i : 96 * player + 4 * i + 4]
                counts.append(int(3 + more if more else a + 2 * b + 3 * c))
            sides.append(counts)
        x, o = sides
        bar_x, off_x, _, bar_o, off_o = (int(v) for v in t[192:197])
        white = (*x[::-1], bar_x)  # white point p is x index 24 - p
        black = (*o, bar_o)
        return Position((white, black), (off_x, off_o), turn)

    @staticmethod
    def _steps(state, player: int, action: int) -> int:
        return sum(1 for m in state.spiel_move_to_checker_moves(player, action) if m.pos >= 0)

    def results(self, rolled, turn: Colour) -> dict[Position, tuple[object, int]]:
        """Every board the player on roll in ``rolled`` can reach this turn.

        Maps each resulting position (other side on roll) to ``(state, checker moves)``:
        an OpenSpiel state after the turn, and the largest number of checker moves (dice
        used) that reaches it.
        """
        player = rolled.current_player()
        after = turn.other
        out: dict[Position, tuple[object, int]] = {}

        def keep(state, steps: int) -> None:
            pos = self.position(state, after)
            if pos not in out or out[pos][1] < steps:
                out[pos] = (state, steps)

        for a in rolled.legal_actions():
            first = self._steps(rolled, player, a)
            half = rolled.child(a)
            if half.current_player() == player:  # the second half of a doublet
                for b in half.legal_actions():
                    keep(half.child(b), first + self._steps(half, player, b))
            else:
                keep(half, first)
        return out

    def count_plays(self, rolled) -> int:
        """The number of distinct boards reachable (for the benchmark: no conversion)."""
        player = rolled.current_player()
        seen = set()
        for a in rolled.legal_actions():
            half = rolled.child(a)
            if half.current_player() == player:
                for b in half.legal_actions():
                    seen.add(tuple(half.child(b).observation_tensor(0)[:198]))
            else:
                seen.add(tuple(half.observation_tensor(0)[:198]))
        return len(seen)

    def replay(self, game: GameRecord) -> Iterator[tuple[Turn, object]]:
        """Walk OpenSpiel through ``game``: each turn with the chance-node state before it.

        Raises ``LookupError`` if OpenSpiel cannot reach the board the recorded play led to.
        """
        state = self.new_game()
        for i, turn in enumerate(game.turns):
            yield turn, state
            rolled = self.roll(state, *turn.dice, opening=i == 0)
            state = self.advance(rolled, turn)

    def advance(self, rolled, turn: Turn):
        """The state after the recorded play of ``turn`` from ``rolled`` (dice thrown)."""
        found = self.results(rolled, turn.position.turn).get(turn.result)
        if found is None:
            raise LookupError(
                f"OpenSpiel cannot play {turn.dice} from {turn.position.position_id()} "
                f"({turn.position.turn} on roll) to {turn.result.position_id()}"
            )
        return found[0]


def max_steps(found: dict[Position, tuple[object, int]]) -> int:
    """The most checker moves any OpenSpiel play of the turn uses."""
    return max(steps for _, steps in found.values())
