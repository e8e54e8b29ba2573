"""Every rule type and always-on check: one legal and one illegal fixture scenario, findings pinned as data."""

from __future__ import annotations

import shutil

import pytest
import yaml
from rules_support import FIXTURES, HERE, finding_key

from authoring.diagnostics import Severity, sorted_diagnostics
from authoring.load import load_card, load_project
from authoring.rules import check_game, check_scenario
from authoring.rules.registry import CODES, GAME_RULE_TYPES, GENERIC_CHECKS, RULE_TYPES

EXPECTED = yaml.safe_load((HERE / "fixtures" / "expected.yaml").read_text(encoding="utf-8"))
CASES = [(g, s) for g in sorted(EXPECTED) for s in sorted(EXPECTED[g])]


CARDS = HERE / "fixtures" / "cards"
"""A fixture scenario with a card here (cards/<game>/<scenario>.yaml) is checked as `check --card` does."""


@pytest.mark.parametrize(("game_id", "scenario_id"), CASES, ids=[f"{g}/{s}" for g, s in CASES])
def test_fixture_scenario(fixture_games, game_id, scenario_id):
    result = fixture_games[game_id]
    game, scenario = result.game, result.game.scenarios[scenario_id]
    card, diags = None, []
    path = CARDS / game_id / f"{scenario_id}.yaml"
    if path.exists():
        card, diags = load_card(path, result, scenario, None)
        assert card is not None
    found = [finding_key(d) for d in sorted_diagnostics(diags + check_scenario(game, scenario, card))]
    assert found == EXPECTED[game_id][scenario_id]


def test_every_fixture_scenario_has_expectations(fixture_games):
    on_disk = {(g, s) for g, r in fixture_games.items() for s in r.game.scenarios}
    assert on_disk == set(CASES)


def _case_names():
    return {s for g in EXPECTED for s in EXPECTED[g]}


@pytest.mark.parametrize("rule_type", sorted(set(RULE_TYPES)))
def test_each_rule_type_has_a_legal_and_an_illegal_case(rule_type):
    names = _case_names()
    prefix = {"follow-setup-codes": "codes"}.get(rule_type, rule_type)
    assert f"{prefix}-legal" in names and f"{prefix}-illegal" in names
    assert EXPECTED[_game_of(f"{prefix}-legal")][f"{prefix}-legal"] == []
    assert EXPECTED[_game_of(f"{prefix}-illegal")][f"{prefix}-illegal"]


def _game_of(name: str) -> str:
    return next(g for g in EXPECTED if name in EXPECTED[g])


def test_every_generic_code_is_caught_by_some_illegal_fixture():
    caught = {line.split(" | ")[0] for g in EXPECTED for lines in EXPECTED[g].values() for line in lines}
    for code in GENERIC_CHECKS:
        assert code in caught, code


def test_every_reported_code_is_documented():
    caught = {line.split(" | ")[0] for g in EXPECTED for lines in EXPECTED[g].values() for line in lines}
    assert caught <= set(CODES)


def test_composition_message_names_the_units_and_the_allowed_stacks(fixture_games):
    game = fixture_games["tiny"].game
    d = check_scenario(game, game.scenarios["stack-composition-illegal"])[0]
    assert d.message == "axis units in hex N0303 fit no allowed stack: ax-a1 (army), ax-c1 (corps)"
    assert d.help == "move ax-c1 to another hex; axis units here may stack as: 1 group; or 1 army; or 2 corps"
    assert d.hex == "N0303" and d.loc.col == 37


def test_overlapping_edge_hex_is_one_cell_under_both_labels(fixture_games):
    """N05xx and M01xx are the same cells: two armies there break Soviet stacking, and count on both maps."""
    game = fixture_games["tiny"].game
    stack = check_scenario(game, game.scenarios["multimap-stack-illegal"])
    assert [(d.code, d.hex) for d in stack] == [("HW-STACK-003", "M0102")]
    per_map = check_scenario(game, game.scenarios["max-per-map-illegal"])
    assert per_map[0].message == "2 bridge units start on map m, at most 1 may"


def test_refused_placement_names_terrain_and_nearest_legal_hex(fixture_games):
    game = fixture_games["tiny"].game
    d = check_scenario(game, game.scenarios["in-hex-set-illegal"])[0]
    assert d.message == "fi-c1 starts in hex N0303 (clear), outside hex set finland"
    assert (
        d.help
        == "finnish units may only start in a hex of finland; did you mean N0102? (the nearest free hex of finland)"
    )


def test_unknown_code_lists_the_valid_codes(fixture_games):
    game = fixture_games["tiny"].game
    d = next(d for d in check_scenario(game, game.scenarios["codes-illegal"]) if d.code == "HW-CODE-001")
    assert d.message == "so-a2 has no set-up code, which the set-up code grammar does not accept"
    assert d.help.startswith("valid codes: ^(?P<hex>[NMP][0-9]{4})$ (hex); ^(?P<turn>[0-9]+)$ (turn); ^w$ (hex-set)")


def test_option_adds_rules_only_when_chosen(fixture_games):
    game = fixture_games["tiny"].game
    scenario = game.scenarios["option-rules"]
    assert check_scenario(game, scenario) == []
    on = check_scenario(game, scenario, options=["star-start"])
    assert [finding_key(d) for d in on] == ["HW-PLACE-005 | Tiny 20.1 | option-rules.yaml:9"]


BROKEN_OPTION = """  - id: broken
    name: A rule with bad parameters
    default: false
    effects: {setup_rules: [{type: only-on-feature, rule: "20.2", side: soviet}, {type: one-per-featur, rule: "20.3"}]}
"""


def test_option_rules_with_bad_parameters_are_refused_where_written(tmp_path):
    """An option's rules are read with the scenario (scenario.schema.json types `effects`), on or off: a
    broken one is refused at its own line, not only once someone turns the option on."""
    shutil.copytree(FIXTURES, tmp_path / "p")
    path = tmp_path / "p" / "scenarios" / "tiny" / "option-rules.yaml"
    path.write_text(path.read_text() + BROKEN_OPTION)
    _, results = load_project(tmp_path / "p")
    tiny = next(r for r in results if r.game is None or r.game.id == "tiny")
    found = [d for d in tiny.diagnostics if d.loc and d.loc.file.endswith("option-rules.yaml")]
    assert [(d.code, d.loc.line) for d in found] == [("HW-SCHEMA-003", 18), ("HW-SCHEMA-005", 18)], found
    assert "feature" in found[0].message and "one-per-feature" in found[1].help + found[1].message


def test_unknown_option_is_reported(fixture_games):
    game = fixture_games["tiny"].game
    found = check_scenario(game, game.scenarios["option-rules"], options=["star-strat"])
    assert [(d.code, d.help) for d in found] == [("HW-RULE-003", "did you mean 'star-start'?")]


def test_check_game_runs_counter_mix_rules_once(fixture_games):
    pts = check_game(fixture_games["pts"].game)
    assert [finding_key(d) for d in pts] == [
        "HW-MIX-002 | Pts 8.5.2 | counters.csv:8",
        "HW-STACK-002 | Pts 3.2.1 | points-illegal.yaml:10",
    ]
    assert pts[0].message == "ax-6 has 2 steps, but attack 2 with 1 printed face gives 1"
    # ax-5 (attack 3, two faces) and ax-3 (attack 4, one face) pass: the `faces: 1` row only takes one-faced counters
    tiny = check_game(fixture_games["tiny"].game)
    assert not [d for d in tiny if d.code in {"HW-MIX-002"}]
    assert all(d.severity is Severity.ERROR for d in tiny)
    assert "steps-from-value" in GAME_RULE_TYPES


def test_points_model_lets_zero_value_units_stack_free(fixture_games):
    game = fixture_games["pts"].game
    legal = check_scenario(game, game.scenarios["points-legal"])  # 4 + 6 + HQ 0 = 10
    assert [d.code for d in legal] == ["HW-MIX-002"]  # the counter mix's own fault, as validate reports it
    d = next(d for d in check_scenario(game, game.scenarios["points-illegal"]) if d.code == "HW-STACK-002")
    assert d.message == "14 stacking points in hex 0101, limit is 10"


def test_check_and_validate_agree_on_counter_mix_findings(fixture_games):
    game = fixture_games["pts"].game
    mix = {(d.code, d.message, d.loc) for d in check_game(game) if d.code.startswith("HW-MIX")}
    for scenario in game.scenarios.values():
        assert {
            (d.code, d.message, d.loc) for d in check_scenario(game, scenario) if d.code.startswith("HW-MIX")
        } == mix


def test_fixture_project_path_is_a_project():
    assert (FIXTURES / "scenarios" / "tiny" / "game.yaml").is_file()
