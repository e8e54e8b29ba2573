"""Battle for Moscow through the loaded MODEL: counts against the rulebook and the facts file, every CRT cell,
both scenarios clean under the rules engine."""

from __future__ import annotations

import pytest
import yaml
from shared_files import shared_file

from authoring.hexgrid import Hexside
from authoring.rules import check_game, check_scenario

# Rulebook, "Combat Results Table": die roll -> results under 1:1 .. 6:1.
CRT = {
    1: ["DR", "DR", "DR", "DR", "DR", "DRL"],
    2: ["EX", "DR", "DR", "DR", "DRL", "DRL"],
    3: ["EX", "EX", "DR", "DR", "DRL", "DE"],
    4: ["NE", "EX", "DR", "DRL", "DRL", "DE"],
    5: ["NE", "NE", "EX", "DRL", "DE", "DE"],
    6: ["AL", "NE", "DRL", "DE", "DE", "DE"],
}
ODDS = ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]


@pytest.fixture(scope="module")
def facts() -> dict:
    return yaml.safe_load(shared_file("docs/bfm-map-facts.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game(bfm):
    return bfm.game


@pytest.fixture(scope="module")
def main(game):
    return game.maps["main"]


def _labels(m, hexes) -> set[str]:
    return {m.label(h) for h in hexes}


def test_units_per_side(game):
    """Rulebook 'Counters': 18 Soviet units (16 armies, 1st Shock, Tank) and 22 German corps."""
    units = [c for c in game.counters.values() if not c.marker]
    by_side = {s.id: [c for c in units if c.side == s.id] for s in game.sides}
    assert len(by_side["soviet"]) == 18 and len(by_side["german"]) == 22
    assert sum(c.size == "army" for c in by_side["soviet"]) == 18
    assert all(c.size == "corps" for c in by_side["german"])
    assert sum("motorized" in c.flags for c in by_side["german"]) == 8
    assert all(len(c.faces) == 2 and c.steps == 2 for c in units)


def test_hexes_per_terrain_type(main, facts):
    assert len(main.hexes) == facts["grid"]["hex_count"] == 140
    forest = _labels(main, main.hexes_with_terrain("forest"))
    moscow = _labels(main, main.hexes_with_terrain("moscow"))
    clear = _labels(main, main.hexes_with_terrain("clear"))
    assert forest == set(facts["forest"]) and len(forest) == 25
    assert moscow == {"1103"}
    assert len(clear) == 140 - 25 - 1 and not clear & (forest | moscow)


def test_features(main, facts):
    forts = {h for line in facts["fortification"].values() for h in line}
    assert _labels(main, main.hexes_with_feature("fortification")) == forts and len(forts) == 22
    assert _labels(main, main.hexes_with_feature("star")) == set(facts["soviet_start_stars"])
    assert _labels(main, main.hexes_with_feature("cross")) == set(facts["german_start_crosses"])
    assert len(main.hexes_with_feature("star")) == 13 and len(main.hexes_with_feature("cross")) == 22
    cities = {main.label(h): f.name for h, info in main.hexes.items() for f in info.features if f.type == "city"}
    assert cities == {k: v["name"] for k, v in facts["cities"].items()} and len(cities) == 11


def test_rivers(main, facts):
    g = main.grid
    want = {Hexside.between(g.label_to_hex(a), g.label_to_hex(b)) for a, b in facts["rivers"]["hexsides"]}
    got = {s.side for s in main.hexsides if s.type == "river"}
    assert got == want and len(got) == 57
    edge = [(main.label(e.hex), g.direction_name(e.direction)) for e in main.edge_sides if e.type == "river"]
    assert edge == [tuple(x) for x in facts["rivers"]["map_edge_hexsides"]]


def test_rail_hexes(main, facts):
    rail = {h for p in main.paths if p.type == "rail" for h in p.hexes}
    assert _labels(main, rail) == set(facts["railroads"]["all_rail_hexes"]) and len(rail) == 68
    assert len([p for p in main.paths if p.type == "rail"]) == len(facts["railroads"]["lines"])


@pytest.mark.parametrize("die", sorted(CRT))
@pytest.mark.parametrize("odds", ODDS)
def test_crt_cell(game, die, odds):
    crt = game.table("crt")
    assert crt.cell(die, odds) == CRT[die][ODDS.index(odds)]


def test_crt_shape_and_legend(game):
    crt = game.table("crt")
    assert crt.columns == ("Die", *ODDS) and len(crt.rows) == 6
    assert {cell for row in crt.rows for cell in row[1:]} == set(crt.legend)


@pytest.mark.parametrize("scenario_id", ["seven-turn", "campaign"])
def test_scenario_is_clean(game, scenario_id):
    assert check_scenario(game, game.scenarios[scenario_id]) == []


def test_game_is_clean(game):
    assert check_game(game) == []


def test_setup_rules_are_the_games_data(game):
    """The engine enforces what game.yaml lists (no `if game == ...`): stars, crosses, states, 1st Shock."""
    assert [r.type for r in game.setup_rules] == [
        "one-per-feature",
        "only-on-feature",
        "one-per-feature",
        "only-on-feature",
        "start-state",
        "start-state",
        "not-on-map-at-start",
        "not-in-play-before",
        "arrival-state",
        "order-of-battle",
        "arrive-in-hex-set",
        "turn-value",
        "turn-value",
        "turn-value",
    ]
    assert game.stacking.params["model"] == "count" and game.stacking.params["limit"] == 1
