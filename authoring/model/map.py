"""A map: its grid, per-hex terrain and features, hexside features and paths, all in axial hexes."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import field
from types import MappingProxyType

from authoring.diagnostics import Loc
from authoring.hexgrid import Hex, Hexside, MapGrid
from authoring.model.art import MapImage
from authoring.model.frozen import frozen
from authoring.model.game import EMPTY
from authoring.model.lazy import LazyMapping
from authoring.model.provenance import DESIGNERS, Provenance


@frozen
class HexFeature:
    type: str
    name: str = ""
    kind: str = ""
    label: str = ""
    side: str = ""
    points: int | None = None
    loc: Loc | None = None


@frozen
class HexInfo:
    hex: Hex
    label: str
    terrain: tuple[str, ...]
    features: tuple[HexFeature, ...] = ()

    def has_feature(self, feature: str) -> bool:
        return any(f.type == feature for f in self.features)


@frozen
class HexIndex:
    """A map's hexes by terrain and by feature type: a hex set filtered on terrain or a feature looks at the
    hexes that can pass, not at every hex of the map."""

    by_terrain: Mapping[str, frozenset[Hex]]
    by_feature: Mapping[str, tuple[tuple[Hex, HexFeature], ...]]

    @staticmethod
    def of(
        keys: Collection[Hex],
        terrain: Mapping[Hex, tuple[str, ...]],
        features: Mapping[Hex, tuple[HexFeature, ...]],
        plain: tuple[str, ...],
    ) -> HexIndex:
        """The index of `keys` (every hex of the map) from the terrain and features of the hexes that have any
        (`plain`: every other hex's terrain), as `HexInfos` holds them: no `HexInfo` is made."""
        by_terrain: dict[str, set[Hex]] = {}
        for h, ts in terrain.items():
            if h in keys:
                for t in ts:
                    by_terrain.setdefault(t, set()).add(h)
        rest = [h for h in keys if h not in terrain]
        for t in plain:
            by_terrain.setdefault(t, set()).update(rest)
        by_feature: dict[str, list[tuple[Hex, HexFeature]]] = {}
        for h, fs in features.items():
            if h in keys:
                for f in fs:
                    by_feature.setdefault(f.type, []).append((h, f))
        return HexIndex(
            MappingProxyType({t: frozenset(hs) for t, hs in by_terrain.items()}),
            MappingProxyType({t: tuple(fs) for t, fs in by_feature.items()}),
        )


def hex_index(hexes: Mapping[Hex, HexInfo]) -> HexIndex:
    """The index of a map's hexes: kept by a loaded map's `HexInfos`, made afresh for any other mapping."""
    if isinstance(hexes, HexInfos):
        return hexes.index()
    infos = hexes.values()
    return HexIndex.of(hexes, {i.hex: i.terrain for i in infos}, {i.hex: i.features for i in infos if i.features}, ())


class HexInfos(LazyMapping[Hex, HexInfo]):
    """A map's hexes (in the grid's order) and their data, each `HexInfo` made when first looked up.

    A set-up check looks at the few hundred hexes its units stand in; making every one (8,100 on three
    60x45 maps) was a fixed cost of every load. Read-only; each hex always gives the same object."""

    __slots__ = ("_source", "_index")

    def __init__(
        self,
        labels: Mapping[Hex, str],
        terrain: Mapping[Hex, tuple[str, ...]],
        features: Mapping[Hex, tuple[HexFeature, ...]],
        plain: tuple[str, ...],
    ):
        """`labels`: every hex of the map and its printed id (the grid's: `MapGrid.labels`); `terrain`,
        `features`: the hexes that have any (terrain falls back to `plain`, the map's default)."""
        super().__init__(labels, lambda h: HexInfo(h, labels[h], terrain.get(h, plain), features.get(h, ())))
        self._source = (terrain, features, plain)
        self._index: HexIndex | None = None

    def index(self) -> HexIndex:
        """The hexes by terrain and feature, made from what the hexes are made from (no `HexInfo` made) on
        first use and kept: the mapping is read-only, so the index never goes stale."""
        if self._index is None:
            self._index = HexIndex.of(self._keys, *self._source)
        return self._index

    def made_from(self) -> tuple:
        """What the hexes are made from besides the grid's labels, which the map's `grid` holds: equal for
        equal hexes. A cache key of a map digests this rather than making and walking every `HexInfo`."""
        return self._source

    def __reduce__(self) -> tuple:
        """Pickled as what it is made from (its maker is a closure): the hexes are made again on lookup."""
        return type(self), (self._keys, *self._source)


@frozen
class HexsideInfo:
    type: str
    side: Hexside
    faces: Hex | None = None
    loc: Loc | None = None


@frozen
class EdgeSideInfo:
    """A hexside feature on the map edge, where the second hex is off the map."""

    type: str
    hex: Hex
    direction: int
    loc: Loc | None = None


@frozen
class PathInfo:
    type: str
    name: str
    hexes: tuple[Hex, ...]
    exits: tuple[tuple[Hex, int], ...] = ()  # (end hex, compass direction) where the line leaves the map
    loc: Loc | None = None


@frozen
class MapLabel:
    text: str
    hex: Hex


@frozen
class Map:
    id: str
    name: str
    grid: MapGrid
    hex_size_in: float
    default_terrain: str
    hexes: Mapping[Hex, HexInfo]
    hexsides: tuple[HexsideInfo, ...]
    edge_sides: tuple[EdgeSideInfo, ...]
    paths: tuple[PathInfo, ...]
    labels: tuple[MapLabel, ...]
    edges: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    path: str = ""
    loc: Loc | None = None
    art: MapImage | None = None
    """The designer's painted map, printed and shown instead of hexwright's drawing."""
    source: Provenance = DESIGNERS
    """Where the map comes from (``source:``, ``source_note:``): a representative map is labelled in its margin."""

    def label(self, h: Hex) -> str:
        return self.grid.hex_to_label(h)

    def hexes_with_feature(self, feature: str) -> tuple[Hex, ...]:
        """The hexes with that feature, in the map's order (from its `index`)."""
        found = {h for h, _ in self.index().by_feature.get(feature, ())}
        return tuple(h for h in self.hexes if h in found)

    def hexes_with_terrain(self, terrain: str) -> tuple[Hex, ...]:
        """The hexes with that terrain, in the map's order (from its `index`)."""
        found = self.index().by_terrain.get(terrain, frozenset())
        return tuple(h for h in self.hexes if h in found)

    def index(self) -> HexIndex:
        """The map's hexes by terrain and feature type (`HexIndex`)."""
        return hex_index(self.hexes)
