"""`make bench` section: VASSAL module build of the synthetic large game, clean and with nothing changed.

Targets (issue 7): clean < 30 s, no change < 1 s. Printed, never asserted.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from authoring.load import discover, load_game
from authoring.vassal.compile import build_module


def run(synth_root: Path, tmp: Path) -> None:
    game = load_game(discover(synth_root)[0]).game
    out = Path(tmp) / "bench-module"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    path = build_module(game, out / game.id, cache_dir=out / ".cache")
    clean = time.perf_counter() - start
    start = time.perf_counter()
    build_module(game, out / game.id, cache_dir=out / ".cache")
    unchanged = time.perf_counter() - start
    path.with_name(path.name + ".manifest.json").unlink()
    start = time.perf_counter()
    build_module(game, out / game.id, cache_dir=out / ".cache")
    cached = time.perf_counter() - start
    print("VASSAL module (target: clean < 30 s, no change < 1 s)")
    print(f"  synthetic (3x60x45, 1080)    clean {clean:6.1f} s   no change {unchanged * 1000:7.1f} ms   "
          f"images cached {cached:5.1f} s   {path.stat().st_size / 1e6:6.1f} MB")
