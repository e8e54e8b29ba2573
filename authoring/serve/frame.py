"""Where the hexes of a scenario's maps are drawn: the same frame `render.maps.draw.map_scene` draws them in,
found without drawing (a painted map's art plan, or the grid's frame with hexwright's margins)."""

from __future__ import annotations

from collections.abc import Sequence

from authoring.hexgrid import MultiMapLayout, PixelLayout
from authoring.model import Game, Map
from authoring.render.maps.frame import has_art, layout_for
from authoring.render.shared.art import art_plan

LONG_SIDE_PX = 4000
"""The longer side of the map image the page shows: a large map is drawn smaller and zoomed by the browser
(typhoon's three maps at 44 px a hex, where hex ids are still legible)."""
MAX_PX_PER_HEX = 72
MIN_PX_PER_HEX = 24


def scenario_maps(game: Game, map_ids: Sequence[str]) -> list[Map]:
    """The maps a scenario plays on (every map of the game when it names none that exists)."""
    return [game.maps[m] for m in map_ids if m in game.maps] or [game.maps[k] for k in sorted(game.maps)]


def frame(maps: Sequence[Map], px_per_hex: float) -> tuple[PixelLayout, tuple[int, int]]:
    """The pixel layout and image size of `map_scene(game, maps, px_per_hex, ...)`."""
    if len(maps) == 1 and has_art(maps[0]):
        plan = art_plan(maps[0], px_per_hex)
        return plan.layout, plan.size
    grid = maps[0].grid if len(maps) == 1 else MultiMapLayout({m.id: m.grid for m in maps})
    return layout_for(grid, px_per_hex)


def preview_px(maps: Sequence[Map]) -> float:
    """Hex width (pixels across the flats) that keeps the image's longer side near `LONG_SIDE_PX`."""
    _layout, (w, h) = frame(maps, 100.0)
    px = 100.0 * LONG_SIDE_PX / max(w, h, 1)
    return float(round(min(MAX_PX_PER_HEX, max(MIN_PX_PER_HEX, px))))
