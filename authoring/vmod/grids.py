"""A module's HexGrid + HexGridNumbering as a project map grid and art registration (issue 19).

VASSAL names hexes by raw lines (its "columns": our columns on flat-top grids, our rows on
`sideways` pointy-top grids) and raw cross indices, with offsets, letters, padding and the
`stagger` rule (`authoring.hexgrid.vassal`). This module picks the project `grid:` whose ids equal
the engine's for every hex whose centre is on the board image, and the `art:` registration that puts
those hexes where the engine has them; `label_mismatches` proves it hex by hex.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from authoring.hexgrid.grid import GridSpec, MapGrid
from authoring.hexgrid.labels import LabelFormat
from authoring.hexgrid.registration import Registration
from authoring.hexgrid.vassal import descending_extent, vassal_label

MAX_BOARD_HEXES = 200_000
"""Largest board grid imported as a map: ten times a large hex wargame's map (the project refuses larger maps)."""

SQRT3 = math.sqrt(3.0)
_FORMAT = "$gridLocation$"


@dataclass
class ProjectGrid:
    """The project's `grid:` and `art:` values for one board, and what could not be carried over."""

    grid: dict
    art: dict
    warnings: list[str] = field(default_factory=list)


LINE_MARGIN = 0.0
"""A hex is on the board when its centre is this many column spacings (dx) inside the image ...
(0: every hex the engine can name on the board, margin half-hexes included, so any piece imports)."""
CROSS_MARGIN = 0.0
"""... and this many hex heights (dy) inside across the lines."""


def cropped(params: dict, left: int, top: int) -> dict:
    """The same grid on the board image cut at (left, top): VASSAL's x0/y0 swap with `sideways`."""
    if params["sideways"]:
        return dict(params, x0=params["x0"] - top, y0=params["y0"] - left)
    return dict(params, x0=params["x0"] - left, y0=params["y0"] - top)


def project_grid(params: dict, size: tuple[int, int]) -> ProjectGrid | None:
    """Grid and registration for a hex grid on a board image of `size`; None when no hex is on it.
    Descending numbering counts from the far side of the grid's container (`params["container"]`, the
    whole board or zone, else `size`), as the engine does."""
    warnings: list[str] = []
    flat = not params["sideways"]
    line_extent, cross_extent = (size[0], size[1]) if flat else (size[1], size[0])
    x0, y0, dx, dy = params["x0"], params["y0"], params["dx"], params["dy"]
    num = _Numbering(params, size)
    lm, cm = LINE_MARGIN * dx, CROSS_MARGIN * dy
    c_min = math.ceil((lm - x0) / dx)
    c_max = math.floor((line_extent - 1 - lm - x0) / dx)
    if c_max < c_min:
        return None
    low, high = -(10**9), 10**9
    for k in (c_min, c_min + 1) if c_max > c_min else (c_min,):
        shift = dy / 2 if k % 2 else 0.0
        ends = sorted(
            num.cross(k, j)
            for j in (math.ceil((cm - y0 - shift) / dy), math.floor((cross_extent - 1 - cm - y0 - shift) / dy))
        )
        low, high = max(low, ends[0]), min(high, ends[1])
    if high < low:
        return None
    first_line, last_line = sorted((num.line(c_min), num.line(c_max)))
    label, label_warnings = _label(params, flat)
    warnings += label_warnings
    if first_line < num.a or low < num.ac:
        warnings.append(
            f"the module numbers some hexes below zero (first {first_line - num.a}, {low - num.ac}); "
            "the project numbers from 0 (letters from A), so those hexes are left out"
        )
        first_line, low = max(first_line, num.a), max(low, num.ac)
    if last_line < first_line or high < low:
        return None
    k_left = min(num.raw_line(first_line), num.raw_line(last_line))  # the west-/north-most line kept
    # odd raw lines sit half a hex lower than even ones at the same row number unless staggered, either way
    lower = k_left + (0 if (k_left % 2 == 1) == (not params["stagger"]) else 1)
    printed = last_line - (lower - k_left) if num.line_desc else first_line + (lower - k_left)
    shifted = "odd" if printed % 2 else "even"  # `shifted` names printed numbers (GridSpec.shift_parity)
    lines, cross = last_line - first_line + 1, high - low + 1
    if flat:
        grid = {
            "orientation": "flat",
            "columns": lines,
            "rows": cross,
            "first_column": first_line,
            "first_row": low,
            "shifted": shifted,
            "label": label,
        }
        label.update(_descending(num.line_desc, num.cross_desc))
    else:
        grid = {
            "orientation": "pointy",
            "columns": cross,
            "rows": lines,
            "first_column": low,
            "first_row": first_line,
            "shifted": shifted,
            "label": label,
        }
        label.update(_descending(num.cross_desc, num.line_desc))
    j_top = num.raw_cross(k_left, high if num.cross_desc else low)  # the first (top/left) row of the project
    along, across = x0 + k_left * dx, y0 + j_top * dy + (dy / 2 if k_left % 2 else 0.0)
    stretch = dx * SQRT3 / (1.5 * dy)
    if lines * cross > MAX_BOARD_HEXES:  # not imported: the caller names its size; no grid of it is built
        return ProjectGrid(grid, {}, warnings)
    first = MapGrid(_spec(grid))
    art = {
        "hex_size": round(dy, 6),
        "origin": {
            "hex": first.hex_to_label(first.offset_to_hex(grid["first_column"], grid["first_row"])),
            "x": float(along if flat else across),
            "y": float(across if flat else along),
        },
    }
    if abs(stretch - 1) > 1e-9:
        art["stretch"] = [round(stretch, 9), 1.0] if flat else [1.0, round(stretch, 9)]
    return ProjectGrid(grid, art, warnings)


class _Numbering:
    """The engine's printed line and cross numbers of raw hex (k, j), in the project's terms (letters from 1),
    ascending or counted down from the container's far side (`hexgrid.vassal` docstring)."""

    def __init__(self, params: dict, size: tuple[int, int]) -> None:
        flat = not params["sideways"]
        self.a = 1 if params["hType"] == "A" else 0  # project letters count from 1 (A), VASSAL's from 0
        self.ac = 1 if params["vType"] == "A" else 0
        self.h_off, self.v_off, self.stagger = params["hOff"], params["vOff"], bool(params["stagger"])
        self.line_desc = bool(params["hDescend"] if flat else params["vDescend"])
        self.cross_desc = bool(params["vDescend"] if flat else params["hDescend"])
        self.line_max = self.cross_max = 0
        if self.line_desc or self.cross_desc:
            self.line_max, self.cross_max = descending_extent(dict(params, container=params.get("container") or size))

    def line(self, k: int) -> int:
        return (self.line_max - k if self.line_desc else k) + self.h_off + self.a

    def raw_line(self, printed: int) -> int:
        k = printed - self.h_off - self.a
        return self.line_max - k if self.line_desc else k

    def _bump(self, k: int) -> int:
        return (-1 if self.cross_desc else 1) if self.stagger and k % 2 else 0

    def cross(self, k: int, j: int) -> int:
        return (self.cross_max - j if self.cross_desc else j) + self._bump(k) + self.v_off + self.ac

    def raw_cross(self, k: int, printed: int) -> int:
        j = printed - self._bump(k) - self.v_off - self.ac
        return self.cross_max - j if self.cross_desc else j


def _descending(columns: bool, rows: bool) -> dict:
    return {**({"columns_descending": True} if columns else {}), **({"rows_descending": True} if rows else {})}


def _label(params: dict, flat: bool) -> tuple[dict, list[str]]:
    """The project's id format from the numbering; what it cannot print is a warning."""
    warnings = []
    fmt = params["locationFormat"]
    prefix, found, suffix = fmt.partition(_FORMAT)
    if not found:
        warnings.append(f"locationFormat {fmt!r} does not name $gridLocation$; ids are the grid's own")
        prefix, suffix = "", ""
    if suffix or "$" in prefix:
        warnings.append(f"locationFormat {fmt!r}: only a plain prefix before $gridLocation$ is imported")
        prefix = prefix if "$" not in prefix else ""
    column_key, row_key = ("h", "v") if flat else ("v", "h")
    if params[row_key + "Type"] == "A":
        warnings.append("alphabetic row numbers cannot be printed by the project's grid; numeric rows are used")
    row_first = (params["first"] == "H") != flat
    column_alpha = params[column_key + "Type"] == "A"
    label = {
        "prefix": prefix,
        "column_digits": int(params[column_key + "Leading"]) + 1 if not column_alpha else 1,
        "row_digits": int(params[row_key + "Leading"]) + 1,
        "column_style": "alpha" if column_alpha else "numeric",
    }
    if params["sep"]:
        label["separator"] = params["sep"]
    if row_first:
        label["row_first"] = True
    return label, warnings


def _spec(grid: dict) -> GridSpec:
    lab = grid["label"]
    label = LabelFormat(
        lab["prefix"],
        lab["column_digits"],
        lab["row_digits"],
        lab["column_style"],
        lab.get("separator", ""),
        lab.get("row_first", False),
        lab.get("columns_descending", False),
        lab.get("rows_descending", False),
    )
    return GridSpec(
        grid["orientation"],
        grid["columns"],
        grid["rows"],
        grid["first_column"],
        grid["first_row"],
        grid["shifted"],
        label,
    )


def registration(pg: ProjectGrid) -> tuple[MapGrid, Registration]:
    grid = MapGrid(_spec(pg.grid))
    origin = pg.art["origin"]
    stretch = tuple(pg.art.get("stretch", (1.0, 1.0)))
    reg = Registration(
        pg.grid["orientation"],
        pg.art["hex_size"],
        grid.label_to_hex(origin["hex"]),
        (origin["x"], origin["y"]),
        stretch,
    )
    return grid, reg


def label_mismatches(pg: ProjectGrid, params: dict) -> list[tuple[str, str]]:
    """(project id, engine name) of every hex whose centre the engine names differently."""
    grid, reg = registration(pg)
    out = []
    for h in grid.hexes:
        x, y = reg.hex_to_image(h)
        try:
            name = vassal_label(params, x, y)
        except ValueError:
            name = "?"
        label = grid.hex_to_label(h)
        if name != label:
            out.append((label, name))
    return out
