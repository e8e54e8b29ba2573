"""The lower layers and the build are clean under mypy: the base modules, `model`, `rules`, `load` and the
`build` package, checked as a whole, with the imports they follow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE = ["diagnostics", "hexgrid", "schema", "textcodec", "names", "lengths", "errors", "atomic", "safepath", "bundled"]
BASE += ["progress", "runtime", "budget", "svgart", "fingerprint", "trust", "readfile", "workers"]
"""The base layer (tests/hardening/test_layers.py)."""
CLEAN = [f"authoring/{n}" if (ROOT / "authoring" / n).is_dir() else f"authoring/{n}.py" for n in BASE]
CLEAN += ["authoring/model", "authoring/rules", "authoring/load", "authoring/build"]


def _errors(paths: list[str], cwd: Path) -> list[str]:
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
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode in (0, 1), r.stderr or r.stdout  # 2: mypy itself failed (a bad option, a crash)
    return [line for line in r.stdout.splitlines() if ": error:" in line]


def test_the_lower_layers_and_the_build_are_clean_under_mypy():
    assert _errors(CLEAN, ROOT) == []


def test_the_check_sees_a_type_error(tmp_path):
    made = tmp_path / "made.py"
    made.write_text("from authoring.hexgrid import Hex\n\nh: Hex = Hex(1, 2)\nn: int = h\n")
    assert len(_errors([str(made)], ROOT)) == 1
