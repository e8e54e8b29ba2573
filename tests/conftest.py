"""Shared fixtures: the repository root, the bundled games, a scratch copy of the mini game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "load" / "mini"

# The tiers: a test that runs the VASSAL engine, the browser, mypy, a whole build of a bundled game or a
# process's whole lifecycle carries `pytest.mark.slow` (its module's `pytestmark`, or a decorator), next to it;
# `make test-fast` leaves those out (`-m "not slow"`) and `make test` runs everything.

settings.register_profile("hexwright", deadline=None)
settings.load_profile("hexwright")
"""No example has a deadline on the clock (hypothesis's default is 200 ms): the suite passes at any load.
`--hypothesis-profile=nightly` (tests/fuzz/conftest.py) still picks its own profile."""


@pytest.fixture(scope="session", autouse=True)
def _machine_key(tmp_path_factory):
    """This test run's secret key (`authoring.trust`), in a scratch folder rather than the user's cache
    (set in the environment, so the commands tests start take it too)."""
    import os

    from authoring.trust import KEY_ENV

    folder = tmp_path_factory.mktemp("key")
    previous = os.environ.get(KEY_ENV)
    os.environ[KEY_ENV] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop(KEY_ENV, None)
    else:
        os.environ[KEY_ENV] = previous


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """A writable copy of the minimal game."""
    dst = tmp_path / "mini"
    shutil.copytree(MINI, dst)
    return dst


@pytest.fixture(scope="session")
def bfm():
    from authoring.load import discover, load_game

    files = next(f for f in discover(ROOT) if f.id == "bfm")
    result = load_game(files)
    assert result.ok, result.diagnostics
    return result.game


@pytest.fixture(scope="session")
def synth_game(tmp_path_factory):
    """The generated large game of the benchmarks (tests/bench/synth.py), loaded."""
    import importlib.util

    from authoring.load import discover, load_game

    spec = importlib.util.spec_from_file_location("bench_synth", ROOT / "tests" / "bench" / "synth.py")
    bench_synth = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_synth)
    root = bench_synth.generate(tmp_path_factory.mktemp("synth"))
    result = load_game(discover(root)[0])
    assert result.ok, result.diagnostics
    return result.game
