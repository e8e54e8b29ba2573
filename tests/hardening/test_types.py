"""The lower layers and the build are clean under mypy: the base modules, `model`, `rules`, `load`, the
`products` and `build` packages, checked as a whole, with the imports they follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from typecheck import mypy_errors

ROOT = Path(__file__).resolve().parents[2]
BASE = ["diagnostics", "hexgrid", "schema", "textcodec", "names", "lengths", "errors", "atomic", "safepath", "bundled"]
BASE += ["progress", "runtime", "budget", "svgart", "trust", "readfile", "workers"]
"""The base layer (tests/hardening/test_layers.py)."""
CLEAN = [f"authoring/{n}" if (ROOT / "authoring" / n).is_dir() else f"authoring/{n}.py" for n in BASE]
CLEAN += ["authoring/model", "authoring/rules", "authoring/load", "authoring/products", "authoring/pipeline"]


pytestmark = pytest.mark.slow  # mypy


def test_the_lower_layers_and_the_build_are_clean_under_mypy():
    assert mypy_errors(CLEAN) == []


def test_the_check_sees_a_type_error(tmp_path):
    made = tmp_path / "made.py"
    made.write_text("from authoring.hexgrid import Hex\n\nh: Hex = Hex(1, 2)\nn: int = h\n")
    assert len(mypy_errors([str(made)])) == 1
