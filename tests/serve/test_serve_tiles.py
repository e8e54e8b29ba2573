"""The page's map picture as tiles, without a browser: the tiles put together are the picture print's renderer
draws, a counter or comment save draws nothing, and a map save redraws only the tiles that show the change."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from serve_support import copy_game, without_first_terrain


@pytest.fixture
def bfm(tmp_path, monkeypatch):
    """A session on a copy of bfm, counting the map scenes it draws for the page."""
    from authoring.render.maps import draw
    from authoring.serve import tiles
    from authoring.serve.session import Session

    scenes = []
    real = draw.map_scene

    def counted(*args, **kwargs):
        if kwargs.get("reuse") is not None:  # drawn for the page (print's whole picture is drawn without)
            scenes.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(tiles, "map_scene", counted)  # the page's scene, drawn where the preview calls it
    root = copy_game("bfm", tmp_path / "project")
    return Session(root, "bfm"), root, scenes


def _tiles(session, gid="bfm"):
    from authoring.serve.drawn import map_tiles

    st = session.state(gid)
    game = st.good.game
    return map_tiles(session, st, game, next(iter(game.scenarios.values())))


def _picture(session, made: dict, gid="bfm") -> Image.Image:
    """The tiles put together as the page shows them."""
    from authoring.serve.drawn import tile_png

    out = Image.new("RGB", tuple(made["size"]))
    for x, y, _w, _h, tid in made["tiles"]:
        out.paste(Image.open(io.BytesIO(tile_png(session, gid, tid))).convert("RGB"), (x, y))
    return out


def _print_picture(session, gid="bfm") -> Image.Image:
    """The same maps drawn whole by the print rasteriser, with no item reused."""
    from authoring.render.maps.draw import map_scene
    from authoring.render.maps.raster import rasterize
    from authoring.serve.frame import preview_px, scenario_maps
    from authoring.serve.images import screen_supersampling

    game = session.state(gid).good.game
    maps = scenario_maps(game, next(iter(game.scenarios.values())).maps)
    px = preview_px(maps)
    scene = map_scene(game, maps, px, game.name)
    return rasterize(scene.layers, scene.size, scene.style.paper, screen_supersampling(px))


def _hex_box(session, label: str, gid="bfm") -> tuple[float, float, float, float]:
    from authoring.serve.drawn import hex_outlines

    st = session.state(gid)
    game = st.good.game
    cell = next(
        h for h in hex_outlines(session, st, game, next(iter(game.scenarios.values())))["hexes"] if h["id"] == label
    )
    xs, ys = zip(*(map(float, p.split(",")) for p in cell["points"].split()))
    return min(xs), min(ys), max(xs), max(ys)


def test_counter_and_comment_saves_draw_no_map(bfm):
    session, root, scenes = bfm
    first = _tiles(session)
    assert scenes == [1]
    counters = root / "counters" / "bfm" / "counters.yaml"
    counters.write_text(counters.read_text(encoding="utf-8").replace("attack: 8,", "attack: 7,", 1), encoding="utf-8")
    session.reload("bfm")
    assert session.state("bfm").good.game.counters["sov-3"].faces[0].values["attack"] == 7
    assert _tiles(session) == first and scenes == [1]  # the counter changed, the map picture did not
    map_file = root / "maps" / "bfm" / "main.yaml"
    map_file.write_text(map_file.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    session.reload("bfm")
    assert _tiles(session) == first and scenes == [1]  # a comment changes no map's picture key


def test_a_terrain_save_redraws_only_the_tiles_of_that_hex_and_the_tiles_are_the_print_picture(bfm):
    session, root, scenes = bfm
    first = _tiles(session)
    before = _picture(session, first)
    assert before.tobytes() == _print_picture(session).tobytes()

    map_file = root / "maps" / "bfm" / "main.yaml"
    changed, label = without_first_terrain(map_file.read_text(encoding="utf-8"))
    map_file.write_text(changed, encoding="utf-8")
    session.reload("bfm")
    assert session.state("bfm").good.game.maps["main"].hexes
    second = _tiles(session)
    assert scenes == [1, 1] and second["key"] != first["key"]
    x0, y0, x1, y1 = _hex_box(session, label)
    old = {(t[0], t[1]): t[4] for t in first["tiles"]}
    redrawn = [t for t in second["tiles"] if old[(t[0], t[1])] != t[4]]
    assert redrawn and len(redrawn) < len(second["tiles"]) / 2
    for x, y, w, h, _ in redrawn:  # every redrawn tile overlaps the changed hex
        assert x < x1 + 2 and x + w > x0 - 2 and y < y1 + 2 and y + h > y0 - 2

    after = _picture(session, second)
    assert after.tobytes() == _print_picture(session).tobytes()  # items reused from the last scene draw the same
    inside = (round((x0 + x1) / 2 - 0.3 * (x1 - x0)), round((y0 + y1) / 2))  # left of the symbols and id
    assert before.getpixel(inside) != after.getpixel(inside)


def test_a_terrain_save_sends_the_page_only_that_hex(bfm):
    from authoring.serve.drawn import hex_changes

    session, root, _ = bfm
    st = session.state("bfm")
    game = st.good.game
    first = hex_changes(session, st, game, game.scenarios["seven-turn"], "")
    assert "changed" not in first and len(first["hexes"]) == sum(len(m.grid.hexes) for m in game.maps.values())
    map_file = root / "maps" / "bfm" / "main.yaml"
    changed, label = without_first_terrain(map_file.read_text(encoding="utf-8"))
    map_file.write_text(changed, encoding="utf-8")
    st = session.reload("bfm")
    game = st.good.game
    update = hex_changes(session, st, game, game.scenarios["seven-turn"], first["key"])
    assert update["since"] == first["key"] and update["key"] != first["key"]
    [(i, record)] = update["changed"]
    assert record["id"] == label and first["hexes"][i]["id"] == label
    assert record["terrain"] == ["clear"] and first["hexes"][i]["terrain"] != ["clear"]
    assert hex_changes(session, st, game, game.scenarios["seven-turn"], "unknown")["hexes"][i] == record


def test_a_restarted_server_reads_its_sealed_tiles_and_redraws_a_damaged_one(bfm, monkeypatch):
    from authoring.serve.drawn import tile_png
    from authoring.serve.session import Session
    from authoring.serve.tiles import TileJob, store_folder

    session, root, _ = bfm
    made = _tiles(session)
    first = {t[4]: tile_png(session, "bfm", t[4]) for t in made["tiles"]}
    drawn = []
    real = TileJob.draw
    monkeypatch.setattr(TileJob, "draw", lambda job: drawn.append(job.box) or real(job))
    again = Session(root, "bfm")
    assert {t[4]: tile_png(again, "bfm", t[4]) for t in _tiles(again)["tiles"]} == first and drawn == []

    x, y, _w, _h, tid = made["tiles"][0]
    entry = store_folder(root) / f"tile-{tid}"
    data = bytearray(entry.read_bytes())
    data[-1] ^= 1
    entry.write_bytes(bytes(data))
    third = Session(root, "bfm")
    _tiles(third)
    assert tile_png(third, "bfm", tid) == first[tid] and drawn == [(x, y, x + _w, y + _h)]


@pytest.mark.slow
@pytest.mark.parametrize(
    "old, new",
    [
        ('"0204": {name: Smolensk}', '"0204": {name: Smolenskaya}'),  # a name: placed again, off the same marks
        ('"0501", "0502", ', '"0502", '),  # a fortification ring gone: the names may move into its place
        ('"0510",\n    "0803"\n  ]', '"0510"\n  ]'),  # a set-up mark gone from a fortified city
        ("Vyazma line 0501-0507", "Vyazma line 0501 to 0507"),  # a comment: features' positions in the file only
    ],
)
def test_a_feature_save_draws_the_picture_print_draws(bfm, old, new):
    session, root, _ = bfm
    first = _tiles(session)
    map_file = root / "maps" / "bfm" / "main.yaml"
    text = map_file.read_text(encoding="utf-8")
    assert old in text
    map_file.write_text(text.replace(old, new, 1), encoding="utf-8")
    session.reload("bfm")
    second = _tiles(session)
    assert _picture(session, second).tobytes() == _print_picture(session).tobytes()
    assert (second["key"] == first["key"]) == (old.startswith("Vyazma"))
