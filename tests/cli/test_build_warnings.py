"""Text that cannot be printed legibly is reported when the sheets are built, located at its counter."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_build_sheets_warns_about_shortened_text(tmp_path: Path):
    project = tmp_path / "g"
    shutil.copytree(ROOT / "tests/load/mini", project)
    units = project / "counters/mini/units.yaml"
    units.write_text(
        units.read_text().replace(
            'designation: "1"\n    faces:\n      - {state: full, values: {attack: 4',
            'designation: "Panzergrenadierdivision Feldherrnhalle"\n    faces:\n'
            "      - {state: full, values: {attack: 4",
            1,
        )
    )
    r = CliRunner().invoke(
        main,
        ["build", "sheets", "mini", "--project", str(project), "--out", str(tmp_path / "out"), "--counter-size", "1/2"],
    )
    assert r.exit_code == 0, r.output
    assert (tmp_path / "out/mini/counters.mini.letter.pdf").exists()
    line = next(x for x in r.output.splitlines() if "warning[HW-ART-001]" in x)
    assert (
        "units.yaml:4:5: warning[HW-ART-001]: red-1 (full face): slot 'designation': 'Panzergrenadierdivision" in line
    )
    assert "does not fit" in line


@pytest.mark.slow
def test_calibration_honours_back_offset(tmp_path: Path):
    """`build calibration --back-offset X,Y` moves the back's scales (it used to be ignored)."""
    from pypdf import PdfReader

    pages = {}
    for offset in ("0,0", "2,-1"):
        out = tmp_path / f"cal-{offset}.pdf"
        r = CliRunner().invoke(main, ["build", "calibration", "--out", str(out), "--back-offset", offset])
        assert r.exit_code == 0, r.output
        reader = PdfReader(out)
        pages[offset] = [next(iter(p.images)).data for p in reader.pages]
    assert pages["0,0"][0] == pages["2,-1"][0]  # the front does not move
    assert pages["0,0"][1] != pages["2,-1"][1]  # the back does
