"""A build ends with one line: games, files written, files up to date, warnings, seconds."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(r"^(\d+) games?: (\d+) files? written, (\d+) up to date, (\d+) warnings? \(\d+\.\d s\)$")


def _build(project: Path, out: Path, *more: str):
    r = CliRunner().invoke(main, ["build", *more, "--project", str(project), "--out", str(out)])
    assert r.exit_code == 0, r.output
    last = r.stderr.splitlines()[-1]
    found = SUMMARY.match(last)
    assert found, r.stderr
    return r, tuple(int(v) for v in found.groups())


def test_the_summary_counts_written_then_reused_files(tmp_path: Path):
    project = tmp_path / "g"
    shutil.copytree(ROOT / "tests/load/mini", project)
    r, counts = _build(project, tmp_path / "out", "sheets", "mini", "--dpi", "72")
    assert counts == (1, 1, 0, 0) and r.stdout.count("  wrote ") == 1
    assert r.stderr.splitlines()[-1].startswith("1 game: 1 file written, 0 up to date, 0 warnings (")
    r, counts = _build(project, tmp_path / "out", "sheets", "mini", "--dpi", "72")
    assert counts == (1, 0, 1, 0) and "mini: up to date" in r.stderr


def test_the_summary_counts_warnings(tmp_path: Path):
    project = tmp_path / "g"
    shutil.copytree(ROOT / "tests/load/mini", project)
    units = project / "counters/mini/units.yaml"
    units.write_text(units.read_text().replace('designation: "1"\n', 'designation: "Panzergrenadierdivision"\n', 1))
    r, counts = _build(project, tmp_path / "out", "sheets", "mini", "--counter-size", "1/2", "--dpi", "72")
    shown = len([x for x in r.stderr.splitlines() if ": warning[" in x])
    assert shown >= 1 and counts == (1, 1, 0, shown)


def test_the_cache_budget_comes_from_the_environment_and_the_summary_says_what_went(tmp_path: Path):
    project = tmp_path / "g"
    shutil.copytree(ROOT / "tests/load/mini", project)
    import os

    _build(project, tmp_path / "out", "sheets", "mini", "--dpi", "72")
    for path in (tmp_path / "out" / ".cache").rglob("*"):  # drawn long ago
        os.utime(path, (1000.0, 1000.0))
    units = project / "counters/mini/units.yaml"
    units.write_text(units.read_text().replace("attack: 4, movement: 4", "attack: 5, movement: 4", 1))
    runner = CliRunner(env={"HEXWRIGHT_CACHE_MB": "0"})
    args = ["build", "sheets", "mini", "--dpi", "72", "--project", str(project), "--out", str(tmp_path / "out")]
    r = runner.invoke(main, args)
    assert r.exit_code == 0, r.output
    assert re.search(r", \d+ old cache entr(y|ies) removed \(\d+ MB\) \(", r.stderr.splitlines()[-1]), r.stderr
    r = CliRunner(env={"HEXWRIGHT_CACHE_MB": "lots"}).invoke(main, args)
    assert r.exit_code == 2 and "HEXWRIGHT_CACHE_MB='lots': expected a whole number of megabytes" in r.output
