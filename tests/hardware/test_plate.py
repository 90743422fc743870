"""The surface holds: the plate model (``hardware/plate.py``) agrees with the plate
handbooks' coefficients, and the sheets chosen sag at most half the air gap under a
forearm and a lean, for every display offered."""

from __future__ import annotations

import documents
import ezdxf
import geometry as g
import numpy as np
import plate
import pytest
from displays import DISPLAYS

CENTRE = np.array([[500.0, 500.0]])


def test_navier_matches_the_handbooks_square_plate() -> None:
    # Timoshenko & Woinowsky-Krieger: w = 0.00406 q a^4 / D (uniform), 0.01160 P a^2 / D
    # (central point load), for a simply supported square plate; here a = 1 m, D = 1 N m.
    uniform = plate.Patch(1.0, (500.0, 500.0), (1000.0, 1000.0))
    assert plate.deflection((1000, 1000), 1.0, [uniform], CENTRE)[0] == pytest.approx(
        4.06, rel=2e-3
    )
    point = plate.Patch(1.0, (500.0, 500.0), (1.0, 1.0))
    assert plate.deflection((1000, 1000), 1.0, [point], CENTRE, terms=201)[0] == pytest.approx(
        11.60, rel=2e-3
    )


def test_the_series_has_converged_for_the_patches_used() -> None:
    span = documents.build().opening[2:]
    lean = plate.Patch(150.0, (span[0] / 2, span[1] / 2), (100.0, 100.0))
    mid = np.array([[span[0] / 2, span[1] / 2]])
    coarse = plate.deflection(span, 100.0, [lean], mid)[0]
    fine = plate.deflection(span, 100.0, [lean], mid, terms=161)[0]
    assert coarse == pytest.approx(fine, rel=5e-3)


def test_a_load_off_centre_sags_less_and_the_plate_is_symmetric() -> None:
    span = (1000.0, 600.0)
    points = plate.grid(span)
    centred = plate.deflection(span, 50.0, [plate.Patch(100, (500, 300), (50, 50))], points)
    aside = plate.deflection(span, 50.0, [plate.Patch(100, (200, 150), (50, 50))], points)
    mirrored = plate.deflection(span, 50.0, [plate.Patch(100, (800, 450), (50, 50))], points)
    assert aside.max() < centred.max()
    assert aside.max() == pytest.approx(mirrored.max(), rel=1e-9)
    assert abs(centred[0]) < 1e-9  # a simply supported corner does not move


@pytest.mark.parametrize("choice", DISPLAYS, ids=lambda d: d.key)
def test_the_sheets_hold_a_forearm_and_a_lean_within_half_the_air_gap(choice: object) -> None:
    table = documents.build(choice.key)  # type: ignore[attr-defined]
    found = documents.surface(table)
    assert found["carrier_deflection_mm"] <= g.PANEL_GAP / 2
    assert found["lean_deflection_mm"] >= found["forearm_deflection_mm"] > found["own_weight_mm"]
    assert found["top_sheet_deflection_mm"] <= found["top_sheet_clearance_mm"] / 2
    thinner = [t for t in g.CARRIER_STOCK if t < table.carrier]
    if thinner:  # the thinnest stock sheet that holds: the next thinner one does not
        weaker = documents.surface(documents.replace(table, carrier=thinner[-1]))
        assert weaker["carrier_deflection_mm"] > g.PANEL_GAP / 2


def test_the_issues_six_millimetre_carrier_would_touch_the_panel() -> None:
    table = documents.replace(documents.build(), carrier=6.0)
    assert documents.surface(table)["carrier_deflection_mm"] > g.PANEL_GAP


def test_the_cut_files_carry_the_carrier_the_model_chose() -> None:
    for choice in DISPLAYS:
        table = documents.build(choice.key)
        root = documents.CUT_DIR / choice.key
        texts = [
            e.dxf.text for e in ezdxf.readfile(root / "carrier.dxf").modelspace().query("TEXT")
        ]
        assert any(f"carrier, {table.carrier:g} mm" in t for t in texts)
        frame = ezdxf.readfile(root / "frame.dxf").modelspace()
        walls = [t.dxf.text for t in frame.query("TEXT") if t.dxf.text.startswith("wall")]
        depth = 18 + choice.outline[2] + g.PANEL_GAP + table.carrier + g.SPACER + g.TOP + g.GUIDE
        assert len(walls) == 4 and all(f"x {depth:.1f} mm" in w for w in walls)


def test_the_figures_report_the_surface() -> None:
    import field

    found = field.figures()
    assert found["carrier_deflection_mm"] <= found["air_gap_mm"] / 2
    assert found["air_gap_mm"] == g.PANEL_GAP
