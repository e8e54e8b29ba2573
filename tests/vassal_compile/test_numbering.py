"""Every printed hex id round-trips through the HexGrid + HexGridNumbering the module declares."""
from __future__ import annotations

import zipfile

from authoring.hexgrid import vassal_label, vassal_snap
from authoring.render.maps.draw import map_image_size, map_layout
from authoring.vassal.boards import MapArt, plan_boards, side_by_side

from conftest import PX_PER_HEX, Built
from module_reader import declared_boards


def plans_of(game):
    arts = {m: MapArt(m, map_layout(game, m, PX_PER_HEX), map_image_size(game, m, PX_PER_HEX)) for m in game.maps}
    try:
        return plan_boards(game, arts)
    except ValueError:
        return side_by_side(game, arts)


def test_every_hex_label_round_trips_on_its_own_board(built: Built) -> None:
    game = built.game
    with zipfile.ZipFile(built.path) as z:
        declared = declared_boards(built.tree, z)
    checked = 0
    for plan in plans_of(game):
        params = declared[plan.name].params
        grid = game.maps[plan.map_id].grid
        for h in grid.hexes:
            x, y = plan.layout.hex_to_pixel(h)
            sx, sy = vassal_snap(params, x, y)
            assert abs(sx - x) < 1.5 and abs(sy - y) < 1.5, (plan.map_id, grid.hex_to_label(h))
            assert vassal_label(params, sx, sy) == grid.hex_to_label(h)
            checked += 1
    assert checked == sum(len(m.grid.hexes) for m in game.maps.values())


def test_leading_zero_labels_exist_where_the_map_prints_them(built: Built) -> None:
    labels = [m.grid.hex_to_label(h) for m in built.game.maps.values() for h in m.grid.hexes]
    prefixes = {m.grid.spec.label.prefix for m in built.game.maps.values()}
    assert any(label[len(p):].startswith("0") for label in labels for p in prefixes if label.startswith(p))
