"""How many findings one file may give: a file of 15,000 unknown keys is 200 findings and a summary.

Every kind of finding counts (schema, CSV header, text, rules): the cap is applied to what a load or a
check returns, whatever made it, and again to what a command prints (`format`)."""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from authoring.diagnostics.codes import HW_LIMIT_001
from authoring.diagnostics.record import Diagnostic, Loc, Severity, sorted_diagnostics

MAX_PER_FILE = 200
"""Findings of one severity shown for one file; past it, one HW-LIMIT-001 of that severity says the rest are not shown."""
LIMIT_CODE = HW_LIMIT_001.code
_NOUN = MappingProxyType({Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "notes"})


def per_file(diags: Iterable[Diagnostic], most: int = MAX_PER_FILE) -> list[Diagnostic]:
    """`diags` with at most `most` findings of each severity per file (the first by position), and one
    HW-LIMIT-001 for each file and severity that had more, at the first finding left out. A summary made
    earlier (by the loader, which stops collecting at the cap) is kept when nothing more is left out here;
    the order of the findings kept is unchanged."""
    diags = list(diags)
    groups: dict[tuple, list[Diagnostic]] = {}
    for d in diags:
        if d.code != LIMIT_CODE:
            groups.setdefault(_key(d), []).append(d)
    over = {key for key, members in groups.items() if len(members) > most}
    if not over:
        return _one_summary_each(diags)
    kept: set[int] = set()
    summaries: list[Diagnostic] = []
    for key in over:
        ordered = sorted_diagnostics(groups[key])
        kept.update(id(d) for d in ordered[:most])
        summaries.append(summary(key[1], ordered[most].loc, len(ordered) - most))
    out = [d for d in diags if _key(d) not in over or id(d) in kept]
    return _one_summary_each(out + summaries)


def _key(d: Diagnostic) -> tuple:
    return (d.loc.file if d.loc else "", d.severity)


def _one_summary_each(diags: list[Diagnostic]) -> list[Diagnostic]:
    """`diags` with only the last HW-LIMIT-001 of each file and severity (the one that counts the most)."""
    last = {_key(d): i for i, d in enumerate(diags) if d.code == LIMIT_CODE}
    return [d for i, d in enumerate(diags) if d.code != LIMIT_CODE or last[_key(d)] == i]


def summary(severity: Severity, loc: Loc | None, rest: int) -> Diagnostic:
    """The one finding that stands for the `rest` findings of a file that are not shown."""
    noun = _NOUN[severity]
    more = f" ({rest:,} more)" if rest > 0 else ""
    return Diagnostic(
        severity,
        LIMIT_CODE,
        f"more than {MAX_PER_FILE} {noun} in this file; the rest are not shown{more}",
        loc,
        help="fix the findings above first" if severity is Severity.ERROR else "",
    )
