"""Issue 30: the corpus of real modules (`real_corpus`: the licensed ones committed in tests/vmod/real, which
always run; the others' sources beside the project in ../shared/vmod-corpus, skipped where absent).
Every module imports (exit 0), the project validates, and `build module` succeeds (the modules the manifest
marks `slow`, whose builds take minutes, only with HEXWRIGHT_VMOD_SLOW=1); with HEXWRIGHT_VMOD_ENGINE=1 (which
includes the slow builds) the real engine also checks each rebuilt module and counts the set-up pieces it
finds on the same location (minutes of Java per module, so off by default)."""

from __future__ import annotations

import os

import pytest
import real_corpus
from engine import CHECKER

ENGINE = os.environ.get("HEXWRIGHT_VMOD_ENGINE") == "1" and CHECKER.exists()
SLOW = ENGINE or os.environ.get("HEXWRIGHT_VMOD_SLOW") == "1"
ROWS: list[dict] = []


pytestmark = pytest.mark.slow  # imports and builds of real modules


@pytest.mark.parametrize("entry", real_corpus.entries(), ids=lambda e: e["name"])
def test_real_module_imports_validates_and_builds(entry, tmp_path):
    if not real_corpus.available(entry):
        pytest.skip(f"../shared/vmod-corpus/src/{entry['name']} is not here")
    build = SLOW or not entry.get("slow")
    row = real_corpus.measure(entry, tmp_path, ENGINE, build)
    ROWS.append(row)
    assert row["import"] == 0 and row["validate"] == 0, row
    if not build:
        return
    assert row["build"] == 0, row.get("build output")
    assert "Traceback" not in row["build output"] and "BrokenPipeError" not in row["build output"]
    if ENGINE:
        assert row["engine errors"] == 0, row
        if row["on hexes"] != "-":  # every hex game of the corpus: 99% of the pieces on hexes
            hit, total = map(int, row["on hexes"].split("/"))
            assert hit >= 0.99 * total, row


def test_the_corpus_table_has_a_row_per_module_run(capsys):
    """The table of the runs above (`pytest -s tests/vmod/test_real_corpus.py` shows it): a header, then each
    module run, in order, with its import and validate exit codes."""
    if not ROWS:
        pytest.skip("no corpus module ran")
    table = real_corpus.table(ROWS)
    lines = table.splitlines()
    assert lines[0].startswith("| module | import | validate | build |") and len(lines) == 2 + len(ROWS)
    for line, row in zip(lines[2:], ROWS):
        assert line.startswith(f"| {row['module']} | {row['import']} | {row['validate']} | ")
    with capsys.disabled():
        print("\n" + table)
