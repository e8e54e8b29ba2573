"""Outputs stay tidy: a rebuild removes what it made that no longer has a source, and only that;
the first watch round leaves up-to-date files alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _bfm(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    for part in ("scenarios", "maps", "counters"):
        shutil.copytree(ROOT / part / "bfm", project / part / "bfm")
    return project


def _run(*args: str):
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r


def test_a_deleted_scenarios_cards_are_removed_and_nothing_else(tmp_path: Path):
    project = _bfm(tmp_path)
    out = tmp_path / "out"
    _run("build", "cards", "bfm", "--project", str(project), "--out", str(out))
    cards = out / "bfm" / "cards"
    seven = sorted(p.name for p in cards.iterdir() if "seven-turn" in p.name)
    assert seven, sorted(p.name for p in cards.iterdir())
    mine = cards / "my-notes-seven-turn.txt"  # a file hexwright did not make
    mine.write_text("keep me")
    (project / "scenarios/bfm/seven-turn.yaml").unlink()
    _run("build", "cards", "bfm", "--project", str(project), "--out", str(out))
    left = sorted(p.name for p in cards.iterdir())
    assert not set(seven) & set(left)
    assert mine.read_text() == "keep me"
    assert any("campaign" in name for name in left)
    made = sorted(n for n in left if n not in ("index.txt", mine.name) and not n.startswith("."))
    assert (cards / "index.txt").read_text().split() == made


@pytest.mark.slow
def test_the_first_watch_round_rewrites_nothing_up_to_date(tmp_path: Path):
    project = _bfm(tmp_path)
    out = tmp_path / "out"
    _run("build", "all", "bfm", "--project", str(project), "--out", str(out))
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    r = _run("watch", "bfm", "--once", "--project", str(project), "--out", str(out))
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before
    assert "wrote" not in r.output
    for stage in ("module", "sheets", "maps", "cards", "charts"):  # told as `build` tells it
        assert f"bfm: {stage}\n  up to date: " in r.output
    assert "\n1 game: 0 files written, 32 up to date, 0 warnings (" in r.output
