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
    artillery = Fighter(a, "axis", "artillery", 0, support=6)  # its support strength, at most the others' 4 (10.1.8)
    assert fight(typhoon, board, defender, [artillery, beside], roll=4).attack == 8
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


# ------------------------------------------------------------------ modifiers beyond terrain (issue 44)
def _open_ground(board, count: int = 2):
    """A hex of clear terrain only, no feature, no hexside feature on it, and `count` hexes like it."""
    labels = board.grid.labels()
    sided = {h for s in board.hexsides for h in s.side.hexes()}
    plain = [
        h
        for h in sorted(labels, key=lambda h: labels[h])
        if h not in sided and board.hexes[h].terrain == ("clear",) and not board.hexes[h].features
    ]
    return [labels[h] for h in plain[len(plain) // 2 : len(plain) // 2 + count + 1]]


def _hex_of(board, terrain: str) -> str:
    labels = board.grid.labels()
    return labels[sorted(board.hexes_with_terrain(terrain), key=lambda h: labels[h])[0]]


def test_bfm_mud_turns_halve_the_attack_keeping_fractions_and_name_mud_when_the_turn_is_not_known(games) -> None:
    """BfM Mud Turns: turns 3 and 4 halve every attacker (17 printed -> 8 1/2), never the defender."""
    bfm = games["bfm"]
    board = bfm.maps["main"]
    d, a1, a2 = _open_ground(board)
    soviet = [Fighter(d, "soviet", "infantry", 4)]
    german = [Fighter(a1, "german", "infantry", 8), Fighter(a2, "german", "panzer", 9)]
    mud = fight(bfm, board, soviet, german, roll=1, scenario="campaign", turn=3)
    assert (mud.weather, mud.attack, mud.defence, mud.column_label) == ("mud", 8.5, 4, "2:1")
    clear = fight(bfm, board, soviet, german, roll=1, scenario="campaign", turn=2)
    assert (clear.weather, clear.attack, clear.column_label) == ("clear", 17, "4:1")
    assert fight(bfm, board, soviet, german, roll=1, weather="mud").attack == 8.5
    unknown = fight(bfm, board, soviet, german, roll=1)
    assert unknown.attack == 17 and unknown.not_applied == ("mud (Mud Turns): the weather is not known",)


def test_bfm_tank_unit_among_the_attackers_shifts_one_column_right(games) -> None:
    """What Happens Next: the Soviet Tank unit gets one column shift right when attacking (with others too)."""
    bfm = games["bfm"]
    board = bfm.maps["main"]
    d, a1, a2 = _open_ground(board)
    german = [Fighter(d, "german", "infantry", 4)]
    army = Fighter(a1, "soviet", "infantry", 8)
    tank = Fighter(a2, "soviet", "tank", 8)
    assert fight(bfm, board, german, [army, tank], roll=1, weather="clear").column_label == "5:1"
    assert fight(bfm, board, german, [army], roll=1, weather="clear").column_label == "2:1"


def test_1941_armor_bonus_only_for_armor_alone_against_infantry_in_clear_and_never_in_mud_or_snow(games) -> None:
    """1941 9.1 B-F, 13.3 D, 13.5 F."""
    g = games["1941"]
    board = g.maps["main"]
    d, a1, a2 = _open_ground(board)
    infantry = [Fighter(d, "soviet", "infantry", 3)]
    armor = Fighter(a1, "axis", "armor", 6)
    assert fight(g, board, infantry, [armor], roll=1, weather="clear").column_label == "3:1"  # 2:1 + 1
    assert (
        fight(g, board, infantry, [armor, Fighter(a2, "axis", "infantry", 3)], roll=1, weather="clear").column_label
        == "3:1"
    )  # 9:3, no bonus
    tanks = [Fighter(d, "soviet", "infantry", 3), Fighter(d, "soviet", "armor", 3)]
    assert fight(g, board, tanks, [armor], roll=1, weather="clear").column_label == "1:1"  # a defending armor unit
    forest = _hex_of(board, "forest")
    assert (
        fight(g, board, [Fighter(forest, "soviet", "infantry", 3)], [armor], roll=1, weather="clear").column_label
        == "1:1"
    )
    assert fight(g, board, infantry, [armor], roll=1, weather="mud").column_label == "2:1"
    assert fight(g, board, infantry, [armor], roll=1, weather="frost").column_label == "3:1"


def test_1941_snow_halves_axis_attackers_rounding_up_and_freezes_rivers(games) -> None:
    """1941 13.5 D (7.5 A: halved total rounded up), 13.4 B / 13.5 B: a frozen river has no effect on combat."""
    g = games["1941"]
    board = g.maps["main"]
    d, a1, a2 = _open_ground(board)
    soviet = [Fighter(d, "soviet", "infantry", 2)]
    axis = [Fighter(a1, "axis", "infantry", 5), Fighter(a2, "axis", "infantry", 4)]
    assert fight(g, board, soviet, axis, roll=1, weather="snow").attack == 5  # 9 / 2 = 4.5 -> 5
    assert (
        fight(
            g,
            board,
            [Fighter(d, "axis", "infantry", 2)],
            [Fighter(a1, "soviet", "infantry", 9)],
            roll=1,
            weather="snow",
        ).attack
        == 9
    )
    river = next(s for s in board.hexsides if s.type == "river")
    a, b = (board.label(h) for h in river.side)
    across = ([Fighter(b, "soviet", "infantry", 3)], [Fighter(a, "axis", "infantry", 6)])
    assert "river" in [e.name for e in fight(g, board, *across, roll=1, weather="clear").shifts]
    assert "river" not in [e.name for e in fight(g, board, *across, roll=1, weather="frost").shifts]


def test_what_the_players_apply_is_named_with_its_rule_and_the_result_still_given(games) -> None:
    """1941 8.3 B supply and 10.2 air points in every battle, 12.0 B only with a shock army attacking."""
    g = games["1941"]
    board = g.maps["main"]
    d, a1, _ = _open_ground(board)
    battle = fight(
        g, board, [Fighter(d, "axis", "infantry", 3)], [Fighter(a1, "soviet", "infantry", 6)], 4, weather="clear"
    )
    assert battle.result is not None
    assert [t.split(" (")[0] for t in battle.not_applied] == ["supply", "air points"]
    assert battle.not_applied[0].startswith("supply (8.3 B, D): halve")
    shock = fight(
        g, board, [Fighter(d, "axis", "infantry", 3)], [Fighter(a1, "soviet", "shock", 6)], 4, weather="clear"
    )
    assert "shock army" in [t.split(" (")[0] for t in shock.not_applied]


def test_typhoon_step_loss_markers_lower_attacker_and_defender_and_status_markers_shift_the_roll(games) -> None:
    """Typhoon 8.5.3 (-2 attack and defence, attacking or defending), 6.3.5 b (-1), 8.8.2 (+1), 12.1.8 (+1 for a
    completed strongpoint, none under construction)."""
    t = games["typhoon"]
    board = t.maps["M"]
    d, a1, a2 = _open_ground(board)
    defender = [Fighter(d, "soviet", "infantry", 6)]
    attackers = [Fighter(a1, "axis", "infantry", 8), Fighter(a2, "axis", "infantry", 7)]
    plain = fight(t, board, defender, attackers, roll=5, weather="mud")
    assert (plain.attack, plain.defence, plain.drm) == (15, 6, 0)
    marked = fight(
        t, board, defender, attackers, roll=5, weather="mud", markers={a1: ["mk-step-loss"], d: ["mk-step-loss"]}
    )
    assert (marked.attack, marked.defence) == (13, 4)
    assert fight(t, board, defender, attackers, roll=5, weather="mud", markers={d: ["mk-oos"]}).drm == -1
    assert fight(t, board, defender, attackers, roll=5, weather="mud", markers={a1: ["mk-no-retreat"]}).drm == 0
    assert fight(t, board, defender, attackers, roll=5, weather="mud", markers={d: ["mk-no-retreat"]}).drm == 1
    assert fight(t, board, defender, attackers, roll=5, weather="mud", markers={d: ["sov-strongpoint"]}).drm == 1
    assert (
        fight(t, board, defender, attackers, roll=5, weather="mud", markers={d: ["sov-strongpoint:reduced"]}).drm == 0
    )


def test_typhoon_artillery_supports_with_its_support_strength_capped_and_in_a_stack_only(games) -> None:
    """Typhoon 10.1, 10.1.8 (no more than the force supported), 10.2.1 (alone: its defence), 10.2.2."""
    t = games["typhoon"]
    board = t.maps["M"]
    d, a1, a2 = _open_ground(board)
    infantry = Fighter(a1, "axis", "infantry", 4)
    art = Fighter(a2, "axis", "artillery", 0, support=5)
    assert fight(t, board, [Fighter(d, "soviet", "infantry", 3)], [infantry, art], 5, weather="mud").attack == 8
    assert (
        fight(
            t, board, [Fighter(d, "soviet", "infantry", 3)], [replace_strength(infantry, 6), art], 5, weather="mud"
        ).attack
        == 11
    )
    stacked = [Fighter(d, "soviet", "infantry", 3), Fighter(d, "soviet", "artillery", 2, support=4)]
    assert fight(t, board, stacked, [infantry], 5, weather="mud").defence == 6  # 3 + 4 capped at 3
    assert fight(t, board, stacked[1:], [infantry], 5, weather="mud").defence == 2  # alone: its defence


def test_typhoon_combined_arms_needs_the_weather_armor_with_motorized_infantry_and_open_ground(games) -> None:
    """Typhoon 9.1.1-9.1.4: -1 DRM; named, not applied, while the weather (rolled, 5.1.2) is not known."""
    t = games["typhoon"]
    board = t.maps["M"]
    d, a1, a2 = _open_ground(board)
    defender = [Fighter(d, "soviet", "infantry", 6)]
    force = [Fighter(a1, "axis", "armor", 8), Fighter(a2, "axis", "motorized-infantry", 4)]
    assert fight(t, board, defender, force, 5, weather="dry").drm == -1
    assert fight(t, board, defender, force, 5, weather="mud").drm == 0
    assert fight(t, board, defender, force[:1], 5, weather="dry").drm == 0
    assert fight(t, board, [*defender, Fighter(d, "soviet", "armor", 4)], force, 5, weather="dry").drm == 0
    unknown = fight(t, board, defender, force, 5, turn=1)
    assert unknown.drm == 0 and "combined arms (9.1.1-9.1.4): the weather is rolled (5.1.2)" in unknown.not_applied
    woods = next(lab for h, lab in board.grid.labels().items() if "woods" in board.hexes[h].terrain)
    assert fight(t, board, [Fighter(woods, "soviet", "infantry", 6)], force, 5, weather="dry").drm == 0


def test_typhoon_armor_attacking_a_city_is_halved_once_even_across_a_major_river(games) -> None:
    """Typhoon 9.1.3: armour halved against a city, not in addition to 8.3.6 a or b; infantry not halved."""
    t = games["typhoon"]
    board = t.maps["M"]
    city = _hex_of(board, "city")
    defender = [Fighter(city, "soviet", "infantry", 2)]
    far = _open_ground(board)[0]
    assert fight(t, board, defender, [Fighter(far, "axis", "armor", 8)], 5, weather="dry").attack == 4
    assert fight(t, board, defender, [Fighter(far, "axis", "infantry", 8)], 5, weather="dry").attack == 8
    swamp_city = [Fighter("M2524", "soviet", "infantry", 2)]  # a city next to a swamp on map M
    assert "swamp" in board.hexes[next(h for h, lab in board.grid.labels().items() if lab == "M2425")].terrain
    assert fight(t, board, swamp_city, [Fighter("M2425", "axis", "armor", 8)], 5, weather="dry").attack == 4
    assert fight(t, board, swamp_city, [Fighter("M2425", "axis", "infantry", 8)], 5, weather="dry").attack == 4
    south = t.maps["P"]  # a city behind a major river on map P: the armour across it is halved once
    assert (
        fight(
            t,
            south,
            [Fighter("P4121", "soviet", "infantry", 2)],
            [Fighter("P4021", "axis", "armor", 8)],
            5,
            weather="dry",
        ).attack
        == 4
    )


@pytest.mark.parametrize("game_id", ["bfm", "bfm-art", "1941", "typhoon"])
def test_every_bundled_modifier_cites_its_rule_and_every_turn_has_a_weather_the_modifiers_know(games, game_id) -> None:
    """Each game's data: a rule for every modifier; each scenario turn's weather one of `combat.weathers`
    (a weather outside them would leave the weather modifiers named as not known in every battle)."""
    game = games[game_id]
    assert all(e.rule for e in game.combat.effects), [e.name for e in game.combat.effects if not e.rule]
    turns = {t.weather for s in game.scenarios.values() for t in s.turns}
    assert turns <= set(game.combat.weathers), turns - set(game.combat.weathers)


def test_the_bundled_games_state_their_rulebooks_modifiers(games) -> None:
    """Issue 44: the modifiers the three rulebooks state, by name, in the data."""
    names = {g: {e.name for e in games[g].combat.effects} for g in ("bfm", "1941", "typhoon")}
    assert {"mud", "Tank unit"} <= names["bfm"]
    assert {"snow", "armor bonus", "supply", "shock army", "air points", "river", "swamp"} <= names["1941"]
    assert {
        "combined arms",
        "panzer division integrity",
        "artillery support",
        "artillery in the stack",
        "step loss",
        "defender out of supply",
        "no retreat",
        "strongpoint",
        "armor into a city",
        "attack supply",
        "close air support",
    } <= names["typhoon"]
