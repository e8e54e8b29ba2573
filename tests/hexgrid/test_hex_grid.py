"""Printed numbering of one map: labels, offsets, shift parity, edges."""

from __future__ import annotations

import pytest
from hexgrid_strategies import grid_specs, origins
from hypothesis import given, settings

from authoring.hexgrid import (
    GridSpec,
    Hex,
    LabelFormat,
    MapGrid,
    PixelLayout,
    alpha_to_int,
    int_to_alpha,
)

FAST = settings(max_examples=50, deadline=None)


@FAST
@given(grid_specs(), origins)
def test_label_hex_label_round_trip(spec, origin):
    grid = MapGrid(spec, origin)
    assert len(grid) == spec.columns * spec.rows
    assert len(set(grid.hexes)) == len(grid)
    for h in grid.hexes:
        label = grid.hex_to_label(h)
        assert grid.label_to_hex(label) == h
        col, row = grid.hex_to_offset(h)
        assert grid.offset_to_hex(col, row) == h
        assert label == spec.label.label(col, row)
        assert label.startswith(spec.label.prefix)


@FAST
@given(grid_specs(), origins)
def test_hexes_are_column_major(spec, origin):
    grid = MapGrid(spec, origin)
    offsets = [grid.hex_to_offset(h) for h in grid.hexes]
    assert offsets == [
        (c, r) for c in range(spec.first_column, spec.last_column + 1) for r in range(spec.first_row, spec.last_row + 1)
    ]


@FAST
@given(grid_specs(), origins)
def test_shifted_lines_sit_half_a_hex_lower_or_right(spec, origin):
    """The printed parity decides which columns (flat) / rows (pointy) are pushed."""
    grid = MapGrid(spec, origin)
    layout = PixelLayout(spec.orientation, 10.0)
    c0, r0 = spec.first_column, spec.first_row
    here = layout.hex_to_pixel(grid.offset_to_hex_unbounded(c0, r0))
    if spec.orientation == "flat":
        there = layout.hex_to_pixel(grid.offset_to_hex_unbounded(c0 + 1, r0))
        lower = there[1] - here[1]
        assert there[0] - here[0] == pytest.approx(layout.dx)
        expected = -layout.dy / 2 if grid.is_shifted(c0) else layout.dy / 2
        assert lower == pytest.approx(expected)
        assert grid.is_shifted(c0) == (c0 % 2 == (0 if spec.shifted == "even" else 1))
    else:
        there = layout.hex_to_pixel(grid.offset_to_hex_unbounded(c0, r0 + 1))
        assert there[1] - here[1] == pytest.approx(layout.dy)
        expected = -layout.dx / 2 if grid.is_shifted(r0) else layout.dx / 2
        assert there[0] - here[0] == pytest.approx(expected)


@FAST
@given(grid_specs(), origins)
def test_same_line_neighbours(spec, origin):
    """Consecutive rows of a column (flat) are S of each other; columns of a row (pointy) E."""
    grid = MapGrid(spec, origin)
    for h in grid.hexes:
        col, row = grid.hex_to_offset(h)
        if spec.orientation == "flat" and row < spec.last_row:
            assert h.neighbour(grid.direction_index("S")) == grid.offset_to_hex(col, row + 1)
        if spec.orientation == "pointy" and col < spec.last_column:
            assert h.neighbour(grid.direction_index("E")) == grid.offset_to_hex(col + 1, row)


def test_lone_map_at_origin_puts_first_hex_at_zero():
    assert MapGrid(GridSpec("flat", 3, 3)).hexes[0] == Hex(0, 0)
    assert MapGrid(GridSpec("pointy", 3, 3, shifted="odd")).hexes[0] == Hex(0, 0)


def test_label_to_hex_returns_none_for_foreign_labels():
    grid = MapGrid(GridSpec("flat", 14, 10, label=LabelFormat(prefix="P")))
    assert grid.label_to_hex("P0101") == Hex(0, 0)
    for bad in ("0101", "p0101", "P1501", "P0111", "P0000", "P101", "", " P0101", "P01011"):
        assert grid.label_to_hex(bad) is None, bad
    assert grid.label_to_hex(101) is None


def test_off_map_lookups_raise():
    grid = MapGrid(GridSpec("flat", 14, 10))
    with pytest.raises(KeyError, match="not on this map"):
        grid.hex_to_label(Hex(-1, 0))
    with pytest.raises(KeyError, match="not on this map"):
        grid.hex_to_offset(Hex(99, 0))
    with pytest.raises(ValueError, match="column 15 row 1 is off the map"):
        grid.offset_to_hex(15, 1)
    assert Hex(-1, 0) not in grid and Hex(13, 0) in grid


def test_alpha_columns_and_other_formats():
    grid = MapGrid(GridSpec("flat", 30, 9, label=LabelFormat(column_style="alpha")))
    assert grid.hex_to_label(grid.offset_to_hex(3, 7)) == "C07"
    assert grid.hex_to_label(grid.offset_to_hex(27, 1)) == "AA01"
    assert grid.hex_to_label(grid.offset_to_hex(28, 1)) == "AB01"
    assert grid.label_to_hex("AD09") == grid.offset_to_hex(30, 9)
    fmt = LabelFormat(prefix="N", column_digits=3, row_digits=1, separator=".")
    grid = MapGrid(GridSpec("pointy", 5, 5, first_column=0, first_row=7, label=fmt))
    assert grid.hex_to_label(grid.hexes[0]) == "N000.7"
    assert grid.label_to_hex("N004.11") == grid.offset_to_hex(4, 11)


def test_alpha_conversions():
    pairs = {1: "A", 26: "Z", 27: "AA", 28: "AB", 52: "AZ", 53: "BA", 702: "ZZ", 703: "AAA"}
    for n, text in pairs.items():
        assert int_to_alpha(n) == text
        assert alpha_to_int(text) == n
    assert all(alpha_to_int(int_to_alpha(n)) == n for n in range(1, 2000))
    with pytest.raises(ValueError):
        int_to_alpha(0)
    with pytest.raises(ValueError):
        alpha_to_int("a")


def test_ambiguous_numbering_is_refused():
    spec = GridSpec("flat", 12, 12, label=LabelFormat(column_digits=1, row_digits=1))
    with pytest.raises(
        ValueError,
        match=r"ambiguous numbering: column 11 row 1 and column 1 row 11 "
        r"both print as '111'",
    ):
        MapGrid(spec)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"orientation": "square"}, "Expected one of: ['flat', 'pointy'] but received: 'square'"),
        ({"shifted": "both"}, "Expected one of: ['even', 'odd'] but received: 'both'"),
        ({"columns": 0}, "columns must be an int >= 1, got 0"),
        ({"first_row": -1}, "first_row must be an int >= 0, got -1"),
        ({"first_column": 0, "label": LabelFormat(column_style="alpha")}, "first_column must be an int >= 1, got 0"),
    ],
)
def test_grid_spec_validation(kwargs, message):
    args = {"orientation": "flat", "columns": 3, "rows": 3, **kwargs}
    with pytest.raises(ValueError) as err:
        GridSpec(**args)
    assert str(err.value) == message


def test_label_format_validation():
    with pytest.raises(ValueError, match="but received: 'roman'"):
        LabelFormat(column_style="roman")
    with pytest.raises(ValueError, match="row_digits must be an int >= 1"):
        LabelFormat(row_digits=0)


def test_edges_of_a_flat_map():
    grid = MapGrid(GridSpec("flat", 14, 10))
    label = grid.hex_to_label
    assert [label(h) for h in grid.edge_hexes("west")] == [f"01{r:02d}" for r in range(1, 11)]
    assert [label(h) for h in grid.edge_hexes("north")] == [f"{c:02d}01" for c in range(1, 15)]
    assert len(grid.edge_hexes("south")) == 14 and len(grid.edge_hexes("east")) == 10
    assert grid.edge_of(grid.label_to_hex("0101")) == {"north", "west"}
    assert grid.edge_of(grid.label_to_hex("1410")) == {"south", "east"}
    assert grid.edge_of(grid.label_to_hex("0705")) == frozenset()
    with pytest.raises(ValueError, match="but received: 'up'"):
        grid.edge_hexes("up")


def test_exit_directions_name_the_map_edge_sides():
    grid = MapGrid(GridSpec("flat", 14, 10))
    names = lambda lbl: {grid.direction_name(d) for d in grid.exit_directions(grid.label_to_hex(lbl))}
    assert names("0101") == {"N", "NE", "SW", "NW"}
    assert names("0201") == {"N"}
    assert names("1410") == {"NE", "SE", "S", "SW"}  # even column: SW is 1311
    assert names("0705") == set()
    pointy = MapGrid(GridSpec("pointy", 5, 4))
    corner = pointy.label_to_hex("0101")
    assert {pointy.direction_name(d) for d in pointy.exit_directions(corner)} == {"NW", "NE", "W", "SW"}


@FAST
@given(grid_specs(), origins)
def test_edge_hexes_are_the_hexes_on_each_edge(spec, origin):
    """`edge_hexes` slices the column-major hexes: the same hexes, in order, as a filter on offsets."""
    grid = MapGrid(spec, origin)
    for edge, (index, value) in {
        "west": (0, spec.first_column),
        "east": (0, spec.last_column),
        "north": (1, spec.first_row),
        "south": (1, spec.last_row),
    }.items():
        assert grid.edge_hexes(edge) == tuple(h for h in grid.hexes if grid.hex_to_offset(h)[index] == value)


def test_offset_and_axial_are_inverse_in_both_orientations_and_parities():
    from authoring.hexgrid.grid import axial_to_offset, offset_to_axial

    for orientation in ("flat", "pointy"):
        for parity in (0, 1):
            cells = [(c, r) for c in range(-3, 9) for r in range(-3, 9)]
            hexes = [offset_to_axial(orientation, parity, c, r) for c, r in cells]
            assert len(set(hexes)) == len(cells)
            assert [axial_to_offset(orientation, parity, h) for h in hexes] == cells
