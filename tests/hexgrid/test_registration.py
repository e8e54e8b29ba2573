"""Map art registration: pixel -> hex -> pixel round trips, the least-squares fit, the resampling frame."""

from __future__ import annotations

import math
import random

import pytest

from authoring.hexgrid import GridSpec, Hex, MapGrid
from authoring.hexgrid.registration import Registration, fit_registration, plan_resample

CASES = [
    # orientation, shifted parity, hex px, stretch, rotation (degrees)
    ("flat", "even", 88.0, (1.0, 1.0), 0.0),
    ("flat", "odd", 61.5, (1.0, 1.0), 0.0),
    ("pointy", "even", 75.0, (1.0, 1.0), 0.0),
    ("pointy", "odd", 102.3, (1.0, 1.0), 0.0),
    ("flat", "even", 88.0, (1.012, 1.0), 0.8),  # a turned, unevenly scaled scan
    ("flat", "odd", 70.0, (0.99, 1.015), -2.5),
    ("pointy", "even", 90.0, (1.0, 1.02), 1.7),
    ("pointy", "odd", 64.0, (1.03, 0.985), -4.0),
]
IDS = [f"{o}-{s}-rot{r}" for o, s, _, _, r in CASES]


def _setup(case):
    orientation, shifted, hex_px, stretch, rotation = case
    grid = MapGrid(GridSpec(orientation, 9, 7, shifted=shifted))
    reg = Registration(orientation, hex_px, grid.label_to_hex("0101"), (140.5, 120.25), stretch, rotation)
    return grid, reg


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_hex_centre_round_trips_through_the_image(case) -> None:
    grid, reg = _setup(case)
    for h in grid.hexes:
        x, y = reg.hex_to_image(h)
        assert reg.image_to_hex(x, y) == h
        label = grid.hex_to_label(reg.image_to_hex(x, y))
        assert grid.label_to_hex(label) == h


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pixel_to_hex_to_pixel_stays_within_the_hex(case) -> None:
    """Any pixel -> its hex -> that hex's centre is less than a corner radius away and maps back."""
    grid, reg = _setup(case)
    rng = random.Random(14)
    radius = reg.hex_px / math.sqrt(3) * max(reg.stretch)
    for _ in range(2000):
        x, y = rng.uniform(0, 1200), rng.uniform(0, 1000)
        h = reg.image_to_hex(x, y)
        cx, cy = reg.hex_to_image(h)
        assert math.hypot(cx - x, cy - y) <= radius + 1e-6
        assert reg.image_to_hex(cx, cy) == h


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_points_inside_a_hex_belong_to_it(case) -> None:
    grid, reg = _setup(case)
    for h in list(grid.hexes)[::5]:
        cx, cy = reg.hex_to_image(h)
        for corner in reg.corners(h):  # 80% of the way to each corner is still inside
            x, y = cx + 0.8 * (corner[0] - cx), cy + 0.8 * (corner[1] - cy)
            assert reg.image_to_hex(x, y) == h


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fit_recovers_the_registration_from_points_read_to_the_pixel(case) -> None:
    grid, true = _setup(case)
    labels = ["0101", "0901", "0107", "0907", "0504", "0302"]
    points = [
        (grid.label_to_hex(lab), tuple(float(round(v)) for v in true.hex_to_image(grid.label_to_hex(lab))))
        for lab in labels
    ]
    fit, residuals = fit_registration(true.orientation, points)
    assert max(r.distance for r in residuals) < 0.71  # rounding to whole pixels: at most 0.5 * sqrt(2)
    assert fit.origin_hex == grid.label_to_hex("0101")
    for h in grid.hexes:  # every hex centre within 3/4 px of the truth (points read to +-0.5 px)
        a, b = fit.hex_to_image(h), true.hex_to_image(h)
        assert math.hypot(a[0] - b[0], a[1] - b[1]) < 0.75
    assert abs(fit.rotation - true.rotation) < 0.05


def test_fit_needs_three_points_spanning_columns_and_rows() -> None:
    with pytest.raises(ValueError, match="at least 3"):
        fit_registration("flat", [(Hex(0, 0), (0, 0)), (Hex(1, 0), (10, 10))])
    with pytest.raises(ValueError, match="two columns and two rows"):
        fit_registration("flat", [(Hex(0, 0), (0, 0)), (Hex(0, 1), (0, 88)), (Hex(0, 2), (0, 176))])


def test_a_misread_point_shows_in_its_residual() -> None:
    grid, true = _setup(CASES[0])
    labels = ["0101", "0901", "0107", "0907", "0504"]
    points = [(grid.label_to_hex(lab), true.hex_to_image(grid.label_to_hex(lab))) for lab in labels]
    wrong = grid.label_to_hex("0505")  # the designer wrote 0505 for the centre of 0504
    points[-1] = (wrong, points[-1][1])
    _, residuals = fit_registration("flat", points)
    assert max(residuals, key=lambda r: r.distance).hex == wrong
    assert max(r.distance for r in residuals) > 0.05 * true.hex_px


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_resample_plan_puts_every_hex_centre_on_its_art_pixel(case) -> None:
    grid, reg = _setup(case)
    anchor = grid.offset_to_hex_unbounded(0, 1)
    plan = plan_resample(reg, (1200, 1000), 72.0, anchor)
    ax, ay = plan.layout.hex_to_pixel(anchor)
    assert ax == pytest.approx(round(ax), abs=1e-6) and ay == pytest.approx(round(ay), abs=1e-6)
    a, b, c, d, e, f = plan.to_image
    for h in grid.hexes:
        qx, qy = plan.layout.hex_to_pixel(h)
        assert 0 <= qx < plan.size[0] and 0 <= qy < plan.size[1]
        px, py = reg.hex_to_image(h)
        assert a * qx + b * qy + c == pytest.approx(px, abs=1e-6)
        assert d * qx + e * qy + f == pytest.approx(py, abs=1e-6)
    # the output holds the whole image: its four corners land inside
    det = a * e - b * d
    for x, y in ((0, 0), (1199, 0), (0, 999), (1199, 999)):
        qx = (e * (x - c) - b * (y - f)) / det
        qy = (-d * (x - c) + a * (y - f)) / det
        assert -0.5 <= qx <= plan.size[0] - 0.5 and -0.5 <= qy <= plan.size[1] - 0.5
