"""A map scene's pixels tile by tile, each tile read from a store while the items it shows are unchanged.

The rasteriser draws a scene in tiles of `raster.TILE` pixels (`raster.draw_tile`); a tile's pixels depend
only on its box, the items whose boxes reach into it (in drawing order), the supersampling and the paper.
`TiledScene` names each tile by those (`PieceStore.tile_key`: the catalogue's key, handed in by the caller),
reads it from the store or draws and stores it, and joins tiles into the crops, bands and PNG segments the
map image, the print pages and the module's maps are made of. The PNG of a map is joined from one segment per
row of tiles (`pdf.png_from_segments`), each kept under the keys of its tiles: one hex's edit draws the tiles
that hex's items reach, encodes their rows again and copies every other segment as it is. Nothing here
makes a key or keeps a file: the store does (`products.maptiles`).
"""

from __future__ import annotations

import marshal
import math
import struct
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import fields
from types import MappingProxyType
from typing import Protocol

from PIL import Image

from authoring.render.maps.raster import TILE, Bitmap, Disc, Item, Layer, Line, Poly, Text, draw_tile
from authoring.render.shared.pdf import Segment, deflate_band, png_from_segments

Box = tuple[int, int, int, int]

_FIELDS = MappingProxyType({kind: tuple(f.name for f in fields(kind)) for kind in (Poly, Line, Disc, Text)})
"""Each vector or text item type's fields, in order: what its drawing is made of."""


class PieceStore(Protocol):
    """Where a drawing's tiles and the pieces made of them are kept (`products.maptiles.MapPieces`)."""

    def tile_key(self, ss: int, background: object, box: Box, shown: bytes) -> str:
        """The key of a tile's pixels: what it shows (`shown`, the codes of its items), its box and how it is drawn."""

    def key(self, kind: str, *parts: object) -> str:
        """The key of a piece made from tiles (a PNG band, a print page): its kind and what it is made of."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...

    def count(self, what: str) -> None:
        """One more tile or piece `what` ("tiles drawn", "tiles read", ...): the store's statistics."""


def item_code(item: Item) -> bytes:
    """The exact values an item is drawn from, as bytes (marshal version 2: no references, so equal
    values give equal bytes whatever objects hold them)."""
    if isinstance(item, Bitmap):
        image = item.image
        return marshal.dumps(("Bitmap", image.mode, image.size, item.x, item.y), 2) + image.tobytes()
    kind = type(item)
    return marshal.dumps((kind.__name__, *(getattr(item, name) for name in _FIELDS[kind])), 2)


class TiledScene:
    """A scene's layers cut into `TILE` tiles: which items each tile shows, its key, its pixels (from
    `store`, or drawn and kept there; without a store every tile is drawn)."""

    def __init__(
        self,
        layers: Sequence[Layer],
        size: tuple[int, int],
        background: object,
        ss: int,
        store: PieceStore | None = None,
    ) -> None:
        self.layers, self.size, self.background, self.ss, self.store = tuple(layers), size, background, ss, store
        self.columns, self.rows = math.ceil(size[0] / TILE), math.ceil(size[1] / TILE)
        count = self.columns * self.rows
        self.picks: list[list[list[int]]] = [[[] for _ in self.layers] for _ in range(count)]
        codes: list[list[list[bytes]]] = [[[] for _ in self.layers] for _ in range(count)]
        for li, layer in enumerate(self.layers):
            for i, item in enumerate(layer.items):
                code = item_code(item) if store is not None else b""
                for t in self._touched(item.bbox):
                    self.picks[t][li].append(i)
                    codes[t][li].append(code)
        self.keys: list[str | None] = [
            None if store is None else store.tile_key(ss, background, self.box(t), _shown(codes[t]))
            for t in range(count)
        ]
        self._held: dict[int, Image.Image] = {}
        self.keep = 2 * self.columns
        """How many tiles are held in memory, the last used (two rows of them: a band and the next; the
        print pages hold a page's height)."""

    def _touched(self, bbox) -> Iterator[int]:
        x0, y0, x1, y1 = bbox
        for gy in range(max(0, int(y0 // TILE)), min(self.rows - 1, int(y1 // TILE)) + 1):
            for gx in range(max(0, int(x0 // TILE)), min(self.columns - 1, int(x1 // TILE)) + 1):
                yield gy * self.columns + gx

    def box(self, t: int) -> Box:
        gx, gy = t % self.columns, t // self.columns
        w, h = self.size
        return gx * TILE, gy * TILE, min(w, (gx + 1) * TILE), min(h, (gy + 1) * TILE)

    def tiles_in(self, box: Box) -> list[int]:
        """The tiles a box of pixels (clipped to the picture) overlaps, row by row."""
        x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(self.size[0], box[2]), min(self.size[1], box[3])
        if x0 >= x1 or y0 >= y1:
            return []
        return [
            gy * self.columns + gx
            for gy in range(y0 // TILE, (y1 - 1) // TILE + 1)
            for gx in range(x0 // TILE, (x1 - 1) // TILE + 1)
        ]

    def keys_of(self, tiles: Sequence[int]) -> list[str] | None:
        """The keys of these tiles, or None when there is no store (nothing is kept)."""
        keys = [self.keys[t] for t in tiles]
        return None if self.store is None else keys  # type: ignore[return-value]

    def tile(self, t: int) -> Image.Image:
        """Tile `t`'s pixels: held, read from the store, or drawn (and stored)."""
        held = self._held.pop(t, None)
        if held is None:
            held = self._read(t) or self._draw(t)
        self._held[t] = held  # the most recent last
        while len(self._held) > self.keep:
            del self._held[next(iter(self._held))]
        return held

    def _read(self, t: int) -> Image.Image | None:
        key = self.keys[t]
        data = None if self.store is None or key is None else self.store.get(key)
        if data is None:
            return None
        x0, y0, x1, y1 = self.box(t)
        try:
            image = Image.frombytes("RGB", (x1 - x0, y1 - y0), zlib.decompress(data))
        except (zlib.error, ValueError):
            return None  # a damaged entry is a miss
        self.store.count("tiles read")  # type: ignore[union-attr]
        return image

    def _draw(self, t: int) -> Image.Image:
        image = draw_tile(self.layers, self.picks[t], self.box(t), self.ss, self.background)  # type: ignore[arg-type]
        if self.store is not None:
            self.store.count("tiles drawn")
            self.store.put(self.keys[t], zlib.compress(image.tobytes(), 1))  # type: ignore[arg-type]
        return image

    def crop(self, box: Box) -> Image.Image:
        """The picture's pixels in `box` (inside the picture), joined from its tiles."""
        x0, y0, x1, y1 = box
        out = Image.new("RGB", (x1 - x0, y1 - y0), None)  # every pixel is a tile's
        for t in self.tiles_in(box):
            tx, ty = self.box(t)[:2]
            out.paste(self.tile(t), (tx - x0, ty - y0))
        return out

    def band(self, gy: int) -> Image.Image:
        """Row `gy` of tiles, the picture's whole width."""
        return self.crop((0, gy * TILE, self.size[0], min(self.size[1], (gy + 1) * TILE)))

    def bands(self) -> Iterator[tuple[int, Image.Image]]:
        """(top row, band) of every row of tiles, top to bottom (`raster.raster_bands`' pixels)."""
        for gy in range(self.rows):
            yield gy * TILE, self.band(gy)

    def row_keys(self, gy: int) -> list[str] | None:
        return self.keys_of(range(gy * self.columns, (gy + 1) * self.columns))

    def segment(self, gy: int) -> Segment:
        """Row `gy` of tiles as a PNG segment (`pdf.deflate_band`), kept under its tiles' keys."""
        keys = self.row_keys(gy)
        key = None if keys is None else self.store.key("png band", self.size[0], keys)  # type: ignore[union-attr]
        found = None if key is None else self.store.get(key)  # type: ignore[union-attr]
        if found is not None and len(found) >= 8:
            adler, length = struct.unpack(">II", found[:8])
            return bytes(found[8:]), adler, length
        data, adler, length = deflate_band(self.band(gy))
        if key is not None:
            self.store.put(key, struct.pack(">II", adler, length) + data)  # type: ignore[union-attr]
        return data, adler, length

    def png(self, dpi: float | None = None) -> bytes:
        """The picture as PNG, joined from its rows' segments (the same bytes however many were kept)."""
        return png_from_segments(self.size, "RGB", (self.segment(gy) for gy in range(self.rows)), dpi)


def _shown(layers: list[list[bytes]]) -> bytes:
    """What a tile shows, as one byte string: each layer's item codes, each with its length."""
    return b"|".join(b"".join(struct.pack(">I", len(c)) + c for c in codes) for codes in layers)
