"""`make bench` section: peak memory of a game with 5,000 single-unit reinforcements on one turn (issue 47,
point 6), built whole (`hexwright build all --jobs 2`).

Each reinforcement is one counter arriving alone; the module gives the turn a box on its reinforcement board
and the set-up cards list every arrival (a card of a few hundred pages). The box was once sized to show
the whole 5,000-counter stack (a 2-billion-pixel board, 9.6 GB in one process); the target is under 1 GB,
printed, never asserted. Peak memory is the process tree's summed PSS (`measure`).
Alone: `python tests/bench/bench_memory.py`.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from benchlib import runs_line
from measure import run as measured

MINI = Path(__file__).resolve().parents[1] / "load" / "mini"
ARRIVALS = 5_000
TARGET_MB = 1_024
CLI = [sys.executable, "-m", "authoring.cli"]


def reinforcements_game(project: Path, count: int = ARRIVALS) -> Path:
    """The loader tests' mini game with `count` more counters, each arriving alone on turn 2."""
    for part in ("scenarios", "maps", "counters"):
        shutil.copytree(MINI / part / "mini", project / part / "mini")
    more = project / "counters" / "mini" / "more.csv"
    more.write_text(more.read_text() + "".join(f"r{i},red,infantry,division,{i},1,5,4,2,4\n" for i in range(count)))
    intro = project / "scenarios" / "mini" / "intro.yaml"
    intro.write_text(
        intro.read_text() + "".join(f"  - {{turn: 2, side: red, units: [r{i}], at: west}}\n" for i in range(count))
    )
    return project


def run(synth_root: Path, tmp: Path) -> None:
    project = reinforcements_game(Path(tmp) / "bench-memory" / "project")
    out = Path(tmp) / "bench-memory" / "out"
    result = measured([*CLI, "build", "all", str(project), "--out", str(out), "--jobs", "2"])
    verdict = "within" if result.peak_mb < TARGET_MB else "OVER"
    print(
        f"{ARRIVALS:,} single-unit reinforcements on one turn, build all --jobs 2 (whole process tree): "
        f"{runs_line([result])}; exit {result.returncode}; {verdict} the {TARGET_MB} MB target"
    )


if __name__ == "__main__":
    from benchlib import run_alone

    run_alone(run)
