"""Time a command as a whole process and read its peak memory (largest process of its tree)."""
from __future__ import annotations

import subprocess
import sys
import time

_WRAPPER = ("import resource, subprocess, sys\n"
            "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
            "sys.exit(rc)\n")


def measure(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak MiB) of `cmd`, run in a fresh wrapper so earlier runs do not count."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], check=True, capture_output=True, text=True)
    return time.perf_counter() - start, int(out.stdout.strip().splitlines()[-1]) / 1024
