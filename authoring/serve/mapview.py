"""The page's map: every hex as an outline in the map image's pixels, with what the hover panel shows
(ids, terrain, features, hexsides, the named hex sets that hold it)."""

from __future__ import annotations

from collections.abc import Sequence

from authoring.hexgrid import Hex, PixelLayout
from authoring.model import Game, Map
from authoring.render.maps.scene import cells_of
from authoring.rules.hexsets import HexSets
from authoring.runtime import gc_paused
from authoring.serve.frame import frame


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


def _feature(f) -> dict:
    return {
        k: v
        for k, v in (("type", f.type), ("name", f.name), ("kind", f.kind), ("side", f.side), ("points", f.points))
        if v not in ("", None)
    }


@gc_paused
def map_view(game: Game, maps: Sequence[Map], px_per_hex: float, outlines: dict | None = None) -> dict:
    """The JSON of the map: image size, hex width, and one record per hex in drawing order (`outlines`: each
    hex's centre and corners as drawn in this frame before, kept by the caller for the next time)."""
    layout, size = frame(maps, px_per_hex)
    cells = cells_of(maps)
    label_of = lambda h: cells[h].labels[0] if h in cells else "off-map"
    sides, sets = _hexsides(maps, label_of), _sets_by_hex(game, maps)
    outlines = {} if outlines is None else outlines
    hexes = [_hex(_outline(layout, h, outlines), cells[h], sides.get(h, ()), sets.get(h, ())) for h in sorted(cells)]
    return {
        "size": list(size),
        "f": layout.size * 3**0.5,
        "px_per_hex": px_per_hex,
        "maps": [m.id for m in maps],
        "hexes": hexes,
    }


def _outline(layout: PixelLayout, h: Hex, known: dict) -> tuple[float, float, str]:
    found = known.get(h)
    if found is None:
        x, y = layout.hex_to_pixel(h)
        found = known[h] = (round(x, 1), round(y, 1), " ".join(_point(p) for p in layout.corners(h)))
    return found


def _hex(outline: tuple[float, float, str], cell, sides, sets) -> dict:
    info = cell.info
    return {
        "id": cell.labels[0],
        "labels": list(cell.labels),
        "x": outline[0],
        "y": outline[1],
        "points": outline[2],
        "terrain": list(info.terrain),
        "features": [_feature(f) for f in info.features],
        "hexsides": sorted(sides),
        "sets": sorted(sets),
    }
