"""Typhoon! data, loaded through authoring.load and checked against the rulebook's facts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers_data_games import feature, hexinfo

from authoring.hexgrid import MultiMapLayout
from authoring.model.scenario import Placement
from authoring.rules.engine import check_game, check_scenario
from authoring.rules.hexsets import HexSets


@pytest.fixture(scope="module")
def game(rtyphoon):
    assert rtyphoon.ok, [str(d) for d in rtyphoon.diagnostics]
    return rtyphoon.game


def errors(diags):
    return [d for d in diags if d.severity == "error"]


def rule_8_5_2(c) -> int:
    """Steps as 8.5.2 states them: printed defence 8+ four, 5+ three, two faces two, one face one."""
    d = c.faces[0].values["defense"]
    return 4 if d >= 8 else 3 if d >= 5 else 2 if len(c.faces) > 1 else 1


def test_loads_and_engine_clean(rtyphoon, game):
    assert not errors(rtyphoon.diagnostics)
    assert errors(check_game(game)) == []


def test_three_maps_and_named_hexes(game):
    assert set(game.maps) == {"N", "M", "P"}
    for label in ("N1016", "N2453", "N2553", "P1002", "P1733", "P2333", "P2434", "P4434", "P4034"):
        hexinfo(game, label)
    assert feature(hexinfo(game, "N1016")[1], "axis-supply-s5") is not None
    lgov = hexinfo(game, "P4034")[1]
    assert feature(lgov, "axis-supply-gt10") is not None and feature(lgov, "name").name == "Lgov"
    for label in ("P2333", "P2434"):
        assert feature(hexinfo(game, label)[1], "axis-supply") is not None
    assert hexinfo(game, "N2553")[1].terrain == ("clear",)


def test_overlapping_edges_share_cells(game):
    layout = MultiMapLayout({k: m.grid for k, m in game.maps.items()})
    n, _m, p = game.maps["N"].grid, game.maps["M"].grid, game.maps["P"].grid
    h = n.offset_to_hex(39, 10)
    assert set(layout.labels_of(h)) == {"N3910", "M0110"}
    assert n.offset_to_hex(25, 53) == p.offset_to_hex(11, 1)  # N2553 = P1101
    shared = [h for h in layout if len(layout.maps_of(h)) > 1]
    assert len(shared) > 53 + 40
    for h in shared:  # same content whichever map names it
        infos = [game.maps[k].hexes[h] for k in layout.maps_of(h)]
        assert len({i.terrain for i in infos}) == 1
        assert len({tuple(sorted(f.type for f in i.features)) for i in infos}) == 1


def test_smolensk_roslavl_highway_runs_n2453_n2553_p1002(game):
    n, p = game.maps["N"], game.maps["P"]
    n_roads = [[n.label(h) for h in x.hexes] for x in n.paths if x.type == "main-road"]
    assert any(c[-2:] == ["N2453", "N2553"] for c in n_roads)
    p_roads = [[p.label(h) for h in x.hexes] for x in p.paths if x.type == "main-road"]
    assert any(c[i : i + 2] == ["P1101", "P1002"] for c in p_roads for i in range(len(c)))
    assert n.grid.label_to_hex("N2553") == p.grid.label_to_hex("P1101")


def test_terrain_chart_types_present(game):
    used = {t for m in game.maps.values() for i in m.hexes.values() for t in i.terrain}
    assert {"clear", "woods", "hills", "swamp", "marsh", "town", "city", "major-city", "lake"} <= used
    sides = {s.type for m in game.maps.values() for s in m.hexsides}
    assert {"river", "major-river", "lake", "fortified-line", "bridge"} <= sides
    paths = {x.type for m in game.maps.values() for x in m.paths}
    assert paths == {"rail", "main-road", "minor-road"}
    forts = [s for m in game.maps.values() for s in m.hexsides if s.type == "fortified-line"]
    assert forts and all(s.faces in s.side.hexes() for s in forts)
    moscow = [game.maps["M"].label(h) for h, i in game.maps["M"].hexes.items() if "major-city" in i.terrain]
    assert len(moscow) == 4 and all(l.startswith("M") for l in moscow)


def test_counter_mix_size_and_kinds(game):
    cs = game.counters.values()
    units = [c for c in cs if not c.marker]
    assert len(units) >= 300
    types = {c.type for c in cs}
    assert {"hq", "artillery", "fighter", "bomber", "supply", "bridge", "strongpoint", "armored-train"} <= types
    flags = set().union(*(c.flags for c in cs))
    assert {"motorized", "infiltration", "no-zoc", "guards", "nkvd", "moscow"} <= flags
    hq = game.counters["sov-hq-5"].faces[0].values
    assert hq["command"] >= 1 and hq["range"] == 4
    art = game.counters["ger-art-1"].faces[0].values
    assert {"support", "range", "defense"} <= set(art)
    air = game.counters["ger-air-f1"].faces[0].values
    assert set(air) == {"air_combat", "cas"}
    assert {"w", "s", "c", "e", "M", "MG", "eM", "ec"} <= {c.setup_code for c in cs}


def test_infiltration_follows_2_4(game):
    for c in game.counters.values():
        if "motorized" in c.flags and c.faces[0].values.get("movement", 0) >= 7:
            assert "infiltration" in c.flags, c.id


def test_steps_agree_with_8_5_2(game):
    checked = 0
    for c in game.counters.values():
        if c.marker or c.type in ("fighter", "bomber", "dummy", "supply", "bridge", "strongpoint"):
            continue
        assert c.steps == rule_8_5_2(c), c.id
        checked += 1
    assert checked >= 300


def test_wrong_steps_are_reported(game):
    c = game.counters["ger-6id"]
    bad = replace(game, counters={**game.counters, c.id: replace(c, steps=2)})
    found = errors(check_game(bad))
    assert any(d.code == "HW-MIX-002" and "ger-6id" in d.message for d in found)


def test_every_hex_set_resolves(game):
    maps = tuple(game.maps.values())
    sets = HexSets(game.hex_sets, maps)
    for name in game.hex_sets:
        assert sets.resolve(name), name
    only_m = HexSets(game.hex_sets, (game.maps["M"],))
    assert not only_m.resolve("w-edge")  # code w names no hex of map M
    assert only_m.resolve("e-edge") and only_m.resolve("moscow-hexes")


def test_one_map_scenario_catches_codes_of_other_maps(game):
    gates = game.scenarios["moscow-gates"]
    assert gates.maps == ("M",)
    assert errors(check_scenario(game, gates)) == []
    coded = replace(gates, setup_rules=gates.setup_rules + (replace(game.scenarios["campaign"].setup_rules[0]),))
    found = errors(check_scenario(game, coded))
    assert any(d.code == "HW-CODE-003" for d in found)


def test_turn_records(game):
    camp = game.scenarios["campaign"]
    assert len(camp.turns) == 40
    by = {t.turn: t for t in camp.turns}
    assert [by[t].values["climate"] for t in (28, 29, 30)] == ["Frost"] * 3
    assert (by[28].values["weather_drm"], by[29].values["weather_drm"], by[30].values["weather_drm"]) == (0, 1, 1)
    for s in game.scenarios.values():
        assert all("climate" in t.values and "weather_drm" in t.values for t in s.turns)
    tables = {t.id: t for t in game.tables}
    weather = tables["weather"]
    frost = weather.columns.index("Frost")
    rows = {r[0]: r for r in weather.rows}
    assert (rows[7][frost], rows[8][frost], rows[9][frost]) == ("F", "S", "ST")
    assert {"crt", "tec", "soviet-replacements", "steps", "vp-schedule"} <= set(tables)


def test_supply_points_fit_the_counter_mix(game):
    mix = {
        side: sum(c.quantity for c in game.counters.values() if c.type == "supply" and c.side == side)
        for side in ("axis", "soviet")
    }
    for s in game.scenarios.values():
        for t in s.turns:
            assert t.values["axis_supply_points"] <= mix["axis"]
            assert t.values["soviet_supply_points"] <= mix["soviet"]


def test_scenario_schedules_and_values(game):
    camp = game.scenarios["campaign"]
    assert {"axis_rail_capacity", "soviet_rail_capacity", "axis_conversion_points"} <= set(camp.values)
    assert camp.reinforcements and camp.withdrawals
    pools = [p for p in camp.pools if p.id.startswith("special-")]
    assert {p.available for p in pools} <= set(range(29, 33)) and all(p.cost for p in pools)
    types = {r.type for r in camp.setup_rules + game.setup_rules}
    assert {"follow-setup-codes", "garrison", "in-box", "start-state", "pool-cost"} <= types


def test_bridge_limit_is_enforced(game):
    camp = game.scenarios["campaign"]
    n = game.maps["N"].grid
    extra = [
        Placement("axis", n.hex_to_label(n.offset_to_hex(2, r)), n.offset_to_hex(2, r), (f"ger-bridge-{i}",))
        for r, i in ((44, 5), (46, 6))
    ]
    moved = replace(
        camp,
        setup=camp.setup + tuple(extra),
        reinforcements=tuple(x for x in camp.reinforcements if not set(x.units) & {"ger-bridge-5", "ger-bridge-6"}),
    )
    assert any("13.2.3" in str(d.rule) for d in errors(check_scenario(game, moved)))


def test_the_setup_codes_chart_explains_every_code_printed_on_a_counter(game):
    """A player reading a counter's code finds it on the chart: hex codes, edge letters, air boxes, pools."""
    import re

    table = next(t for t in game.tables if t.id == "setup-codes")
    listed = {str(row[0]) for row in table.rows}
    shapes = set()
    for counter in game.counters.values():
        if counter.setup_code:
            shapes.add(
                "N/M/P + 4 digits"
                if re.fullmatch(r"[NMP][0-9]{4}", counter.setup_code)
                else re.sub(r"[0-9]+$", "n", counter.setup_code)
            )
    assert shapes >= {"R", "F", "SRn", "APn", "w", "e"}
    assert shapes <= listed, shapes - listed
