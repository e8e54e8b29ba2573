"""Every bundled game's module loaded by the real VASSAL engine (vassal-check)."""
from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from authoring.rules.board import build_board
from authoring.vassal.boards import hex_position
from authoring.vassal.compile import setup_title
from authoring.vassal.pieces import MAIN_MAP

from conftest import Built
from test_numbering import all_boards_of, plans_of

CHECKER = Path(__file__).resolve().parents[2] / ".." / "shared" / "tools" / "vassal-check" / "vassal-check"

pytestmark = pytest.mark.skipif(
    not CHECKER.exists(), reason="../shared/tools/vassal-check not found: the real-engine check cannot run")

_REPORTS: dict[Path, dict] = {}


def report(built: Built) -> dict:
    if built.path not in _REPORTS:
        run = subprocess.run([str(CHECKER), str(built.path), "--pieces"], capture_output=True, text=True, timeout=600)
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
        assert Counter(setup["per_map"][MAIN_MAP]["pieces_per_board"]) == per_board
        on_map = [p for p in setup["pieces"] if p["map"] == MAIN_MAP]
        assert Counter(by_label[p["location"]] for p in on_map) == hexes
