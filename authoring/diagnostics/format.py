"""Renderers for diagnostics: ruff-style `full` and `concise` text, `json` and SARIF 2.1.0."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from authoring.diagnostics.codes import lookup
from authoring.diagnostics.record import Diagnostic, Severity, sorted_diagnostics
from authoring.diagnostics.text import printable as _p
from authoring.textcodec import DecodeError, decode

TOOL_URI = "https://example.invalid/hexwright"


def _snippet(d: Diagnostic, source_lines: dict[str, list[str]]) -> list[str]:
    if not d.loc or not d.loc.line:
        return []
    lines = source_lines.get(d.loc.file)
    if lines is None:
        try:
            text = _text(Path(d.loc.file).read_bytes())
            lines = text.splitlines() if len(text) < 5_000_000 else []
        except OSError:
            lines = []
        source_lines[d.loc.file] = lines
    if d.loc.line > len(lines):
        return []
    line = lines[d.loc.line - 1]
    if len(line) > 200:
        line = line[:200] + "..."
    num = str(d.loc.line)
    pad = " " * len(num)
    caret = " " * max(d.loc.col - 1, 0) + "^"
    return [f"{pad} |", f"{num} | {_p(line)}", f"{pad} | {caret}"]


def _text(raw: bytes) -> str:
    """A file's text as the loader read it (a spreadsheet's UTF-16 or code page too)."""
    try:
        return decode(raw, legacy=True).text
    except DecodeError:
        return raw.decode("utf-8", errors="replace")


def render_full(diags: Iterable[Diagnostic]) -> str:
    out: list[str] = []
    cache: dict[str, list[str]] = {}
    items = sorted_diagnostics(diags)
    for d in items:
        out.append(_p(f"{d.severity.value}[{d.code}]: {d.message}"))
        if d.loc:
            out.append(_p(f" --> {d.loc}"))
        out.extend(_snippet(d, cache))
        if d.rule:
            out.append(_p(f"  = rule: {d.rule}"))
        for rel in d.related:
            out.append(_p(f"  = see also: {rel}"))
        if d.help:
            out.append(_p(f"  = help: {d.help}"))
        out.append("")
    out.append(summary(items))
    return "\n".join(out)


def render_concise(diags: Iterable[Diagnostic]) -> str:
    items = sorted_diagnostics(diags)
    lines = []
    for d in items:
        where = f"{d.loc}: " if d.loc else ""
        rule = f" [{d.rule}]" if d.rule else ""
        lines.append(_p(f"{where}{d.severity.value}[{d.code}]: {d.message}{rule}"))
        if d.help:
            lines.append(_p(f"  help: {d.help}"))
    lines.append(summary(items))
    return "\n".join(lines)


def summary(items: list[Diagnostic]) -> str:
    errors = sum(1 for d in items if d.severity is Severity.ERROR)
    warnings = sum(1 for d in items if d.severity is Severity.WARNING)
    notes = len(items) - errors - warnings
    if not errors and not warnings:
        return "All checks passed." + (f" ({notes} note{'s' * (notes != 1)})" if notes else "")
    parts = [f"{errors} error{'s' * (errors != 1)}"]
    if warnings:
        parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
    return "Found " + ", ".join(parts) + "."


def as_dict(d: Diagnostic) -> dict:
    return {
        "severity": d.severity.value,
        "code": d.code,
        "message": d.message,
        "file": d.loc.file if d.loc else None,
        "line": d.loc.line if d.loc else None,
        "column": d.loc.col if d.loc else None,
        "rule": d.rule or None,
        "help": d.help or None,
        "hex": d.hex or None,
        "path": [str(p) for p in d.path],
        "related": [str(r) for r in d.related],
    }


def render_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([as_dict(d) for d in sorted_diagnostics(diags)], indent=2)


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_sarif(diags: Iterable[Diagnostic], root: Path | None = None) -> str:
    items = sorted_diagnostics(diags)
    rules = sorted({d.code for d in items})
    results = []
    for d in items:
        result = {
            "ruleId": d.code,
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f" (help: {d.help})" if d.help else "")},
        }
        if d.rule:
            result["properties"] = {"rule": d.rule}
        if d.loc:
            region = {"startLine": d.loc.line or 1}
            if d.loc.col:
                region["startColumn"] = d.loc.col
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(d.loc.file, root)}, "region": region}}]
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hexwright", "informationUri": TOOL_URI,
                                "rules": [_sarif_rule(r) for r in rules]}},
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2)


def _sarif_rule(code: str) -> dict:
    """A SARIF rule: the code, with its meaning and usual fix from the catalogue."""
    info = lookup(code)
    if info is None:
        return {"id": code}
    return {"id": code, "shortDescription": {"text": info.meaning}, "help": {"text": info.hint},
            "defaultConfiguration": {"level": _SARIF_LEVEL[info.severity]}}


def _uri(file: str, root: Path | None) -> str:
    p = Path(file)
    if root is not None:
        try:
            p = p.resolve().relative_to(root.resolve())
        except ValueError:
            pass
    return p.as_posix()


RENDERERS = {"full": render_full, "text": render_full, "concise": render_concise, "json": render_json}
