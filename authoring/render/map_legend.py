"""The map legend: one sample per terrain type, hex feature, hexside feature and path, from the game's data.

Samples are drawn by the same painters as the map, so the legend always matches it.
"""
from __future__ import annotations

import math

from PIL import Image

from authoring.hexgrid import Hex, PixelLayout
from authoring.model import Game
from authoring.render.map_geometry import round_corners
from authoring.render.map_raster import Item, Layer, Line, Poly, Text, rasterize
from authoring.render.map_scene import (
    Scene,
    fort_ring,
    fortified_side,
    hexside_line,
    path_line,
)
from authoring.render.map_style import INK, MapStyle, map_style
from authoring.render.map_symbols import FEATURE_SYMBOLS, TERRAIN_SYMBOLS, arrow

SAMPLE_PX = 90
"""Hex width of the samples, in pixels."""
COLUMN_PX = 330
"""Width of one legend column (sample and name)."""


def _sample_scene(style: MapStyle, origin: tuple[float, float]) -> Scene:
    layout = PixelLayout("flat", SAMPLE_PX / math.sqrt(3), origin)
    return Scene(layout, (0, 0), style, {}, ())


def _hex(scene: Scene, h: Hex, colour) -> list[Item]:
    return [Poly(tuple(scene.layout.corners(h)), colour, scene.style.grid, 1.2)]


def legend_entries(game: Game, style: MapStyle) -> list[tuple[str, str, str]]:
    """(section, type id, name) of everything the legend shows, in data order."""
    out = [("terrain", t.id, t.name) for t in game.terrain]
    out += [("feature", f.id, f.name) for f in game.hex_features if style.feature_look(f.id).symbol != "none"]
    out += [("hexside", s.id, s.name) for s in game.hexside_features]
    out += [("path", p.id, p.name) for p in game.paths]
    return out


def _sample(scene: Scene, section: str, tid: str) -> list[Item]:
    """Items of one sample centred on Hex(0, 0) of the scene's layout."""
    style, f, h = scene.style, scene.f, Hex(0, 0)
    x, y = scene.layout.hex_to_pixel(h)
    clear = style.terrain_look(next(iter(style.terrain), "clear")).color if style.terrain else "#ebe3c3"
    if section == "terrain":
        look = style.terrain_look(tid)
        return _hex(scene, h, look.color) + TERRAIN_SYMBOLS.get(look.symbol, TERRAIN_SYMBOLS["none"])(x, y, f, look.color)
    if section == "feature":
        look = style.feature_look(tid)
        items = _hex(scene, h, clear)
        if look.symbol == "fort":
            return items + fort_ring(scene, h, look.color)
        if look.symbol == "arrow":
            return items + arrow((x, y + 0.1 * f), (x, y - 0.45 * f), f, look.color)
        return items + FEATURE_SYMBOLS.get(look.symbol, FEATURE_SYMBOLS["dot"])(x, y, f, look.color)
    if section == "hexside":
        look = style.hexsides[tid]
        items = _hex(scene, h, clear)
        c = scene.layout.corners(h)
        if look.style == "fortified-line":
            return items + fortified_side(scene, (c[4], c[5]), h, look) + fortified_side(scene, (c[5], c[0]), h, look)
        return items + hexside_line(scene, round_corners([c[3], c[4], c[5], c[0]], 0.3), look)
    look = style.paths[tid]
    return _hex(scene, h, clear) + path_line(scene, [(x - 0.6 * f, y + 0.15 * f), (x, y), (x + 0.6 * f, y - 0.15 * f)], look)


def render_legend(game: Game, columns: int = 2) -> Image.Image:
    """The legend as an RGB image: samples with names, in ``columns`` columns."""
    style = map_style(game)
    entries = legend_entries(game, style)
    rows = max(1, math.ceil(len(entries) / columns))
    row_h = SAMPLE_PX * 1.05
    top = 60
    size = (int(COLUMN_PX * columns + 20), int(top + rows * row_h + 20))
    vector, text = Layer(True), Layer(False)
    text.add(Text("Legend", 20, 30, 30, INK, anchor="lm", bold=True))
    for i, (section, tid, name) in enumerate(entries):
        col, row = divmod(i, rows)
        cx = 20 + col * COLUMN_PX + SAMPLE_PX * 0.75
        cy = top + row * row_h + row_h / 2
        scene = _sample_scene(style, (cx, cy))
        vector.extend(_sample(scene, section, tid))
        text.add(Text(name, cx + SAMPLE_PX * 1.05, cy, 18, INK, anchor="lm"))
    vector.add(Line(((10, 10), (size[0] - 10, 10), (size[0] - 10, size[1] - 10), (10, size[1] - 10), (10, 10)),
                    INK, 2, round_caps=False))
    return rasterize([vector, text], size, style.paper, 3)
