"""Regression: a data file that is a symbolic link to outside the project was read as game data.

Found by tests/hardening/test_paths.py. Fix: `load_game` refuses such files (HW-PATH-010) before
reading anything (authoring/load/project.py `_links_out`).
"""

from __future__ import annotations

from pathlib import Path


def test_symlinked_counters_file_outside_refused(mini_project: Path, tmp_path: Path, cli):
    outside = tmp_path / "downloaded.yaml"
    outside.write_text((mini_project / "counters/mini/units.yaml").read_text())
    (mini_project / "counters/mini/units.yaml").unlink()
    (mini_project / "counters/mini/units.yaml").symlink_to(outside)
    r = cli("validate", str(mini_project), "--format", "concise")
    assert r.exit_code == 1, r.output
    assert "units.yaml: error[HW-PATH-010]: data file is a symbolic link to" in r.output, r.output
    assert "outside the project folder" in r.output


def test_symlinked_data_file_inside_is_fine(mini_project: Path, cli):
    real = mini_project / "counters/mini/units.yaml"
    moved = mini_project / "shared-units.yaml"
    real.rename(moved)
    real.symlink_to(moved)
    r = cli("validate", str(mini_project), "--format", "concise")
    assert r.exit_code == 0, r.output
