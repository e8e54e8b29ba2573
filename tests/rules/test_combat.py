"""The reference combat computation on the bundled games' data: the rulebooks' own worked examples."""

from __future__ import annotations

import pytest
from rules_support import ROOT

from authoring.load import load_project
from authoring.rules.combat import Fighter, applies, base_column, odds_columns, resolve


@pytest.fixture(scope="module")
def games() -> dict:
    _, results = load_project(ROOT)
    return {r.game.id: r.game for r in results if r.game is not None}


def _effects(game, *names):
    return [e for e in game.combat.effects if e.id in names or e.name in names]


def test_bfm_worked_examples_three_to_one_shifted_by_river_and_fortification(games) -> None:
    """BfM Combat example: 15 against 4 is 3:1, one level off for the river and one for the fortification
    (1:1); a 2-strength unit more makes 17:4 = 4:1, the river no longer counts (3:1)."""
    bfm = games["bfm"]
    first = resolve(bfm, 15, 4, _effects(bfm, "river", "fortification"), roll=1)
    assert (bfm.table("crt").columns[1 + first.base], first.column_label, first.result) == ("3:1", "1:1", "DR")
    second = resolve(bfm, 17, 4, _effects(bfm, "fortification"), roll=6)
    assert (second.column_label, second.result) == ("3:1", "DRL")


def test_bfm_odds_above_six_to_one_count_as_six_before_terrain_and_below_one_to_one_have_no_effect(games) -> None:
    bfm = games["bfm"]
    assert resolve(bfm, 30, 4, [], roll=1).column_label == "6:1"
    assert resolve(bfm, 30, 4, _effects(bfm, "forest"), roll=1).column_label == "5:1"  # capped, then shifted
    below = resolve(bfm, 4, 4, _effects(bfm, "forest"), roll=6)
    assert (below.column, below.result) == (None, "no effect")


def test_odds_round_in_the_defenders_favour_to_the_columns_the_crt_has(games) -> None:
    """1941 7.4 D: 23:5 is 4:1. Typhoon 8.4.1 b: 29 to 10 is 2-1 (its 3-2 column lies below)."""
    assert games["1941"].table("crt").columns[1 + base_column(23, 5, odds_columns(games["1941"].table("crt")))] == "4:1"
    typhoon = games["typhoon"].table("crt")
    assert typhoon.columns[1 + base_column(29, 10, odds_columns(typhoon))] == "2-1"
    assert typhoon.columns[1 + base_column(15, 10, odds_columns(typhoon))] == "3-2"
    assert base_column(1, 5, odds_columns(typhoon)) == -1


def test_typhoon_drms_are_capped_and_odds_below_one_to_four_eliminate_the_attackers(games) -> None:
    typhoon = games["typhoon"]
    moscow_axis = next(e for e in typhoon.combat.effects if e.id == "major-city" and e.attacker_side == "axis")
    capped = resolve(typhoon, 20, 10, [moscow_axis, *_effects(typhoon, "river", "fortified line")], roll=5)
    assert (capped.drm, capped.row) == (3, 8)  # +2 +1 +1 limited to +3 (8.4.4)
    assert resolve(typhoon, 1, 5, [], roll=5).result == "e/—"  # 8.4.3


def test_an_effect_on_some_attackers_only_leaves_the_result_out(games) -> None:
    typhoon = games["typhoon"]
    battle = resolve(typhoon, 10, 5, _effects(typhoon, "major river"), roll=4)
    assert battle.result is None and battle.column_label == "2-1"


def test_a_river_counts_only_when_every_attacker_is_across_it(games) -> None:
    bfm = games["bfm"]
    board = bfm.maps["main"]
    river = _effects(bfm, "river")[0]
    soviet = [Fighter("0504", "soviet")]
    assert applies(board, river, soviet, [Fighter("0404", "german"), Fighter("0503", "german")])
    assert not applies(board, river, soviet, [Fighter("0404", "german"), Fighter("0505", "german")])
    fort = _effects(bfm, "fortification")[0]
    assert applies(board, fort, soviet, [Fighter("0404", "german")])
    assert not applies(board, fort, [Fighter("0504", "german")], [Fighter("0404", "soviet")])


def test_a_fortified_line_counts_only_for_axis_attackers_in_the_hexes_it_faces(games) -> None:
    """Typhoon 12.2.1: the line in M0909 points at M0809 (the Axis side)."""
    typhoon = games["typhoon"]
    board = typhoon.maps["M"]
    line = _effects(typhoon, "fortified line")[0]
    assert applies(board, line, [Fighter("M0909", "soviet")], [Fighter("M0809", "axis")])
    assert not applies(board, line, [Fighter("M0809", "soviet")], [Fighter("M0909", "axis")])
    assert not applies(board, line, [Fighter("M0909", "axis")], [Fighter("M0809", "soviet")])
