"""The reference combat computation on the bundled games' data: the rulebooks' own worked examples."""

from __future__ import annotations

import dataclasses

import pytest
from rules_support import ROOT

from authoring.load import load_project
from authoring.rules.combat import Fighter, applies, base_column, fight, odds_columns, resolve, strength


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


def replace_strength(unit: Fighter, strength: float) -> Fighter:
    return dataclasses.replace(unit, strength=strength)


def _major_river_side(board):
    """(attacker hex, defender hex, another neighbour of the defender not across a major river) on `board`."""
    labels = board.grid.labels()
    rivers = {frozenset(s.side.hexes()) for s in board.hexsides if s.type == "major-river"}
    for side in sorted(rivers, key=lambda s: sorted(labels[h] for h in s)):
        a, d = sorted(side, key=lambda h: labels[h])
        other = next((n for n in d.neighbours() if n in labels and frozenset((n, d)) not in rivers and n != a), None)
        if other is not None:
            return labels[a], labels[d], labels[other]
    raise AssertionError("no major river on the map")


def test_a_major_river_halves_only_the_attackers_across_it_and_never_artillery(games) -> None:
    """Typhoon 8.3.6 b: each unit across is halved whatever the others do; 10.1.7: artillery is not; 8.3.2:
    the halved strengths keep their fractions."""
    typhoon = games["typhoon"]
    board = typhoon.maps["M"]
    a, d, other = _major_river_side(board)
    defender = [Fighter(d, "soviet", "infantry", 2)]
    across = Fighter(a, "axis", "infantry", 7)
    beside = Fighter(other, "axis", "armor", 4)
    assert fight(typhoon, board, defender, [across, beside], roll=4).attack == 7.5
    assert fight(typhoon, board, defender, [across], roll=4).attack == 3.5
    assert fight(typhoon, board, defender, [replace_strength(across, 1)], roll=4).attack == 1  # never below 1 (8.3.2)
    assert fight(typhoon, board, defender, [replace_strength(across, 0)], roll=4).attack == 0  # nor raised to it
    assert fight(typhoon, board, defender, [Fighter(a, "axis", "artillery", 6), beside], roll=4).attack == 10
    battle = fight(typhoon, board, defender, [across, beside], roll=4)
    assert battle.result is not None and "major river attack x0.5" in [e.label() for e in battle.shifts]


def test_a_swamp_halves_only_the_attackers_in_it(games) -> None:
    """Typhoon 8.3.6 a: an attacker out of a swamp is halved, one beside it attacking the same hex is not."""
    typhoon = games["typhoon"]
    board = typhoon.maps["M"]
    labels = board.grid.labels()
    swamp = set(board.hexes_with_terrain("swamp"))
    h, d = next(
        (h, d) for h in sorted(swamp, key=lambda h: labels[h]) for d in h.neighbours() if d in labels and d not in swamp
    )
    other = next(n for n in d.neighbours() if n in labels and n not in swamp and n != h)
    defender = [Fighter(labels[d], "axis", "infantry", 3)]
    attackers = [Fighter(labels[h], "soviet", "infantry", 5), Fighter(labels[other], "soviet", "cavalry", 2)]
    assert fight(typhoon, board, defender, attackers, roll=1).attack == 4.5
    assert fight(typhoon, board, defender, attackers[1:], roll=1).attack == 2


def test_fortifications_double_only_the_infantry_type_defenders(games) -> None:
    """1941 11.0 A, D, E: in a fortifications hex a Soviet infantry unit doubles, a tank unit stacked with it
    does not; an Axis stack there gets nothing."""
    g = games["1941"]
    board = g.maps["main"]
    fort = board.grid.labels()[board.hexes_with_feature("fortification")[0]]
    attacker = [Fighter("0000", "axis", "infantry", 9)]
    stack = [Fighter(fort, "soviet", "infantry", 4), Fighter(fort, "soviet", "armor", 3)]
    assert fight(g, board, stack, attacker, roll=1).defence == 11
    axis = [Fighter(fort, "axis", "infantry", 4), Fighter(fort, "axis", "armor", 3)]
    assert fight(g, board, axis, [Fighter("0000", "soviet", "infantry", 9)], roll=1).defence == 7


def test_a_halved_total_is_rounded_once_as_the_game_says(games) -> None:
    """1941 7.5 A, C: three 5s halved are 7.5, rounded up to 8 (with a whole 2: 10); Typhoon keeps 7.5."""
    assert (
        strength(games["1941"].combat, [0.5, 0.5, 0.5, 1], [Fighter("", "", "", 5)] * 3 + [Fighter("", "", "", 2)])
        == 10
    )
    assert strength(games["typhoon"].combat, [0.5] * 3, [Fighter("", "", "", 5)] * 3) == 7.5


def test_a_shift_on_each_attacker_across_is_named_but_leaves_the_result_out(games) -> None:
    """The tables cannot say what a column shift for some attackers only does to the battle."""
    typhoon = games["typhoon"]
    each = dataclasses.replace(_effects(typhoon, "river")[0], across="each")
    battle = resolve(typhoon, 10, 5, [each], roll=4)
    assert battle.result is None and battle.column_label == "2-1"
    assert resolve(typhoon, 10, 5, _effects(typhoon, "river"), roll=4).result is not None


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
