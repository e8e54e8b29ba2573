"""Line geometry for maps: hexside chains, centre-line paths, smoothing, dashes and ticks.

Everything starts from `PixelLayout` (the validator's geometry): a river is the chain of the
exact hexside segments `PixelLayout.hexside_segment` gives, a railroad the chain of hex
centres `PixelLayout.hex_to_pixel` gives. Smoothing only rounds the corners: the middle of
every hexside stays exactly on it (see `round_corners`).

numpy is imported ahead of shapely on purpose: imported from shapely's C extension, a Ctrl-C during numpy's
import is printed as a traceback and replaced by an ImportError.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy  # noqa: F401 - before shapely's C extension: a Ctrl-C in numpy's import then stays a KeyboardInterrupt
from shapely import MultiLineString, line_merge
from shapely.geometry import LineString
from shapely.ops import substring

from authoring.hexgrid import Hex, PixelLayout

Point = tuple[float, float]
Segment = tuple[Point, Point]

SNAP = 1e-3
"""Corner coordinates are rounded to this (pixels) so shared corners meet exactly."""


def _snap(p: Point) -> Point:
    return (round(p[0] / SNAP) * SNAP, round(p[1] / SNAP) * SNAP)


def chain(segments: Iterable[Segment]) -> list[list[Point]]:
    """Join segments that share end points into polylines (shapely line_merge), sorted for stable output.

    Lines stop at junctions (three or more segments meeting), so branches meet exactly there.
    """
    segs = sorted({tuple(sorted((_snap(a), _snap(b)))) for a, b in segments if _snap(a) != _snap(b)})
    if not segs:
        return []
    merged = line_merge(MultiLineString([list(s) for s in segs]))
    parts = list(merged.geoms) if hasattr(merged, "geoms") else [merged]
    lines = [[(float(x), float(y)) for x, y in g.coords] for g in parts]
    return sorted((_canonical(line) for line in lines), key=lambda l: (l[0], l[-1], len(l)))


def _canonical(line: list[Point]) -> list[Point]:
    """One direction per line (the smaller end first) so output does not depend on merge order."""
    return line if line[0] <= line[-1] else line[::-1]


def centre_segments(layout: PixelLayout, path: Sequence[Hex]) -> list[Segment]:
    """Centre-to-centre segments of consecutive hexes of a path."""
    pts = [layout.hex_to_pixel(h) for h in path]
    return list(zip(pts, pts[1:]))


def exit_segment(layout: PixelLayout, h: Hex, direction: int, reach: float = 0.8) -> Segment:
    """From the centre of ``h`` towards its neighbour in ``direction``, ``reach`` of the way (0.5 = edge)."""
    a = layout.hex_to_pixel(h)
    b = layout.hex_to_pixel(h.neighbour(direction))
    return a, (a[0] + (b[0] - a[0]) * reach, a[1] + (b[1] - a[1]) * reach)


def round_corners(points: Sequence[Point], fraction: float, steps: int = 6) -> list[Point]:
    """Replace each interior corner by a quadratic Bezier from ``fraction`` before it to ``fraction`` after.

    ``fraction`` is of the shorter neighbouring segment (at most 0.5), so the middle
    ``1 - 2 * fraction`` of every segment is kept exactly; a closed ring (first == last)
    is rounded all round.
    """
    pts = list(points)
    closed = len(pts) > 3 and math.dist(pts[0], pts[-1]) < 1e-6
    if len(pts) < 3 or fraction <= 0:
        return pts
    if closed:
        pts = pts[:-1]
        corners = range(len(pts))
    else:
        corners = range(1, len(pts) - 1)
    f = min(fraction, 0.5)
    out: list[Point] = [] if closed else [pts[0]]
    n = len(pts)
    for i in corners:
        prev, cur, nxt = pts[(i - 1) % n], pts[i], pts[(i + 1) % n]
        d = f * min(math.dist(prev, cur), math.dist(cur, nxt))
        a = _toward(cur, prev, d)
        b = _toward(cur, nxt, d)
        for k in range(steps + 1):
            t = k / steps
            out.append(
                (
                    (1 - t) ** 2 * a[0] + 2 * (1 - t) * t * cur[0] + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * cur[1] + t * t * b[1],
                )
            )
    if closed:
        out.append(out[0])
    else:
        out.append(pts[-1])
    return out


def _toward(a: Point, b: Point, d: float) -> Point:
    length = math.dist(a, b)
    if length == 0:
        return a
    return (a[0] + (b[0] - a[0]) * d / length, a[1] + (b[1] - a[1]) * d / length)


def dashes(points: Sequence[Point], on: float, off: float) -> list[list[Point]]:
    """The "on" pieces of a dashed polyline (shapely substring along its length)."""
    line = LineString(points)
    out, pos, total = [], 0.0, line.length
    while pos < total:
        piece = substring(line, pos, min(pos + on, total))
        coords = list(piece.coords)
        if len(coords) >= 2:
            out.append([(float(x), float(y)) for x, y in coords])
        pos += on + off
    return out


def ticks(
    points: Sequence[Point], spacing: float, half: float, offset: float = 0.0, one_sided: int = 0
) -> list[tuple[Point, Point]]:
    """Short cross strokes every ``spacing`` along a polyline (rail ties, fortification teeth).

    ``one_sided`` = +1 or -1 draws from the line to that side only (left of travel is -1).
    """
    line = LineString(points)
    total = line.length
    if total <= 0:
        return []
    count = max(1, int(total / spacing))
    step = total / count
    out = []
    for k in range(count):
        s = offset + step * (k + 0.5)
        p = line.interpolate(min(s, total))
        q = line.interpolate(min(total, s + 0.5))
        r = line.interpolate(max(0.0, s - 0.5))
        dx, dy = q.x - r.x, q.y - r.y
        norm = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / norm, dx / norm
        if one_sided:
            out.append(((p.x, p.y), (p.x + one_sided * nx * half, p.y + one_sided * ny * half)))
        else:
            out.append(((p.x - nx * half, p.y - ny * half), (p.x + nx * half, p.y + ny * half)))
    return out


def normal_toward(seg: Segment, target: Point) -> Point:
    """Unit normal of a segment pointing to the side of ``target``."""
    (x0, y0), (x1, y1) = seg
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / norm, dx / norm
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if (target[0] - mx) * nx + (target[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    return nx, ny
