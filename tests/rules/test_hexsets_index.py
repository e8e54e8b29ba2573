"""Named hex sets found through each map's index (`Map.index`) are the sets a scan of every hex finds: for
every set of every bundled game, on every scenario's maps, each map alone and all maps, and for sets made
here from each map's own terrain, features, sides and kinds (edge, map, except, union + around)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from rules_support import ROOT

from authoring.load import load_project
from authoring.model import HexInfo, Map
from authoring.rules.hexsets import HexSets


@pytest.fixture(scope="module")
def games() -> dict:
    _, results = load_project(ROOT)
    found = {r.game.id: r.game for r in results if r.game is not None}
    assert {"bfm", "typhoon", "1941"} <= set(found)
    return found


class ScanSets(HexSets):
    """The straightforward resolver: every hex of each map tested against the set's filters."""

    def _spec(self, spec: Mapping) -> frozenset:
        if "union" in spec or "hexes" in spec:
            return super()._spec(spec)
        found = frozenset(
            h for m in self._maps(spec.get("map")) for h, info in _candidates(spec, m) if _passes(spec, info)
        )
        for other in spec.get("except", ()):
            found -= self.resolve(other) or frozenset()
        return found


def _candidates(spec: Mapping, m: Map):
    if "edge" in spec:
        return ((h, m.hexes[h]) for h in m.grid.edge_hexes(spec["edge"]) if h in m.hexes)
    return m.hexes.items()


def _passes(spec: Mapping, info: HexInfo) -> bool:
    if "terrain" in spec:
        wanted = spec["terrain"] if isinstance(spec["terrain"], (list, tuple)) else (spec["terrain"],)
        if not any(t in info.terrain for t in wanted):
            return False
    if "feature" in spec:
        side, kind = spec.get("side"), spec.get("kind")
        return any(
            f.type == spec["feature"] and (side is None or f.side == side) and (kind is None or f.kind == kind)
            for f in info.features
        )
    return True


def _made_sets(game) -> dict[str, dict]:
    """Sets over what the game's maps hold: each terrain (alone, as a list, with an edge, less a feature),
    each feature type with each side and kind it has, terrain AND feature, unions around them."""
    sets: dict[str, dict] = {"nowhere": {"terrain": "no-such-terrain"}, "no-feature": {"feature": "no-such"}}
    for m in game.maps.values():
        terrains = sorted({t for info in m.hexes.values() for t in info.terrain})
        features = sorted({(f.type, f.side, f.kind) for info in m.hexes.values() for f in info.features})
        sets[f"{m.id}-all"] = {"map": m.id}
        for edge in ("north", "south", "east", "west"):
            sets[f"{m.id}-{edge}"] = {"edge": edge, "map": m.id}
            sets[f"any-{edge}"] = {"edge": edge}
        for t in terrains:
            sets[f"t-{t}"] = {"terrain": t}
            sets[f"t-{m.id}-{t}"] = {"terrain": [t, terrains[0]], "map": m.id}
            sets[f"t-{t}-west"] = {"terrain": t, "edge": "west"}
        for ftype, side, kind in features:
            sets[f"f-{ftype}"] = {"feature": ftype}
            sets[f"f-{ftype}-{side}"] = {"feature": ftype, "side": side}
            sets[f"f-{ftype}-{kind}"] = {"feature": ftype, "kind": kind}
            sets[f"f-{ftype}-{side}-{kind}-e"] = {"feature": ftype, "side": side, "kind": kind, "edge": "east"}
            sets[f"f-{ftype}-{side}-other"] = {"feature": ftype, "side": side + "-not"}
            for t in terrains:
                sets[f"tf-{t}-{ftype}"] = {"terrain": t, "feature": ftype}
                sets[f"t-{t}-less-{ftype}"] = {"terrain": t, "except": [f"f-{ftype}"]}
    names = sorted(sets)
    sets["around-some"] = {"union": names[::7], "around": 2}
    sets["around-less"] = {"union": ["around-some"], "around": 1, "except": names[1::5]}
    return sets


def _map_choices(game) -> set[tuple[str, ...]]:
    choices = {tuple(s.maps) for s in game.scenarios.values()}
    choices |= {(m,) for m in game.maps} | {tuple(sorted(game.maps))}
    return {tuple(m for m in c if m in game.maps) for c in choices}


@pytest.mark.slow
@pytest.mark.parametrize("gid", ["bfm", "bfm-art", "typhoon", "1941"])
def test_indexed_sets_equal_a_scan_of_every_hex(games, gid):
    game = games[gid]
    specs = {**_made_sets(game), **game.hex_sets}
    resolved = compared = 0
    for choice in sorted(_map_choices(game)):
        maps = tuple(game.maps[m] for m in choice)
        indexed, scanned = HexSets(specs, maps), ScanSets(specs, maps)
        for name in sorted(specs):
            want = scanned.resolve(name)
            assert indexed.resolve(name) == want, (gid, choice, name, specs[name])
            resolved, compared = resolved + bool(want), compared + 1
    assert resolved > compared / 2  # most sets hold hexes: the comparison is not of empty sets


def test_index_holds_each_hex_of_a_terrain_and_feature(games):
    m = games["typhoon"].maps["M"]
    index = m.index()
    assert index is m.index()  # made once per map
    for t, hexes in index.by_terrain.items():
        assert hexes == frozenset(m.hexes_with_terrain(t))
    assert set(index.by_terrain) == {t for info in m.hexes.values() for t in info.terrain}
    pairs = {(h, f) for h, info in m.hexes.items() for f in info.features}
    listed = [p for fs in index.by_feature.values() for p in fs]
    assert len(listed) == len(pairs) and set(listed) == pairs
    assert all(f.type == t for t, fs in index.by_feature.items() for _h, f in fs)
    assert len(index.by_terrain[m.default_terrain]) > len(m.hexes) / 2  # most hexes fall back to the default
    assert len(index.by_feature) > 2 and len(index.by_terrain) > 3


def test_index_of_a_plain_mapping_is_the_same(games):
    from authoring.model.map import hex_index

    m = games["bfm"].maps["main"]
    plain = dict(m.hexes.items())
    made = hex_index(plain)
    assert dict(made.by_terrain) == dict(m.index().by_terrain)
    assert {t: set(fs) for t, fs in made.by_feature.items()} == {t: set(fs) for t, fs in m.index().by_feature.items()}
