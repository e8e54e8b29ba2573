"""Board art kept as it is (issue 30): a game whose every map is the designer's art without rotation and
nothing drawn over it, all at one scale (pixels per printed inch) and not joined into one picture, gets its
boards as those very files (also SVG), each at its own pixel size and format, side by side, with the engine's grid registered to them (its dx, dy, x0, y0 from the art's registration,
also when stretched, as module grids often are: dx is rarely exactly dy * sqrt(3) / 2), instead of art
redrawn at the module's default hex size. An imported module's boards thus go back into the rebuilt
module unchanged, and the engine's locations (its grid on that art) and the pieces' positions (on the
art's own hex centres, `StretchedLayout`) are the original's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from authoring.hexgrid import Hex, PixelLayout
from authoring.model import Game, Map

SQRT3 = math.sqrt(3.0)
_SAME = 1e-6


@dataclass(frozen=True)
class StretchedLayout(PixelLayout):
    """A regular layout scaled along x and y about Hex(0, 0)'s centre: an art's registration without
    rotation (`hexgrid.registration`), for the boards that are that art."""

    stretch: tuple[float, float] = (1.0, 1.0)

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        x, y = PixelLayout(self.orientation, self.size).hex_to_pixel(h)
        return (self.origin[0] + self.stretch[0] * x, self.origin[1] + self.stretch[1] * y)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        return PixelLayout(self.orientation, self.size).pixel_to_hex(
            (x - self.origin[0]) / self.stretch[0], (y - self.origin[1]) / self.stretch[1]
        )

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        regular = PixelLayout(self.orientation, self.size)
        (ux, uy), (cx, cy) = regular.hex_to_pixel(h), self.hex_to_pixel(h)
        return [(cx + (x - ux) * self.stretch[0], cy + (y - uy) * self.stretch[1]) for x, y in regular.corners(h)]


def native_art(m: Map) -> bool:
    """The map's art needs no resampling for the engine: registered without rotation or stretch, no marks
    drawn over it."""
    art = m.art
    if art is None or art.registration is None or art.overlay:
        return False
    return abs(art.registration.rotation) < _SAME


SAME_SCALE = 1e-3
"""Two maps' art is at one scale when their pixels per printed inch differ by less than this fraction (a map
file's hex size in inches is written to four decimals)."""


def native_px_per_hex(game: Game) -> float | None:
    """The hex size (px across the flats) the module is built at when every map can keep its art as it is:
    all at one scale (pixels per printed inch; each board keeps its own pixels, so boards whose hexes print
    at different sizes keep their sizes relative to each other and to the counters) and not joined into one
    picture (joined maps are cut and drawn over; maps a layout lays apart are not joined). The hex size of the
    map with the smallest printed hexes, which the counters are sized against; else None."""
    maps = list(game.maps.values())
    if not maps or not all(native_art(m) for m in maps) or (len(maps) > 1 and game.layout and touching(game)):
        return None
    scales = [m.art.registration.hex_px / m.hex_size_in for m in maps]
    if any(abs(s - scales[0]) > SAME_SCALE * scales[0] for s in scales):
        return None
    return min(maps, key=lambda m: (m.hex_size_in, m.id)).art.registration.hex_px


def touching(game: Game) -> bool:
    """Whether two maps of the game's layout share a hex or lie side by side (a hex of one next to a hex of
    the other): the maps join into one picture."""
    seen: dict = {}
    for m in game.maps.values():
        hexes = set(m.grid.hexes)
        near = hexes | {n for h in hexes for n in h.neighbours()}
        if any(seen.get(h, m.id) != m.id for h in near):
            return True
        seen.update(dict.fromkeys(hexes, m.id))
    return False


def native_frame(m: Map) -> tuple[PixelLayout, tuple[int, int]]:
    """The layout of the map's hexes on its own art (its registration), and the art's pixel size."""
    reg = m.art.registration
    size = reg.hex_px / SQRT3
    x, y = PixelLayout(reg.orientation, size).hex_to_pixel(reg.origin_hex)
    sx, sy = reg.stretch
    return (
        StretchedLayout(reg.orientation, size, (reg.origin[0] - sx * x, reg.origin[1] - sy * y), (sx, sy)),
        tuple(m.art.image.size),
    )


def native_grid(m: Map, params: dict) -> dict:
    """`params` (`vassal_grid_params` of the map's whole board) with the engine's spacing and origin read off
    the art's registration: VASSAL's raw hex (0, 0) and its neighbours along and across its lines."""
    reg, grid, spec = m.art.registration, m.grid, m.grid.spec
    col, row = spec.first_column, spec.first_row  # raw 0 is the first unshifted line (`vassal_grid_params`)
    if params["sideways"]:
        row -= 1 if grid.is_shifted(row) else 0
    else:
        col -= 1 if grid.is_shifted(col) else 0
    at = reg.hex_to_image(grid.offset_to_hex_unbounded(col, row))
    next_col = reg.hex_to_image(grid.offset_to_hex_unbounded(col + 1, row))
    next_row = reg.hex_to_image(grid.offset_to_hex_unbounded(col, row + 1))
    if params["sideways"]:  # VASSAL's lines are our rows: its x is our y
        x0, y0, dx, dy = at[1], at[0], next_row[1] - at[1], next_col[0] - at[0]
    else:
        x0, y0, dx, dy = at[0], at[1], next_col[0] - at[0], next_row[1] - at[1]
    shift, rows = _whole_origin(params, x0, y0, dx, dy)
    x0, y0 = x0 + shift * dx, y0 + rows * dy + (dy / 2 if shift % 2 else 0.0)
    return dict(
        params,
        x0=math.floor(x0 + 0.5),
        y0=math.floor(y0 + 0.5),
        dx=round(dx, 6),
        dy=round(dy, 6),
        hOff=params["hOff"] + shift,
        vOff=params["vOff"] + rows,
        stagger=bool(params["stagger"]) != bool(shift % 2),
    )


_SHIFTS = (0, 1, -1, 2, -2)


def _whole_origin(params: dict, x0: float, y0: float, dx: float, dy: float) -> tuple[int, int]:
    """(lines, rows) to move the engine's raw hex 0 by so that its centre is a whole pixel, when one near it
    is: the engine rounds its origin to a pixel, so a grid of fractional spacing counted from a hex off the
    pixel (the first unshifted line, one left of a module's own origin) puts its hexes a pixel off the art's
    own. Moving raw 0 by an odd number of lines swaps which lines the engine shifts half a hex down, which
    `stagger` (one more in odd raw lines' row numbers) makes up for. (0, 0) for descending numbering (the
    engine counts it from the board's far side) and unless another is whole where it is not."""

    def off(value: float) -> float:
        return abs(value - math.floor(value + 0.5))

    if params["hDescend"] or params["vDescend"]:
        return (0, 0)
    best, best_off = (0, 0), off(x0) + off(y0)
    for shift in _SHIFTS:
        if shift % 2 and params["stagger"]:
            continue
        for rows in _SHIFTS:
            x, y = x0 + shift * dx, y0 + rows * dy + (dy / 2 if shift % 2 else 0.0)
            if off(x) + off(y) < best_off - _WHOLE:
                best, best_off = (shift, rows), off(x) + off(y)
    return best if best_off < _WHOLE else (0, 0)


_WHOLE = 1e-6


def native_file(m: Map) -> tuple[bytes, str]:
    """The art file's bytes and its extension (png, jpg)."""
    path = Path(m.art.image.path)
    ext = path.suffix.lower().lstrip(".")
    return path.read_bytes(), "jpg" if ext == "jpeg" else ext
