"""Do the dice roll fair? Throws down the dice tower, simulated with pybullet.

A rigid-body simulation (Bullet, through pybullet: a well-kept physics engine made for
contact-rich rigid bodies) of a 30 mm die dropped into the tower in a random orientation
and spin, tumbling over its three baffles and sliding down the ramp to its well. The
tower's chute is square and much wider than the die (``CHUTE``), so the die turns about
every axis (the old 30.6 mm chute let it turn about one), and every passage in it is
wider than the die's space diagonal (``clearances``); the ramp falls at ``RAMP_ANGLE``
along and ``RAMP_CROSS`` across, steeper than the friction angle both ways, so the die
comes to rest in the corner of the end wall and the low side wall (both lined with PTFE
tape): its seat over the well's sensors.

Bullet keeps a collision margin of a few hundredths of its length unit, so the world is
built ten times larger with gravity ten times stronger: the same motion, the same times.

``python hardware/throws.py N`` runs N throws and writes ``THROWS`` (the shares and each
throw's seed and face); ``documents.py --check`` reports the stored figures and
``tests/hardware`` holds them to their statistical bound and runs a few throws again.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import geometry as g

THROWS = Path(__file__).resolve().parent / "throws.json"
SCALE = 10.0  # world units a millimetre x 1e-3 x SCALE: 30 mm die -> 0.3
CHUTE = 80.0  # the tower's square chute, inside (mm): the die turns every way
TOWER = 220.0  # its height
BAFFLES = ((170.0, 1), (120.0, -1), (70.0, 1))  # height and the side each hangs from
BAFFLE_ANGLE = 35.0  # degrees down from level, toward the open side
BAFFLE_REACH = 28.0  # how far a baffle reaches down into the chute (mm): 57 mm left
RAMP_LENGTH = 240.0
# degrees: the ramp falls across too, toward its low side wall, steeper than the friction
# angle (atan 0.35 = 19 degrees): a die stopped by the end wall still slides into the corner
RAMP_CROSS = 30.0
CHANNEL = CHUTE  # the ramp's channel (mm), as wide as the chute, all the way to the end wall
FRICTION = 0.35  # PLA on acrylic
LINING = 0.2  # PLA on the PTFE tape lining the end wall and the low side wall
CLEAR = 45.0  # the chute's low side wall ends this far above the ramp (mm): a die's diagonal
RESTITUTION = 0.35
STEP = 1.0 / 960.0
REST_SPEED = 0.002  # world units a second: at rest below this, linear and angular
LIMIT = 6.0  # seconds: a throw not at rest by then does not count as resting


def _m(mm: float) -> float:
    return mm * 1e-3 * SCALE


class Tower:
    """The tower, its ramp and the well, in a pybullet world of their own."""

    def __init__(self) -> None:
        import pybullet as p

        self.p = p
        self.client = p.connect(p.DIRECT)
        p.setGravity(0, 0, -9.81 * SCALE, physicsClientId=self.client)
        p.setTimeStep(STEP, physicsClientId=self.client)
        self._walls()
        half = _m(g.DIE / 2)
        shape = p.createCollisionShape(
            p.GEOM_BOX, halfExtents=[half] * 3, physicsClientId=self.client
        )
        mass, inertia = die_mass()
        self.die = p.createMultiBody(mass, shape, physicsClientId=self.client)
        p.changeDynamics(
            self.die,
            -1,
            localInertiaDiagonal=[inertia] * 3,
            # Bullet multiplies the two bodies' coefficients in a contact: the die carries 1
            # and the walls the pair's figures (both at FRICTION made it 0.35^2 = 0.12)
            lateralFriction=1.0,
            restitution=1.0,
            rollingFriction=0.0,
            physicsClientId=self.client,
        )

    def _box(
        self,
        centre: tuple[float, float, float],
        half: tuple[float, float, float],
        rotation: tuple[float, float, float, float],
        friction: float = FRICTION,
    ) -> None:
        p = self.p
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=half, physicsClientId=self.client)
        body = p.createMultiBody(
            0, shape, basePosition=centre, baseOrientation=rotation, physicsClientId=self.client
        )
        p.changeDynamics(
            body, -1, lateralFriction=friction, restitution=RESTITUTION, physicsClientId=self.client
        )

    def _walls(self) -> None:
        """The chute (x, y in -CHUTE/2..CHUTE/2, z 0..TOWER above the ramp's top), its
        baffles, and the ramp running down +x from under it to the end wall."""
        p = self.p
        flat = p.getQuaternionFromEuler((0, 0, 0))
        t = _m(3.0)  # wall half-thickness
        c, h = _m(CHUTE / 2), _m(TOWER / 2)
        top = _m(TOWER)
        # chute walls: -x (back), +y, -y; +x is open below the lowest baffle (the exit)
        self._box((-c - t, 0, h), (t, c + 2 * t, h), flat)
        # The high side wall reaches down past the ramp falling away under the chute. The
        # low one ends CLEAR above the ramp's highest point under it: reaching down, it hung
        # over the ramp falling across, and a die slid under it lodged (the ramp's own low
        # wall, square to the ramp, runs on under the chute).
        low = _m(60)
        self._box((0, -c - t, h - low / 2), (c + 2 * t, t, h + low / 2), flat)
        bottom = _m(CLEAR) - c * math.tan(math.radians(RAMP_CROSS))
        self._box((0, c + t, (top + bottom) / 2), (c + 2 * t, t, (top - bottom) / 2), flat)
        exit_top = _m(BAFFLES[-1][0] - 20)
        self._box((c + t, 0, (top + exit_top) / 2), (t, c + 2 * t, (top - exit_top) / 2), flat)
        for height, side in BAFFLES:
            reach = _m(BAFFLE_REACH / 2)
            tilt = math.radians(BAFFLE_ANGLE) * side
            x = side * (-c + reach * math.cos(tilt))
            q = p.getQuaternionFromEuler((0, tilt, 0))
            self._box((x, 0, _m(height)), (reach, c, t), q)
        # the ramp: a plane through the chute's foot, falling RAMP_ANGLE along +x and
        # RAMP_CROSS toward +y, with an end wall and side walls square to it
        along, cross = math.radians(g.RAMP_ANGLE), math.radians(RAMP_CROSS)
        q = p.getQuaternionFromEuler((-cross, along, 0))
        self.ramp = q
        length = _m(RAMP_LENGTH + CHUTE)
        half_w = _m(CHANNEL / 2)
        origin = (-c, 0.0, 0.0)
        rot = p.getMatrixFromQuaternion(q)
        ex = (rot[0], rot[3], rot[6])
        ey = (rot[1], rot[4], rot[7])
        ez = (rot[2], rot[5], rot[8])
        self.axes = (ex, ey, ez)

        def at(u: float, v: float, w: float) -> tuple[float, float, float]:
            return tuple(origin[i] + u * ex[i] + v * ey[i] + w * ez[i] for i in range(3))  # type: ignore[return-value]

        self.at = at
        self._box(at(length / 2, 0, -t), (length / 2, c + 2 * t, t), q)  # floor
        # the end wall, lined (LINING)
        self._box(at(length + t, 0, _m(40)), (t, half_w + 2 * t, _m(40)), q, LINING)
        # side walls straight from the chute to the end wall; the ramp falls across
        # steeper than the friction angle, so the die ends square in the corner of the end
        # wall and the low side wall (+y): its seat, over the well's sensors
        chute = _m(CHUTE)  # under the chute its own walls hold the die
        self._box(at(length / 2, half_w + t, _m(40)), (length / 2, t, _m(40)), q, LINING)
        self._box(
            at((chute + length) / 2, -half_w - t, _m(40)), ((length - chute) / 2, t, _m(40)), q
        )
        self.seat = at(length - _m(g.DIE / 2), half_w - _m(g.DIE / 2), _m(g.DIE / 2))

    def throw(self, seed: int) -> dict[str, object]:
        """Drop the die in from the tower's mouth, randomly turned and spinning, and let it
        come to rest: the face up, whether it rests flat in its seat, and how long it took."""
        p = self.p
        rng = random.Random(seed)
        quaternion = _uniform_rotation(rng)
        c = CHUTE / 2 - g.DIE / 2 - 2
        start = (_m(rng.uniform(-c, c)), _m(rng.uniform(-c, c)), _m(TOWER + 40))
        p.resetBasePositionAndOrientation(self.die, start, quaternion, physicsClientId=self.client)
        spin = [rng.uniform(-30, 30) for _ in range(3)]
        push = [_m(rng.uniform(-100, 100)), _m(rng.uniform(-100, 100)), -_m(rng.uniform(0, 500))]
        p.resetBaseVelocity(self.die, push, spin, physicsClientId=self.client)
        still, steps = 0, 0
        while steps * STEP < LIMIT:
            p.stepSimulation(physicsClientId=self.client)
            steps += 1
            if steps % 24:
                continue
            v, w = p.getBaseVelocity(self.die, physicsClientId=self.client)
            slow = max(map(abs, v)) < REST_SPEED * SCALE and max(map(abs, w)) < 0.05
            still = still + 1 if slow else 0
            if still >= 10 and steps * STEP > 0.5:
                break
        position, orientation = p.getBasePositionAndOrientation(
            self.die, physicsClientId=self.client
        )
        up = self.axes[2]
        matrix = p.getMatrixFromQuaternion(orientation)
        columns = [(matrix[0 + k], matrix[3 + k], matrix[6 + k]) for k in range(3)]
        best, face, tilt = -2.0, 0, 90.0
        for index, sign, number in (
            (2, -1, 1),
            (2, 1, 6),
            (1, -1, 2),
            (1, 1, 5),
            (0, 1, 3),
            (0, -1, 4),
        ):
            dot = sign * sum(columns[index][i] * up[i] for i in range(3))
            if dot > best:
                best, face = dot, number
        tilt = math.degrees(math.acos(max(-1.0, min(1.0, best))))
        off = math.dist(position, self.seat) / SCALE * 1e3  # mm
        return {
            "seed": seed,
            "face_up": face,
            "seated": off <= 1.0 and tilt <= 1.0,
            "off_seat_mm": round(off, 2),
            "tilt_deg": round(tilt, 2),
            "seconds": round(steps * STEP, 2),
        }

    def close(self) -> None:
        self.p.disconnect(physicsClientId=self.client)


def clearances() -> dict[str, float]:
    """Why no die lodges: the narrowest passage in the chute (mm; between a baffle's tip
    and the wall across, or the baffle below), wider than the die's space diagonal (a die
    wedged across a passage narrower than it lodged 2 % of the throws), and the ramp's fall
    across against the friction angle (a die stopped by the end wall slides on into its
    corner; the old funnel to a 31 mm channel wedged 1 % of the dice yawed across it)."""
    tips, roots = [], []
    for height, side in BAFFLES:
        wall = -side * CHUTE / 2
        a = math.radians(BAFFLE_ANGLE)
        roots.append((wall, height))
        tips.append((wall + side * BAFFLE_REACH * math.cos(a), height - BAFFLE_REACH * math.sin(a)))
    passages = [CHUTE / 2 - side * tip[0] for (_, side), tip in zip(BAFFLES, tips, strict=True)]
    for k in range(len(BAFFLES) - 1):
        (x, z), (x0, z0), (x1, z1) = tips[k], roots[k + 1], tips[k + 1]
        dx, dz = x1 - x0, z1 - z0
        t = max(0.0, min(1.0, ((x - x0) * dx + (z - z0) * dz) / (dx * dx + dz * dz)))
        passages.append(math.hypot(x - x0 - t * dx, z - z0 - t * dz))
    return {
        "narrowest_passage_mm": round(min(passages), 1),
        "die_diagonal_mm": round(g.DIE * math.sqrt(3), 1),
        "ramp_cross_deg": RAMP_CROSS,
        "friction_deg": round(math.degrees(math.atan(FRICTION)), 1),
    }


def die_mass() -> tuple[float, float]:
    """The die's mass (kg) and its moment of inertia about any axis through its centre
    (kg in world units squared): the printed cube with its brass core (the magnets are a
    fraction of a gram)."""
    core = g.DIE_CORE
    parts = (
        (g.DIE, g.DIE**3 * g.DIE_DENSITY),
        (core, core**3 * (g.DIE_CORE_DENSITY - g.DIE_DENSITY)),
    )
    mass = sum(grams for _, grams in parts) * 1e-3
    inertia = sum(grams * 1e-3 * _m(edge) ** 2 / 6 for edge, grams in parts)
    return mass, inertia


def _uniform_rotation(rng: random.Random) -> tuple[float, float, float, float]:
    """A rotation drawn uniformly (Shoemake's method), as pybullet's quaternion (x, y, z, w)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    return (
        a * math.sin(2 * math.pi * u2),
        a * math.cos(2 * math.pi * u2),
        b * math.sin(2 * math.pi * u3),
        b * math.cos(2 * math.pi * u3),
    )


def run(count: int, first_seed: int = 1) -> dict[str, object]:
    """``count`` throws from seed ``first_seed`` on: each face's share and its bound (three
    standard errors of a fair die's 1/6), a chi-square test of the counts, and how many came
    to rest flat in their seat."""
    tower = Tower()
    try:
        throws = [tower.throw(seed) for seed in range(first_seed, first_seed + count)]
    finally:
        tower.close()
    return summary(throws)


def summary(throws: list[dict[str, object]]) -> dict[str, object]:
    """The shares, bounds and chi-square of ``throws`` (faces counted over all of them)."""
    count = len(throws)
    counts = {face: sum(1 for t in throws if t["face_up"] == face) for face in range(1, 7)}
    expected = count / 6
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    bound = 3 * math.sqrt((1 / 6) * (5 / 6) / count)
    return {
        "throws": count,
        "dice_face_shares": {str(f): round(n / count, 4) for f, n in counts.items()},
        "share_bound": round(bound, 4),
        "chi_square": round(chi2, 2),
        "chi_square_limit": 20.52,  # 5 degrees of freedom, p = 0.001
        "seated_share": round(sum(1 for t in throws if t["seated"]) / count, 4),
        "worst_off_seat_mm": max(float(t["off_seat_mm"]) for t in throws),  # type: ignore[arg-type]
        "samples": throws[:24],
    }


def stored() -> dict[str, object]:
    """The figures of the last big run (``python hardware/throws.py N``)."""
    return json.loads(THROWS.read_text(encoding="utf-8"))


if __name__ == "__main__":
    found = run(int(sys.argv[1]) if len(sys.argv) > 1 else 1200)
    THROWS.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in found.items() if k != "samples"}))
