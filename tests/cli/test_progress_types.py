"""Every stage reports progress through one interface, and mypy proves each call matches it.

The whole package is not yet clean under mypy, so the check keeps the errors on lines that touch
progress; a control module with the wrong calls shows that such errors are found."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shared_files import ROOT
from typecheck import mypy_errors

PROGRESS_LINE = re.compile(r"\bprogress\b|\bProgress\b|\.advance\(|\.note\(|\bsteps\(|\bstep\.")
WRONG = """from authoring.progress import SILENT, Progress


def stage(progress: Progress = SILENT) -> None:
    progress(3, 10)
    progress.advance("drawing maps")
    progress.note(3, 10)


stage(lambda done, total: None)
"""


def _stage_modules() -> list[str]:
    """Every module that takes a Progress: found by its import, so a new stage is covered too."""
    return sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "authoring").rglob("*.py")
        if "authoring.progress import" in p.read_text(encoding="utf-8")
    )


def _on_progress_lines(errors: list[str]) -> list[str]:
    found = []
    for e in errors:
        path, line_no = e.split(":")[:2]
        source = (ROOT / path).read_text(encoding="utf-8").splitlines()[int(line_no) - 1]
        if PROGRESS_LINE.search(source):
            found.append(f"{e}\n    {source.strip()}")
    return found


@pytest.mark.slow
def test_every_stage_calls_progress_with_its_one_signature():
    modules = _stage_modules()
    assert {
        "authoring/pipeline/context.py",
        "authoring/pipeline/side_by_side.py",
        "authoring/cli/build.py",
        "authoring/vassal/compile.py",
        "authoring/render/print/sheets.py",
    } <= set(modules)
    assert _on_progress_lines(mypy_errors(modules)) == []


@pytest.mark.slow
def test_a_wrong_call_is_caught(tmp_path: Path):
    control = ROOT / "authoring" / f"_progress_control_{tmp_path.name}.py"
    control.write_text(WRONG, encoding="utf-8")
    try:
        found = _on_progress_lines(mypy_errors([str(control.relative_to(ROOT))]))
    finally:
        control.unlink()
    assert {int(f.split(":")[1]) for f in found} >= {5, 6, 7}, found
