"""Named hex sets resolved against the maps a scenario uses (rules-spec "Named hex sets").

A set only ever contains hexes of the maps in play, so a set that names another map's hexes
resolves to nothing here, which is what lets codes like `w` be refused in a one-map scenario.
"""
from __future__ import annotations

from typing import Mapping

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
        maps = self._maps(spec.get("map"))
        if "union" in spec:
            out: set[Hex] = set()
            for other in spec["union"]:
                out |= self.resolve(other) or frozenset()
            return frozenset(out)
        if "hexes" in spec:
            return frozenset(h for label in spec["hexes"] if (h := self.label_to_hex(str(label))) is not None)
        if "edge" in spec:
            return frozenset(h for m in maps for h in m.grid.edge_hexes(spec["edge"]))
        if "feature" in spec:
            side = spec.get("side")
            return frozenset(h for m in maps for h, info in m.hexes.items()
                             if any(f.type == spec["feature"] and (side is None or f.side == side) for f in info.features))
        if "terrain" in spec:
            return frozenset(h for m in maps for h in m.hexes_with_terrain(spec["terrain"]))
        return frozenset(h for m in maps for h in m.hexes)

    def label_to_hex(self, label: str) -> Hex | None:
        """A printed hex id on the maps in play (the first map that prints it)."""
        for m in self.maps:
            h = m.grid.label_to_hex(label)
            if h is not None:
                return h
        return None
