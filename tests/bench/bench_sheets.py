"""Counter sheets for the synthetic large game at 300 dpi: one core vs both, and a no-change rebuild."""
from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

HEXWRIGHT = [sys.executable, "-m", "authoring.cli"]


def _run(args: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(HEXWRIGHT + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def run(synth_root: Path, tmp: Path) -> None:
    out = tmp / "sheets-out"
    base = ["build", "sheets", "synth", "--project", str(synth_root), "--out", str(out)]
    print("counter sheets, synthetic game (1,080 two-sided counters, 300 dpi, Letter; target < 10 s, >= 1.6x on 2 cores,"
          " < 1 GB, no-change rebuild < 1 s)")
    one = _run(base + ["--force", "--jobs", "1"])
    both = _run(base + ["--force", "--jobs", "2"])
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    again = _run(base)
    print(f"  one core {one:6.2f} s   two cores {both:6.2f} s   speed-up {one / both:4.2f}x   "
          f"peak memory {peak:6.0f} MiB   no-change rebuild {again:5.2f} s")
