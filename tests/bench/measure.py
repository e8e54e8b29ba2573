"""Run a command as a whole process and measure it: wall time, CPU time (its own and its workers'),
and peak memory of its whole process tree.

Peak memory is sampled from /proc every quarter second as the sum of PSS (proportional set size) over the
command and every process it forked: a page shared by a parent and its forked workers counts once,
split between them, so the sum is what the build really holds (summing RSS would count the loaded
game once per worker). Where /proc has no smaps_rollup (not Linux), the peak is the largest single
process's RSS from getrusage, and the figure says so.
"""

from __future__ import annotations

import os
import resource
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SAMPLE_S = 0.25
"""Reading a process's PSS walks its page tables (7 ms for 400 MB): sampled more often, the sampler itself would
take a good part of a core from the command it measures."""
HAVE_PSS = Path(f"/proc/{os.getpid()}/smaps_rollup").exists()


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    """User + system seconds of the command and all its (waited-for) descendants."""
    peak_mb: float
    """Peak of the tree's summed PSS (or the largest process's RSS without /proc)."""
    returncode: int
    processes_mb: tuple[float, ...] = ()
    """Each process's own peak PSS, the command's first, then its descendants' in the order they were seen
    (a build's workers): memory per worker. Empty without /proc."""


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out += [int(c) for c in task.read_text().split()]
        except OSError:
            pass
    return out


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += _children(p)
    return found


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> Run:
    """Run `cmd` (output discarded) and measure it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0]
    each: dict[int, int] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            now = {p: _pss_kb(p) for p in _tree(proc.pid)}
            peak[0] = max(peak[0], sum(now.values()))
            for p, kb in now.items():
                each[p] = max(each.get(p, 0), kb)
            done.wait(SAMPLE_S)

    sampler = threading.Thread(target=sample, daemon=True)
    if HAVE_PSS:
        sampler.start()
    code = proc.wait()
    wall = time.perf_counter() - start
    done.set()
    if HAVE_PSS:
        sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak_mb = peak[0] / 1024 if HAVE_PSS else after.ru_maxrss / 1024
    return Run(wall, cpu, peak_mb, code, tuple(kb / 1024 for kb in each.values() if kb))


def measure(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak MiB) of `cmd` (the older sections' interface)."""
    r = run(cmd)
    if r.returncode:
        raise subprocess.CalledProcessError(r.returncode, cmd)
    return r.wall, r.peak_mb
