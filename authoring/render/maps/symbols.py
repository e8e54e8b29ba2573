"""Terrain and hex-feature symbols as vector items, sized from the hex width ``f`` (px across the flats).

Painters return items in final-pixel coordinates around a centre; the rasteriser
antialiases them. Terrain symbols keep out of the top of the hex (where the hex id is
printed) and out of its west part (where `FILL_PROBE` samples the terrain colour).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType

from authoring.render.maps.raster import Disc, Item, Line, Poly, Text
from authoring.render.maps.style import INK, shade

Painter = Callable[[float, float, float, str], list[Item]]

FILL_PROBE = (-0.36, 0.10)
"""A point (fractions of f from the centre) that no terrain symbol covers: the hex's own fill shows."""

FORT_RING = 0.84
"""Fortification ring: the hex outline scaled by this about the centre."""


def _trees(cx, cy, f, color, spots, r) -> list[Item]:
    dark, trunk = shade(color, 0.55), (96, 70, 40)
    out: list[Item] = []
    for dx, dy in spots:
        x, y = cx + dx * f, cy + dy * f
        out.append(Line(((x, y + 0.2 * r * f), (x, y + 1.25 * r * f)), trunk, 0.018 * f))
        out.append(Disc(x, y, r * f, shade(color, 0.75), dark, 0.012 * f))
        out.append(Disc(x - 0.25 * r * f, y - 0.25 * r * f, 0.35 * r * f, shade(color, 0.95)))
    return out


def trees(cx, cy, f, color):
    spots = ((-0.17, -0.03), (0.0, -0.11), (0.17, -0.03), (-0.06, 0.12), (0.13, 0.13))
    return _trees(cx, cy, f, color, spots, 0.075)


def woods(cx, cy, f, color):
    return _trees(cx, cy, f, color, ((-0.12, -0.04), (0.1, -0.07), (0.04, 0.12)), 0.065)


def _hump(x, y, w, h, n=10):
    return [(x - w / 2 + w * k / n, y - h * math.sin(math.pi * k / n)) for k in range(n + 1)]


def hills(cx, cy, f, color):
    out: list[Item] = []
    for dx, dy, w, h in ((-0.1, 0.1, 0.3, 0.13), (0.12, 0.02, 0.26, 0.11), (0.02, 0.2, 0.22, 0.08)):
        pts = _hump(cx + dx * f, cy + dy * f, w * f, h * f)
        out.append(Poly(tuple(pts), shade(color, 0.85)))
        out.append(Line(tuple(pts), shade(color, 0.5), 0.02 * f))
    return out


def mountains(cx, cy, f, color):
    out: list[Item] = []
    for dx, dy, w, h in ((-0.1, 0.14, 0.3, 0.3), (0.13, 0.16, 0.24, 0.22)):
        x, y = cx + dx * f, cy + dy * f
        tri = ((x - w * f / 2, y), (x, y - h * f), (x + w * f / 2, y))
        out.append(Poly(tri, shade(color, 0.8), shade(color, 0.45), 0.015 * f))
        cap = ((x - w * f / 8, y - h * f * 0.75), (x, y - h * f), (x + w * f / 8, y - h * f * 0.75))
        out.append(Poly(cap, (250, 250, 250)))
    return out


def swamp(cx, cy, f, color, tufts=True):
    ink = shade(color, 0.45)
    out: list[Item] = []
    for dx, dy in ((-0.14, -0.02), (0.12, -0.05), (-0.02, 0.1), (0.18, 0.14), (-0.2, 0.18)):
        x, y = cx + dx * f, cy + dy * f
        out.append(Line(((x - 0.07 * f, y), (x + 0.07 * f, y)), ink, 0.014 * f))
        if tufts:
            for t in (-0.03, 0.0, 0.03):
                out.append(Line(((x + t * f, y), (x + t * 1.6 * f, y - 0.06 * f)), ink, 0.01 * f))
    return out


def marsh(cx, cy, f, color):
    return swamp(cx, cy, f, color, tufts=False)


def rough(cx, cy, f, color):
    out: list[Item] = []
    for dx, dy, r in (
        (-0.15, 0.0, 0.04),
        (0.05, -0.08, 0.035),
        (0.16, 0.06, 0.045),
        (-0.03, 0.13, 0.04),
        (0.22, -0.1, 0.025),
    ):
        x, y, rr = cx + dx * f, cy + dy * f, r * f
        rock = tuple(
            (x + rr * math.cos(a) * (1 + 0.25 * math.sin(3 * a)), y + rr * 0.7 * math.sin(a))
            for a in (k * math.pi / 4 for k in range(8))
        )
        out.append(Poly(rock, shade(color, 0.7), shade(color, 0.4), 0.01 * f))
    return out


def waves(cx, cy, f, color):
    out: list[Item] = []
    for dy, dx in ((-0.1, -0.05), (0.04, 0.06), (0.18, -0.04)):
        x0, y0 = cx + (dx - 0.16) * f, cy + dy * f
        pts = tuple((x0 + 0.32 * f * k / 16, y0 + 0.025 * f * math.sin(k * math.pi / 4)) for k in range(17))
        out.append(Line(pts, shade(color, 0.7), 0.014 * f))
    return out


def city_blocks(cx, cy, f, color):
    out: list[Item] = []
    for dx, dy, w, h in (
        (-0.14, -0.05, 0.1, 0.08),
        (0.0, -0.09, 0.08, 0.1),
        (0.12, -0.02, 0.1, 0.07),
        (-0.07, 0.08, 0.09, 0.08),
        (0.08, 0.1, 0.1, 0.08),
    ):
        x, y = cx + dx * f, cy + dy * f
        out.append(Poly(_rect(x, y, w * f, h * f), shade(color, 0.7), shade(color, 0.45), 0.008 * f))
    return out


def _rect(x, y, w, h):
    return ((x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2))


def nothing(cx, cy, f, color):
    return []


TERRAIN_SYMBOLS: Mapping[str, Painter] = MappingProxyType(
    {
        "trees": trees,
        "forest": trees,
        "woods": woods,
        "hills": hills,
        "mountains": mountains,
        "swamp": swamp,
        "marsh": marsh,
        "rough": rough,
        "waves": waves,
        "city": city_blocks,
        "none": nothing,
    }
)
"""Terrain symbol name -> painter; unknown names draw nothing."""


# --- hex features -------------------------------------------------------------


def star_points(x, y, r, inner=0.45, n=5):
    return tuple(
        (
            x + (r if k % 2 == 0 else r * inner) * math.sin(k * math.pi / n),
            y - (r if k % 2 == 0 else r * inner) * math.cos(k * math.pi / n),
        )
        for k in range(2 * n)
    )


def city(cx, cy, f, color):
    s = 0.19 * f
    return [Poly(_rect(cx, cy, s, s), color, INK, 0.018 * f), Poly(_rect(cx, cy, s * 0.35, s * 0.35), (250, 245, 235))]


def major_city(cx, cy, f, color):
    s = 0.13 * f
    out: list[Item] = []
    for dx, dy in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5), (1.5, -0.5)):
        out.append(Poly(_rect(cx + (dx - 0.5) * s, cy + dy * s, s, s), color, INK, 0.015 * f))
    return out


def town(cx, cy, f, color):
    return [Disc(cx, cy, 0.055 * f, (250, 245, 235), color, 0.02 * f), Disc(cx, cy, 0.022 * f, color)]


def star(cx, cy, f, color):
    return [Poly(star_points(cx, cy, 0.1 * f), color, INK, 0.01 * f)]


def cross(cx, cy, f, color):
    a, t = 0.1 * f, 0.032 * f
    halo = (250, 250, 250)
    return [
        Poly(_rect(cx, cy, 2 * a, t), color, halo, 0.014 * f),
        Poly(_rect(cx, cy, t, 2 * a), color, halo, 0.014 * f),
        Poly(_rect(cx, cy, 2 * a - 0.01 * f, t - 0.002 * f), color),
    ]


def supply(cx, cy, f, color):
    return [
        Disc(cx, cy, 0.085 * f, color, (250, 250, 250), 0.015 * f),
        Text("S", cx, cy, 0.12 * f, (255, 255, 255), bold=True),
    ]


def victory(cx, cy, f, color):
    return [Disc(cx, cy, 0.09 * f, color, INK, 0.012 * f), Poly(star_points(cx, cy, 0.065 * f), (255, 252, 235))]


def dot(cx, cy, f, color):
    return [Disc(cx, cy, 0.04 * f, color)]


FEATURE_SYMBOLS: Mapping[str, Painter] = MappingProxyType(
    {
        "city": city,
        "major-city": major_city,
        "town": town,
        "star": star,
        "cross": cross,
        "supply": supply,
        "victory": victory,
        "dot": dot,
        "none": nothing,
    }
)
"""Point-feature symbol -> painter. ``fort`` and ``arrow`` depend on the hex's shape and are in `maps/scene.py`."""

MARK_SYMBOLS = frozenset({"star", "cross"})
"""Set-up marks: drawn off-centre (lower right) so they never hide a city."""


def arrow(tip, tail, f, color) -> list[Item]:
    """An entry arrow from ``tail`` to ``tip``."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = 0.16 * f
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = (-uy * head * 0.6, ux * head * 0.6)
    return [
        Line((tail, base), color, 0.06 * f, round_caps=False),
        Poly(
            (tip, (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1])), color, INK, 0.008 * f
        ),
    ]
