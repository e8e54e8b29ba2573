"""Mutated game files through the loader, the rules engine and the CLI: a clean report or success, never a
traceback, never a hang (each case is cut off after harness.CASE_SECONDS).

One case = one bundled game (the small ones more often), one of its files, 1-3 mutations (text level:
lines, bytes, indentation, truncation; data level: types, missing and unknown keys, dangling and
swapped references, huge and negative numbers, unicode, empty values, re-dumped as YAML).
"""

from __future__ import annotations

import contextlib

import harness
import mutate
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

pytestmark = [pytest.mark.slow, pytest.mark.fuzz]  # slow: hypothesis fuzzing of the bundled games

GAMES = harness.bundled_games()
# Mostly the small games, so the 500-case slice stays fast: mini 2/3, bfm 2/9, the rest share 1/9.
_BIG = [g for g in GAMES if g not in ("mini", "bfm")]
WEIGHTED = ["mini"] * 6 * max(1, len(_BIG)) + ["bfm"] * 2 * max(1, len(_BIG)) + _BIG


@st.composite
def cases(draw, games: list[str] = WEIGHTED):
    game = harness.fuzz_game(draw(st.sampled_from(games)))
    rel = draw(st.sampled_from(game.files))
    ops = draw(mutate.mutations(csv=rel.endswith(".csv")))
    content = mutate.apply((game.project / rel).read_bytes(), ops, rel)
    return game, rel, ops, content


def test_fuzz_load_and_check(fuzz_settings):
    @fuzz_settings(0.8)
    @given(case=cases())
    def one(case):
        game, rel, ops, content = case
        with harness.mutated(game, rel, content), harness.time_limit():
            harness.exercise(game.project, game.id)

    one()


def test_fuzz_cli(fuzz_settings):
    from authoring.cli import main

    @fuzz_settings(0.1)
    @given(case=cases(["mini", "mini", "bfm"]))
    def one(case):
        game, rel, ops, content = case
        with harness.mutated(game, rel, content), harness.time_limit(2 * harness.CASE_SECONDS):
            for args in (
                ["validate", str(game.project), "--format", "sarif"],
                ["list", str(game.project)],
                ["check", f"{game.id}/{_scenario(game)}"],
            ):
                with contextlib.chdir(game.project):  # `check` finds its project from the working folder
                    r = CliRunner().invoke(main, args, catch_exceptions=False)
                assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.output)
                assert "Traceback" not in r.output and "internal error" not in r.output, (args, r.output)

    one()


def test_fuzz_build(fuzz_settings):
    """Mutated games that still validate must build (module and sheets) within the case's time; the mutations
    reach names, sizes, text and numbers that only the build stages use."""
    built = []

    @fuzz_settings(0.1)
    @given(case=cases(["mini", "mini", "mini", "bfm"]))
    def one(case):
        game, rel, ops, content = case
        with harness.mutated(game, rel, content), harness.time_limit(2 * harness.CASE_SECONDS):
            built.append(harness.exercise_build(game.project, game.id))

    one()
    print(f"fuzz build: {sum(built)} of {len(built)} mutated games validated and built")
    assert len(built) < 20 or sum(built) > 0, "no mutated game validated: the build stages were never reached"


def _scenario(game: harness.FuzzGame) -> str:
    return next(
        r.rsplit("/", 1)[1].removesuffix(".yaml")
        for r in game.files
        if r.startswith("scenarios/") and not r.endswith(("game.yaml", "tables.yaml"))
    )
