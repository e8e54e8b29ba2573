"""A scene drawn with the last one's items (`scene.Reuse`, the live preview's redraw) makes anew only what
changed: every item of unchanged maps is the very object drawn last time, and a one-hex terrain change makes
only that hex's items (and what shares its look: the grid of hex ids' boxes) again."""

from __future__ import annotations

from dataclasses import replace

from authoring.hexgrid import Hex
from authoring.model import Map
from authoring.model.map import HexInfos
from authoring.render.maps.draw import map_scene
from authoring.render.maps.scene import Reuse


def _items(scene) -> list:
    return [item for layer in scene.layers for item in layer.items]


def _same(a, b) -> bool:
    """Equal items (a bitmap by its pixels and place)."""
    if hasattr(a, "image") and hasattr(b, "image"):
        return (a.x, a.y, a.image.tobytes()) == (b.x, b.y, b.image.tobytes())
    return a == b


def _with_terrain(m: Map, h: Hex, terrain: tuple[str, ...]) -> Map:
    """`m` with hex `h`'s terrain replaced, and its features' source positions moved (as a save that shifts
    lines does): positions are not what a feature draws."""
    terrain_of, features_of, plain = m.hexes.made_from()
    labels = {x: m.hexes[x].label for x in m.grid.hexes}
    moved = {x: tuple(replace(f, loc=None) for f in fs) for x, fs in features_of.items()}
    return replace(m, hexes=HexInfos(labels, {**terrain_of, h: terrain}, moved, plain))


def test_unchanged_maps_reuse_every_item(bfm) -> None:
    reuse = Reuse()
    maps = list(bfm.maps.values())
    first = _items(map_scene(bfm, maps, 60.0, "t", reuse=reuse))
    reuse.advance()
    again = _items(map_scene(bfm, maps, 60.0, "t", reuse=reuse))
    kept = {id(x) for x in first}
    fresh = [x for x in again if id(x) not in kept]
    # only the title, compass and edge names are drawn again (they are not the maps' items)
    assert len(fresh) <= 12 and len(again) == len(first) > 1000


def test_a_terrain_change_makes_only_that_hexs_items(bfm) -> None:
    reuse = Reuse()
    [m] = bfm.maps.values()
    h = m.grid.label_to_hex("0201")
    assert m.hexes[h].terrain == ("forest",)
    first = map_scene(bfm, [m], 60.0, "t", reuse=reuse)
    reuse.advance()
    changed = _with_terrain(m, h, ("clear",))
    second = map_scene(bfm, [changed], 60.0, "t", reuse=reuse)
    kept = {id(x) for x in _items(first)}
    fresh = [x for x in _items(second) if id(x) not in kept]
    fills = {x.fill for x in fresh if type(x).__name__ == "Poly" and len(x.points) == 6}
    assert len(fresh) <= 12 + 4, fresh  # the hex's fill, grid line and id; title, compass, edge names
    assert fills == {second.style.terrain_look("clear").color}
    third = map_scene(bfm, [changed], 60.0, "t")  # nothing reused: the same items, equal
    assert len(_items(second)) == len(_items(third))
    assert all(_same(a, b) for a, b in zip(_items(second), _items(third)))
