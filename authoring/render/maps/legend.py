"""The map legend: one sample per terrain type, hex feature, hexside feature and path, from the game's data.

Samples are drawn by the same painters as the map, so the legend always matches it.
"""

from __future__ import annotations

import math

from PIL import Image

from authoring.hexgrid import Hex, PixelLayout
from authoring.model import Game
from authoring.render.maps.geometry import round_corners
from authoring.render.maps.raster import Item, Layer, Poly, rasterize
from authoring.render.maps.scene import (
    ARROW_GAP,
    ARROWS,
    Scene,
    fort_ring,
    fortified_side,
    hexside_line,
    path_line,
)
from authoring.render.maps.style import MapStyle, map_style
from authoring.render.maps.symbols import FEATURE_SYMBOLS, TERRAIN_SYMBOLS, arrow
from authoring.render.shared.canvas import Canvas, wrap

SAMPLE_PX = 90
"""Hex width of the samples, in pixels."""
COLUMN_PX = 330
"""Width of one legend column (sample and name)."""


def sample_scene(style: MapStyle, origin: tuple[float, float]) -> Scene:
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


def sample_items(scene: Scene, section: str, tid: str) -> list[Item]:
    """Items of one sample centred on Hex(0, 0) of the scene's layout."""
    style, f, h = scene.style, scene.f, Hex(0, 0)
    x, y = scene.layout.hex_to_pixel(h)
    clear = style.terrain_look(next(iter(style.terrain), "clear")).color if style.terrain else "#ebe3c3"
    if section == "terrain":
        look = style.terrain_look(tid)
        return _hex(scene, h, look.color) + TERRAIN_SYMBOLS.get(look.symbol, TERRAIN_SYMBOLS["none"])(
            x, y, f, look.color
        )
    if section == "feature":
        look = style.feature_look(tid)
        items = _hex(scene, h, clear)
        if look.symbol == "fort":
            return items + fort_ring(scene, h, look.color)
        if look.symbol in ARROWS:
            return items + _legend_arrows(x, y, f, look.color, ARROWS[look.symbol])
        return items + FEATURE_SYMBOLS.get(look.symbol, FEATURE_SYMBOLS["dot"])(x, y, f, look.color)
    if section == "hexside":
        look = style.hexsides[tid]
        items = _hex(scene, h, clear)
        c = scene.layout.corners(h)
        if look.style == "fortified-line":
            return items + fortified_side(scene, (c[4], c[5]), h, look) + fortified_side(scene, (c[5], c[0]), h, look)
        return items + hexside_line(scene, round_corners([c[3], c[4], c[5], c[0]], 0.3), look)
    look = style.paths[tid]
    return _hex(scene, h, clear) + path_line(
        scene, [(x - 0.6 * f, y + 0.15 * f), (x, y), (x + 0.6 * f, y - 0.15 * f)], look
    )


def _legend_arrows(x: float, y: float, f: float, colour: str, count: int) -> list[Item]:
    """The entry arrows of a legend sample, pointing up into the hex as on the map's edge."""
    out: list[Item] = []
    for i in range(count):
        dx = (i - (count - 1) / 2) * ARROW_GAP * f
        out += arrow((x + dx, y + 0.1 * f), (x + dx, y - 0.45 * f), f, colour)
    return out


def _look_key(style: MapStyle, section: str, tid: str):
    """What a sample looks like (its look less its id and name): entries that draw the same are one line."""
    if section == "terrain":
        look = style.terrain_look(tid)
    elif section == "feature":
        look = style.feature_look(tid)
    else:
        look = (style.hexsides if section == "hexside" else style.paths)[tid]
    fields = vars(look) if hasattr(look, "__dict__") else {f: getattr(look, f) for f in look.__dataclass_fields__}
    return section, repr(sorted((k, repr(v)) for k, v in fields.items() if k not in ("id", "name")))


def merged_entries(game: Game, style: MapStyle) -> list[tuple[str, str, str]]:
    """``legend_entries`` with entries drawn alike merged into one, their names joined."""
    merged: dict = {}
    for section, tid, name in legend_entries(game, style):
        key = _look_key(style, section, tid)
        if key in merged:
            s, first, names = merged[key]
            merged[key] = (s, first, names + ([name] if name not in names else []))
        else:
            merged[key] = (section, tid, [name])
    return [(section, tid, "; ".join(names)) for section, tid, names in merged.values()]


NAME_PX = 18
"""Legend name size in px at 150 dpi (about 9 pt)."""


def _column_entries(game: Game, style: MapStyle, column_w: int) -> list[tuple[str, str, list[str]]]:
    text_w = column_w - int(SAMPLE_PX * 1.6)
    return [(section, tid, wrap(name, NAME_PX, text_w)) for section, tid, name in merged_entries(game, style)]


def legend_blocks(game: Game, size: tuple[int, int], columns: int = 2) -> list[Canvas]:
    """The legend as blocks no bigger than ``size``: a title, then rows of ``columns`` samples with
    their names wrapped inside their column (nothing clipped); a row is as tall as its longest name."""
    style = map_style(game)
    width, height = size
    column_w = width // columns
    entries = _column_entries(game, style, column_w)
    line_h = int(NAME_PX * 1.25)
    sample_h = int(SAMPLE_PX * 0.95)
    rows = [entries[i : i + columns] for i in range(0, len(entries), columns)]
    row_hs = [max(sample_h, max(len(e[2]) for e in row) * line_h) + 8 for row in rows]
    blocks, start = [], 0
    while start < len(rows):
        top = 50 if start == 0 else 0
        end, used = start, top
        while end < len(rows) and (end == start or used + row_hs[end] <= height - 4):
            used += row_hs[end]
            end += 1
        blocks.append(_legend_block(style, rows[start:end], row_hs[start:end], (width, used + 4), column_w, top))
        start = end
    return blocks


def _legend_block(style: MapStyle, rows, row_hs, size, column_w: int, top: int) -> Canvas:
    vector = Layer(True)
    y = top
    for row, h in zip(rows, row_hs):
        for col, (section, tid, _) in enumerate(row):
            vector.extend(
                sample_items(sample_scene(style, (col * column_w + SAMPLE_PX * 0.6, y + h / 2)), section, tid)
            )
        y += h
    block = Canvas(rasterize([vector], size, (255, 255, 255), 3).convert("RGB"))
    if top:
        block.text((0, 4), "Legend", 30, True, slot=(0, 0, size[0], top), role="title")
    line_h = int(NAME_PX * 1.25)
    y = top
    for row, h in zip(rows, row_hs):
        for col, (_, _, lines) in enumerate(row):
            x = int(col * column_w + SAMPLE_PX * 1.3)
            slot = (x - 2, y, (col + 1) * column_w, y + h)
            ty = y + h // 2 - len(lines) * line_h // 2
            for n, line in enumerate(lines):
                block.text((x, ty + n * line_h), line, NAME_PX, slot=slot, role="line")
        y += h
    return block


def render_legend(game: Game, columns: int = 2) -> Image.Image:
    """The legend as one RGB image (samples with names, in ``columns`` columns)."""
    blocks = legend_blocks(game, (COLUMN_PX * columns, 10**6), columns)
    return blocks[0].image
