"""The table's physics as a magnetic field model (magpylib), run on the generated layout.

What closes a reed: the two blades inside the glass, with their leads, are one soft-iron
path; a field drives flux along it, and the contacts close when the magnetomotive force
between the path's two ends passes the reed's pull-in. The model takes that force as the
line integral of B along the path, from one lead's cut end up the lead, along the reed and
down the other lead, divided by the glass length: an "equivalent field" in mT to compare
with the pull-in measured in a coil as long as the glass. (Outside the magnets B has no
curl, so only the ends count: leads left long along the axis reach into the opposite field
and lose the signal, which is why they are formed as ``LEAD_STUB``/``LEAD_DROP`` say.)

What switches a Hall sensor: the field across its package at the Hall element.

``figures()`` computes every figure the documents quote and the tests hold to their
margins; ``python hardware/documents.py --check`` prints them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import geometry as g
import magpylib as magpy
import numpy as np
from scipy.spatial.transform import Rotation

MM = 1e-3
MU0_4PI = 1e-7  # mu_0 / (4 pi), SI


# -- reeds -------------------------------------------------------------------------------


def ampere_turns(field_mt: float) -> float:
    """The pull-in in ampere-turns that a field window edge (mT, the equivalent field along
    the glass, as this model computes it) stands for: the reed's makers measure pull-in in a
    test coil; a coil as long as the glass with N I ampere-turns drives mu_0 N I / L along
    it, so AT = B L / mu_0. (The makers' own coils are longer than the glass and their
    leads are cut differently: check the conversion on the first strip.)"""
    return field_mt * 1e-3 * g.REED_LENGTH * MM / (4 * math.pi * MU0_4PI)


def reed_path(stub: float = g.LEAD_STUB, drop: float = g.LEAD_DROP, points: int = 48) -> np.ndarray:
    """The reed's soft-iron path in its own frame (mm): centre at (0, 0, REED_Z), axis +y.

    From one lead's cut end: ``drop`` up to the axis, along the glass and both stubs, and
    ``drop`` down again."""
    half = g.REED_LENGTH / 2 + stub
    z = g.REED_Z
    legs = [
        np.linspace((0, -half, z - drop), (0, -half, z), 6),
        np.linspace((0, -half, z), (0, half, z), points)[1:],
        np.linspace((0, half, z), (0, half, z - drop), 6)[1:],
    ]
    return np.vstack(legs)


def _line_integral(field: np.ndarray, path: np.ndarray) -> np.ndarray:
    """Trapezoidal integral of B (tesla; path points on the second-last axis) along
    ``path`` (mm), as an equivalent field over the glass in mT."""
    dl = np.diff(path, axis=0)
    middle = (field[..., 1:, :] + field[..., :-1, :]) / 2
    return np.sum(middle * dl, axis=(-1, -2)) / g.REED_LENGTH * 1e3


def man_magnet(x: float, y: float, base: float, j: float) -> magpy.magnet.Cylinder:
    """A man's magnet, its face on ``base``, centred at (x, y), north down."""
    d, h = g.MAN_MAGNET
    return magpy.magnet.Cylinder(
        dimension=(d * MM, h * MM),
        polarization=(0, 0, -j),
        position=(x * MM, y * MM, (base + h / 2) * MM),
    )


def reed_signal(magnets: Sequence[magpy.magnet.Cylinder], path: np.ndarray) -> np.ndarray:
    """The equivalent field (mT) each magnet drives along the reed path."""
    field = np.asarray(magpy.getB(list(magnets), path * MM))
    if len(magnets) == 1:
        field = field[np.newaxis]
    return _line_integral(field, path)


def _disc(radius: float) -> list[tuple[float, float]]:
    """Sample points of a disc of ``radius``: its centre and two rings of eight."""
    found = [(0.0, 0.0)]
    for r in (radius / 2, radius):
        for k in range(8):
            a = k * math.pi / 4
            found.append((r * math.cos(a), r * math.sin(a)))
    return found


@dataclass(frozen=True)
class SlotFigures:
    """A slot's reed against its own man, its neighbours, stacks and a die."""

    own_min: float  # weakest equivalent field from the slot's own man over the tolerance
    own_max: float
    neighbours_max: float  # the most other men and stacks can drive it, all north down
    neighbours_against: float  # the most they can take from its own man's field
    stack_min: float  # own man with the tallest stack above him
    worst_reed: str  # the reed where the neighbours' sum is worst


def _own_readings(path: np.ndarray) -> np.ndarray:
    base_y = -g.REED_OFFSET  # the slot centre, in the reed's frame
    magnets = [
        man_magnet(dx, base_y + dy, g.SURFACE + dz, g.J_MIN)
        for dx, dy in _disc(g.SLOT_TOLERANCE)
        for dz in (-g.HEIGHT_TOLERANCE, g.HEIGHT_TOLERANCE)
    ]
    return np.abs(reed_signal(magnets, path))


def _to_reed_frame(slot: object, others: Iterable[object]) -> list[tuple[float, float]]:
    """Other slots' centres in the frame of ``slot``'s reed (axis +y toward its edge)."""
    rx, ry = slot.reed  # type: ignore[attr-defined]
    ex, ey = slot.edge  # type: ignore[attr-defined]
    found = []
    for other in others:
        dx, dy = other.x - rx, other.y - ry  # type: ignore[attr-defined]
        # the reed frame's +y is the edge direction, +x is the edge turned clockwise
        found.append((round(dx * -ey + dy * ex, 3) * -1, round(dx * ex + dy * ey, 3)))
    return found


def _neighbour_signal(wanted: Iterable[tuple[float, float, float]]) -> dict:
    """The equivalent field of a man at each offset and base height, the largest in size
    over his tolerance, with its sign (every man's magnet is north down)."""
    path = reed_path()
    wanted = sorted(set(wanted))
    results: dict[tuple[float, float, float], float] = {}
    ring = [(0.0, 0.0)] + [
        (g.SLOT_TOLERANCE * math.cos(a), g.SLOT_TOLERANCE * math.sin(a))
        for a in np.arange(4) * math.pi / 2
    ]
    for chunk in range(0, len(wanted), 400):
        part = wanted[chunk : chunk + 400]
        magnets = [man_magnet(x + dx, y + dy, h, g.J_MAX) for x, y, h in part for dx, dy in ring]
        signed = reed_signal(magnets, path).reshape(len(part), len(ring))
        pick = np.abs(signed).argmax(axis=1)
        values = signed[np.arange(len(part)), pick]
        results.update(zip(part, values, strict=True))
    return results


@cache
def slot_figures(key: str | None = None) -> SlotFigures:
    """The slots of the default layout on the sheets for display ``key`` (the one chosen
    by default), every reed against every other man."""
    import documents

    layout = documents.LAYOUT
    slots = documents.slots(layout, key or documents.CHOSEN)
    path = reed_path()
    own = _own_readings(path)
    last = {}
    for slot in slots:
        last[slot.location] = slot
    extra = {
        where: max(0, 15 - layout.physical_slots(where))
        for where in last
        if not where.startswith("off")
    }
    stack_heights = [g.SURFACE + k * g.MAN_THICKNESS for k in range(1, 1 + max(extra.values()))]
    plan = []
    wanted = []
    for slot in slots:
        others = [s for s in slots if s is not slot]
        rel = _to_reed_frame(slot, others)
        stacks = [
            (_to_reed_frame(slot, [last[where]])[0], extra[where])
            for where in extra
            if where != slot.location
        ]
        plan.append((slot, rel, stacks))
        wanted += [(x, y, g.SURFACE - g.HEIGHT_TOLERANCE) for x, y in rel]
        wanted += [(x, y, h) for (x, y), count in stacks for h in stack_heights[:count]]
    table = _neighbour_signal(wanted)
    own_sign = math.copysign(
        1.0, reed_signal([man_magnet(0, -g.REED_OFFSET, g.SURFACE, 1.0)], path)[0]
    )
    worst, worst_name, against = 0.0, "", 0.0
    for slot, rel, stacks in plan:
        by_location: dict[str, list[float]] = {}
        for (x, y), other in zip(rel, (s for s in slots if s is not slot), strict=True):
            value = table[(x, y, g.SURFACE - g.HEIGHT_TOLERANCE)] * own_sign
            by_location.setdefault(other.location, []).append(value)
        piles = {
            where: [table[(x, y, h)] * own_sign for h in stack_heights[:count]]
            for where, ((x, y), count) in zip(
                (w for w in extra if w != slot.location), stacks, strict=True
            )
        }
        closing = _most_men_drive(by_location, piles, MEN)
        taking = _most_men_drive(
            {w: [-v for v in vs] for w, vs in by_location.items()},
            {w: [-v for v in vs] for w, vs in piles.items()},
            MEN - 1,
        )
        against = max(against, taking)
        if closing > worst:
            worst, worst_name = closing, f"{slot.location}/{slot.index + 1}"
    stack = [
        man_magnet(0.0, -g.REED_OFFSET, h, g.J_MAX) for h in stack_heights[: max(extra.values())]
    ]
    own_stack = reed_signal(stack, path) * own_sign
    return SlotFigures(
        own_min=float(own.min()),
        own_max=float(own.max()),
        neighbours_max=worst,
        neighbours_against=against,
        stack_min=float(own.min()) + float(own_stack[own_stack < 0].sum()),
        worst_reed=worst_name,
    )


MEN = 30  # fifteen a side


def _most_men_drive(
    holes: dict[str, list[float]], piles: dict[str, list[float]], men: int
) -> float:
    """The largest total of ``holes`` values (one man per hole) and ``piles`` values (men
    stacked on a location's last hole, only once all its holes are filled) that at most
    ``men`` men can make: a knapsack over the locations."""
    best = [0.0] * (men + 1)  # best[n]: the most with n men used so far
    for where, values in holes.items():
        ranked = sorted(values, reverse=True)
        gain = [0.0]
        for value in ranked:
            gain.append(gain[-1] + max(value, 0.0))
        pile = piles.get(where, [])
        full = sum(values)
        for k in range(1, len(pile) + 1):
            gain.append(full + sum(pile[:k]))
        for n in range(1, len(gain)):
            gain[n] = max(gain[n], gain[n - 1])
        best = [
            max(best[used - n] + gain[n] for n in range(min(used, len(gain) - 1) + 1))
            for used in range(men + 1)
        ]
    return max(best)


def lead_forming() -> dict[str, float]:
    """A centred man's equivalent field with the leads formed as designed, left straight
    along the axis for some length, or bent down to or through the carrier."""
    man = [man_magnet(0.0, -g.REED_OFFSET, g.SURFACE, g.J_MIN)]
    found = {"as designed": float(abs(reed_signal(man, reed_path())[0]))}
    for stub in (0.0, 5.0, 10.0, 15.0):
        found[f"straight {stub:g} mm"] = float(abs(reed_signal(man, reed_path(stub, 0.0))[0]))
    found["bent down to the carrier"] = float(
        abs(reed_signal(man, reed_path(g.LEAD_STUB, g.REED_Z))[0])
    )
    found["bent down through the carrier"] = float(
        abs(reed_signal(man, reed_path(g.LEAD_STUB, g.REED_Z + g.CARRIER))[0])
    )
    return found


# -- the dice ------------------------------------------------------------------------------

FACE_NORMALS = {
    1: (0, 0, -1),
    6: (0, 0, 1),
    2: (0, -1, 0),
    5: (0, 1, 0),
    3: (1, 0, 0),
    4: (-1, 0, 0),
}


def _face_axes(normal: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Two in-plane axes (u, v) of a face, with u x v along its outward normal."""
    n = np.array(normal, float)
    helper = np.array((0.0, 0.0, 1.0)) if abs(n[2]) < 0.5 else np.array((1.0, 0.0, 0.0))
    u = np.cross(helper, n)
    u /= np.linalg.norm(u)
    return u, np.cross(n, u)


@dataclass(frozen=True)
class Magnets:
    """Small magnets of one size: centres (mm) and polarization vectors (tesla)."""

    positions: np.ndarray
    polarizations: np.ndarray

    def moved(self, rotation: Rotation, shift: Sequence[float]) -> Magnets:
        return Magnets(
            rotation.apply(self.positions) + np.asarray(shift),
            rotation.apply(self.polarizations),
        )


def die_magnets(j: float) -> Magnets:
    """The 48 magnets of a die in its own frame (centre at the origin): eight under each
    face, on the ring of ``DIE_SPOTS``, placed so that the face lying down in its first
    quarter turn puts a south pole over the cells ``FACE_CELLS`` names and a north pole
    over the others. Faces in the order of ``FACE_NORMALS``, eight magnets each."""
    positions, polarizations = [], []
    for face, normal in FACE_NORMALS.items():
        down = Rotation.align_vectors([(0, 0, -1)], [normal])[0].inv()
        for k, (_, (x, y), _) in enumerate(g.WELL_CELLS):
            south = g.FACE_CELLS[face] >> k & 1
            positions.append(down.apply((x, y, -g.DIE_MAGNET_DEPTH)))
            # south out of the face lying down: magnetised up, toward the die's centre
            polarizations.append(down.apply((0.0, 0.0, j if south else -j)))
    return Magnets(np.array(positions), np.array(polarizations))


def face_poles(face: int) -> list[tuple[tuple[float, float], str]]:
    """A face's magnets as the builder sees them looking at that face from outside: each
    spot in the face's own (u, v) axes (mm) and the pole out, S or N."""
    n = np.array(FACE_NORMALS[face], float)
    u, v = _face_axes(FACE_NORMALS[face])
    die = die_magnets(1.0)
    size = len(g.WELL_CELLS)
    start = size * _face_index(face)
    found = []
    for position, polarization in zip(
        die.positions[start : start + size], die.polarizations[start : start + size], strict=True
    ):
        spot = (round(float(position @ u), 3), round(float(position @ v), 3))
        found.append((spot, "S" if polarization @ n < 0 else "N"))
    return found


def _die_rotations(yaws: Iterable[float]) -> list[tuple[int, int, Rotation]]:
    """``(face down, quarter turns, rotation)`` putting each face down, turned and yawed."""
    found = []
    for face, normal in FACE_NORMALS.items():
        down = Rotation.align_vectors([(0, 0, -1)], [normal])[0]
        for quarter in range(4):
            for yaw in yaws:
                turn = Rotation.from_euler("z", quarter * 90 + yaw, degrees=True)
                found.append((face, quarter, turn * down))
    return found


@cache
def die_on_point() -> dict[str, float]:
    """The most any die lying anywhere over a slot reed, any face down and any turn, drives
    along it; and how close the point-dipole sum comes to magpylib's exact field there."""
    path = reed_path()
    a, b = path[0], path[-1]
    die = die_magnets(g.J_MAX)
    xs = np.arange(-27.0, 27.01, 1.5)
    centres = np.array([(x, y, g.SURFACE + g.DIE / 2) for x in xs for y in xs])
    worst, where = 0.0, None
    for _face, _quarter, rotation in _die_rotations(range(0, 90, 15)):
        moved = die.moved(rotation, (0, 0, 0))
        shifted = Magnets(moved.positions[np.newaxis] + centres[:, np.newaxis], moved.polarizations)
        drops = _batched_drop(shifted, a, b)
        k = int(np.argmax(np.abs(drops)))
        if abs(drops[k]) > worst:
            worst, where = float(abs(drops[k])), (rotation, centres[k])
    assert where is not None
    rotation, centre = where
    placed = die.moved(rotation, centre)
    exact = [
        magpy.magnet.Cylinder(
            dimension=(g.DIE_MAGNET[0] * MM, g.DIE_MAGNET[1] * MM),
            polarization=(0.0, 0.0, float(np.linalg.norm(p))),
            position=tuple(x * MM),
            orientation=Rotation.align_vectors([p], [(0, 0, 1)])[0],
        )
        for x, p in zip(placed.positions, placed.polarizations, strict=True)
    ]
    exact_value = float(abs(np.sum(reed_signal(exact, path))))
    return {"max": worst, "exact_at_worst": exact_value}


def _batched_drop(shifted: Magnets, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The equivalent field (mT) of small magnets taken as point dipoles between the reed
    path's two ends ``a`` and ``b`` (mm): mu_0 (phi(a) - phi(b)) over the glass length,
    for each placement (leading axis of ``shifted.positions``)."""
    volume = math.pi * (g.DIE_MAGNET[0] / 2) ** 2 * g.DIE_MAGNET[1] * MM**3
    moment = shifted.polarizations * volume / (4 * math.pi * MU0_4PI)

    def phi(point: np.ndarray) -> np.ndarray:
        r = (point - shifted.positions) * MM
        dist = np.linalg.norm(r, axis=-1)
        return np.sum(np.sum(moment * r, axis=-1) / dist**3, axis=-1) * MU0_4PI

    return (phi(a) - phi(b)) / (g.REED_LENGTH * MM) * 1e3


# -- the wells -------------------------------------------------------------------------------


def _cell_points(shift: Sequence[float], depth: float) -> np.ndarray:
    return np.array(
        [(x + shift[0], y + shift[1], -g.WELL_FLOOR - depth) for _, (x, y), _ in g.WELL_CELLS]
    )


def _hall_fields(
    positions: np.ndarray, polarizations: np.ndarray, sensors: np.ndarray
) -> np.ndarray:
    """Each sensor's field along its answering direction (mT): +z for S-type (a south pole
    above), -z for N-type. ``positions``/``polarizations``: (placements, magnets, 3);
    ``sensors``: (placements, cells, 3). Returns (placements, cells)."""
    places, count = positions.shape[:2]
    cells = sensors.shape[1]
    shape = (places, cells, count, 3)
    pos = np.broadcast_to(positions[:, np.newaxis], shape).reshape(-1, 3)
    pol = np.broadcast_to(polarizations[:, np.newaxis], shape).reshape(-1, 3)
    obs = np.broadcast_to(sensors[:, :, np.newaxis], shape).reshape(-1, 3)
    norms = np.linalg.norm(pol, axis=1)
    # magpylib's Cylinder is polarized along its own axis: turn each onto its vector
    rotations = _align_z(pol / norms[:, np.newaxis])
    local = rotations.inv().apply(obs * MM - pos * MM)
    field = magpy.func.cylinder_field(
        "B",
        local,
        np.tile((g.DIE_MAGNET[0] * MM, g.DIE_MAGNET[1] * MM), (len(norms), 1)),
        np.column_stack([np.zeros_like(norms), np.zeros_like(norms), norms]),
    )
    field = rotations.apply(np.asarray(field))
    bz = np.asarray(field)[:, 2].reshape(places, cells, count).sum(axis=-1) * 1e3
    sign = np.array([1.0 if pole == "S" else -1.0 for _, _, pole in g.WELL_CELLS])
    return bz * sign


def _align_z(axes: np.ndarray) -> Rotation:
    """Rotations taking +z onto each unit vector in ``axes``."""
    z = np.array([0.0, 0.0, 1.0])
    cross = np.cross(z, axes)
    sin = np.linalg.norm(cross, axis=1)
    cos = axes @ z
    angle = np.arctan2(sin, cos)
    axis = np.where(
        sin[:, np.newaxis] > 1e-12, cross / np.maximum(sin, 1e-12)[:, np.newaxis], (1, 0, 0)
    )
    return Rotation.from_rotvec(axis * angle[:, np.newaxis])


def expected_cells(face_down: int, quarter: int) -> tuple[bool, ...]:
    """Which of a well's sensors a die lying flat on ``face_down``, turned ``quarter``
    quarter turns, must switch (the others must stay off): found from where its magnets
    land, not from the code table."""
    die = die_magnets(1.0).moved(
        _die_rotations([0])[4 * _face_index(face_down) + quarter][2], (0, 0, g.DIE / 2)
    )
    found = []
    for _, (x, y), pole in g.WELL_CELLS:
        bottom = die.positions[:, 2] < g.DIE / 4
        d = np.linalg.norm(die.positions[:, :2] - (x, y), axis=1) + np.where(bottom, 0, 1e9)
        k = int(np.argmin(d))
        south = die.polarizations[k, 2] > 0  # magnetised up: its south pole faces down
        found.append(south if pole == "S" else not south)
    return tuple(found)


def _face_index(face: int) -> int:
    return list(FACE_NORMALS).index(face)


def _seat_shifts() -> list[tuple[float, float, float, float, float]]:
    """Corners of the seat's tolerance box: die across, along, yaw; sensor x, y."""
    return list(
        itertools.product(
            (-g.SEAT_ACROSS, g.SEAT_ACROSS),
            (-g.SEAT_ALONG, g.SEAT_ALONG),
            (-g.SEAT_YAW, g.SEAT_YAW),
            (-g.SENSOR_PLACEMENT, g.SENSOR_PLACEMENT),
            (-g.SENSOR_PLACEMENT, g.SENSOR_PLACEMENT),
        )
    )


def _fields_over(magnets_of: Magnets, rotation: Rotation) -> np.ndarray:
    """The sensors' fields over every corner of the seat's tolerance box (both element
    depths): (placements, cells)."""
    positions, polarizations, sensors = [], [], []
    for across, along, yaw, sx, sy in _seat_shifts():
        turned = Rotation.from_euler("z", yaw, degrees=True) * rotation
        placed = magnets_of.moved(turned, (across, along, g.DIE / 2))
        for depth in (g.HALL_DEPTH - g.HALL_DEPTH_TOLERANCE, g.HALL_DEPTH + g.HALL_DEPTH_TOLERANCE):
            positions.append(placed.positions)
            polarizations.append(placed.polarizations)
            sensors.append(_cell_points((sx, sy), depth))
    return _hall_fields(np.array(positions), np.array(polarizations), np.array(sensors))


@cache
def well_figures() -> dict[str, float]:
    """Every face of a die, in every quarter turn, over the seat's tolerance: the weakest
    field at a sensor that must switch and the strongest at one that must not, with the
    other well's die beside it in its worst turn."""
    die_min = die_magnets(g.J_MIN)
    die_max = die_magnets(g.J_MAX)
    beside = _beside_die()
    on_min, off_max, readings = math.inf, -math.inf, 0
    for face, quarter, rotation in _die_rotations([0]):
        wanted = np.array(expected_cells(face, quarter))
        weak = _fields_over(die_min, rotation)
        strong = _fields_over(die_max, rotation)
        on_min = min(on_min, float(weak[:, wanted].min()) - beside)
        if (~wanted).any():
            off_max = max(off_max, float(strong[:, ~wanted].max()) + beside)
        readings += weak.shape[0]
    return {"on_min": on_min, "off_max": off_max, "beside": beside, "placements": readings}


def _beside_die() -> float:
    """The most the other well's die, in any turn, drives any of this well's sensors."""
    die = die_magnets(g.J_MAX)
    placed = [die.moved(r, (g.WELL_PITCH, 0.0, g.DIE / 2)) for _, _, r in _die_rotations([0])]
    depth = g.HALL_DEPTH - g.HALL_DEPTH_TOLERANCE
    fields = _hall_fields(
        np.array([m.positions for m in placed]),
        np.array([m.polarizations for m in placed]),
        np.array([_cell_points((0, 0), depth)] * len(placed)),
    )
    return float(np.abs(fields).max())


# The jig's three magnet faces: its name, outward normal, and the cell its magnet lies over
# in its first quarter turn (a corner, an edge, the centre).
JIG_FACES = (("C", (0, 0, -1), 0), ("E", (0, -1, 0), 1), ("M", (0, 0, 1), g.CENTRE))


def jig_face(cell: int) -> tuple[str, int]:
    """Which face of the jig tests ``cell``, and in how many quarter turns."""
    if cell == g.CENTRE:
        return "M", 0
    return ("C", "E")[cell % 2], cell // 2


def jig_magnets(cell: int, j: float) -> tuple[Magnets, Rotation]:
    """The well jig, a blank 30 mm cube with one magnet, south out, on three of its faces:
    face C at a corner spot, face E at an edge spot, face M at its centre (each face
    marked, C and E at their magnet). Placed to test ``cell`` (index into ``WELL_CELLS``):
    that face down, turned so its magnet lies over the cell."""
    positions, polarizations = [], []
    for _, normal, k in JIG_FACES:
        down = Rotation.align_vectors([(0, 0, -1)], [normal])[0].inv()
        _, (x, y), _ = g.WELL_CELLS[k]
        positions.append(down.apply((x, y, -g.DIE_MAGNET_DEPTH)))
        polarizations.append(down.apply((0.0, 0.0, j)))
    cube = Magnets(np.array(positions), np.array(polarizations))
    name, quarters = jig_face(cell)
    normal = {face: n for face, n, _ in JIG_FACES}[name]
    down = Rotation.align_vectors([(0, 0, -1)], [normal])[0]
    return cube, Rotation.from_euler("z", quarters * 90, degrees=True) * down


@cache
def jig_figures() -> dict[str, float]:
    """For each cell, the jig placed to test it: the field at that cell (weakest over the
    seat's tolerance) and the strongest at any other cell."""
    on_min, off_max = math.inf, -math.inf
    for cell in range(len(g.WELL_CELLS)):
        weak_cube, rotation = jig_magnets(cell, g.J_MIN)
        strong_cube, _ = jig_magnets(cell, g.J_MAX)
        weak = _fields_over(weak_cube, rotation)
        strong = _fields_over(strong_cube, rotation)
        others = [k for k in range(len(g.WELL_CELLS)) if k != cell]
        on_min = min(on_min, float(weak[:, cell].min()))
        off_max = max(off_max, float(strong[:, others].max()))
    return {"on_min": on_min, "off_max": off_max}


def die_balance() -> dict[str, float]:
    """How far the die's centre of mass sits from its centre (mm): with its magnets alone
    (pockets and magnets alike on every face), and with the pips engraved but not filled."""
    die = die_magnets(1.0)
    d, h = g.DIE_MAGNET
    magnet = math.pi * (d / 2) ** 2 * h * (g.MAGNET_DENSITY - g.DIE_DENSITY)
    body = g.DIE**3 * g.DIE_DENSITY
    moment = magnet * die.positions.sum(axis=0)
    pip_d, pip_depth = g.PIP
    pip = math.pi * (pip_d / 2) ** 2 * pip_depth * g.DIE_DENSITY
    pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)]}
    pips[4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    pips[5] = pips[4] + [(0, 0)]
    pips[6] = pips[4] + [(-1, 0), (1, 0)]
    removed = np.zeros(3)
    for face, spots in pips.items():
        n = np.array(FACE_NORMALS[face], float)
        u, v = _face_axes(FACE_NORMALS[face])
        for a, b in spots:
            centre = n * (g.DIE / 2 - pip_depth / 2) + (u * a + v * b) * g.PIP_OFFSET
            removed += pip * centre
    mass = body + magnet * len(die.positions)
    return {
        "magnets": float(np.linalg.norm(moment) / mass),
        "unfilled_pips": float(np.linalg.norm(moment - removed) / mass),
    }


# -- a well that never misreads ---------------------------------------------------------------


def codewords() -> dict[int, int]:
    """Every cell mask a die lying flat can switch, with the face it shows up."""
    found = {}
    for face, mask in g.FACE_CELLS.items():
        ring = mask & g.RING
        for turn in range(4):
            shift = 2 * turn % 8
            found[(mask & ~g.RING) | ((ring << shift) | (ring >> (8 - shift))) & g.RING] = 7 - face
    return found


def _tilted_placements(
    offsets: Sequence[float], tilts: Sequence[float], yaws: Sequence[float]
) -> tuple[list[tuple[int, Rotation]], np.ndarray]:
    """Every face down in every turn, yawed, tilted about both axes of the floor and pushed
    off its seat both ways (``MISREAD_*``), resting on its lowest corner or edge: the face
    shown up and the rotation of each, and the die's centre (mm)."""
    corners = np.array(list(itertools.product((-1, 1), repeat=3))) * g.DIE / 2
    poses, centres = [], []
    for face, _quarter, rotation in _die_rotations(yaws):
        for tx, ty in itertools.product(tilts, repeat=2):
            tilted = Rotation.from_euler("xy", (tx, ty), degrees=True) * rotation
            lift = -float(tilted.apply(corners)[:, 2].min())
            for dx, dy in itertools.product(offsets, repeat=2):
                poses.append((7 - face, tilted))
                centres.append((dx, dy, lift))
    return poses, np.array(centres)


def _unit_fields(
    poses: list[tuple[int, Rotation]], centres: np.ndarray, depth: float
) -> np.ndarray:
    """Each sensor's field (mT, along the pole it answers) from every die placement with
    its magnets at a polarization of 1 T: (placements, cells). The eight magnets of the
    face down by magpylib's exact cylinder field, the other forty as point dipoles."""
    die = die_magnets(1.0)
    matrices = Rotation.concatenate([r for _, r in poses]).as_matrix()
    count = len(poses)
    positions = np.einsum("pij,mj->pmi", matrices, die.positions) + centres[:, np.newaxis]
    polarizations = np.einsum("pij,mj->pmi", matrices, die.polarizations)
    sensors = _cell_points((0.0, 0.0), depth)
    per_face = len(g.WELL_CELLS)
    lowest = np.argsort(positions[:, :, 2], axis=1)[:, :per_face]  # the face down's
    take = np.take_along_axis
    near = _hall_fields(
        take(positions, lowest[..., np.newaxis], 1),
        take(polarizations, lowest[..., np.newaxis], 1),
        np.repeat(sensors[np.newaxis], count, 0),
    )
    far_mask = np.ones(positions.shape[:2], bool)
    np.put_along_axis(far_mask, lowest, False, 1)
    volume = math.pi * (g.DIE_MAGNET[0] / 2) ** 2 * g.DIE_MAGNET[1] * MM**3
    moments = polarizations * volume / (4 * math.pi * MU0_4PI) * far_mask[..., np.newaxis]
    r = (sensors[np.newaxis, :, np.newaxis] - positions[:, np.newaxis]) * MM  # (p, c, m, 3)
    dist = np.linalg.norm(r, axis=-1)
    mr = np.sum(moments[:, np.newaxis] * r, axis=-1)
    bz = MU0_4PI * (3 * mr * r[..., 2] / dist**5 - moments[:, np.newaxis, :, 2] / dist**3)
    sign = np.array([1.0 if pole == "S" else -1.0 for _, _, pole in g.WELL_CELLS])
    return near + bz.sum(axis=-1) * 1e3 * sign


@cache
def well_misreads(
    thresholds: tuple[float, float] = (g.HALL_ON_MT, g.HALL_OFF_MT),
    offsets: tuple[float, ...] = g.MISREAD_OFFSETS,
    tilts: tuple[float, ...] = g.MISREAD_TILTS,
    yaws: tuple[float, ...] = g.MISREAD_YAWS,
) -> dict[str, object]:
    """Whether any die, lying on any face in any turn, yawed, tilted up to ``MISREAD_TILTS``
    about either axis and pushed up to ``MISREAD_OFFSETS`` off its seat, with its magnets at
    either end of their grade and the sensors' elements at either end of their depth, can
    read a wrong face: with every switch's threshold anywhere in the datasheet's range (a
    switch whose field lies between B_RP min and B_OP max may read either way, all
    combinations taken), and again with any one switch dead or stuck on besides.

    ``thresholds``: B_OP max and B_RP min of the switches (mT). Also how often a die reads
    right for sure on its seat, and anywhere."""
    on_mt, off_mt = thresholds
    poses, centres = _tilted_placements(offsets, tilts, yaws)
    beside = _beside_die()
    words = codewords()
    masks = np.array(list(words), np.int64)
    faces = np.array(list(words.values()))
    truth = np.array([face for face, _ in poses])
    popcount = np.array([bin(k).count("1") for k in range(1 << len(g.WELL_CELLS))])
    weights = 1 << np.arange(len(g.WELL_CELLS))
    wrong = {0: 0, 1: 0}
    right = np.ones(len(poses), bool)
    for depth in (g.HALL_DEPTH - g.HALL_DEPTH_TOLERANCE, g.HALL_DEPTH + g.HALL_DEPTH_TOLERANCE):
        unit = _unit_fields(poses, centres, depth)
        low = np.where(unit > 0, unit * g.J_MIN, unit * g.J_MAX) - beside
        high = np.where(unit > 0, unit * g.J_MAX, unit * g.J_MIN) + beside
        sure_on = (low >= on_mt) @ weights
        sure_off = (high <= off_mt) @ weights
        # cells where a face's pattern disagrees with a switch that reads for sure
        every = (1 << len(g.WELL_CELLS)) - 1
        clash = popcount[
            (masks[np.newaxis] & sure_off[:, np.newaxis])
            | (~masks[np.newaxis] & every & sure_on[:, np.newaxis])
        ]
        other = faces[np.newaxis] != truth[:, np.newaxis]
        for faults in (0, 1):
            wrong[faults] += int(((clash <= faults) & other).any(axis=1).sum())
        own = faces[np.newaxis] == truth[:, np.newaxis]
        sure = (sure_on | sure_off) == every
        right &= sure & (own & (masks[np.newaxis] == sure_on[:, np.newaxis])).any(axis=1)
    seated = (np.abs(centres[:, :2]).max(axis=1) == 0) & (centres[:, 2] <= g.DIE / 2 + 1e-6)
    return {
        "wells_wrong_faces": wrong[0] + wrong[1],
        "wrong_faces_thresholds_only": wrong[0],
        "wrong_faces_with_a_dead_or_stuck_switch": wrong[1],
        "placements": 2 * len(poses),
        "positions": len(offsets) ** 2,
        "offsets_mm": [min(offsets), max(offsets)],
        "tilts": len(tilts) ** 2,
        "tilts_deg": [min(tilts), max(tilts)],
        "yaws_deg": list(yaws),
        "sensor_corners": "thresholds anywhere in B_RP min - B_OP max (all combinations), "
        "element depth at both ends, magnets at J_MIN and J_MAX, one switch dead or stuck",
        "read_right_seated": round(float(right[seated].mean()), 3) if seated.any() else None,
        "read_right_all": round(float(right.mean()), 3),
    }


# -- the displays ----------------------------------------------------------------------------


def display_fits() -> dict[str, dict[str, object]]:
    """Each display the design offers: whether its picture covers the playing area and the
    frame holds it (``documents.Build.fits``), and the reed band its slot spacing needs (the
    gap between the point rows follows from the display, and with it the neighbours'
    field on the reeds nearest the gap)."""
    import documents

    low, high = g.ORDER_PULL_IN_MT
    die = die_on_point()["max"]
    found = {}
    for choice in documents.DISPLAYS:
        slot = slot_figures(choice.key)
        fits = documents.build(choice.key).fits()
        need = math.ceil((slot.neighbours_max + die) * g.MIN_MARGIN * 20) / 20
        window = [max(low, need), high]
        read = min(slot.own_min - slot.neighbours_against, slot.stack_min) - die
        sag = documents.surface(documents.build(choice.key))
        fits.update(
            carrier_mm=sag["carrier_mm"],
            carrier_deflection_mm=sag["carrier_deflection_mm"],
            reed_window_mT=window,
            slot_ignore_margin=round(window[0] / (slot.neighbours_max + die), 2),
            slot_read_margin=round(read / high, 2),
            chosen=choice.key == documents.CHOSEN,
        )
        fits["fits"] = (
            bool(fits["fits"])
            and window[0] < window[1] - 0.3
            and sag["carrier_deflection_mm"] <= g.PANEL_GAP / 2
        )
        found[choice.key] = fits
    return found


# -- all the figures -------------------------------------------------------------------------


def figures() -> dict[str, object]:
    """Every figure the documents quote, with the margins the tests hold."""
    low, high = g.ORDER_PULL_IN_MT
    slot = slot_figures()
    die = die_on_point()
    well = well_figures()
    jig = jig_figures()
    read = min(slot.own_min - slot.neighbours_against, slot.stack_min) - die["max"]
    return {
        "pull_in_estimate_mT": list(g.PULL_IN_MT),
        "pull_in_ordered_mT": [low, high],
        "slot_read_min_mT": round(slot.own_min, 2),
        "slot_read_max_mT": round(slot.own_max, 2),
        "slot_neighbours_max_mT": round(slot.neighbours_max, 3),
        "slot_worst_reed": slot.worst_reed,
        "slot_stack_min_mT": round(slot.stack_min, 2),
        "slot_neighbours_against_mT": round(slot.neighbours_against, 3),
        "slot_read_margin": round(read / high, 2),
        "slot_ignore_margin": round(low / (slot.neighbours_max + die["max"]), 2),
        "die_on_point_max_mT": round(die["max"], 3),
        "die_on_point_exact_mT": round(die["exact_at_worst"], 3),
        "die_on_point_margin": round(low / die["max"], 2),
        "well_on_min_mT": round(well["on_min"], 2),
        "well_off_max_mT": round(well["off_max"], 3),
        "well_beside_mT": round(well["beside"], 3),
        "well_on_margin": round(well["on_min"] / g.HALL_ON_MT, 2),
        # None: every switch that must stay off sees the field point away from its pole
        "well_off_margin": (
            round(g.HALL_OFF_MT / well["off_max"], 2) if well["off_max"] > 0 else None
        ),
        "well_placements": well["placements"],
        "jig_on_min_mT": round(jig["on_min"], 2),
        "jig_off_max_mT": round(jig["off_max"], 3),
        "jig_on_margin": round(jig["on_min"] / g.HALL_ON_MT, 2),
        "jig_off_margin": round(g.HALL_OFF_MT / max(jig["off_max"], 1e-9), 2),
        "lead_forming_mT": {k: round(v, 2) for k, v in lead_forming().items()},
        "die_com_offset_mm": {k: round(v, 4) for k, v in die_balance().items()},
        "display_fits": display_fits(),
        **_surface(),
        "wells_wrong_faces": well_misreads()["wells_wrong_faces"],
        "wells": well_misreads(),
        **_dice(),
    }


def _dice() -> dict[str, object]:
    """The stored tower simulation's figures (throws.py) and the dice's magnetic pulls."""
    import throws

    rolled = {k: v for k, v in throws.stored().items() if k != "samples"}
    pulls = cling()
    return {
        "dice_face_shares": rolled["dice_face_shares"],
        "throws_simulated": rolled["throws"],
        "dice": rolled,
        "force_die_die_N": round(pulls["die_die_N"], 3),
        "force_die_man_N": round(pulls["die_man_N"], 3),
        "die_weight_N": round(pulls["die_weight_N"], 3),
        "cling_bound": g.MAX_CLING,
        "cling_margin": round(
            g.MAX_CLING * pulls["die_weight_N"] / max(pulls["die_die_N"], pulls["die_man_N"]), 2
        ),
    }


def _surface() -> dict[str, object]:
    """The chosen display's sheets under a forearm and a lean (documents.surface)."""
    import documents

    found = documents.surface(documents.build())
    return {
        "carrier_deflection_mm": found["carrier_deflection_mm"],
        "air_gap_mm": found["air_gap_mm"],
        "surface": found,
    }


# -- do the dice cling? ----------------------------------------------------------------------


def _face_rule(radius: float, rings: int = 3, spokes: int = 8) -> tuple[np.ndarray, float]:
    """Quadrature points of a magnet's end face (mm, about its centre) and each one's area
    (mm^2): equal-area rings, ``spokes`` points on each."""
    found = []
    for i in range(rings):
        r = radius * math.sqrt((i + 0.5) / rings)
        for k in range(spokes):
            a = (k + 0.5 * (i % 2)) * 2 * math.pi / spokes
            found.append((r * math.cos(a), r * math.sin(a)))
    return np.array(found), math.pi * radius**2 / (rings * spokes)


def _pull(
    sources: np.ndarray,
    source_j: np.ndarray,
    source_size: tuple[float, float],
    targets: np.ndarray,
    target_j: np.ndarray,
    fine: bool = True,
) -> np.ndarray:
    """The force along +z (N) on axial target magnets of size ``DIE_MAGNET`` from axial
    source magnets of ``source_size``, all polarized along z: for each configuration
    (leading axis), sources (c, s, 3) mm with polarizations (c, s) tesla, targets (c, t, 3)
    and (c, t). A uniformly magnetized target is its two end faces' pole sheets, so
    F_z = J/mu_0 (flux of B_z through its top face - through its bottom face), exact; the
    fluxes by quadrature of magpylib's exact cylinder field (``fine``: 24 points a face,
    else 12, within about 2 % of magpylib's getFT on one pair at the dice's gap)."""
    rule, area = _face_rule(g.DIE_MAGNET[0] / 2, *((3, 8) if fine else (2, 6)))
    half = g.DIE_MAGNET[1] / 2
    c, s = source_j.shape
    t = target_j.shape[1]
    ends = np.array([half, -half])
    # observers: (c, t, end, k, 3) around each target, relative to each source: (c, s, ...)
    observers = (
        targets[:, :, np.newaxis, np.newaxis, :]
        + np.concatenate(
            [
                np.broadcast_to(rule, (2, len(rule), 2)),
                np.broadcast_to(ends[:, np.newaxis, np.newaxis], (2, len(rule), 1)),
            ],
            axis=-1,
        )[np.newaxis, np.newaxis]
    )
    relative = observers[:, np.newaxis] - sources[:, :, np.newaxis, np.newaxis, np.newaxis]
    flat = relative.reshape(-1, 3) * MM
    count = flat.shape[0] // c // s
    j = np.repeat(source_j.reshape(-1), count)
    field = magpy.func.cylinder_field(
        "B",
        flat,
        np.tile((source_size[0] * MM, source_size[1] * MM), (len(flat), 1)),
        np.column_stack([np.zeros_like(j), np.zeros_like(j), j]),
    )
    bz = np.asarray(field)[:, 2].reshape(c, s, t, 2, len(rule)).sum(axis=(1, 4))  # (c, t, end)
    flux = (bz[..., 0] - bz[..., 1]) * area * MM**2
    return np.sum(target_j * flux, axis=1) / (4 * math.pi * MU0_4PI)


def _face_up(magnets: Magnets) -> tuple[np.ndarray, np.ndarray]:
    """The magnets under a die's top face (positions mm, polarization along z, tesla)."""
    top = magnets.positions[:, 2] > g.DIE / 4
    return magnets.positions[top], magnets.polarizations[top, 2]


def die_weight() -> float:
    """A die's weight (N): the printed body, its dense core, its magnets."""
    magnet = math.pi * (g.DIE_MAGNET[0] / 2) ** 2 * g.DIE_MAGNET[1]
    core = g.DIE_CORE**3
    grams = (
        (g.DIE**3 - core) * g.DIE_DENSITY
        + core * g.DIE_CORE_DENSITY
        + 6 * len(g.WELL_CELLS) * magnet * (g.MAGNET_DENSITY - g.DIE_DENSITY)
    )
    return grams * 1e-3 * 9.81


@cache
def cling() -> dict[str, float]:
    """The strongest pull (N) between two dice lying face to face and between a die and a
    man's base on any of its faces, against a die's weight.

    Two dice: every face of the lower die up against every face of the upper one in every
    quarter turn, turned a further ``CLING_YAWS`` and, square, slid ``CLING_SLIDES`` along
    and across (where other magnets come face to face); magnets at J_MAX. A man: his base
    (north face, or turned over) on every face, his magnet anywhere over it."""
    lower = die_magnets(g.J_MAX)
    faces_up = [
        lower.moved(Rotation.align_vectors([(0, 0, 1)], [normal])[0], (0, 0, 0))
        for normal in FACE_NORMALS.values()
    ]
    sources, source_j, targets, target_j = [], [], [], []
    turns = [(yaw, r) for yaw in g.CLING_YAWS for _, _, r in _die_rotations([yaw])]
    for yaw, rotation in turns:
        upper = lower.moved(rotation, (0.0, 0.0, g.DIE))
        near = upper.positions[:, 2] < g.DIE * 3 / 4  # the upper die's face down
        slides = g.CLING_SLIDES if yaw % 90 == 0 else (0.0,)
        for dx, dy in itertools.product(slides, repeat=2):
            for up in faces_up:
                position, j = _face_up(up)
                sources.append(position)
                source_j.append(j)
                targets.append(upper.positions[near] + (dx, dy, 0.0))
                target_j.append(upper.polarizations[near, 2])
    arrays = [np.array(a) for a in (sources, source_j, targets, target_j)]
    coarse = np.concatenate(
        [
            _pull(
                arrays[0][k : k + 512],
                arrays[1][k : k + 512],
                g.DIE_MAGNET,
                arrays[2][k : k + 512],
                arrays[3][k : k + 512],
                fine=False,
            )
            for k in range(0, len(sources), 512)
        ]
    )
    worst = np.argsort(coarse)[:16]  # the strongest pulls down, onto the lower die, again
    pulls = _pull(
        arrays[0][worst], arrays[1][worst], g.DIE_MAGNET, arrays[2][worst], arrays[3][worst]
    )
    die_die = -float(pulls.min())
    d, h = g.MAN_MAGNET
    reach = np.arange(-g.DIE / 2, g.DIE / 2 + 0.01, 1.5)
    men, men_j, dice, dice_j = [], [], [], []
    for up in faces_up:
        position, j = _face_up(up)
        for x, y in itertools.product(reach, repeat=2):
            for sign in (1.0, -1.0):
                men.append([(x, y, g.DIE / 2 + h / 2)])
                men_j.append([sign * g.J_MAX])
                dice.append(position)
                dice_j.append(j)
    on_die = _pull(np.array(men), np.array(men_j), g.MAN_MAGNET, np.array(dice), np.array(dice_j))
    # pulled up, toward the man
    return {
        "die_die_N": die_die,
        "die_man_N": float(on_die.max()),
        "die_weight_N": die_weight(),
    }
