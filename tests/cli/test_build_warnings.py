"""Text that cannot be printed legibly is reported when the sheets are built, located at its counter."""
from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_build_sheets_warns_about_shortened_text(tmp_path: Path):
    project = tmp_path / "g"
    shutil.copytree(ROOT / "tests/load/mini", project)
    units = project / "counters/mini/units.yaml"
    units.write_text(units.read_text().replace('designation: "1"\n    faces:\n      - {state: full, values: {attack: 4',
                                               'designation: "Panzergrenadierdivision Feldherrnhalle"\n    faces:\n'
                                               '      - {state: full, values: {attack: 4', 1))
    r = CliRunner().invoke(main, ["build", "sheets", "mini", "--project", str(project), "--out", str(tmp_path / "out"),
                                  "--counter-size", "1/2"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "out/mini/counters.mini.letter.pdf").exists()
    line = next(x for x in r.output.splitlines() if "warning[HW-ART-001]" in x)
    assert "units.yaml:4:5: warning[HW-ART-001]: red-1 (full face): designation 'Panzergrenadierdivision" in line
    assert "does not fit" in line
