"""Predefined set-ups: decoded from the module and compared piece by piece with the scenario."""

from __future__ import annotations

import zipfile
from collections import Counter

import pytest
from conftest import Built
from module_reader import board_origins, declared_boards, expected_hex_units, read_setup
from test_numbering import plans_of

from authoring.hexgrid import vassal_label, vassal_snap
from authoring.rules.board import build_board
from authoring.vassal import elements as el
from authoring.vassal.boards import hex_position
from authoring.vassal.compile import setup_title
from authoring.vassal.pieces import MAIN_MAP, TRACK_MAP

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def _setups(built: Built):
    files = {p.get("name"): p.get("file") for p in built.tree.iter(el.PREDEFINED_SETUP)}
    with zipfile.ZipFile(built.path) as z:
        declared = declared_boards(built.tree, z)
        for scenario in built.game.scenarios.values():
            yield scenario, declared, read_setup(z, files[setup_title(built.game, scenario)])


def _locate(declared, origins, x, y):
    for name, (bx, by) in origins.items():
        w, h = declared[name].size
        if bx <= x < bx + w and by <= y < by + h:
            return name, x - bx, y - by
    raise AssertionError(f"piece at {x},{y} is on no board")


def test_every_unit_is_on_its_hex_centre_at_its_starting_face(built: Built) -> None:
    game = built.game
    grids = {m.id: m.grid for m in game.maps.values()}
    for scenario, declared, (boards, pieces, _) in _setups(built):
        plans = {p.name: p for p in plans_of(game, scenario)}
        origins = board_origins(declared, boards[MAIN_MAP])
        assert set(origins) == set(plans)
        assert all(origins[n] == plans[n].rect[:2] for n in plans)
        got: Counter = Counter()
        for piece in (p for p in pieces if p.map == MAIN_MAP):
            board, lx, ly = _locate(declared, origins, piece.x, piece.y)
            params = declared[board].params
            assert vassal_snap(params, lx, ly) == (lx, ly)  # exactly on VASSAL's centre
            label = vassal_label(params, lx, ly)
            h = grids[plans[board].map_id].label_to_hex(label)
            cx, cy = plans[board].layout.hex_to_pixel(h)
            assert abs(cx - lx) < 1.5 and abs(cy - ly) < 1.5  # x0/y0 are whole pixels, the snap truncates
            got[(piece.properties["CounterId"], h, piece.level)] += 1
        assert got == expected_hex_units(game, scenario), scenario.id


def test_boxes_hold_reinforcements_off_map_units_and_pools(built: Built) -> None:
    game = built.game
    by_board = {
        (m.get("mapName"), b.get("name")): {
            (int(r.get("originx")), int(r.get("originy"))): r.get("name") for r in b.iter(el.REGION)
        }
        for m in built.tree.iter(el.MAP)
        if m.get("mapName") != MAIN_MAP
        for b in m.iter(el.BOARD)
    }
    for scenario, _, (boards, pieces, _) in _setups(built):
        in_play = {
            map_name: by_board[(map_name, placed[0][0])] for map_name, placed in boards.items() if map_name != MAIN_MAP
        }
        regions = {xy: name for spots in in_play.values() for xy, name in spots.items()}
        got = Counter(
            (in_play[p.map][(p.x, p.y)], p.properties.get("CounterId"))
            for p in pieces
            if p.map != MAIN_MAP and "CounterId" in p.properties
        )
        expected = Counter()
        for r in scenario.reinforcements:
            expected.update((f"Turn {r.turn}", u) for u in r.units)
        for o in scenario.off_map:
            expected.update(
                (
                    next(
                        n
                        for n in regions.values()
                        if n.startswith(game.side(o.side).name) and o.box.split("-")[0].lower() in n.lower()
                    ),
                    u,
                )
                for u in o.units
            )
        for pool in scenario.pools:
            expected.update((n, u) for u in pool.units for n in [_pool_region(game, pool, regions)])
        assert got == expected, scenario.id
        withdrawals = [p for p in pieces if p.map == TRACK_MAP and p.properties.get("Type") == "Withdrawal"]
        assert sorted(in_play[TRACK_MAP][(p.x, p.y)] for p in withdrawals) == sorted(
            f"Turn {w.turn}" for w in scenario.withdrawals
        )


def _pool_region(game, pool, regions):
    from authoring.vassal.setups import pool_box

    name = pool_box(game, pool.side, pool.id, pool.name)
    assert name in regions.values()
    return name


def test_piece_counts_per_board_match_the_rules_engine(built: Built) -> None:
    game = built.game
    grids = {m.id: m.grid for m in game.maps.values()}
    for scenario, declared, (boards, pieces, _) in _setups(built):
        plans = plans_of(game, scenario)
        board = build_board(game, scenario)
        expected: Counter = Counter()
        for h, uses in board.by_cell.items():
            map_id = next(m for m in scenario.maps if h in grids[m])
            expected[hex_position(plans, grids, map_id, h)[0].name] += len(uses)
        for marker in scenario.markers:  # placed by the set-up, not a side's set-up the rules engine checks
            map_id = next(m for m in scenario.maps if marker.hex in grids[m])
            expected[hex_position(plans, grids, map_id, marker.hex)[0].name] += len(marker.units)
        origins = board_origins(declared, boards[MAIN_MAP])
        got = Counter(_locate(declared, origins, p.x, p.y)[0] for p in pieces if p.map == MAIN_MAP)
        assert got == expected, scenario.id


def test_pieces_sharing_a_spot_are_stacked(built: Built) -> None:
    for _, _, (_, pieces, stacks) in _setups(built):
        spots = Counter((p.map, p.x, p.y) for p in pieces)
        assert sorted(len(s) for s in stacks) == sorted(n for n in spots.values() if n > 1)
        ids = [i for s in stacks for i in s]
        assert len(ids) == len(set(ids)) and set(ids) <= {p.id for p in pieces}


def test_a_units_face_changes_its_state_only_so_set_ups_reuse_the_palette_type(built: Built) -> None:
    """The set-ups take each unit's encoded type from its palette piece (`SetupContext.types`)."""
    from authoring.vassal.pieces import at_state, counter_piece

    game = built.game
    for counter in list(game.counters.values())[:40]:
        piece = counter_piece(game, counter, 1, {f.state: f"{f.state}.png" for f in counter.faces})
        for face in counter.faces:
            assert at_state(piece, counter, face.state).definition().type == piece.definition().type
