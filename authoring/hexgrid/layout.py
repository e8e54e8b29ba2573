"""Pixels: Red Blob's "Layout" (https://www.redblobgames.com/grids/hexagons/#hex-to-pixel).

The only module that knows about screen coordinates; y grows downwards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from .coords import Hex, Hexside, cube_round

__all__ = ("PixelLayout",)

Point = tuple[float, float]
_SQRT3 = math.sqrt(3.0)
# Corner i sits at angle 60*i (flat) or 60*i - 30 (pointy) degrees; see #hex-corners.
_CORNER_UNIT = MappingProxyType(
    {
        "flat": tuple((math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)),
        "pointy": tuple((math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)),
    }
)


class HasHexes(Protocol):
    hexes: Iterable[Hex]


@dataclass(frozen=True)
class PixelLayout:
    """Maps axial hexes to pixel centres and back, for one orientation and size."""

    orientation: str
    """"flat" or "pointy"."""
    size: float
    """Hex radius (centre to corner) in pixels."""
    origin: tuple[float, float] = (0.0, 0.0)
    """Pixel of Hex(0, 0)'s centre."""

    def __post_init__(self) -> None:
        if self.orientation not in _CORNER_UNIT:
            raise ValueError(f"Expected one of: ['flat', 'pointy'] but received: {self.orientation!r}")
        if not self.size > 0:
            raise ValueError(f"size must be > 0, got {self.size!r}")

    @classmethod
    def for_grid(cls, grid: HasHexes, size: float, margin: float = 0.0) -> PixelLayout:
        """A layout whose hexes' bounding box has its top-left corner at (margin, margin).

        ``grid`` is a `MapGrid` or `MultiMapLayout` (anything with ``hexes`` and
        a ``spec.orientation`` or ``orientation``).
        """
        spec: Any = getattr(grid, "spec", grid)  # a MapGrid's spec, or the layout itself
        orientation: str = spec.orientation
        probe = cls(orientation, size)
        centres = [probe.hex_to_pixel(h) for h in grid.hexes]
        if not centres:
            raise ValueError("grid has no hexes")
        left = min(x for x, _ in centres) - probe.width / 2
        top = min(y for _, y in centres) - probe.height / 2
        return cls(orientation, size, (margin - left, margin - top))

    # -- metrics -----------------------------------------------------------

    @property
    def width(self) -> float:
        """Width of one hex's bounding box."""
        return 2 * self.size if self.orientation == "flat" else _SQRT3 * self.size

    @property
    def height(self) -> float:
        """Height of one hex's bounding box."""
        return _SQRT3 * self.size if self.orientation == "flat" else 2 * self.size

    @property
    def dx(self) -> float:
        """Horizontal distance between adjacent columns (flat) / hexes in a row (pointy)."""
        return 1.5 * self.size if self.orientation == "flat" else _SQRT3 * self.size

    @property
    def dy(self) -> float:
        """Vertical distance between hexes in a column (flat) / adjacent rows (pointy)."""
        return _SQRT3 * self.size if self.orientation == "flat" else 1.5 * self.size

    # -- conversions -------------------------------------------------------

    def hex_to_pixel(self, h: Hex) -> Point:
        """Pixel centre of a hex."""
        s, (ox, oy) = self.size, self.origin
        if self.orientation == "flat":
            return (ox + s * 1.5 * h.q, oy + s * _SQRT3 * (h.r + h.q / 2))
        return (ox + s * _SQRT3 * (h.q + h.r / 2), oy + s * 1.5 * h.r)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing a pixel (#pixel-to-hex, cube rounding)."""
        px, py = (x - self.origin[0]) / self.size, (y - self.origin[1]) / self.size
        if self.orientation == "flat":
            return cube_round(px * 2 / 3, -px / 3 + py * _SQRT3 / 3)
        return cube_round(px * _SQRT3 / 3 - py / 3, py * 2 / 3)

    def corners(self, h: Hex) -> list[Point]:
        """The six corners, clockwise, corner i at angle 60*i (flat) / 60*i - 30 (pointy)."""
        cx, cy = self.hex_to_pixel(h)
        s = self.size
        return [(cx + s * ux, cy + s * uy) for ux, uy in _CORNER_UNIT[self.orientation]]

    def edge_segment(self, h: Hex, direction: int) -> tuple[Point, Point]:
        """End points of the side of ``h`` facing ``direction`` (e.g. a map-edge side).

        Side ``d`` runs between corners ``d + 4`` and ``d + 5`` (mod 6) in both
        orientations, given the direction order in `coords`.
        """
        if not 0 <= direction < 6:
            raise ValueError(f"direction must be 0..5, got {direction!r}")
        corners = self.corners(h)
        return corners[(direction + 4) % 6], corners[(direction + 5) % 6]

    def hexside_segment(self, side: Hexside) -> tuple[Point, Point]:
        """End points of the edge two hexes share, always computed from ``side.a``."""
        return self.edge_segment(side.a, side.a.direction_to(side.b))

    def bounds(self, hexes: Iterable[Hex], margin: float = 0.0) -> tuple[int, int]:
        """Image size (w, h) in whole pixels that holds ``hexes`` plus ``margin`` right and below."""
        centres = [self.hex_to_pixel(h) for h in hexes]
        if not centres:
            raise ValueError("no hexes given")
        right = max(x for x, _ in centres) + self.width / 2 + margin
        bottom = max(y for _, y in centres) + self.height / 2 + margin
        return math.ceil(right - 1e-9), math.ceil(bottom - 1e-9)
