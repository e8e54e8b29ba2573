"""Every bundled game's module loaded by the real VASSAL engine (vassal-check)."""

from __future__ import annotations

import io
import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from conftest import PX_PER_HEX, Built
from PIL import Image, ImageChops, ImageDraw
from test_numbering import all_boards_of, plans_of

from authoring.products.catalogue import ModuleKeys
from authoring.rules.board import build_board
from authoring.vassal import elements as el
from authoring.vassal.boards import hex_position
from authoring.vassal.boxes import stack_extent
from authoring.vassal.compile import box_boards, default_counter_px, setup_title
from authoring.vassal.help import RULES_SUMMARY
from authoring.vassal.pieces import DEAD_MAP, MAIN_MAP, TRACK_MAP

CHECKER = Path(__file__).resolve().parents[2] / ".." / "shared" / "tools" / "vassal-check" / "vassal-check"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHECKER.exists(), reason="../shared/tools/vassal-check not found: the real-engine check cannot run"
    ),
]  # slow: the VASSAL engine

_REPORTS: dict[Path, dict] = {}


def report(built: Built) -> dict:
    """The checker's report with every piece listed and screenshots of every set-up and window."""
    if built.path not in _REPORTS:
        shots = built.path.parent / "shots"
        run = subprocess.run(
            [str(CHECKER), str(built.path), "--pieces", "--shots", str(shots)],
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert run.returncode in (0, 1), run.stderr[-2000:]
        _REPORTS[built.path] = json.loads(run.stdout)
    return _REPORTS[built.path]


def test_engine_loads_module_without_errors(built: Built) -> None:
    r = report(built)
    assert r["errors"] == [] and r["ok"] is True
    assert all(d["ok"] and d["canonical"] for d in r["piece_definitions"])
    assert r["counts"]["predefined_setups"] == len(built.game.scenarios)
    assert r["counts"]["hex_grids"] == len(all_boards_of(built.game))


def test_engine_places_every_setup_piece_on_its_board_and_hex(built: Built) -> None:
    game = built.game
    grids = {m.id: m.grid for m in game.maps.values()}
    by_label = {}
    for m in game.maps.values():
        by_label.update({m.grid.hex_to_label(h): h for h in m.grid.hexes})
    for setup in report(built)["setups"]:
        scenario = next(s for s in game.scenarios.values() if setup_title(game, s) == setup["name"])
        plans = plans_of(game, scenario)
        assert setup["ok"] and setup["pieces_outside_boards"] == 0 and setup["pieces_on_no_map"] == 0
        board = build_board(game, scenario)
        per_board: Counter = Counter()
        hexes: Counter = Counter()
        for h, uses in board.by_cell.items():
            map_id = next(m for m in scenario.maps if h in grids[m])
            per_board[hex_position(plans, grids, map_id, h)[0].name] += len(uses)
            hexes[h] += len(uses)
        for marker in scenario.markers:  # placed by the set-up besides the sides' units the rules engine holds
            map_id = next(m for m in scenario.maps if marker.hex in grids[m])
            per_board[hex_position(plans, grids, map_id, marker.hex)[0].name] += len(marker.units)
            hexes[marker.hex] += len(marker.units)
        assert Counter(setup["per_map"][MAIN_MAP]["pieces_per_board"]) == per_board
        on_map = [p for p in setup["pieces"] if p["map"] == MAIN_MAP]
        assert Counter(by_label[p["location"]] for p in on_map) == hexes


def test_every_chart_is_reachable_in_the_chart_window(built: Built) -> None:
    defined = len(list(built.tree.iter(el.CHART)))
    (window,) = [w for w in report(built)["shots"]["windows"] if "charts" in w]
    assert window["charts"]["defined"] == window["charts"]["reachable"] == defined > 0
    assert "charts_unreachable" not in window


def test_help_menu_lists_the_rules_summary(built: Built) -> None:
    menu = report(built)["shots"]["help_menu"]
    assert menu["module_entries_in_menu"] == len(list(built.tree.iter(el.HELP_FILE)))
    assert RULES_SUMMARY in menu["entries"]


def test_every_box_piece_stack_fits_inside_its_box_and_board(built: Built) -> None:
    """Engine positions + the box map's StackMetrics: every stack clear of labels, boxes and board edges."""
    game = built.game
    counter_px = default_counter_px(game, PX_PER_HEX)
    seps = {m.get("mapName"): int(m.find(el.STACK_METRICS).get("unexSepY")) for m in built.tree.iter(el.MAP)}
    regions = {
        b.get("name"): {(int(r.get("originx")), int(r.get("originy"))) for r in b.iter(el.REGION)}
        for m in built.tree.iter(el.MAP)
        if m.get("mapName") in (DEAD_MAP, TRACK_MAP)
        for b in m.iter(el.BOARD)
    }
    r = report(built)
    for setup in r["setups"]:
        boards = _box_boards_of(built, setup["name"])
        for map_name, board in boards.items():
            in_play = setup["per_map"][map_name]["boards_in_play"]
            (name,) = [n for n in regions if in_play == [f"{n}@0,0 {board.size[0]}x{board.size[1]}"]]
            assert regions[name] == {(b.x, b.y) for b in board.boxes}
            assert seps[map_name] == board.sep
        stacks = Counter((p["map"], p["x"], p["y"]) for p in setup["pieces"] if p["map"] in boards)
        for (map_name, x, y), count in stacks.items():
            board = boards[map_name]
            (box,) = [b for b in board.boxes if (b.x, b.y) == (x, y)]
            left, top, right, bottom = stack_extent(x, y, count, counter_px, board.sep)
            assert box.rect[0] < left and right < box.rect[2] and box.label_bottom <= top and bottom < box.rect[3], (
                setup["name"],
                box.name,
                count,
            )
            assert 0 <= box.rect[0] and box.rect[2] < board.size[0] and box.rect[3] < board.size[1]
    for shot in r["shots"]["maps"]:
        assert shot["pieces_drawn"] == shot["pieces_on_map"] and "pieces_outside_image" not in shot, shot


def test_each_setup_restores_the_turn_track_and_loads_only_its_maps(built: Built) -> None:
    game = built.game
    r = report(built)
    for setup in r["setups"]:
        scenario = next(s for s in game.scenarios.values() if setup_title(game, s) == setup["name"])
        assert setup["commands"].get("build.module.turn.TurnTracker$SetTurn") == 1
        in_play = setup["per_map"][MAIN_MAP]["boards_in_play"]
        expected = [p.name for p in plans_of(game, scenario)]
        assert len(in_play) == len(expected) and sorted(_board_names(in_play, expected)) == sorted(expected)


def _board_names(in_play: list[str], candidates: list[str]) -> list[str]:
    """`NAME@x,y WxH` entries back to board names (names may hold spaces)."""
    return [next(c for c in candidates if entry.startswith(c + "@")) for entry in in_play]


def test_box_window_shots_change_no_pixel_outside_the_stack_areas(built: Built) -> None:
    """The engine's picture of each box window equals the board image except where stacks sit:
    labels, box outlines and the space between boxes stay clear (pixels of the real shots)."""
    r = report(built)
    shots = [s for s in r["shots"]["maps"] if s["map"] in (DEAD_MAP, TRACK_MAP) and s["file"]]
    assert shots
    for shot in shots:
        board = _box_boards_of(built, shot["setup"])[shot["map"]]
        assert shot["zoom"] == 1.0
        drawn = Image.open(Path(r["shots"]["dir"]) / shot["file"]).convert("RGB")
        plain = Image.open(io.BytesIO(built.read("images/" + board.image))).convert("RGB")
        assert drawn.size == plain.size
        changed = ImageChops.difference(drawn, plain).convert("L").point(lambda v: 255 if v else 0)
        mask = ImageDraw.Draw(changed)
        for box in board.boxes:
            mask.rectangle((box.rect[0] + 2, box.label_bottom, box.rect[2] - 2, box.rect[3] - 2), fill=0)
        assert changed.getbbox() is None, (shot["setup"], shot["map"], changed.getbbox())


def _box_boards_of(built: Built, setup_name: str) -> dict:
    """map name -> the box board (layout with its boxes) the named set-up loads there."""
    game = built.game
    scenario = next(s for s in game.scenarios.values() if setup_title(game, s) == setup_name)
    (dead, _), tracks = box_boards(game, default_counter_px(game, PX_PER_HEX), ModuleKeys())
    return {DEAD_MAP: dead, TRACK_MAP: tracks[scenario.id][1]}
