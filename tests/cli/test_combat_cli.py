"""`hexwright combat`: a battle's report as text and JSON, and every mistake in its arguments a finding with a
hint (exit 1, no traceback); a scenario that names nothing a usage error (exit 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from shared_files import ROOT

from authoring.cli import main

BATTLE = ["--turn", "1", "--defender", "sov-20@0705:half", "--attacker", "ger-xxiv@0704", "--attacker", "ger-vii@0804"]


def run(*args: str):
    return CliRunner().invoke(main, ["combat", *args, "--project", str(ROOT)])


def test_text_names_totals_odds_shifts_column_every_roll():
    got = run(
        "bfm/campaign",
        "--turn",
        "1",
        "--defender",
        "sov-16@0604:half",
        "--attacker",
        "ger-xli@0704",
        "--attacker",
        "ger-lvii@0705",
    )
    assert got.exit_code == 0, got.output
    lines = got.stdout.splitlines()
    assert lines[0] == "combat at 0604 (bfm/campaign, turn 1, clear)"
    assert "  attack 24 to defence 4: odds 6:1" in lines
    assert "  forest -1 column (Terrain Effects Chart)" in lines
    assert "  river -1 column (Combat: Terrain Effects)" in lines
    assert "  final column 4:1" in lines
    assert [line for line in lines if line.startswith("  roll ")] == [
        "  roll 1: DR",
        "  roll 2: DR",
        "  roll 3: DR",
        "  roll 4: DRL",
        "  roll 5: DRL",
        "  roll 6: DE",
    ]


def test_json_fields_as_documented():
    got = run("bfm/campaign", *BATTLE, "--roll", "4", "--format", "json")
    assert got.exit_code == 0, got.output
    report = json.loads(got.stdout)
    assert set(report) == {
        "game",
        "scenario",
        "map",
        "hex",
        "turn",
        "weather",
        "defenders",
        "attackers",
        "attack",
        "defence",
        "odds",
        "modifiers",
        "column",
        "drm",
        "results",
        "not_applied",
    }
    assert report["defenders"] == [
        {"unit": "sov-20", "hex": "0705", "state": "half", "side": "soviet", "type": "infantry", "strength": 4}
    ]
    assert report["results"] == [{"roll": 4, "row": 4, "result": "DRL"}]
    documented = (ROOT / "docs" / "combat.md").read_text(encoding="utf-8")
    assert all(f"`{field}`" in documented for field in report)


def test_a_shift_the_tables_cannot_total_is_named_not_applied():
    """Typhoon's Moscow DRM depends on the attacker's side and is computed; what the data leaves to the players
    (attack supply, close air support, defensive artillery from other hexes) is named, each with its rule."""
    got = run(
        "typhoon/campaign",
        "--turn",
        "2",
        "--defender",
        "sov-nkvd-1@M2523",
        "--attacker",
        "ger-5id@M2522",
        "--roll",
        "5",
        "--format",
        "json",
    )
    report = json.loads(got.stdout)
    assert [m["label"] for m in report["modifiers"]] == ["Moscow +2 DRM"]
    assert report["results"][0]["row"] == 7
    assert [n["rule"] for n in report["not_applied"]] == ["6.5.7", "11.5.3", "10.1.2"]


@pytest.mark.parametrize(
    ("args", "code", "message", "hint"),
    [
        (
            ["--defender", "sov-20", "--attacker", "ger-vii@0804"],
            "HW-CALC-001",
            "'sov-20' is not UNIT@HEX",
            "a counter id",
        ),
        (
            ["--defender", "sov-20@0705", "--attacker", "ger-vx@0804"],
            "HW-CALC-001",
            "no unit 'ger-vx'",
            "did you mean 'ger-v",
        ),
        (["--defender", "sov-20@0705", "--attacker", "mk-attack@0804"], "HW-CALC-001", "no unit 'mk-attack'", ""),
        (["--defender", "sov-20@0799", "--attacker", "ger-vii@0804"], "HW-CALC-001", "no hex '0799'", "did you mean"),
        (
            ["--defender", "sov-20@0705:halve", "--attacker", "ger-vii@0804"],
            "HW-CALC-001",
            "no face 'halve'",
            "did you mean 'half'",
        ),
        (
            ["--defender", "sov-20@0705:half+mk-atack", "--attacker", "ger-vii@0804"],
            "HW-CALC-001",
            "no marker 'mk-atack'",
            "mk-attack",
        ),
        (
            ["--defender", "sov-20@0705", "--attacker", "ger-vii@0909"],
            "HW-CALC-002",
            "5 hexes from the defender",
            "beside",
        ),
        (
            ["--defender", "sov-20@0705", "--attacker", "sov-3@0804"],
            "HW-CALC-002",
            "of the defender's side",
            "other side",
        ),
        (
            ["--defender", "sov-20@0705", "--attacker", "ger-vii@0705"],
            "HW-CALC-002",
            "0 hexes from the defender",
            "beside",
        ),
        (
            ["--defender", "sov-20@0705", "--defender", "sov-3@0804", "--attacker", "ger-vii@0704"],
            "HW-CALC-002",
            "defenders in two hexes",
            "one hex",
        ),
        (
            ["--defender", "sov-20@0705", "--attacker", "ger-vii@0804", "--attacker", "ger-vii@0704"],
            "HW-CALC-002",
            "named twice",
            "once",
        ),
        (["--defender", "sov-20@0705"], "HW-CALC-002", "no attacker", "--attacker"),
        (
            ["--defender", "sov-20@0705", "--attacker", "ger-vii@0804", "--roll", "7"],
            "HW-CALC-002",
            "roll of 7 is off the die",
            "1 to 6",
        ),
        (
            ["--defender", "sov-20@0705", "--attacker", "ger-vii@0804", "--turn", "15"],
            "HW-CALC-002",
            "no turn 15",
            "1 to 14",
        ),
    ],
)
def test_a_bad_argument_is_a_finding_with_a_hint(args, code, message, hint):
    got = run("bfm/campaign", *args, *([] if "--turn" in args else ["--turn", "1"]))
    assert got.exit_code == 1, got.output
    assert got.exception is None or isinstance(got.exception, SystemExit)
    assert f"error[{code}]" in got.output and message in got.output, got.output
    assert "= help: " in got.output and hint in got.output, got.output
    assert "Traceback" not in got.output


def test_a_scenario_with_a_turn_record_needs_the_turn():
    got = run("bfm/campaign", *BATTLE[2:])
    assert got.exit_code == 1
    assert "error[HW-CALC-002]: no --turn" in got.output and "give --turn N, from 1 to 14" in got.output


def test_a_unit_the_scenario_does_not_hold():
    got = run("bfm/seven-turn", "--defender", "ger-xl@0705", "--attacker", "sov-tank@0804")
    assert got.exit_code == 1
    assert "unit 'sov-tank' is not in scenario 'seven-turn'" in got.output


def test_findings_as_json():
    got = run("bfm/campaign", "--defender", "sov-20@0799", "--attacker", "ger-vii@0804", "--format", "json")
    assert got.exit_code == 1
    found = json.loads(got.stdout)
    assert [f["code"] for f in (found if isinstance(found, list) else found["diagnostics"])] == ["HW-CALC-001"]


def test_a_scenario_that_names_nothing_is_a_usage_error():
    got = run("bfm/nine-turn", *BATTLE)
    assert got.exit_code == 2 and "Traceback" not in got.output


def test_artillery_reaches_as_far_as_its_printed_range_and_no_further():
    ok = run(
        "typhoon/campaign",
        "--turn",
        "2",
        "--defender",
        "sov-13rd@M1520",
        "--attacker",
        "ger-5id@M1519",
        "--attacker",
        "ger-art-1@M1518",
    )
    assert ok.exit_code == 0, ok.output
    far = run(
        "typhoon/campaign",
        "--turn",
        "2",
        "--defender",
        "sov-13rd@M1520",
        "--attacker",
        "ger-5id@M1519",
        "--attacker",
        "ger-art-1@M1517",
    )
    assert far.exit_code == 1 and "3 hexes from the defender" in far.output and "within its range 2" in far.output
    hq = run("typhoon/campaign", "--turn", "2", "--defender", "ger-5id@M1520", "--attacker", "sov-hq-19@M1518")
    assert hq.exit_code == 1 and "2 hexes from the defender" in hq.output  # a command range is no fire range


def test_the_turns_weather_reaches_the_battle():
    """The turn's weather comes from the scenario's turn record: mud halves BfM's attack (Mud Turns), snow does
    not; a game whose weather is rolled (Typhoon 5.1.2) takes it from --weather, else names what it decides."""
    args = ("bfm/campaign", *BATTLE[2:], "--roll", "1", "--format", "json")
    clear, mud, snow = (json.loads(run(*args, "--turn", t).stdout) for t in ("1", "3", "8"))
    assert (clear["weather"], mud["weather"], snow["weather"]) == ("clear", "mud", "snow")
    assert mud["attack"] == clear["attack"] / 2 and snow["attack"] == clear["attack"]
    typhoon = ("typhoon/campaign", "--turn", "2", "--defender", "sov-13rd@M1520", "--attacker", "ger-1pz-pz@M1519")
    typhoon += ("--attacker", "ger-1pz-m1@M1420", "--roll", "5", "--format", "json")
    rolled = json.loads(run(*typhoon).stdout)
    assert rolled["weather"] is None and any(
        "the weather is rolled (5.1.2)" in n["label"] for n in rolled["not_applied"]
    )
    dry = json.loads(run(*typhoon, "--weather", "dry").stdout)
    assert dry["weather"] == "dry" and dry["drm"] == -1  # Combined Arms (9.1.1), computed in dry weather
    wrong = run(*typhoon, "--weather", "sunny")
    assert wrong.exit_code == 1 and "no weather 'sunny'" in wrong.output


def test_a_marker_is_applied_or_named_as_not_applied():
    """A Step Loss marker on the defender either lowers what the battle counts or the report names it as left
    out: never a result that silently ignores it."""
    args = ["typhoon/campaign", "--turn", "2", "--attacker", "ger-5id@M1519", "--roll", "4", "--format", "json"]
    plain = json.loads(run(*args, "--defender", "sov-1rd@M1520").stdout)
    marked = json.loads(run(*args, "--defender", "sov-1rd@M1520:full+mk-step-loss").stdout)
    assert marked["defenders"][0]["markers"] == ["mk-step-loss"]
    named = [n["name"] for n in marked["not_applied"]]
    assert marked["defence"] < plain["defence"] or "mk-step-loss" in named, marked
