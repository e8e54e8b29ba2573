"""`make bench` section: what `hexwright validate` costs next to a bare YAML parse of the same files.

For each bundled game and the synthetic large game: the bare parse (`benchlib.bare_yaml`: libyaml's
CSafeLoader over every YAML file plus csv.reader over every CSV, in this process, with the garbage
collector as the process has it, as the issue defines it), the same bare parse with the collector
paused (the strict comparison: `load_game` and `check_game` pause it), our parse with source marks,
`load_game`, `check_game` and the two together (`validate_games`, what the command runs). Each figure
is the median of interleaved runs (A, B, C, A, B, C...) with min-max. Then validate and check at 1x,
2x, 4x and 8x the units (linear growth: ratio 4x/1x near 4, 8x/4x near 2), and the whole
`hexwright validate` process.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from benchlib import interleaved, repeat, spread, timed

ROOT = Path(__file__).resolve().parents[2]
RUNS = 7


def _interleaved(fns: dict[str, Callable[[], object]], runs: int = RUNS) -> dict[str, list[float]]:
    """Seconds of each function per run, after a warm-up (imports, schema compilation, code caches)."""
    return interleaved({name: timed(fn) for name, fn in fns.items()}, repeat(runs), warmup=True)


def _paused(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        gc.disable()
        try:
            return fn()
        finally:
            gc.enable()

    return run


def _fig(samples: list[float]) -> str:
    return spread(samples, "ms", 1000, 1)


def _ours(files) -> None:
    """Every file through our parser (source marks, CSV rows to counters), no schema or model."""
    from authoring.load.resolve_counters import csv_to_counters
    from authoring.load.source import load_source

    for path in files.all:
        src = load_source(path)
        if path.suffix == ".csv":
            csv_to_counters(src)


def _check(game) -> Callable[[], object]:
    from authoring.rules import check_game
    from authoring.rules.board import build_cells

    return lambda: (build_cells.cache_clear(), check_game(game))  # cold: the cell index is rebuilt each run


def bench_game(name: str, files) -> None:
    from benchlib import bare_yaml

    from authoring.load import load_game
    from authoring.rules.board import build_cells
    from authoring.validate import validate_games

    game = load_game(files).game
    s = _interleaved(
        {
            "bare": lambda: bare_yaml(files),
            "bare, gc paused": _paused(lambda: bare_yaml(files)),
            "our parse": lambda: _ours(files),
            "load": lambda: load_game(files),
            "check": _check(game),
            "validate": lambda: (build_cells.cache_clear(), validate_games([files])),
        }
    )
    med = {k: statistics.median(v) for k, v in s.items()}
    print(f"  {name:<10} " + "  ".join(f"{k} {_fig(v)}" for k, v in s.items()))
    print(
        f"  {name:<10} validate/bare {med['validate'] / med['bare']:.2f}x (goal <= 1.5x); validate/bare with gc "
        f"paused in both {med['validate'] / med['bare, gc paused']:.2f}x"
    )


def scaling(synth_root: Path, tmp: Path) -> None:
    """Validate and check at 1x, 2x, 4x and 8x the units. The goal names 4x/1x; 8x/4x is printed beside
    it because on a core with 1 MiB of L2 cache the 1x game's records fit in the cache and the 4x
    game's do not, so the cost a unit steps up once between 1x and 4x: 8x/4x, both out of the cache,
    shows whether the growth itself is linear."""
    from synth import generate

    from authoring.load import discover, load_game
    from authoring.rules.board import build_cells
    from authoring.validate import validate_games

    scales = (1, 2, 4, 8)
    roots = {1: synth_root, **{k: generate(tmp / f"synth-load-x{k}", scale=k) for k in scales[1:]}}
    files = {k: discover(root)[0] for k, root in roots.items()}
    games = {k: load_game(f).game for k, f in files.items()}
    fns: dict[str, Callable[[], object]] = {}
    for k in roots:
        fns[f"validate {k}x"] = lambda f=files[k]: (build_cells.cache_clear(), validate_games([f]))
        fns[f"check {k}x"] = _check(games[k])
    s = _interleaved(fns, runs=5)
    med = {k: statistics.median(v) for k, v in s.items()}
    for what in ("validate", "check"):
        print(
            f"  {what:<8} "
            + "  ".join(f"{k}x {_fig(s[f'{what} {k}x'])}" for k in roots)
            + f"   4x/1x {med[f'{what} 4x'] / med[f'{what} 1x']:.2f} (goal 3.5-4.5)"
            + f"   8x/4x {med[f'{what} 8x'] / med[f'{what} 4x']:.2f} (linear: 2)"
        )
        print(
            f"  {'':<8} a unit at each scale, relative to 1x: "
            + "  ".join(f"{k}x {med[f'{what} {k}x'] / k / med[f'{what} 1x']:.2f}" for k in roots)
        )


def process(synth_root: Path) -> None:
    """The command as a user runs it: a fresh interpreter, start-up and imports included."""
    hexwright = Path(sys.executable).parent / "hexwright"
    if not hexwright.exists():
        print(f"  (no {hexwright.name} beside the interpreter: process timing skipped)")
        return
    cmds = {
        "hexwright validate": [str(hexwright), "validate"],
        "python -c 'import authoring.cli'": [sys.executable, "-c", "import authoring.cli"],
    }
    s = _interleaved(
        {
            k: (lambda c=c: subprocess.run(c, cwd=synth_root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            for k, c in cmds.items()
        },
        runs=5,
    )
    print("  process  " + "  ".join(f"{k} {_fig(v)}" for k, v in s.items()))


def run(synth_root: Path, tmp: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from authoring.load import discover

    print(f"validate vs bare YAML parse, in-process medians of {repeat(RUNS)} interleaved runs (min-max)")
    for files in discover(ROOT):
        bench_game(files.id, files)
    bench_game("synthetic", discover(synth_root)[0])
    print(
        f"validate and check at 1x/2x/4x/8x the units (synthetic game), medians of {repeat(5)} interleaved runs (min-max)"
    )
    scaling(synth_root, tmp)
    process(synth_root)
