"""A module's HexGrid numbering as the project's grid: every hex id equals the engine's name (issue 19)."""
from __future__ import annotations

import itertools

import pytest

from authoring.vmod.buildfile import _HEX_DEFAULTS, _NUMBERING_DEFAULTS
from authoring.vmod.grids import cropped, label_mismatches, project_grid


def _params(**kw):
    p = dict(_HEX_DEFAULTS)
    p.update(_NUMBERING_DEFAULTS)
    p.update(kw)
    return p


CASES = [dict(sideways=s, stagger=st, hOff=h, vOff=v, hType=ht, vType=vt, first=f, x0=x0, y0=y0)
         for s, st, (h, v), (ht, vt), f, (x0, y0) in itertools.product(
             (False, True), (False, True), ((0, 0), (1, 1), (7, 3), (-2, 1)), (("N", "N"), ("A", "N"), ("N", "A")),
             ("H", "V"), ((30, 30), (-31, 12), (95, 140)))]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_every_hex_id_equals_the_engine_name(case):
    params = _params(dx=52.0, dy=60.0, **case)
    alpha_row = (case["vType"] if not case["sideways"] else case["hType"]) == "A"
    row_first = (case["first"] == "H") != (not case["sideways"])
    pg = project_grid(params, (700, 560))
    assert pg is not None and pg.grid["columns"] > 5 and pg.grid["rows"] > 5
    assert pg.grid["label"].get("row_first", False) == row_first   # issue 30: every sideways grid numbered "H"
    mismatches = label_mismatches(pg, params)
    if alpha_row:   # the project cannot print these: a warning says so
        assert pg.warnings
    else:
        assert mismatches == [], mismatches[:3]


def test_a_zone_grid_is_the_same_grid_on_the_cut_image():
    params = _params(dx=52.0, dy=60.0, x0=330, y0=45, hOff=21, vOff=1, stagger=False)
    pg = project_grid(cropped(params, 300, 20), (200, 220))
    assert pg.grid["first_column"] == 21 and label_mismatches(pg, cropped(params, 300, 20)) == []


def test_stretched_hexes_and_prefixes():
    params = _params(dx=62.353829072479584, dy=72.0, x0=-31, y0=122, hOff=0, vOff=1, stagger=False,
                     locationFormat="M$gridLocation$")
    pg = project_grid(params, (2493, 3920))
    assert pg.grid["label"]["prefix"] == "M" and "stretch" not in pg.art
    assert label_mismatches(pg, params) == []
    squashed = _params(dx=50.0, dy=60.0, stagger=False)
    pg = project_grid(squashed, (500, 400))
    assert pg.art["stretch"][0] == pytest.approx(50 * 3 ** 0.5 / 90) and label_mismatches(pg, squashed) == []
