"""Renderers for diagnostics: ruff-style `full` and `concise` text, `json` and SARIF 2.1.0."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType

from authoring.diagnostics.codes import HW_CHECK_001, HW_LIMIT_002, lookup
from authoring.diagnostics.limits import per_file
from authoring.diagnostics.record import Diagnostic, Loc, Severity, sorted_diagnostics
from authoring.diagnostics.text import printable as _p
from authoring.readfile import MAX_INPUT_BYTES, read_limited
from authoring.textcodec import DecodeError, decode
from authoring.workbooks import cell_name, is_workbook, read_sheet

TOOL_URI = "https://example.invalid/hexwright"


SNIPPET_WIDTH = 200
"""Characters of a source line shown around a finding's column (a one-line file can be megabytes long)."""
MAX_SHOWN = 1000
"""Findings one command prints; the rest are counted in a last line (HW-LIMIT-002)."""
MAX_MESSAGE = 2000
"""Characters of one message or hint shown (a value quoted in it can be 10,000 characters long)."""


def _snippet(d: Diagnostic, source_lines: dict) -> list[str]:
    if not d.loc or not d.loc.line:
        return []
    if is_workbook(d.loc.file):
        return _cell_snippet(d.loc, source_lines)
    lines = source_lines.get(d.loc.file)
    if lines is None:
        try:
            text = _text(read_limited(d.loc.file, MAX_INPUT_BYTES))
            lines = text.splitlines() if len(text) < 5_000_000 else []
        except (OSError, ValueError):
            lines = []
        source_lines[d.loc.file] = lines
    if d.loc.line > len(lines):
        return []
    line = lines[d.loc.line - 1]
    col = max(d.loc.col - 1, 0)
    shown, caret_at = cut_around(line, col)
    num = str(d.loc.line)
    pad = " " * len(num)
    return [
        f"{pad} |",
        f"{num} | {shown}",
        f"{pad} | {' ' * caret_at}{'^' * _span_width(d.loc, line, col, shown, caret_at)}",
    ]


CELL_GAP = " | "
"""Between a workbook row's cells where a finding shows the row."""


def _sheet(file: str, sheets: dict):
    """The first sheet of the workbook `file` (read once per rendering, kept in `sheets`); None if unreadable."""
    key = ("sheet", file)
    if key not in sheets:
        try:
            sheets[key] = read_sheet(read_limited(file, MAX_INPUT_BYTES), file)
        except (OSError, ValueError):
            sheets[key] = None
    return sheets[key]


def _cell_ref(loc: Loc, sheets: dict) -> str:
    """`Counters!M3`: a workbook position as a spreadsheet names it ("" when the workbook cannot be read)."""
    sheet = _sheet(loc.file, sheets)
    return f"{sheet.name}!{cell_name(loc.line, max(loc.col, 1))}" if sheet else ""


def _cell_snippet(loc: Loc, sheets: dict) -> list[str]:
    """A workbook's finding: its row, the cells parted by `CELL_GAP`, the cell underlined, and the cell's name
    in the sheet (`Counters!M3`), which is what a spreadsheet user looks for. Its location's column is the
    sheet's column, not a character's."""
    ref = _cell_ref(loc, sheets)
    where = [f"  = cell: {ref}"] if ref else []
    cells = dict(_sheet(loc.file, sheets).rows).get(loc.line) if ref else None
    if not cells:
        return where
    line = CELL_GAP.join(cells)
    col = sum(len(c) + len(CELL_GAP) for c in cells[: max(loc.col - 1, 0)])
    shown, caret_at = cut_around(line, col)
    width = len(cells[loc.col - 1]) if 0 < loc.col <= len(cells) else 1
    num = str(loc.line)
    pad = " " * len(num)
    return [
        f"{pad} |",
        f"{num} | {shown}",
        f"{pad} | {' ' * caret_at}{'^' * max(1, min(width, len(shown) - caret_at))}",
        *where,
    ]


def _cell_of(loc: Loc, sheets: dict) -> str:
    """` (cell Counters!A2)` after a workbook's position; nothing after any other file's."""
    ref = _cell_ref(loc, sheets) if is_workbook(loc.file) and loc.line else ""
    return f" (cell {ref})" if ref else ""


def _span_width(loc: Loc, line: str, col: int, shown: str, caret_at: int) -> int:
    """Carets under a value that starts and ends on the line (as printed, inside the cut); else one."""
    if loc.end_line != loc.line or loc.end_col - 1 <= col:
        return 1
    width = len(_p(line[col : loc.end_col - 1].rstrip()))
    return max(1, min(width, len(shown) - caret_at))


def cut_around(line: str, col: int, width: int = SNIPPET_WIDTH) -> tuple[str, int]:
    """`line` made printable and cut to about `width` characters around the 0-based column `col`, and where
    the caret goes under the cut (always inside it, so that the caret line is as short as the quoted one)."""
    col = min(col, len(line))
    start = 0 if len(line) <= width else max(0, min(col - width // 2, len(line) - width))
    end = start + width
    head = "..." if start else ""
    tail = "..." if end < len(line) else ""
    shown = head + _p(line[start:end]) + tail
    return shown, len(head) + len(_p(line[start:col]))


def _clip(text: str, most: int = MAX_MESSAGE) -> str:
    return text if len(text) <= most else text[:most] + f"... ({len(text) - most:,} more characters)"


def _text(raw: bytes) -> str:
    """A file's text as the loader read it (a spreadsheet's UTF-16 or code page too)."""
    try:
        return decode(raw, legacy=True).text
    except DecodeError:
        return raw.decode("utf-8", errors="replace")


def shown_part(diags: Iterable[Diagnostic]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Every finding in order (at most MAX_PER_FILE of a severity per file), and the first MAX_SHOWN of them:
    what one command prints."""
    items = sorted_diagnostics(per_file(diags))
    return items, items[:MAX_SHOWN]


def left_out(items: list[Diagnostic], shown: list[Diagnostic]) -> str:
    """The last line when findings were left out (none when all are shown)."""
    rest = len(items) - len(shown)
    return (
        f"... and {rest:,} more finding{'s' * (rest != 1)} left out (HW-LIMIT-002: at most {MAX_SHOWN:,} are shown)"
        if rest
        else ""
    )


def render_full(diags: Iterable[Diagnostic], counted: Iterable[Diagnostic] | None = None) -> str:
    """`diags` as ruff's full text; the closing line counts `counted` when given: the findings `diags` stand
    for when alike ones were cut to a count (`summary.summarised`), so every command counts them alike."""
    out: list[str] = []
    cache: dict[str, list[str]] = {}
    items, shown = shown_part(diags)
    for d in shown:
        out.append(_p(_clip(f"{d.severity.value}[{d.code}]: {d.message}")))
        if d.loc:
            out.append(_p(_clip(f" --> {d.loc}")))
        out.extend(_snippet(d, cache))
        if d.rule:
            out.append(_p(_clip(f"  = rule: {d.rule}")))
        for rel in d.related[:20]:
            out.append(_p(_clip(f"  = see also: {rel}{_cell_of(rel, cache)}")))
        if len(d.related) > 20:
            out.append(f"  = see also: {len(d.related) - 20} more places")
        if d.help:
            out.append(_p(_clip(f"  = help: {d.help}")))
        out.append("")
    if len(shown) < len(items):
        out += [left_out(items, shown), ""]
    out.append(summary(items if counted is None else per_file(counted)))
    return "\n".join(out)


def render_concise(diags: Iterable[Diagnostic], counted: Iterable[Diagnostic] | None = None) -> str:
    """`diags` one line each (and its help); the closing line counts `counted` when given (`render_full`)."""
    items, shown = shown_part(diags)
    lines = []
    for d in shown:
        where = f"{d.loc}: " if d.loc else ""
        rule = f" [{d.rule}]" if d.rule else ""
        lines.append(_p(_clip(f"{where}{d.severity.value}[{d.code}]: {d.message}{rule}")))
        if d.help:
            lines.append(_p(_clip(f"  help: {d.help}")))
    if len(shown) < len(items):
        lines.append(left_out(items, shown))
    lines.append(summary(items if counted is None else per_file(counted)))
    return "\n".join(lines)


NOT_CHECKED = HW_CHECK_001.code
"""The note that the set-up rules did not run: the summary says so, never "All checks passed"."""


def counts(diags: Iterable[Diagnostic]) -> tuple[int, int, int]:
    """(errors, warnings, notes) as every command's closing line counts them: at most MAX_PER_FILE of a
    severity per file, and the one finding that says the rest were left out (`limits.per_file`)."""
    items = per_file(diags)
    errors = sum(1 for d in items if d.severity is Severity.ERROR)
    warnings = sum(1 for d in items if d.severity is Severity.WARNING)
    return errors, warnings, len(items) - errors - warnings


def summary(items: list[Diagnostic]) -> str:
    errors, warnings, notes = counts(items)
    unchecked = sum(1 for d in items if d.code == NOT_CHECKED)
    if not errors and not warnings and not unchecked:
        return "All checks passed." + (f" ({notes} note{'s' * (notes != 1)})" if notes else "")
    parts = [f"{errors} error{'s' * (errors != 1)}"]
    if warnings:
        parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
    told = "Found " + ", ".join(parts) + "."
    if unchecked:
        games = f" of {unchecked} games" if unchecked > 1 else ""
        told += f" The set-up rules{games} were not checked (HW-CHECK-001 says why)."
    return told


def as_dict(d: Diagnostic) -> dict:
    return {
        "severity": d.severity.value,
        "code": d.code,
        "message": _clip(d.message),
        "file": d.loc.file if d.loc else None,
        "line": d.loc.line if d.loc else None,
        "column": d.loc.col if d.loc else None,
        "rule": d.rule or None,
        "help": _clip(d.help) or None,
        "hex": d.hex or None,
        "path": [str(p) for p in d.path],
        "related": [str(r) for r in d.related[:MAX_SHOWN]],
    }


def _machine_part(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The findings JSON and SARIF carry: the first MAX_SHOWN, then one note that counts the rest."""
    items, shown = shown_part(diags)
    if len(shown) < len(items):
        shown.append(HW_LIMIT_002.at(left_out(items, shown).removeprefix("... and ")))
    return shown


def render_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([as_dict(d) for d in _machine_part(diags)], indent=2)


_SARIF_LEVEL = MappingProxyType({Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"})


def render_sarif(diags: Iterable[Diagnostic], root: Path | None = None) -> str:
    items = _machine_part(diags)
    rules = sorted({d.code for d in items})
    results = []
    for d in items:
        result: dict[str, object] = {
            "ruleId": d.code,
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": _clip(d.message + (f" (help: {d.help})" if d.help else ""))},
        }
        if d.rule:
            result["properties"] = {"rule": d.rule}
        if d.loc:
            region = {"startLine": d.loc.line or 1}
            if d.loc.col:
                region["startColumn"] = d.loc.col
            if d.loc.col and d.loc.end_col and d.loc.end_line >= d.loc.line:  # the end, just past the value
                region.update(endLine=d.loc.end_line, endColumn=d.loc.end_col)
            result["locations"] = [
                {"physicalLocation": {"artifactLocation": {"uri": _uri(d.loc.file, root)}, "region": region}}
            ]
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hexwright",
                        "informationUri": TOOL_URI,
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2)


def _sarif_rule(code: str) -> dict:
    """A SARIF rule: the code, with its meaning and usual fix from the catalogue."""
    info = lookup(code)
    if info is None:
        return {"id": code}
    return {
        "id": code,
        "shortDescription": {"text": info.meaning},
        "help": {"text": info.hint},
        "defaultConfiguration": {"level": _SARIF_LEVEL[info.severity]},
    }


def _uri(file: str, root: Path | None) -> str:
    p = Path(file)
    if root is not None:
        try:
            p = p.resolve().relative_to(root.resolve())
        except ValueError:
            pass
    return p.as_posix()


RENDERERS = MappingProxyType({"full": render_full, "text": render_full, "concise": render_concise, "json": render_json})
