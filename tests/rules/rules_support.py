"""Paths and helpers shared by the rules tests (imported by name: tests are not a package)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures" / "project"


def finding_key(d) -> str:
    """A finding as the expectation files write it: 'CODE | rule | file:line'."""
    where = f"{Path(d.loc.file).name}:{d.loc.line}" if d.loc else "-"
    return f"{d.code} | {d.rule} | {where}"
