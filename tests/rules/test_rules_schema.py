"""schemas/rules.schema.json: one definition per registered rule type, documented properties, and the loader
refusing bad rule parameters at their file:line (so editors and `validate` agree)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from rules_support import FIXTURES, ROOT

from authoring.load import discover, load_game
from authoring.rules import params
from authoring.rules.registry import CODES, registered_types

SCHEMA = json.loads((ROOT / "schemas" / "rules.schema.json").read_text(encoding="utf-8"))


def test_schema_and_registry_list_the_same_rule_types():
    assert set(params.schema_types()) == set(registered_types())
    for t in registered_types():
        assert SCHEMA["$defs"][f"rule-{t}"]["properties"]["type"]["const"] == t


def _properties(node, path=()):
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield path + (name,), sub
        for key, sub in node.items():
            if key != "if":  # `if` clauses only test values; they document nothing
                yield from _properties(sub, path + (key,))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, path + (i,))


def test_every_property_has_a_title_and_a_description():
    props = list(_properties(SCHEMA["$defs"]))
    assert len(props) > 100
    missing = [p for p, sub in props if not (sub.get("title") and sub.get("description"))]
    assert missing == []


def test_every_code_the_engine_can_report_is_documented():
    source = "".join(p.read_text() for p in (ROOT / "authoring" / "rules").glob("*.py"))
    used = {name.replace("_", "-") for name in re.findall(r"\b(HW_[A-Z]+_\d{3})\b", source)}
    assert used == set(CODES)


def _cnt_copy(tmp_path, game_yaml_extra: str):
    for sub in ("scenarios/cnt", "maps/cnt", "counters/cnt"):
        shutil.copytree(FIXTURES / sub, tmp_path / sub)
    manifest = tmp_path / "scenarios/cnt/game.yaml"
    manifest.write_text(manifest.read_text() + game_yaml_extra)
    return load_game(discover(tmp_path)[0])


@pytest.mark.parametrize(
    ("extra", "code", "line", "text"),
    [
        (
            'setup_rules:\n  - {type: max-per-map, rule: "9.4", max: 1, flg: bridge}\n',
            "HW-SCHEMA-002",
            18,
            "did you mean 'flag'?",
        ),
        (
            'setup_rules:\n  - {type: max-per-mapp, rule: "9.4", max: 1}\n',
            "HW-SCHEMA-005",
            18,
            "did you mean 'max-per-map'?",
        ),
        ('setup_rules:\n  - {type: garrison, rule: "9.5", side: blue}\n', "HW-SCHEMA-003", 18, "hex_set"),
        ('setup_codes:\n  - {pattern: "^w$", meaning: hex-set}\n', "HW-SCHEMA-003", 18, "hex_set"),
    ],
)
def test_loader_refuses_bad_rule_parameters_where_they_are_written(tmp_path, extra, code, line, text):
    result = _cnt_copy(tmp_path, extra)
    found = [d for d in result.diagnostics if d.code == code]
    assert found, [str(d) for d in result.diagnostics]
    assert found[0].loc.line == line and found[0].loc.file.endswith("game.yaml")
    assert text in found[0].help + found[0].message


def test_stacking_model_needs_its_limit(tmp_path):
    for sub in ("scenarios/cnt", "maps/cnt", "counters/cnt"):
        shutil.copytree(FIXTURES / sub, tmp_path / sub)
    manifest = tmp_path / "scenarios/cnt/game.yaml"
    manifest.write_text(manifest.read_text().replace('limit: 2, rule: "5.1"', 'rule: "5.1"'))
    result = load_game(discover(tmp_path)[0])
    assert [d.code for d in result.diagnostics] == ["HW-SCHEMA-003"]
    assert "limit" in result.diagnostics[0].message


def test_every_rule_type_declares_the_aspects_it_checks():
    from authoring.rules.aspects import ASPECTS

    assert set(ASPECTS) == set(registered_types())
    enum = SCHEMA["$defs"]["rule-disable"]["properties"]["aspects"]["items"]["enum"]
    assert {a for aspects in ASPECTS.values() for a in aspects} == set(enum)
