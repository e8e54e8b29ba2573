"""`make bench` section: `hexwright build` of the synthetic large game, as the CLI runs it (whole processes).

Prints, each as median (min-max) over interleaved runs, with CPU (the command and its workers) and peak
memory (PSS summed over the process tree, see measure.py):
- `build all` from nothing (no outputs, no image cache), and a rebuild with nothing changed;
- every stage on its own from nothing, with 1 worker and with 2, and the speed-up 2 workers give.
Goals (issue 18): build all clean < 30 s and < 1 GB on 2 cores; no-change rebuild < 0.3 s; >= 1.6x per
parallel stage. `--profile` adds each stage's profile (one worker, in-process: every call is seen).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from benchlib import interleaved, median, process, repeat, runs_line

STAGES = ("module", "sheets", "maps", "cards", "charts")
PARALLEL = ("module", "sheets", "maps", "cards")
"""Stages that split their work over worker processes (charts is one process)."""


def _wipe(path: Path):
    return lambda: shutil.rmtree(path, ignore_errors=True)


def run(synth_root: Path, tmp: Path) -> None:
    n = repeat()
    cores = os.cpu_count() or 1
    print(
        f"build, synthetic game, whole processes on {cores} cores, {n} interleaved runs "
        f"(goals: build all clean < 30 s and < 1 GB, no change < 0.3 s, >= 1.6x per parallel stage)"
    )
    out = Path(tmp) / "bench-build"
    clean = process(["build", "all", "--out", str(out / "all")], synth_root, _wipe(out / "all"))
    again = process(["build", "all", "--out", str(out / "all")], synth_root)
    cases = {"build all, clean": clean, "build all, no change": again}
    for stage in STAGES:
        for jobs in (1, 2) if stage in PARALLEL else (0,):
            folder = out / f"{stage}-{jobs}"
            cases[_label(stage, jobs)] = process(
                ["build", stage, "--jobs", str(jobs), "--out", str(folder)], synth_root, _wipe(folder)
            )
    results = interleaved(cases, n)
    for name, runs in results.items():
        print(f"  {name:<32} {runs_line(runs)}")
    for stage in PARALLEL:
        one, two = (median([r.wall for r in results[_label(stage, j)]]) for j in (1, 2))
        print(f"  {stage:<8} speed-up 1 -> 2 workers {one / two:4.2f}x")
    shutil.rmtree(out, ignore_errors=True)


def _label(stage: str, jobs: int) -> str:
    return f"{stage}, clean" + (f", {jobs} worker{'s' if jobs > 1 else ''}" if jobs else "")


def profile(synth_root: Path, tmp: Path, top: int = 10, stages: tuple[str, ...] = STAGES) -> None:
    """Each stage from nothing, in this process with one worker, under cProfile: the top calls by own time."""
    import cProfile
    import io
    import pstats

    from authoring import pipeline
    from authoring.load import discover, load_game

    result = load_game(discover(synth_root)[0])
    settings = pipeline.SheetSettings()
    for stage in stages:
        out = Path(tmp) / "bench-profile" / stage
        shutil.rmtree(out, ignore_errors=True)
        prof = cProfile.Profile()
        prof.enable()
        getattr(pipeline, f"build_{stage}")(result, out, pipeline.BuildContext.of(1, True, settings))
        prof.disable()
        text = io.StringIO()
        stats = pstats.Stats(prof, stream=text)
        print(f"profile: build {stage}, one worker, {stats.total_tt:.1f} s under the profiler; top {top} by own time")
        stats.sort_stats("tottime").print_stats(top)
        for line in text.getvalue().splitlines():
            if (
                line.strip()
                and ("{" in line or "/" in line or ":" in line)
                and "function calls" not in line
                and "Ordered by" not in line
                and "List reduced" not in line
            ):
                print("   ", _short(line))
    shutil.rmtree(Path(tmp) / "bench-profile", ignore_errors=True)


def _short(line: str) -> str:
    """A pstats row with the site-packages or project prefix cut from its file name."""
    for marker in ("site-packages/", "authoring/"):
        head, sep, tail = line.partition(marker)
        if sep:
            cut = head.rfind(" ")
            return head[: cut + 1] + (marker if marker == "authoring/" else "") + tail
    return line
