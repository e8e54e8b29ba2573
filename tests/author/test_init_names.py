"""`hexwright init --name`: any one-line title gives a project that validates, the title read back exactly,
and a rules citation prefix of letters and digits derived from it."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from authoring.cli import main
from authoring.load.source import load_source
from authoring.validate import validate_path

NAMES = {
    "Caen 1944 (art test)": "C1944",
    "Battle for Moscow": "BFM",
    "Typhoon": "Typhoon",
    "1944": "1944",
    "Caen: 1944 #1": "C1944-1",
    '"Quoted" game': "QG",
    "O'Hare's War": "OW",
    "- dash": "dash",
    "[x] {y}": "XY",
    "&anchor *ref": "AR",
    "yes": "yes",
    "Ünïcode Kampf": "ÜK",
    "(only aside)": "OA",
}
_PREFIX = re.compile(r"[^\W_](?:[^\W_]|-(?=\d))*")


@pytest.mark.parametrize("name", NAMES)
def test_init_name_gives_a_valid_project_and_rules_prefix(tmp_path, name):
    result = CliRunner().invoke(main, ["init", str(tmp_path / "g"), "--name", name])
    assert result.exit_code == 0, result.output
    game = load_source(tmp_path / "g/scenarios/g/game.yaml").data
    assert game["name"] == name
    assert game["rules_ref"] == NAMES[name] and _PREFIX.fullmatch(game["rules_ref"])
    assert load_source(tmp_path / "g/maps/g/board.yaml").data["name"] == name
    _, diags, count = validate_path(tmp_path / "g")
    assert count == 1 and diags == []


def test_a_finding_cites_the_derived_prefix(tmp_path):
    assert CliRunner().invoke(main, ["init", str(tmp_path / "g"), "--name", "Caen 1944 (art test)"]).exit_code == 0
    path = tmp_path / "g/scenarios/g/first-clash.yaml"
    path.write_text(path.read_text().replace('{hex: "0104", units: [red-3]', '{hex: "0105", units: [red-3]'))
    _, diags, _ = validate_path(tmp_path / "g")
    assert [(d.code, d.rule) for d in diags] == [("HW-PLACE-005", "C1944 3.1")]


@pytest.mark.parametrize(
    ("name", "said"), [("a\tb", "a tab"), ("two\nlines", "line break"), ("ends in \\", "backslash")]
)
def test_a_name_no_output_can_carry_is_refused_before_writing(tmp_path, name, said):
    result = CliRunner().invoke(main, ["init", str(tmp_path / "g"), "--name", name])
    assert result.exit_code == 2 and said in result.stderr
    assert not (tmp_path / "g").exists()
