"""Arguments written as paths are named as paths: the message quotes the path as typed (relative, `./`,
absolute) and says it does not exist or is not in a game, with a hint; never "no game 'scenarios'"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 2, result.output
    return result.stderr


MISSING = ["scenarios/bfm/nope.yaml", "./nope.yaml", "nope.csv", "../no-such-folder/nope.yaml"]


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["export-setup", "--side", "soviet"],
        ["validate"],
        ["list"],
        ["import-setup", "README.md", "--scenario"],
    ],
)
@pytest.mark.parametrize("arg", MISSING)
def test_a_missing_path_is_named_as_typed(at_root, command, arg):
    err = run(*command, arg)
    assert f"path {arg!r} does not exist" in err
    assert "  = help: " in err
    assert "no game" not in err and "unknown game" not in err


@pytest.mark.parametrize("command", [["check"], ["export-setup", "--side", "soviet"], ["validate"]])
def test_an_absolute_path_keeps_its_leading_slash(at_root, tmp_path, command):
    arg = str(tmp_path / "nope.yaml")
    err = run(*command, arg)
    assert f"path {arg!r} does not exist" in err


@pytest.mark.parametrize("command", [["check"], ["validate"]])
def test_an_existing_file_outside_a_game_is_said_so(at_root, command):
    err = run(*command, "./README.md")
    assert "'./README.md' is not in a game" in err and "= help: " in err


def test_an_existing_file_outside_any_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("kind: scenario\n")
    err = run("check", str(tmp_path / "x.yaml"))
    assert f"{str(tmp_path / 'x.yaml')!r} is not in a game (no folder at or above it holds scenarios/)" in err


def test_a_near_file_name_is_suggested_with_its_folder(at_root):
    err = run("check", "scenarios/bfm/seven-turm.yaml")
    assert "did you mean 'scenarios/bfm/seven-turn.yaml'?" in err


def test_a_missing_folder_is_named(at_root):
    err = run("check", "scenerios/bfm/seven-turn.yaml")
    assert "there is no folder 'scenerios/bfm'" in err


@pytest.mark.parametrize("command", [["check"], ["export-setup", "--side", "soviet"]])
def test_a_folder_is_not_a_scenario(at_root, command):
    assert "'scenarios/bfm' is a folder, not a scenario file" in run(*command, "scenarios/bfm")


@pytest.mark.parametrize(
    ("arg", "message"), [("bfn/seven-turn", "did you mean 'bfm'?"), ("bfm/sevn-turn", "did you mean 'seven-turn'?")]
)
def test_game_slash_scenario_is_still_an_id_pair(at_root, arg, message):
    assert message in run("check", arg)


def test_a_card_given_as_the_scenario_points_to_card(at_root, tmp_path):
    card = tmp_path / "soviet.csv"
    card.write_text("hex,unit,state\n")
    err = run("check", str(card))
    assert f"{str(card)!r} is not in a game" in err and f"hexwright check SCENARIO --card {card}" in err
