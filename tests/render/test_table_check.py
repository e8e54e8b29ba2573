"""validate's table check (`charts.table_problem`, HW-TABLE-002) measures a table once, cheaply: the rows'
heights with every column at its least width bound the heights at any page width that keeps the words
whole, so a table that fits under that bound is never laid out page by page (Typhoon's tables took most of
`validate`'s own time, balanced column by column three times over); only a table the bound does not pass is
laid out as the charts draw it, and its finding is the layout's."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.budget import PIXEL_BUDGET
from authoring.load import discover, load_game
from authoring.render.print import charts

ROOT = Path(__file__).resolve().parents[2]
SIZES = [("a Letter page", (1800, 2400)), ("the module's chart window", charts.NATURAL)]


@pytest.fixture(scope="module")
def typhoon():
    return load_game(next(f for f in discover(ROOT) if f.id == "typhoon")).game


def test_a_table_that_fits_is_measured_once_not_laid_out_at_each_page_width(typhoon, monkeypatch):
    from authoring.render.limits import stage_findings

    def never(*args, **kwargs):
        raise AssertionError("a table that fits was balanced column by column")

    grids = []
    monkeypatch.setattr(charts, "_shortest_widths", never)
    monkeypatch.setattr(
        charts, "_grid", lambda table, widths, grid=charts._grid: grids.append(table.id) or grid(table, widths)
    )
    assert stage_findings(typhoon) == []
    assert sorted(grids) == sorted(t.id for t in typhoon.tables)  # each table's cells wrapped once


@pytest.mark.parametrize("size", [(400, 300), (150, 2000), (2000, 120), (1000, 400)])
def test_a_table_the_bound_does_not_pass_gets_the_layouts_own_finding(typhoon, size):
    """At pages too small for them, every table's finding is what laying it out at that page says."""
    found = 0
    for table in typhoon.tables:
        problem = charts.table_problem(typhoon, table, [("the page", size)], PIXEL_BUDGET)
        drawn = [charts._sample_drawing(typhoon, charts._cell_text(r[0])) if r else None for r in table.rows]
        sample_w, widths, _grid, heights = charts._table_layout(typhoon, table, size[0], drawn)
        if sample_w + sum(widths) + 1 > size[0]:
            assert problem is not None and "at their narrowest" in problem
        else:
            assert problem == charts._height_problem(table, "the page", size, heights, PIXEL_BUDGET)
        found += problem is not None
    assert found
