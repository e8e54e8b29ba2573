"""Issue 33, points 2 and 4: every file hexwright reads is a regular file read with a size limit (a named
pipe does not hang a command, a link to /dev/zero is not read to its end: `st_size` is 0 for both); writers
stay in the project (`docs format --write`); `new scenario` writes only what `validate` accepts; option
values are finite and in range (a usage error, exit 2, never an internal error)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hw_support import run

from authoring.readfile import FileRefused, read_limited

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes and /dev/zero are POSIX")


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _zero(path: Path) -> Path:
    path.symlink_to("/dev/zero")
    return path


def _refused(project: Path, *args: str, exit_code: int, says: str) -> str:
    """`hexwright ARGS` in a fresh process (a timeout is only the safety net for a hang: the run takes a second)."""
    try:
        r = run(*args, cwd=project, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hexwright {' '.join(args)} hung")
    out = r.stdout + r.stderr
    assert r.returncode == exit_code, out[-2000:]
    assert says in out and "Traceback" not in out and "internal error" not in out, out[-2000:]
    return out


@pytest.mark.parametrize(
    "make, says", [(_fifo, "is a named pipe (FIFO), not a regular file"), (_zero, "is a device, not a regular file")]
)
def test_check_card_that_is_no_regular_file(mini_project: Path, make, says: str):
    card = make(mini_project / "card.csv")
    out = _refused(mini_project, "check", "mini/intro", "--card", card.name, exit_code=1, says=says)
    assert "card.csv" in out and "HW-IO-001" in out


@pytest.mark.parametrize("make, says", [(_fifo, "named pipe"), (_zero, "a device")])
def test_import_setup_of_a_card_that_is_no_regular_file(mini_project: Path, make, says: str):
    scenario = (mini_project / "scenarios/mini/intro.yaml").read_bytes()
    card = make(mini_project / "card.csv")
    _refused(mini_project, "import-setup", card.name, "--scenario", "mini/intro", exit_code=1, says=says)
    assert (mini_project / "scenarios/mini/intro.yaml").read_bytes() == scenario


def test_map_art_that_is_a_named_pipe_is_a_finding(mini_project: Path):
    board = mini_project / "maps/mini/board.yaml"
    _fifo(mini_project / "maps/mini/art.png")
    board.write_text(board.read_text() + "art: {image: art.png, hex_size: 60, origin: {hex: '0101', x: 40, y: 40}}\n")
    _refused(mini_project, "validate", exit_code=1, says="image file 'art.png' cannot be read: is a named pipe")


def test_module_that_is_a_named_pipe_is_a_usage_error(tmp_path: Path):
    module = _fifo(tmp_path / "game.vmod")
    _refused(tmp_path, "import-vmod", module.name, "--out", "p", exit_code=2, says="named pipe")


def test_read_limited_stops_at_its_limit(tmp_path: Path):
    with pytest.raises(FileRefused, match="device"):
        read_limited(_zero(tmp_path / "zero"), 1 << 20)
    big = tmp_path / "big.csv"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(FileRefused, match="over the 0 MiB limit") as caught:
        read_limited(big, 4096)
    assert caught.value.too_big
    assert read_limited(big, 5000) == b"x" * 5000


# --- writers stay in the project, and write what validates ----------------------------------------------------


def test_docs_format_write_does_not_follow_docs_linked_out(mini_project: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (mini_project / "docs").symlink_to(outside, target_is_directory=True)
    _refused(mini_project, "docs", "format", "--write", exit_code=2, says="outside the project folder")
    assert list(outside.iterdir()) == []


def test_docs_format_write_does_not_follow_format_md_linked_out(mini_project: Path, tmp_path: Path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (mini_project / "docs").mkdir()
    (mini_project / "docs" / "format.md").symlink_to(victim)
    _refused(mini_project, "docs", "format", "--write", exit_code=2, says="outside the project folder")
    assert victim.read_text() == "keep me"


@pytest.mark.parametrize(
    "name, says", [("Red\u202eDawn", "\\u202e"), ("Tab\there", "a tab"), ("Ends in\\", "backslash")]
)
def test_new_scenario_refuses_a_name_validate_would_refuse(mini_project: Path, name: str, says: str):
    before = sorted(p.name for p in (mini_project / "scenarios/mini").iterdir())
    out = _refused(mini_project, "new", "scenario", "mini", name, exit_code=2, says="cannot be a scenario name")
    assert says in out and "\u202e" not in out
    assert sorted(p.name for p in (mini_project / "scenarios/mini").iterdir()) == before


@pytest.mark.slow
def test_new_scenario_with_an_accented_name_validates(mini_project: Path):
    r = run("new", "scenario", "mini", "Défense de Moscou", cwd=mini_project)
    assert r.returncode == 0, r.stderr
    r = run("validate", cwd=mini_project)
    assert r.returncode == 0, r.stdout + r.stderr


# --- option values ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, says",
    [
        (("build", "sheets", "mini", "--bleed", "nan"), "'nan' is not a finite number"),
        (("build", "sheets", "mini", "--bleed", "-inf"), "--bleed"),
        (("build", "sheets", "mini", "--back-offset", "nan,0"), "out of range"),
        (("build", "sheets", "mini", "--back-offset", "1e308,1e308"), "out of range"),
        (("build", "sheets", "mini", "--back-offset", "0,inf"), "out of range"),
        (("build", "calibration", "--back-offset", "-nan,40"), "out of range"),
        (("watch", "mini", "--once", "--interval", "nan"), "'nan' is not a finite number"),
    ],
)
def test_option_values_finite_and_in_range(mini_project: Path, cli, args, says: str):
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert says in r.output and "internal error" not in r.output
    assert not (mini_project / "build").exists()


def test_calibrate_point_must_be_finite(mini_project: Path, cli):
    from authoring.calibrate import parse_point
    from authoring.load import load_project

    _root, (result,) = load_project(mini_project)
    board = next(iter(result.game.maps.values()))
    for text in ("0101=nan,5", "0101=1e308,5", "0101=5,-inf"):
        with pytest.raises(ValueError, match="out of range"):
            parse_point(board, text)
    assert parse_point(board, "0101=118,150")[1] == (118.0, 150.0)


def test_rules_summary_that_is_a_named_pipe_is_a_finding(mini_project: Path):
    _fifo(mini_project / "scenarios/mini/summary.html")
    game = mini_project / "scenarios/mini/game.yaml"
    game.write_text(game.read_text() + "rules_summary: summary.html\n")
    _refused(
        mini_project,
        "validate",
        exit_code=1,
        says="rules summary 'summary.html' is a named pipe (FIFO), not a regular file",
    )
