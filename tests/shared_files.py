"""What every developer and CI run has beside the project: `../shared` from the project root."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def shared_file(relative: str) -> Path:
    """A file under ../shared, or a skip that says where it was looked for."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"../shared/{relative} is not beside this project (looked for {path})")
    return path
