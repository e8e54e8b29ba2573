"""Scenario options are rules: every effect an option declares is applied by the engine, or refused.

Battle for Moscow's optional rules, each with a legal and an illegal set-up (the campaign's data, edited in a
copy of the game), checked as `hexwright check --option` checks them."""

from __future__ import annotations

import json
import shutil
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_support import ROOT

from authoring.cli.main import main as cli
from authoring.diagnostics import Severity
from authoring.load import load_project
from authoring.model import OptionEffects
from authoring.rules import check_scenario
from authoring.rules.options import EFFECT_KINDS, chosen, with_turn_values

FIRST_SHOCK = "- {turn: 4, side: soviet, units: [sov-1shock], at: single-arrow, state: half,"


def _copy(tmp_path: Path, scenario: str = "campaign", edits: tuple[tuple[str, str], ...] = ()) -> Path:
    """A copy of the bfm game with `edits` (old, new) made to one scenario file."""
    root = tmp_path / "p"
    for sub in ("maps/bfm", "counters/bfm", "scenarios/bfm"):
        shutil.copytree(ROOT / sub, root / sub)
    path = root / "scenarios" / "bfm" / f"{scenario}.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return root


def _game(root: Path):
    _, results = load_project(root)
    (result,) = [r for r in results if r.game is not None and r.game.id == "bfm"]
    assert result.ok, [str(d) for d in result.diagnostics]
    return result.game


def _check(tmp_path, options=(), edits=(), scenario="campaign"):
    game = _game(_copy(tmp_path, scenario, edits))
    return check_scenario(game, game.scenarios[scenario], options=options)


def _errors(found):
    return [(d.code, d.rule) for d in found if d.severity == Severity.ERROR]


def _not_checked(found):
    return [d.message for d in found if d.code == "HW-OPT-002"]


def _arrival(turn: int, at: str, state: str = "half") -> tuple[tuple[str, str], ...]:
    return ((FIRST_SHOCK, f"- {{turn: {turn}, side: soviet, units: [sov-1shock], at: {at}, state: {state},"),)


OFF_STAR = ((' - {hex: "0301", units: [sov-29], state: half}', ' - {hex: "0601", units: [sov-29], state: half}'),)
"""A Soviet army set up off its star: illegal whatever option is on."""


def test_effect_kinds_agree_in_schema_model_and_engine():
    doc = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
    effects = doc["properties"]["options"]["items"]["properties"]["effects"]["properties"]
    model = {f.name for f in fields(OptionEffects)} - {"kinds"}
    assert set(effects) == set(EFFECT_KINDS) == model


# -- Soviet Replacement Edge: the triple-arrow hexes on turns 1-3 and 13-14 (the campaign).


def test_replacement_edge_lets_first_shock_enter_at_the_triple_arrows_on_turn_13(tmp_path):
    found = _check(tmp_path, ["soviet-replacement-edge"], _arrival(13, "triple-arrow"))
    assert _errors(found) == []
    assert any("communication" in m for m in _not_checked(found))


def test_replacement_edge_is_closed_on_other_turns_and_without_the_option(tmp_path):
    on_turn_5 = _check(tmp_path / "a", ["soviet-replacement-edge"], _arrival(5, "triple-arrow"))
    assert _errors(on_turn_5) == [("HW-SCHED-008", "BfM Replacements")]
    without = _check(tmp_path / "b", (), _arrival(13, "triple-arrow"))
    assert _errors(without) == [("HW-SCHED-008", "BfM Replacements")]
    (d,) = [d for d in without if d.code == "HW-SCHED-008"]  # the player who forgot the option is told
    assert d.help.endswith(
        "; option soviet-replacement-edge opens it on turn 13 (check --option soviet-replacement-edge)"
    )
    assert "option" not in next(d for d in on_turn_5 if d.code == "HW-SCHED-008").help


def test_replacement_edge_in_the_seven_turn_game_is_turns_1_to_3(tmp_path):
    edits = ((FIRST_SHOCK, "- {turn: 4, side: soviet, units: [sov-1shock], at: triple-arrow, state: half,"),)
    found = _check(tmp_path, ["soviet-replacement-edge"], edits, scenario="seven-turn")
    assert _errors(found) == [("HW-SCHED-008", "BfM Replacements")]  # turn 4 is past the edge's turns


# -- Possible Early 1st Shock: turn 3 instead of 4, at half strength.


def test_early_first_shock_may_arrive_on_turn_3(tmp_path):
    found = _check(tmp_path, ["early-1st-shock"], _arrival(3, "single-arrow"))
    assert _errors(found) == []
    assert any("die roll" in m for m in _not_checked(found))


def test_early_first_shock_is_not_earlier_than_turn_3_nor_full_strength(tmp_path):
    turn_2 = _check(tmp_path / "a", ["early-1st-shock"], _arrival(2, "single-arrow"))
    assert _errors(turn_2) == [("HW-SCHED-006", "BfM Optional Rules: Possible Early 1st Shock")]
    full = _check(tmp_path / "b", ["early-1st-shock"], _arrival(3, "single-arrow", "full"))
    assert ("HW-STATE-004", "BfM Optional Rules: Possible Early 1st Shock") in _errors(full)
    without = _check(tmp_path / "c", (), _arrival(3, "single-arrow"))
    assert _errors(without) == [("HW-SCHED-006", "BfM 1st Shock Army")]


# -- Improved 1st Shock: it arrives at half strength; its column shift is combat, named as not checked.


def test_improved_first_shock_arrives_at_half_strength(tmp_path):
    found = _check(tmp_path, ["improved-1st-shock"])
    assert _errors(found) == []
    assert any("column shift" in m for m in _not_checked(found))


def test_improved_first_shock_at_full_strength_is_refused_citing_the_option(tmp_path):
    found = _check(tmp_path, ["improved-1st-shock"], _arrival(4, "single-arrow", "full"))
    assert _errors(found) == [
        ("HW-STATE-004", "BfM Replacements"),
        ("HW-STATE-004", "BfM Soviet Play Balance: Improved Soviet 1st Shock Unit"),
    ]


# -- German Logistics Problems and the German handicap: German replacements only on turns 2, 4 and 6.


@pytest.mark.parametrize("option", ["german-logistics-problems", "handicap-german-even-turns"])
def test_german_replacements_only_on_even_turns(tmp_path, option):
    game = _game(_copy(tmp_path))
    scen = game.scenarios["campaign"]
    assert _errors(check_scenario(game, scen, options=[option])) == []
    record = with_turn_values(scen, chosen(scen, [option]))
    assert [t.values["german_replacements"] for t in record.turns] == [0, 1, 0, 1, 0, 1] + [0] * 8
    assert [t.values["german_replacements"] for t in scen.turns] == [0] + [1] * 13  # the option off: as printed


@pytest.mark.parametrize("option", ["german-logistics-problems", "handicap-german-even-turns"])
def test_german_replacement_on_an_odd_turn_is_refused_under_the_option(tmp_path, option):
    """The option's turn record is checked by its own rule: a record giving a point on turn 5 is wrong."""
    game = _game(_copy(tmp_path))
    scen = game.scenarios["campaign"]
    found = check_scenario(game, scen, options=[option])
    assert found == [d for d in found if d.severity != Severity.ERROR]
    edits = (("turn_values: [{turns: [1, 3, 5, 7, 8,", "turn_values: [{turns: [1, 3, 7, 8,"),)
    wrong = _check(tmp_path / "b", [option], edits)
    assert [(d.code, d.message) for d in wrong if d.severity == Severity.ERROR][:1] == [
        ("HW-VALUE-001", "turn 5 gives german_replacements 1, but it must equal 0")
    ]


# -- Handicaps: the Soviet player gets 4 or 3 replacement points on turns 1-7.


@pytest.mark.parametrize("n", [4, 3])
def test_soviet_handicap_changes_the_replacement_points(tmp_path, n):
    game = _game(_copy(tmp_path))
    scen = game.scenarios["campaign"]
    assert _errors(check_scenario(game, scen, options=[f"handicap-soviet-{n}"])) == []
    record = with_turn_values(scen, chosen(scen, [f"handicap-soviet-{n}"]))
    assert [t.values["soviet_replacements"] for t in record.turns] == [n] * 7 + [2] * 7


@pytest.mark.parametrize("n", [4, 3])
def test_soviet_handicap_record_that_keeps_five_points_is_refused(tmp_path, n):
    edits = (
        (
            f"turn_values: [{{turns: [1, 2, 3, 4, 5, 6, 7], values: {{soviet_replacements: {n}}}",
            f"turn_values: [{{turns: [1, 2, 3, 4, 5, 6], values: {{soviet_replacements: {n}}}",
        ),
    )
    found = _check(tmp_path, [f"handicap-soviet-{n}"], edits)
    assert [(d.code, d.message) for d in found if d.severity == Severity.ERROR] == [
        ("HW-VALUE-001", f"turn 7 gives soviet_replacements 5, but it must equal {n}")
    ]


# -- Options that change only play: the set-up checks stay, and the check names what it did not check.


@pytest.mark.parametrize(
    ("option", "named"),
    [
        ("stronger-defensive-line", "two left odds shifts"),
        ("harsher-winter", "Winter Attrition"),
        ("advanced-crt", "1:2 and 3:2 odds columns"),
        ("variable-weather", "weather roll"),
    ],
)
def test_play_only_option_passes_a_legal_setup_and_says_what_is_not_checked(tmp_path, option, named):
    found = _check(tmp_path, [option])
    assert _errors(found) == []
    (message,) = _not_checked(found)
    assert message.startswith(f"option {option!r} is on; not checked: ") and named in message


@pytest.mark.parametrize("option", ["stronger-defensive-line", "harsher-winter", "advanced-crt", "variable-weather"])
def test_play_only_option_frees_no_setup(tmp_path, option):
    found = _check(tmp_path, [option], OFF_STAR)
    assert ("HW-PLACE-005", "BfM Starting the Game") in _errors(found)


# -- War of Attrition: played with every Play Balance and Optional rule.


def test_war_of_attrition_turns_on_the_other_rules(tmp_path):
    found = _check(tmp_path, ["war-of-attrition"], _arrival(13, "triple-arrow"))
    assert _errors(found) == []  # the Replacement Edge came with it
    assert len(_not_checked(found)) == 8 and any("supply points" in m for m in _not_checked(found))


def test_war_of_attrition_keeps_the_first_shock_from_turn_3(tmp_path):
    found = _check(tmp_path, ["war-of-attrition"], _arrival(2, "single-arrow", "full"))
    assert ("HW-SCHED-006", "BfM Optional Rules: Possible Early 1st Shock") in _errors(found)
    assert ("HW-STATE-004", "BfM Soviet Play Balance: Improved Soviet 1st Shock Unit") in _errors(found)


# -- Arrival state (Replacements: a unit a Replacement point creates is half strength).


def test_first_shock_scheduled_at_full_strength_is_refused(tmp_path):
    found = _check(tmp_path, (), ((FIRST_SHOCK, "- {turn: 4, side: soviet, units: [sov-1shock], at: single-arrow,"),))
    (d,) = [d for d in found if d.severity == Severity.ERROR]
    assert (d.code, d.rule) == ("HW-STATE-004", "BfM Replacements")
    assert d.message == (
        "sov-1shock arrives on turn 4 at state 'full' (its first face, as no state is written); "
        "infantry/panzer units arrive at 'half'"
    )
    assert d.loc.file.endswith("campaign.yaml") and d.help == "write state: half on the reinforcement of sov-1shock"


def test_the_tank_unit_takes_the_state_of_the_army_it_converts(tmp_path):
    """The Tank unit is not created by a Replacement point: either state passes (What Happens Next)."""
    for state in ("full", "half"):
        edits = (("units: [sov-tank], at: single-arrow,", f"units: [sov-tank], at: single-arrow, state: {state},"),)
        assert _errors(_check(tmp_path / state, (), edits)) == []


# -- Effects no rule applies, and names that are not the scenario's.


UNREAD = (
    '    effects:\n      not_checked: ["the EARLY/LATE weather roll',
    '    effects:\n      weather_roll: {die: d6}\n      not_checked: ["the EARLY/LATE weather roll',
)


def test_an_effect_no_rule_applies_is_an_error_even_when_the_option_is_off(tmp_path):
    found = _check(tmp_path, (), (UNREAD,))
    (d,) = [d for d in found if d.severity == Severity.ERROR]
    assert d.code == "HW-OPT-001"
    assert d.message == "option 'variable-weather' declares effect 'weather_roll', which no rule of hexwright applies"
    assert d.loc.file.endswith("campaign.yaml") and d.loc.line > 1


def test_validate_refuses_an_effect_no_rule_applies(tmp_path, monkeypatch):
    root = _copy(tmp_path, "campaign", (UNREAD,))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["validate", "bfm"])
    assert result.exit_code == 1 and "HW-OPT-001" in result.output


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "with_options: [improved-1st-shock,",
            "with_options: [improved-1st-shok,",
            "option 'war-of-attrition' turns on option 'improved-1st-shok', which the scenario does not offer",
        ),
        (
            "values: {soviet_replacements: 4}",
            "values: {soviet_replacement: 4}",
            "option 'handicap-soviet-4' changes value 'soviet_replacement', which no turn of the turn record gives",
        ),
        (
            "turn_values: [{turns: [1, 2, 3, 4, 5, 6, 7], values: {soviet_replacements: 3}",
            "turn_values: [{turns: [1, 2, 3, 4, 5, 6, 17], values: {soviet_replacements: 3}",
            "option 'handicap-soviet-3' changes turn 17, which the turn record does not have",
        ),
    ],
)
def test_an_effect_naming_what_the_scenario_lacks_is_an_error(tmp_path, old, new, message):
    found = _check(tmp_path, (), ((old, new),))
    assert [(d.code, d.message) for d in found if d.code == "HW-OPT-003"] == [("HW-OPT-003", message)]


def test_check_command_applies_the_option(tmp_path, monkeypatch):
    monkeypatch.chdir(_copy(tmp_path, "campaign", _arrival(13, "triple-arrow")))
    runner = CliRunner()
    on = runner.invoke(cli, ["check", "bfm/campaign", "--option", "soviet-replacement-edge"])
    assert on.exit_code == 0 and "All checks passed. (1 note)" in on.output and "not checked:" in on.output
    off = runner.invoke(cli, ["check", "bfm/campaign"])
    assert off.exit_code == 1 and "HW-SCHED-008" in off.output
