"""Every printed hex id round-trips through the HexGrid + HexGridNumbering the module declares."""

from __future__ import annotations

import zipfile

import pytest
from conftest import PX_PER_HEX, Built
from module_reader import declared_boards

from authoring.hexgrid import vassal_label, vassal_snap
from authoring.render.maps.draw import map_image_size, map_layout
from authoring.vassal.boards import MapArt, board_sets, distinct_boards, plans_for

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def sets_of(game):
    arts = {m: MapArt(m, map_layout(game, m, PX_PER_HEX), map_image_size(game, m, PX_PER_HEX)) for m in game.maps}
    return board_sets(game, arts)


def plans_of(game, scenario=None):
    """The boards of the whole layout, or those a scenario loads."""
    sets = sets_of(game)
    return plans_for(sets, scenario.maps if scenario else sorted(game.maps))


def all_boards_of(game):
    return distinct_boards(sets_of(game))


def test_every_hex_label_round_trips_on_its_own_board(built: Built) -> None:
    game = built.game
    with zipfile.ZipFile(built.path) as z:
        declared = declared_boards(built.tree, z)
    checked = 0
    for plan in all_boards_of(game):
        params = declared[plan.name].params
        grid = game.maps[plan.map_id].grid
        for h in grid.hexes:
            x, y = plan.layout.hex_to_pixel(h)
            sx, sy = vassal_snap(params, x, y)
            assert abs(sx - x) < 1.5 and abs(sy - y) < 1.5, (plan.map_id, grid.hex_to_label(h))
            assert vassal_label(params, sx, sy) == grid.hex_to_label(h)
            checked += 1
    assert checked == sum(len(game.maps[p.map_id].grid.hexes) for p in all_boards_of(game))


def test_leading_zero_labels_exist_where_the_map_prints_them(built: Built) -> None:
    labels = [m.grid.hex_to_label(h) for m in built.game.maps.values() for h in m.grid.hexes]
    prefixes = {m.grid.spec.label.prefix for m in built.game.maps.values()}
    assert any(label[len(p) :].startswith("0") for label in labels for p in prefixes if label.startswith(p))
