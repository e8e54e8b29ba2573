"""Fixtures of the hardening tests: scratch copies of games, in-process CLI runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))  # hw_support, for the tests in regressions/
from hw_support import MINI, copy_game  # noqa: E402


def _cli(*args: str):
    """Run `hexwright ARGS` in-process; the result has exit_code, stdout and stderr (click >= 8.2 keeps them apart)."""
    from authoring.cli import main

    return CliRunner().invoke(main, list(args))


@pytest.fixture
def cli():
    return _cli


@pytest.fixture
def mini_project(tmp_path: Path) -> Path:
    return copy_game(MINI, tmp_path / "project")
