"""VASSAL `HexGrid` / `HexGridNumbering` parameters for one board, and the engine's formulas.

Facts from ../shared/docs/vassal-module-format.md, checked against the engine
source (VASSAL 3.6, ``HexGrid.java`` and ``HexGridNumbering.java``):

* ``sideways=false``: flat-top hexes in vertical columns. Raw column ``c`` has its
  centre at ``x0 + c*dx``; raw row ``r`` at ``y0 + r*dy``, plus ``dy/2`` when ``c``
  is odd (also for negative ``c``). ``x0, y0`` are integers.
* ``sideways=true`` (pointy-top hexes in rows) swaps x and y *everywhere*, including
  ``x0, y0, dx, dy``: VASSAL's "columns" are then our printed rows and its "rows"
  our printed columns, so ``first`` is "V" to print our column first.
* Label: ``name(column + hOff)`` and ``name(row + vOff)`` joined by ``sep``, in
  ``first`` order, substituted for ``$gridLocation$`` in ``locationFormat``.
  Numeric names are zero-padded to ``leading + 1`` digits; alphabetic names are
  0 = A .. 25 = Z, then 26 = AA, 27 = BB (repeated letters, unlike our
  spreadsheet-style columns, so alphabetic columns beyond AA are refused).
* ``stagger=true`` adds 1 to the row in odd raw columns; our maps number every
  column from ``first_row`` so we always emit ``stagger=false``.
* ``hDescend``/``vDescend`` count a line down from the far edge of the grid's container (the board
  image, or a zone's bounding box): ``max - raw`` with ``max`` = round(height / dx) for VASSAL's
  columns and round(width / dy) for its rows (``HexGridNumbering.getMaxRows/getMaxColumns``: the
  same formulas whether or not the grid is sideways, so the container's size is part of the name),
  and the stagger then takes one off instead of adding one. ``params["container"]`` is that size.
* VASSAL drops leading zeros from numeric location names unless the module's
  global option to keep them is set; the module compiler must set it.

Each map is its own VASSAL board (numbering is per board), so pass the map's own
`PixelLayout` (e.g. ``PixelLayout.for_grid(map_grid, size)``).
"""

from __future__ import annotations

import math
from typing import Any

from .grid import MapGrid
from .layout import PixelLayout

__all__ = (
    "HEX_GRID_KEYS",
    "NUMBERING_KEYS",
    "vassal_attributes",
    "vassal_grid_params",
    "vassal_label",
    "vassal_snap",
    "descending_extent",
)

HEX_GRID_KEYS = ("sideways", "x0", "y0", "dx", "dy")
"""Keys of `vassal_grid_params` that are `HexGrid` attributes."""
NUMBERING_KEYS = (
    "first",
    "sep",
    "hType",
    "hLeading",
    "hOff",
    "hDescend",
    "vType",
    "vLeading",
    "vOff",
    "vDescend",
    "stagger",
    "locationFormat",
)
"""Keys of `vassal_grid_params` that are `HexGridNumbering` attributes."""

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_MAX_ALPHA_COLUMN = 27  # spreadsheet "AA" == VASSAL's 26; "AB" != VASSAL's "BB"


def vassal_grid_params(layout: PixelLayout, grid: MapGrid, board_size: tuple[int, int] | None = None) -> dict[str, Any]:
    """Grid geometry and numbering that make VASSAL print every label of ``grid``.

    Raw line 0 (VASSAL's column 0, our column for flat / row for pointy) must be
    unshifted; when the map's first line is shifted, raw line 0 is the virtual
    line just before it, so ``x0`` may lie off the board and ``hOff`` drop by one.
    A map numbered in descending order needs the board's pixel size (``board_size``),
    from which VASSAL counts such lines.
    """
    spec = grid.spec
    if layout.orientation != spec.orientation:
        raise ValueError(f"layout is {layout.orientation}-top but the map is {spec.orientation}-top")
    label = spec.label
    if "$" in label.prefix:
        raise ValueError(f"map prefix {label.prefix!r} must not contain '$' (VASSAL format syntax)")
    if label.column_style == "alpha" and spec.last_column > _MAX_ALPHA_COLUMN:
        raise ValueError(f"VASSAL cannot print alphabetic columns beyond AA (map has {spec.last_column})")
    sideways = spec.orientation == "pointy"
    column_type = "A" if label.column_style == "alpha" else "N"
    column_off = -1 if column_type == "A" else 0
    if sideways:
        base = spec.first_row - 1 if grid.is_shifted(spec.first_row) else spec.first_row
        cx, cy = layout.hex_to_pixel(grid.offset_to_hex_unbounded(spec.first_column, base))
        x0, y0 = cy, cx
        h = ("N", label.row_digits - 1, base)
        v = (column_type, label.column_digits - 1, spec.first_column + column_off)
    else:
        base = spec.first_column - 1 if grid.is_shifted(spec.first_column) else spec.first_column
        x0, y0 = layout.hex_to_pixel(grid.offset_to_hex_unbounded(base, spec.first_row))
        h = (column_type, label.column_digits - 1, base + column_off)
        v = ("N", label.row_digits - 1, spec.first_row)
    params = {
        "sideways": sideways,
        "x0": _java_round(x0),
        "y0": _java_round(y0),
        "dx": 1.5 * layout.size,
        "dy": math.sqrt(3.0) * layout.size,
        "first": "V" if sideways != label.row_first else "H",
        "sep": label.separator,
        "hType": h[0],
        "hLeading": h[1] if h[0] == "N" else 0,
        "hOff": h[2],
        "hDescend": False,
        "vType": v[0],
        "vLeading": v[1] if v[0] == "N" else 0,
        "vOff": v[2],
        "vDescend": False,
        "stagger": False,
        "locationFormat": f"{label.prefix}$gridLocation$",
    }
    if label.columns_descending or label.rows_descending:
        _descending(params, grid, board_size)
    return params


def _descending(params: dict[str, Any], grid: MapGrid, board_size: tuple[int, int] | None) -> None:
    """Turn ascending VASSAL offsets into descending ones: our line printed ``first + last - i`` is
    VASSAL's ``max - raw + off`` (module docstring), so ``off = first + last - (raw 0's line) - max``."""
    if board_size is None:
        raise ValueError("a map numbered in descending order needs its board's size for VASSAL")
    spec, label = grid.spec, grid.spec.label
    params["container"] = tuple(board_size)
    line_max, cross_max = descending_extent(params)
    # VASSAL names its raw line (our column when flat, our row when sideways) with hOff, the cross index with
    # vOff; which of hDescend/vDescend turns each round swaps with `sideways` (HexGridNumbering.getColumn)
    if params["sideways"]:
        line_desc, line_sum = label.rows_descending, spec.first_row + spec.last_row
        cross_desc, cross_sum = label.columns_descending, spec.first_column + spec.last_column
    else:
        line_desc, line_sum = label.columns_descending, spec.first_column + spec.last_column
        cross_desc, cross_sum = label.rows_descending, spec.first_row + spec.last_row
    flags = ("vDescend", "hDescend") if params["sideways"] else ("hDescend", "vDescend")
    for key, desc, total, top, flag in (
        ("h", line_desc, line_sum, line_max, flags[0]),
        ("v", cross_desc, cross_sum, cross_max, flags[1]),
    ):
        if desc:  # ascending: raw 0 prints `off`; descending: first + last - (off + raw) = top - raw + new off
            letters = 2 if params[f"{key}Type"] == "A" else 0  # A is 0 in VASSAL, 1 here: in both terms
            params[f"{key}Off"] = total - params[f"{key}Off"] - top - letters
            params[flag] = True


def descending_extent(params: dict[str, Any]) -> tuple[int, int]:
    """VASSAL's (max raw line, max raw cross index) for descending numbering of the grid's container."""
    w, h = params["container"]
    max_rows = math.floor(h / params["dx"] + 0.5)  # getMaxRows: height over the hex width
    max_columns = math.floor(w / params["dy"] + 0.5)  # getMaxColumns: width over the hex height
    # VASSAL's column (raw line) counts down from getMaxColumns when flat, getMaxRows when sideways
    return (max_rows, max_columns) if params["sideways"] else (max_columns, max_rows)


def vassal_attributes(params: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """(HexGrid, HexGridNumbering) attribute strings as VASSAL parses them."""

    def text(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return repr(value) if isinstance(value, float) else str(value)

    return ({k: text(params[k]) for k in HEX_GRID_KEYS}, {k: text(params[k]) for k in NUMBERING_KEYS})


def vassal_label(params: dict[str, Any], x: float, y: float) -> str:
    """The location name VASSAL gives board pixel (x, y) (``RegularGridNumbering.locationName``);
    descending numbering needs ``params["container"]``, the size of the grid's board or zone."""
    raw_col, raw_row = _raw_cell(params, _java_round(x), _java_round(y))
    col, row = raw_col, raw_row
    line_desc = params["vDescend"] if params["sideways"] else params["hDescend"]
    cross_desc = params["hDescend"] if params["sideways"] else params["vDescend"]
    if line_desc or cross_desc:
        if not params.get("container"):
            raise ValueError("descending numbering needs the size of the grid's board or zone")
        line_max, cross_max = descending_extent(params)
        col = line_max - raw_col if line_desc else raw_col
        row = cross_max - raw_row if cross_desc else raw_row
    if params["stagger"] and raw_col % 2 != 0:
        row += -1 if cross_desc else 1
    row_name = _name(row + params["vOff"], params["vType"], params["vLeading"])
    col_name = _name(col + params["hOff"], params["hType"], params["hLeading"])
    sep = params["sep"]
    location = col_name + sep + row_name if params["first"] == "H" else row_name + sep + col_name
    return (
        params["locationFormat"]
        .replace("$gridLocation$", location)
        .replace("$row$", row_name)
        .replace("$column$", col_name)
    )


def vassal_snap(params: dict[str, Any], x: float, y: float) -> tuple[int, int]:
    """The hex centre VASSAL snaps (x, y) to (``HexGrid.snapToHex``, snapScale 0)."""
    px, py = _java_round(x), _java_round(y)
    if params["sideways"]:
        px, py = py, px
    ox, oy, dx, dy = params["x0"], params["y0"], params["dx"], params["dy"]
    nx = math.floor((px - ox + dx / 2) / dx)
    sx = math.trunc(dx * nx + ox)
    if nx % 2 == 0:
        sy = math.trunc(dy * math.floor((py - oy + dy / 2) / dy) + oy)
    else:
        sy = math.trunc(dy * math.floor((py - oy) / dy) + math.trunc(dy / 2) + oy)
    return (sy, sx) if params["sideways"] else (sx, sy)


def _raw_cell(params: dict[str, Any], px: int, py: int) -> tuple[int, int]:
    """``getRawColumn`` and ``getRawRow`` of an integer board point."""
    if params["sideways"]:
        px, py = py, px
    ox, oy, dx, dy = params["x0"], params["y0"], params["dx"], params["dy"]
    col = math.floor((px - ox) / dx + 0.5)
    if col % 2 == 0:
        row = _java_round((py - oy) / dy)
    else:
        row = _java_round((py - oy - dy / 2) / dy)
    return col, row


def _name(value: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName``: numeric with zero padding, or repeated letters."""
    text = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            text += _ALPHABET[value % 26]
            value -= 26
            if value < 0:
                return text
    while leading > 0 and value < 10**leading:
        text += "0"
        leading -= 1
    return text + str(value)


def _java_round(value: float) -> int:
    """Java's ``Math.round``: half rounds up (towards +infinity)."""
    return math.floor(value + 0.5)
