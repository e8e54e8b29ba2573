"""Battle for Moscow data files checked against the map facts file and the rulebook.

Reads the YAML with plain yaml.safe_load (independent of the project loader) so the data
can be trusted before the loader exists.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from shared_files import shared_file

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "map": ROOT / "maps/bfm/main.yaml",
    "counters": ROOT / "counters/bfm/counters.yaml",
    "game": ROOT / "scenarios/bfm/game.yaml",
    "tables": ROOT / "scenarios/bfm/tables.yaml",
    "seven-turn": ROOT / "scenarios/bfm/seven-turn.yaml",
    "campaign": ROOT / "scenarios/bfm/campaign.yaml",
}

# Rulebook counter manifest: designation -> (full attack, half attack, movement).
SOVIET_ARMIES = ["3", "5", "10", "13", "16", "19", "20", "24", "29", "30", "32", "33", "40", "43", "49", "50"]
GERMAN = {
    "XXXIV": (4, 2, 4),
    "XLII": (4, 2, 4),
    "VI": (5, 2, 4),
    "XII": (5, 2, 4),
    "V": (6, 3, 4),
    "XIII": (6, 3, 4),
    "XX": (6, 3, 4),
    "XXVII": (6, 3, 4),
    "LIII": (6, 3, 4),
    "VII": (7, 4, 4),
    "VIII": (7, 4, 4),
    "IX": (7, 4, 4),
    "XXII": (8, 4, 4),
    "XXXV": (8, 4, 4),
    "XL": (8, 4, 6),
    "XLVIII": (8, 4, 6),
    "XLVII": (9, 4, 6),
    "LVI": (9, 4, 6),
    "XLVI": (10, 5, 6),
    "XXIV": (12, 6, 6),
    "XLI": (12, 6, 6),
    "LVII": (12, 6, 6),
}
CRT = {
    1: ["DR", "DR", "DR", "DR", "DR", "DRL"],
    2: ["EX", "DR", "DR", "DR", "DRL", "DRL"],
    3: ["EX", "EX", "DR", "DR", "DRL", "DE"],
    4: ["NE", "EX", "DR", "DRL", "DRL", "DE"],
    5: ["NE", "NE", "EX", "DRL", "DE", "DE"],
    6: ["AL", "NE", "DRL", "DE", "DE", "DE"],
}
WEEKS = [
    "Oct I",
    "Oct II",
    "Oct III/IV",
    "Nov I/II",
    "Nov III",
    "Nov IV",
    "Dec I",
    "Dec II/III",
    "Dec IV/Jan I",
    "Jan II/III",
    "Jan IV/Feb I",
    "Feb II/III",
    "Mar I",
    "Mar II",
]


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def data() -> dict[str, dict]:
    return {name: _load(path) for name, path in FILES.items()}


@pytest.fixture(scope="module")
def facts() -> dict:
    return _load(shared_file("docs/bfm-map-facts.yaml"))


@pytest.fixture(scope="module")
def counters(data) -> dict[str, dict]:
    return {c["id"]: c for c in data["counters"]["counters"]}


def _neighbours(hex_id: str, facts: dict) -> set[str]:
    col, row = int(hex_id[:2]), int(hex_id[2:])
    table = facts["grid"]["neighbours"]["even_column" if col % 2 == 0 else "odd_column"]
    return {f"{col + dc:02d}{row + dr:02d}" for dc, dr in table.values()}


def _all_ints(node) -> list[int]:
    if isinstance(node, bool):
        return []
    if isinstance(node, int):
        return [node]
    if isinstance(node, dict):
        return [i for k, v in node.items() for i in _all_ints(k) + _all_ints(v)]
    if isinstance(node, list):
        return [i for v in node for i in _all_ints(v)]
    return []


def _all_hexes() -> set[str]:
    return {f"{c:02d}{r:02d}" for c in range(1, 15) for r in range(1, 11)}


# ---- every file ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FILES))
def test_kind_and_no_hex_id_read_as_int(data, name):
    """An unquoted hex id like 0201 would load as an int; no real value in these files exceeds 100."""
    expected_kind = {"map": "map", "counters": "counters", "game": "game", "tables": "tables"}.get(name, "scenario")
    assert data[name]["kind"] == expected_kind
    assert [i for i in _all_ints(data[name]) if i > 100] == []


# ---- map -------------------------------------------------------------------------------------


def test_grid_is_14_by_10_flat_even_shifted(data):
    grid = data["map"]["grid"]
    assert (grid["columns"], grid["rows"], grid["orientation"], grid["shifted"]) == (14, 10, "flat", "even")
    assert grid["columns"] * grid["rows"] == 140
    assert grid["hex_size"] == "0.75in"


def test_terrain_matches_facts(data, facts):
    terrain = data["map"]["terrain"]
    assert len(terrain["forest"]) == 25
    assert set(terrain["forest"]) == set(facts["forest"])
    assert terrain["moscow"] == ["1103"]
    assert set(terrain) == {"forest", "moscow"}


def test_fortifications_match_facts(data, facts):
    forts = data["map"]["features"]["fortification"]
    expected = {h for line in facts["fortification"].values() for h in line}
    assert len(forts) == len(set(forts)) == 22
    assert set(forts) == expected
    assert "1103" not in forts


def test_cities_match_facts(data, facts):
    cities = data["map"]["features"]["city"]
    assert len(cities) == 11
    assert {h: c["name"] for h, c in cities.items()} == {h: c["name"] for h, c in facts["cities"].items()}
    assert cities["1103"] == {"name": "Moscow"}


def test_rivers_match_facts_and_are_adjacent(data, facts):
    rivers = data["map"]["hexsides"]["river"]
    pairs = [r for r in rivers if isinstance(r, list)]
    edges = [r for r in rivers if isinstance(r, dict)]
    assert len(pairs) == 57
    assert {frozenset(p) for p in pairs} == {frozenset(p) for p in facts["rivers"]["hexsides"]}
    assert len({frozenset(p) for p in pairs}) == 57
    for a, b in pairs:
        assert b in _neighbours(a, facts), (a, b)
    assert edges == [{"hex": "1405", "side": "NE"}]
    ne = facts["grid"]["neighbours"]["even_column"]["NE"]
    assert f"{14 + ne[0]:02d}{5 + ne[1]:02d}" not in _all_hexes()


def test_rail_lines_match_facts_and_are_chains(data, facts):
    lines = data["map"]["paths"]["rail"]
    assert len(lines) == 18
    hexes_per_line = [[h for h in line["hexes"] if isinstance(h, str)] for line in lines]
    assert hexes_per_line == [line["hexes"] for line in facts["railroads"]["lines"]]
    for chain in hexes_per_line:
        for a, b in zip(chain, chain[1:]):
            assert b in _neighbours(a, facts), (a, b)
    all_rail = {h for chain in hexes_per_line for h in chain}
    assert len(all_rail) == 68
    assert all_rail == set(facts["railroads"]["all_rail_hexes"])
    assert len({line["name"] for line in lines}) == 18


def test_rail_exits_are_at_chain_ends_and_lead_off_map(data, facts):
    for line in data["map"]["paths"]["rail"]:
        items = line["hexes"]
        inner = items[1:-1]
        assert all(isinstance(h, str) for h in inner), line["name"]
        for pos in (0, -1):
            if isinstance(items[pos], dict):
                edge_hex = items[1] if pos == 0 else items[-2]
                col, row = int(edge_hex[:2]), int(edge_hex[2:])
                table = facts["grid"]["neighbours"]["even_column" if col % 2 == 0 else "odd_column"]
                dc, dr = table[items[pos]["exit"]]
                assert f"{col + dc:02d}{row + dr:02d}" not in _all_hexes(), line["name"]


def test_stars_and_crosses_match_facts(data, facts):
    features = data["map"]["features"]
    assert len(features["star"]) == 13 and set(features["star"]) == set(facts["soviet_start_stars"])
    assert len(features["cross"]) == 22 and set(features["cross"]) == set(facts["german_start_crosses"])


def test_every_map_hex_id_is_on_the_grid(data):
    m = data["map"]
    used = set(m["terrain"]["forest"]) | set(m["terrain"]["moscow"])
    for _feature, value in m["features"].items():
        used |= set(value)
    used |= {h for r in m["hexsides"]["river"] for h in (r if isinstance(r, list) else [r["hex"]])}
    used |= {label["hex"] for label in m.get("labels", [])}
    assert used <= _all_hexes()


# ---- counters --------------------------------------------------------------------------------


def _faces(counter: dict) -> list[tuple]:
    return [(f["state"], f["values"]["attack"], f["values"]["movement"]) for f in counter["faces"]]


def test_soviet_counters(counters):
    soviet = [c for c in counters.values() if c.get("side") == "soviet" and not c.get("marker")]
    assert len(soviet) == 18
    for d in SOVIET_ARMIES:
        c = counters[f"sov-{d}"]
        assert (c["designation"], c["type"], c["size"]) == (d, "infantry", "army")
        assert _faces(c) == [("full", 8, 4), ("half", 4, 4)]
    shock, tank = counters["sov-1shock"], counters["sov-tank"]
    assert (shock["designation"], shock["type"], _faces(shock)) == (
        "1 Shock",
        "infantry",
        [("full", 10, 4), ("half", 5, 4)],
    )
    assert (tank["type"], tank["size"], _faces(tank)) == ("tank", "army", [("full", 8, 4), ("half", 4, 4)])


def test_german_counters(counters):
    german = {c["designation"]: c for c in counters.values() if c.get("side") == "german" and not c.get("marker")}
    assert len(german) == 22 and set(german) == set(GERMAN)
    for designation, (full, half, ma) in GERMAN.items():
        c = german[designation]
        assert c["id"] == f"ger-{designation.lower()}"
        assert c["size"] == "corps"
        assert _faces(c) == [("full", full, ma), ("half", half, ma)]
        panzer = ma == 6
        assert c["type"] == ("panzer" if panzer else "infantry")
        assert ("motorized" in c.get("flags", [])) is panzer


def test_markers(counters):
    markers = [c for c in counters.values() if c.get("marker")]
    assert {c["id"] for c in markers} >= {
        "mk-weather",
        "mk-vp-soviet",
        "mk-vp-german",
        "mk-supply-soviet",
        "mk-supply-german",
        "mk-attack",
        "mk-city-control",
    }
    for c in markers:  # a side's marker carries its side (its colour); the shared ones carry none
        assert len(c["faces"]) == 1 and c["faces"][0]["values"] == {} and c.get("icon")
    assert {c["id"]: c.get("side") for c in markers if c.get("side")} == {
        "mk-vp-soviet": "soviet",
        "mk-vp-german": "german",
        "mk-supply-soviet": "soviet",
        "mk-supply-german": "german",
        "mk-city-control": "soviet",
    }
    assert len(counters) == 40 + len(markers)


def test_counter_ids_unique_and_types_declared(data, counters):
    assert len(counters) == len(data["counters"]["counters"])
    game = data["game"]
    types = {t["id"] for t in game["unit_types"]}
    sizes = {s["id"] for s in game["unit_sizes"]}
    flags = {f["id"] for f in game["flags"]}
    for c in counters.values():
        assert c["type"] in types and c.get("size", "corps") in sizes
        assert set(c.get("flags", [])) <= flags


# ---- game manifest ---------------------------------------------------------------------------


def test_game_manifest(data):
    game = data["game"]
    assert [s["id"] for s in game["sides"]] == ["soviet", "german"]
    assert len(game["phases"]) == 8 and game["phases"][0] == "German Replacement"
    assert game["phases"][4:] == ["Soviet Replacement", "Soviet Rail Movement", "Soviet Combat", "Soviet Movement"]
    assert game["stacking"] == {"model": "count", "limit": 1, "rule": "Movement: Restrictions"}
    sets = game["hex_sets"]
    assert sets["west-edge"]["edge"] == "west"
    assert sets["stars"] == {"feature": "star"} and sets["crosses"] == {"feature": "cross"}
    # the arrow hexes are map features (drawn on the map), the hex sets read them
    assert sets["single-arrow"]["feature"] == "single-arrow" and sets["triple-arrow"]["feature"] == "triple-arrow"
    features = data["map"]["features"]
    assert set(features["single-arrow"]) == {f"14{r:02d}" for r in range(1, 11)}  # the whole east edge
    assert len(features["triple-arrow"]) == 3 and set(features["triple-arrow"]) <= _all_hexes()
    assert len(game["setup_rules"]) == 14


# ---- tables ----------------------------------------------------------------------------------


def _table(data, table_id: str) -> dict:
    return next(t for t in data["tables"]["tables"] if t["id"] == table_id)


@pytest.mark.parametrize("die", range(1, 7))
def test_crt_row(data, die):
    crt = _table(data, "crt")
    assert crt["columns"] == ["Die", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    assert crt["rows"][die - 1] == [die] + CRT[die]


def test_crt_legend_covers_every_result(data):
    crt = _table(data, "crt")
    assert set(crt["legend"]) == {r for row in CRT.values() for r in row} == {"NE", "DR", "DRL", "AL", "DE", "EX"}


def test_tec_and_turn_tables(data):
    assert [r[0] for r in _table(data, "tec")["rows"]] == [
        "Forest",
        "City",
        "Moscow",
        "Fortification",
        "River",
        "Railroad",
        "Star or Cross",
    ]
    trc = _table(data, "turn-record")["rows"]
    assert [r[2] for r in trc] == WEEKS[:7]
    assert [r[1] for r in trc] == ["Clear", "Clear", "Mud", "Mud", "Clear", "Clear", "Clear"]
    campaign = _table(data, "campaign-timetable")["rows"]
    assert [r[2] for r in campaign] == WEEKS
    assert [r[0] for r in campaign if r[1] == "Snow"] == [8, 9, 10, 11, 12]


def test_replacement_and_vp_tables(data):
    rows = _table(data, "replacements")["rows"]
    assert [r[1] for r in rows] == [0] + [1] * 13
    assert [r[2] for r in rows] == [5] * 7 + [2] * 7
    assert [r[1] for r in _table(data, "victory-points")["rows"]] == [1, 5, 20, 10]


# ---- scenarios -------------------------------------------------------------------------------


@pytest.mark.parametrize("name,turns", [("seven-turn", 7), ("campaign", 14)])
def test_turns(data, name, turns):
    scen = data[name]
    assert [t["turn"] for t in scen["turns"]] == list(range(1, turns + 1))
    assert [t["date"] for t in scen["turns"]] == WEEKS[:turns]
    snow = [t["turn"] for t in scen["turns"] if t["weather"] == "snow"]
    mud = [t["turn"] for t in scen["turns"] if t["weather"] == "mud"]
    assert mud == [3, 4] and snow == ([8, 9, 10, 11, 12] if turns == 14 else [])
    assert [t["values"]["german_replacements"] for t in scen["turns"]] == [0] + [1] * (turns - 1)
    assert [t["values"]["soviet_replacements"] for t in scen["turns"]] == ([5] * 7 + [2] * 7)[:turns]


@pytest.mark.parametrize("name", ["seven-turn", "campaign"])
def test_setup_places_each_star_and_cross_once(data, counters, facts, name):
    setup = data[name]["setup"]
    sov_hexes = [p["hex"] for p in setup["soviet"]]
    ger_hexes = [p["hex"] for p in setup["german"]]
    assert sorted(sov_hexes) == sorted(facts["soviet_start_stars"])
    assert sorted(ger_hexes) == sorted(facts["german_start_crosses"])
    sov_units = [u for p in setup["soviet"] for u in p["units"]]
    ger_units = [u for p in setup["german"] for u in p["units"]]
    assert all(len(p["units"]) == 1 for p in setup["soviet"] + setup["german"])
    assert len(set(sov_units)) == 13 and set(sov_units) <= {f"sov-{d}" for d in SOVIET_ARMIES}
    assert sorted(ger_units) == sorted(
        c["id"] for c in counters.values() if c.get("side") == "german" and not c.get("marker")
    )
    assert {p["state"] for p in setup["soviet"]} == {"half"}
    assert {p["state"] for p in setup["german"]} == {"full"}
    pool = [u for box in data[name]["off_map"]["soviet"] for u in box["units"]]
    assert sorted(pool + sov_units) == sorted(f"sov-{d}" for d in SOVIET_ARMIES)


@pytest.mark.parametrize("name", ["seven-turn", "campaign"])
def test_reinforcements_and_options(data, counters, name):
    scen = data[name]
    arrivals = {(r["turn"], tuple(r["units"])) for r in scen["reinforcements"]}
    expected = {(4, ("sov-1shock",))} | ({(13, ("sov-tank",))} if name == "campaign" else set())
    assert arrivals == expected
    for r in scen["reinforcements"]:
        assert r["at"] in data["game"]["hex_sets"]
    options = {o["id"]: o for o in scen["options"]}
    assert {
        "improved-1st-shock",
        "stronger-defensive-line",
        "german-logistics-problems",
        "soviet-replacement-edge",
        "harsher-winter",
        "advanced-crt",
        "early-1st-shock",
        "variable-weather",
        "war-of-attrition",
        "handicap-soviet-4",
        "handicap-soviet-3",
        "handicap-german-even-turns",
    } == set(options)
    assert all(o["default"] is False for o in options.values())
    assert set(options["war-of-attrition"]["effects"]["with_options"]) == set(options) - {
        "war-of-attrition",
        "handicap-soviet-4",
        "handicap-soviet-3",
        "handicap-german-even-turns",
    }
    assert "5 German and 15 Soviet" in options["war-of-attrition"]["effects"]["not_checked"][0]
    for n in (4, 3):
        changed = options[f"handicap-soviet-{n}"]["effects"]["turn_values"]
        assert changed == [{"turns": [1, 2, 3, 4, 5, 6, 7], "values": {"soviet_replacements": n}}]
    last = max(t["turn"] for t in scen["turns"])
    for oid in ("handicap-german-even-turns", "german-logistics-problems"):
        (changed,) = options[oid]["effects"]["turn_values"]
        assert changed["turns"] == [t for t in range(1, last + 1) if t not in (2, 4, 6)]
        assert changed["values"] == {"german_replacements": 0}
    assert sorted(v["points"] for v in scen["victory"]) == [1, 1, 5, 5, 10, 20, 20]
