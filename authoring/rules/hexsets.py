"""Named hex sets resolved against the maps a scenario uses (rules-spec "Named hex sets").

A set only ever contains hexes of the maps in play, so a set that names another map's hexes
resolves to nothing here, which is what lets codes like `w` be refused in a one-map scenario.
"""

from __future__ import annotations

from collections.abc import Mapping

from authoring.hexgrid import Hex
from authoring.model import Map


class HexSets:
    """Resolves `game.hex_sets` names (memoised) for one set of maps in play."""

    def __init__(self, hex_sets: Mapping[str, Mapping], maps: tuple[Map, ...]):
        self.specs = hex_sets
        self.maps = maps
        self._cache: dict[str, frozenset[Hex]] = {}

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.specs))

    def resolve(self, name: str) -> frozenset[Hex] | None:
        """The hexes of a named set on the maps in play; None when no set has that name."""
        if name not in self.specs:
            return None
        if name not in self._cache:
            self._cache[name] = frozenset()  # guards against union cycles
            self._cache[name] = self._spec(self.specs[name])
        return self._cache[name]

    def _maps(self, map_id: str | None) -> tuple[Map, ...]:
        return tuple(m for m in self.maps if map_id is None or m.id == map_id)

    def _spec(self, spec: Mapping) -> frozenset[Hex]:
        """Union, explicit hexes, or every hex of the maps in play that passes each filter given
        (edge AND terrain AND feature), less the hexes of the `except` sets; a union with `around: N`
        also holds every hex of the maps in play within N hexes of it (Typhoon 13.6.4: on or next to Moscow)."""
        if "union" in spec:
            out: set[Hex] = set()
            for other in spec["union"]:
                out |= self.resolve(other) or frozenset()
            return self._around(frozenset(out), int(spec.get("around", 0)))
        if "hexes" in spec:
            found = frozenset(h for label in spec["hexes"] if (h := self.label_to_hex(str(label))) is not None)
        else:
            found = frozenset().union(*(_passing(spec, m) for m in self._maps(spec.get("map"))))
        for other in spec.get("except", ()):
            found -= self.resolve(other) or frozenset()
        return found

    def _around(self, hexes: frozenset[Hex], reach: int) -> frozenset[Hex]:
        """The hexes and, `reach` times over, their neighbours on the maps in play."""
        out, edge = set(hexes), set(hexes)
        for _ in range(reach):
            edge = {n for h in edge for n in h.neighbours() if n not in out and any(n in m.hexes for m in self.maps)}
            out |= edge
        return frozenset(out)

    def label_to_hex(self, label: str) -> Hex | None:
        """A printed hex id on the maps in play (the first map that prints it)."""
        for m in self.maps:
            h = m.grid.label_to_hex(label)
            if h is not None:
                return h
        return None


def _passing(spec: Mapping, m: Map):
    """The hexes of the map that pass each filter the set gives (edge AND terrain (any of) AND feature with
    its side and kind), found through the map's index: only hexes that have a wanted terrain or feature are
    looked at."""
    found: frozenset[Hex] | None = None
    index = m.index() if "terrain" in spec or "feature" in spec else None
    if index is not None and "terrain" in spec:
        wanted = spec["terrain"] if isinstance(spec["terrain"], (list, tuple)) else (spec["terrain"],)
        found = frozenset().union(*(index.by_terrain.get(t, ()) for t in wanted))
    if index is not None and "feature" in spec:
        side, kind = spec.get("side"), spec.get("kind")
        featured = frozenset(
            h
            for h, f in index.by_feature.get(spec["feature"], ())
            if (side is None or f.side == side) and (kind is None or f.kind == kind)
        )
        found = featured if found is None else found & featured
    if "edge" in spec:
        edge = frozenset(h for h in m.grid.edge_hexes(spec["edge"]) if h in m.hexes)
        found = edge if found is None else found & edge
    return m.hexes.keys() if found is None else found
