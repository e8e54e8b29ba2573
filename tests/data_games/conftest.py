"""Fixtures for the data-game tests: each game loaded once per session through `authoring.load`."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.load import discover, load_game
from authoring.load.project import LoadResult

ROOT = Path(__file__).resolve().parents[2]


def _load(game_id: str) -> LoadResult:
    files = {f.id: f for f in discover(ROOT)}
    return load_game(files[game_id])


@pytest.fixture(scope="session")
def r1941() -> LoadResult:
    return _load("1941")


@pytest.fixture(scope="session")
def rtyphoon() -> LoadResult:
    return _load("typhoon")


@pytest.fixture(scope="session")
def rbfm() -> LoadResult:
    return _load("bfm")
