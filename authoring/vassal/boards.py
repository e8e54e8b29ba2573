"""Where each map's board sits in the one VASSAL map window, and the grid VASSAL gets for it.

VASSAL abuts the boards of a map window in a grid of (column, row) cells: a board's x is the
sum of the widths of the boards left of it in its row, its y the sum of the heights of the
boards above it in its column (``Map.getLocation``). Maps joined by the game's `layout`
share an edge column or row, so each board is a part of the joined picture: its own map image
cropped at a cut between hex centres (`_cut`), with the neighbouring maps' hexes that reach
across the cut painted in (`images.compose_board`). Every hex centre lies on exactly one
board whose map holds that hex, at least a quarter hex from any cut. Every board keeps its
own map's numbering, so VASSAL names a hex with that map's prefix.

All geometry comes from the map renderer's `map_layout`, the same `PixelLayout` the images
were drawn with; cuts are computed in one global frame and rounded once to whole pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from authoring.hexgrid import Hex, MapGrid, PixelLayout, vassal_grid_params, vassal_snap
from authoring.model import Game, Map

Rect = tuple[int, int, int, int]
"""left, top, right, bottom in whole pixels (right/bottom exclusive)."""


@dataclass(frozen=True)
class MapArt:
    """A rendered map image's size and the layout it was drawn with."""

    map_id: str
    layout: PixelLayout
    size: tuple[int, int]
    native: str = ""
    """The extension of the designer's art file when the board is that file itself (`vassal.native`)."""


@dataclass(frozen=True)
class BoardPlan:
    """One board: which map, where in the window, which part of the map image, its own grid."""

    map_id: str
    name: str
    column: int
    row: int
    rect: Rect
    """The board's area in the map window's pixels."""
    crop: Rect
    """The same area in the map image's pixels (may reach beyond the image: padded)."""
    layout: PixelLayout
    """Hex centres in board pixels."""
    params: Mapping[str, Any]
    """`vassal_grid_params` of this board."""
    painted: bool = False
    """The map is the designer's art (stored as JPEG, like the art itself)."""
    variant: str = ""
    """Empty for the boards of the game's whole layout; else which smaller layout this board is cut for."""
    native: str = ""
    """The extension of the designer's art file when the board is that file as it is (`vassal.native`)."""

    @property
    def size(self) -> tuple[int, int]:
        return self.rect[2] - self.rect[0], self.rect[3] - self.rect[1]


def plan_boards(game: Game, arts: Mapping[str, MapArt]) -> tuple[BoardPlan, ...]:
    """Boards for every map: cropped and joined when the game lays maps out, else side by side.

    Raises ValueError when the layout cannot be joined (maps overlapping by more than one line,
    or a board VASSAL would not place on its rectangle); `side_by_side` is the fallback.
    """
    maps = [game.maps[m] for m in sorted(arts, key=lambda m: _order_key(game, m))]
    if len(maps) > 1 and game.layout and not all(arts[m.id].native for m in maps):  # art as it is: never joined
        return _joined(maps, arts)
    return side_by_side(game, arts)


MapSet = tuple[str, ...]
"""Sorted map ids a scenario plays on."""


def board_sets(
    game: Game, arts: Mapping[str, MapArt], warn: Callable[[str], None] | None = None
) -> dict[MapSet, tuple[BoardPlan, ...]]:
    """Boards for the game's whole layout and for each smaller set of maps a scenario uses.

    A scenario on a subset of the maps loads only boards cut for that subset (a single map: the
    whole map image), so its window holds no empty map and starts on its own set-up. A subset
    board equal to a whole-layout board is that board; any other gets its own name (`variant`)."""
    full = _planned(game, arts, warn)
    out: dict[MapSet, tuple[BoardPlan, ...]] = {tuple(sorted(arts)): full}
    for scenario in sorted(game.scenarios.values(), key=lambda s: s.id):
        key = tuple(sorted(m for m in scenario.maps if m in arts))
        if not key or key in out:
            continue
        variant = "whole map" if len(key) == 1 else "with " + ", ".join(key)
        out[key] = tuple(
            _same_or_variant(plan, full, variant) for plan in _planned(game, {m: arts[m] for m in key}, warn)
        )
    return out


def distinct_boards(sets: Mapping[MapSet, Sequence[BoardPlan]]) -> tuple[BoardPlan, ...]:
    """Every board once, the whole layout's first: the board picker's list."""
    seen: dict[str, BoardPlan] = {}
    for plans in sets.values():
        for plan in plans:
            seen.setdefault(plan.name, plan)
    return tuple(seen.values())


def plans_for(sets: Mapping[MapSet, tuple[BoardPlan, ...]], maps: Sequence[str]) -> tuple[BoardPlan, ...]:
    """The boards a scenario on `maps` loads (the whole layout when it names every map or none)."""
    key = tuple(sorted(maps))
    return sets.get(key) or next(iter(sets.values()))


def _planned(game: Game, arts: Mapping[str, MapArt], warn: Callable[[str], None] | None) -> tuple[BoardPlan, ...]:
    try:
        return plan_boards(game, arts)
    except ValueError as error:
        if warn:
            warn(f"warning: maps shown side by side, not joined: {error}")
        return side_by_side(game, arts)


def _same_or_variant(plan: BoardPlan, full: Sequence[BoardPlan], variant: str) -> BoardPlan:
    """The whole layout's board when the subset's shows the same part of the same map (one board, one image,
    placed where the subset's layout puts it: a map laid beside others stands alone at the window's corner),
    else a board of its own named after the variant."""
    for other in full:
        if (other.map_id, other.crop) == (plan.map_id, plan.crop):
            return replace(other, column=plan.column, row=plan.row, rect=plan.rect)
    return replace(plan, name=f"{plan.name} ({variant})", variant=variant)


def side_by_side(game: Game, arts: Mapping[str, MapArt]) -> tuple[BoardPlan, ...]:
    """Every map whole, in one row of boards."""
    maps = [game.maps[m] for m in sorted(arts, key=lambda m: _order_key(game, m))]
    boards, x = [], 0
    for column, m in enumerate(maps):
        w, h = arts[m.id].size
        boards.append(_board(m, column, 0, (x, 0, x + w, h), (0, 0, w, h), arts[m.id]))
        x += w
    return tuple(boards)


def is_whole(plan: BoardPlan, art: MapArt) -> bool:
    """Whether the board shows its map image exactly as drawn."""
    return plan.crop == (0, 0, *art.size)


def _order_key(game: Game, map_id: str) -> tuple:
    origin = game.maps[map_id].grid.origin
    return origin[1], origin[0], map_id


def _board(m: Map, column: int, row: int, rect: Rect, crop: Rect, art: MapArt) -> BoardPlan:
    ox, oy = art.layout.origin
    layout = replace(art.layout, origin=(ox - crop[0], oy - crop[1]))  # a stretched art layout stays one
    painted = m.art is not None and m.art.registration is not None
    size = (rect[2] - rect[0], rect[3] - rect[1])  # descending numbering counts from the board's far side
    return BoardPlan(
        m.id,
        board_name(m),
        column,
        row,
        rect,
        crop,
        layout,
        vassal_grid_params(layout, m.grid, size),
        painted,
        native=art.native,
    )


def board_name(m: Map) -> str:
    """The board's name in VASSAL's board picker."""
    return m.name if m.name else m.id


def _joined(maps: Sequence[Map], arts: Mapping[str, MapArt]) -> tuple[BoardPlan, ...]:
    """Crop each map's image to its share of the joined layout (module docstring)."""
    glob = _global_layout(maps, arts)
    shift = {m.id: _image_shift(glob, arts[m.id]) for m in maps}
    rows = _rows(maps)
    row_cuts = [_cut(glob, upper, lower, axis=1) for upper, lower in zip(rows, rows[1:])]
    boards = []
    for r, row_maps in enumerate(rows):
        col_cuts = [_cut(glob, [a], [b], axis=0) for a, b in zip(row_maps, row_maps[1:])]
        for c, m in enumerate(row_maps):
            sx, sy = shift[m.id]
            w, h = arts[m.id].size
            left = col_cuts[c - 1] if c else 0
            right = col_cuts[c] if c < len(col_cuts) else sx + w
            top = row_cuts[r - 1] if r else 0
            bottom = row_cuts[r] if r < len(row_cuts) else sy + h
            rect = (left, top, right, bottom)
            crop = (left - sx, top - sy, right - sx, bottom - sy)
            boards.append(_board(m, c, r, rect, crop, arts[m.id]))
    _check_abutting(boards)
    return tuple(boards)


def _global_layout(maps: Sequence[Map], arts: Mapping[str, MapArt]) -> PixelLayout:
    """One frame holding every map image; its top-left corner is (0, 0)."""
    first = arts[maps[0].id].layout
    ox = max(arts[m.id].layout.origin[0] for m in maps)
    oy = max(arts[m.id].layout.origin[1] for m in maps)
    return PixelLayout(first.orientation, first.size, (ox, oy))


def _image_shift(glob: PixelLayout, art: MapArt) -> tuple[int, int]:
    """Where the map image's top-left corner falls in the global frame (whole pixels)."""
    return (round(glob.origin[0] - art.layout.origin[0]), round(glob.origin[1] - art.layout.origin[1]))


def _rows(maps: Sequence[Map]) -> list[list[Map]]:
    """Maps grouped by their layout row (origin row), each row ordered west to east."""
    by_row: dict[int, list[Map]] = {}
    for m in maps:
        by_row.setdefault(m.grid.origin[1], []).append(m)
    return [sorted(by_row[k], key=lambda m: (m.grid.origin[0], m.id)) for k in sorted(by_row)]


def _cut(glob: PixelLayout, before: Sequence[Map], after: Sequence[Map], axis: int) -> int:
    """The pixel line (x for axis 0, y for axis 1) between two groups of maps.

    Hexes only the first group holds stay before it, hexes only the second holds after it;
    shared hexes fall either side. The cut runs through the middle of the widest gap between
    hex centres, so no centre is nearer than a quarter hex (the snap never crosses boards).
    """
    first = {h for m in before for h in m.grid.hexes}
    second = {h for m in after for h in m.grid.hexes}
    shared = first & second
    coord = lambda h: glob.hex_to_pixel(h)[axis]  # noqa: E731
    only_first = [coord(h) for h in first - shared]
    only_second = [coord(h) for h in second - shared]
    if not only_first or not only_second or max(only_first) >= min(only_second):
        names = ", ".join(m.id for m in (*before, *after))
        raise ValueError(
            f"maps {names} overlap by more than one hex row or column; VASSAL boards cannot be cut apart cleanly"
        )
    lo, hi = max(only_first), min(only_second)
    stops = sorted({lo, hi, *(c for c in map(coord, shared) if lo < c < hi)})
    gaps = [(b - a, -i, (a + b) / 2) for i, (a, b) in enumerate(zip(stops, stops[1:]))]
    cut = max(gaps)[2]
    return math.floor(cut + 0.5)


def _check_abutting(boards: Sequence[BoardPlan]) -> None:
    """VASSAL must place every board exactly on its planned rectangle (see `board_positions`)."""
    placed = board_positions(boards)
    for b in boards:
        if placed[b.name] != b.rect[:2]:
            raise ValueError(
                f"board {b.name!r} would be drawn at {placed[b.name]} instead of {b.rect[:2]}: "
                "every board needs the boards left of it in its row and above it in its column"
            )


def board_positions(boards: Sequence[BoardPlan]) -> dict[str, tuple[int, int]]:
    """Top-left pixel of each board as VASSAL computes it (``Map.setBoardBoundaries``, no edge margin)."""
    widths = {(b.column, b.row): b.size[0] for b in boards}
    heights = {(b.column, b.row): b.size[1] for b in boards}
    return {
        b.name: (
            sum(widths.get((c, b.row), 0) for c in range(b.column)),
            sum(heights.get((b.column, r), 0) for r in range(b.row)),
        )
        for b in boards
    }


def board_of(boards: Sequence[BoardPlan], glob_point: tuple[float, float]) -> BoardPlan | None:
    """The board whose rectangle holds a window pixel."""
    x, y = glob_point
    for b in boards:
        if b.rect[0] <= x < b.rect[2] and b.rect[1] <= y < b.rect[3]:
            return b
    return None


def hex_position(
    boards: Sequence[BoardPlan], grids: Mapping[str, MapGrid], map_id: str, h: Hex
) -> tuple[BoardPlan, int, int]:
    """(board, x, y): the window pixel VASSAL snaps the hex centre to, on the board that shows it.

    A hex shared by two joined maps is shown by one board only (the cut runs through it); the
    piece goes there and VASSAL names it with that board's prefix.
    """
    own = next(b for b in boards if b.map_id == map_id)
    x, y = own.layout.hex_to_pixel(h)
    board = board_of(boards, (x + own.rect[0], y + own.rect[1]))
    if board is None or h not in grids[board.map_id]:
        raise ValueError(f"hex {h} of map {map_id!r} is on no board")
    bx, by = (x, y) if board is own else board.layout.hex_to_pixel(h)
    sx, sy = vassal_snap(board.params, bx, by)
    return board, sx + board.rect[0], sy + board.rect[1]
