"""One cause, one finding: when a finding explains others, the others are left out and it says how many
rows it concerns; an error in one file does not hide the other files' errors where they can be checked.

Each case is a mistake reproduced on a bundled game (or a copy of it) through the command line, with
the number of findings counted: what it was before the fix is in the test's docstring."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_support import ROOT

from authoring.author.setup_io import export_setup, find_scenario
from authoring.cli import main


def _cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _findings(result) -> list[dict]:
    """The findings, less the note that the set-up rules did not run (HW-CHECK-001: what the causes kept from
    running, not another cause)."""
    return [f for f in json.loads(result.stdout) if f["code"] != "HW-CHECK-001"]


def _both_sides_card(scenario: str, sides: tuple[str, str], path: Path) -> tuple[int, int]:
    """A card holding both sides' set-up (one export after the other); the number of rows of each side."""
    first, second = (export_setup(find_scenario(ROOT, scenario), s).splitlines() for s in sides)
    path.write_text("\n".join(first + second[1:]) + "\n", encoding="utf-8")
    return len(first) - 1, len(second) - 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "scenario,sides", [("bfm/seven-turn", ("soviet", "german")), ("1941/campaign", ("axis", "soviet"))]
)
def test_a_wrong_side_is_one_finding(scenario: str, sides: tuple[str, str], tmp_path: Path):
    """bfm: 88 errors before (22 wrong-side rows, each with a side, mix, stacking and cross finding); 1941: 117."""
    card = tmp_path / "both.csv"
    n_first, n_second = _both_sides_card(scenario, sides, card)
    for side, strangers, first_line in ((sides[0], n_second, n_first + 2), (sides[1], n_first, 2)):
        r = _cli("check", scenario, "--card", str(card), "--side", side, "--project", str(ROOT), "--format", "json")
        (found,) = _findings(r)
        assert r.exit_code == 1
        assert (found["code"], found["line"]) == ("HW-CARD-003", first_line)
        assert found["message"].endswith(
            f"{strangers} rows hold units of side {sides[1] if side == sides[0] else sides[0]}"
            f" (lines {first_line}-{first_line + strangers - 1})"
        )
        assert found["help"].startswith("leave out --side")
    r = _cli("check", scenario, "--card", str(card), "--project", str(ROOT))
    assert r.exit_code == 0, r.output


def test_a_yaml_card_for_the_wrong_side_is_one_finding(tmp_path: Path):
    card = tmp_path / "card.yaml"
    card.write_text(
        export_setup(find_scenario(ROOT, "bfm/seven-turn"), "german", "yaml").replace("side: german", "side: soviet"),
        encoding="utf-8",
    )
    r = _cli("check", "bfm/seven-turn", "--card", str(card), "--project", str(ROOT), "--format", "json")
    (found,) = _findings(r)
    assert found["code"] == "HW-CARD-003" and "22 of its units belong to side german" in found["message"]
    assert found["help"].startswith("change the card's `side:`")


def _copy(game: str, tmp_path: Path) -> Path:
    for kind in ("maps", "counters", "scenarios"):
        shutil.copytree(ROOT / kind / game, tmp_path / kind / game)
    return tmp_path


def _rewrite_csv(path: Path, edit) -> None:
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(edit(rows))
    path.write_text(out.getvalue(), encoding="utf-8")


def _drop_column(name: str):
    def edit(rows):
        keep = [i for i, h in enumerate(rows[0]) if h != name and not (name == "." and "." in h)]
        return [[r[i] for i in keep] for r in rows]

    return edit


@pytest.mark.parametrize("column,code", [("side", "HW-CSV-010"), (".", "HW-CSV-007")])
def test_a_missing_column_is_one_finding(column: str, code: str, tmp_path: Path):
    """Typhoon's counters without the side column: 200 HW-COUNTER-001, a cap summary and 12 garrison findings
    before; without the face columns, a schema error on each of 407 rows."""
    project = _copy("typhoon", tmp_path)
    _rewrite_csv(project / "counters/typhoon/counters.csv", _drop_column(column))
    r = _cli("validate", str(project), "--format", "json")
    (found,) = _findings(r)
    assert (found["code"], found["line"], found["column"]) == (code, 1, 1)
    assert found["file"].endswith("counters/typhoon/counters.csv")


def test_a_value_copied_down_a_column_is_one_finding(tmp_path: Path):
    """78 HW-REF-001 'unknown unit size' before, one a row."""
    project = _copy("typhoon", tmp_path)
    _rewrite_csv(
        project / "counters/typhoon/counters.csv",
        lambda rows: [rows[0]] + [[("regt" if c == "regiment" else c) for c in r] for r in rows[1:]],
    )
    (found,) = _findings(_cli("validate", str(project), "--format", "json"))
    assert found["code"] == "HW-REF-001" and found["line"] == 2
    assert found["message"].startswith("unknown unit size 'regt': 78 rows alike (lines 2-4, 6-8")
    assert found["help"] == "did you mean 'regiment'?"


def test_set_up_codes_without_zeros_are_one_finding_in_the_counters_file(tmp_path: Path):
    """1941's twelve codes 0311... written as numbers: 24 findings in the scenario files before (each
    unit's code read as a turn), with the grammar's patterns as the hint."""
    project = _copy("1941", tmp_path)
    counters = project / "counters/1941/counters.yaml"
    text = counters.read_text(encoding="utf-8")
    zeros = text.count('setup_code: "0')
    counters.write_text(text.replace('setup_code: "0', 'setup_code: "'), encoding="utf-8")
    r = _cli("validate", str(project), "--format", "json")
    (found,) = _findings(r)
    assert found["code"] == "HW-CODE-005" and found["file"].endswith("counters/1941/counters.yaml")
    assert f": {zeros} set-up codes lost their leading zeros" in found["message"]
    assert "leading zeros" in found["help"] and "(?P<" not in found["help"]


def test_an_error_in_game_yaml_does_not_hide_the_other_files(tmp_path: Path):
    """Only game.yaml's error was reported before: the map's and the scenario's showed after it was fixed."""
    project = _copy("bfm", tmp_path)
    for rel, old, new in (
        ("scenarios/bfm/game.yaml", "\nname:", "\nnmae:"),
        ("scenarios/bfm/seven-turn.yaml", "\nname:", "\nnmae:"),
        ("maps/bfm/main.yaml", "\nid:", "\nidd:"),
    ):
        path = project / rel
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    r = _cli("validate", str(project), "--format", "json")
    assert sorted((Path(f["file"]).name, f["code"]) for f in _findings(r)) == [
        ("game.yaml", "HW-SCHEMA-002"),
        ("main.yaml", "HW-SCHEMA-002"),
        ("seven-turn.yaml", "HW-SCHEMA-002"),
    ]
    (note,) = [f for f in json.loads(r.stdout) if f["code"] == "HW-CHECK-001"]
    assert [note["message"].count(name) for name in ("game.yaml", "main.yaml", "seven-turn.yaml")] == [1, 1, 1]


def test_a_card_is_checked_even_when_another_scenario_has_errors(tmp_path: Path):
    project = _copy("bfm", tmp_path)
    campaign = project / "scenarios/bfm/campaign.yaml"
    campaign.write_text(campaign.read_text(encoding="utf-8").replace("[sov-29]", "[sov-299]", 1), encoding="utf-8")
    card = tmp_path / "card.csv"
    card.write_text("hex,unit\n301,sov-29\n", encoding="utf-8")
    r = _cli("check", "bfm/seven-turn", "--card", str(card), "--project", str(project), "--format", "json")
    assert sorted((Path(f["file"]).name, f["code"]) for f in _findings(r)) == [
        ("campaign.yaml", "HW-REF-002"),
        ("card.csv", "HW-HEX-001"),
    ]


def test_hexes_without_zeros_in_a_scenario_are_one_finding_and_no_empty_cross(tmp_path: Path):
    """Four German hexes of bfm written as numbers (0103 as 103): before, their error each and a 'cross hex
    holds no german unit' for each hex they were meant for. The units are checked where they were meant to be."""
    project = _copy("bfm", tmp_path)
    scenario = project / "scenarios/bfm/seven-turn.yaml"
    text = scenario.read_text(encoding="utf-8")
    for label in ("0103", "0104", "0106", "0107"):
        text = text.replace(f'hex: "{label}"', f"hex: {int(label)}", 1)
    scenario.write_text(text, encoding="utf-8")
    (found,) = _findings(_cli("validate", str(project), "--format", "json"))
    assert (found["code"], found["line"]) == ("HW-HEX-001", 49)
    assert (
        found["message"]
        == "hex '103' is not on any map in play: 4 hex ids lost their leading zeros (lines 49-50, 54-55)"
    )


def test_a_bad_hex_is_one_finding_without_the_empty_hex_it_leaves(tmp_path: Path):
    """A German unit's hex mistyped (0103 as 0199): before, its error and 'cross hex 0103 holds no german
    unit' (the unit may be meant for any cross, so the empty one waits until the hex is fixed)."""
    project = _copy("bfm", tmp_path)
    scenario = project / "scenarios/bfm/seven-turn.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace('hex: "0103"', 'hex: "0199"', 1), encoding="utf-8")
    (found,) = _findings(_cli("validate", str(project), "--format", "json"))
    assert (found["code"], found["line"], found["message"]) == (
        "HW-HEX-001",
        49,
        "hex '0199' is not on any map in play",
    )


def test_a_card_without_its_state_column_is_one_finding(tmp_path: Path):
    """bfm's Soviet card without the state column: 13 HW-STATE-002 before (every army starts at half strength)."""
    rows = export_setup(find_scenario(ROOT, "bfm/seven-turn"), "soviet").splitlines()
    card = tmp_path / "card.csv"
    card.write_text("\n".join(",".join(r.split(",")[:2]) for r in rows) + "\n", encoding="utf-8")
    r = _cli("check", "bfm/seven-turn", "--card", str(card), "--project", str(ROOT), "--format", "json")
    (found,) = _findings(r)
    assert (found["code"], found["line"]) == ("HW-STATE-002", 2)
    assert found["message"].endswith("soviet units start at 'half': 13 rows alike (lines 2-14)")
