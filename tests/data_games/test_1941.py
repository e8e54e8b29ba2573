"""1941: Operation Barbarossa data, loaded through authoring.load and checked against the rulebook's facts."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from helpers_data_games import feature, hexinfo, sides_of

from authoring.model.scenario import Placement
from authoring.rules.engine import check_game, check_scenario


@pytest.fixture(scope="module")
def game(r1941):
    assert r1941.ok, [str(d) for d in r1941.diagnostics]
    return r1941.game


def errors(diags):
    return [d for d in diags if d.severity == "error"]


def test_loads_without_errors(r1941):
    assert r1941.ok
    assert not errors(r1941.diagnostics)


def test_rules_engine_is_clean(game):
    assert errors(check_game(game)) == []


@pytest.mark.parametrize(
    "label,name,kind",
    [
        ("1808", "Moscow", "major"),
        ("0712", "Leningrad", "major"),
        ("0416", "Helsinki", "reference"),
        ("3019", "Odessa", "major"),
        ("0103", "Archangel", "reference"),
        ("3415", "Sevastopol", "reference"),
    ],
)
def test_named_cities(game, label, name, kind):
    _, info = hexinfo(game, label)
    city = feature(info, "city")
    assert city is not None and city.name == name and city.kind == kind


def test_leningrad_0713_sea_hexside_and_fortification(game):
    m, info = hexinfo(game, "0713")
    assert feature(info, "fortification") is not None
    assert frozenset({"0712", "0713"}) in sides_of(m, "all-sea")
    assert feature(hexinfo(game, "0416")[1], "finnish-supply") is not None


def test_svir_and_canal_separate_the_15_2_2_example(game):
    m = game.maps["main"]
    svir = sides_of(m, "svir")
    assert {frozenset({"0708", "0808"}), frozenset({"0809", "0910"})} <= svir
    assert frozenset({"0707", "0708"}) not in svir  # 0708 may attack 0707
    assert sides_of(m, "canal")


def test_named_hexes_clear_and_countries(game):
    sets = game.hex_sets
    assert "0416" in sets["finland"]["hexes"]
    assert "1825" in sets["greater-germany"]["hexes"]
    assert sets["hungary"]["hexes"] and sets["romania"]["hexes"]
    for label in ("1222", "1825", "2621", "2620", "2522", "2720"):
        assert hexinfo(game, label)[1].terrain == ("clear",)
    assert sides_of(game.maps["main"], "finnish-border")


def test_rail_errata_and_edge_supply_sources(game):
    m = game.maps["main"]
    chains = [[m.label(h) for h in p.hexes] for p in m.paths if p.type == "rail"]
    assert any("0105" in c and c.index("0106") == c.index("0105") + 1 for c in chains if "0106" in c)
    east = [l for l, i in ((m.label(h), i) for h, i in m.hexes.items()) if feature(i, "soviet-supply")]
    west = [l for l, i in ((m.label(h), i) for h, i in m.hexes.items()) if feature(i, "axis-supply")]
    assert east and all(l.endswith("01") for l in east)  # game east edge = grid row 01
    assert west and all(l.endswith("28") for l in west)
    exits = {m.label(h) for p in m.paths for h, _ in p.exits}
    assert set(east) | set(west) <= exits


def test_terrain_types_from_the_rules(game):
    assert {t.id for t in game.terrain} == {"clear", "rough", "swamp", "forest", "sea", "lake"}
    used = {t for i in game.maps["main"].hexes.values() for t in i.terrain}
    assert used == {t.id for t in game.terrain}


def test_counter_mix(game):
    cs = game.counters
    assert len(cs) == 120
    assert cs["sov-11"].setup_code == "1222" and cs["sov-11"].size == "army"
    pz46 = cs["ger-46pz"]
    assert (pz46.faces[0].values["strength"], pz46.faces[0].values["movement"], pz46.setup_code) == (6, 6, "1825")
    inf50 = cs["ger-50"]
    assert (inf50.faces[0].values["strength"], inf50.faces[0].values["movement"], inf50.setup_code) == (3, 3, "2")
    shock = [c for c in cs.values() if c.type == "shock"]
    assert len(shock) == 4 and all(c.nationality == "soviet-shock" for c in shock)
    assert {c.setup_code for c in cs.values()} >= {"1:Od", "1:E"}
    assert {c.size for c in cs.values()} == {"corps", "group", "army"}


def test_codes_and_placement_rules(game):
    cs = game.counters.values()
    finland = set(game.hex_sets["finland"]["hexes"])
    hungary = set(game.hex_sets["hungary"]["hexes"])
    assert all(c.setup_code in finland for c in cs if c.nationality == "finnish")
    assert not any(c.setup_code in hungary for c in cs)
    for c in cs:
        assert any(re.fullmatch(s["pattern"], c.setup_code) for s in game.setup_codes), c.id


def test_turn_records(game):
    camp, winter = game.scenarios["campaign"], game.scenarios["winter-counteroffensive"]
    assert [t.turn for t in camp.turns] == list(range(1, 8))
    assert [t.turn for t in winter.turns] == list(range(1, 11))
    t6 = camp.turns[5].values
    assert (t6["german_air_points"], t6["soviet_air_points"]) == (3, 2)
    assert [t.turn for t in camp.turns if "soviet_replacements" in t.values] == [3, 4, 5, 6, 7]
    assert camp.turns[0].date.startswith("Jun") and camp.turns[6].date.startswith("Dec")


def test_errata_46th_starts_at_1825(game):
    camp = game.scenarios["campaign"]
    assert any(p.label == "1825" and "ger-46pz" in p.units for p in camp.setup)
    assert not any("ger-46pz" in r.units for r in camp.reinforcements)


def _move(scenario, unit: str, label: str, game):
    """A copy of the scenario with `unit` moved to the hex `label`."""
    h = game.maps["main"].grid.label_to_hex(label)
    setup = [replace(p, units=tuple(u for u in p.units if u != unit)) for p in scenario.setup]
    side = next(p.side for p in scenario.setup if unit in p.units)
    setup = [p for p in setup if p.units] + [Placement(side, label, h, (unit,))]
    return replace(scenario, setup=tuple(setup))


def test_free_deployment_option(game):
    camp = game.scenarios["campaign"]
    gg = sorted(set(game.hex_sets["greater-germany"]["hexes"]) - {p.label for p in camp.setup})
    moved = _move(camp, "ger-1", gg[-1], game)
    assert errors(check_scenario(game, moved))  # printed code broken
    assert errors(check_scenario(game, moved, options=["axis-free-deployment"])) == []
    soviet_moved = _move(camp, "sov-11", "1322" if "1322" not in {p.label for p in camp.setup} else "1421", game)
    assert errors(check_scenario(game, soviet_moved, options=["axis-free-deployment"]))


def test_stacking_and_hungary_are_enforced(game):
    camp = game.scenarios["campaign"]
    crowded = _move(camp, "ger-4a", next(p.label for p in camp.setup if "ger-1" in p.units), game)
    assert any("stack" in d.code.lower() or "3.1" in str(d.rule) for d in errors(check_scenario(game, crowded)))
    hun = _move(camp, "ger-49m", game.hex_sets["hungary"]["hexes"][0], game)
    assert any("15.1" in str(d.rule) for d in errors(check_scenario(game, hun)))
