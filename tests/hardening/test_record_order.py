"""Records built by position in hot paths (`tuple.__new__`) keep the field order those calls assume.

`Loc`, `Use`, `Hex` and `Hexside` are named tuples built in C by position where a game makes one per unit
or hex; a reordered or added field would be assigned silently, so the order is pinned here and every
positional construction is checked to give one value per field.
"""

from __future__ import annotations

import ast
from pathlib import Path

from authoring.diagnostics import Loc
from authoring.hexgrid.coords import Hex, Hexside
from authoring.rules.board import Use

ROOT = Path(__file__).resolve().parents[2]

ORDER = {
    Loc: ("file", "line", "col", "end_line", "end_col"),
    Use: ("unit", "kind", "side", "loc", "state", "turn", "hex", "label", "place", "counter", "owner", "counts"),
    Hex: ("q", "r"),
    Hexside: ("a", "b"),
}


def test_field_order_is_what_the_positional_builders_assume():
    for record, fields in ORDER.items():
        assert record._fields == fields, record.__name__


def positional_builds(path: Path, builder: str, record: str) -> list[tuple[int, int]]:
    """(line, number of values) of each `builder(record, (...))` call in `path`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) == builder
            and len(node.args) == 2
            and ast.unparse(node.args[0]) == record
            and isinstance(node.args[1], ast.Tuple)
        ):
            found.append((node.lineno, len(node.args[1].elts)))
    return found


def test_every_positional_use_gives_every_field():
    builds = positional_builds(ROOT / "authoring" / "rules" / "board.py", "_new_use", "Use")
    assert len(builds) >= 3
    assert all(n == len(Use._fields) for _line, n in builds), builds


def test_a_positional_build_reads_back_by_name():
    made = tuple.__new__(
        Use, ("u1", "setup", "german", Loc("f.yaml", 3, 5), "full", 0, Hex(1, 2), "0203", "", None, "german", True)
    )
    assert (made.unit, made.hex, made.label, made.owner, made.counts) == ("u1", Hex(1, 2), "0203", "german", True)
    loc = tuple.__new__(Loc, ("f.yaml", 3, 5, 3, 9))
    assert (loc.file, loc.line, loc.col, loc.end_line, loc.end_col) == ("f.yaml", 3, 5, 3, 9)
    assert str(loc) == "f.yaml:3:5"


def test_the_scan_sees_a_short_build(tmp_path):
    made = tmp_path / "made.py"
    made.write_text("x = _new_use(Use, (1, 2, 3))\n")
    assert positional_builds(made, "_new_use", "Use") == [(1, 3)]
