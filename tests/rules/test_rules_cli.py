"""The `hexwright check` contract: scenario lookup, exit codes (0 clean, 1 errors, 2 usage), json and sarif output."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from rules_support import FIXTURES, HERE, ROOT

from authoring.cli import main

CARD = HERE / "cards" / "bfm"


def run(*args: str):
    return CliRunner().invoke(main, ["check", *args])


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("arg", ["seven-turn", "bfm/campaign", "scenarios/bfm/seven-turn.yaml"])
def test_clean_scenario_exits_0(at_root, arg):
    result = run(arg)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "All checks passed."


def test_card_with_errors_exits_1_and_json_parses(at_root):
    result = run("seven-turn", "--card", str(CARD / "german-half-strength.csv"), "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert [(f["code"], f["rule"], f["line"], f["hex"]) for f in found] == [
        ("HW-STATE-002", "BfM Starting the Game", 4, "0201")
    ]
    assert found[0]["file"].endswith("german-half-strength.csv")


def test_sarif_parses(at_root):
    result = run("bfm/seven-turn", "--card", str(CARD / "soviet-two-on-a-star.yaml"), "--format", "sarif")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["version"] == "2.1.0"
    results = doc["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == ["HW-PLACE-004", "HW-PLACE-004", "HW-STACK-001"]
    assert {r["properties"]["rule"] for r in results} == {"BfM Starting the Game", "BfM Movement: Restrictions"}
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"scenarios/bfm/game.yaml", "tests/rules/cards/bfm/soviet-two-on-a-star.yaml"}


def test_full_text_goes_to_stderr_with_a_summary(at_root):
    result = run("seven-turn", "--card", str(CARD / "german-unit-twice.csv"))
    assert result.exit_code == 1
    assert result.stderr.startswith("error[HW-MIX-001]: ger-vi is used 2 times but the counter mix has 1 copy\n")
    assert " --> tests/rules/cards/bfm/german-unit-twice.csv:3:" in result.stderr
    *findings, summary = result.stderr.rstrip().splitlines()
    assert "  = rule: BfM" in result.stderr and findings[-1] == "Found 1 error."
    assert summary == (
        "checked: german from the card tests/rules/cards/bfm/german-unit-twice.csv; "
        "soviet as scenario 'seven-turn' sets up"
    )


def test_warning_only_exits_0(at_root):
    result = run("seven-turn", "--card", str(CARD / "soviet-for-another-scenario.yaml"), "--format", "concise")
    assert result.exit_code == 0
    assert "warning[HW-CARD-002]" in result.stdout


def test_scenario_file_in_fixture_project(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    result = run("scenarios/tiny/enemy-illegal.yaml", "--format", "concise")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "scenarios/tiny/enemy-illegal.yaml:11:30: error[HW-PLACE-003]: so-c1 (soviet) is set up in hex N0303, "
        "which holds enemy unit ax-c1 (axis) [Tiny (enemy units)]"
    )


def test_option_turns_on_option_rules(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    assert run("tiny/option-rules").exit_code == 0
    result = run("option-rules", "--option", "star-start", "--format", "json")
    assert result.exit_code == 1 and json.loads(result.stdout)[0]["code"] == "HW-PLACE-005"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sevn-turn"], "no scenario 'sevn-turn' in any game; did you mean 'seven-turn'?"),
        (["bfn/seven-turn"], "no game 'bfn'"),
        (["bfm/sevn-turn"], "game 'bfm' has no scenario 'sevn-turn'; did you mean 'seven-turn'?"),
        (["seven-turn", "--option", "nope"], "'nope' is not an option of seven-turn"),
        (["seven-turn", "--side", "finnish"], "'finnish'; known ids: german, soviet"),
        (["seven-turn", "--format", "xml"], "'xml' is not one of"),
    ],
)
def test_usage_errors_exit_2(at_root, args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_image_is_written_by_the_real_renderer(at_root, tmp_path):
    from PIL import Image

    out = tmp_path / "out.png"
    result = run("seven-turn", "--card", str(CARD / "german-unit-twice.csv"), "--image", str(out))
    assert result.exit_code == 1
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 1000 and image.height > 800


def test_image_calls_the_renderer_with_the_findings(at_root, monkeypatch, tmp_path):
    calls = []
    import authoring.render.maps.findings as renderer

    monkeypatch.setattr(
        renderer,
        "findings_image",
        lambda game, scenario, diags, out: calls.append((game.id, scenario.id, len(diags), out)),
    )
    out = tmp_path / "out.png"
    result = run("seven-turn", "--card", str(CARD / "german-unit-twice.csv"), "--image", str(out))
    assert result.exit_code == 1
    assert calls == [("bfm", "seven-turn", 1, out)]


def test_data_that_fails_to_load_exits_1_with_the_load_findings(monkeypatch, tmp_path):
    for sub in ("scenarios/cnt", "maps/cnt", "counters/cnt"):
        shutil.copytree(FIXTURES / sub, tmp_path / sub)
    bad = tmp_path / "counters/cnt/counters.yaml"
    bad.write_text(bad.read_text().replace('designation: "1"', 'designaton: "1"'))
    monkeypatch.chdir(tmp_path)
    result = run("count-legal", "--format", "concise")
    assert result.exit_code == 1
    assert "error[HW-SCHEMA-002]: unknown key 'designaton'" in result.stderr


def test_validate_runs_the_rules_engine(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    result = CliRunner().invoke(main, ["validate", "--format", "json"])
    assert result.exit_code == 1
    codes = {f["code"] for f in json.loads(result.stdout)}
    assert {"HW-STACK-001", "HW-STACK-002", "HW-MIX-002", "HW-CODE-003"} <= codes
