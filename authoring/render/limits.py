"""What the build stages can draw, checked by `validate` (issue 33, point 3): whatever validates, builds.

The loader checks what one file decides (sizes, art, SVG: `budget`, `load.resolve_art`); these checks
need the whole game and the renderers' own measures, and draw nothing:

* HW-SIZE-002: a painted map whose image, the art resampled to the stage's scale, passes the pixel budget
  (a drawn map's size follows from its hexes and is checked at load; a painted map's from its art).
* HW-SIZE-003: a map image with a side longer than the format it is written in allows
  (`budget.IMAGE_MAX_SIDE`): a painted map's module board is a JPEG, at most 65,500 px a side.
* HW-TABLE-002: a rule table the charts cannot lay out: its columns do not fit across a page even at
  their narrowest, a row is taller than a page, or the whole table, as the module's chart window shows
  it, is over the pixel budget.
* HW-MIX-003: more pieces in the counter mix than `budget.MAX_PIECES`.
"""

from __future__ import annotations

from authoring.budget import IMAGE_MAX_SIDE, MAP_PX_PER_HEX, MAX_PIECES, MODULE_PX_PER_HEX, PIXEL_BUDGET
from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_MIX_003, HW_SIZE_002, HW_SIZE_003, HW_TABLE_002
from authoring.model import Game
from authoring.render.maps.frame import has_art, map_image_size
from authoring.render.print.charts import NATURAL, table_problem
from authoring.render.shared.canvas import PageSpec


def stage_findings(game: Game) -> list[Diagnostic]:
    """Every map, table and the counter mix checked against what the stages draw them as."""
    return _map_findings(game) + _table_findings(game) + _mix_findings(game)


def map_images(game: Game, map_id: str) -> list[tuple[str, float, str]]:
    """(stage, px per hex, format) of every whole-map image a build writes of `map_id` (the tiled print is
    cut into pages, and the joined layout is scaled to its own cap)."""
    board = "JPEG" if has_art(game.maps[map_id]) else "PNG"
    return [
        ("the map image (build maps)", MAP_PX_PER_HEX, "PNG"),
        ("the module board (build module)", MODULE_PX_PER_HEX, board),
    ]


def _map_findings(game: Game) -> list[Diagnostic]:
    out = []
    for map_id in sorted(game.maps):
        out += _map_image_findings(game, map_id)
    return out


def _map_image_findings(game: Game, map_id: str) -> list[Diagnostic]:
    """At most one HW-SIZE-003 (a side) and one HW-SIZE-002 (a painted map's pixels) for the map."""
    m = game.maps[map_id]
    side, pixels = None, None
    for stage, px, fmt in map_images(game, map_id):
        w, h = map_image_size(game, map_id, px)
        if side is None and max(w, h) > IMAGE_MAX_SIDE[fmt]:
            side = HW_SIZE_003.at(
                f"map {map_id!r} would be drawn {w:,} x {h:,} px for {stage}, a {fmt} image, "
                f"whose sides are at most {IMAGE_MAX_SIDE[fmt]:,} px",
                m.loc,
                help="split the map into maps joined on their edges (the game's layout), or make it less long",
            )
        if pixels is None and has_art(m) and w * h > PIXEL_BUDGET:  # a drawn map's pixels: HW-SIZE-002, at load
            pixels = HW_SIZE_002.at(
                f"painted map {map_id!r} would be drawn as {w * h / 1e6:,.0f} million pixels "
                f"({w:,} x {h:,}) for {stage}, over the budget of {PIXEL_BUDGET / 1e6:,.0f} million (the "
                f"art, resampled to {px:g} px per hex)",
                m.loc,
                help="crop the art to the map, check the registration's hex_size, or split the map",
            )
    return [d for d in (side, pixels) if d is not None]


def _table_findings(game: Game) -> list[Diagnostic]:
    sizes = [
        ("a Letter page", PageSpec("letter").content_size),
        ("an A4 page", PageSpec("a4").content_size),
        ("the module's chart window", NATURAL),
    ]
    out = []
    for table in game.tables:
        problem = table_problem(game, table, sizes, PIXEL_BUDGET)
        if problem:
            out.append(
                HW_TABLE_002.at(
                    f"table {table.id!r} cannot be printed: {problem}",
                    table.loc or game.loc,
                    help="split it into tables of fewer columns or rows, or shorten the longest cells "
                    "(notes: print under the table)",
                )
            )
    return out


def _mix_findings(game: Game) -> list[Diagnostic]:
    total = 0
    for counter in game.counters.values():
        total += counter.quantity
        if total > MAX_PIECES:
            return [
                HW_MIX_003.at(
                    f"the counter mix holds more than {MAX_PIECES:,} pieces (counting each "
                    f"counter's quantity), which no build stage is made for; the limit is passed at counter "
                    f"{counter.id!r}",
                    counter.loc or game.loc,
                    help="a game of this size is several games: split it, or lower the quantities",
                )
            ]
    return []
