"""The map tiles and the pieces made of them, kept in the sealed store under the catalogue's keys.

`render.maps.tiled` draws a map picture tile by tile and asks a `PieceStore` for each tile and each piece
made of tiles (a PNG band's segment, a print page, a thumbnail strip); `MapPieces` is that store: its keys
are `catalogue.map_tile_key` and `catalogue.map_piece_key`, its entries `store.Entries` in
`build/.cache/maps/`, shared by the maps stage and the module (a map drawn at the module's scale is kept
for the next module build). It counts what it did, so a build can say how many tiles it drew.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from authoring.products import catalogue
from authoring.products.store import Entries
from authoring.render.maps.raster import TILE

KIND = "maps"
"""The store's folder under `build/.cache/` (`store.cache_dir`)."""


def tiles_kept(folder: Path) -> frozenset[str]:
    """The names of the tile entries in a store's folder: those a drawing adds are the tiles it drew."""
    try:
        return frozenset(p.name for p in Path(folder).iterdir() if p.name.startswith("tile-"))
    except OSError:
        return frozenset()


class MapPieces:
    """Map tiles and pieces in sealed entries under `folder` (`None`: nothing kept, nothing read)."""

    def __init__(self, folder: Path | None) -> None:
        self.entries = Entries(Path(folder)) if folder is not None and not Path(folder).is_symlink() else None
        self.counts: Counter[str] = Counter()
        self._seeds: dict[tuple, bytes] = {}

    def tile_key(self, ss: int, background: object, box: tuple[int, int, int, int], shown: bytes) -> str:
        seed = self._seeds.get((ss, repr(background)))
        if seed is None:  # the fingerprint's stat walk once per picture, not once per tile
            seed = self._seeds[(ss, repr(background))] = catalogue.map_tile_seed(TILE, ss, background)
        return catalogue.map_tile_key(seed, box, shown)

    def key(self, kind: str, *parts: object) -> str:
        return catalogue.map_piece_key(kind, *parts)

    def get(self, key: str) -> bytes | None:
        found = None if self.entries is None else self.entries.get(key)
        return None if found is None else bytes(found)

    def put(self, key: str, data: bytes) -> None:
        if self.entries is not None:
            self.entries.put([(key, data)])

    def count(self, what: str) -> None:
        self.counts[what] += 1
