"""Map marks the rules use are printed from the data: Battle for Moscow's entry arrows (single and triple)
on the drawn map, and the fortifications, set-up marks and arrows a painted map's `art.overlay` names
drawn over the designer's art, in the same image the print tiles and the module use."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from authoring.load import discover, load_game
from authoring.render.maps.draw import render_map
from authoring.render.maps.frame import map_layout
from authoring.render.shared.art import art_plan

ROOT = Path(__file__).resolve().parents[2]
PX = 60.0


def _game(game_id: str):
    result = load_game(next(f for f in discover(ROOT) if f.id == game_id))
    assert result.ok, [str(d) for d in result.diagnostics]
    return result.game


def _without(game, feature: str, art_overlay: tuple[str, ...] | None = None):
    """The game with one hex feature taken off its map (and, for a painted map, another overlay)."""
    m = game.maps["main"]
    hexes = {
        h: replace(info, features=tuple(f for f in info.features if f.type != feature)) for h, info in m.hexes.items()
    }
    art = m.art if art_overlay is None else replace(m.art, overlay=art_overlay)
    return replace(game, maps={"main": replace(m, hexes=hexes, art=art)})


def _changed(a, b) -> np.ndarray:
    return np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).max(axis=2) > 40


@pytest.mark.slow
@pytest.mark.parametrize("feature, count", [("single-arrow", 10), ("triple-arrow", 3)])
def test_bfm_entry_arrows_are_drawn_at_every_hex_of_their_set(feature, count):
    game = _game("bfm")
    m = game.maps["main"]
    hexes = m.hexes_with_feature(feature)
    assert len(hexes) == count
    changed = _changed(render_map(game, "main", PX), render_map(_without(game, feature), "main", PX))
    layout = map_layout(game, "main", PX)
    for h in hexes:  # each arrow ends inside its hex, on the side facing off the map
        x, y = layout.hex_to_pixel(h)
        r = round(0.75 * PX)
        near = changed[max(0, round(y) - r) : round(y) + r, max(0, round(x) - r) : round(x) + r]
        assert near.sum() > 20, m.label(h)
    ys, xs = np.nonzero(changed)
    centres = [layout.hex_to_pixel(h) for h in hexes]
    far = [min((x - cx) ** 2 + (y - cy) ** 2 for cx, cy in centres) ** 0.5 for x, y in zip(xs[::50], ys[::50])]
    assert max(far) < 1.2 * PX  # nothing drawn away from the set's hexes


def test_the_triple_arrow_draws_three_shafts():
    game = _game("bfm")
    m = game.maps["main"]
    layout = map_layout(game, "main", PX)

    def shafts(feature: str, label: str) -> int:
        changed = _changed(render_map(game, "main", PX), render_map(_without(game, feature), "main", PX))
        x, y = layout.hex_to_pixel(m.grid.label_to_hex(label))
        row = changed[round(y - 0.75 * PX), round(x - PX) : round(x + PX)]  # a row across the arrows' tails
        return int(np.count_nonzero(np.diff(row.astype(np.int8)) == 1))

    assert shafts("triple-arrow", "0901") == 3


def test_the_painted_map_prints_the_marks_its_overlay_names_on_their_hexes():
    game = _game("bfm-art")
    m = game.maps["main"]
    assert set(m.art.overlay) >= {"fortification", "star", "cross"}
    layout = art_plan(m, PX).layout
    bare = render_map(_without(game, "none", art_overlay=()), "main", PX)
    for feature, expected in (("fortification", 22), ("star", 13), ("cross", 22)):
        only = render_map(_without(game, "none", art_overlay=(feature,)), "main", PX)
        changed = _changed(only, bare)
        hexes = m.hexes_with_feature(feature)
        assert len(hexes) == expected
        for h in hexes:
            x, y = layout.hex_to_pixel(h)
            r = round(0.5 * PX)
            assert changed[round(y) - r : round(y) + r, round(x) - r : round(x) + r].sum() > 10, (feature, m.label(h))


def test_a_painted_map_without_an_overlay_is_the_art_alone():
    from authoring.render.shared.art import render_map_art

    game = _without(_game("bfm-art"), "none", art_overlay=())
    assert render_map(game, "main", PX).tobytes() == render_map_art(game.maps["main"], PX).tobytes()


def test_an_unknown_overlay_feature_is_a_located_error(tmp_path):
    import shutil

    for folder in ("scenarios", "maps", "counters"):
        shutil.copytree(ROOT / folder / "bfm-art", tmp_path / folder / "bfm-art")
    path = tmp_path / "maps" / "bfm-art" / "main.yaml"
    text = path.read_text()
    path.write_text(text.replace("overlay: [fortification, star,", "overlay: [fortification, stra,"))
    result = load_game(next(f for f in discover(tmp_path) if f.id == "bfm-art"))
    found = [d for d in result.diagnostics if d.code == "HW-REF-001"]
    assert len(found) == 1 and "stra" in found[0].message and "star" in found[0].help
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "overlay:" in t)
    assert found[0].loc.line == line


def test_a_place_several_hexes_carry_is_named_once():
    """Typhoon's four Moscow hexes print 'Moscow' once; every other named hex keeps its own label."""
    from authoring.render.maps.draw import map_scene

    game = _game("typhoon")
    scene = map_scene(game, [game.maps["M"]], 40.0, "M")
    texts = [item.text for layer in scene.layers for item in layer.items if hasattr(item, "text")]
    assert texts.count("Moscow") == 1
    named = {f.name for info in game.maps["M"].hexes.values() for f in info.features if f.name}
    assert named - {"Moscow"} and all(texts.count(n) >= 1 for n in named)


def test_hex_ids_knock_out_the_lines_under_them():
    """A rail under a hex id is covered by the hex's own ground colour around the digits."""
    from authoring.render.maps.draw import map_scene
    from authoring.render.maps.scene import ID_HALO

    game = _game("typhoon")
    m = game.maps["M"]
    scene = map_scene(game, [m], 40.0, "M")
    ids = {item.text: item for item in scene.text.items if hasattr(item, "halo") and item.text.startswith("M")}
    h = m.grid.label_to_hex("M2526")
    ground = scene.style.terrain_look(m.hexes[h].terrain[0]).color
    assert ids["M2526"].halo == ground and ids["M2526"].halo_width >= round(ID_HALO * scene.f) > 0


def test_the_legend_draws_side_coloured_features_in_the_map_s_colours():
    """Typhoon's supply sources are drawn in their side's colour on the map; the legend shows them so,
    one line per side, not one green sample for both."""
    from authoring.render.maps.legend import merged_entries
    from authoring.render.maps.style import map_style

    game = _game("typhoon")
    style = map_style(game)
    colours = {s.id: s.color for s in game.sides}
    assert style.feature_look("soviet-supply").color == colours["soviet"]
    assert style.feature_look("axis-supply").color == colours["axis"]
    names = [name for section, _, name in merged_entries(game, style) if section == "feature"]
    assert "Soviet supply source" in names and not any("Soviet" in n and "Axis" in n for n in names)
