"""The board's uses and their indexes, made in one pass as a set-up is read: on every scenario of the
bundled games they must say what grouping the uses afresh, and reading each counter, says."""

from __future__ import annotations

import pytest
from rules_support import FIXTURES, ROOT

from authoring.load import discover, load_game
from authoring.rules.board import build_board


def _scenarios():
    """Every scenario of the bundled games and of the rule fixtures (whose set-ups break the rules)."""
    for files in (*discover(ROOT), *discover(FIXTURES)):
        game = load_game(files).game
        for scenario in game.scenarios.values():
            yield pytest.param((game, scenario), id=f"{game.id}-{scenario.id}")


@pytest.fixture(scope="module", params=list(_scenarios()))
def board(request):
    game, scenario = request.param
    return build_board(game, scenario, stacking=game.stacking)


def test_each_hex_holds_its_set_up_uses_in_order(board) -> None:
    expected: dict = {}
    for u in board.uses:
        if u.kind == "setup" and u.hex is not None:
            expected.setdefault(u.hex, []).append(u)
    assert {h: list(v) for h, v in board.by_cell.items()} == expected
    assert all(type(v) is tuple for v in board.by_cell.values())


def test_each_unit_has_its_uses_in_order(board) -> None:
    expected: dict = {}
    for u in board.uses:
        expected.setdefault(u.unit, []).append(u)
    assert {k: list(v) for k, v in board.by_unit.items()} == expected
    assert board.by_unit is board.by_unit  # made once, when first asked for


def test_a_use_carries_its_counter_owner_and_whether_it_counts(board) -> None:
    counters = board.game.counters
    for u in board.uses:
        c = counters.get(u.unit)
        assert u.counter is c
        assert u.owner == ((c.side if c is not None and c.side else u.side) or "") == board.side_of(u)
        assert u.counts == (c is not None and not c.marker)
        if c is not None:
            assert u.unit is c.id  # one interned id: looked up without comparing text


def test_the_stacked_hexes_and_the_strangers_are_those_a_full_pass_finds(board) -> None:
    """The always-on checks read only these; a pass over every use must find the same."""
    stacked = [h for h, uses in board.by_cell.items() if len(uses) > 1]
    assert sorted(board.stacked) == sorted(stacked) and len(set(board.stacked)) == len(board.stacked)
    assert list(board.strangers) == [u for u in board.uses if u.owner != u.side]


def test_a_hex_holding_one_unit_is_checked_when_its_own_points_break_the_limit(fixture_games) -> None:
    """Stacking skips hexes holding one unit unless a counter's own points exceed the limit."""
    from dataclasses import replace

    from authoring.model.game import frozen_map
    from authoring.rules import check_scenario

    game = fixture_games["pts"].game
    scenario = game.scenarios["points-illegal"]
    first = scenario.setup[0]  # 0101: ax-1 (4 points), ax-hq (0), ax-2 (6)
    alone = replace(scenario, setup=(replace(first, units=("ax-2",), unit_locs=first.unit_locs[2:]),))

    def stack_findings(limit: float) -> list[str]:
        spec = replace(game.stacking, params=frozen_map({**game.stacking.params, "limit": limit}))
        return [
            f"{d.code} {d.message}"
            for d in check_scenario(replace(game, stacking=spec), alone)
            if d.code.startswith("HW-STACK")
        ]

    assert stack_findings(5) == ["HW-STACK-002 6 stacking points in hex 0101, limit is 5"]
    assert stack_findings(6) == []
