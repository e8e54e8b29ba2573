"""Class 5 of issue 17: writers never replace a data file or a file they did not make; symlinks are kept."""

from __future__ import annotations

from pathlib import Path

import pytest


def _snapshot(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes() for p in sorted(project.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "target", ["scenarios/mini/game.yaml", "maps/mini/board.yaml", "counters/mini/more.csv", "scenarios/mini/new.csv"]
)
def test_export_setup_refuses_data_folders(mini_project: Path, cli, monkeypatch, target: str):
    monkeypatch.chdir(mini_project)
    before = _snapshot(mini_project)
    r = cli("export-setup", "mini/intro", "--side", "red", "--out", target)
    assert r.exit_code == 2, r.output
    assert "inside the project's data folder" in r.output and "nothing was written" in r.output
    assert _snapshot(mini_project) == before


def test_export_setup_refuses_a_file_of_another_kind_but_rewrites_its_own(mini_project: Path, cli, monkeypatch):
    monkeypatch.chdir(mini_project)
    (mini_project / "notes.md").write_text("my notes")
    r = cli("export-setup", "mini/intro", "--side", "red", "--out", "notes.md")
    assert r.exit_code == 2 and "an existing file this command did not make" in r.output
    assert (mini_project / "notes.md").read_text() == "my notes"
    for _ in range(2):  # an earlier export is replaced
        r = cli("export-setup", "mini/intro", "--side", "red", "--out", "red.csv")
        assert r.exit_code == 0, r.output
    r = cli("export-setup", "mini/intro", "--side", "red", "--out", "notes.md", "--force")
    assert r.exit_code == 0 and "hex" in (mini_project / "notes.md").read_text()


def test_check_image_refuses_data_files(mini_project: Path, cli, monkeypatch):
    monkeypatch.chdir(mini_project)
    before = _snapshot(mini_project)
    for target in ("maps/mini/board.yaml", "scenarios/mini/picture.png"):
        r = cli("check", "mini/intro", "--image", target)
        assert r.exit_code == 2, r.output
    assert _snapshot(mini_project) == before


@pytest.mark.parametrize(
    "args",
    [
        ["build", "module", "mini", "--out", ""],
        ["build", "module", "mini", "--out", "."],
        ["build", "charts", "mini", "--out", "maps"],
        ["watch", "mini", "--once", "--out", "counters/mini"],
        ["export-setup", "mini/intro", "--side", "red", "--out", ""],
    ],
)
def test_empty_or_data_out_is_a_usage_error(mini_project: Path, cli, monkeypatch, args):
    monkeypatch.chdir(mini_project)
    before = _snapshot(mini_project)
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    assert _snapshot(mini_project) == before


def test_import_setup_keeps_a_symlinked_scenario(mini_project: Path, cli, monkeypatch):
    monkeypatch.chdir(mini_project)
    scen = mini_project / "scenarios/mini/intro.yaml"
    shared = mini_project / "shared-intro.yaml"
    scen.rename(shared)
    scen.symlink_to(Path("../../shared-intro.yaml"))
    (mini_project / "red.csv").write_text("hex,unit,state\n0102,red-1,\n")
    r = cli("import-setup", "red.csv", "--scenario", "mini/intro")
    assert r.exit_code == 0, r.output
    assert scen.is_symlink()
    assert "0102" in shared.read_text()
