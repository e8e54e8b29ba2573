"""docs/tutorial.md, run command by command in a scratch folder: exit codes and the output it shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from tutorial_runner import Command, Edit, parse, run_doc

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def test_tutorial_parses_into_the_promised_steps():
    steps = parse(TUTORIAL.read_text(encoding="utf-8"))
    argvs = [" ".join(s.argv[:2]) for s in steps if isinstance(s, Command)]
    for expected in (
        "hexwright init",
        "hexwright new",
        "hexwright export-setup",
        "hexwright import-setup",
        "hexwright check",
        "hexwright build",
    ):
        assert expected in argvs
    assert not any(
        s.argv[:2] == ["hexwright", "watch"] and "--once" not in s.argv for s in steps if isinstance(s, Command)
    ), "a looping watch would hang the test"


@pytest.mark.slow
def test_tutorial_runs(tmp_path, monkeypatch):
    run_doc(TUTORIAL.read_text(encoding="utf-8"), tmp_path, monkeypatch)


SETUP_CODES = ROOT / "docs" / "setup-codes.md"


def test_the_setup_codes_cookbook_shows_every_kind_of_code():
    """One pattern of each meaning in the grammar it builds, and a check that finds a mistake of each."""
    steps = parse(SETUP_CODES.read_text(encoding="utf-8"))
    text = SETUP_CODES.read_text(encoding="utf-8")
    for meaning in ("hex", "hex-set", "box", "turn", "turn-at", "pool"):
        assert f"meaning: {meaning}," in text, meaning
    checks = [s for s in steps if isinstance(s, Command) and s.argv[:2] == ["hexwright", "check"]]
    assert checks and checks[-1].exit_code == 1 and len(checks[-1].expected) >= 5


@pytest.mark.slow
def test_the_setup_codes_cookbook_runs(tmp_path, monkeypatch):
    run_doc(SETUP_CODES.read_text(encoding="utf-8"), tmp_path, monkeypatch)


FIRST_GAME = ROOT / "docs" / "first-game.md"


def test_the_first_game_tutorial_writes_every_kind_of_file():
    """A game from nothing: manifest, map, counters CSV with codes, tables with combat, a scenario, a card."""
    steps = parse(FIRST_GAME.read_text(encoding="utf-8"))
    written = [s.path for s in steps if isinstance(s, Edit) and s.new_file]
    assert written == [
        "scenarios/ridge/game.yaml",
        "maps/ridge/ridge.yaml",
        "counters/ridge/counters.csv",
        "scenarios/ridge/tables.yaml",
        "scenarios/ridge/battle.yaml",
    ]
    checks = [s for s in steps if isinstance(s, Command) and "--card" in s.argv]
    assert [c.exit_code for c in checks] == [1, 0], "a wrong card caught, then the fixed one"


@pytest.mark.slow
def test_the_first_game_tutorial_runs(tmp_path, monkeypatch):
    end = run_doc(FIRST_GAME.read_text(encoding="utf-8"), tmp_path, monkeypatch)
    module = end / "build" / "ridge" / "ridge.vmod"
    assert module.is_file() and (end / "build" / "ridge" / "maps" / "map-ridge.png").is_file()
