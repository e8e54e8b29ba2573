"""Plain helpers of the hardening tests (a module with a unique name, so test files can import it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "load" / "mini"


def run(*args: str, cwd: Path = ROOT, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run `hexwright ARGS` in a fresh interpreter (real exit codes, real stderr)."""
    return subprocess.run(
        [sys.executable, "-m", "authoring.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def copy_game(src: Path, dst: Path, game: str | None = None) -> Path:
    """A writable project holding `src` (a project folder) or only its game `game`."""
    if game is None:
        shutil.copytree(src, dst)
        return dst
    for part in ("scenarios", "maps", "counters"):
        if (src / part / game).is_dir():
            shutil.copytree(src / part / game, dst / part / game)
    return dst


def refused(project: Path, expected: str):
    """`validate PROJECT` (in-process) exits 1 with a finding matching the regex `expected`, and no
    traceback; returns the run's result for further checks."""
    import re

    from click.testing import CliRunner

    from authoring.cli import main

    r = CliRunner().invoke(main, ["validate", str(project), "--format", "concise"])
    assert r.exit_code == 1, r.output[-2000:]
    assert re.search(expected, r.output), r.output[-2000:]
    assert "Traceback" not in r.output
    return r
