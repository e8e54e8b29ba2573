"""Issue 33, point 2: errors are bounded. Every finding kind counts toward the 200-per-file cap (unknown keys
and unknown CSV columns too), a long line is cut around the column with the caret inside the cut, and one
command prints at most 1,000 findings and says how many it left out. The issue's examples (a one-line
game.yaml of 15,000 unknown keys, a counters CSV of 20,000 unknown columns) and another instance of each."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from authoring.diagnostics import Diagnostic, Loc, Severity
from authoring.diagnostics.format import MAX_SHOWN, cut_around, render_concise, render_full, render_json, render_sarif
from authoring.diagnostics.limits import MAX_PER_FILE, per_file

GAME = "scenarios/mini/game.yaml"
CSV = "counters/mini/more.csv"


def _one_line_game(project: Path, keys: int) -> int:
    """game.yaml as one flow mapping: its own fields, then `keys` unknown keys (the issue's 186 KB file)."""
    path = project / GAME
    body = json.dumps(yaml.safe_load(path.read_text()))[1:-1]
    path.write_text("{" + body + ", " + ", ".join(f"zz{i:07d}: 1" for i in range(keys)) + "}\n")
    return path.stat().st_size


def _wide_csv(project: Path, columns: int, name=lambda i: f"q{i:04d}") -> int:
    path = project / CSV
    head, row = path.read_text().splitlines()[:2]
    path.write_text(head + "," + ",".join(name(i) for i in range(columns)) + "\n" + row + "," * columns + "\n")
    return path.stat().st_size


def _bounded(r, code: str, file: str) -> str:
    out = r.output
    assert r.exit_code == 1, out[-2000:]
    assert "Traceback" not in out and "internal error" not in out
    assert len(re.findall(rf"error\[{code}\]", out)) == MAX_PER_FILE, out[-2000:]
    m = re.search(
        r"error\[HW-LIMIT-001\]: more than 200 errors in this file; the rest are not shown \([\d,]+ more\)", out
    )
    assert m and file in out[m.start() - 300 : m.end() + 300], out[-3000:]
    longest = max(len(line) for line in out.splitlines())
    assert longest < 2500, longest  # no line padded out to a column 186,000 characters in
    return out


def test_one_line_game_yaml_of_15000_unknown_keys_is_200_findings(mini_project, cli):
    assert _one_line_game(mini_project, 15_000) > 180_000
    r = cli("validate", str(mini_project))
    out = _bounded(r, "HW-SCHEMA-002", "game.yaml")
    assert len(out) < 400_000  # 200 findings with a cut line each (the issue: 1.38 GB)
    assert "(14,800 more)" in out


def test_a_scenario_of_5000_unknown_keys_is_capped_too(mini_project, cli):
    path = mini_project / "scenarios/mini/intro.yaml"
    path.write_text(path.read_text() + "".join(f"extra{i}: 1\n" for i in range(5000)))
    out = _bounded(cli("validate", str(mini_project), "--format", "concise"), "HW-SCHEMA-002", "intro.yaml")
    assert len(out) < 200_000 and "(4,800 more)" in out


def test_counters_csv_of_20000_unknown_columns_is_200_findings(mini_project, cli):
    assert _wide_csv(mini_project, 20_000) > 120_000
    out = _bounded(cli("validate", str(mini_project)), "HW-CSV-006", "more.csv")
    assert len(out) < 400_000 and "(19,800 more)" in out


def test_csv_header_repeating_a_column_3000_times_is_capped_too(mini_project, cli):
    _wide_csv(mini_project, 3000, name=lambda i: "Side")
    out = _bounded(cli("validate", str(mini_project), "--format", "concise"), "HW-CSV-003", "more.csv")
    assert len(out) < 200_000


def test_caret_stays_under_its_column_inside_the_cut():
    line = "".join(f"k{i:05d}: 1, " for i in range(20_000))  # 200,000 characters
    for col in (0, 7, 100_000, len(line) - 3, len(line) + 50):
        shown, at = cut_around(line, col)
        assert len(shown) <= 210 and 0 <= at <= len(shown)
        target = line[min(col, len(line) - 1)] if col < len(line) else None
        if target is not None:
            assert shown[at] == target, (col, shown, at)


def test_caret_counts_the_escapes_shown_before_it():
    line = "\x1b[31m" * 50 + "needle" + "x" * 5000
    shown, at = cut_around(line, line.index("needle"))
    assert shown[at : at + 6] == "needle" and "\\x1b" in shown


def test_caret_line_is_never_longer_than_the_quoted_line(tmp_path):
    src = tmp_path / "wide.yaml"
    src.write_text("a: " + "b" * 300_000 + "\n")
    out = render_full([Diagnostic(Severity.ERROR, "HW-X-001", "far out", Loc(str(src), 1, 250_000))])
    quoted, caret = [line for line in out.splitlines() if line.startswith(("1 |", "  |"))][1:3]
    assert caret.rstrip().endswith("^") and len(caret) <= len(quoted)


def _spread(files: int, each: int):
    return [
        Diagnostic(Severity.ERROR, "HW-X-001", f"finding {i}", Loc(f"f{n:03d}.yaml", i + 1, 1))
        for n in range(files)
        for i in range(each)
    ]


def test_one_command_prints_at_most_1000_findings_and_counts_the_rest():
    diags = _spread(30, 150)  # 4,500 findings, none over the per-file cap
    for render in (render_full, render_concise):
        out = render(diags)
        assert len(re.findall(r"error\[HW-X-001\]", out)) == MAX_SHOWN
        assert "... and 3,500 more findings left out (HW-LIMIT-002: at most 1,000 are shown)" in out
        assert out.rstrip().endswith("Found 4500 errors.")
    records = json.loads(render_json(diags))
    assert len(records) == MAX_SHOWN + 1 and records[-1]["code"] == "HW-LIMIT-002"
    sarif = json.loads(render_sarif(diags))["runs"][0]["results"]
    assert len(sarif) == MAX_SHOWN + 1 and sarif[-1]["ruleId"] == "HW-LIMIT-002"


def test_every_kind_counts_toward_the_per_file_cap():
    mixed = [Diagnostic(Severity.ERROR, f"HW-K-{i % 7:03d}", f"m{i}", Loc("a.yaml", i + 1, 1)) for i in range(900)]
    mixed += [Diagnostic(Severity.WARNING, "HW-W-001", f"w{i}", Loc("a.yaml", i + 1, 2)) for i in range(300)]
    mixed += [Diagnostic(Severity.ERROR, "HW-K-001", "other file", Loc("b.yaml", 1, 1))]
    kept = per_file(mixed)
    errors_a = [d for d in kept if d.loc.file == "a.yaml" and d.severity.value == "error"]
    assert len(errors_a) == MAX_PER_FILE + 1 and errors_a[-1].code == "HW-LIMIT-001"
    assert "(700 more)" in errors_a[-1].message
    assert sum(d.loc.file == "a.yaml" and d.severity.value == "warning" for d in kept) == MAX_PER_FILE + 1
    assert any(d.loc.file == "b.yaml" for d in kept)
    assert per_file(kept) == kept  # capping twice changes nothing
    out = render_concise(mixed)
    assert out.count("a.yaml") <= 2 * MAX_PER_FILE + 2


def test_the_caret_is_under_the_exact_column_of_the_finding(tmp_path):
    """Issue 48: a finding's column is 1-based, the caret goes under that very character (the first column
    under the first character), in a short line and in a line cut around the column."""
    src = tmp_path / "units.yaml"
    long = "x" * 500 + "TARGET" + "y" * 500
    src.write_text(f"counters:\n- {{id: red-1, attack: 4}}\n{long}\n")
    for line, col, expected in ((1, 1, "c"), (2, 1, "-"), (2, 8, "r"), (2, 23, "4"), (3, 501, "T"), (3, 502, "A")):
        out = render_full([Diagnostic(Severity.ERROR, "HW-X-001", "here", Loc(str(src), line, col))])
        rows = out.splitlines()
        quoted = next(r for r in rows if r.startswith(f"{line} | "))
        caret = rows[rows.index(quoted) + 1]
        assert caret.rstrip().endswith("^") and caret.count("^") == 1
        assert quoted[caret.index("^")] == expected, (line, col, quoted, caret)
