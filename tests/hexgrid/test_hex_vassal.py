"""VASSAL grid parameters reproduce every printed label through VASSAL's own formula."""

from __future__ import annotations

import math

import pytest
from hexgrid_strategies import grid_specs, origins
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.hexgrid import (
    GridSpec,
    LabelFormat,
    MapGrid,
    MultiMapLayout,
    PixelLayout,
    vassal_attributes,
    vassal_grid_params,
    vassal_label,
    vassal_snap,
)

FAST = settings(max_examples=40, deadline=None)
BFM = MapGrid(GridSpec("flat", 14, 10, shifted="even"))


def assert_round_trip(grid: MapGrid, layout: PixelLayout) -> dict:
    """Every hex's centre, a point well inside it, and VASSAL's snap point all name the hex."""
    params = vassal_grid_params(layout, grid)
    inner = 0.45 * layout.size
    for h in grid.hexes:
        label = grid.hex_to_label(h)
        x, y = layout.hex_to_pixel(h)
        assert vassal_label(params, x, y) == label
        for ang in range(0, 360, 60):
            px = x + inner * math.cos(math.radians(ang + 15))
            py = y + inner * math.sin(math.radians(ang + 15))
            assert vassal_label(params, px, py) == label, (label, ang)
        sx, sy = vassal_snap(params, x, y)
        assert abs(sx - x) < 2.5 and abs(sy - y) < 2.5  # VASSAL truncates twice, x0/y0 are ints
        assert vassal_label(params, sx, sy) == label
    return params


def test_bfm_every_hex():
    layout = PixelLayout.for_grid(BFM, 36.0, margin=10)
    params = assert_round_trip(BFM, layout)
    assert {
        k: params[k]
        for k in (
            "sideways",
            "x0",
            "y0",
            "dx",
            "first",
            "sep",
            "hType",
            "hLeading",
            "hOff",
            "vType",
            "vLeading",
            "vOff",
            "stagger",
            "locationFormat",
        )
    } == {
        "sideways": False,
        "x0": 46,
        "y0": 41,
        "dx": 54.0,
        "first": "H",
        "sep": "",
        "hType": "N",
        "hLeading": 1,
        "hOff": 1,
        "vType": "N",
        "vLeading": 1,
        "vOff": 1,
        "stagger": False,
        "locationFormat": "$gridLocation$",
    }
    assert params["dy"] == pytest.approx(36 * math.sqrt(3))


def test_first_column_shifted_uses_a_virtual_column_zero():
    grid = MapGrid(GridSpec("flat", 6, 5, shifted="odd"))
    layout = PixelLayout.for_grid(grid, 30.0)
    params = assert_round_trip(grid, layout)
    assert params["hOff"] == 0
    assert params["x0"] == round(layout.hex_to_pixel(grid.hexes[0])[0] - layout.dx)


def test_typhoon_like_three_boards():
    def spec(prefix, columns, rows):
        return GridSpec("flat", columns, rows, label=LabelFormat(prefix=prefix))

    layout = MultiMapLayout(
        {
            "N": MapGrid(spec("N", 11, 9), origin=(0, 0)),
            "M": MapGrid(spec("M", 11, 9), origin=(10, 0)),
            "P": MapGrid(spec("P", 9, 7), origin=(6, 8)),
        }
    )
    names = []
    shared = layout.label_to_hex("P0501")  # the cell all three maps print
    for name, grid in layout.maps.items():
        board = PixelLayout.for_grid(grid, 28.0)  # each map is its own VASSAL board
        params = assert_round_trip(grid, board)
        assert params["locationFormat"] == f"{name}$gridLocation$"
        names.append(vassal_label(params, *board.hex_to_pixel(shared)))
    assert names == ["N1109", "M0109", "P0501"]


def test_pointy_alpha_board():
    fmt = LabelFormat(prefix="Z", column_style="alpha", row_digits=3, separator="-")
    grid = MapGrid(GridSpec("pointy", 20, 12, first_column=2, first_row=5, shifted="even", label=fmt))
    layout = PixelLayout.for_grid(grid, 25.0, margin=3)
    params = assert_round_trip(grid, layout)
    assert (params["sideways"], params["first"], params["vType"], params["hType"]) == (True, "V", "A", "N")
    assert params["hLeading"] == 2 and params["vLeading"] == 0
    assert vassal_label(params, *layout.hex_to_pixel(grid.hexes[0])) == "ZB-005"


@FAST
@given(grid_specs(max_alpha_column=27), origins, st.floats(12.0, 60.0), st.floats(0.0, 40.0))
def test_random_maps_round_trip(spec, origin, size, margin):
    grid = MapGrid(spec, origin)
    assert_round_trip(grid, PixelLayout.for_grid(grid, size, margin))


def test_hand_written_vassal_params():
    """VASSAL's own numbering rules, independent of our geometry."""
    params = {
        "sideways": False,
        "x0": 0,
        "y0": 0,
        "dx": 30.0,
        "dy": 40.0,
        "first": "H",
        "sep": "",
        "hType": "N",
        "hLeading": 2,
        "hOff": 0,
        "hDescend": False,
        "vType": "A",
        "vLeading": 0,
        "vOff": 24,
        "vDescend": False,
        "stagger": True,
        "locationFormat": "[$gridLocation$]",
    }
    assert vassal_label(params, 0, 0) == "[000Y]"  # 3-digit column, row 24 = Y
    assert vassal_label(params, 31, 60) == "[001AA]"  # odd column: +dy/2, and stagger adds one row
    assert vassal_label(params, 60, 121) == "[002BB]"  # VASSAL letters repeat: 27 = BB
    assert vassal_label({**params, "first": "V", "sep": "/"}, 0, 0) == "[Y/000]"
    assert vassal_label({**params, "stagger": False}, 30, 20) == "[001Y]"
    assert vassal_label({**params, "hOff": -5, "hLeading": 1}, 0, 0) == "[-05Y]"
    with pytest.raises(ValueError, match="descending"):
        vassal_label({**params, "hDescend": True}, 0, 0)


def test_refusals():
    flat = PixelLayout("flat", 20.0)
    with pytest.raises(ValueError, match="layout is flat-top but the map is pointy-top"):
        vassal_grid_params(flat, MapGrid(GridSpec("pointy", 3, 3)))
    wide = MapGrid(GridSpec("flat", 28, 3, label=LabelFormat(column_style="alpha")))
    with pytest.raises(ValueError, match="beyond AA"):
        vassal_grid_params(flat, wide)
    dollar = MapGrid(GridSpec("flat", 3, 3, label=LabelFormat(prefix="$x")))
    with pytest.raises(ValueError, match="must not contain"):
        vassal_grid_params(flat, dollar)


def test_attribute_strings():
    grid_attrs, numbering_attrs = vassal_attributes(vassal_grid_params(PixelLayout.for_grid(BFM, 30.0), BFM))
    assert grid_attrs == {"sideways": "false", "x0": "30", "y0": "26", "dx": "45.0", "dy": repr(30 * math.sqrt(3))}
    assert numbering_attrs["hLeading"] == "1" and numbering_attrs["stagger"] == "false"
    assert numbering_attrs["first"] == "H" and numbering_attrs["locationFormat"] == "$gridLocation$"
    assert all(float(grid_attrs[k]) for k in ("dx", "dy"))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_row_first_ids_round_trip(orientation):
    """Issue 30: a map that prints the row before the column ('05-B') gets the other `first` line from VASSAL
    and every label back (a sideways grid numbered `first="H"` is such a map)."""
    fmt = LabelFormat(column_style="alpha", separator="-", row_first=True)
    grid = MapGrid(GridSpec(orientation, 9, 7, first_column=1, first_row=1, shifted="even", label=fmt))
    assert grid.hex_to_label(grid.hexes[0]) == "01-A"
    params = assert_round_trip(grid, PixelLayout.for_grid(grid, 25.0, margin=3))
    assert params["first"] == ("H" if orientation == "pointy" else "V")
