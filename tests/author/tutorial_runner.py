"""Reads docs/tutorial.md into steps (commands with their expected output, file edits) and runs them."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Command:
    argv: list[str]
    expected: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if any(line.startswith("error[") for line in self.expected) else 0


@dataclass
class Edit:
    path: str
    hunks: list[tuple[str, str]]  # (old text, new text)
    new_file: bool = False  # a block titled with its path: the whole of a new file


def parse(text: str) -> list[Command | Edit]:
    """Console blocks give commands (`$ ...`) and output lines; diff blocks give edits; a block titled with a
    path (```` ```yaml title="maps/x/x.yaml" ````, as mkdocs shows a file) is a new file. A block right after
    an `<!-- not run: ... -->` comment is skipped."""
    steps: list[Command | Edit] = []
    lines = text.splitlines()
    i, skip = 0, False
    while i < len(lines):
        line = lines[i]
        if line.startswith("<!-- not run"):
            skip = True
        elif line.startswith("```") and len(line) > 3:
            lang = line[3:].strip()
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            body = lines[i + 1 : j]
            titled = _TITLE.search(lang)
            if skip:
                pass
            elif titled:
                steps.append(Edit(titled.group(1), [("", "\n".join(body))], new_file=True))
            else:
                steps += _commands(body) if lang == "console" else [_edit(body)] if lang == "diff" else []
            skip, i = False, j
        elif line.strip():
            skip = skip and line.startswith("<!--")
        i += 1
    return steps


def _commands(body: list[str]) -> list[Command]:
    out: list[Command] = []
    for line in body:
        if line.startswith("$ "):
            out.append(Command(shlex.split(line[2:])))
        elif line.strip() and line.strip() != "..." and out:
            out[-1].expected.append(line.strip())
    return out


_TITLE = re.compile(r'title="([^"]+)"')


def _edit(body: list[str]) -> Edit:
    path = next(ln[4:].strip() for ln in body if ln.startswith("+++ "))
    hunks, old, new = [], [], []
    for ln in body:
        if ln.startswith(("--- ", "+++ ")):
            continue
        if ln.startswith("@@"):
            hunks.append(("\n".join(old), "\n".join(new)))
            old, new = [], []
            continue
        tag, rest = ln[:1], ln[1:]
        if tag in (" ", "-"):
            old.append(rest)
        if tag in (" ", "+"):
            new.append(rest)
    hunks.append(("\n".join(old), "\n".join(new)))
    return Edit(path, hunks)


def apply(edit: Edit, cwd: Path) -> None:
    path = cwd / edit.path
    if edit.new_file:
        assert not path.exists(), f"tutorial: {edit.path} is a new file, but it exists"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(new for _, new in edit.hunks) + "\n", encoding="utf-8")
        return
    text = path.read_text(encoding="utf-8")
    for old, new in edit.hunks:
        count = text.count(old + "\n")
        assert count == 1, f"tutorial edit of {edit.path}: expected the lines {old!r} once, found {count}"
        text = text.replace(old + "\n", new + "\n")
    path.write_text(text, encoding="utf-8")


def run_doc(text: str, cwd: Path, monkeypatch) -> Path:
    """Run every step of a document in `cwd` (commands in-process, edits on files, `cd` followed), checking
    each command's exit code and the output lines the document shows; returns the folder it ended in."""
    from click.testing import CliRunner

    from authoring.cli import main

    runner = CliRunner()
    for step in parse(text):
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
            assert _shown(line, out), f"the document shows {line!r}; got:\n{where}"
    return cwd


_SECONDS = re.compile(r"\(\d+\.\d s\)")


def _shown(line: str, out: str) -> bool:
    """`line` is in `out`; a build's time in seconds, `(2.1 s)`, stands for any."""
    pattern = _SECONDS.pattern.join(re.escape(part) for part in _SECONDS.split(line))
    return re.search(pattern, out) is not None
