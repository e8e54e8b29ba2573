"""Regressions: oversized YAML was composed in full before any limit applied.

Before the fix (found by tests/hardening/test_limits.py):
- a 10-level alias bomb took ~5 s and ~450 MiB before HW-YAML-005;
- a map listing 10^6 hexes (9 MB, under every limit then) took ~18 s and 1.1 GiB and printed 840,002 errors.
Fix: `authoring.load.source._prescan` counts values (aliases multiplied, not walked) on the event
stream before composing; MAX_NODES lowered from 2,000,000 to 1,000,000; `Ctx.error` stops at 200
errors per file with one HW-LIMIT-001 summary; schema errors are capped at 1,000 per file.
"""

from __future__ import annotations

import tracemalloc

import pytest

from authoring.diagnostics.codes import HW_HEX_001
from authoring.load.context import MAX_ERRORS_PER_FILE, Ctx
from authoring.load.source import MAX_NODES, SourceError, parse_yaml


def _peak_mib(fn) -> tuple[object, float]:
    """fn()'s result and the peak of memory allocated while it ran, in MiB."""
    tracemalloc.start()
    try:
        result = fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result, peak / 2**20


def _refused(text: str) -> str:
    with pytest.raises(SourceError) as info:
        parse_yaml(text, "x.yaml")
    return info.value.diag.code


def test_alias_bomb_refused_before_composing():
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    text = "\n".join(lines) + "\n"
    code, peak = _peak_mib(lambda: _refused(text))
    assert (code, peak < 20) == ("HW-YAML-005", True), peak


@pytest.mark.slow
def test_million_values_refused_before_composing(monkeypatch):
    """(Peak memory of this case is measured in a child process by test_limits.py: tracemalloc is too slow here.)"""

    def compose(*args, **kwargs):
        raise AssertionError("composed a document over the value limit")

    monkeypatch.setattr("authoring.load.source.yaml.compose", compose)
    text = "kind: map\nterrain:\n  forest: [" + ",".join(['"0101"'] * (MAX_NODES + 10)) + "]\n"
    assert _refused(text) == "HW-YAML-005"


def test_anchors_within_the_limit_still_load():
    text = "base: &b {x: 1, y: [1, 2, 3]}\ncopies: [*b, *b, *b]\n"
    assert parse_yaml(text, "x.yaml").data["copies"][2] == {"x": 1, "y": [1, 2, 3]}


def test_error_flood_capped_per_file():
    ctx = Ctx(parse_yaml("kind: map\n", "x.yaml"))
    for i in range(5000):
        ctx.error(HW_HEX_001, f"hex {i} is off the map", ())
    assert len(ctx.diags) == MAX_ERRORS_PER_FILE + 1
    assert ctx.diags[-1].code == "HW-LIMIT-001"
