"""Findings about a set-up code pattern or an option's rules point at the line that wrote them."""

from __future__ import annotations

import shutil
from pathlib import Path

from authoring.load import discover, load_game
from authoring.rules import check_game

MINI = Path(__file__).resolve().parents[1] / "load" / "mini"


def _game(tmp_path: Path, extra_manifest: str = "", scenario_extra: str = ""):
    root = tmp_path / "g"
    shutil.copytree(MINI, root)
    manifest = root / "scenarios/mini/game.yaml"
    manifest.write_text(manifest.read_text() + extra_manifest)
    scen = root / "scenarios/mini/intro.yaml"
    scen.write_text(scen.read_text() + scenario_extra)
    result = load_game(discover(root)[0])
    assert result.ok, result.diagnostics
    return result.game, manifest, scen


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_unknown_hex_set_in_a_code_points_at_its_pattern(tmp_path):
    game, manifest, _ = _game(
        tmp_path, "setup_codes:\n  - {pattern: '^w$', meaning: hex-set, hex_set: wset, rule: '9.1'}\n"
    )
    found = [d for d in check_game(game) if d.code == "HW-RULE-002"]
    assert len(found) == 1
    assert found[0].loc.line == _line(manifest, "pattern: '^w$'") and found[0].rule == "Mini 9.1"
    assert "did you mean 'west'?" in found[0].help


def test_option_rule_points_at_itself(tmp_path):
    extra = (
        "options:\n  - id: no-blue\n    name: No blue\n    default: true\n"
        "    effects:\n      setup_rules:\n        - {type: not-on-map-at-start, rule: '7.2', side: blue}\n"
        "        - {type: not-on-map-at-start, rule: '1', side: purple}\n"
    )
    game, _, scen = _game(tmp_path, scenario_extra=extra)
    found = check_game(game)
    bad = [d for d in found if d.code == "HW-RULE-002"]
    assert len(bad) == 1 and bad[0].loc.line == _line(scen, "side: purple")
    placed = [d for d in found if d.code == "HW-PLACE-011"]
    assert len(placed) == 1 and placed[0].rule == "Mini 7.2" and placed[0].loc.line == _line(scen, "0505")


def test_per_side_code_meaning_names_declared_sides_and_sets(tmp_path):
    code = (
        "setup_codes:\n  - {pattern: '^s$', meaning: hex-set, hex_set: west, rule: '9.2',\n"
        "     sides: {blue: {hex_set: wset}, green: {hex_set: west}}}\n"
    )
    game, manifest, _ = _game(tmp_path, code)
    found = [(d.message, d.loc.line) for d in check_game(game) if d.code == "HW-RULE-002"]
    line = _line(manifest, "pattern: '^s$'")
    assert found == [
        ("set-up code pattern '^s$' gives a meaning for unknown side 'green'", line),
        ("set-up code pattern '^s$' names unknown hex set 'wset'", line),
    ]


def test_filtered_hex_set_refuses_unknown_terrain_and_sets(tmp_path):
    root = tmp_path / "g"
    shutil.copytree(MINI, root)
    manifest = root / "scenarios/mini/game.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "hex_sets:\n", "hex_sets:\n  entry: {edge: west, terrain: [clear, swampy], except: [nowhere]}\n", 1
        )
    )
    result = load_game(discover(root)[0])
    assert [(d.code, d.message) for d in result.diagnostics if d.code.startswith("HW-REF")] == [
        ("HW-REF-001", "unknown terrain type 'swampy'"),
        ("HW-REF-001", "unknown hex set 'nowhere'"),
    ]


def test_option_rules_that_are_no_list_are_refused_where_written(tmp_path):
    """The schema types `effects`: `setup_rules: 5` is one located schema finding (it was a TypeError)."""
    extra = "options:\n  - id: odd\n    name: Odd\n    default: true\n    effects: {setup_rules: 5}\n"
    root = tmp_path / "g"
    shutil.copytree(MINI, root)
    scen = root / "scenarios/mini/intro.yaml"
    scen.write_text(scen.read_text() + extra)
    result = load_game(discover(root)[0])
    bad = [d for d in result.diagnostics if d.code.startswith("HW-SCHEMA")]
    assert [d.loc.line for d in bad] == [_line(scen, "setup_rules: 5")] and "must be a list" in bad[0].message
