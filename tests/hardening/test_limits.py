"""Size and shape limits: each oversized input is refused with its own clear error, in bounded memory.

Each case runs `hexwright validate` in a child process so its peak memory (ru_maxrss) can be read.
The limits: files over 20 MiB (HW-IO-002); more than 1,000,000 values with aliases expanded
(HW-YAML-005); nesting deeper than 64 levels (HW-YAML-006; libyaml itself stops at 1000);
maps over 200,000 hexes (HW-MAP-001); past 200 errors in one file, one summary (HW-LIMIT-001).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hw_support import ROOT

BOARD = "maps/mini/board.yaml"
MEASURE = """
import resource, sys
from click.testing import CliRunner
from authoring.cli import main

def peak_mib():
    # VmHWM belongs to this program's own address space; ru_maxrss on Linux carries over through exec the
    # peak of the forked copy of the parent (a test runner grown to 430 MiB made every child read 430)
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) // 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024

r = CliRunner().invoke(main, ["validate", sys.argv[1], "--format", "concise"])
print(r.output)
print("@@", r.exit_code, peak_mib())
"""


def _validate(project: Path) -> tuple[int, str, int]:
    """(exit code, output, peak MiB) of `hexwright validate` in a fresh process."""
    r = subprocess.run(
        [sys.executable, "-c", MEASURE, str(project)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    out, _, tail = r.stdout.rpartition("@@")
    code, mib = tail.split()
    return int(code), out, int(mib)


def _alias_bomb() -> str:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]  # 10^10 values
    return "kind: map\n" + "\n".join(lines) + "\n"


def _million_hexes() -> str:
    hexes = ",".join(f'"{c:03d}{r:03d}"' for c in range(1, 1001) for r in range(1, 1001))
    return (
        "kind: map\nid: board\nname: B\ngrid: {orientation: flat, columns: 10, rows: 10}\n"
        f"terrain:\n  forest: [{hexes}]\n"
    )


def _many_values() -> str:
    return "kind: map\nx: [" + "1," * 9_000_000 + "1]\n"  # 18 MB: under the size limit, 9 million values


CASES = {
    "alias-bomb": (_alias_bomb, r"board\.yaml:\d+:\d+: error\[HW-YAML-005\]: document has more than 1,000,000 values"),
    "nine-million-values": (_many_values, r"board\.yaml:2:\d+: error\[HW-YAML-005\]"),
    "million-hex-list": (_million_hexes, r"board\.yaml:\d+:\d+: error\[HW-YAML-005\]"),
    "million-hex-grid": (
        lambda: "kind: map\nid: board\nname: B\ngrid: {orientation: flat, columns: 1000, rows: 1000}\n",
        r"board\.yaml:4:\d+: error\[HW-MAP-001\]: map has 1,000,000 hexes, over the limit of 200,000",
    ),
    "deep-flow": (
        lambda: "kind: map\nx: " + "[" * 100_000 + "]" * 100_000 + "\n",
        r"board\.yaml:2:\d+: error\[HW-YAML-001\]: YAML syntax error: exceeded maximum nesting depth",
    ),
    "deep-block": (
        lambda: "kind: map\n" + "".join(" " * i + f"k{i}:\n" for i in range(80)) + " " * 80 + "x\n",
        r"board\.yaml:\d+:\d+: error\[HW-YAML-006\]: document is nested deeper than 64 levels",
    ),
    "oversized-file": (
        lambda: "kind: map\n" + "# padding\n" * 2_200_000,
        r"board\.yaml:1:1: error\[HW-IO-002\]: file is 21\.0 MiB, over the 20 MiB limit",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_limit_refused_in_bounded_memory(name: str, mini_project: Path):
    make, expected = CASES[name]
    (mini_project / BOARD).write_text(make(), encoding="utf-8")
    code, out, mib = _validate(mini_project)
    assert code == 1, out[-2000:]
    assert re.search(expected, out), out[-2000:]
    assert "Traceback" not in out
    assert mib < 400, f"{name}: peak memory {mib} MiB"


def test_error_flood_is_summarised(mini_project: Path):
    """A 20,000-hex list of off-map hexes: 200 errors, then one summary line, not 20,000."""
    hexes = ", ".join(f'"{c:02d}{r:02d}"' for c in range(20, 99) for r in range(20, 99))
    (mini_project / BOARD).write_text(
        "kind: map\nid: board\nname: B\ngrid: {orientation: flat, columns: 6, rows: 5}\n"
        f"terrain:\n  forest: [{hexes}]\n",
        encoding="utf-8",
    )
    code, out, _ = _validate(mini_project)
    assert code == 1
    assert out.count("error[HW-HEX") + out.count("error[HW-MAP") == 200, out[-500:]
    assert "error[HW-LIMIT-001]: more than 200 errors in this file; the rest are not shown" in out


def test_schema_error_flood_is_bounded(mini_project: Path):
    """5,000 wrongly typed counters (15,000 schema errors): the schema report stops at its cap instead of listing them all."""
    (mini_project / "counters/mini/units.yaml").write_text(
        "kind: counters\ncounters: [" + ", ".join(["{id: 1, faces: 2}"] * 5_000) + "]\n", encoding="utf-8"
    )
    r = subprocess.run(
        [sys.executable, "-m", "authoring.cli", "validate", str(mini_project), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1
    found = json.loads(r.stdout)
    assert 0 < len(found) <= 2000
