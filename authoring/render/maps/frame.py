"""A map image's frame: margins, pixel layout and size, without drawing anything.

Split from `draw` so that the VASSAL compiler, which needs only where the hexes of a (cached) map
image are, does not import the drawing stack (shapely, numpy, the rasteriser) to learn it.
Size convention as in `draw`: ``px_per_hex`` is the hex width across the flats in pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from authoring.hexgrid import PixelLayout
from authoring.model import Game, Map
from authoring.render.shared.art import art_plan
from authoring.render.shared.canvas import wrap
from authoring.render.shared.fonts import font

MARGIN = 0.7
"""Left, right and bottom margin, in hex widths (room for entry arrows and edge names)."""
TOP = 1.2
"""Top margin, in hex widths (title and compass)."""
SQRT3 = math.sqrt(3.0)
TITLE_SIZE = 0.42
"""The map title's text size, in hex widths (`draw.add_title`)."""
NOTICE_INK = "#961414"
"""The colour of the label on a representative map: dark red, apart from the map's ink."""
NOTICE_LINES = 2
NOTICE_SIZE = (0.2, 0.11)
"""The label's text size in hex widths: at most this, shrunk (never below the second) to fit `NOTICE_LINES`."""


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


def map_notice(maps: Sequence[Map]) -> str:
    """The label of the representative maps among `maps` ('' when none is): one map's label, or each
    representative map's named when the maps' labels differ."""
    found = [m for m in maps if m.source.representative]
    labels = list(dict.fromkeys(m.source.label for m in found))
    if len(labels) <= 1:
        return labels[0] if labels else ""
    return " ".join(f"{m.name}: {m.source.label}" for m in found)


def notice_lines(title: str, notice: str, px: float, width: float) -> list[tuple[str, float, float, float]]:
    """Where the label of a representative map goes in the top margin of an image `width` px wide: right of
    the title (at `TITLE_SIZE`), left of the compass, centred on the title's line, as (text, x, y, size) of
    each line, left-middle anchored; under the title, across the map, when the room beside it is too narrow."""
    if not notice:
        return []
    x = MARGIN * px + font(TITLE_SIZE * px, True).getlength(title) + 0.4 * px
    right = width - MARGIN * px - 0.5 * px
    band = (TOP * px * 0.45 - TITLE_SIZE * px / 2, TOP * px * 0.45 + TITLE_SIZE * px / 2)  # the title's line
    if right - x < 4 * px:  # too little room beside the title: under it, above the hexes, as wide as the map
        x, right, band = MARGIN * px, width - MARGIN * px, (band[1] + 0.02 * px, TOP * px - 0.06 * px)
    size = NOTICE_SIZE[0] * px
    while True:
        lines = wrap(notice, size, max(1, int(right - x)), True)
        fits = len(lines) <= NOTICE_LINES and len(lines) * size * 1.2 <= band[1] - band[0]
        if fits or size <= NOTICE_SIZE[1] * px:
            break
        size = max(NOTICE_SIZE[1] * px, size * 0.9)
    lines = lines[:NOTICE_LINES]
    step = size * 1.2
    top = (band[0] + band[1]) / 2 - step * (len(lines) - 1) / 2
    return [(line, x, top + i * step, size) for i, line in enumerate(lines)]
