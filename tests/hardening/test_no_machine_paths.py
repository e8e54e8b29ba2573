"""No tracked file names a path of a developer's machine: shared files are `../shared/...` from the
project root and rulebooks are cited by name, so a clone works (and reads right) anywhere."""

from __future__ import annotations

import re
import subprocess

import pytest
from shared_files import ROOT

# Home and workspace folders of Linux, macOS and Windows machines, and this workplace's own root.
# Built from pieces so that this file does not match itself.
MACHINE_PATH = re.compile(
    "|".join(
        (
            r"(?<![\w.])/" + "home/[A-Za-z0-9_.-]+",
            r"(?<![\w.])/" + "Users/[A-Za-z0-9_.-]+",
            r"(?<![\w.])/" + "root/",
            r"(?<![\w.])/" + "work/",
            r"[A-Za-z]:\\" + r"Users\\",
        )
    )
)


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return [p for p in out.decode().split("\0") if p]


def machine_paths(text: str) -> list[str]:
    return [m.group(0) for m in MACHINE_PATH.finditer(text)]


def test_the_pattern_finds_what_it_should():
    assert machine_paths("see /" + "home/ann/games/x.txt and /" + "work/shared/rules") == [
        "/" + "home/ann",
        "/" + "work/",
    ]
    assert machine_paths("C:\\" + "Users\\bob\\x") == ["C:\\" + "Users\\"]
    assert machine_paths("../shared/rules/typhoon.txt, ../../../home/me/.ssh (a relative escape)") == []


def test_no_tracked_file_names_an_absolute_machine_path():
    found = []
    for rel in _tracked():
        path = ROOT / rel
        if not path.is_file() or path.stat().st_size > 5_000_000:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for line_no, line in enumerate(text.splitlines(), 1):
            found += [f"{rel}:{line_no}: {hit}" for hit in machine_paths(line)]
    assert found == [], "\n".join(found)
