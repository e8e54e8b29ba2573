"""A CSV file's positions, worked out when asked (`load.cells`), against positions found independently:
every cell of Typhoon's counters file, as read and after it becomes counters, is where its text is."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from authoring.load.cells import CounterCells, CsvCells
from authoring.load.columns import conform, counter_columns
from authoring.load.source import load_source

ROOT = Path(__file__).resolve().parents[2]
TYPHOON = ROOT / "counters/typhoon/counters.csv"


def _cells_by_hand(path: Path) -> dict[tuple, tuple[int, int]]:
    """(record, column) -> (line, col) of every non-empty cell, from the file's text (one row a line)."""
    lines = path.read_text(encoding="utf-8").removeprefix("\ufeff").splitlines()
    header = [h.strip() for h in next(csv.reader([lines[0]]))]
    out, record = {}, 0
    for line_no, line in enumerate(lines[1:], start=2):
        cells = next(csv.reader([line]))
        if not any(c.strip() for c in cells):
            continue
        at = 1
        for name, cell in zip(header, cells):
            if cell.strip():
                out[(record, name)] = (line_no, at)
            at += len(cell) + 1
        record += 1
    return out


def test_every_cell_of_a_real_counters_file_is_where_its_text_is() -> None:
    src = load_source(TYPHOON)
    assert isinstance(src.locs, CsvCells)
    expected = _cells_by_hand(TYPHOON)
    assert len(expected) > 5000
    assert {k: src.locs[k] for k in expected} == expected
    assert {k for k in src.locs if len(k) == 2} == set(expected)  # iteration gives the same cells, no more
    assert src.locs.get((0, "no such column")) is None and src.locs.get((10**6,)) is None


def test_the_counters_made_from_rows_keep_each_value_at_its_cell() -> None:
    src = load_source(TYPHOON)
    counters, diags = conform(src, counter_columns(), counters=True)
    assert not diags and isinstance(counters.locs, CounterCells)
    checked = 0
    for i, c in enumerate(counters.data["counters"]):
        row = src.data[i]
        assert counters.locs[("counters", i)] == src.locs[(i,)]
        assert counters.loc(("counters", i, "id")) == src.loc((i, next(k for k in row if k.lower() == "id")))
        for k, face in enumerate(c["faces"]):
            for name in face["values"]:
                raw = f"{face['state']}.{name}"
                assert counters.loc(("counters", i, "faces", k, "values", name)) == src.loc((i, raw))
                checked += 1
            last = [raw for raw in row if raw.startswith(face["state"] + ".")][-1]
            assert counters.locs[("counters", i, "faces", k)] == src.locs[(i, last)]
    assert checked > 2000
    assert all(counters.locs.get(p) is not None for p in counters.locs)


@pytest.mark.parametrize(
    "path", [("counters", 0, "faces", 99), ("counters", 10**6), ("elsewhere", 0), ("counters", "x")]
)
def test_a_path_the_counters_do_not_have_has_no_position_of_its_own(path: tuple) -> None:
    counters, _ = conform(load_source(TYPHOON), counter_columns(), counters=True)
    assert counters.locs.get(path) is None
    assert counters.loc(path).line >= 1  # reported at its nearest located ancestor


def test_a_face_designation_column_is_the_faces_text_not_a_value() -> None:
    """Typhoon 6.5.2: a Supply Counter's back is a Supply Dump (`reduced.designation`), located at its cell."""
    src = load_source(TYPHOON)
    counters, diags = conform(src, counter_columns(), counters=True)
    assert not diags
    i, c = next((i, c) for i, c in enumerate(counters.data["counters"]) if c["id"] == "sov-msu-moscow")
    back = next(k for k, f in enumerate(c["faces"]) if f["state"] == "reduced")
    assert c["faces"][back]["designation"] == "Supply Dump"
    assert "designation" not in c["faces"][back]["values"]
    assert counters.loc(("counters", i, "faces", back, "designation")) == src.loc((i, "reduced.designation"))
    from authoring.load import discover, load_game

    game = load_game(next(f for f in discover(ROOT) if f.id == "typhoon")).game
    msu = game.counters["sov-msu-moscow"]
    assert msu.designation == "MSU Moscow" and msu.face("reduced").designation == "Supply Dump"
