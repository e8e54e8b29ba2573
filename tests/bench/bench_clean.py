"""`make bench` section: Typhoon's `build all` from nothing (no outputs, no image cache), with one worker and two.

Rounds interleave `--jobs 1` and `--jobs 2` (whole processes on a scratch copy of Typhoon), so a busy moment
slows both; the ratio jobs 2 / jobs 1 is taken round by round. Memory is the process tree's summed PSS at its
peak (`measure`), and each process's own peak: the command's, then each worker's. Records the issue-49 goals:
clean under 10 s, two jobs never slower than one, the whole tree under 400 MB.
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path

from benchlib import HEXWRIGHT, interleaved, repeat, runs_line, scratch, spread
from goals import BOARD
from measure import Run
from measure import run as measured

ROOT = Path(__file__).resolve().parents[2]
GAME = "typhoon"


def _project(tmp: Path) -> Path:
    project = tmp / "clean"
    shutil.rmtree(project, ignore_errors=True)
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(ROOT / part / GAME, project / part / GAME)
    return project


def _clean(project: Path, jobs: int):
    def case() -> Run:
        shutil.rmtree(project / "build", ignore_errors=True)
        result = measured([*HEXWRIGHT, "build", "all", GAME, "--jobs", str(jobs)], cwd=project)
        if result.returncode:
            raise RuntimeError(f"hexwright build all {GAME} --jobs {jobs} exited {result.returncode}")
        return result

    return case


def workers_line(runs: list[Run]) -> str:
    """Each process's own peak memory, medians over the runs: the command's, then how many processes it started
    (its workers, each stage's own) and the largest one's peak."""
    main = [r.processes_mb[0] for r in runs if r.processes_mb]
    others = [sorted(r.processes_mb[1:], reverse=True) for r in runs]
    line = f"main {spread(main, 'MB', digits=0)}" if main else "no /proc: per process not measured"
    if any(others):
        count = statistics.median(len(o) for o in others)
        line += f"; {count:.0f} workers in all, the largest {spread([o[0] for o in others if o], 'MB', digits=0)}"
    return line


def run(synth_root: Path, tmp: Path) -> None:
    n = repeat(3)
    project = _project(Path(tmp))
    print(
        f"{GAME}: build all from nothing, whole processes, {n} rounds taking turns (goals: < 10 s; 2 jobs <= 1 job; < 400 MB)"
    )
    results = interleaved({1: _clean(project, 1), 2: _clean(project, 2)}, n)
    for jobs, runs in results.items():
        print(f"  --jobs {jobs}  {runs_line(runs)}")
        print(f"            per process: {workers_line(runs)}")
    ratios = [two.wall / one.wall for one, two in zip(results[1], results[2])]
    print(f"  --jobs 2 / --jobs 1, round by round: wall {spread(ratios, 'x')}")
    print(f"  CPU: --jobs 2 / --jobs 1 {spread([b.cpu / a.cpu for a, b in zip(results[1], results[2])], 'x')}")
    fastest = min(results, key=lambda j: sorted(r.wall for r in results[j])[len(results[j]) // 2])
    BOARD.record("clean", [r.wall for r in results[fastest]], [r.cpu for r in results[fastest]], f"--jobs {fastest}")
    BOARD.record("jobs", ratios, [b.cpu / a.cpu for a, b in zip(results[1], results[2])])
    BOARD.record(
        "memory",
        [r.peak_mb for r in results[2]],
        note=workers_line(results[2]),
    )
    shutil.rmtree(project, ignore_errors=True)


if __name__ == "__main__":
    with scratch() as tmp:
        run(tmp, tmp)
