"""Generated games through `validate` and every build stage (module, sheets, maps, cards, charts): a game
that validates builds, one that does not is refused with located findings, and nothing raises, hangs or
runs past its time (issue 33, point 3).

The default run draws a few games (each builds all five stages); `HW_FUZZ_GAMES=N` draws N, the nightly
profile 200, and `HW_FUZZ_LARGE=1` adds shapes that validate at sizes that build for a long time.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import generate
import harness
import pytest
from hypothesis import HealthCheck, given, settings

pytestmark = [pytest.mark.slow, pytest.mark.fuzz]  # slow: hypothesis fuzzing, builds of generated games

DEFAULT_GAMES = 8
NIGHTLY_GAMES = 200
GAME_SECONDS = 60
"""A generated game's validate and five stages (the mini game's all take a few seconds)."""


def _count(config: pytest.Config) -> int:
    if os.environ.get("HW_FUZZ_GAMES"):
        return int(os.environ["HW_FUZZ_GAMES"])
    chosen = config.getoption("hypothesis_profile", None) or os.environ.get("HYPOTHESIS_PROFILE")
    return NIGHTLY_GAMES if chosen == "nightly" else DEFAULT_GAMES


def test_generated_games_validate_or_build_every_stage(pytestconfig):
    outcomes: list[bool] = []

    @settings(
        max_examples=_count(pytestconfig),
        deadline=None,
        print_blob=True,
        derandomize=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(spec=generate.games())
    def one(spec):
        scratch = Path(tempfile.mkdtemp(prefix="hw-fuzz-gen-"))
        try:
            project = generate.write_game(spec, scratch / "project")
            with harness.time_limit(GAME_SECONDS):
                outcomes.append(harness.exercise_stages(project, "mini", scratch / "out"))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    one()
    print(f"fuzz generated: {sum(outcomes)} of {len(outcomes)} games validated and built every stage")
