"""The page's map picture as tiles: the scene print draws (`map_scene`), cut into squares of `TILE_PX`,
each addressed by a digest of the items it shows.

A save that changes a map draws the scene again with the last one's items (`scene.Reuse`: only the
changed hexes' items are made anew) and rasterises only the tiles whose items changed; the page keeps
every other tile it has. A save that leaves every map's picture key as it was (`picture_key`: the
build's key of a map image, without source positions) draws nothing. Tiles are kept in memory and in
a sealed store under the project's `build/.cache/serve/` (`products.store.Entries`), so a restarted
server reads the tiles it drew before instead of drawing them again.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from authoring.model import Game, Map
from authoring.products import catalogue
from authoring.render.maps.draw import map_scene
from authoring.render.maps.raster import TILE, Bitmap, Item, Layer, draw_tile
from authoring.render.maps.scene import Reuse
from authoring.runtime import gc_paused
from authoring.serve.images import png, screen_supersampling

TILE_PX = 256
"""Tile edge in picture pixels: a one-hex change redraws one to four tiles, a few milliseconds each. Each is
drawn in the frame of the print tile (`raster.TILE`, a multiple of it) that holds it, so the tiles together
are the very pixels print's rasteriser draws."""
PAD = 8
"""Pixels drawn past a tile's right and bottom edges and cut off (a shape is drawn a little differently where
an image's edge clips it)."""
STORE = ("build", ".cache", "serve")
"""Where the sealed tile store lives, under the project folder (beside the build's own image cache)."""


@dataclass(frozen=True)
class TileJob:
    """What one tile shows: the scene's layers, the items of each in the tile, its box, supersampling, paper."""

    layers: tuple[Layer, ...]
    picks: tuple[tuple[int, ...], ...]
    box: tuple[int, int, int, int]
    ss: int
    background: object

    def draw(self) -> bytes:
        x0, y0, x1, y1 = self.box
        ox, oy = x0 - x0 % TILE, y0 - y0 % TILE  # the print tile's origin: coordinates as print rounds them
        window = (ox, oy, min(x1 + PAD, ox + TILE), min(y1 + PAD, oy + TILE))
        keep = (x0 - ox, y0 - oy, x1 - ox, y1 - oy)
        return png(draw_tile(self.layers, self.picks, window, self.ss, self.background, keep))  # type: ignore[arg-type]


@dataclass
class Drawer:
    """One picture frame (a game's maps at one scale): the last scene's maps, items and their tiles."""

    reuse: Reuse = field(default_factory=Reuse)
    records: Reuse = field(default_factory=Reuse)
    maps: dict[str, Map] = field(default_factory=dict)
    view_memo: dict = field(default_factory=dict)
    """What the page's hex records of this frame were made from last time (`mapview.map_view`'s memo)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def settle(self, maps: Sequence[Map], keys: Sequence[str]) -> list[Map]:
        """`maps`, each one whose key (`map_keys`) is the one of a map drawn last time replaced by that map:
        the same data, whose hexes are already made (a fresh load makes each hex when first looked up)."""
        with self.lock:
            settled = [self.maps.get(k, m) for m, k in zip(maps, keys)]
            self.maps = dict(zip(keys, settled))
        return settled


def map_keys(game: Game, maps: Sequence[Map], px_per_hex: float) -> list[str]:
    """Each map's key as the build keys its image (`catalogue.map_image_key`: hexwright's fingerprint,
    the game's styles, the map's data without source positions): a save that changes only comments or
    positions keeps it."""
    return [catalogue.map_image_key(game, m.id, px_per_hex) for m in maps]


def picture_key(keys: Sequence[str], px_per_hex: float, title: str) -> str:
    """Everything the joined picture depends on: its maps' keys in order, the scale and the title."""
    return catalogue.picture_key(keys, px_per_hex, title)


@gc_paused
def manifest(drawer: Drawer, game: Game, maps: Sequence[Map], px_per_hex: float, title: str) -> tuple[dict, dict]:
    """The picture's size and tiles (x, y, width, height, id), and each tile's job by id. The scene is drawn
    with the last one's items; an item kept from it keeps its digest and tiles (`Drawer.records`)."""
    with drawer.lock:
        scene = map_scene(game, list(maps), px_per_hex, title, reuse=drawer.reuse)
        drawer.reuse.advance()
        ss = screen_supersampling(px_per_hex)
        w, h = scene.size
        nx, ny = -(-w // TILE_PX), -(-h // TILE_PX)
        layers = tuple(scene.layers)
        picks = [[[] for _ in layers] for _ in range(nx * ny)]
        parts = [[[] for _ in layers] for _ in range(nx * ny)]
        last, now = drawer.records.last, drawer.records.now
        for li, layer in enumerate(layers):
            into, codes = [p[li] for p in picks], [p[li] for p in parts]
            for i, item in enumerate(layer.items):  # the hot loop of a save: every item of the maps
                key = id(item)
                rec = last.get(key) or now.get(key) or _record(item, nx, ny)
                now[key] = rec
                for t in rec[2]:
                    into[t].append(i)
                    codes[t].append(rec[1])
        drawer.records.advance()
    seed = catalogue.tile_seed(TILE_PX, ss, scene.style.paper)
    tiles, jobs = [], {}
    for t in range(nx * ny):
        gx, gy = t % nx, t // nx
        box = (gx * TILE_PX, gy * TILE_PX, min(w, (gx + 1) * TILE_PX), min(h, (gy + 1) * TILE_PX))
        shown = b"|".join(b"".join(codes) for codes in parts[t])
        tid = catalogue.tile_key(seed, box, shown)
        jobs[tid] = TileJob(layers, tuple(map(tuple, picks[t])), box, ss, scene.style.paper)
        tiles.append([box[0], box[1], box[2] - box[0], box[3] - box[1], tid])
    return {"size": [w, h], "tile": TILE_PX, "tiles": tiles}, jobs


def _record(item: Item, nx: int, ny: int) -> tuple[Item, bytes, tuple[int, ...]]:
    """An item (kept, so that its id is not reused while the record is), its digest, the tiles it touches."""
    if isinstance(item, Bitmap):
        img = item.image
        text = f"Bitmap({img.mode},{img.size},{item.x!r},{item.y!r})".encode() + img.tobytes()
    else:
        text = repr(item).encode()
    x0, y0, x1, y1 = item.bbox
    spots = tuple(
        gy * nx + gx
        for gy in range(max(0, int(y0 // TILE_PX)), min(ny - 1, int(y1 // TILE_PX)) + 1)
        for gx in range(max(0, int(x0 // TILE_PX)), min(nx - 1, int(x1 // TILE_PX)) + 1)
    )
    return item, hashlib.sha256(text).digest(), spots


def store_folder(root: Path) -> Path:
    return Path(root).joinpath(*STORE)
