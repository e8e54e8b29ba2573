"""docs/import-vmod.md run end to end (issue 19): import, validate, a new scenario as data, build; then the
real engine finds the original set-up and the new one, every piece on the hex the data names."""

from __future__ import annotations

import sys
from pathlib import Path

import corpus
import pytest
from engine import CHECKER, ROOT, SKIP_REASON, engine_report

sys.path.insert(0, str(ROOT / "tests" / "author"))
from tutorial_runner import run_doc  # noqa: E402

PAGE = ROOT / "docs" / "import-vmod.md"
SKIRMISH = corpus.ModuleSpec(
    "Skirmish", corpus.CORPUS["flat-offset"].boards, placements=corpus.CORPUS["flat-offset"].placements
)


def _run_page(tmp_path: Path, monkeypatch) -> Path:
    corpus.write(SKIRMISH, tmp_path).rename(tmp_path / "skirmish.vmod")
    cwd = run_doc(PAGE.read_text(encoding="utf-8"), tmp_path, monkeypatch)
    return cwd / "build" / "skirmish" / "skirmish.vmod"


def test_page_runs_end_to_end(tmp_path, monkeypatch):
    assert _run_page(tmp_path, monkeypatch).exists()


@pytest.mark.slow
@pytest.mark.skipif(not CHECKER.exists(), reason=SKIP_REASON)
def test_new_scenario_is_a_new_predefined_setup_beside_the_original(tmp_path, monkeypatch):
    module = _run_page(tmp_path, monkeypatch)
    original = engine_report(tmp_path / "skirmish.vmod")
    report = engine_report(module)
    assert report["errors"] == []
    setups = {s["name"]: s for s in report["setups"]}
    assert set(setups) == {"Opening", "Night attack"}
    before = sorted((p["name"], p["location"]) for p in original["setups"][0]["pieces"] if p["board"] == "Main")
    assert sorted((p["name"], p["location"]) for p in setups["Opening"]["pieces"] if p["board"] == "Main") == before
    assert sorted((p["name"], p["location"]) for p in setups["Night attack"]["pieces"]) == [
        ("Blue Art 3", "0806"),
        ("Blue Inf 1 (reduced)", "0705"),
        ("Red HQ", "0404"),
        ("Red Inf 1", "0303"),
        ("Red Inf 2", "0303"),
    ]
