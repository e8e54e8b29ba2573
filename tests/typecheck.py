"""mypy run the one way the suite's type tests run it: the errors it reports on the given paths."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def mypy_errors(paths: list[str]) -> list[str]:
    """The `path:line: error:` lines mypy prints for `paths` (relative to the project root), following
    imports silently; a failure of mypy itself (a bad option, a crash) fails the test."""
    pytest.importorskip("mypy", reason="mypy is a test dependency (pip install -e '.[test]')")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--follow-imports=silent",
            "--ignore-missing-imports",
            "--no-error-summary",
            "--no-incremental",
            "--cache-dir=/dev/null",
            *paths,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode in (0, 1), r.stderr or r.stdout
    return [line for line in r.stdout.splitlines() if ": error:" in line]
