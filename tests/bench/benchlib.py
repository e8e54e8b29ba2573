"""What every `make bench` section shares: how many times to repeat, interleaved runs, and how a figure prints.

The machines are shared and noisy: a figure is the median of several runs with its min-max, and the
things a ratio compares run interleaved (A B C A B C ...), so a busy moment slows both sides of it.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from measure import Run, run

REPEAT_ENV = "HEXWRIGHT_BENCH_REPEAT"
HEXWRIGHT = [sys.executable, "-m", "authoring.cli"]
SCRATCH = Path(__file__).resolve().parents[2] / "build" / "bench-tmp"
"""Where the bench's temporary files go: the project's build folder (hundreds of MB of generated games, builds
and caches), never the system's temporary folder."""


@contextmanager
def scratch(under: Path = SCRATCH) -> Iterator[Path]:
    """A fresh folder under `under`, removed afterwards; meanwhile the temporary folder of this process and of
    the commands it starts (TMPDIR), so what they put there lands under the build folder too."""
    under.mkdir(parents=True, exist_ok=True)
    before = os.environ.get("TMPDIR"), tempfile.tempdir
    with tempfile.TemporaryDirectory(dir=under) as tmp:
        os.environ["TMPDIR"], tempfile.tempdir = tmp, tmp
        try:
            yield Path(tmp)
        finally:
            if before[0] is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = before[0]
            tempfile.tempdir = before[1]


def repeat(default: int = 3) -> int:
    """Runs per figure (`make bench REPEAT=5` or `run.py --repeat 5` sets it for every section)."""
    return max(1, int(os.environ.get(REPEAT_ENV, default)))


def interleaved(cases: Mapping[str, Callable[[], object]], runs: int, warmup: bool = False) -> dict[str, list]:
    """Each case's results over `runs` rounds, the cases taking turns within a round."""
    if warmup:
        for fn in cases.values():
            fn()
    out: dict[str, list] = {name: [] for name in cases}
    for _ in range(runs):
        for name, fn in cases.items():
            out[name].append(fn())
    return out


def timed(fn: Callable[[], object]) -> Callable[[], float]:
    """`fn` as a case that returns its own wall time (in-process figures).

    Each run starts with the garbage collector's work done (untimed): interleaved cases would
    otherwise bill one case's leftover cycles to the next case that lets the collector run."""

    def case() -> float:
        gc.collect()
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    return case


def spread(values: list[float], unit: str = "s", scale: float = 1.0, digits: int = 2) -> str:
    """'median (min-max) unit'."""
    v = [x * scale for x in values]
    med = statistics.median(v)
    if len(v) == 1:
        return f"{med:.{digits}f} {unit}"
    return f"{med:.{digits}f} {unit} ({min(v):.{digits}f}-{max(v):.{digits}f})"


def median(values: list[float]) -> float:
    return statistics.median(values)


def process(args: list[str], cwd: Path, before: Callable[[], None] | None = None) -> Callable[[], Run]:
    """A case running `hexwright ARGS` in `cwd` as a whole process (after `before`, untimed)."""

    def case() -> Run:
        if before:
            before()
        result = run(HEXWRIGHT + args, cwd=cwd)
        if result.returncode:
            raise RuntimeError(f"hexwright {' '.join(args)} exited {result.returncode}")
        return result

    return case


def runs_line(runs: list[Run]) -> str:
    """Wall, CPU and peak memory of a case's process runs."""
    return (
        f"{spread([r.wall for r in runs])}   CPU {spread([r.cpu for r in runs], digits=1)}   "
        f"peak {spread([r.peak_mb for r in runs], 'MB', digits=0)}"
    )


def run_alone(section: Callable[[Path, Path], None]) -> None:
    """One section by itself (`python tests/bench/bench_X.py`), on a freshly generated large game."""
    from synth import generate

    with scratch() as tmp:
        section(generate(tmp / "synth"), tmp)
