"""Set-up checks III (issue 35): a card held to its scenario, options that free only what they say, turn- and
kind-dependent places, pools of every side, one finding per intruding unit. Each class has a legal and an
illegal case, in other instances than the issue's own examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from authoring.load import load_card
from authoring.model.scenario import Scheduled
from authoring.rules.engine import check_scenario


def errors(diags):
    return [d for d in diags if d.severity == "error"]


def codes(diags) -> list[str]:
    return [d.code for d in errors(diags)]


def check_card(
    result,
    tmp_path,
    scenario_id: str,
    side: str,
    moves: dict[str, str] | None = None,
    extra: tuple[tuple[str, str], ...] = (),
) -> list:
    """The scenario's own set-up of `side` written as a CSV card, with units moved (unit -> hex) and rows
    added, loaded and checked as `hexwright check --card` does."""
    game = result.game
    scen = game.scenarios[scenario_id]
    moves = moves or {}
    rows = [(moves.get(u, p.label), u, p.state or "") for p in scen.setup if p.side == side for u in p.units]
    rows += [(h, u, "") for h, u in extra]
    path = tmp_path / f"{scenario_id}.{side}.csv"
    path.write_text("hex,unit,state\n" + "".join(f"{h},{u},{s}\n" for h, u, s in rows), encoding="utf-8")
    card, diags = load_card(path, result, scen, side)
    assert card is not None
    return diags + check_scenario(game, scen, card)


@pytest.fixture(scope="module")
def typhoon(rtyphoon):
    assert rtyphoon.ok
    return rtyphoon


@pytest.fixture(scope="module")
def g1941(r1941):
    assert r1941.ok
    return r1941


# --- 7: one finding per intruding unit --------------------------------------------------------------------------


def test_each_intruder_into_an_enemy_hex_is_one_finding_its_holder_none(typhoon, tmp_path):
    """Three Axis units of M0305 moved into M1113, which one Soviet division holds."""
    moved = {"ger-78id": "M1113", "ger-87id": "M1113", "ger-106id": "M1113"}
    everything = errors(check_card(typhoon, tmp_path, "moscow-gates", "axis", moved))
    assert codes(everything) == ["HW-PLACE-003"] * 3  # not also "elsewhere than the scenario" (HW-PLACE-014)
    found = [d for d in everything if d.code == "HW-PLACE-003"]
    assert sorted(d.message.split(" ", 1)[0] for d in found) == ["ger-106id", "ger-78id", "ger-87id"]
    assert all("holds enemy unit sov-23rd (soviet)" in d.message for d in found)
    assert len({d.loc.line for d in found}) == 3  # each at its own card row


def test_a_soviet_card_entering_an_axis_stack_reports_the_soviet_unit_only(typhoon, tmp_path):
    found = [
        d
        for d in errors(check_card(typhoon, tmp_path, "moscow-gates", "soviet", {"sov-16rd": "M0403"}))
        if d.code == "HW-PLACE-003"
    ]
    assert [d.message.split(" ", 1)[0] for d in found] == ["sov-16rd"]


def test_units_of_one_side_sharing_a_hex_are_no_enemy_finding(typhoon, tmp_path):
    found = check_card(typhoon, tmp_path, "moscow-gates", "axis", {"ger-6id": "M0303"})
    assert "HW-PLACE-003" not in codes(found)


# --- 1: a card is held to the scenario's placements ---------------------------------------------------------------


def test_a_card_moving_a_soviet_division_one_hex_is_refused(typhoon, tmp_path):
    found = [
        d
        for d in errors(check_card(typhoon, tmp_path, "moscow-gates", "soviet", {"sov-14rd": "M1108"}))
        if d.code == "HW-PLACE-014"
    ]
    assert [(d.hex, d.rule) for d in found] == [("M1108", "Typhoon 3.1.1")]
    assert "sets it up in hex M1107" in found[0].message


def test_a_card_moving_an_axis_artillery_unit_is_refused(typhoon, tmp_path):
    found = check_card(typhoon, tmp_path, "moscow-gates", "axis", {"ger-art-2": "M0408"})
    assert codes(found) == ["HW-PLACE-014"]


def test_a_card_using_a_unit_the_scenario_does_not_is_refused(typhoon, tmp_path):
    found = check_card(typhoon, tmp_path, "moscow-gates", "axis", extra=(("M0304", "ger-15id"),))
    assert [(d.code, d.hex) for d in errors(found)] == [("HW-PLACE-014", "M0304")]


def test_a_card_swapping_two_moscow_garrison_units_is_legal(typhoon, tmp_path):
    """13.6.4: the Moscow Garrison's hexes are its own choice."""
    found = check_card(typhoon, tmp_path, "moscow-gates", "soviet", {"sov-nkvd-2": "M2622", "sov-nkvd-3": "M2524"})
    assert errors(found) == []


def test_a_moscow_garrison_unit_next_to_moscow_is_legal(typhoon, tmp_path):
    """On or next to any Moscow hex (13.6.4), even with a Moscow hex left to the others' choice."""
    found = check_card(typhoon, tmp_path, "moscow-gates", "soviet", {"sov-nkvd-4": "M2722", "sov-nkvd-1": "M2524"})
    assert errors(found) == []


def test_a_moscow_garrison_unit_far_from_moscow_is_refused(typhoon, tmp_path):
    found = errors(check_card(typhoon, tmp_path, "moscow-gates", "soviet", {"sov-nkvd-4": "M2320"}))
    assert [(d.code, d.hex, d.rule) for d in found] == [("HW-PLACE-006", "M2320", "Typhoon 13.6.4")]


def test_the_scenarios_own_cards_pass(typhoon, tmp_path):
    for scenario in ("moscow-gates", "campaign"):
        for side in ("axis", "soviet"):
            assert errors(check_card(typhoon, tmp_path, scenario, side)) == [], (scenario, side)


# --- 3: "any hex of a set" codes for single units --------------------------------------------------------------


def test_the_moscow_supply_unit_may_start_on_another_moscow_hex(typhoon, tmp_path):
    """14.1.4 f; M2524 (the issue's example was M2622)."""
    assert errors(check_card(typhoon, tmp_path, "campaign", "soviet", {"sov-msu-moscow": "M2524"})) == []


def test_the_moscow_supply_unit_off_moscow_is_refused(typhoon, tmp_path):
    found = check_card(typhoon, tmp_path, "campaign", "soviet", {"sov-msu-moscow": "M2423"})
    assert [(d.code, d.rule) for d in errors(found)] == [("HW-CODE-002", "Typhoon 14.1.4 f")]


def test_a_code_for_one_unit_does_not_free_the_others(typhoon):
    """'M' on another counter is still the reinforcement code: arrive on a friendly Moscow hex."""
    from authoring.rules.codes import parse

    game = typhoon.game
    assert parse(game, "M", "soviet", game.counters["sov-msu-moscow"]).meaning == "hex-set"
    assert parse(game, "M", "soviet", game.counters["sov-82rd"]).meaning == "turn-at"
    assert parse(game, "M", "soviet").meaning == "turn-at"


# --- 2: an option frees only the aspect it names; linked placements -------------------------------------------------

FREE = ["axis-free-deployment"]


def _moved(scen, game, unit: str, label: str | None):
    """The scenario with `unit` taken off its hex and (label given) set up alone in `label`."""
    from authoring.model.scenario import Placement

    setup = [replace(p, units=tuple(u for u in p.units if u != unit)) for p in scen.setup]
    setup = [p for p in setup if p.units]
    if label is not None:
        setup.append(Placement("axis", label, game.maps["main"].grid.label_to_hex(label), (unit,)))
    return replace(scen, setup=tuple(setup))


def _rescheduled(scen, unit: str, turn: int | None, at: str = "axis-entry", side: str = "axis"):
    """The scenario with `unit` out of its reinforcement and (turn given) arriving alone on `turn`."""
    reinf = [replace(r, units=tuple(u for u in r.units if u != unit)) for r in scen.reinforcements]
    reinf = [r for r in reinf if r.units]
    if turn is not None:
        reinf.append(Scheduled(turn, side, (unit,), at))
    return replace(scen, reinforcements=tuple(reinf))


@pytest.fixture(scope="module")
def winter(g1941):
    return g1941.game.scenarios["winter-counteroffensive"]


def test_free_deployment_keeps_german_arrival_turns(g1941, winter):
    late = _rescheduled(winter, "ger-42", 5)  # printed code: turn 4
    found = errors(check_scenario(g1941.game, late, options=FREE))
    assert [(d.code, d.message.split("'")[0]) for d in found] == [("HW-CODE-002", "ger-42")]


def test_free_deployment_keeps_soviet_arrival_turns(g1941, winter):
    late = _rescheduled(winter, "sov-49", 7, "soviet-entry", "soviet")  # printed code: turn 5
    assert [d.code for d in errors(check_scenario(g1941.game, late, options=FREE))] == ["HW-CODE-002"]


def test_free_deployment_still_frees_german_hexes(g1941, winter):
    moved = _moved(winter, g1941.game, "ger-6", "2027")  # printed 2424; 2027 is in Greater Germany
    assert errors(check_scenario(g1941.game, moved))  # without the option: the code is broken
    assert errors(check_scenario(g1941.game, moved, options=FREE)) == []


def test_the_turn_1_panzer_corps_may_take_a_romanian_corps_place(g1941, winter):
    swapped = _rescheduled(
        _rescheduled(
            _moved(_moved(winter, g1941.game, "ger-30", None), g1941.game, "ger-14pz", "3026"), "ger-14pz", None
        ),
        "ger-30",
        1,
    )
    assert errors(check_scenario(g1941.game, swapped, options=FREE)) == []
    assert "HW-CODE-002" in codes(check_scenario(g1941.game, swapped))  # not without the option


def test_the_turn_1_panzer_corps_outside_romania_is_refused(g1941, winter):
    swapped = _rescheduled(
        _rescheduled(
            _moved(_moved(winter, g1941.game, "ger-30", None), g1941.game, "ger-14pz", "2527"), "ger-14pz", None
        ),
        "ger-30",
        1,
    )
    found = errors(check_scenario(g1941.game, swapped, options=FREE))
    assert [(d.code, d.hex, d.rule) for d in found] == [
        ("HW-PLACE-015", "2527", "1941 20.6.3 B"),
        ("HW-PLACE-015", "", "1941 20.6.3 B"),
    ]
    assert found[1].message.startswith("ger-30 does not start on the map")


def test_the_turn_1_panzer_corps_in_romania_with_no_corps_leaving_is_refused(g1941, winter):
    crowded = _rescheduled(_moved(winter, g1941.game, "ger-14pz", "3026"), "ger-14pz", None)
    found = [d for d in errors(check_scenario(g1941.game, crowded, options=FREE)) if d.code == "HW-PLACE-015"]
    assert [d.hex for d in found] == ["3026"] and "none of ger-11, ger-30, ger-54 leaves" in found[0].message


def test_a_romanian_corps_leaving_without_a_substitute_is_refused(g1941, winter):
    gone = _rescheduled(_moved(winter, g1941.game, "ger-54", None), "ger-54", 1)
    found = [d.code for d in errors(check_scenario(g1941.game, gone, options=FREE))]
    assert found == ["HW-PLACE-015"]


def test_a_replaced_corps_entering_late_is_refused(g1941, winter):
    swapped = _rescheduled(
        _rescheduled(
            _moved(_moved(winter, g1941.game, "ger-11", None), g1941.game, "ger-14pz", "3124"), "ger-14pz", None
        ),
        "ger-11",
        2,
    )
    found = [d for d in errors(check_scenario(g1941.game, swapped, options=FREE))]
    assert [(d.code, d.message.split(" ")[0]) for d in found] == [("HW-PLACE-015", "ger-11")]


# --- 3: places open to one kind of unit, from a turn ---------------------------------------------------------------


def _arriving(scen, unit: str, turn: int, at: str, side: str = "axis"):
    return replace(scen, reinforcements=scen.reinforcements + (Scheduled(turn, side, (unit,), at),))


def test_an_axis_supply_unit_may_enter_at_lgov_from_turn_10(typhoon):
    camp = typhoon.game.scenarios["campaign"]
    for turn in (10, 17):  # the example was turn 12
        assert errors(check_scenario(typhoon.game, _arriving(camp, "ger-msu4", turn, "P4034"))) == [], turn


def test_an_axis_supply_unit_at_lgov_before_turn_10_is_refused(typhoon):
    camp = typhoon.game.scenarios["campaign"]
    found = errors(check_scenario(typhoon.game, _arriving(camp, "ger-msu4", 9, "P4034")))
    assert [(d.code, d.rule) for d in found] == [("HW-CODE-002", "Typhoon 14.1.3")]


def test_lgov_is_no_entry_for_other_axis_units(typhoon):
    camp = typhoon.game.scenarios["campaign"]
    moved = replace(
        camp,
        reinforcements=tuple(replace(r, at="P4034") if r.units == ("ger-255id",) else r for r in camp.reinforcements),
    )
    found = errors(check_scenario(typhoon.game, moved))
    assert [(d.code, d.message.split("'")[0]) for d in found] == [("HW-CODE-002", "ger-255id")]


def test_lgov_is_no_entry_for_supply_without_the_rule(typhoon):
    """The opening is the scenario's (6.2.2: Scenarios #4 and #5), not the game's."""
    camp = typhoon.game.scenarios["campaign"]
    bare = replace(camp, setup_rules=tuple(r for r in camp.setup_rules if r.type != "may-arrive-in-hex-set"))
    assert "HW-CODE-002" in codes(check_scenario(typhoon.game, _arriving(bare, "ger-msu4", 14, "P4034")))


# --- 6: pools of every side ---------------------------------------------------------------------------------------


def _pooled(scen, **pool):
    from authoring.model.scenario import Pool

    return replace(scen, pools=scen.pools + (Pool(**pool),))


@pytest.mark.parametrize("scenario_id", ["moscow-gates", "campaign"])
def test_an_axis_pool_without_an_entry_location_is_refused(typhoon, scenario_id):
    scen = typhoon.game.scenarios[scenario_id]
    pooled = _pooled(
        scen,
        id="axis-x",
        side="axis",
        units=("ger-252id",) if scenario_id == "campaign" else ("ger-15id",),
        available=4,
        cost=2.0,
    )
    pooled = replace(pooled, reinforcements=tuple(r for r in pooled.reinforcements if "ger-252id" not in r.units))
    found = [d for d in errors(check_scenario(typhoon.game, pooled)) if d.code.startswith("HW-SCHED")]
    assert [(d.code, d.rule) for d in found] == [("HW-SCHED-007", "Typhoon 14.1.6")]
    assert found[0].message == "pool axis-x states no entry location"


def test_an_axis_pool_without_a_cost_is_refused(typhoon):
    scen = typhoon.game.scenarios["moscow-gates"]
    found = errors(
        check_scenario(
            typhoon.game, _pooled(scen, id="axis-y", side="axis", units=("ger-15id",), available=3, at="west-M")
        )
    )
    assert [(d.code, d.message) for d in found] == [("HW-SCHED-007", "pool axis-y states no cost")]


def test_an_axis_pool_with_cost_turn_and_entry_is_legal(typhoon):
    scen = typhoon.game.scenarios["moscow-gates"]
    pooled = _pooled(scen, id="axis-z", side="axis", units=("ger-15id", "ger-31id"), available=5, cost=1.0, at="west-M")
    assert errors(check_scenario(typhoon.game, pooled)) == []


def test_a_soviet_pool_needs_no_stated_entry_but_a_cost(typhoon):
    scen = typhoon.game.scenarios["moscow-gates"]
    ok = _pooled(scen, id="sov-x", side="soviet", units=("sov-34rd",), available=7, cost=1.0)
    assert errors(check_scenario(typhoon.game, ok)) == []
    bare = _pooled(scen, id="sov-y", side="soviet", units=("sov-34rd",), available=7)
    assert [(d.code, d.rule) for d in errors(check_scenario(typhoon.game, bare))] == [("HW-SCHED-007", "Typhoon 14.4")]


# --- 4: hexside rules: bridges beside a river, Soviet bridges near an HQ (13.2.2) ------------------------------------


def test_an_axis_bridge_moved_to_another_river_hex_is_legal(typhoon, tmp_path):
    """moscow-gates sets up from its card, where bridges are placed as desired (13.2.2)."""
    assert errors(check_card(typhoon, tmp_path, "moscow-gates", "axis", {"ger-bridge-4": "M0710"})) == []


def test_an_axis_bridge_away_from_rivers_is_refused(typhoon, tmp_path):
    found = errors(check_card(typhoon, tmp_path, "moscow-gates", "axis", {"ger-bridge-4": "M0607"}))
    assert [(d.code, d.hex, d.rule) for d in found] == [("HW-PLACE-016", "M0607", "Typhoon 13.2.2")]
    assert "did you mean" in found[0].help


def _soviet_bridge_at(typhoon, label: str):
    """The campaign without its printed codes (a card-style set-up), sov-bridge-1 moved to `label`."""
    from authoring.model.scenario import Placement

    camp = typhoon.game.scenarios["campaign"]
    grid = typhoon.game.maps[label[0]].grid
    setup = tuple(p for p in camp.setup if p.units != ("sov-bridge-1",))
    rules = tuple(r for r in camp.setup_rules if r.type != "follow-setup-codes")
    return replace(
        camp,
        setup=setup + (Placement("soviet", label, grid.label_to_hex(label), ("sov-bridge-1",)),),
        setup_rules=rules,
    )


def test_a_soviet_bridge_beside_a_river_near_an_hq_is_legal(typhoon):
    assert errors(check_scenario(typhoon.game, _soviet_bridge_at(typhoon, "M0515"))) == []


def test_a_soviet_bridge_beside_a_river_far_from_any_hq_is_refused(typhoon):
    found = errors(check_scenario(typhoon.game, _soviet_bridge_at(typhoon, "M2518")))
    assert [(d.code, d.hex) for d in found] == [("HW-PLACE-017", "M2518")]
    assert "more than 4 hexes from the soviet hq units" in found[0].message


def test_a_bridge_bound_by_its_printed_code_stays_there(typhoon, tmp_path):
    """The campaign sets up by the printed codes (14.1.2): another river hex is still another hex."""
    found = errors(check_card(typhoon, tmp_path, "campaign", "axis", {"ger-bridge-1": "N0842"}))
    assert [d.code for d in found] == ["HW-CODE-002"]


# --- 5: structured turn values (1941 14.2.2, 20.4.2 A) ------------------------------------------------------------

RATE_1941 = ({"infantry-type": 4, "tank-corps": 1}, {"infantry-type": 3, "tank-group": 1})
RATE_1942 = ({"infantry-type": 2, "tank-corps": 1}, {"infantry-type": 1, "tank-group": 1})


def _with_value(scen, turn: int, value):
    turns = tuple(
        replace(t, values={**t.values, "soviet_replacements": value}) if t.turn == turn else t for t in scen.turns
    )
    return replace(scen, turns=turns)


def test_a_1942_turn_at_the_1941_rate_is_refused(g1941, winter):
    found = errors(check_scenario(g1941.game, _with_value(winter, 9, list(RATE_1941))))
    assert [(d.code, d.rule) for d in found] == [("HW-VALUE-001", "1941 20.4.2 A")]
    assert found[0].message == (
        "turn 9 gives soviet_replacements 4 infantry-type + 1 tank-corps, or 3 infantry-type + "
        "1 tank-group, but it must be 2 infantry-type + 1 tank-corps, or 1 infantry-type + "
        "1 tank-group"
    )


def test_a_1941_turn_at_the_reduced_rate_is_refused(g1941):
    camp = g1941.game.scenarios["campaign"]
    found = errors(check_scenario(g1941.game, _with_value(camp, 5, list(RATE_1942))))
    assert [(d.code, d.rule) for d in found] == [("HW-VALUE-001", "1941 14.2.2")]


def test_a_rate_given_as_text_is_refused_and_one_in_another_order_is_legal(g1941):
    camp = g1941.game.scenarios["campaign"]
    assert [d.code for d in errors(check_scenario(g1941.game, _with_value(camp, 6, "4 infantry + 1 tank corps")))] == [
        "HW-VALUE-001"
    ]
    swapped = [{"tank-group": 1, "infantry-type": 3}, {"tank-corps": 1, "infantry-type": 4}]
    assert errors(check_scenario(g1941.game, _with_value(camp, 6, swapped))) == []


def test_the_turn_record_shows_a_mix_in_words():
    from authoring.model.scenario import value_text

    assert value_text(list(RATE_1941)) == "4 infantry-type + 1 tank-corps, or 3 infantry-type + 1 tank-group"
    assert value_text(3) == "3" and value_text("Mud") == "Mud"


def test_a_hex_set_around_another_holds_its_neighbours(typhoon):
    from authoring.rules.hexsets import HexSets

    game = typhoon.game
    sets = HexSets(game.hex_sets, (game.maps["M"],))
    moscow, area = sets.resolve("moscow-hexes"), sets.resolve("moscow-area")
    assert moscow < area and all(min(h.distance(m) for m in moscow) == 1 for h in area - moscow)
    assert {n for m in moscow for n in m.neighbours() if n in game.maps["M"].hexes} <= area
