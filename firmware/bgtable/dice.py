"""Reading a die from the 3x3 reed array under its well.

Cells are numbered row by row, 0-8. A die lying flat closes the cells under the pips of
the face lying down, in any rotation or reflection; the face up is 7 minus that face.
"""

EMPTY = 0
COCKED = 7

# Cells under the pips of each face, in one orientation.
_PIPS = {
    1: (4,),
    2: (0, 8),
    3: (0, 4, 8),
    4: (0, 2, 6, 8),
    5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8),
}


def _mask(cells):
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _turn(cells):
    """The cells a quarter turn clockwise."""
    return tuple([(cell % 3) * 3 + 2 - cell // 3 for cell in cells])


def _mirror(cells):
    return tuple([(cell // 3) * 3 + 2 - cell % 3 for cell in cells])


def orientations(face_down):
    """Every distinct cell mask a die lying on ``face_down`` can close, sorted."""
    masks = set()
    cells = _PIPS[face_down]
    for _ in range(4):
        masks.add(_mask(cells))
        masks.add(_mask(_mirror(cells)))
        cells = _turn(cells)
    return sorted(masks)


_FACE_UP = {}
for _down in _PIPS:
    for _m in orientations(_down):
        _FACE_UP[_m] = 7 - _down


def read_well(mask):
    """The face up (1-6) for a 9-bit cell mask, ``EMPTY`` for none, ``COCKED`` otherwise."""
    if mask == 0:
        return EMPTY
    return _FACE_UP.get(mask, COCKED)
