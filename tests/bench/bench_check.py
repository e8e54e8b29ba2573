"""`make bench` section: the rules engine on the synthetic game at 1x, 2x and 4x the units (linear growth)."""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from authoring.load import discover, load_game
from authoring.rules import check_game
from authoring.rules.board import build_cells


def _median(fn, runs: int = 3) -> float:
    fn()
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def run(synth_root: Path, tmp: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from synth import generate
    print("hexwright check beyond loading (target: < 1 s for 1,080 counters x 5 scenarios, linear in units)")
    base = None
    for scale in (1, 2, 4):
        root = synth_root if scale == 1 else generate(Path(tmp) / f"synth-x{scale}", scale=scale)
        game = load_game(discover(root)[0]).game
        units = sum(len(p.units) for s in game.scenarios.values() for p in s.setup) + \
            sum(len(r.units) for s in game.scenarios.values() for r in s.reinforcements)
        t = _median(lambda: (build_cells.cache_clear(), check_game(game)))  # cold: cell index rebuilt each run
        base = base or t / units
        print(f"  {scale}x: {len(game.counters):5d} counters, {units:6d} placed or scheduled units in "
              f"{len(game.scenarios)} scenarios   check {t * 1000:7.1f} ms   per unit {t / units * 1e6:6.1f} us "
              f"({t / units / base:4.2f}x the 1x rate)")
