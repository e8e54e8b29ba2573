"""The hand-worked combat panels (tests/rules/combat_panel/<game>.yaml): reading them, the CLI's answer for a
case, and the result each roll should give by the panel's own CRT transcription."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from authoring.cli import main

HERE = Path(__file__).resolve().parent / "combat_panel"
ROOT = HERE.parents[2]
GAMES = ("bfm", "1941", "typhoon")


def panel(game: str) -> dict:
    return yaml.safe_load((HERE / f"{game}.yaml").read_text(encoding="utf-8"))


def params(games=GAMES, keep=lambda case: True) -> list:
    """One pytest param per case (id: the case's id), xfail (strict) where the case needs a modifier the data
    does not carry yet."""
    out = []
    for game in games:
        p = panel(game)
        for case in p["cases"]:
            if not keep(case):
                continue
            needs = case.get("needs")
            marks = [pytest.mark.xfail(strict=True, reason=f"needs {needs}")] if needs else []
            out.append(pytest.param(p, case, id=case["id"], marks=marks))
    return out


def arguments(p: dict, case: dict, roll: int | None = None) -> list[str]:
    args = ["combat", f"{p['game']}/{p['scenario']}", "--turn", str(case["turn"]), "--format", "json"]
    args += ["--weather", case["weather"]] if case.get("weather") else []
    args += [w for u in case["defenders"] for w in ("--defender", u)]
    args += [w for u in case["attackers"] for w in ("--attacker", u)]
    return args + (["--roll", str(roll)] if roll is not None else []) + ["--project", str(ROOT)]


def cli(p: dict, case: dict, roll: int | None = None) -> dict:
    """`hexwright combat ... --format json` for the case: its report."""
    run = CliRunner().invoke(main, arguments(p, case, roll))
    assert run.exit_code == 0, run.output
    return json.loads(run.stdout)


def expected_results(p: dict, case: dict) -> list[str | None]:
    """The result of each roll from 1 to the die's sides: the panel CRT's cell in the case's final column, at
    the roll plus the case's net DRM (held within the table's rows), or the result below the table."""
    crt = p["crt"]
    rows = {int(k): v for k, v in crt["rows"].items()}
    drm = case.get("drm", 0)
    out = []
    for roll in range(1, p["die_sides"] + 1):
        if case["column"].startswith("below"):
            out.append(crt["below"])
            continue
        row = max(min(rows), min(max(rows), roll + drm))
        out.append(rows[row][crt["columns"].index(case["column"])])
    return out
