"""`make bench`: speed and memory figures for the generated large game (printed, never asserted).

The large game (synth.py: 3 maps of 60x45 hexes, 1,080 two-sided counters, 5 scenarios spread over
all maps) is generated into a temporary folder under build/bench-tmp (benchlib.scratch); each section prints its figures as medians with
min-max over interleaved runs (benchlib). Sections, in order:
  load      validate against a bare parse (fresh and whole processes), its parts, its scaling (bench_load)
  build     `hexwright build` clean, per stage at 1 and 2 workers, no-change rebuild    (bench_build)
  clean     Typhoon's `build all` from nothing, --jobs 1 beside --jobs 2, memory per process (bench_clean)
  module    the VASSAL module clean and from cached images; pywargame beside it, by parts (bench_module, bench_pywargame)
  art       designer art: import, registration, drawing                                 (bench_art)
  serve     `hexwright serve`: save to updated page in headless Chromium, bfm and typhoon (bench_serve)
  loop      the designer's loop on typhoon: each kind of edit, then `build all`              (bench_loop)
  memory    peak memory of 5,000 single-unit reinforcements on one turn, `build all` (bench_memory)

    python tests/bench/run.py [--repeat N] [--only SECTION ...] [--profile]

The machine's load is printed at the start and the end; the run closes with issue 49's goals, each beside the
figure measured (`goals`): a goal whose section did not run says so.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from benchlib import REPEAT_ENV, scratch  # noqa: E402
from goals import BOARD, load_line  # noqa: E402
from synth import generate  # noqa: E402

SECTIONS = {
    "load": ("bench_load",),
    "build": ("bench_build",),
    "clean": ("bench_clean",),
    "module": ("bench_module", "bench_pywargame"),
    "art": ("bench_art",),
    "serve": ("bench_serve",),
    "loop": ("bench_loop",),
    "memory": ("bench_memory",),
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="hexwright benchmarks on the generated large game")
    ap.add_argument("--repeat", type=int, default=None, help="runs per figure (default: each section's own, 3-7)")
    ap.add_argument("--only", action="append", choices=sorted(SECTIONS), help="run only these sections")
    ap.add_argument("--profile", action="store_true", help="also print each build stage's profile")
    args = ap.parse_args(argv)
    if args.repeat:
        os.environ[REPEAT_ENV] = str(args.repeat)
    print(f"hexwright bench: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(load_line("at the start"), flush=True)
    with scratch() as tmp:
        synth_root = generate(tmp / "synth")
        for name in args.only or SECTIONS:
            start = time.perf_counter()
            for module in SECTIONS[name]:
                importlib.import_module(module).run(synth_root, tmp)
            print(f"[{name}: {time.perf_counter() - start:.0f} s]\n", flush=True)
        if args.profile:
            importlib.import_module("bench_build").profile(synth_root, tmp)
    print(load_line("at the end"))
    if max(os.getloadavg()[:2]) > (os.cpu_count() or 1):
        print("the machine was busy (load above its cores): wall times are not a quiet machine's; CPU is steadier")
    print(
        "issue 49's goals (met: the median meets the target, or every run for 'every round'; figures from this run, "
        "on this machine, at this load)"
    )
    print("\n".join(BOARD.table()))


if __name__ == "__main__":
    main()
