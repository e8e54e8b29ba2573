"""Counter sheets for the synthetic large game at 300 dpi: one core vs both, and a no-change rebuild."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from measure import measure  # noqa: E402

HEXWRIGHT = [sys.executable, "-m", "authoring.cli"]


def run(synth_root: Path, tmp: Path) -> None:
    out = tmp / "sheets-out"
    base = ["build", "sheets", "synth", "--project", str(synth_root), "--out", str(out)]
    print("counter sheets, synthetic game (1,080 two-sided counters, 300 dpi, Letter; target < 10 s, >= 1.6x on 2 cores,"
          " < 1 GB, no-change rebuild < 1 s)")
    one, _ = measure(HEXWRIGHT + base + ["--force", "--jobs", "1"])
    both, peak = measure(HEXWRIGHT + base + ["--force", "--jobs", "2"])
    again, _ = measure(HEXWRIGHT + base)
    print(f"  one core {one:6.2f} s   two cores {both:6.2f} s   speed-up {one / both:4.2f}x   "
          f"peak memory {peak:6.0f} MiB   no-change rebuild {again:5.2f} s")
