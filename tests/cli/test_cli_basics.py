"""The CLI contract: exit codes, output formats, schemas, listing; subprocess runs show no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "authoring.cli", *args], cwd=cwd, capture_output=True, text=True)


def test_validate_bundled_games_clean():
    r = run("validate")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "All checks passed." in r.stdout


def test_validate_one_game_by_folder():
    r = run("validate", "scenarios/bfm", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == []


def test_list_reports_games():
    r = run("list", "--format", "json")
    assert r.returncode == 0
    games = {g["id"]: g for g in json.loads(r.stdout)}
    bfm = games["bfm"]
    assert bfm["maps"] == [{"id": "main", "name": bfm["maps"][0]["name"], "hexes": 140}]
    assert {s["id"] for s in bfm["scenarios"]} == {"seven-turn", "campaign"}
    assert sum(1 for _ in bfm["scenarios"]) == 2


def test_schema_prints_valid_json_for_every_kind():
    from authoring.load.schemas import KINDS

    for kind in KINDS:
        r = CliRunner().invoke(main, ["schema", kind])
        assert r.exit_code == 0
        doc = json.loads(r.output)
        assert doc["$id"].endswith(f"{kind}.schema.json")
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_schema_property_has_title_and_description():
    def walk(node, path):
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                assert "title" in sub and "description" in sub, f"{path}.{name}"
            for key, sub in node.items():
                if key not in ("if", "not", "contains"):  # conditions, not fields a user writes
                    walk(sub, f"{path}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}[{i}]")

    for path in (ROOT / "schemas").glob("*.schema.json"):
        walk(json.loads(path.read_text()), path.name)


def test_usage_errors_exit_2():
    assert run("schema", "nonsense").returncode == 2
    assert run("validate", "/no/such/path").returncode == 2
    assert run("frobnicate").returncode == 2


def test_data_error_exits_1_without_traceback(tmp_path: Path):
    import shutil

    shutil.copytree(ROOT / "tests/load/mini", tmp_path / "g")
    (tmp_path / "g/maps/mini/board.yaml").write_text("kind: map\nid: board\n")
    r = run("validate", str(tmp_path / "g"))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr + r.stdout
    assert "board.yaml:1:1: " not in r.stderr  # full format: header then arrow
    assert "error[HW-SCHEMA-003]" in r.stderr and "--> " in r.stderr


def test_validate_reports_loader_and_rule_findings_together(tmp_path: Path):
    import shutil

    shutil.copytree(ROOT / "tests/load/mini", tmp_path / "g")
    scen = tmp_path / "g/scenarios/mini/intro.yaml"
    text = (
        scen.read_text()
        .replace("units: [blue-1]", "units: [blue-1, red-1]")
        .replace("units: [red-2]", "units: [red-9]")
    )
    scen.write_text(text)
    r = run("validate", str(tmp_path / "g"), "--format", "json")
    codes = sorted(d["code"] for d in json.loads(r.stdout))
    assert r.returncode == 1
    assert "HW-REF-002" in codes  # the loader: unknown counter red-9
    assert "HW-MIX-001" in codes  # the engine, same run: red-1 used twice
    mix = next(d for d in json.loads(r.stdout) if d["code"] == "HW-MIX-001")
    assert mix["rule"] == "Mini (counter mix)"
