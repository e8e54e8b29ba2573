"""README.md is a contract: its console session runs in a fresh copy of the project with the output
it shows, every command and option its table names exists, and each row of its exit-code table holds."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from shared_files import ROOT

from authoring.cli import main

README = (ROOT / "README.md").read_text(encoding="utf-8")


sys.path.insert(0, str(ROOT / "tests" / "author"))
from tutorial_runner import Command, parse, run_doc  # noqa: E402


@pytest.mark.slow
def test_readme_console_session_runs_in_a_fresh_copy(tmp_path: Path, monkeypatch):
    for part in ("scenarios", "maps", "counters", "schemas"):
        shutil.copytree(ROOT / part, tmp_path / part)
    assert len([s for s in parse(README) if isinstance(s, Command)]) >= 5
    run_doc(README, tmp_path, monkeypatch)


def _table_commands() -> list[str]:
    section = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    found = []
    for row in re.findall(r"^\| (.+?) \| .+ \|$", section, flags=re.M):
        found += re.findall(r"`(hexwright [^`]+)`", row)
    return found


def _resolve(words: list[str]) -> tuple[click.Command, list[str]]:
    """The command a synopsis names (following groups) and the words after it."""
    command: click.Command = main
    rest = list(words)
    while isinstance(command, click.Group) and rest and rest[0] in command.commands:
        command = command.commands[rest.pop(0)]
    return command, rest


def _synopses(synopsis: str) -> list[list[str]]:
    """`hexwright build maps / cards / charts [GAME]` -> [build maps], [build cards], [build charts [GAME]]."""
    first, *others = synopsis.removeprefix("hexwright ").split(" / ")
    head = first.split()
    group = head[:1] if head and isinstance(main.commands.get(head[0]), click.Group) else []
    return [head] + [group + other.split() for other in others]


def test_every_command_and_option_in_the_readme_table_exists():
    commands = _table_commands()
    assert len(commands) >= 14
    for synopsis in commands:
        for words in _synopses(synopsis):
            command, rest = _resolve(words)
            options = {o for p in command.params for o in getattr(p, "opts", ())}
            for token in re.findall(r"--[a-z][a-z-]*", " ".join(rest)):
                assert token in options, f"README names {token} for `{synopsis}`; {command.name} has {sorted(options)}"
            unknown = [w for w in rest if re.fullmatch(r"[a-z][a-z-]*", w)]
            assert not unknown, f"README names a subcommand that does not exist: `{synopsis}` ({unknown})"


def _exit_rows() -> dict[int, str]:
    table = README.split("### Exit codes", 1)[1].split("\n\n", 2)[1]
    return {int(code): meaning for code, meaning in re.findall(r"^\| (\d) \| (.+) \|$", table, flags=re.M)}


@pytest.fixture
def projects(tmp_path: Path, mini: Path) -> dict[str, str]:
    bad = tmp_path / "bad"
    shutil.copytree(mini, bad)
    (bad / "counters/mini/units.yaml").write_text(
        "kind: counters\ncounters:\n  - {id: x, side: purple, faces: [{state: full}]}\n"
    )
    (tmp_path / "afile").write_text("not a folder")
    return {"GOOD": str(mini), "BAD": str(bad), "AFILE": str(tmp_path / "afile")}


ROWS = {
    0: [["validate", "GOOD"], ["list", "GOOD"], []],
    1: [["validate", "BAD"], ["build", "sheets", "--project", "BAD"]],
    2: [
        ["validate", "GOOD", "--no-such-option"],  # unknown option
        ["frobnicate"],  # unknown command
        ["validate", "/no/such/path"],  # missing path
        ["validate", "nosuchgame", "--project", "GOOD"],  # unknown game
        ["check", "nosuchscenario", "--project", "GOOD"],  # unknown scenario
        ["build", "sheets", "mini", "--project", "GOOD", "--out", "AFILE"],
    ],  # --out not a writable folder
}


def test_the_readme_exit_code_table_is_the_one_pinned_here():
    rows = _exit_rows()
    assert sorted(rows) == sorted(ROWS)
    for words in (
        "unknown command or option",
        "missing path",
        "unknown game or scenario",
        "an `--out` that is not a writable folder",
        "internal error",
    ):
        assert words in rows[2]
    assert "errors" in rows[1] and "success" in rows[0]


@pytest.mark.parametrize("code, args", [(c, a) for c, cases in ROWS.items() for a in cases])
def test_each_exit_code_row(code: int, args: list[str], projects: dict[str, str], monkeypatch):
    monkeypatch.chdir(projects["GOOD"])
    r = CliRunner().invoke(main, [projects.get(a, a) for a in args])
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output


def test_internal_error_row(monkeypatch, projects):
    def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr("authoring.validate.validate_games", boom)
    r = CliRunner().invoke(main, ["validate", projects["GOOD"]])
    assert r.exit_code == 2 and "internal error: RuntimeError: boom" in r.output
