"""The cells of the maps in play and a map's hex data are made when first looked up: they must read
as the whole tables did, on Typhoon's three maps that share an edge column and an edge row (2.1)."""

from __future__ import annotations

import pytest
from rules_support import ROOT

from authoring.hexgrid import Hex
from authoring.load import discover, load_game
from authoring.rules.board import Cells


@pytest.fixture(scope="module")
def typhoon():
    files = next(f for f in discover(ROOT) if f.id == "typhoon")
    return load_game(files).game


def test_cells_merge_each_hex_of_every_map_in_map_order(typhoon):
    maps = tuple(typhoon.maps.values())
    cells = Cells(maps)
    order = list(dict.fromkeys(h for m in maps for h in m.hexes))
    assert list(cells) == order and len(cells) == len(order)
    shared = 0
    for h in reversed(order):  # looked up out of order: the answers do not depend on it
        holders = [m for m in maps if h in m.hexes]
        cell = cells[h]
        assert cells.get(h) is cell and h in cells
        assert cell.labels == tuple(m.hexes[h].label for m in holders)
        assert cell.maps == tuple(m.id for m in holders)
        assert cell.features == tuple(f for m in holders for f in m.hexes[h].features)
        assert set(cell.terrain) == {t for m in holders for t in m.hexes[h].terrain}
        shared += len(holders) > 1
    assert shared > 0  # the layout's shared edge cells were among them
    off = Hex(10_000, 10_000)
    assert off not in cells and cells.get(off) is None
    with pytest.raises(KeyError):
        cells[off]


def test_hex_infos_read_as_the_whole_table(typhoon):
    m = next(iter(typhoon.maps.values()))
    hexes = m.hexes
    assert list(hexes) == list(m.grid.hexes) and len(hexes) == len(m.grid)
    first = m.grid.hexes[0]
    assert hexes[first] is hexes[first] and hexes.get(first) is hexes[first]
    assert hexes[first].label == m.grid.hex_to_label(first)
    assert all(info is hexes[h] and info.hex == h for h, info in hexes.items())
    assert [info.hex for info in hexes.values()] == list(m.grid.hexes)
    assert hexes.get(Hex(10_000, 10_000)) is None
