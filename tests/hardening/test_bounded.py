"""Class 2 of issue 17: no input hangs or exhausts a stage. Each oversized input is refused with a located
error that says the limit (exit 1, no traceback); a set-up code pattern runs in linear time (RE2).

The reported instances (a 100,000-character designation, `^(a|aa)+$`, a 15,000-row table, a 4,300-digit
integer) and second ones of each class (a long side name, another nested-repetition pattern and a
backreference, a table of 1,000 columns, huge numbers in YAML and in a counters CSV cell)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hw_support import refused

GAME = "scenarios/mini/game.yaml"
UNITS = "counters/mini/units.yaml"
TABLES = "scenarios/mini/tables.yaml"
CSV = "counters/mini/more.csv"


def _edit(project: Path, rel: str, old: str, new: str) -> None:
    p = project / rel
    text = p.read_text()
    assert old in text, (rel, old)
    p.write_text(text.replace(old, new, 1))


def _codes(project: Path, pattern: str, code: str) -> None:
    (project / GAME).write_text(
        (project / GAME).read_text() + f"setup_codes:\n  - {{pattern: '{pattern}', meaning: any}}\n"
    )
    _edit(
        project,
        UNITS,
        'designation: "1"\n    faces:\n      - {state: full, values: {attack: 4',
        f'designation: "1"\n    setup_code: "{code}"\n    faces:\n      - {{state: full, values: {{attack: 4',
    )
    scen = project / "scenarios/mini/intro.yaml"
    scen.write_text(scen.read_text() + 'setup_rules:\n  - {type: follow-setup-codes, rule: "1"}\n')


CASES = {
    "long-designation": (
        lambda p: _edit(p, UNITS, 'designation: "1"', 'designation: "' + "9" * 100_000 + '"'),
        r"units\.yaml:\d+:\d+: error\[HW-SCHEMA-008\]: `counters\[0\]\.designation`: text is 100,000 "
        r"characters long, over the limit of 40",
    ),
    "long-side-name": (
        lambda p: _edit(p, GAME, "name: Red,", "name: " + "R" * 20_000 + ","),
        r"game\.yaml:\d+:\d+: error\[HW-(SCHEMA-008|TEXT-003)\]: .*over the limit of (200|10,000)",
    ),
    "tall-table": (
        lambda p: _edit(p, TABLES, "      - [2, NE, DR]", "\n".join(["      - [2, NE, DR]"] * 15_000)),
        r"tables\.yaml:\d+:\d+: error\[HW-SCHEMA-008\]: `tables\[0\]\.rows`: list has 15,001 entries, "
        r"over the limit of 500",
    ),
    "wide-table": (
        lambda p: _edit(p, TABLES, '["Die", "1:1", "2:1"]', "[" + ", ".join(['"c"'] * 1000) + "]"),
        r"tables\.yaml:\d+:\d+: error\[HW-SCHEMA-008\]: `tables\[0\]\.columns`: list has 1,000 entries",
    ),
    "huge-integer": (
        lambda p: _edit(p, UNITS, "attack: 4,", "attack: " + "7" * 5000 + ","),
        r"units\.yaml:\d+:\d+: error\[HW-SCHEMA-008\]: `counters\[0\]\.faces\[0\]\.values\.attack`: ",
    ),
    "huge-quantity": (
        lambda p: _edit(p, UNITS, "    size: division\n", "    size: division\n    quantity: 1" + "0" * 30 + "\n"),
        r"units\.yaml:\d+:\d+: error\[HW-SCHEMA-008\]: `counters\[0\]\.quantity`: .* is over the maximum",
    ),
    "huge-csv-cell": (
        lambda p: _edit(
            p, CSV, "red-2,red,infantry,division,2,1,5,", "red-2,red,infantry,division,2,1," + "5" * 5000 + ","
        ),
        r"more\.csv:2:\d+: error\[HW-SCHEMA-008\]",
    ),
    "backreference-pattern": (
        lambda p: _codes(p, r"^(a+)\1$", "aa"),
        r"game\.yaml:\d+:\d+: error\[HW-CODE-004\]: set-up code pattern .* is not a valid regular "
        r"expression: invalid escape sequence",
    ),
    "lookahead-pattern": (lambda p: _codes(p, r"^(?=a)a$", "a"), r"game\.yaml:\d+:\d+: error\[HW-CODE-004\]"),
    "control-in-designation": (
        lambda p: _edit(p, UNITS, 'designation: "1"', 'designation: "1\\t2"'),
        r"units\.yaml:\d+:\d+: error\[HW-TEXT-001\]: text holds a tab \(\\x09\) at character 2",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_oversized_input_refused_with_the_limit(name: str, mini_project: Path, cli):
    make, expected = CASES[name]
    make(mini_project)
    r = refused(mini_project, expected)
    assert len(r.output) < 20_000


@pytest.mark.parametrize(
    "pattern, code",
    [(r"^(a|aa)+$", "a" * 5000 + "b"), (r"^(\w+\s?)*$", "word " * 2000 + "!"), (r"^((a+)+)+$", "a" * 20_000 + "!")],
)
def test_nested_repetition_patterns_run_in_linear_time(mini_project: Path, cli, pattern: str, code: str):
    """Backtracking engines take 2^n steps on these; RE2 answers at once (a hang would stop the suite)."""
    from authoring.rules.codes import compile_pattern

    assert compile_pattern(pattern).fullmatch(code) is None
    _codes(mini_project, pattern, code[:38] + "!")  # set-up codes are printed text: 40 characters at most
    r = cli("validate", str(mini_project), "--format", "concise")
    assert "HW-CODE-001" in r.output, r.output[-2000:]
