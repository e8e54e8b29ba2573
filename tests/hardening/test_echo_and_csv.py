"""Class 7 of issue 17: exported CSV never carries a formula; echoed text never carries a terminal control sequence."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from authoring.diagnostics.text import printable

OSC = "\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07"


@pytest.mark.parametrize(
    "note", ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\uff1d1+1"]
)
def test_export_neutralises_formula_cells_and_import_restores_them(mini_project: Path, cli, monkeypatch, note):
    monkeypatch.chdir(mini_project)
    scen = mini_project / "scenarios/mini/intro.yaml"
    scen.write_text(
        scen.read_text().replace(
            '{hex: "0101", units: [red-1]}', f'{{hex: "0101", units: [red-1], note: {json.dumps(note)}}}'
        )
    )
    r = cli("export-setup", "mini/intro", "--side", "red", "--out", "red.csv")
    assert r.exit_code == 0, r.output
    rows = list(csv.reader(io.StringIO((mini_project / "red.csv").read_text())))
    cells = [c for row in rows for c in row]
    assert not any(c.startswith(("=", "+", "-", "@", "\t", "\uff1d")) for c in cells), cells
    assert "'" + note in cells
    from authoring.author.setup_io import read_card

    entries, _ = read_card(mini_project / "red.csv")
    assert entries[0]["note"] == note


def test_osc_escape_in_a_cell_is_not_echoed_raw(mini_project: Path, cli):
    """A counters CSV cell holding a raw OSC 8 sequence, and a YAML value holding one written as `\\e`."""
    more = mini_project / "counters/mini/more.csv"
    lines = more.read_text().splitlines()
    lines[1] = lines[1].replace(",", f",{OSC}", 1)
    more.write_text("\n".join(lines) + "\n")
    board = mini_project / "maps/mini/board.yaml"
    board.write_text(board.read_text().replace("\nname: ", '\nname: "\\e]8;;x\\a"\nxname: ', 1))
    for fmt in ("full", "concise"):
        r = cli("validate", str(mini_project), "--format", fmt)
        assert r.exit_code == 1, r.output
        assert "\x1b" not in r.output and "\x07" not in r.output
        assert fmt == "concise" or "\\x1b]8;;" in r.output
    r = cli("list", str(mini_project))
    assert "\x1b" not in r.output


def test_printable_escapes_controls_and_bidi_and_keeps_text():
    assert printable("Panzer \u202egnp.exe") == "Panzer \\u202egnp.exe"
    assert printable("a\x9bb\x00c\x7f") == "a\\x9bb\\x00c\\x7f"
    assert printable('Moskau – Ржев, 5/8"\tx') == 'Moskau – Ржев, 5/8"\tx'
