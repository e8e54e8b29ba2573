"""Issue 16 on the bundled games: arrival hexes, per-side codes, every unit accounted for, card states,
per-turn and per-scenario values, options that override, steps by condition, stacking per side.

Each kind has a legal and an illegal case per game that has the rule; each illegal set-up passed before.
Findings are pinned as (code, rule cited, message)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from authoring.model import SetupCard
from authoring.model.scenario import Placement
from authoring.rules.engine import check_game, check_scenario
from authoring.rules.hexsets import HexSets


@pytest.fixture(scope="module")
def g1941(r1941):
    return r1941.game


@pytest.fixture(scope="module")
def typhoon(rtyphoon):
    return rtyphoon.game


@pytest.fixture(scope="module")
def bfm(rbfm):
    return rbfm.game


def found(game, scenario, **kw):
    return [(d.code, d.rule, d.message) for d in check_scenario(game, scenario, **kw)]


def arrive(scenario, unit: str, at: str):
    """The scenario with `unit`'s reinforcement entry arriving at `at`."""
    return replace(
        scenario, reinforcements=tuple(replace(r, at=at) if unit in r.units else r for r in scenario.reinforcements)
    )


def without(scenario, unit: str):
    """The scenario with `unit` taken out of its set-up, boxes and pools."""
    setup = tuple(replace(p, units=tuple(u for u in p.units if u != unit)) for p in scenario.setup)
    boxes = tuple(replace(b, units=tuple(u for u in b.units if u != unit)) for b in scenario.off_map)
    pools = tuple(replace(p, units=tuple(u for u in p.units if u != unit)) for p in scenario.pools)
    return replace(scenario, setup=tuple(p for p in setup if p.units), off_map=boxes, pools=pools)


def moved(game, scenario, unit: str, label: str):
    """The scenario with `unit` set up alone in hex `label`."""
    side = next(p.side for p in scenario.setup if unit in p.units)
    h = next(m.grid.label_to_hex(label) for m in game.maps.values() if m.grid.label_to_hex(label) is not None)
    rest = without(scenario, unit)
    return replace(rest, setup=rest.setup + (Placement(side, label, h, (unit,)),))


def turn_values(scenario, turn: int, **values):
    return replace(
        scenario,
        turns=tuple(replace(t, values={**t.values, **values}) if t.turn == turn else t for t in scenario.turns),
    )


# --- 1. where reinforcements may arrive --------------------------------------------------------------------------


def test_1941_arrivals_legal(g1941):
    for s in g1941.scenarios.values():
        assert found(g1941, s) == []


def test_1941_axis_arrival_on_the_wrong_edge_or_at_sea(g1941):
    camp = g1941.scenarios["campaign"]
    assert found(g1941, arrive(camp, "ger-42", "east-edge")) == [
        (
            "HW-SCHED-008",
            "1941 14.1.1 A",
            "ger-42 (turn 4) enters at 'east-edge', which reaches hex 0101 (clear), where they may not enter",
        )
    ]
    assert found(g1941, arrive(camp, "ger-42", "0528")) == [
        (
            "HW-SCHED-008",
            "1941 14.1.1 A",
            "ger-42 (turn 4) enters at '0528', which reaches hex 0528 (sea), where they may not enter",
        )
    ]


def test_1941_soviet_arrival_at_a_city_that_is_not_major(g1941):
    camp = g1941.scenarios["campaign"]
    assert found(g1941, arrive(camp, "sov-38", "0103")) == [
        (
            "HW-SCHED-008",
            "1941 14.1.2",
            "sov-38, sov-40, sov-43, sov-48 (turn 4) enters at '0103', which reaches "
            "hex 0103 (clear; city), where they may not enter",
        )
    ]


def test_1941_west_edge_has_no_all_sea_hex(g1941):
    sets = HexSets(g1941.hex_sets, (g1941.maps["main"],))
    m = g1941.maps["main"]
    edge = set(m.grid.edge_hexes("south"))
    sea = {h for h in edge if "sea" in m.hexes[h].terrain}
    assert sea and not sea & sets.resolve("west-edge") and sets.resolve("west-edge") == edge - sea
    assert not sea & sets.resolve("axis-entry")


def test_bfm_soviet_arrival_legal_and_on_the_wrong_edge(bfm):
    seven = bfm.scenarios["seven-turn"]
    assert found(bfm, arrive(seven, "sov-1shock", "1405")) == []  # Ryazan, a city
    assert found(bfm, arrive(seven, "sov-1shock", "west-edge")) == [
        (
            "HW-SCHED-008",
            "BfM Replacements",
            "sov-1shock (turn 4) enters at 'west-edge', which reaches hex 0101 (clear), where they may not enter",
        )
    ]


def test_typhoon_pools_enter_by_the_east_edge(typhoon):
    camp = typhoon.scenarios["campaign"]
    assert found(typhoon, camp) == []
    no_entry = replace(camp, pools=tuple(replace(p, at="") if p.id == "special-1" else p for p in camp.pools))
    assert found(typhoon, no_entry) == [("HW-SCHED-008", "Typhoon 14.1.5", "pool special-1 states no entry location")]
    west = replace(camp, pools=tuple(replace(p, at="w-edge") if p.id == "special-2" else p for p in camp.pools))
    assert found(typhoon, west) == [
        (
            "HW-SCHED-008",
            "Typhoon 14.1.5",
            "pool special-2 enters at 'w-edge', which reaches hex N0101 (clear), where they may not enter",
        )
    ]


def test_typhoon_special_pools_are_nine_armies_on_turns_29_to_32(typhoon):
    special = [p for p in typhoon.scenarios["campaign"].pools if p.id.startswith("special-")]
    assert len(special) == 9 and {p.available for p in special} == {29, 30, 31, 32}
    assert {p.at for p in special} == {"e-edge"}


# --- 2. codes are per side ---------------------------------------------------------------------------------------


def test_typhoon_s_code_means_the_axis_hexes_for_axis_units(typhoon):
    camp = typhoon.scenarios["campaign"]
    assert found(typhoon, arrive(camp, "ger-19pz-pz", "s-axis")) == []
    assert found(typhoon, arrive(camp, "ger-19pz-pz", "s-soviet")) == [
        (
            "HW-CODE-002",
            "Typhoon 14.1.3 b",
            "ger-19pz-pz's code 's' says arrive in hex set s-axis, but it arrives on turn 5 at s-soviet",
        )
    ]


def test_typhoon_c_code_means_a_major_city_for_soviet_units(typhoon):
    camp = typhoon.scenarios["campaign"]
    assert found(typhoon, arrive(camp, "sov-mil-7", "major-cities")) == []
    assert found(typhoon, arrive(camp, "sov-mil-7", "city-hexes")) == [
        (
            "HW-CODE-002",
            "Typhoon 14.1.4 c",
            "sov-mil-7's code 'c' says arrive in hex set major-cities, but it arrives on turn 2 at city-hexes",
        )
    ]
    assert found(typhoon, arrive(camp, "ger-19pz-rc", "city-hexes")) == []  # Axis c: any city


# --- 3. every unit accounted for ---------------------------------------------------------------------------------


def test_1941_unit_with_a_set_up_code_left_out(g1941):
    camp = g1941.scenarios["campaign"]
    assert found(g1941, without(camp, "ger-1")) == [
        (
            "HW-PLACE-013",
            "1941 14.1",
            "ger-1 is on no hex, in no box, pool or schedule; its code '2324' says set up in hex 2324",
        )
    ]
    later = replace(camp, reinforcements=tuple(r for r in camp.reinforcements if "ger-42" not in r.units))
    assert found(g1941, later) == [
        (
            "HW-PLACE-013",
            "1941 14.1",
            "ger-42 is on no hex, in no box, pool or schedule; its code '4' says arrive on turn 4",
        )
    ]


def test_typhoon_unit_left_out_of_the_map_a_box_or_a_pool(typhoon):
    camp = typhoon.scenarios["campaign"]
    assert found(typhoon, without(camp, "ger-air-f1")) == [
        (
            "HW-PLACE-013",
            "Typhoon 14.1",
            "ger-air-f1 is on no hex, in no box, pool or schedule; its code 'R' says start in off-map box ready",
        )
    ]
    assert found(typhoon, without(camp, "sov-91rd")) == [
        (
            "HW-PLACE-013",
            "Typhoon 14.1",
            "sov-91rd is on no hex, in no box, pool or schedule; its code 'SR1' says start in pool special-1",
        )
    ]


def _card(scenario, side: str, drop: str = "", state: tuple[str, str] | None = None) -> SetupCard:
    entries = []
    for p in scenario.setup:
        if p.side != side:
            continue
        units = tuple(u for u in p.units if u != drop)
        if units:
            written = state[1] if state and state[0] in units else p.state
            entries.append(replace(p, units=units, state=written))
    return SetupCard(tuple(entries), side=side, scenario=scenario.id, game="typhoon", path="card.yaml")


def test_typhoon_card_that_lists_only_some_units(typhoon):
    camp = typhoon.scenarios["campaign"]
    assert found(typhoon, camp, card=_card(camp, "axis")) == []
    assert found(typhoon, camp, card=_card(camp, "axis", drop="ger-15id")) == [
        (
            "HW-PLACE-013",
            "Typhoon (order of battle)",
            "ger-15id is on no hex, in no box, pool or schedule; the scenario sets it up in hex N0603",
        )
    ]


def test_bfm_army_left_out_of_the_replacement_pool(bfm):
    camp = bfm.scenarios["campaign"]
    assert found(bfm, without(camp, "sov-10")) == [
        (
            "HW-PLACE-013",
            "BfM Starting the Game",
            "sov-10 is on no hex, in no box, pool or schedule; the order of battle lists it",
        )
    ]


def test_bfm_unit_off_its_cross_is_one_finding(bfm):
    """An empty cross stands for the corps left out: HW-PLACE-004 only, no echo."""
    seven = bfm.scenarios["seven-turn"]
    corps = next(u for p in seven.setup if p.side == "german" for u in p.units)
    assert [c for c, _, _ in found(bfm, without(seven, corps))] == ["HW-PLACE-004"]


# --- 4. strength states on cards ---------------------------------------------------------------------------------


def test_typhoon_card_state_other_than_the_scenarios(typhoon):
    camp = typhoon.scenarios["campaign"]
    assert found(typhoon, camp, card=_card(camp, "soviet")) == []
    assert found(typhoon, camp, card=_card(camp, "soviet", state=("sov-1rd", "reduced"))) == [
        (
            "HW-STATE-003",
            "Typhoon (scenario set-up)",
            "sov-1rd starts at state 'reduced', but the scenario sets it up at 'full'",
        )
    ]


# --- 5. per-turn values ------------------------------------------------------------------------------------------


def test_bfm_replacement_points_per_turn(bfm):
    camp = bfm.scenarios["campaign"]
    assert found(bfm, camp) == []
    assert found(bfm, turn_values(camp, 1, german_replacements=1)) == [
        ("HW-VALUE-001", "BfM Starting the Game", "turn 1 gives german_replacements 1, but it must equal 0")
    ]
    assert found(bfm, turn_values(camp, 8, soviet_replacements=5)) == [
        (
            "HW-VALUE-001",
            "BfM What Happens Next: Replacements",
            "turn 8 gives soviet_replacements 5, but it must equal 2",
        )
    ]


def test_1941_soviet_replacements_from_turn_3(g1941):
    camp = g1941.scenarios["campaign"]
    assert found(g1941, turn_values(camp, 1, soviet_replacements="4 infantry-type")) == [
        ("HW-VALUE-001", "1941 14.2.1", "turn 1 gives soviet_replacements '4 infantry-type', but it must be absent")
    ]
    gone = replace(
        camp,
        turns=tuple(
            replace(t, values={k: v for k, v in t.values.items() if k != "soviet_replacements"}) if t.turn == 4 else t
            for t in camp.turns
        ),
    )
    assert found(g1941, gone) == [
        ("HW-VALUE-001", "1941 14.2.1", "turn 4 gives no soviet_replacements, but it must be stated")
    ]


# --- 6. options that free a unit override fixed placements -------------------------------------------------------


def test_1941_free_deployment_frees_the_errata_placement(g1941):
    camp = g1941.scenarios["campaign"]
    free = moved(g1941, camp, "ger-46pz", "1426")
    assert found(g1941, free, options=["axis-free-deployment"]) == []
    assert found(g1941, free) == [
        ("HW-PLACE-008", "1941 1.2.2", "ger-46pz must start in hex 1825 but starts in hex 1426 (clear)")
    ]


def test_1941_free_deployment_out_of_greater_germany_is_one_finding(g1941):
    """The option's 20.6.2 rule answers for the 46th Panzer Corps; the errata placement it replaces is off."""
    camp = g1941.scenarios["campaign"]
    assert found(g1941, moved(g1941, camp, "ger-46pz", "3025"), options=["axis-free-deployment"]) == [
        ("HW-PLACE-006", "1941 20.6.2", "ger-46pz starts in hex 3025 (clear), outside hex set greater-germany")
    ]


# --- 7. steps by condition; check and validate agree ---------------------------------------------------------------


def _with_counter(game, cid: str, **changes):
    counters = dict(game.counters)
    counters[cid] = replace(counters[cid], **changes)
    return replace(game, counters=counters)


def test_typhoon_one_faced_unit_has_one_step(typhoon):
    one_faced = typhoon.counters["ger-sec-1"].faces[:1]
    legal = _with_counter(typhoon, "ger-sec-1", faces=one_faced, steps=1)
    assert [d for d in check_game(legal) if d.code == "HW-MIX-002"] == []
    illegal = _with_counter(typhoon, "ger-sec-1", faces=one_faced, steps=2)
    assert [(d.code, d.rule, d.message) for d in check_game(illegal) if d.code == "HW-MIX-002"] == [
        ("HW-MIX-002", "Typhoon 8.5.2", "ger-sec-1 has 2 steps, but defense 4 with 1 printed face gives 1")
    ]


def test_typhoon_check_and_validate_agree_on_the_counter_mix(typhoon):
    illegal = _with_counter(typhoon, "ger-sec-1", steps=3)
    mix = [(d.code, d.message) for d in check_game(illegal) if d.code.startswith("HW-MIX")]
    assert mix == [("HW-MIX-002", "ger-sec-1 has 3 steps, but defense 4 with 2 printed faces gives 2")]
    for s in illegal.scenarios.values():
        assert [(d.code, d.message) for d in check_scenario(illegal, s) if d.code.startswith("HW-MIX")] == mix


# --- 8. stacking counts by side ----------------------------------------------------------------------------------


def test_bfm_enemy_in_a_hex_is_one_finding(bfm):
    seven = bfm.scenarios["seven-turn"]
    assert found(bfm, seven) == []
    star = next(p for p in seven.setup if p.side == "soviet")
    crowded = replace(seven, setup=seven.setup + (Placement("german", star.label, star.hex, ("ger-xxvii",)),))
    crowded = replace(
        crowded,
        setup=tuple(
            replace(p, units=tuple(u for u in p.units if u != "ger-xxvii")) if p.label != star.label else p
            for p in crowded.setup
        ),
    )
    codes = [c for c, _, _ in found(bfm, crowded)]
    assert "HW-PLACE-003" in codes and "HW-STACK-001" not in codes


def test_typhoon_points_count_each_sides_own_units(typhoon):
    gates = typhoon.scenarios["moscow-gates"]
    axis = next(p for p in gates.setup if p.side == "axis")
    soviet = next(p for p in gates.setup if p.side == "soviet")
    both = replace(
        gates,
        setup=tuple(p for p in gates.setup if p is not soviet) + (replace(soviet, label=axis.label, hex=axis.hex),),
    )
    assert [c for c, _, _ in found(typhoon, both) if c.startswith("HW-STACK")] == []
    assert "HW-PLACE-003" in [c for c, _, _ in found(typhoon, both)]


# --- 9. rail capacity and conversion points as checked values ----------------------------------------------------


def test_typhoon_rail_capacity_and_conversion_points(typhoon):
    gates = typhoon.scenarios["moscow-gates"]
    assert found(typhoon, gates) == []
    vals = dict(gates.values)
    bad = replace(
        gates,
        values={
            **{k: v for k, v in vals.items() if k != "axis_conversion_points"},
            "soviet_conversion_points": 2,
            "axis_rail_capacity": "4 stacking points",
        },
    )
    assert found(typhoon, bad) == [
        (
            "HW-VALUE-002",
            "Typhoon 7.6.3",
            "scenario moscow-gates gives axis_rail_capacity '4 stacking points', but it must be a number",
        ),
        (
            "HW-VALUE-002",
            "Typhoon 12.4.3",
            "scenario moscow-gates gives no axis_conversion_points, but it must be stated",
        ),
        (
            "HW-VALUE-002",
            "Typhoon 12.4.7",
            "scenario moscow-gates gives soviet_conversion_points 2, but it must be absent",
        ),
    ]
