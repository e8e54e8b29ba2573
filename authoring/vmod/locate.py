"""Where a saved game's pieces are: which board of which map, and the engine's name for the spot."""

from __future__ import annotations

from dataclasses import dataclass

from authoring.hexgrid.vassal import vassal_label
from authoring.vmod.buildfile import Board, Grid, MapWindow


@dataclass(frozen=True)
class Spot:
    """A piece's place: a hex name on a hex board, or a box (board or region name) elsewhere."""

    map: str
    board: str | None
    hex: str | None
    box: str | None
    zone: str | None = None


def board_origins(window: MapWindow, layout: list[tuple[str, int, int]] | None) -> list[tuple[Board, int, int]]:
    """(board, x, y) of each board in use, as VASSAL's `Map.setBoardBoundaries`: a board's x is the sum of
    the widths of the boards left of it in its row, its y the sum of the heights above it in its column,
    after the map's edge margin."""
    by_name = {b.name: b for b in window.boards}
    placed = [(by_name[n], c, r) for n, c, r in (layout or []) if n in by_name]
    if not placed:
        placed = [(window.boards[0], 0, 0)] if window.boards else []
    size = {(c, r): b.size for b, c, r in placed}
    ex, ey = window.edge
    left = _before({(c, r): w for (c, r), (w, _h) in size.items()}, along=0)
    above = _before({(c, r): h for (c, r), (_w, h) in size.items()}, along=1)
    return [(b, ex + left[(c, r)], ey + above[(c, r)]) for b, c, r in placed]


def _before(extent: dict[tuple[int, int], int], along: int) -> dict[tuple[int, int], int]:
    """For each (column, row) of `extent`, the sum of the extents before it along its row (`along` 0) or
    column (1): over the boards placed, not over every column up to it (a column of 1e10 costs nothing)."""
    lines: dict[int, list[tuple[int, int]]] = {}
    for cell in extent:
        lines.setdefault(cell[1 - along], []).append(cell)
    out = {}
    for cells in lines.values():
        total = 0
        for cell in sorted(cells, key=lambda c: c[along]):
            out[cell] = total
            total += extent[cell]
    return out


def locate(window: MapWindow, origins: list[tuple[Board, int, int]], x: int, y: int) -> Spot:
    for board, bx, by in origins:
        w, h = board.size
        if bx <= x < bx + w and by <= y < by + h:
            return _on_board(window, board, x - bx, y - by)
    return Spot(window.name, None, None, window.name)


def locate_on_board(window: MapWindow, board_name: str, x: int, y: int) -> Spot:
    """The spot at board position (x, y) of the named board (empty: the window's first board)."""
    board = next((b for b in window.boards if b.name == board_name), window.boards[0] if window.boards else None)
    if board is None:
        return Spot(window.name, None, None, window.name)
    return _on_board(window, board, x, y)


def _on_board(window: MapWindow, board: Board, x: int, y: int) -> Spot:
    grid = board.grid
    if grid.kind == "zoned":
        for name, polygon, inner in grid.zones:
            if _inside(polygon, x, y):
                if inner.kind == "hex":  # a zone's grid is in board coordinates, as the board's own
                    return Spot(window.name, board.name, _hex_name(zone_grid(name, inner), x, y), name, name)
                return Spot(window.name, board.name, None, name, name)
        if grid.params.get("background") == "hex":
            return Spot(window.name, board.name, _hex_name(grid, x, y), None)
        return Spot(window.name, board.name, None, board.name)
    if grid.kind == "hex":
        return Spot(window.name, board.name, _hex_name(grid, x, y), None)
    if grid.kind == "region" and grid.regions:
        name, _, _ = min(grid.regions, key=lambda r: (r[1] - x) ** 2 + (r[2] - y) ** 2)
        return Spot(window.name, board.name, None, name)
    return Spot(window.name, board.name, None, board.name)


def zone_grid(name: str, inner: Grid) -> Grid:
    """A zone's hex grid with the zone's locationFormat wrapped around the grid's (`$name$` = the zone)."""
    fmt = inner.params.get("zoneFormat", "$gridLocation$").replace("$name$", name)
    params = dict(inner.params, locationFormat=fmt.replace("$gridLocation$", inner.params["locationFormat"]))
    return Grid("hex", params, where=inner.where)


def _hex_name(grid: Grid, x: int, y: int) -> str | None:
    try:
        return vassal_label(grid.params, x, y)
    except ValueError:
        return None


def _inside(polygon: list[tuple[int, int]], x: float, y: float) -> bool:
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside
