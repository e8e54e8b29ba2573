"""Class 3 of issue 17: whatever validates, builds. Sizes a stage cannot draw, and text a module cannot carry,
are located errors of `validate`; a game that passes builds every stage."""

from __future__ import annotations

from pathlib import Path

import pytest
from hw_support import refused
from test_bounded import _edit

GAME = "scenarios/mini/game.yaml"
BOARD = "maps/mini/board.yaml"


def _hex_size(size: str):
    return lambda p: _edit(p, BOARD, "  shifted: even\n", f"  shifted: even\n  hex_size: {size}\n")


def _counter_size(size: str):
    return lambda p: (p / GAME).write_text((p / GAME).read_text() + f"counter_size: {size}\n")


CASES = {
    "hex-0in": (
        _hex_size("0in"),
        r"board\.yaml:\d+:\d+: error\[HW-SIZE-001\]: hex_size '0in' is 0in \(0\.0 mm\), outside the range 0\.25in to 4in",
    ),
    "hex-500in": (_hex_size("500in"), r"error\[HW-SIZE-001\]: hex_size '500in' is 500in"),
    "hex-1/0": (_hex_size("1/0"), r"error\[HW-SIZE-001\]: hex_size '1/0' is not a length"),
    "hex-2mm": (_hex_size("2mm"), r"error\[HW-SIZE-001\]: hex_size '2mm' is 0\.0787402in \(2\.0 mm\)"),
    "counter-0in": (_counter_size("0in"), r"game\.yaml:\d+:\d+: error\[HW-SIZE-001\]: counter_size '0in'"),
    "counter-400in": (_counter_size("400in"), r"game\.yaml:\d+:\d+: error\[HW-SIZE-001\]: counter_size '400in'"),
    "counter-1000mm": (_counter_size("1000mm"), r"error\[HW-SIZE-001\]: counter_size '1000mm' is 39\.3701in"),
    "big-map": (
        lambda p: _edit(p, BOARD, "  columns: 6\n  rows: 5\n", "  columns: 120\n  rows: 80\n"),
        r"board\.yaml:\d+:\d+: error\[HW-SIZE-002\]: map of 9,600 hexes would be drawn as 216 million pixels "
        r"for the map image \(build maps\), over the budget of 120 million",
    ),
    "big-print-hexes": (
        lambda p: (_edit(p, BOARD, "  columns: 6\n  rows: 5\n", "  columns: 60\n  rows: 40\n"), _hex_size("3in")(p)),
        r"error\[HW-SIZE-002\]: map of 2,400 hexes would be drawn as 486 million pixels for the tiled print map",
    ),
    "tab-in-side-name": (
        lambda p: _edit(p, GAME, "name: Red,", 'name: "Re\\td",'),
        r"game\.yaml:\d+:\d+: error\[HW-TEXT-001\]: text holds a tab",
    ),
    "nul-in-designation": (
        lambda p: _edit(p, "counters/mini/units.yaml", 'designation: "1"', 'designation: "1\\0"'),
        r"error\[HW-TEXT-001\]: text holds a NUL character \(\\x00\)",
    ),
    "esc-in-map-name": (
        lambda p: _edit(p, BOARD, "name: Mini Board", 'name: "Mini\\eBoard"'),
        r"board\.yaml:\d+:\d+: error\[HW-TEXT-001\]: text holds an escape character \(ESC\) \(\\x1b\)",
    ),
    "backslash-designation": (
        lambda p: _edit(p, "counters/mini/units.yaml", 'designation: "1"', 'designation: "1\\\\"'),
        r"error\[HW-TEXT-002\]: text ends in a backslash",
    ),
    "backslash-side-name": (
        lambda p: _edit(p, GAME, "name: Blue,", 'name: "Blue\\\\",'),
        r"game\.yaml:\d+:\d+: error\[HW-TEXT-002\]",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_what_build_cannot_take_validate_refuses(name: str, mini_project: Path, cli):
    make, expected = CASES[name]
    make(mini_project)
    refused(mini_project, expected)
    b = cli("build", "module", str(mini_project), "--out", str(mini_project / "build"))
    assert b.exit_code == 1 and "Nothing was built" in b.output


@pytest.mark.parametrize("size, ok", [("1/4", True), ("3in", True), ("76mm", True), ("0", False), ("3.5in", False)])
def test_the_command_line_counter_size_has_the_same_range(mini_project: Path, cli, size: str, ok: bool):
    r = cli(
        "build", "sheets", str(mini_project), "--counter-size", size, "--dpi", "72", "--out", str(mini_project / "b")
    )
    assert (r.exit_code == 0) == ok, r.output


def test_the_module_scale_the_budget_assumes_is_the_compilers():
    from authoring.budget import MODULE_PX_PER_HEX
    from authoring.vassal.compile import DEFAULT_PX_PER_HEX

    assert MODULE_PX_PER_HEX == DEFAULT_PX_PER_HEX


@pytest.mark.slow
@pytest.mark.parametrize("edit", ["edge-sizes", "edge-text"])
def test_values_at_the_edge_of_the_limits_build(mini_project: Path, cli, edit: str):
    """The other side of the contract: data at the limits validates and builds every stage."""
    if edit == "edge-sizes":
        _hex_size("1/4")(mini_project)
        _counter_size("3in")(mini_project)
    else:
        _edit(mini_project, "counters/mini/units.yaml", 'designation: "1"', 'designation: "' + "W" * 40 + '"')
        _edit(mini_project, GAME, "name: Red,", 'name: "' + "\\\\R" + "x" * 190 + '",')
    assert cli("validate", str(mini_project)).exit_code == 0
    r = cli("build", "all", str(mini_project), "--dpi", "72", "--out", str(mini_project / "b"))
    assert r.exit_code == 0, r.output[-3000:]
