"""One finding for a mistake repeated down a spreadsheet column.

A CSV file is filled in by copying cells down a column: the same wrong value (an unknown unit size,
a misspelt side) then gives the same finding on every row it was copied to. Such findings are one
mistake: `one_per_column` keeps the first and says how many rows it concerns and where they are.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from authoring.diagnostics.record import Diagnostic
from authoring.textcodec import is_sheet

_INDEX = re.compile(r"\[\d+\]")


def spans(lines: Sequence[int], most: int = 6) -> str:
    """Line numbers as runs, 'lines 2-5, 9, 11-14' (the first `most` runs, then how many more lines)."""
    runs: list[list[int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = [f"{a}-{b}" if b > a else str(a) for a, b in runs[:most]]
    rest = sum(b - a + 1 for a, b in runs[most:])
    return ("line " if len(set(lines)) == 1 else "lines ") + ", ".join(shown) + (f" and {rest} more" if rest else "")


def _shape(text: str, ids: Collection[str]) -> str:
    """`text` with list indices and the ids it names blanked: what the findings of a column share."""
    text = _INDEX.sub("[]", text)
    if not ids:
        return text
    return " ".join("<id>" if word.strip(".,;:()'\"") in ids else word for word in text.split(" "))


def one_per_column(diags: Iterable[Diagnostic], ids: Collection[str] = ()) -> list[Diagnostic]:
    """`diags` with the findings of a CSV file that repeat one message (list indices aside, and the `ids`
    it names: a set-up card's unit on each row) on several rows merged into the first, which then says
    how many rows it concerns. Other findings pass as they are."""
    diags = list(diags)
    groups: dict[tuple, list[int]] = {}
    for i, d in enumerate(diags):
        if d.loc and d.loc.line and is_sheet(d.loc.file):
            key = (d.loc.file, d.severity, d.code, d.rule, _shape(d.message, ids), _shape(d.help, ids))
            groups.setdefault(key, []).append(i)
    merged, dropped = {}, set()
    for members in groups.values():
        lines = {loc.line for i in members if (loc := diags[i].loc)}  # every member is located (see above)
        if len(lines) < 2:
            continue
        first = diags[members[0]]
        merged[members[0]] = replace(
            first, message=f"{first.message}: {len(lines)} rows alike ({spans(sorted(lines))})"
        )
        dropped.update(members[1:])
    return [merged.get(i, d) for i, d in enumerate(diags) if i not in dropped]
