"""A module's HexGrid numbering as the project's grid: every hex id equals the engine's name (issue 19)."""

from __future__ import annotations

import itertools

import pytest

from authoring.hexgrid.vassal import vassal_label
from authoring.vmod.buildfile import _HEX_DEFAULTS, _NUMBERING_DEFAULTS
from authoring.vmod.grids import cropped, label_mismatches, project_grid


def _params(**kw):
    p = dict(_HEX_DEFAULTS)
    p.update(_NUMBERING_DEFAULTS)
    p.update(kw)
    return p


CASES = [
    dict(sideways=s, stagger=st, hOff=h, vOff=v, hType=ht, vType=vt, first=f, x0=x0, y0=y0)
    for s, st, (h, v), (ht, vt), f, (x0, y0) in itertools.product(
        (False, True),
        (False, True),
        ((0, 0), (1, 1), (7, 3), (-2, 1)),
        (("N", "N"), ("A", "N"), ("N", "A")),
        ("H", "V"),
        ((30, 30), (-31, 12), (95, 140)),
    )
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_every_hex_id_equals_the_engine_name(case):
    params = _params(dx=52.0, dy=60.0, **case)
    alpha_row = (case["vType"] if not case["sideways"] else case["hType"]) == "A"
    row_first = (case["first"] == "H") != (not case["sideways"])
    pg = project_grid(params, (700, 560))
    assert pg is not None and pg.grid["columns"] > 5 and pg.grid["rows"] > 5
    assert pg.grid["label"].get("row_first", False) == row_first  # issue 30: every sideways grid numbered "H"
    mismatches = label_mismatches(pg, params)
    if alpha_row:  # the project cannot print these: a warning says so
        assert pg.warnings
    else:
        assert mismatches == [], mismatches[:3]


def test_a_zone_grid_is_the_same_grid_on_the_cut_image():
    params = _params(dx=52.0, dy=60.0, x0=330, y0=45, hOff=21, vOff=1, stagger=False)
    pg = project_grid(cropped(params, 300, 20), (200, 220))
    assert pg.grid["first_column"] == 21 and label_mismatches(pg, cropped(params, 300, 20)) == []


def test_stretched_hexes_and_prefixes():
    params = _params(
        dx=62.353829072479584, dy=72.0, x0=-31, y0=122, hOff=0, vOff=1, stagger=False, locationFormat="M$gridLocation$"
    )
    pg = project_grid(params, (2493, 3920))
    assert pg.grid["label"]["prefix"] == "M" and "stretch" not in pg.art
    assert label_mismatches(pg, params) == []
    squashed = _params(dx=50.0, dy=60.0, stagger=False)
    pg = project_grid(squashed, (500, 400))
    assert pg.art["stretch"][0] == pytest.approx(50 * 3**0.5 / 90) and label_mismatches(pg, squashed) == []


DESCENDING = [
    dict(hDescend=hd, vDescend=vd, sideways=s, stagger=st, hOff=h, vOff=v, first=f, hType=ht)
    for (hd, vd), s, st, (h, v), f, ht in itertools.product(
        ((True, False), (False, True), (True, True)),
        (False, True),
        (False, True),
        ((0, 0), (3, 5)),
        ("H", "V"),
        ("N", "A"),
    )
]


@pytest.mark.parametrize("case", DESCENDING, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_descending_numbering_gives_the_engine_name_on_every_hex(case):
    """hDescend/vDescend count from the far side of the board (issue 30: they gave other ids on every hex)."""
    params = _params(dx=52.0, dy=60.0, x0=30, y0=30, container=(700, 560), **case)
    pg = project_grid(params, (700, 560))
    assert pg is not None and pg.grid["columns"] > 5 and pg.grid["rows"] > 5
    line_key, cross_key = ("columns", "rows") if not case["sideways"] else ("rows", "columns")
    line_desc = case["hDescend"] if not case["sideways"] else case["vDescend"]
    assert pg.grid["label"].get(f"{line_key}_descending", False) == line_desc
    assert not any("descending" in w for w in pg.warnings)
    if case["sideways"] and case["hType"] == "A":  # letters on rows: the project cannot print them (warned)
        assert pg.warnings
        return
    assert label_mismatches(pg, params) == [], label_mismatches(pg, params)[:3]


def test_descending_numbering_on_part_of_a_board_counts_from_the_whole_board():
    """A board cut into parts (or a zone) keeps the engine's count from its container's far edge."""
    params = _params(dx=52.0, dy=60.0, x0=30, y0=30, hDescend=True, vDescend=True, stagger=False, container=(1400, 560))
    whole = project_grid(params, (1400, 560))
    part = project_grid(cropped(params, 700, 0), (700, 560))
    assert label_mismatches(part, cropped(params, 700, 0)) == []
    assert part.grid["first_column"] == whole.grid["first_column"]  # the east half holds the low numbers


@pytest.mark.parametrize("sideways", (False, True))
@pytest.mark.parametrize("desc", ((True, False), (False, True), (True, True)))
def test_a_descending_project_grid_compiles_to_engine_numbering_that_prints_its_ids(sideways, desc):
    """The module compiler gives VASSAL hDescend/vDescend and offsets for the board's size, so the rebuilt
    module names every hex as the project does (and as the original module did)."""
    from authoring.hexgrid import PixelLayout, vassal_grid_params, vassal_label
    from authoring.vmod.grids import registration

    params = _params(
        dx=52.0,
        dy=60.0,
        x0=30,
        y0=30,
        hDescend=desc[0],
        vDescend=desc[1],
        sideways=sideways,
        stagger=False,
        hOff=1,
        vOff=1,
        container=(700, 560),
    )
    pg = project_grid(params, (700, 560))
    grid, _ = registration(pg)
    layout = PixelLayout.for_grid(grid, 40.0, margin=13.0)
    size = layout.bounds(grid.hexes, 13.0)
    compiled = vassal_grid_params(layout, grid, size)
    assert compiled["hDescend"] or compiled["vDescend"]
    wrong = [
        (grid.hex_to_label(h), vassal_label(compiled, *layout.hex_to_pixel(h)))
        for h in grid.hexes
        if vassal_label(compiled, *layout.hex_to_pixel(h)) != grid.hex_to_label(h)
    ]
    assert wrong == [], wrong[:3]


ENGINE_GRIDS = {  # hand-made boards of 520 x 420 px, a piece on every hex centre the board holds
    "flat-both-stagger": dict(sideways=False, hDescend=True, vDescend=True, stagger=True, hOff=2, vOff=1),
    "flat-rows": dict(sideways=False, hDescend=False, vDescend=True, stagger=False, hOff=1, vOff=0),
    "sideways-both": dict(sideways=True, hDescend=True, vDescend=True, stagger=False, hOff=0, vOff=1),
    "sideways-h-stagger": dict(sideways=True, hDescend=True, vDescend=False, stagger=True, hOff=1, vOff=1),
}


def _engine_module(tmp_path, name: str, case: dict):
    """A module whose one board has the case's numbering and a set-up with a piece on each hex centre."""
    import handmade as hm

    from authoring.hexgrid import vassal_snap

    attrs = " ".join(f'{k}="{str(v).lower()}"' for k, v in case.items() if k != "sideways")
    grid = (
        f'<{hm.HEX} dx="52.0" dy="60.0" x0="30" y0="30" sideways="{str(case["sideways"]).lower()}" '
        f'snapTo="true" visible="false"><{hm.NUMBERING} first="H" hLeading="1" vLeading="1" hType="N" '
        f'vType="N" sep="" locationFormat="$gridLocation$" {attrs}/></{hm.HEX}>'
    )
    params = _params(dx=52.0, dy=60.0, x0=30, y0=30, container=(520, 420), **case)
    centres = sorted({vassal_snap(params, x, y) for x in range(0, 520, 13) for y in range(0, 420, 13)})
    centres = [(x, y) for x, y in centres if 0 <= x < 520 and 0 <= y < 420]
    inf = hm.unit("Inf", "inf.png")
    commands = [hm.placed(inf, "Main Map", x, y, str(100 + i)) for i, (x, y) in enumerate(centres)]
    body = (
        hm.map_window("Main Map", hm.board("Main", "board.png", grid))
        + hm.palette(("Units", [hm.slot("Inf", inf, 1)]))
        + hm.setup("Every hex", "every.vsav")
    )
    module = hm.module(
        tmp_path,
        name,
        body,
        {"board.png": hm.png((520, 420), "#e8e4c9"), "inf.png": hm.png((40, 40))},
        {"every.vsav": hm.saved_game({"Main Map": ["Main"]}, commands)},
    )
    return module, params, centres


@pytest.mark.slow
@pytest.mark.skipif(not __import__("engine").CHECKER.exists(), reason=__import__("engine").SKIP_REASON)
@pytest.mark.parametrize("name", sorted(ENGINE_GRIDS))
def test_descending_numbering_matches_the_real_engine_on_every_hex(name, tmp_path):
    """The real engine names every hex centre of a descending grid as `vassal_label` does, and the imported
    project's map has the hex of that name at that spot."""
    from engine import engine_report

    from authoring.vmod.grids import registration

    module, params, centres = _engine_module(tmp_path, name, ENGINE_GRIDS[name])
    report = engine_report(module)
    pieces = report["setups"][0]["pieces"]
    assert len(pieces) == len(centres) > 40
    assert all(p["location"] == vassal_label(params, p["x"], p["y"]) for p in pieces), [
        (p["x"], p["y"], p["location"], vassal_label(params, p["x"], p["y"])) for p in pieces
    ][:3]
    grid, reg = registration(project_grid(params, (520, 420)))
    checked = set()
    for p in pieces:  # a project map is rectangular: the odd lines' extra end hexes are not on it
        h = grid.label_to_hex(p["location"])
        if h is not None:
            x, y = reg.hex_to_image(h)
            assert abs(x - p["x"]) < 1.5 and abs(y - p["y"]) < 1.5, (p, (x, y))
            checked.add(h)
    assert checked == set(grid.hexes)  # every hex of the imported map, where the engine has its name


def test_shifted_names_printed_columns_also_when_they_descend():
    """`shifted: even` puts the columns PRINTED with even numbers half a hex lower, whichever way they run."""
    from authoring.hexgrid import MapGrid, PixelLayout
    from authoring.hexgrid.grid import GridSpec
    from authoring.hexgrid.labels import LabelFormat

    grid = MapGrid(GridSpec("flat", 4, 3, 1, 1, "even", LabelFormat(columns_descending=True)))
    layout = PixelLayout("flat", 10.0)
    y = {grid.hex_to_label(h)[:2]: layout.hex_to_pixel(h)[1] for h in grid.hexes if grid.hex_to_label(h)[2:] == "01"}
    assert y["04"] > y["03"] and y["02"] > y["01"] and y["04"] == y["02"]  # printed 04 is the west-most
