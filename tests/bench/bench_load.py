"""`make bench` section: what `hexwright validate` costs next to a bare parse of the same files.

The base is the bare parse (`fresh.bare`: libyaml's CSafeLoader over every YAML file of the game, csv.reader
over every CSV file, nothing else). For each bundled game and the synthetic large game, two fair ratios:
- fresh processes, after the imports: the bare parse and `validate_games` each timed in a fresh
  interpreter that holds no other game, both with the cyclic garbage collector off, as validate runs
  (`fresh.py`); one timed call per process, `repeat()` processes per side, taking turns;
- whole processes: `hexwright validate GAME` against `python fresh.py bare FILELIST` (interpreter start,
  imports, the parse or the validation, exit).
Then a breakdown in this process (our parse with source marks, load, check, the limits, validate: where
the time goes, not a ratio: this process holds every game loaded so far and its code is warm), validate
and check at 1x, 2x, 4x and 8x the units (linear growth: ratio 4x/1x near 4, 8x/4x near 2), and the
start-up alone.
Each figure is the median of interleaved runs (A, B, A, B...) with its min-max.
"""

from __future__ import annotations

import gc
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from benchlib import HEXWRIGHT, interleaved, repeat, spread, timed
from goals import BOARD
from measure import Run
from measure import run as measure_run

ROOT = Path(__file__).resolve().parents[2]
RUNS = 7
FRESH = Path(__file__).with_name("fresh.py")


def _interleaved(fns: dict[str, Callable[[], object]], runs: int = RUNS) -> dict[str, list[float]]:
    """Seconds of each function per run, after a warm-up (imports, schema compilation, code caches)."""
    return interleaved({name: timed(fn) for name, fn in fns.items()}, repeat(runs), warmup=True)


def _paused(fn: Callable[[], object]) -> Callable[[], object]:
    """`fn` run with the cyclic collector off, as `validate_games` runs its parts."""

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

    return lambda: check_game(game)  # cold: each run builds its own cell index


def fair(name: str, files, project: Path, tmp: Path) -> None:
    """validate against the bare parse: in fresh processes after the imports, and as whole processes."""
    listing = tmp / f"files-{name}.txt"
    listing.write_text("".join(f"{path}\n" for path in files.all), encoding="utf-8")
    fresh = [sys.executable, str(FRESH)]
    cases = {
        "bare": _inner([*fresh, "bare", str(listing)]),
        "validate": _inner([*fresh, "validate", str(project), files.id]),
        "bare process": _whole_run([*fresh, "bare", str(listing)]),
        "hexwright validate": _whole_run([*_hexwright(), "validate", "--project", str(project), files.id]),
    }
    s = interleaved(cases, repeat(RUNS))
    whole = {k: s.pop(k) for k in ("bare process", "hexwright validate")}
    s.update({k: [r.wall for r in runs] for k, runs in whole.items()})
    med = {k: statistics.median(v) for k, v in s.items()}
    if name != "synthetic":  # the goal is on the bundled games
        pairs = list(zip(whole["bare process"], whole["hexwright validate"]))
        BOARD.record(f"validate {name}", [v.wall / b.wall for b, v in pairs], [v.cpu / b.cpu for b, v in pairs])
    print(
        f"  {name:<10} fresh process, gc off in both: bare {_fig(s['bare'])}  validate {_fig(s['validate'])}  "
        f"validate/bare {med['validate'] / med['bare']:.2f}x"
    )
    print(
        f"  {'':<10} whole processes: bare {_fig(s['bare process'])} CPU {_cpu(whole['bare process'])}  "
        f"hexwright validate {_fig(s['hexwright validate'])} CPU {_cpu(whole['hexwright validate'])}  "
        f"validate/bare {med['hexwright validate'] / med['bare process']:.2f}x"
    )


def _inner(command: list[str]) -> Callable[[], float]:
    """A case: the seconds `fresh.py` reports of its one timed call."""

    def case() -> float:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[1:3])} failed: {done.stderr.strip()[-300:]}")
        return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])

    return case


def _cpu(runs: list[Run]) -> str:
    return _fig([r.cpu for r in runs])


def _whole_run(command: list[str]) -> Callable[[], Run]:
    """A case: `command` as a whole process (which must succeed), measured (wall, CPU, memory)."""

    def case() -> Run:
        result = measure_run(command)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {result.returncode}")
        return result

    return case


def _whole(command: list[str]) -> Callable[[], float]:
    """A case: the wall seconds of `command` as a whole process (which must succeed)."""

    def case() -> float:
        result = measure_run(command)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {result.returncode}")
        return result.wall

    return case


def breakdown(name: str, files) -> None:
    """Where validate's time goes, in this process (warm code, other games loaded: components, not a ratio),
    each part with the collector off as validate runs it. "limits": the findings validate adds after the
    rules engine (`validate.findings`: printed values that do not fit, the build stages' size limits)."""
    from authoring.load import load_game
    from authoring.render.counters.markings import printed_findings
    from authoring.render.limits import stage_findings
    from authoring.validate import validate_games

    game = load_game(files).game
    cases = {
        "our parse": lambda: _ours(files),
        "load": lambda: load_game(files),
        "check": _check(game),
        "limits": lambda: (printed_findings(game), stage_findings(game)),
        "validate": lambda: validate_games([files]),
    }
    s = _interleaved({part: _paused(fn) for part, fn in cases.items()})
    print(f"  {name:<10} " + "  ".join(f"{k} {_fig(v)}" for k, v in s.items()))


def scaling(synth_root: Path, tmp: Path) -> None:
    """Validate and check at 1x, 2x, 4x and 8x the units. The goal names 4x/1x; 8x/4x is printed beside
    it because on a core with 1 MiB of L2 cache the 1x game's records fit in the cache and the 4x
    game's do not, so the cost a unit steps up once between 1x and 4x: 8x/4x, both out of the cache,
    shows whether the growth itself is linear."""
    from synth import generate

    from authoring.load import discover, load_game
    from authoring.validate import validate_games

    scales = (1, 2, 4, 8)
    roots = {1: synth_root, **{k: generate(tmp / f"synth-load-x{k}", scale=k) for k in scales[1:]}}
    files = {k: discover(root)[0] for k, root in roots.items()}
    games = {k: load_game(f).game for k, f in files.items()}
    fns: dict[str, Callable[[], object]] = {}
    for k in roots:
        fns[f"validate {k}x"] = lambda f=files[k]: validate_games([f])
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


def startup() -> None:
    """What every hexwright process pays before it reads a file: the interpreter and the CLI's imports."""
    s = interleaved({"import authoring.cli": _whole([sys.executable, "-c", "import authoring.cli"])}, repeat(5))
    print(f"  start-up: python -c 'import authoring.cli' {_fig(s['import authoring.cli'])}")


def _hexwright() -> list[str]:
    """The console command beside this interpreter, as a designer runs it (else `python -m authoring.cli`)."""
    script = Path(sys.executable).parent / "hexwright"
    return [str(script)] if script.exists() else HEXWRIGHT


def run(synth_root: Path, tmp: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from authoring.load import discover

    games = [(files.id, files, ROOT) for files in discover(ROOT)]
    games.append(("synthetic", discover(synth_root)[0], synth_root))
    print(
        f"validate vs the bare parse of the same files, medians of {repeat(RUNS)} interleaved runs (min-max); "
        f"goal (issue 49) <= 2x, whole processes"
    )
    for name, files, project in games:
        fair(name, files, project, Path(tmp))
    print(f"validate's parts, in this process (warm, other games loaded), medians of {repeat(RUNS)} runs (min-max)")
    for name, files, _project in games:
        breakdown(name, files)
    print(
        f"validate and check at 1x/2x/4x/8x the units (synthetic game), medians of {repeat(5)} interleaved runs (min-max)"
    )
    scaling(synth_root, tmp)
    startup()
