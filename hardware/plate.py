"""Does the surface hold? The sheets' deflection by Kirchhoff plate theory.

The carrier rests on the frame's ledge ring all round: a thin rectangular plate simply
supported on four edges, for which Navier's double sine series is the exact solution of
Kirchhoff's plate equation (D del^4 w = q). A patch load (a forearm, a hand) of total P
spread evenly over u x v centred at (xi, eta) on an a x b plate has the load coefficients

    q_mn = 16 P / (pi^2 m n u v) sin(m pi xi / a) sin(n pi eta / b)
           sin(m pi u / 2a) sin(n pi v / 2b)

and the deflection w(x, y) = sum q_mn / (D pi^4 (m^2/a^2 + n^2/b^2)^2) sin(m pi x / a)
sin(n pi y / b). Why a series and not a finite-element library: for a simply supported
rectangle the series *is* the plate theory's answer, converges fast (terms fall as
1/(m n)^3 and faster), needs nothing beyond numpy, and is checked here against the
coefficients every plate handbook tabulates (Timoshenko and Woinowsky-Krieger, "Theory of
Plates and Shells", tables 8 and 23: a square plate's centre deflection 0.00406 q a^4 / D
under a uniform load and 0.01160 P a^2 / D under a central point load).

The sheets lie loose on one another, so they bend together, each about its own middle:
their rigidities add (no composite action is counted). Only the carrier and the top sheet
are counted: the spacer frame and the guide sheet are mostly windows and holes (their
weight is counted all the same). The sheets' own weight is a lasting load, taken with the
plastics' creep modulus; a forearm or a lean is a short one.

Resting on a ledge, a plate's corners would lift under load; the four dowel pins through
every sheet and the frame hold them down, which Navier's solution assumes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

G = 9.81
TERMS = 41  # m, n = 1..TERMS: converged to well under 0.5 % (test_plate)


@dataclass(frozen=True)
class Material:
    """A sheet's plastic: short-term and creep moduli (Pa), Poisson's ratio, density."""

    name: str
    modulus: float
    creep_modulus: float  # after years under its own weight at room temperature
    poisson: float
    density: float  # kg/m^3


# Datasheet values at their low end: cast PMMA (Plexiglas GS, Perspex: 3.2-3.3 GPa short
# term) and polycarbonate (Makrolon/Lexan: 2.3-2.4 GPa); creep moduli at low stress after
# about 10^4 h from the same makers' creep curves, rounded down.
ACRYLIC = Material("cast acrylic (PMMA)", 3.0e9, 2.0e9, 0.37, 1190.0)
POLYCARBONATE = Material("polycarbonate", 2.3e9, 1.7e9, 0.38, 1200.0)


def rigidity(material: Material, thickness_mm: float, lasting: bool = False) -> float:
    """The plate's flexural rigidity D = E h^3 / 12 (1 - nu^2), N m."""
    modulus = material.creep_modulus if lasting else material.modulus
    h = thickness_mm * 1e-3
    return modulus * h**3 / (12 * (1 - material.poisson**2))


@dataclass(frozen=True)
class Patch:
    """A load of ``force`` newtons spread evenly over ``size`` (mm) centred at ``centre``
    (mm, from the plate's corner)."""

    force: float
    centre: tuple[float, float]
    size: tuple[float, float]


def deflection(
    span: tuple[float, float],
    rigidity_nm: float,
    patches: list[Patch],
    points: np.ndarray,
    terms: int = TERMS,
) -> np.ndarray:
    """Navier's series: the deflection (mm, down) at ``points`` (mm, shape (k, 2)) of a
    simply supported ``span`` (mm) plate of rigidity ``rigidity_nm`` under ``patches``."""
    a, b = span[0] * 1e-3, span[1] * 1e-3
    m = np.arange(1, terms + 1)[:, np.newaxis]
    n = np.arange(1, terms + 1)[np.newaxis, :]
    load = np.zeros((terms, terms))
    for patch in patches:
        xi, eta = patch.centre[0] * 1e-3, patch.centre[1] * 1e-3
        u, v = patch.size[0] * 1e-3, patch.size[1] * 1e-3
        load += (
            16
            * patch.force
            / (math.pi**2 * m * n * u * v)
            * np.sin(m * math.pi * xi / a)
            * np.sin(n * math.pi * eta / b)
            * np.sin(m * math.pi * u / (2 * a))
            * np.sin(n * math.pi * v / (2 * b))
        )
    coefficient = load / (rigidity_nm * math.pi**4 * (m**2 / a**2 + n**2 / b**2) ** 2)
    x = np.asarray(points, float)[:, 0] * 1e-3
    y = np.asarray(points, float)[:, 1] * 1e-3
    sx = np.sin(np.outer(x, m[:, 0]) * math.pi / a)  # (k, terms)
    sy = np.sin(np.outer(y, n[0]) * math.pi / b)
    return np.einsum("km,mn,kn->k", sx, coefficient, sy) * 1e3


def grid(span: tuple[float, float], steps: int = 12) -> np.ndarray:
    """Points over the plate, edge to edge, ``steps`` intervals each way."""
    xs = np.linspace(0, span[0], steps + 1)
    ys = np.linspace(0, span[1], steps + 1)
    return np.array([(x, y) for x in xs for y in ys])


@dataclass(frozen=True)
class Sheet:
    """One loose sheet of the stack: its plastic, thickness, and whether it bends with
    the carrier (counted in the rigidity) or only weighs on it."""

    material: Material
    thickness: float
    counted: bool


FOREARM = (50.0, (60.0, 100.0))  # N, and the patch it presses on (mm)
LEAN = (150.0, (100.0, 100.0))  # N: a player leaning on one hand (all on one patch)
MEN_WEIGHT = 30 * 0.020 * G  # thirty men of about 20 g, spread over the field


def worst_sag(
    span: tuple[float, float], sheets: list[Sheet], load: tuple[float, tuple[float, float]]
) -> dict[str, float]:
    """The most the stack sags anywhere (mm) with ``load`` pressed at its worst place (a
    grid of places over the span), on top of the sheets' and the men's own weight."""
    short = sum(rigidity(s.material, s.thickness) for s in sheets if s.counted)
    lasting = sum(rigidity(s.material, s.thickness, lasting=True) for s in sheets if s.counted)
    weight = sum(s.material.density * s.thickness * 1e-3 for s in sheets) * G
    area = span[0] * span[1] * 1e-6
    whole = Patch(weight * area + MEN_WEIGHT, (span[0] / 2, span[1] / 2), span)
    points = grid(span)
    own = deflection(span, lasting, [whole], points)
    force, size = load
    worst, where = 0.0, (0.0, 0.0)
    for cx in np.linspace(size[0] / 2, span[0] / 2, 6):  # symmetric: one quarter suffices
        for cy in np.linspace(size[1] / 2, span[1] / 2, 6):
            pressed = deflection(span, short, [Patch(force, (cx, cy), size)], points)
            total = float((own + pressed).max())
            if total > worst:
                worst, where = total, (float(cx), float(cy))
    return {"sag_mm": worst, "own_weight_mm": float(own.max()), "x_mm": where[0], "y_mm": where[1]}
