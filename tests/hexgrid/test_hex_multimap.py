"""Several maps in one global grid: shared edge cells are one Hex with two labels."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hexgrid_strategies import grid_specs
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.hexgrid import GridSpec, LabelFormat, MapGrid, MultiMapLayout, PixelLayout

FAST = settings(max_examples=50, deadline=None)


def typhoon_like(n_columns: int = 11) -> dict[str, MapGrid]:
    """N and M side by side sharing a column, P below both sharing a row (Typhoon 2.1)."""

    def spec(prefix, columns, rows):
        return GridSpec("flat", columns, rows, shifted="even", label=LabelFormat(prefix=prefix))

    return {
        "N": MapGrid(spec("N", n_columns, 8), origin=(0, 0)),
        "M": MapGrid(spec("M", 11, 8), origin=(n_columns - 1, 0)),
        "P": MapGrid(spec("P", 9, 6), origin=(6, 7)),
    }


def test_typhoon_like_shared_column_and_row():
    maps = typhoon_like()
    layout = MultiMapLayout(maps)
    assert len(layout) == 88 + 88 + 54 - 8 - 5 - 5 + 1
    for row in range(1, 9):
        h = layout.label_to_hex(f"N11{row:02d}")
        assert h == layout.label_to_hex(f"M01{row:02d}")
        assert layout.maps_of(h)[:2] == ("N", "M")
    assert layout.labels_of(layout.label_to_hex("N1103")) == ("N1103", "M0103")
    # P's first row is N's and M's last row; global column 10 is in all three maps.
    assert layout.label_to_hex("P0101") == layout.label_to_hex("N0708")
    assert layout.labels_of(layout.label_to_hex("P0501")) == ("N1108", "M0108", "P0501")
    assert layout.labels_of(layout.label_to_hex("P0901")) == ("M0508", "P0901")
    assert layout.labels_of(layout.label_to_hex("P0402")) == ("P0402",)
    assert layout.maps_of(layout.label_to_hex("N0101")) == ("N",)
    assert layout.label_to_hex("N1201") is None and layout.label_to_hex("X0101") is None
    assert layout.labels_of(maps["N"].offset_to_hex_unbounded(0, 1)) == ()


def test_typhoon_like_seam_geometry():
    """Across the seam, neighbours on the printed maps are neighbours in the layout."""
    layout = MultiMapLayout(typhoon_like())
    hx = layout.label_to_hex
    assert hx("N1005").distance(hx("M0205")) == 2
    assert hx("N1005").distance(hx("M0105")) == 1
    assert hx("P0102").distance(hx("N0708")) == 1
    pixels = PixelLayout.for_grid(layout, 20.0)
    centres = {pixels.hex_to_pixel(h) for h in layout.hexes}
    assert len(centres) == len(layout)
    assert all(pixels.pixel_to_hex(*pixels.hex_to_pixel(h)) == h for h in layout.hexes)


def test_inconsistent_parity_is_refused():
    with pytest.raises(ValueError) as err:
        MultiMapLayout(typhoon_like(n_columns=10))
    assert str(err.value) == (
        "maps 'N' and 'M' disagree on which global columns are shifted: "
        "move map 'M''s origin by one column or fix its 'shifted' parity"
    )


def test_mixed_orientations_and_label_clashes_are_refused():
    with pytest.raises(ValueError, match="map 'B' is pointy-top but map 'A' is flat-top"):
        MultiMapLayout({"A": MapGrid(GridSpec("flat", 3, 3)), "B": MapGrid(GridSpec("pointy", 3, 3), origin=(10, 0))})
    with pytest.raises(ValueError, match="label '0101' names two different hexes"):
        MultiMapLayout({"A": MapGrid(GridSpec("flat", 3, 3)), "B": MapGrid(GridSpec("flat", 3, 3), origin=(2, 0))})
    with pytest.raises(ValueError, match="at least one map"):
        MultiMapLayout({})


@FAST
@given(grid_specs(max_lines=8), grid_specs(max_lines=8), st.booleans(), st.data())
def test_two_maps_sharing_an_edge(spec_a, spec_b, beside, data):
    spec_b = replace(spec_b, orientation=spec_a.orientation, label=replace(spec_b.label, prefix="B"))
    spec_a = replace(spec_a, label=replace(spec_a.label, prefix="A"))
    a = MapGrid(spec_a, origin=data.draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3))))
    if beside:  # B's first column is A's last column, same top row
        b = MapGrid(spec_b, origin=(a.origin[0] + spec_a.columns - 1, a.origin[1]))
        pairs = [
            ((spec_a.last_column, spec_a.first_row + k), (spec_b.first_column, spec_b.first_row + k))
            for k in range(min(spec_a.rows, spec_b.rows))
        ]
    else:  # B's first row is A's last row, same left column
        b = MapGrid(spec_b, origin=(a.origin[0], a.origin[1] + spec_a.rows - 1))
        pairs = [
            ((spec_a.first_column + k, spec_a.last_row), (spec_b.first_column + k, spec_b.first_row))
            for k in range(min(spec_a.columns, spec_b.columns))
        ]
    # Independent statement of consistency: the shared global cell (a0, b0) must have the
    # same shift in both maps' printed numbering.
    (ca, ra), (cb, rb) = pairs[0]
    if spec_a.orientation == "flat":
        consistent = a.is_shifted(ca) == b.is_shifted(cb)
    else:
        consistent = a.is_shifted(ra) == b.is_shifted(rb)
    if not consistent:
        with pytest.raises(ValueError, match="disagree on which global"):
            MultiMapLayout({"A": a, "B": b})
        return
    layout = MultiMapLayout({"A": a, "B": b})
    for off_a, off_b in pairs:
        h = a.offset_to_hex(*off_a)
        assert h == b.offset_to_hex(*off_b)
        assert layout.labels_of(h) == (a.hex_to_label(h), b.hex_to_label(h))
        assert layout.maps_of(h) == ("A", "B")
    assert len(layout) == len(a) + len(b) - len(pairs)
    assert layout.hexes == frozenset(a.hexes) | frozenset(b.hexes)
    for h in layout.hexes:
        assert all(layout.label_to_hex(lbl) == h for lbl in layout.labels_of(h))
