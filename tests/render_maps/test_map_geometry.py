"""The map is drawn from the validator's geometry: centres, ids, rivers and terrain checked on real pixels."""

from __future__ import annotations

import math

import pytest
from PIL import Image
from synth import make_game, make_map

from authoring.render.maps import draw as map_draw
from authoring.render.maps.draw import map_layout, map_scene, render_layout, render_map
from authoring.render.maps.scene import hex_id_text
from authoring.render.maps.style import map_style, rgb
from authoring.render.maps.symbols import FILL_PROBE, FORT_RING

PX = 60


def _close(a, b, tol=40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture(scope="module")
def bfm_image(bfm):
    return render_map(bfm, "main", PX)


def _ink_in(image: Image.Image, box) -> int:
    """Dark pixels inside a box."""
    crop = image.crop(tuple(int(round(v)) for v in box)).convert("L")
    return sum(crop.histogram()[:120])


def test_every_hex_centre_and_id_read_back(bfm, bfm_image):
    m = bfm.maps["main"]
    scene = map_scene(bfm, [m], PX, "t")
    layout = map_layout(bfm, "main", PX)
    assert scene.layout == layout
    for h in m.grid.hexes:
        assert scene.layout.hex_to_pixel(h) == layout.hex_to_pixel(h)
        assert layout.pixel_to_hex(*layout.hex_to_pixel(h)) == h
        text = hex_id_text(scene, h)
        assert text.text == m.grid.hex_to_label(h)
        assert m.grid.label_to_hex(text.text) == h
        x0, y0, x1, y1 = text.bbox
        for px, py in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            assert layout.pixel_to_hex(px, py) == h, (text.text, "id box leaves its hex")
        assert _ink_in(bfm_image, text.bbox) > 3, f"no ink where {text.text} is printed"


def test_px_per_hex_is_width_across_flats(bfm):
    layout = map_layout(bfm, "main", 75)
    assert layout.dy == pytest.approx(75)
    assert layout.dx == pytest.approx(75 * math.sqrt(3) / 2)
    assert map_draw.map_image_size(bfm, "main", 75) == render_map(bfm, "main", 75).size


def test_rivers_are_drawn_on_their_hexsides(bfm, bfm_image):
    m = bfm.maps["main"]
    layout = map_layout(bfm, "main", PX)
    river = rgb(map_style(bfm).hexsides["river"].color)
    sides = [s.side for s in m.hexsides if s.type == "river"]
    assert len(sides) == 57
    crossed = {frozenset(pair) for p in m.paths for pair in zip(p.hexes, p.hexes[1:])}
    for side in sides:
        ts = (0.35, 0.65) if frozenset(side.hexes()) in crossed else (0.35, 0.5, 0.65)
        (x0, y0), (x1, y1) = layout.hexside_segment(side)
        for t in ts:
            px = bfm_image.getpixel((round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)))
            assert _close(px, river), (side, t, px)
    # and not in the middle of the hexes beside it
    for side in sides[:10]:
        for h in side.hexes():
            cx, cy = layout.hex_to_pixel(h)
            assert not _close(bfm_image.getpixel((round(cx), round(cy))), river, 25)


def _probe(image, layout, h, fx, fy, f):
    x, y = layout.hex_to_pixel(h)
    return image.getpixel((round(x + fx * f), round(y + fy * f)))


def test_bfm_shows_25_forest_and_22_fortification_hexes(bfm, bfm_image):
    m = bfm.maps["main"]
    layout = map_layout(bfm, "main", PX)
    style = map_style(bfm)
    forest = rgb(style.terrain["forest"].color)
    fort = rgb(style.features["fortification"].color)
    forests = [h for h in m.grid.hexes if _close(_probe(bfm_image, layout, h, *FILL_PROBE, PX), forest, 12)]
    assert len(forests) == 25
    assert set(forests) == set(m.hexes_with_terrain("forest"))
    apothem = FORT_RING / 2
    forts = []
    for h in m.grid.hexes:
        hits = 0
        for k in range(6):
            a = math.radians(30 + 60 * k)
            if _close(_probe(bfm_image, layout, h, apothem * math.cos(a), apothem * math.sin(a), PX), fort, 30):
                hits += 1
        if hits >= 3:
            forts.append(h)
    assert len(forts) == 22
    assert set(forts) == set(m.hexes_with_feature("fortification"))


def test_pointy_map_round_trip():
    m = make_map("P", 5, 4, orientation="pointy", river_column=2)
    game = make_game({"P": m})
    image = render_map(game, "P", 70)
    layout = map_layout(game, "P", 70)
    assert layout.dx == pytest.approx(70)
    scene = map_scene(game, [m], 70, "t")
    for h in m.grid.hexes:
        assert layout.pixel_to_hex(*layout.hex_to_pixel(h)) == h
        assert _ink_in(image, hex_id_text(scene, h).bbox) > 3


def test_joined_layout_offsets_match_each_map():
    a = make_map("A", 5, 4, (0, 0), "A")
    b = make_map("B", 5, 4, (4, 0), "B")
    c = make_map("C", 5, 4, (0, 3), "C")
    game = make_game({"A": a, "B": b, "C": c}, {"A": (0, 0), "B": (4, 0), "C": (0, 3)})
    image, offsets = render_layout(game, 50)
    assert set(offsets) == {"A", "B", "C"}
    joined = map_scene(game, [a, b, c], 50, "t").layout
    assert image.size[0] > render_map(game, "A", 50).size[0]
    for mid, m in (("A", a), ("B", b), ("C", c)):
        own = map_layout(game, mid, 50)
        for h in m.grid.hexes:
            x, y = own.hex_to_pixel(h)
            jx, jy = joined.hex_to_pixel(h)
            assert (x + offsets[mid][0], y + offsets[mid][1]) == pytest.approx((jx, jy))
    shared = a.grid.offset_to_hex(5, 2)
    assert shared in b.grid
    scene = map_scene(game, [a, b, c], 50, "t")
    assert hex_id_text(scene, shared).text == "A0502 / B0102"


def test_output_is_deterministic(tmp_path):
    game = make_game({"A": make_map("A", 6, 5, river_column=3)})
    p1, p2 = tmp_path / "1.png", tmp_path / "2.png"
    render_map(game, "A", 64, p1)
    render_map(game, "A", 64, p2)
    assert p1.read_bytes() == p2.read_bytes()
    assert not list(tmp_path.glob(".*tmp"))


def test_write_map_pngs_writes_every_map_and_the_layout(tmp_path):
    a = make_map("A", 5, 4, (0, 0), "A")
    b = make_map("B", 5, 4, (4, 0), "B")
    game = make_game({"A": a, "B": b}, {"A": (0, 0), "B": (4, 0)})
    paths = map_draw.write_map_pngs(game, tmp_path, 40)
    assert [p.name for p in paths] == ["map-A.png", "map-B.png", "layout.png"]
    assert Image.open(paths[0]).size == map_draw.map_image_size(game, "A", 40)


def test_fortified_line_teeth_face_the_hex_they_protect():
    from authoring.hexgrid import Hexside
    from authoring.render.maps.raster import Poly
    from authoring.render.maps.scene import fortified_side

    m = make_map("A", 4, 4, dense=False)
    game = make_game({"A": m})
    scene = map_scene(game, [m], 60, "t")
    a, b = m.grid.offset_to_hex(2, 2), m.grid.offset_to_hex(2, 3)
    look = scene.style.hexsides["fort-line"]
    seg = scene.layout.hexside_segment(Hexside.between(a, b))
    for faces in (a, b):
        centre = scene.layout.hex_to_pixel(faces)
        teeth = [i for i in fortified_side(scene, seg, faces, look) if isinstance(i, Poly)]
        assert len(teeth) == 4
        for t in teeth:
            base = ((t.points[0][0] + t.points[2][0]) / 2, (t.points[0][1] + t.points[2][1]) / 2)
            assert math.dist(t.points[1], centre) < math.dist(base, centre)


def test_unstyled_terrain_gets_defaults():
    style = map_style(make_game({"A": make_map("A", 2, 2)}))
    assert style.terrain["hills"].symbol == "hills"
    assert style.terrain["hills"].color.startswith("#")
    assert style.terrain["lake"].symbol == "waves"
    assert style.hexsides["major-river"].width > style.hexsides["river"].width


def test_compass_points_at_the_edge_named_north():
    from dataclasses import replace

    from authoring.model.game import frozen_map

    m = make_map("A", 3, 3, dense=False)
    assert map_draw.north_edge([m]) == "north"
    sideways = replace(m, edges=frozen_map({"west": "North edge", "north": "East edge (supply)"}))
    assert map_draw.north_edge([sideways]) == "west"
    assert map_draw.north_edge([replace(m, edges=frozen_map({"south": "North edge"}))]) == "south"


def test_map_files_are_named_from_the_maps_own_ids_and_never_collide_without_case(tmp_path):
    """Map M is map-M.png (not an encoded map._4d.png); m and M in one game get names that differ even on a
    case-insensitive file system, the suffix only on the second."""
    game = make_game({"M": make_map("M", 5, 4, (0, 0), "M"), "m": make_map("m", 5, 4, (0, 0), "m")})
    paths = map_draw.write_map_pngs(game, tmp_path, 40)
    names = [p.name for p in paths]
    assert names == ["map-M.png", "map-m-2.png"]
    assert len({n.casefold() for n in names}) == 2 and all(p.exists() for p in paths)
    assert Image.open(tmp_path / "map-M.png").size == map_draw.map_image_size(game, "M", 40)
