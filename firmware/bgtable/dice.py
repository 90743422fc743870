"""Reading a die from the five Hall switches under its well (hardware/README.md, "Dice").

Every face of a die carries five small magnets: one at its centre, south out, and one at
each corner, south or north out. The corners' poles, going round the face, tell the faces
apart: none, one, two side by side, two across, three or four south out are faces 1 to 6
lying down (the face up is 7 minus it). Every face holds the same magnets in the same
places, so the die is balanced; only their poles differ.

A well's cells, bit by bit: 0 the centre (answers a south pole), 1-4 the corners going
round, which answer a south pole (1, 3) or a north pole (2, 4). A die lying flat switches
the centre and, at each corner, the cell whose pole is there or not; with the centre off
the well is empty (no cell on) or the die is cocked (a corner on: throw again).
"""

EMPTY = 0
COCKED = 7
CELLS = 5
CENTRE = 0
NAMES = ("c", "1", "2", "3", "4")  # how the self-test names a well's cells

# Which corners of the face lying down are south out, going round.
SOUTH_CORNERS = {
    1: (0, 0, 0, 0),
    2: (1, 0, 0, 0),
    3: (1, 1, 0, 0),
    4: (1, 0, 1, 0),
    5: (1, 1, 1, 0),
    6: (1, 1, 1, 1),
}


def _answers_south(corner):
    """Whether corner ``corner`` (0-3) has a south-answering cell (else north)."""
    return corner % 2 == 0


def cells(face_down, turn):
    """The cell mask a die lying on ``face_down``, turned ``turn`` quarter turns, switches."""
    south = SOUTH_CORNERS[face_down]
    mask = 1 << CENTRE
    for corner in range(4):
        is_south = south[(corner - turn) % 4]
        if is_south == _answers_south(corner):
            mask |= 1 << (corner + 1)
    return mask


def orientations(face_down):
    """Every distinct cell mask a die lying on ``face_down`` can switch, sorted."""
    return sorted({cells(face_down, turn) for turn in range(4)})


def read_well(mask):
    """The face up (1-6) for a 5-bit cell mask, ``EMPTY`` for none, ``COCKED`` otherwise."""
    if mask == 0:
        return EMPTY
    if not mask & (1 << CENTRE):
        return COCKED
    south = []
    for corner in range(4):
        on = (mask >> (corner + 1)) & 1
        south.append(on if _answers_south(corner) else 1 - on)
    count = south[0] + south[1] + south[2] + south[3]
    if count == 2:
        face_down = 4 if south[0] == south[2] else 3
    else:
        face_down = (1, 2, 0, 5, 6)[count]
    return 7 - face_down
