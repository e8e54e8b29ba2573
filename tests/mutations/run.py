"""Hand mutations (issue 48): one-token mistakes spread over the packages, and which tier of tests catches each.

    python tests/mutations/run.py [--tier fast|full] [NAME ...]

Each mutation replaces one token of the package's source in the working tree, runs a tier, and puts the file
back (also on Ctrl-C or an error). `fast` is `make test-fast`'s selection (`-m "not slow"`); `full` is the
mutation's own test files with the slow tests included (what `make test` adds for that code). Both stop at
the first failure (`-x`): a mutation is caught when the run fails. The table is kept in docs/testing.md.
Not part of the suite (no `test_` file): each run takes a tier's minutes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]


class Mutation(NamedTuple):
    name: str
    path: str
    old: str
    new: str
    what: str
    tests: tuple[str, ...]
    """The test files of the code mutated, slow ones included (the `full` tier)."""


MUTATIONS = (
    Mutation(
        "author",
        "authoring/author/setup_io.py",
        'and (last.get("state") or "") == state and not note',
        'and (last.get("state") or "") != state and not note',
        "a set-up card's rows for one hex merge across states (a half-strength unit imports at full)",
        ("tests/author",),
    ),
    Mutation(
        "schema",
        "authoring/schema/fastcheck.py",
        '"exclusiveMinimum": ">"',
        '"exclusiveMinimum": ">="',
        "the fast validator lets `hex_size: 0` through (`exclusiveMinimum` read as `minimum`)",
        ("tests/load/test_fastcheck.py", "tests/art"),
    ),
    Mutation(
        "diagnostics",
        "authoring/diagnostics/format.py",
        "max(d.loc.col - 1, 0)",
        "max(d.loc.col - 0, 0)",
        "the caret one column right of the finding (1-based column used as 0-based)",
        ("tests/hardening/test_bounded_errors.py", "tests/cli"),
    ),
    Mutation(
        "hexgrid",
        "authoring/hexgrid/coords.py",
        "return (abs(dq) + abs(dr) + abs(dq + dr)) // 2",
        "return (abs(dq) + abs(dr) + abs(dq - dr)) // 2",
        "hex distance with the third cube coordinate's sign flipped",
        ("tests/hexgrid", "tests/rules"),
    ),
    Mutation(
        "model",
        "authoring/model/values.py",
        "if vid not in values and vid in first:",
        "if vid in values and vid in first:",
        "a face no longer carries its counter's first-face values (`carried`)",
        ("tests/render", "tests/serve/test_face_values.py", "tests/vmod/test_bounded_import.py"),
    ),
    Mutation(
        "load",
        "authoring/load/cells.py",
        "at += len(piece) + 1",
        "at += len(piece) + 2",
        "a CSV cell's column counts the delimiter twice (findings point right of the cell)",
        ("tests/load", "tests/cli"),
    ),
    Mutation(
        "rules",
        "authoring/rules/stacking.py",
        "if len(units) <= limit:",
        "if len(units) < limit:",
        "a hex holding exactly the stacking limit is reported over it",
        ("tests/rules", "tests/data_bfm", "tests/data_games"),
    ),
    Mutation(
        "render",
        "authoring/render/print/sheets.py",
        'return (x - g.pitch, y) if duplex == "long" else (x, y - g.pitch)',
        'return (x + g.pitch, y) if duplex == "long" else (x, y - g.pitch)',
        "a counter's back printed one cell off its front (long-edge duplex)",
        ("tests/render",),
    ),
    Mutation(
        "vassal",
        "authoring/vassal/setups.py",
        "ctx.piece_for(unit, p.state)",
        "ctx.piece_for(unit, None)",
        "a set-up's units start at their first face whatever their `state`",
        ("tests/vassal", "tests/vassal_compile/test_setups.py"),
    ),
    Mutation(
        "vmod",
        "authoring/vmod/grids.py",
        '"row_digits": int(params[row_key + "Leading"]) + 1,',
        '"row_digits": int(params[row_key + "Leading"]) + 0,',
        "an imported grid's hex ids lose a leading zero of the row",
        ("tests/vmod/test_grids.py", "tests/vmod/test_reading.py", "tests/vmod/test_cli_import.py"),
    ),
    Mutation(
        "serve",
        "authoring/serve/tiles.py",
        "box = (gx * TILE_PX, gy * TILE_PX, min(w, (gx + 1) * TILE_PX), min(h, (gy + 1) * TILE_PX))",
        "box = (gx * TILE_PX, gy * TILE_PX, min(h, (gx + 1) * TILE_PX), min(h, (gy + 1) * TILE_PX))",
        "the preview's last column of tiles cut at the map's height instead of its width",
        ("tests/serve",),
    ),
    Mutation(
        "build",
        "authoring/pipeline/stages.py",
        '"counters": frozenset({"module", "sheets", "cards"}),',
        '"counters": frozenset({"module", "sheets"}),',
        "a counter edit leaves the set-up cards that show it as they were (stale cards)",
        ("tests/hardening/test_incremental.py", "tests/cli"),
    ),
)


def caught(mutation: Mutation, tier: str) -> bool:
    """Whether the tier's tests fail with the mutation applied (the file is restored either way)."""
    path = ROOT / mutation.path
    original = path.read_text(encoding="utf-8")
    assert original.count(mutation.old) == 1, f"{mutation.name}: the token to change is not in {mutation.path}"
    selection = ["-m", "not slow"] if tier == "fast" else list(mutation.tests)
    try:
        path.write_text(original.replace(mutation.old, mutation.new), encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *selection],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    finally:
        path.write_text(original, encoding="utf-8")
    return run.returncode != 0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tier", choices=("fast", "full"), default="fast")
    ap.add_argument("names", nargs="*", help="mutations to run (default: all)")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.names or m.name in args.names]
    print(f"| package | mutation | caught by {args.tier} |\n|---|---|---|")
    for m in chosen:
        print(f"| {m.name} | {m.what} | {'yes' if caught(m, args.tier) else 'no'} |", flush=True)


if __name__ == "__main__":
    main()
