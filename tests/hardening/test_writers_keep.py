"""Issue 47, class 3: every writer keeps the old file until the new one is good.

`import-setup`, `new scenario` and `calibrate --write` load the game with the new text in the old file's place
and write it only when that adds no error; the old file is then byte for byte as it was, and no temporary file
is left beside it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def project(mini_project: Path, monkeypatch) -> Path:
    monkeypatch.chdir(mini_project)
    return mini_project


def test_import_setup_of_a_unit_placed_twice_keeps_the_valid_set_up(project: Path, cli):
    """The issue's case: the card is fine on its own, the set-up it makes breaks the counter mix."""
    assert cli("validate").exit_code == 0
    (project / "twice.csv").write_text("hex,unit,state\n0102,red-1,\n0103,red-1,\n")
    before = _files(project)
    r = cli("import-setup", "twice.csv", "--scenario", "mini/intro")
    assert r.exit_code == 1, r.output
    assert "HW-MIX-001" in r.output and "nothing was written" in r.output
    assert "Traceback" not in r.output and ".tmp" not in r.output
    assert _files(project) == before
    assert cli("validate").exit_code == 0


def test_import_setup_quotes_the_set_up_it_did_not_write(project: Path, cli):
    (project / "twice.csv").write_text("hex,unit,state\n0102,red-1,\n0103,red-1,\n")
    r = cli("import-setup", "twice.csv", "--scenario", "mini/intro")
    assert '- {hex: "0103", units: [red-1]}' in r.output  # the line of the refused set-up, not today's file's


def test_import_setup_that_fixes_an_error_is_written(project: Path, cli):
    """No new error, not no error: a card that mends a broken set-up goes in."""
    (project / "twice.csv").write_text("hex,unit,state\n0102,red-1,\n0103,red-1,\n")
    scen = project / "scenarios/mini/intro.yaml"
    scen.write_text(scen.read_text().replace('{hex: "0101", units: [red-1]}', '{hex: "0101", units: [red-1, red-1]}'))
    assert cli("validate").exit_code == 1
    (project / "good.csv").write_text("hex,unit,state\n0102,red-1,\n")
    r = cli("import-setup", "good.csv", "--scenario", "mini/intro")
    assert r.exit_code == 0, r.output
    assert '{hex: "0102", units: [red-1]}' in scen.read_text()
    assert cli("validate").exit_code == 0


def test_new_scenario_from_a_broken_scenario_writes_nothing(project: Path, cli):
    scen = project / "scenarios/mini/intro.yaml"
    scen.write_text(scen.read_text().replace("units: [blue-1]", "units: [blue-9]"))
    before = _files(project)
    r = cli("new", "scenario", "mini", "Spring", "--from", "intro")
    assert r.exit_code == 1, r.output
    assert "blue-9" in r.output and "nothing was written" in r.output and ".tmp" not in r.output
    assert _files(project) == before


def test_new_scenario_of_a_good_game_is_written(project: Path, cli):
    r = cli("new", "scenario", "mini", "Spring", "--from", "intro")
    assert r.exit_code == 0, r.output
    assert (project / "scenarios/mini/Spring.yaml").is_file()
    assert not [p for p in project.rglob("*.tmp")]


@pytest.fixture
def art_project(tmp_path: Path, monkeypatch) -> Path:
    for folder in ("maps", "counters", "scenarios"):
        shutil.copytree(ROOT / folder / "bfm-art", tmp_path / "p" / folder / "bfm-art")
    monkeypatch.chdir(tmp_path / "p")
    return tmp_path / "p"


def test_calibrate_write_keeps_the_map_when_the_game_would_not_load(art_project: Path, cli, monkeypatch):
    """A registration the loader refuses (here: one the schema cannot hold) is never written."""
    from authoring import calibrate

    real = calibrate.registration_fields

    def beyond(m, reg):
        fields = dict(real(m, reg))
        fields[next(iter(fields))] = "1e400"  # a number no map file may hold
        return fields

    monkeypatch.setattr(calibrate, "registration_fields", beyond)
    before = _files(art_project)
    r = cli("calibrate", "maps/bfm-art/main.yaml", "--write")
    assert r.exit_code == 1, r.output
    assert "nothing was written" in r.output and "Traceback" not in r.output
    assert _files(art_project) == before


def test_calibrate_write_writes_a_good_registration(art_project: Path, cli):
    path = art_project / "maps/bfm-art/main.yaml"
    path.write_text(path.read_text().replace("  hex_size: 117.985\n", "  hex_size: 110\n"))
    r = cli("calibrate", "maps/bfm-art/main.yaml", "--write")
    assert r.exit_code == 0, r.output
    assert "  hex_size: 117.985\n" in path.read_text()
    assert cli("validate").exit_code == 0
