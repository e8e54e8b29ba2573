"""The exit-code contract: 0 success, 1 data errors, 2 usage errors; never a traceback for a user mistake,
a traceback with --debug for an internal error."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from hw_support import MINI, ROOT, run

from authoring.cli import main

BROKEN_COUNTER = "kind: counters\ncounters:\n  - {id: red-1, side: purple, faces: [{state: full}]}\n"


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, str]:
    """Folders and files the table refers to by name."""
    import shutil

    base = tmp_path_factory.mktemp("exit")
    shutil.copytree(MINI, base / "good")
    shutil.copytree(MINI, base / "bad")
    (base / "bad/counters/mini/units.yaml").write_text(BROKEN_COUNTER)
    (base / "empty").mkdir()
    (base / "afile").write_text("not a folder")
    (base / "card.yaml").write_text("kind: setup-card\ngame: mini\nscenario: intro\nside: red\nentries: [[[\n")
    return {
        "GOOD": str(base / "good"),
        "BAD": str(base / "bad"),
        "EMPTY": str(base / "empty"),
        "AFILE": str(base / "afile"),
        "CARD": str(base / "card.yaml"),
        "OUT": str(base / "out"),
    }


TABLE = [
    # (arguments, expected exit code, text the output must contain)
    (["validate", "GOOD"], 0, "All checks passed."),
    (["validate", "GOOD", "--format", "json"], 0, "[]"),
    (["validate", "BAD"], 1, "error[HW-REF-001]: unknown side 'purple'"),
    (["validate", "BAD", "--format", "concise"], 1, "units.yaml:3:"),
    (["validate", "EMPTY"], 2, "is not in a game"),
    (["validate", "/no/such/folder"], 2, "does not exist"),
    (["validate", "GOOD", "--format", "xml"], 2, "Invalid value for '--format'"),
    (["frobnicate"], 2, "No such command 'frobnicate'"),
    (["schema", "nonsense"], 2, "Invalid value for KIND"),
    (["schema", "map"], 0, '"$schema"'),
    (["list", "GOOD"], 0, "mini: Mini Game"),
    (["--version"], 0, "version"),
    (["check", "GOOD/scenarios/mini/intro.yaml"], 0, "All checks passed."),
    (["check", "BAD/scenarios/mini/intro.yaml"], 1, "error[HW-REF-001]"),
    (["check", "GOOD/scenarios/mini/intro.yaml", "--option", "nope"], 2, "'nope' is not an option of intro"),
    (["check", "GOOD/scenarios/mini/intro.yaml", "--side", "purple"], 2, "Invalid value for --side"),
    (["check", "GOOD/scenarios/mini/intro.yaml", "--card", "CARD"], 1, "error[HW-YAML-001]"),
    (["check", "GOOD/scenarios/mini/intro.yaml", "--card", "/no/such.csv"], 2, "does not exist"),
    (["check", "GOOD/maps/mini/board.yaml"], 0, "All checks passed"),  # a map file: its own findings
    (["check", "GOOD/maps/mini/board.yaml", "--image", "OUT/grid.png"], 2, "has no registered map art"),
    (["calibrate", "GOOD/maps/mini/board.yaml"], 2, "names no map art"),
    (["build", "sheets", "nogame", "--project", "GOOD", "--out", "OUT"], 2, "no game 'nogame'"),
    (["build", "sheets", "--project", "EMPTY", "--out", "OUT"], 2, "no game found at"),
    (["build", "sheets", "mini", "--project", "BAD", "--out", "OUT"], 1, "Nothing was built"),
    (["build", "sheets", "mini", "--project", "GOOD", "--dpi", "5"], 2, "Invalid value for '--dpi'"),
    (
        ["build", "sheets", "mini", "--project", "GOOD", "--counter-size", "big"],
        2,
        "Invalid value for '--counter-size'",
    ),
    (["build", "sheets", "mini", "--project", "GOOD", "--back-offset", "x,y"], 2, "Invalid value for '--back-offset'"),
    (["build", "sheets", "mini", "--project", "GOOD", "--out", "AFILE"], 2, "is a file"),
    (
        ["build", "sheets", "mini", "--project", "GOOD", "--out", "AFILE/sub", "--dpi", "72"],
        2,
        "error: Not a directory:",
    ),
    (["build", "sheets", "mini", "--project", "/no/such"], 2, "does not exist"),
]


@pytest.mark.parametrize("args, code, text", TABLE, ids=[" ".join(a) for a, _, _ in TABLE])
def test_exit_code(places: dict[str, str], args: list[str], code: int, text: str):
    real = [_fill(a, places) for a in args]
    r = CliRunner().invoke(main, real)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exc_info
    assert r.exit_code == code, r.output
    assert text in r.output, r.output
    assert "Traceback" not in r.output and "internal error" not in r.output


def _fill(arg: str, places: dict[str, str]) -> str:
    head, _, tail = arg.partition("/")
    return places[head] + ("/" + tail if tail else "") if head in places else arg


def _boom(*args, **kwargs):
    raise RuntimeError("boom")


def test_internal_error_is_one_line_exit_2(monkeypatch, places):
    monkeypatch.setattr("authoring.validate.validate_games", _boom)
    r = CliRunner().invoke(main, ["validate", places["GOOD"]])
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        "internal error: RuntimeError: boom",
        "  = help: this is a bug in hexwright; rerun with --debug for a traceback",
    ]


def test_debug_reraises_internal_error(monkeypatch, places):
    monkeypatch.setattr("authoring.validate.validate_games", _boom)
    r = CliRunner().invoke(main, ["--debug", "validate", places["GOOD"]])
    assert isinstance(r.exception, RuntimeError) and str(r.exception) == "boom"


SIMULATED_BUG = (
    "import sys, authoring.validate as v\n"
    "def boom(*a, **k): raise RuntimeError('boom')\n"
    "v.validate_games = boom\n"
    "from authoring.cli import main\n"
    "sys.argv[0] = 'hexwright'\n"
    "main()\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("debug", [False, True])
def test_debug_traceback_in_a_real_process(debug: bool, places):
    import subprocess

    args = [sys.executable, "-c", SIMULATED_BUG] + (["--debug"] if debug else []) + ["validate", places["GOOD"]]
    r = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if debug:
        assert r.returncode == 1 and "Traceback (most recent call last)" in r.stderr
        assert r.stderr.rstrip().endswith("RuntimeError: boom")
    else:
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert "internal error: RuntimeError: boom" in r.stderr


@pytest.mark.slow
def test_user_mistakes_in_a_real_process(places):
    for args, code in (
        (["validate", places["BAD"]], 1),
        (["validate", "/no/such"], 2),
        (["check", "no-such-scenario"], 2),
        (["build", "sheets", "zz"], 2),
    ):
        r = run(*args)
        assert r.returncode == code, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr + r.stdout
