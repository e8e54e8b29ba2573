"""Point 9 of issue 47: nonsense combat data is refused with a located finding. A CRT's odds columns come
each once and rising from more than 0, its die rolls each once; the strengths combat sums are numbers; each
die has its own name. Each case validated before, and the module then found a wrong column or result."""

from __future__ import annotations

from pathlib import Path

import pytest
from hw_support import ROOT, copy_game, refused
from test_bounded import _edit

TABLES = "scenarios/bfm/tables.yaml"
CRT_HEAD = '["Die", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]'

CASES = {
    "repeated-column": (
        TABLES,
        CRT_HEAD,
        '["Die", "1:1", "1:1", "3:1", "4:1", "5:1", "6:1"]',
        r"tables\.yaml:26:\d+: error\[HW-COMBAT-002\]: CRT 'crt': odds column '1:1' repeats the column before it",
    ),
    "same-ratio-column": (
        TABLES,
        CRT_HEAD,
        '["Die", "1:1", "2:1", "4:2", "4:1", "5:1", "6:1"]',
        r"tables\.yaml:26:\d+: error\[HW-COMBAT-002\]: CRT 'crt': odds column '4:2' repeats the column before it",
    ),
    "zero-column": (
        TABLES,
        CRT_HEAD,
        '["Die", "0:1", "2:1", "3:1", "4:1", "5:1", "6:1"]',
        r"tables\.yaml:26:\d+: error\[HW-COMBAT-002\]: CRT 'crt': odds column '0:1' is 0 to 1",
    ),
    "falling-column": (
        TABLES,
        CRT_HEAD,
        '["Die", "2:1", "1:1", "3:1", "4:1", "5:1", "6:1"]',
        r"tables\.yaml:26:\d+: error\[HW-COMBAT-002\]: CRT 'crt': odds column '1:1' is below the column before it",
    ),
    "repeated-die-roll": (
        TABLES,
        "      - [2, EX, DR, DR, DR, DRL, DRL]",
        "      - [1, EX, DR, DR, DR, DRL, DRL]",
        r"tables\.yaml:29:\d+: error\[HW-COMBAT-002\]: CRT 'crt' has two rows for die roll 1",
    ),
    "empty-row": (  # the nightly fuzz run's case: an IndexError before
        TABLES,
        "      - [2, EX, DR, DR, DR, DRL, DRL]",
        "      - []",
        r"tables\.yaml:29:\d+: error\[HW-TABLE-001\]: table 'crt' row 2 has 0 cells for 7 columns",
    ),
    "short-row": (
        TABLES,
        "      - [2, EX, DR, DR, DR, DRL, DRL]",
        "      - [2, EX, DR]",
        r"tables\.yaml:29:\d+: error\[HW-TABLE-001\]: table 'crt' row 2 has 3 cells for 7 columns",
    ),
    "strength-with-a-mark": (
        "counters/bfm/counters.yaml",
        "attack: 8, movement: 4",
        'attack: "8*", movement: 4',
        r"counters\.yaml:\d+:\d+: error\[HW-COMBAT-003\]: counter '[\w-]+': attack '8\*' is no number, and combat sums it",
    ),
    "two-dice-named-d6": (
        "scenarios/bfm/game.yaml",
        "dice: [{name: d6, sides: 6}]",
        "dice: [{name: d6, sides: 6}, {name: d6, sides: 10}]",
        r"game\.yaml:\d+:\d+: error\[HW-DUP-001\]: duplicate die name 'd6'",
    ),
}


@pytest.fixture
def bfm(tmp_path: Path) -> Path:
    return copy_game(ROOT, tmp_path / "project", "bfm")


@pytest.mark.parametrize("name", CASES)
def test_nonsense_combat_data_is_a_located_error(name: str, bfm: Path):
    rel, old, new, expected = CASES[name]
    _edit(bfm, rel, old, new)
    r = refused(bfm, expected)
    assert r.output.count("error[") == 1, r.output[-2000:]


def test_a_decimal_strength_and_a_rising_table_with_a_column_below_one_still_validate(bfm: Path, cli):
    """What the checks must let through: 1:2 before 1:1, a strength of 1.5 (Typhoon halves), text strengths of
    digits (a CSV cell)."""
    _edit(bfm, TABLES, CRT_HEAD, '["Die", "1:2", "1:1", "3:2", "2:1", "4:1", "6:1"]')
    _edit(bfm, "counters/bfm/counters.yaml", "attack: 8, movement: 4", "attack: 1.5, movement: 4")
    _edit(bfm, "counters/bfm/counters.yaml", "attack: 8, movement: 4", 'attack: "8", movement: 4')
    r = cli("validate", str(bfm), "--format", "concise")
    assert r.exit_code == 0, r.output[-2000:]
