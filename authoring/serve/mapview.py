"""The page's map: every hex as an outline in the map image's pixels, with what the hover panel shows
(ids, terrain, features, hexsides, the named hex sets that hold it).

After a save the view is made again for every hex of the maps, most of them unchanged: a memo the caller
keeps per picture frame holds the frame, each hex's outline and its last record with what it was made
from, so an unchanged hex's record is taken as it was and only a changed one is made."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from authoring.hexgrid import Hex, PixelLayout
from authoring.model import Game, HexFeature, Map
from authoring.rules.hexsets import HexSets
from authoring.runtime import gc_paused
from authoring.serve.frame import frame

HexData = tuple[tuple[str, ...], tuple[str, ...], tuple[HexFeature, ...]]
"""A hex's printed ids (one per map that prints it), terrain and features."""


def _point(p) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def _hexsides(maps: Sequence[Map], label_of) -> dict[Hex, list[str]]:
    """Per hex, its hexside features as 'type (toward NEIGHBOUR)' and map-edge sides as 'type (map edge)'."""
    found: dict[Hex, list[str]] = {}
    for m in maps:
        for hs in m.hexsides:
            a, b = hs.side.hexes()
            found.setdefault(a, []).append(f"{hs.type} (toward {label_of(b)})")
            found.setdefault(b, []).append(f"{hs.type} (toward {label_of(a)})")
        for es in m.edge_sides:
            found.setdefault(es.hex, []).append(f"{es.type} (map edge)")
    return found


def _sets_by_hex(game: Game, maps: Sequence[Map]) -> dict[Hex, list[str]]:
    sets = HexSets(game.hex_sets, tuple(maps))
    found: dict[Hex, list[str]] = {}
    for name in sets.names():
        for h in sets.resolve(name) or ():
            found.setdefault(h, []).append(name)
    return found


def _data_of(m: Map) -> Callable[[Hex], tuple[str, tuple[str, ...], tuple[HexFeature, ...]]]:
    """A hex's printed id, terrain and features on the map: from what a loaded map's hexes are made of
    (`HexInfos.made_from`), so that no `HexInfo` is made for it, else from its `HexInfo`."""
    made_from = getattr(m.hexes, "made_from", None)
    if made_from is None:

        def of_info(h: Hex) -> tuple[str, tuple[str, ...], tuple[HexFeature, ...]]:
            info = m.hexes[h]
            return info.label, info.terrain, info.features

        return of_info
    terrain, features, plain = made_from()
    labels = m.grid.labels()
    return lambda h: (labels[h], terrain.get(h, plain), features.get(h, ()))


def hex_data(maps: Sequence[Map]) -> dict[Hex, HexData]:
    """Every hex of the maps once, with each map's printed id and the first map's terrain and features
    (what `render.maps.scene.cells_of` gives the drawing)."""
    out: dict[Hex, HexData] = {}
    for m in maps:
        data = _data_of(m)
        for h in m.grid.hexes:
            label, terrain, features = data(h)
            known = out.get(h)
            if known is None:
                out[h] = ((label,), terrain, features)
            elif label not in known[0]:
                out[h] = (known[0] + (label,), known[1], known[2])
    return out


def _feature(f) -> dict:
    return {
        k: v
        for k, v in (("type", f.type), ("name", f.name), ("kind", f.kind), ("side", f.side), ("points", f.points))
        if v not in ("", None)
    }


@gc_paused
def map_view(game: Game, maps: Sequence[Map], px_per_hex: float, memo: dict | None = None) -> dict:
    """The JSON of the map: image size, hex width, and one record per hex in drawing order (`memo`: a dict
    the caller keeps for this picture frame, where the frame, each hex's outline and its last record are kept
    for the next time)."""
    memo = {} if memo is None else memo
    key, layout, size, order, outlines = _frame(memo, maps, px_per_hex)
    data = hex_data(maps)
    label_of = lambda h: data[h][0][0] if h in data else "off-map"
    sides, sets = _hexsides(maps, label_of), _sets_by_hex(game, maps)
    drawn_in, last = memo.get("records", (None, {}))
    last = last if drawn_in == key else {}  # another view of the frame may have changed it meanwhile
    records: dict[Hex, tuple[tuple, dict]] = {}
    for h in order:
        labels, terrain, features = data[h]
        made_from = (
            labels,
            terrain,
            _feature_key(features) if features else (),
            sorted(sides.get(h, ())),
            sorted(sets.get(h, ())),
        )
        kept = last.get(h)
        if kept is None or kept[0] != made_from:
            kept = (made_from, _hex(_outline(layout, h, outlines), made_from, features))
        records[h] = kept
    memo["records"] = (key, records)
    return {
        "size": list(size),
        "f": layout.size * 3**0.5,
        "px_per_hex": px_per_hex,
        "maps": [m.id for m in maps],
        "hexes": [records[h][1] for h in order],
    }


def _frame(memo: dict, maps: Sequence[Map], px_per_hex: float) -> tuple:
    """The frame's key, the pixel layout and image size of the maps, their hexes in drawing order and each
    hex's outline as drawn so far: made again only when a map's grid, place or art is not the last view's
    (a save of a map's terrain keeps them)."""
    key = (px_per_hex, tuple((m.id, m.grid.spec, m.grid.origin, m.art) for m in maps))
    kept = memo.get("frame")
    if kept is None or kept[0] != key:
        layout, size = frame(maps, px_per_hex)
        kept = memo["frame"] = (key, layout, size, sorted({h for m in maps for h in m.grid.hexes}), {})
    return kept


def _feature_key(features: tuple[HexFeature, ...]) -> tuple:
    """What the panel shows of a hex's features (the records compare equal across loads of the same data)."""
    return tuple((f.type, f.name, f.kind, f.side, f.points) for f in features)


def _outline(layout: PixelLayout, h: Hex, known: dict) -> tuple[float, float, str]:
    found = known.get(h)
    if found is None:
        x, y = layout.hex_to_pixel(h)
        found = known[h] = (round(x, 1), round(y, 1), " ".join(_point(p) for p in layout.corners(h)))
    return found


def _hex(outline: tuple[float, float, str], made_from: tuple, features: tuple[HexFeature, ...]) -> dict:
    labels, terrain, _features, sides, sets = made_from
    return {
        "id": labels[0],
        "labels": list(labels),
        "x": outline[0],
        "y": outline[1],
        "points": outline[2],
        "terrain": list(terrain),
        "features": [_feature(f) for f in features],
        "hexsides": list(sides),
        "sets": list(sets),
    }
