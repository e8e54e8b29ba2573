"""Shared fixtures: the synthetic rule-fixture project and the real Battle for Moscow data, loaded once."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_support import FIXTURES, ROOT

from authoring.load import load_project


def _games(path: Path) -> dict:
    _, results = load_project(path)
    return {r.game.id: r for r in results if r.game is not None}


@pytest.fixture(scope="session")
def fixture_games() -> dict:
    games = _games(FIXTURES)
    for r in games.values():
        assert r.ok, [str(d) for d in r.diagnostics]
    return games


@pytest.fixture(scope="session")
def bfm():
    result = _games(ROOT)["bfm"]
    assert result.ok, [str(d) for d in result.diagnostics]
    return result
