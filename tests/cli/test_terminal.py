"""Every long command run with a terminal attached: progress bars on, exit 0, the same files as a piped run.

(A module stage that reported progress with the wrong signature crashed only in a terminal, so the
first command of the README failed for every new user while piped runs and the suite passed.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from terminal import piped, run_in_terminal, tree_digest

STAGES = ("module", "sheets", "maps", "cards", "charts")


pytestmark = pytest.mark.slow  # commands in a real terminal (subprocess lifecycles)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """Battle for Moscow built piped, every stage: what a terminal run must reproduce byte for byte."""
    out = tmp_path_factory.mktemp("piped")
    r = piped("build", "all", "bfm", "--out", str(out))
    assert r.returncode == 0, r.stderr
    return tree_digest(out / "bfm")


_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLUMNS = 120  # the harness's terminal


def _bars(output: str, stage: str) -> list[str]:
    """Every state of the stage's bar as drawn (each redraw starts with a carriage return), escapes removed."""
    lines = _ESCAPE.sub("", output).replace("\n", "\r").split("\r")
    return [ln for ln in lines if ln.startswith(f"bfm: {stage}") and "[" in ln and "%" in ln]


def _bar_drawn(output: str, label: str) -> bool:
    """click draws `label  [####...]  100%` with carriage returns; a piped run prints the label alone."""
    return label in output and "100%" in output and "\r" in output


def test_build_all_in_a_terminal_draws_bars_and_writes_the_piped_bytes(tmp_path: Path, reference):
    run = run_in_terminal("build", "all", "bfm", "--out", str(tmp_path))
    assert run.returncode == 0, run.output
    assert "Traceback" not in run.output and "internal error" not in run.output
    for stage in STAGES:
        assert f"bfm: {stage}" in run.output, run.output
    assert _bar_drawn(run.output, "bfm: module") and _bar_drawn(run.output, "bfm: sheets"), run.output
    for stage in STAGES:
        bars = _bars(run.output, stage)
        assert bars and bars[-1].rstrip().endswith("100%"), (stage, bars)  # every bar ends full
        for bar in bars:
            assert "/" not in bar and str(tmp_path) not in bar, bar  # no path in a label
            assert len(bar.rstrip()) < COLUMNS, bar  # and it fits: no wrapped line
    summary = re.findall(r"^1 game: (\d+) files written, 0 up to date, 0 warnings \(\d+\.\d s\)\r?$", run.output, re.M)
    assert summary == [str(run.output.count("  wrote "))] and run.output.rstrip().endswith("s)")
    assert tree_digest(tmp_path / "bfm") == reference


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_in_a_terminal(stage: str, tmp_path: Path, reference):
    run = run_in_terminal("build", stage, "bfm", "--out", str(tmp_path), "--force")
    assert run.returncode == 0, run.output
    assert "Traceback" not in run.output and "internal error" not in run.output
    built = tree_digest(tmp_path / "bfm")
    assert built and all(reference.get(name) == digest for name, digest in built.items()), sorted(
        n for n, d in built.items() if reference.get(n) != d
    )


@pytest.mark.parametrize("command", [("watch", "bfm"), ("build", "--watch")])
def test_watch_once_in_a_terminal(command: tuple[str, ...], tmp_path: Path, reference):
    run = run_in_terminal(*command, "--once", "--stage", "module", "--out", str(tmp_path))
    assert run.returncode == 0, run.output
    assert "Traceback" not in run.output and "internal error" not in run.output
    assert tree_digest(tmp_path / "bfm")["bfm.vmod"] == reference["bfm.vmod"]


def test_validate_the_large_game_in_a_terminal():
    run = run_in_terminal("validate", "typhoon")
    assert run.returncode == 0, run.output
    assert "All checks passed." in run.output


def test_a_bare_hexwright_in_a_terminal_prints_help():
    run = run_in_terminal()
    assert run.returncode == 0, run.output
    assert "Usage:" in run.output and "validate" in run.output
