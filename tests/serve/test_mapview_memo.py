"""The page's hex records (`mapview.map_view`) are the records made straight from the maps, for every bundled
game, and stay so after a save when the records of the last view are kept: an unchanged hex's record is
taken as it was, a changed hex's is made again."""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_support import ROOT, copy_game, without_first_terrain

from authoring.load import load_project
from authoring.render.maps.scene import cells_of
from authoring.rules.hexsets import HexSets
from authoring.serve.frame import frame, preview_px, scenario_maps
from authoring.serve.mapview import _feature, _hexsides, _point, map_view

pytestmark = pytest.mark.slow  # the bundled games' map views


def _games(root: Path) -> dict:
    _, results = load_project(root)
    return {r.game.id: r.game for r in results if r.game is not None}


def reference_view(game, maps, px: float) -> dict:
    """The view made the straightforward way: every hex's cell, hexsides, sets and outline made afresh."""
    layout, size = frame(maps, px)
    cells = cells_of(maps)
    sides = _hexsides(maps, lambda h: cells[h].labels[0] if h in cells else "off-map")
    sets = HexSets(game.hex_sets, tuple(maps))
    in_sets: dict = {}
    for name in sets.names():
        for h in sets.resolve(name) or ():
            in_sets.setdefault(h, []).append(name)
    hexes = []
    for h in sorted(cells):
        cell, (x, y) = cells[h], layout.hex_to_pixel(h)
        hexes.append(
            {
                "id": cell.labels[0],
                "labels": list(cell.labels),
                "x": round(x, 1),
                "y": round(y, 1),
                "points": " ".join(_point(p) for p in layout.corners(h)),
                "terrain": list(cell.info.terrain),
                "features": [_feature(f) for f in cell.info.features],
                "hexsides": sorted(sides.get(h, ())),
                "sets": sorted(in_sets.get(h, ())),
            }
        )
    return {
        "size": list(size),
        "f": layout.size * 3**0.5,
        "px_per_hex": px,
        "maps": [m.id for m in maps],
        "hexes": hexes,
    }


@pytest.fixture(scope="module")
def games() -> dict:
    return _games(ROOT)


@pytest.mark.parametrize("gid", ["bfm", "bfm-art", "typhoon", "1941"])
def test_view_is_the_straightforward_one_for_each_scenarios_maps(games, gid):
    game = games[gid]
    choices = {tuple(s.maps) for s in game.scenarios.values()} | {()}
    memo: dict = {}
    for choice in sorted(choices):
        maps = scenario_maps(game, choice)
        px = preview_px(maps)
        want = reference_view(game, maps, px)
        assert want["hexes"] and any(r["features"] for r in want["hexes"]) and any(r["sets"] for r in want["hexes"])
        assert map_view(game, maps, px) == want
        assert map_view(game, maps, px, memo) == want  # a memo of another frame (or none) first
        assert map_view(game, maps, px, memo) == want  # then every record kept
    maps = scenario_maps(game, ())
    assert map_view(game, maps, 30.0, memo) == reference_view(game, maps, 30.0)  # another scale: new outlines


def test_a_terrain_save_remakes_that_hexs_record_and_keeps_the_others(tmp_path):
    root = copy_game("typhoon", tmp_path / "project")
    old = _games(root)["typhoon"]
    scen = old.scenarios["campaign"]
    before = scenario_maps(old, scen.maps)
    px = preview_px(before)
    memo: dict = {}
    first = map_view(old, before, px, memo)
    kept = {r["id"]: r for r in first["hexes"]}

    path = root / "maps" / "typhoon" / "M.yaml"
    text, label = without_first_terrain(path.read_text(encoding="utf-8"))
    while len([r for r in first["hexes"] if label in r["labels"]][0]["labels"]) > 1:  # shown with N's data
        text, label = without_first_terrain(text)
    path.write_text(text, encoding="utf-8")
    new = _games(root)["typhoon"]
    # as the page's picture frame keeps them (`tiles.Drawer.settle`): the unchanged maps' last objects
    after = [new.maps["M"] if m.id == "M" else m for m in before]
    second = map_view(new, after, px, memo)

    assert second == reference_view(new, after, px)
    changed = [r for r in second["hexes"] if r is not kept[r["id"]]]
    assert label in {r["id"] for r in changed} and len(changed) < 10
    [record] = [r for r in second["hexes"] if r["id"] == label]
    assert record["terrain"] == [new.maps["M"].default_terrain] != kept[label]["terrain"]
    assert second["size"] == first["size"] and second["f"] == first["f"]
