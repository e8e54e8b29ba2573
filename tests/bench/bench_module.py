"""`make bench` section: the synthetic large game's VASSAL module, clean, from cached images and unchanged.

Each figure is a whole `hexwright build module` process (interpreter start, imports, load and
check, build, write), as a designer runs it, in rounds that interleave the three cases:
- clean: no module and no image cache (draws every image);
- from cached images: `--force` with the image cache warm (the game loaded and checked; buildFile, set-ups,
  zip; no drawing);
- no change: a second plain build (the up-to-date check only).
Printed as median (min-max) of the rounds; issue 18's targets (cached 5x faster than pywargame,
no change < 0.3 s) are printed, never asserted. `bench_pywargame` sets pywargame beside "cached".
Alone: `python tests/bench/bench_module.py`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchlib import repeat, spread

ROUNDS = repeat(3)
CLI = [sys.executable, "-m", "authoring.cli"]
IN_PROCESS = """
import sys, time
from pathlib import Path
from authoring.build import BuildContext, build_module
from authoring.build.checked import load_checked
from authoring.load import discover
start = time.perf_counter()
out = Path(sys.argv[2])
result, _ = load_checked(discover(Path(sys.argv[1]))[0])
build_module(result, out / result.game.id, BuildContext.of(force=True))
print(time.perf_counter() - start)
"""
"""`build module --force`'s work timed inside its process, after the imports, as the CLI does it: the game
loaded and checked (`authoring.build.checked`), the module built."""


def run(synth_root: Path, tmp: Path) -> None:
    work = Path(tmp) / "bench-module"
    project = copy_project(synth_root, work / "project")
    out = work / "out"
    times: dict[str, list[float]] = {"clean": [], "cached": [], "unchanged": []}
    for _ in range(ROUNDS):
        shutil.rmtree(out, ignore_errors=True)
        times["clean"].append(build_module(project, out))
        times["cached"].append(build_module(project, out, force=True))
        times["unchanged"].append(build_module(project, out))
    vmod = next(out.glob("*/*.vmod"))
    print(
        f"VASSAL module, synthetic (3x60x45, 1080 counters), whole process, median (min-max) of {ROUNDS} "
        f"interleaved rounds"
    )
    print(f"  clean (draws every image)   {spread(times['clean'])}")
    print(f"  from cached images          {spread(times['cached'])}")
    print(f"  no change                   {spread(times['unchanged'], 'ms', 1000, 0)}   (target < 300 ms)")
    print(f"  module                      {vmod.stat().st_size / 1e6:.1f} MB")


def copy_project(synth_root: Path, dest: Path) -> Path:
    """The game's sources without their build folder: every run below starts from the same project."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(synth_root, dest, ignore=shutil.ignore_patterns("build"))
    return dest


def build_module(project: Path, out: Path, force: bool = False) -> float:
    """Wall seconds of one `hexwright build module` process (its output must say it succeeded)."""
    command = [*CLI, "build", "module", "--project", str(project), "--out", str(out), *(["--force"] if force else [])]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"hexwright build module failed: {(done.stderr or done.stdout).strip()[-300:]}")
    return seconds


def build_module_in_process(project: Path, out: Path) -> float:
    """Seconds `build module --force` takes in its process after the imports (as pywargame_build.py times itself)."""
    done = subprocess.run(
        [sys.executable, "-c", IN_PROCESS, str(project), str(out)], capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        raise RuntimeError(f"hexwright in-process build failed: {done.stderr.strip()[-300:]}")
    return float(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    from benchlib import run_alone

    run_alone(run)
