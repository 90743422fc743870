"""Reading a die from the nine Hall switches under its well (hardware/README.md, "Dice").

Every face of a die carries nine small magnets: one at its centre, south out, and eight on
a ring around it (the face's four corners and the middles of its four edges), four south
out and four north out. Under the well lie nine Hall switches, one under each spot, each
answering a south pole: a die lying flat on its seat switches its centre and exactly the
four ring cells under its south poles. Which four tells the face (``FACE_CELLS``, in the
die's first quarter turn; a quarter turn moves every ring spot two cells on, going round).

The six faces' ring patterns lie at least four cells apart in every turn, each has exactly
four cells on, and the centre must be on: a reading that is not one of the 24 is never
taken for a face. A dead or stuck switch, a die lifted on one edge, pushed off its seat
(where its small magnets' return field would show the ring's complement, the centre reads
off) or missing a magnet reads ``COCKED`` (the laws say throw again); no cell on reads
``EMPTY``. The field model checks it (hardware/field.py, ``well_misreads``).

A well's cells, bit by bit: 0 corner 1, 1 edge a, 2 corner 2, 3 edge b, 4 corner 3, 5 edge
c, 6 corner 4, 7 edge d, going round, and 8 the centre (hardware/geometry.py,
``WELL_CELLS``).
"""

EMPTY = 0
COCKED = 7
CELLS = 9
CENTRE = 8
RING = 0xFF
NAMES = ("1", "a", "2", "b", "3", "c", "4", "d", "m")  # the self-test's names; m the middle

# The cells a die lying on each face (face down) switches in its first quarter turn.
FACE_CELLS = {
    1: 0b100001111,
    2: 0b100110011,
    3: 0b101010101,
    4: 0b110101010,
    5: 0b101011010,
    6: 0b101100110,
}


def _turned(mask, turn):
    """``mask`` with every ring cell moved ``2 * turn`` places on, going round."""
    shift = (2 * turn) % 8
    ring = mask & RING
    return (mask & ~RING) | (((ring << shift) | (ring >> (8 - shift))) & RING)


def cells(face_down, turn):
    """The cell mask a die lying on ``face_down``, turned ``turn`` quarter turns, switches."""
    return _turned(FACE_CELLS[face_down], turn)


def orientations(face_down):
    """Every distinct cell mask a die lying on ``face_down`` can switch, sorted."""
    return sorted({cells(face_down, turn) for turn in range(4)})


_FACE_UP = {}
for _face in FACE_CELLS:
    for _mask in orientations(_face):
        _FACE_UP[_mask] = 7 - _face


def read_well(mask):
    """The face up (1-6) for a 9-bit cell mask, ``EMPTY`` for none, ``COCKED`` otherwise."""
    if mask == 0:
        return EMPTY
    return _FACE_UP.get(mask, COCKED)
