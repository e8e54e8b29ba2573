"""`parse_on` reads each code once per board memo, per set of unit-only patterns that select the counter:
what it gives every counter of every bundled game, in either order, is what `parse` gives that counter."""

from __future__ import annotations

import pytest
from rules_support import ROOT

from authoring.load import load_project
from authoring.rules.board import build_board
from authoring.rules.codes import _selective_specs, parse, parse_on


@pytest.fixture(scope="module")
def games() -> dict:
    _, results = load_project(ROOT)
    return {r.game.id: r.game for r in results if r.game is not None}


@pytest.mark.parametrize("gid", ["typhoon", "1941"])
def test_memo_reads_each_counters_code_as_parse_does(games, gid):
    game = games[gid]
    scen = next(iter(game.scenarios.values()))
    coded = [c for c in game.counters.values() if c.setup_code]
    assert coded
    for order in (coded, coded[::-1]):
        board = build_board(game, scen)
        for c in order:
            for side in (c.side, None):
                want = parse(game, c.setup_code, side, c)
                got = parse_on(board, c.setup_code, side, c)
                assert (got is None) == (want is None), (c.id, c.setup_code)
                if want is not None:
                    assert (got.code, got.meaning, dict(got.spec), got.groups) == (
                        want.code,
                        want.meaning,
                        dict(want.spec),
                        want.groups,
                    ), c.id
        assert len(board.shared["codes"]) < 2 * len(coded)


def test_typhoon_has_a_pattern_for_some_units_only(games):
    """The case the memo's key is for (Typhoon 14.1.4 f: the Moscow supply unit's code)."""
    assert _selective_specs(games["typhoon"])
