"""A map image's frame: margins, pixel layout and size, without drawing anything.

Split from `draw` so that the VASSAL compiler, which needs only where the hexes of a (cached) map
image are, does not import the drawing stack (shapely, numpy, the rasteriser) to learn it.
Size convention as in `draw`: ``px_per_hex`` is the hex width across the flats in pixels.
"""

from __future__ import annotations

import math

from authoring.hexgrid import PixelLayout
from authoring.model import Game, Map
from authoring.render.shared.art import art_plan

MARGIN = 0.7
"""Left, right and bottom margin, in hex widths (room for entry arrows and edge names)."""
TOP = 1.2
"""Top margin, in hex widths (title and compass)."""
SQRT3 = math.sqrt(3.0)


def layout_for(grid, px_per_hex: float) -> tuple[PixelLayout, tuple[int, int]]:
    size = px_per_hex / SQRT3
    margin = MARGIN * px_per_hex
    base = PixelLayout.for_grid(grid, size, margin)
    layout = PixelLayout(base.orientation, size, (base.origin[0], base.origin[1] + (TOP - MARGIN) * px_per_hex))
    width, height = layout.bounds(grid.hexes, margin)
    return layout, (width, height)


def map_frame(game: Game, map_id: str, px_per_hex: float) -> tuple[PixelLayout, tuple[int, int]]:
    """`map_layout` and `map_image_size` at once (each walks every hex of the map)."""
    m = map_of(game, map_id)
    if has_art(m):  # the designer's art, in its grid's regular frame
        plan = art_plan(m, px_per_hex)
        return plan.layout, plan.size
    return layout_for(m.grid, px_per_hex)


def map_layout(game: Game, map_id: str, px_per_hex: float) -> PixelLayout:
    """The pixel layout `draw.render_map` draws ``map_id`` with at ``px_per_hex`` (hex width across flats)."""
    return map_frame(game, map_id, px_per_hex)[0]


def map_image_size(game: Game, map_id: str, px_per_hex: float) -> tuple[int, int]:
    return map_frame(game, map_id, px_per_hex)[1]


def has_art(m: Map) -> bool:
    """The map prints and shows the designer's registered art instead of hexwright's drawing."""
    return m.art is not None and m.art.registration is not None


def map_of(game: Game, map_id: str) -> Map:
    try:
        return game.maps[map_id]
    except KeyError:
        raise KeyError(f"no map {map_id!r} in game {game.id!r}; maps: {', '.join(sorted(game.maps))}") from None
