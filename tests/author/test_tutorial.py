"""docs/tutorial.md, run command by command in a scratch folder: exit codes and the output it shows."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from tutorial_runner import Command, apply, parse

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def test_tutorial_parses_into_the_promised_steps():
    steps = parse(TUTORIAL.read_text(encoding="utf-8"))
    argvs = [" ".join(s.argv[:2]) for s in steps if isinstance(s, Command)]
    for expected in ("hexwright init", "hexwright new", "hexwright export-setup", "hexwright import-setup",
                     "hexwright check", "hexwright build"):
        assert expected in argvs
    assert not any(s.argv[:2] == ["hexwright", "watch"] and "--once" not in s.argv
                   for s in steps if isinstance(s, Command)), "a looping watch would hang the test"


def test_tutorial_runs(tmp_path, monkeypatch):
    cwd = tmp_path
    runner = CliRunner()
    for step in parse(TUTORIAL.read_text(encoding="utf-8")):
        if not isinstance(step, Command):
            apply(step, cwd)
            continue
        if step.argv[0] == "cd":
            cwd = cwd / step.argv[1]
            continue
        assert step.argv[0] == "hexwright", step.argv
        monkeypatch.chdir(cwd)
        result = runner.invoke(main, step.argv[1:])
        out = result.output + (result.stderr if result.stderr_bytes is not None else "")
        where = f"$ {' '.join(step.argv)}\n{out}"
        assert "Traceback" not in out, where
        assert result.exit_code == step.exit_code, where
        for line in step.expected:
            assert line in out, f"tutorial shows {line!r}; got:\n{where}"

