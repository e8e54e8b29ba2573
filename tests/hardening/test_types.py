"""The layers at the bottom of the package and the build are clean under mypy (issue 34 asks the same of rules
and load next): `model`, `hexgrid`, the `build` package and the pool and tuning it runs on, checked as a whole,
with the imports they follow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ["authoring/model", "authoring/hexgrid", "authoring/build", "authoring/workers.py", "authoring/runtime.py"]


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
    return [line for line in r.stdout.splitlines() if ": error:" in line]


def test_model_hexgrid_and_build_are_clean_under_mypy():
    assert _errors(CLEAN, ROOT) == []


def test_the_check_sees_a_type_error(tmp_path):
    made = tmp_path / "made.py"
    made.write_text("from authoring.hexgrid import Hex\n\nh: Hex = Hex(1, 2)\nn: int = h\n")
    assert len(_errors([str(made)], ROOT)) == 1
