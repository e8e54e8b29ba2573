"""Fixtures for the art tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from art_support import copy_demo


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A writable copy of the demo game (bfm-art), to break on purpose."""
    return copy_demo(tmp_path / "project")
