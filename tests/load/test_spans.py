"""Spans: a YAML value's finding knows where the value ends, and the full format underlines all of it.

The loader reads the end off the composed node (`nodes.ValuePositions.span`); a CSV cell, a value over
several lines or a position without an end keeps the one caret.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from authoring.cli import main
from authoring.diagnostics import Diagnostic, Loc, Severity
from authoring.diagnostics.format import render_full, render_sarif
from authoring.load.source import parse_csv, parse_yaml


def _full(project: Path) -> str:
    return CliRunner().invoke(main, ["validate", str(project)], catch_exceptions=False).output


def test_a_value_is_underlined_from_its_first_to_its_last_character(mini: Path):
    board = mini / "maps/mini/board.yaml"
    text = board.read_text(encoding="utf-8")
    board.write_text(text.replace("orientation: flat", "orientation: flatt", 1), encoding="utf-8")
    out = _full(mini)
    quoted = next(line for line in out.splitlines() if "orientation: flatt" in line)
    caret = out.splitlines()[out.splitlines().index(quoted) + 1]
    assert caret.strip(" |") == "^^^^^", out
    assert caret.index("^") == quoted.index("flatt")


def test_the_loader_locates_a_yaml_value_with_its_end_and_a_csv_cell_without():
    src = parse_yaml('kind: map\nname: "Mini Board"\nrows: [5,\n  6]\n', "m.yaml")
    assert src.loc(("name",)) == Loc("m.yaml", 2, 7, 2, 19)
    assert src.loc(("rows",))[3:] == (4, 5)  # a list over two lines: it ends on the next
    cells = parse_csv("id,side\nred-1,red\n", "c.csv")
    found = cells.loc((0, "side"))
    assert (found.line, found.col, found.end_line, found.end_col) == (2, 7, 0, 0)


def _quoted(tmp_path: Path, text: str, loc: Loc) -> tuple[str, str]:
    """The quoted line and the caret line under it."""
    path = tmp_path / "a.yaml"
    path.write_text(text, encoding="utf-8")
    lines = render_full([Diagnostic(Severity.ERROR, "HW-X-001", "m", loc._replace(file=str(path)))]).splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("|") and "^" in line)
    return lines[at - 1], lines[at]


def _caret(tmp_path: Path, text: str, loc: Loc) -> str:
    return _quoted(tmp_path, text, loc)[1]


def test_one_caret_without_an_end_or_over_several_lines(tmp_path: Path):
    assert _caret(tmp_path, "name: Mini\n", Loc("", 1, 7)).strip(" |") == "^"
    assert _caret(tmp_path, "rows: [5,\n  6]\n", Loc("", 1, 7, 2, 5)).strip(" |") == "^"
    assert _caret(tmp_path, "name: Mini\n", Loc("", 1, 7, 1, 11)).strip(" |") == "^^^^"


def test_the_underline_stays_inside_the_cut_of_a_long_line(tmp_path: Path):
    line = "a: " + "b" * 5000 + "\n"
    quoted, caret = _quoted(tmp_path, line, Loc("", 1, 4, 1, 5004))
    assert caret.count("^") > 100 and len(caret) <= len(quoted)


def test_sarif_gives_the_region_its_end():
    found = [
        Diagnostic(Severity.ERROR, "HW-X-001", "m", Loc("a.yaml", 4, 21, 4, 26)),
        Diagnostic(Severity.ERROR, "HW-X-001", "m", Loc("b.csv", 2, 7)),
    ]
    regions = [
        r["locations"][0]["physicalLocation"]["region"] for r in json.loads(render_sarif(found))["runs"][0]["results"]
    ]
    assert regions == [
        {"startLine": 4, "startColumn": 21, "endLine": 4, "endColumn": 26},
        {"startLine": 2, "startColumn": 7},
    ]
