"""Hypothesis strategies shared by the hexgrid tests."""

from __future__ import annotations

from hypothesis import strategies as st

from authoring.hexgrid import GridSpec, Hex, LabelFormat

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
directions = st.integers(min_value=0, max_value=5)
orientations = st.sampled_from(["flat", "pointy"])
parities = st.sampled_from(["even", "odd"])


@st.composite
def grid_specs(draw, max_alpha_column: int = 60, max_lines: int = 12) -> GridSpec:
    """Random but unambiguous numbering: every number fits its digit count."""
    style = draw(st.sampled_from(["numeric", "alpha"]))
    column_digits = draw(st.integers(1, 3))
    row_digits = draw(st.integers(1, 3))
    rows = draw(st.integers(1, min(max_lines, 10**row_digits)))
    first_row = draw(st.integers(0, min(30, 10**row_digits - rows)))
    if style == "alpha":
        columns = draw(st.integers(1, min(max_lines, max_alpha_column)))
        first_column = draw(st.integers(1, max_alpha_column - columns + 1))
    else:
        columns = draw(st.integers(1, min(max_lines, 10**column_digits)))
        first_column = draw(st.integers(0, min(30, 10**column_digits - columns)))
    label = LabelFormat(
        prefix=draw(st.sampled_from(["", "P", "N", "Map-"])),
        column_digits=column_digits,
        row_digits=row_digits,
        column_style=style,
        separator=draw(st.sampled_from(["", ".", "-", " "])),
    )
    return GridSpec(
        orientation=draw(orientations),
        columns=columns,
        rows=rows,
        first_column=first_column,
        first_row=first_row,
        shifted=draw(parities),
        label=label,
    )


origins = st.tuples(st.integers(-5, 5), st.integers(-5, 5))
