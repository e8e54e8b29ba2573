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
from authoring.hexgrid.vassal import vassal_label

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
    """Grid and registration for a hex grid on a board image of `size`; None when no hex is on it."""
    warnings: list[str] = []
    flat = not params["sideways"]
    line_extent, cross_extent = (size[0], size[1]) if flat else (size[1], size[0])
    x0, y0, dx, dy = params["x0"], params["y0"], params["dx"], params["dy"]
    a = 1 if params["hType"] == "A" else 0          # project letters count from 1 (A), VASSAL's from 0
    ac = 1 if params["vType"] == "A" else 0
    stagger = bool(params["stagger"])
    lm, cm = LINE_MARGIN * dx, CROSS_MARGIN * dy
    c_min = math.ceil((lm - x0) / dx)
    c_max = math.floor((line_extent - 1 - lm - x0) / dx)
    if c_max < c_min:
        return None
    low, high = -10**9, 10**9
    for parity in {c_min % 2, (c_min + 1) % 2} if c_max > c_min else {c_min % 2}:
        shift = dy / 2 if parity else 0.0
        bump = 1 if stagger and parity else 0
        low = max(low, math.ceil((cm - y0 - shift) / dy) + params["vOff"] + ac + bump)
        high = min(high, math.floor((cross_extent - 1 - cm - y0 - shift) / dy) + params["vOff"] + ac + bump)
    if high < low:
        return None
    first_line = c_min + params["hOff"] + a
    shifted_raw = 0 if stagger else 1
    shifted = "odd" if (shifted_raw + params["hOff"] + a) % 2 else "even"
    label, label_warnings = _label(params, flat)
    warnings += label_warnings
    if first_line < a or low < ac:
        warnings.append(f"the module numbers some hexes below zero (first {first_line - a}, {low - ac}); the "
                        "project numbers from 0 (letters from A), so those hexes are left out")
        first_line, low = max(first_line, a), max(low, ac)
    lines = c_max + params["hOff"] + a - first_line + 1
    if lines < 1 or high < low:
        return None
    if flat:
        grid = {"orientation": "flat", "columns": lines, "rows": high - low + 1,
                "first_column": first_line, "first_row": low, "shifted": shifted, "label": label}
    else:
        grid = {"orientation": "pointy", "columns": high - low + 1, "rows": lines,
                "first_column": low, "first_row": first_line, "shifted": shifted, "label": label}
    c0 = first_line - params["hOff"] - a
    r0 = low - params["vOff"] - ac - (1 if stagger and c0 % 2 else 0)
    along, across = x0 + c0 * dx, y0 + r0 * dy + (dy / 2 if c0 % 2 else 0.0)
    stretch = dx * SQRT3 / (1.5 * dy)
    art = {"hex_size": round(dy, 6),
           "origin": {"hex": _spec(grid).label.label(grid["first_column"], grid["first_row"]),
                      "x": float(along if flat else across), "y": float(across if flat else along)}}
    if abs(stretch - 1) > 1e-9:
        art["stretch"] = [round(stretch, 9), 1.0] if flat else [1.0, round(stretch, 9)]
    return ProjectGrid(grid, art, warnings)


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
    if params["hDescend"] or params["vDescend"]:
        warnings.append("descending numbering (hDescend/vDescend) is not imported; ids ascend")
    row_first = (params["first"] == "H") != flat
    column_alpha = params[column_key + "Type"] == "A"
    label = {"prefix": prefix, "column_digits": int(params[column_key + "Leading"]) + 1 if not column_alpha else 1,
             "row_digits": int(params[row_key + "Leading"]) + 1,
             "column_style": "alpha" if column_alpha else "numeric"}
    if params["sep"]:
        label["separator"] = params["sep"]
    if row_first:
        label["row_first"] = True
    return label, warnings


def _spec(grid: dict) -> GridSpec:
    lab = grid["label"]
    label = LabelFormat(lab["prefix"], lab["column_digits"], lab["row_digits"], lab["column_style"],
                        lab.get("separator", ""), lab.get("row_first", False))
    return GridSpec(grid["orientation"], grid["columns"], grid["rows"], grid["first_column"], grid["first_row"],
                    grid["shifted"], label)


def registration(pg: ProjectGrid) -> tuple[MapGrid, Registration]:
    grid = MapGrid(_spec(pg.grid))
    origin = pg.art["origin"]
    stretch = tuple(pg.art.get("stretch", (1.0, 1.0)))
    reg = Registration(pg.grid["orientation"], pg.art["hex_size"], grid.label_to_hex(origin["hex"]),
                       (origin["x"], origin["y"]), stretch)
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

