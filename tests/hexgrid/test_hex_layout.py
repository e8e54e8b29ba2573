"""Pixel layout: centres, corners, shared edges, grid bounds."""

from __future__ import annotations

import math

import pytest
from hexgrid_strategies import directions, hexes, orientations
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.hexgrid import GridSpec, Hex, Hexside, MapGrid, PixelLayout

FAST = settings(max_examples=60, deadline=None)

layouts = st.builds(
    PixelLayout,
    orientations,
    st.floats(min_value=4.0, max_value=80.0),
    st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
)


def close(p, q, tol=1e-6):
    return math.dist(p, q) < tol


@FAST
@given(layouts, hexes)
def test_pixel_of_centre_is_the_same_hex(layout, h):
    assert layout.pixel_to_hex(*layout.hex_to_pixel(h)) == h


@FAST
@given(layouts, hexes, st.floats(0, 0.85), st.floats(0, 2 * math.pi))
def test_points_inside_the_inscribed_circle_belong_to_the_hex(layout, h, frac, angle):
    cx, cy = layout.hex_to_pixel(h)
    radius = frac * layout.size * math.sqrt(3) / 2
    assert layout.pixel_to_hex(cx + radius * math.cos(angle), cy + radius * math.sin(angle)) == h


@FAST
@given(layouts, hexes)
def test_corners_lie_on_the_circumscribed_circle(layout, h):
    centre = layout.hex_to_pixel(h)
    corners = layout.corners(h)
    assert len(corners) == 6
    assert all(math.dist(centre, c) == pytest.approx(layout.size) for c in corners)
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    assert max(xs) - min(xs) == pytest.approx(layout.width)
    assert max(ys) - min(ys) == pytest.approx(layout.height)


@FAST
@given(layouts, hexes, directions)
def test_hexside_segment_is_the_true_shared_edge(layout, h, d):
    n = h.neighbour(d)
    p, q = layout.hexside_segment(Hexside.between(h, n))
    a, b = layout.hex_to_pixel(h), layout.hex_to_pixel(n)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    assert close(mid, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), 1e-6 * layout.size + 1e-6)
    assert math.dist(p, q) == pytest.approx(layout.size)
    # The same two points are corners of both hexes, and edge_segment agrees from either side.
    for end in (p, q):
        assert any(close(end, c, 1e-6 * layout.size + 1e-6) for c in layout.corners(h))
        assert any(close(end, c, 1e-6 * layout.size + 1e-6) for c in layout.corners(n))
    back = layout.edge_segment(n, (d + 3) % 6)
    assert {tuple(round(v, 6) for v in pt) for pt in back} == {tuple(round(v, 6) for v in pt) for pt in (p, q)}


def test_edge_segment_of_flat_north_and_pointy_east():
    flat = PixelLayout("flat", 10.0)
    (x1, y1), (x2, y2) = flat.edge_segment(Hex(0, 0), 0)
    assert y1 == pytest.approx(-flat.height / 2) and y2 == pytest.approx(-flat.height / 2)
    assert sorted([x1, x2]) == pytest.approx([-5.0, 5.0])
    pointy = PixelLayout("pointy", 10.0)
    (x1, _), (x2, _) = pointy.edge_segment(Hex(0, 0), 2)
    assert x1 == pytest.approx(pointy.width / 2) and x2 == pytest.approx(pointy.width / 2)
    with pytest.raises(ValueError):
        flat.edge_segment(Hex(0, 0), 6)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_spacings(orientation):
    layout = PixelLayout(orientation, 20.0, (3.0, 4.0))
    s3 = math.sqrt(3)
    if orientation == "flat":
        assert (layout.width, layout.height, layout.dx, layout.dy) == pytest.approx((40, 20 * s3, 30, 20 * s3))
        column_step, row_step = Hex(2, -1), Hex(0, 1)  # two columns right (same row), one row down
        assert layout.hex_to_pixel(column_step)[0] - 3.0 == pytest.approx(2 * layout.dx)
        assert layout.hex_to_pixel(column_step)[1] == pytest.approx(4.0)
        assert layout.hex_to_pixel(row_step) == pytest.approx((3.0, 4.0 + layout.dy))
    else:
        assert (layout.width, layout.height, layout.dx, layout.dy) == pytest.approx((20 * s3, 40, 20 * s3, 30))
        assert layout.hex_to_pixel(Hex(1, 0)) == pytest.approx((3.0 + layout.dx, 4.0))
        assert layout.hex_to_pixel(Hex(-1, 2)) == pytest.approx((3.0, 4.0 + 2 * layout.dy))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("margin", [0.0, 12.5])
def test_for_grid_puts_the_top_left_at_the_margin(orientation, margin):
    grid = MapGrid(GridSpec(orientation, 14, 10, shifted="odd"), origin=(3, -2))
    layout = PixelLayout.for_grid(grid, 25.0, margin)
    corners = [c for h in grid.hexes for c in layout.corners(h)]
    assert min(x for x, _ in corners) == pytest.approx(margin)
    assert min(y for _, y in corners) == pytest.approx(margin)
    w, h = layout.bounds(grid.hexes, margin)
    assert w == math.ceil(max(x for x, _ in corners) + margin - 1e-9)
    assert h == math.ceil(max(y for _, y in corners) + margin - 1e-9)


def test_bfm_bounds():
    grid = MapGrid(GridSpec("flat", 14, 10))
    layout = PixelLayout.for_grid(grid, 30.0)
    # 13 column steps of 45 px plus one full hex width; 10.5 hex heights (even columns hang lower).
    assert layout.bounds(grid.hexes) == (13 * 45 + 60, math.ceil(10.5 * 30 * math.sqrt(3)))
    assert layout.origin == pytest.approx((30.0, 15 * math.sqrt(3)))


def test_layout_validation():
    with pytest.raises(ValueError, match="but received: 'round'"):
        PixelLayout("round", 10.0)
    with pytest.raises(ValueError, match="size must be > 0"):
        PixelLayout("flat", 0.0)
    with pytest.raises(ValueError, match="no hexes"):
        PixelLayout("flat", 10.0).bounds([])
