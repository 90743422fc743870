"""The partial-play index: every board a roll may legally show, as the switches read it.

When the dice are read the referee builds one :class:`PlayIndex`: the roll's
:class:`~kiosk.rules.PlayTree` and, for every partial play, what the slots would read.
A settled board is then judged by one dictionary look-up; a board that is in no
partial play is "in motion" if each side's men could be a partial play with a man
in the hand (the mover carrying a man, a hit man not yet on the bar).

>>> from kiosk.rules import Position
>>> from kiosk.table import TableLayout, project
>>> from kiosk.rules.moves import apply_step
>>> index = PlayIndex(Position.standard(), 3, 1, TableLayout())
>>> after = apply_step(Position.standard(), index.tree.next_steps(index.start)[0][0])
>>> index.partials(project(after, TableLayout())) == [after]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

from kiosk.rules import BAR, OFF, WHITE, Colour, Play, PlayTree, Position
from kiosk.rules.moves import to_arrays
from kiosk.table import LOCATIONS, TableLayout, location

#: A sensed board as one flat tuple: white, black, white, black... in wire order.
BoardKey = tuple[int, ...]
_SLOT = {where: i for i, where in enumerate(LOCATIONS)}


def board_key(board: Mapping[str, tuple[int, int]]) -> BoardKey:
    """A sensed board as a hashable flat tuple (see :data:`BoardKey`)."""
    return tuple(chain.from_iterable(map(board.__getitem__, LOCATIONS)))


def side_part(board: Mapping[str, tuple[int, int]], colour: Colour) -> tuple[int, ...]:
    """One side's sensed counts, location by location in wire order."""
    side = 0 if colour == WHITE else 1
    return tuple(board[where][side] for where in LOCATIONS)


class PlayIndex:
    """One roll's partial plays, indexed by the boards they show."""

    def __init__(
        self,
        position: Position,
        d1: int,
        d2: int,
        layout: TableLayout,
        larger_die: bool = True,
        plays: list[Play] | None = None,
    ) -> None:
        self.start = position
        self.layout = layout
        self.tree = PlayTree(position, d1, d2, larger_die, plays)
        mover = position.turn
        self.mover = mover
        adv = mover.other
        self._mover_side = 0 if mover == WHITE else 1
        # where each entry of the mover-side arrays (see kiosk.rules.moves) lies on the table
        me_where = [location(mover, OFF), *(location(mover, p) for p in range(1, 25))]
        me_where.append(location(mover, BAR))
        op_where = [location(adv, BAR), *(location(mover, p) for p in range(1, 25))]
        op_where.append(location(adv, OFF))
        self._me_slot = [_SLOT[w] for w in me_where]
        self._op_slot = [_SLOT[w] for w in op_where]
        self._me_cap = [layout.slots(w) for w in me_where]
        self._op_cap = [layout.slots(w) for w in op_where]
        self._boards: dict[BoardKey, list[tuple[int, ...]]] = {}  # -> partials' arrays
        self.mine: set[tuple[int, ...]] = set()  # the mover's men in every partial play
        self.theirs: set[tuple[int, ...]] = set()  # the adversary's, hit men on their way too
        self.done: dict[tuple[int, ...], set[tuple[int, ...]]] = {}  # complete: mine -> theirs
        self._build()

    def _build(self) -> None:
        start_op = tuple(to_arrays(self.start)[1])
        side = self._mover_side
        # flat board positions (see BoardKey) of the mover's and the adversary's entries
        me_at = [2 * slot + side for slot in self._me_slot]
        op_at = [2 * slot + 1 - side for slot in self._op_slot]
        with_theirs: dict[tuple[int, ...], list[int]] = {}  # the adversary's men, by op arrays
        for arrays, node in self.tree.keyed():
            op = arrays[26:]
            flat = with_theirs.get(op)
            if flat is None:
                flat = _fill([0] * (2 * len(LOCATIONS)), op, op_at, self._op_cap)
                with_theirs[op] = flat
                self.theirs.add(tuple(flat[1 - side :: 2]))
                self._in_hand(start_op, op)
            board = tuple(_fill(list(flat), arrays[:26], me_at, self._me_cap))
            self._boards.setdefault(board, []).append(arrays)
            mine = board[side::2]
            self.mine.add(mine)
            if node.complete:
                self.done.setdefault(mine, set()).add(board[1 - side :: 2])

    def _parts(self, arrays: list[int], slots: list[int], caps: list[int]) -> tuple[int, ...]:
        """One side's sensed counts in wire order, from its mover-side arrays."""
        return tuple(_fill([0] * len(LOCATIONS), arrays, slots, caps))

    def _in_hand(self, start_op: tuple[int, ...], op: tuple[int, ...]) -> None:
        """The adversary's men when a man just hit is in the hand or still on its point."""
        hits = op[0] - start_op[0]
        if hits <= 0:
            return
        in_hand = list(op)
        in_hand[0] -= 1
        self.theirs.add(self._parts(in_hand, self._op_slot, self._op_cap))
        for point in range(1, 25):
            if start_op[point] == 1 and op[point] == 0:
                left = list(in_hand)
                left[point] += 1
                self.theirs.add(self._parts(left, self._op_slot, self._op_cap))

    # -- queries ----------------------------------------------------------------

    def partials(self, board: Mapping[str, tuple[int, int]]) -> list[Position]:
        """The partial plays (mover still on roll) that show ``board``; empty if none."""
        found = self._boards.get(board_key(board), ())
        return [self.tree.position_of(arrays) for arrays in found]

    def shows_partial(self, board: Mapping[str, tuple[int, int]]) -> bool:
        """Whether ``board`` shows some partial play of the roll."""
        return board_key(board) in self._boards

    def in_motion(self, board: Mapping[str, tuple[int, int]]) -> bool:
        """Whether each side's men match some partial play, allowing for men in the hand.

        The mover may be carrying a man, or two at once; a hit man may be in the hand,
        still on its point, or already on the bar before the hitter has moved.
        """
        if side_part(board, self.mover.other) not in self.theirs:
            return False
        mine = side_part(board, self.mover)
        if mine in self.mine:
            return True
        side = self._mover_side
        room = [
            i
            for i, where in enumerate(LOCATIONS)
            if board[where][side] < self.layout.slots(where)
        ]
        for n, i in enumerate(room):
            one = mine[:i] + (mine[i] + 1,) + mine[i + 1 :]
            if one in self.mine:
                return True
            for j in room[n:]:
                if one[:j] + (one[j] + 1,) + one[j + 1 :] in self.mine:
                    return True
        return False

    def hit_man_left(self, board: Mapping[str, tuple[int, int]]) -> bool:
        """Whether the mover's men show a complete play but a man it hit is not on the bar."""
        wanted = self.done.get(side_part(board, self.mover), set())
        return bool(wanted) and side_part(board, self.mover.other) not in wanted


def _fill(
    out: list[int], arrays: Sequence[int], where: list[int], caps: list[int]
) -> list[int]:
    """Write each entry of mover-side ``arrays`` into ``out`` at ``where``, capped as the
    slots read it."""
    for i, n in enumerate(arrays):
        if n:
            cap = caps[i]
            out[where[i]] = n if n < cap else cap
    return out
