"""The page's scenario view made as the server makes it (the findings' check and the view reading one
`shared` memo of hex sets and parsed codes) is the view made with nothing shared, for every bundled scenario;
the counters' code meanings and allowed hexes are those `parse` and the hex sets give each counter."""

from __future__ import annotations

import pytest
from serve_support import ROOT

from authoring.load import load_project
from authoring.rules import check_scenario
from authoring.rules.board import build_board
from authoring.rules.codes import code_target, parse
from authoring.serve.setupview import scenario_units, scenario_view


@pytest.fixture(scope="module")
def games() -> dict:
    _, results = load_project(ROOT)
    return {r.game.id: r.game for r in results if r.game is not None}


@pytest.mark.parametrize("gid", ["bfm", "typhoon", "1941"])
def test_view_with_the_checks_memo_is_the_view_without(games, gid):
    game = games[gid]
    for scen in game.scenarios.values():
        alone = scenario_view(game, scen, check_scenario(game, scen), ROOT)
        shared: dict = {}
        assert scenario_view(game, scen, check_scenario(game, scen, shared=shared), ROOT, None, shared) == alone
        assert any(k[0] == "hexsets" for k in shared if isinstance(k, tuple))
        board = build_board(game, scen)
        units, targets = alone["counters"], alone["targets"]
        assert units and (targets or gid == "bfm")  # bfm's counters carry no set-up codes
        for uid, side in scenario_units(scen):
            c = game.counters.get(uid)
            if c is None or not c.setup_code:
                continue
            m = parse(game, c.setup_code, c.side or side, c)
            assert units[uid]["meaning"] == (m.text() if m else "")
            allowed = code_target(board, m) if m is not None else None
            got = units[uid]["allowed"]
            assert (got is None) == (allowed is None)
            if allowed is not None:
                assert targets[got] == sorted(board.label(h) for h in allowed)
        arrivals = alone["schedule"]["reinforcements"]
        assert all(r["hexes"] == sorted(r["hexes"]) for r in arrivals)
