"""Issue 49: a map edit redraws only the tiles it changes (`render.maps.tiled`, `products.maptiles`).

A synthetic game of two strip maps side by side sharing a column (as Typhoon's M01 is N39) is drawn into a
build folder with its tile store: the map images, the joined layout, both papers' print tiles and the module.
Then, one edit at a time, (a) one hex's terrain, (b) one hexside feature, (c) a hex of the shared column (in
both maps, as the overlap check demands), it is drawn again into the same folder, and every file must be the
bytes of a clean drawing of the edited game in a fresh folder, while the store says how many tiles were drawn:
a handful, never the whole picture again.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image
from synth import make_game, make_map

from authoring.hexgrid import Hexside
from authoring.model import HexsideInfo
from authoring.model.game import frozen_map
from authoring.pipeline.module import write_module
from authoring.products.maptiles import MapPieces
from authoring.products.store import cache_dir
from authoring.render.maps.draw import map_png, map_scene, render_map, tiled_scene
from authoring.render.print.tiles import write_map_files
from authoring.render.shared.pdf import adler32_combine
from authoring.workers import Workers

PX, DPI, PAPERS = 80, 60, ("letter", "a4")
COLUMNS, ROWS = 49, 9


def _game():
    a = make_map("A", COLUMNS, ROWS, (0, 0), "A", river_column=12)
    b = make_map("B", COLUMNS, ROWS, (COLUMNS - 1, 0), "B", river_column=30)
    return make_game({"A": a, "B": b}, {"A": a.grid.origin, "B": b.grid.origin})


def _with_hex(game, map_id: str, col: int, row: int, terrain: str):
    m = game.maps[map_id]
    h = m.grid.offset_to_hex(col, row)
    hexes = dict(m.hexes)
    hexes[h] = replace(hexes[h], terrain=(terrain,))
    return replace(game, maps=frozen_map({**game.maps, map_id: replace(m, hexes=frozen_map(hexes))}))


def _with_river(game, map_id: str, col: int, row: int):
    m = game.maps[map_id]
    a, b = m.grid.offset_to_hex(col, row), m.grid.offset_to_hex(col, row + 1)
    sides = (*m.hexsides, HexsideInfo("river", Hexside.between(a, b)))
    return replace(game, maps=frozen_map({**game.maps, map_id: replace(m, hexsides=sides)}))


def _build(game, out: Path) -> dict[str, str]:
    """Every map file and the module of `game` in `out/synth`, drawn with the tile store of `out`."""
    folder = out / "synth"
    store = MapPieces(cache_dir(folder, "maps"))
    paths = write_map_files(game, folder / "maps", PX, PAPERS, DPI, workers=Workers(1), store=store)
    paths.append(write_module(game, folder, workers=Workers(1)))
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def _tiles(out: Path) -> set[str]:
    return {p.name for p in cache_dir(out / "synth", "maps").glob("tile-*")}


EDITS = {
    "terrain": lambda g: _with_hex(g, "A", 20, 5, "lake"),
    "hexside": lambda g: _with_river(g, "B", 22, 4),
    "shared column": lambda g: _with_hex(_with_hex(g, "A", COLUMNS, 5, "swamp"), "B", 1, 5, "swamp"),
}


@pytest.fixture(scope="module")
def steps(tmp_path_factory) -> dict:
    """For each edit, applied one after the other: the kept folder's files, a clean folder's, the tiles drawn."""
    root = tmp_path_factory.mktemp("maptiles")
    game = _game()
    _build(game, root / "kept")
    first = _tiles(root / "kept")
    out = {"all tiles": len(first)}
    for name, edit in EDITS.items():
        game = edit(game)
        before = _tiles(root / "kept")
        kept = _build(game, root / "kept")
        clean = _build(game, root / name.replace(" ", "-"))
        out[name] = (kept, clean, len(_tiles(root / "kept") - before))
    return out


@pytest.mark.slow  # four clean drawings of two maps at four scales, and three incremental ones
@pytest.mark.parametrize("edit", list(EDITS))
def test_an_edit_drawn_from_kept_tiles_is_a_clean_build(steps: dict, edit: str) -> None:
    kept, clean, _ = steps[edit]
    assert len(kept) == 8  # two map images, the layout, two maps on two papers, the module
    assert kept == clean


SHOWN_IN = {"terrain": 4, "hexside": 4, "shared column": 7}
"""How many pictures show the edited hex: its map's image and print tiles, the layout, the module's map (a hex
of the shared column: both maps' image, print tiles and module map, and the layout)."""


@pytest.mark.slow
@pytest.mark.parametrize("edit", list(EDITS))
def test_an_edit_draws_a_handful_of_tiles(steps: dict, edit: str) -> None:
    """A tile or two of each picture that shows the edit (two where the hex's drawing crosses a tile's edge),
    out of the build's tiles (every picture of both maps)."""
    drawn = steps[edit][2]
    assert 1 <= drawn <= 2 * SHOWN_IN[edit]
    assert drawn < steps["all tiles"] / 2


def test_a_tiled_picture_is_the_rasterised_one() -> None:
    game = _game()
    png = map_png(game, "A", PX)
    with Image.open(io.BytesIO(png)) as image:
        assert image.tobytes() == render_map(game, "A", PX).tobytes()
    assert zlib.decompress(_idat(png))  # one zlib stream, its Adler-32 that of all the rows


def test_a_picture_joined_from_kept_segments_is_the_same_bytes(tmp_path: Path) -> None:
    game = _game()
    store = MapPieces(tmp_path)
    scene = map_scene(game, [game.maps["A"], game.maps["B"]], PX, "Synthetic")
    fresh = tiled_scene(scene, store).png()
    drawn = store.counts["tiles drawn"]
    assert drawn > 4 and tiled_scene(scene, MapPieces(tmp_path)).png() == fresh == tiled_scene(scene).png()
    again = MapPieces(tmp_path)
    edited = _with_hex(game, "A", 20, 5, "lake")
    tiled_scene(map_scene(edited, [edited.maps["A"], edited.maps["B"]], PX, "Synthetic"), again).png()
    assert 1 <= again.counts["tiles drawn"] <= 2


def test_adler32_of_joined_bytes() -> None:
    first, second = b"hexwright" * 1000, bytes(range(256)) * 300
    joined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert joined == zlib.adler32(first + second)


def _idat(png: bytes) -> bytes:
    at, data = 8, b""
    while at < len(png):
        size = int.from_bytes(png[at : at + 4], "big")
        if png[at + 4 : at + 8] == b"IDAT":
            data += png[at + 8 : at + 8 + size]
        at += 12 + size
    return data
