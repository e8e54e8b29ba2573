"""The warnings a build stands on, kept beside its outputs: a build with nothing to do still reports them.

A build checks a game before it draws it (the loader's and the rules engine's findings: what `validate`
says), and the sheets stage finds more while drawing (text shortened on a face, art too small at the size
printed). A game whose stages are all up to date is not even loaded, so its build quotes the warnings the
last check of the same data found: `build/<game>/.findings` holds the data's, `.<sheets>.findings` beside
the sheets PDF the drawing's. Each record is sealed with this machine's key (`trust`) and keyed on the
digest of what it speaks for (the data files and hexwright's fingerprint, or the stage's own digest): a
record that does not match, is damaged or came with a downloaded game is a miss, and the game is loaded
and checked (or the stage drawn) again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from authoring import atomic
from authoring.diagnostics import Diagnostic, Loc, Severity
from authoring.load.project import display
from authoring.trust import TAG_BYTES, read_regular, seal, verify

DATA_RECORD = ".findings"
MAGIC = b"hexwright-findings 1\n"
LIMIT = 64 << 20
"""A record of a few thousand warnings is a megabyte or two; anything much larger is not one."""


def data_record(out: Path) -> Path:
    """The record of a game's data warnings, in its build folder `out` (build/<game>)."""
    return Path(out) / DATA_RECORD


def stage_record(target: Path) -> Path:
    """The record of the warnings a stage found while drawing `target`, beside it."""
    return target.with_name(f".{target.name}.findings")


def warnings_of(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The warnings among `found` (errors stop a build; notes need no change and are not counted)."""
    return [d for d in found if d.severity is Severity.WARNING]


def merged(*groups: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The findings of every group, in order, each said once (a stage may repeat the data's art findings)."""
    seen: set[tuple] = set()
    out = []
    for group in groups:
        for d in group:
            key = (d.severity, d.code, d.message, d.loc)
            if key not in seen:
                seen.add(key)
                out.append(d)
    return out


def keep(record: Path, digest: str, found: Iterable[Diagnostic]) -> None:
    """Record `found` as what the inputs of `digest` give (written only when it changed, as every output)."""
    body = json.dumps([_as_json(d) for d in found], sort_keys=True, separators=(",", ":")).encode()
    try:
        atomic.write_chunks(record, (MAGIC, seal("findings", digest, body), body))
    except OSError:  # a record only saves a load; the build stands without it
        forget(record)


def quoted(record: Path, digest: str) -> tuple[Diagnostic, ...] | None:
    """The findings recorded for `digest` (None: no record of this machine's for these inputs)."""
    data = read_regular(record, LIMIT)
    head = len(MAGIC) + TAG_BYTES
    if data is None or len(data) < head or not data.startswith(MAGIC):
        return None
    body = data[head:]
    if not verify(data[len(MAGIC) : head], "findings", digest, body):
        return None
    try:
        return tuple(_from_json(item) for item in json.loads(body))
    except (ValueError, TypeError, KeyError):
        return None


def forget(record: Path) -> None:
    atomic.remove(record)


def _as_json(d: Diagnostic) -> dict:
    """A finding as plain values; its files made absolute, so it reads right from any working folder."""
    return {
        "severity": d.severity.value,
        "code": d.code,
        "message": d.message,
        "loc": _loc_json(d.loc),
        "help": d.help,
        "rule": d.rule,
        "path": list(d.path),
        "related": [_loc_json(r) for r in d.related],
        "hex": d.hex,
    }


def _loc_json(loc: Loc | None) -> list | None:
    if loc is None:
        return None
    return [os.path.abspath(loc.file) if loc.file else "", loc.line, loc.col, loc.end_line, loc.end_col]


def _from_json(item: dict) -> Diagnostic:
    return Diagnostic(
        Severity(item["severity"]),
        str(item["code"]),
        str(item["message"]),
        _loc(item["loc"]),
        str(item["help"]),
        str(item["rule"]),
        tuple(item["path"]),
        tuple(loc for r in item["related"] if (loc := _loc(r)) is not None),
        str(item["hex"]),
    )


def _loc(value) -> Loc | None:
    if value is None:
        return None
    file, line, col, end_line, end_col = value  # a finding quoted is the finding made: its span too
    return Loc(display(Path(file)) if file else "", int(line), int(col), int(end_line), int(end_col))
