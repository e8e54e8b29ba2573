"""Grid registration of a designer's map art: where each hex centre lies on the image.

An image pixel ``p`` (pixel-index convention: pixel ``i`` is centred on coordinate ``i``, as in
Pillow drawing and VASSAL) of a hex ``h`` is::

    p = origin + R(rotation) . diag(hex_px * sx, hex_px * sy) . (u(h) - u(origin_hex))

where ``u`` is the regular layout with a hex one unit across the flats (`UNIT`), ``R`` turns
clockwise on screen (y grows downwards) and ``(sx, sy)`` is the optional per-axis stretch of a
scan that is not exactly regular. `fit_registration` finds all five numbers by least squares
from three or more hex centres read off the image (Red Blob "Layout", plus an affine frame).

`ResamplePlan` maps the art into a regular frame (no rotation, no stretch, a chosen hex size,
one chosen hex centre on whole pixels): VASSAL's `HexGrid` has no rotation and integer
``x0, y0``, so the art is resampled once and the engine grid is then exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .coords import Hex
from .layout import PixelLayout

__all__ = ("Registration", "Residual", "ResamplePlan", "UNIT", "fit_registration", "plan_resample")

Point = tuple[float, float]
SQRT3 = math.sqrt(3.0)


@lru_cache(maxsize=2)
def UNIT(orientation: str) -> PixelLayout:  # noqa: N802  (a constant per orientation)
    """The regular layout whose hexes are one unit across the flats, Hex(0, 0) at (0, 0): a constant of the
    orientation (frozen), so process-wide."""
    return PixelLayout(orientation, 1 / SQRT3)


@dataclass(frozen=True)
class Registration:
    """Hex centres on an image (module docstring)."""

    orientation: str
    """The grid's orientation: "flat" or "pointy"."""
    hex_px: float
    """Hex width across the flats, in image pixels."""
    origin_hex: Hex
    """The hex whose centre `origin` gives."""
    origin: Point
    """Image pixel of `origin_hex`'s centre."""
    stretch: Point = (1.0, 1.0)
    """Per-axis scale factors on top of `hex_px` (a scan that is not exactly regular)."""
    rotation: float = 0.0
    """Degrees, clockwise on the image: how far the scanned grid is turned."""

    def __post_init__(self) -> None:
        if not (self.hex_px > 0 and self.stretch[0] > 0 and self.stretch[1] > 0):
            raise ValueError(f"hex size and stretch must be > 0, got {self.hex_px!r} and {self.stretch!r}")

    def matrix(self) -> tuple[float, float, float, float]:
        """(a, b, c, d): image offset = [[a, b], [c, d]] . unit-layout offset."""
        t = math.radians(self.rotation)
        kx, ky = self.hex_px * self.stretch[0], self.hex_px * self.stretch[1]
        return (math.cos(t) * kx, -math.sin(t) * ky, math.sin(t) * kx, math.cos(t) * ky)

    def unit_to_image(self, ux: float, uy: float) -> Point:
        a, b, c, d = self.matrix()
        u0 = UNIT(self.orientation).hex_to_pixel(self.origin_hex)
        dx, dy = ux - u0[0], uy - u0[1]
        return (self.origin[0] + a * dx + b * dy, self.origin[1] + c * dx + d * dy)

    def image_to_unit(self, x: float, y: float) -> Point:
        a, b, c, d = self.matrix()
        det = a * d - b * c
        u0 = UNIT(self.orientation).hex_to_pixel(self.origin_hex)
        dx, dy = x - self.origin[0], y - self.origin[1]
        return (u0[0] + (d * dx - b * dy) / det, u0[1] + (-c * dx + a * dy) / det)

    def hex_to_image(self, h: Hex) -> Point:
        """Image pixel of a hex centre."""
        return self.unit_to_image(*UNIT(self.orientation).hex_to_pixel(h))

    def image_to_hex(self, x: float, y: float) -> Hex:
        """The hex whose area holds an image pixel."""
        return UNIT(self.orientation).pixel_to_hex(*self.image_to_unit(x, y))

    def corners(self, h: Hex) -> list[Point]:
        """The six corners of a hex on the image (clockwise, as `PixelLayout.corners`)."""
        return [self.unit_to_image(x, y) for x, y in UNIT(self.orientation).corners(h)]


@dataclass(frozen=True)
class Residual:
    """How far a designer's point lies from the fitted hex centre."""

    hex: Hex
    measured: Point
    fitted: Point

    @property
    def distance(self) -> float:
        return math.hypot(self.measured[0] - self.fitted[0], self.measured[1] - self.fitted[1])


def _linear_fit(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """y = k * x + t by least squares: (k, t, sum of squared residuals)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    k = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    t = my - k * mx
    return k, t, sum((k * x + t - y) ** 2 for x, y in zip(xs, ys))


def _solve_at(theta: float, us: Sequence[Point], ps: Sequence[Point]) -> tuple[float, tuple]:
    """For a fixed rotation, the best stretch and offset are two independent line fits."""
    c, s = math.cos(theta), math.sin(theta)
    qx = [c * p[0] + s * p[1] for p in ps]  # R(-theta) . p
    qy = [-s * p[0] + c * p[1] for p in ps]
    kx, tx, ex = _linear_fit([u[0] for u in us], qx)
    ky, ty, ey = _linear_fit([u[1] for u in us], qy)
    return ex + ey, (kx, ky, tx, ty)


def fit_registration(
    orientation: str, points: Sequence[tuple[Hex, Point]], origin_hex: Hex | None = None
) -> tuple[Registration, list[Residual]]:
    """The registration that best puts ``points`` (hex, image pixel of its centre) on hex centres.

    Needs three or more points in at least two columns and two rows. The rotation comes from
    the best affine fit, refined by a golden-section search; for each rotation, hex size,
    stretch and offset are exact least squares. ``origin_hex`` defaults to the first point's hex.
    """
    if len(points) < 3:
        raise ValueError(f"need at least 3 hex centres to fit a registration, got {len(points)}")
    unit = UNIT(orientation)
    us = [unit.hex_to_pixel(h) for h, _ in points]
    ps = [(float(p[0]), float(p[1])) for _, p in points]
    if len({round(u[0], 6) for u in us}) < 2 or len({round(u[1], 6) for u in us}) < 2:
        raise ValueError("the hex centres must span at least two columns and two rows")
    theta0 = _affine_rotation(us, ps)
    lo, hi = theta0 - 0.2, theta0 + 0.2
    g = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if _solve_at(m1, us, ps)[0] <= _solve_at(m2, us, ps)[0]:
            hi = m2
        else:
            lo = m1
    theta = (lo + hi) / 2
    _, (kx, ky, tx, ty) = _solve_at(theta, us, ps)
    if kx <= 0 or ky <= 0:
        raise ValueError("the hex centres are mirrored or out of order: check each point's hex id")
    hex_px = ky if orientation == "flat" else kx
    stretch = (kx / hex_px, ky / hex_px)
    origin_hex = origin_hex if origin_hex is not None else points[0][0]
    c, s = math.cos(theta), math.sin(theta)
    provisional = Registration(
        orientation, hex_px, Hex(0, 0), (c * tx - s * ty, s * tx + c * ty), stretch, math.degrees(theta)
    )
    reg = Registration(
        orientation, hex_px, origin_hex, provisional.hex_to_image(origin_hex), stretch, math.degrees(theta)
    )
    return reg, [Residual(h, p, reg.hex_to_image(h)) for (h, _), p in zip(points, ps)]


def _affine_rotation(us: Sequence[Point], ps: Sequence[Point]) -> float:
    """Rotation of the similarity nearest the least-squares affine map u -> p."""
    n = len(us)
    mu = (sum(u[0] for u in us) / n, sum(u[1] for u in us) / n)
    mp = (sum(p[0] for p in ps) / n, sum(p[1] for p in ps) / n)
    sxx = sxy = syy = 0.0
    bx = [0.0, 0.0]
    by = [0.0, 0.0]
    for u, p in zip(us, ps):
        x, y = u[0] - mu[0], u[1] - mu[1]
        px, py = p[0] - mp[0], p[1] - mp[1]
        sxx, sxy, syy = sxx + x * x, sxy + x * y, syy + y * y
        bx[0], bx[1] = bx[0] + x * px, bx[1] + y * px
        by[0], by[1] = by[0] + x * py, by[1] + y * py
    det = sxx * syy - sxy * sxy
    if abs(det) < 1e-12:
        raise ValueError("the hex centres lie on one line: pick points in different columns and rows")
    a = (syy * bx[0] - sxy * bx[1]) / det
    b = (sxx * bx[1] - sxy * bx[0]) / det
    c = (syy * by[0] - sxy * by[1]) / det
    d = (sxx * by[1] - sxy * by[0]) / det
    return math.atan2(c - b, a + d)


@dataclass(frozen=True)
class ResamplePlan:
    """The art redrawn in a regular frame: its layout, size, and where each output pixel samples the art."""

    layout: PixelLayout
    size: tuple[int, int]
    to_image: tuple[float, float, float, float, float, float]
    """(a, b, c, d, e, f): output pixel (x, y) samples image pixel (a x + b y + c, d x + e y + f)
    (pixel-index convention on both sides)."""


def plan_resample(
    reg: Registration, image_size: tuple[int, int], px_per_hex: float, anchor: Hex | None = None
) -> ResamplePlan:
    """The whole image turned and scaled so its grid is regular at ``px_per_hex`` across the flats.

    ``anchor``'s centre lands on whole pixels (VASSAL's integer grid origin). The output holds
    every pixel of the image (corners of a rotated scan included).
    """
    a, b, c, d = reg.matrix()
    det = a * d - b * c
    k = px_per_hex
    u0 = UNIT(reg.orientation).hex_to_pixel(reg.origin_hex)

    def out_of(x: float, y: float) -> Point:  # output pixel of an image pixel, with Hex(0, 0) at (0, 0)
        dx, dy = x - reg.origin[0], y - reg.origin[1]
        return (k * (u0[0] + (d * dx - b * dy) / det), k * (u0[1] + (-c * dx + a * dy) / det))

    w, h = image_size
    corners = [out_of(x, y) for x in (-0.5, w - 0.5) for y in (-0.5, h - 0.5)]
    left, top = min(p[0] for p in corners), min(p[1] for p in corners)
    ox, oy = -0.5 - left, -0.5 - top  # the image's left and top edges on the output's
    if anchor is not None:
        ax, ay = UNIT(reg.orientation).hex_to_pixel(anchor)
        ox += math.ceil(ox + k * ax) - (ox + k * ax)
        oy += math.ceil(oy + k * ay) - (oy + k * ay)
    size = (
        math.ceil(max(p[0] for p in corners) + ox + 0.5 - 1e-9),
        math.ceil(max(p[1] for p in corners) + oy + 0.5 - 1e-9),
    )
    layout = PixelLayout(reg.orientation, k / SQRT3, (ox, oy))
    # image = origin + M . (q / k - O / k - u0)
    ma, mb, mc, md = a / k, b / k, c / k, d / k
    cx = reg.origin[0] - ma * (ox + k * u0[0]) - mb * (oy + k * u0[1])
    cy = reg.origin[1] - mc * (ox + k * u0[0]) - md * (oy + k * u0[1])
    return ResamplePlan(layout, size, (ma, mb, cx, mc, md, cy))
