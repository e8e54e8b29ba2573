"""Ids that lost their leading zeros, reported once per column however many rows they are in.

A spreadsheet stores the hex id 0304 as the number 304 unless its column is formatted as text, and
it does so for the whole column: thirteen rows are one mistake, fixed by one setting. Callers gather
what `padded` finds while they read a file and report it with `DroppedZeros.report`, one finding at
the first row that says how many rows it concerns; a set-up code read in the rules engine uses
`zeros_message` and `zeros_help` for the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from authoring.diagnostics.codes import CodeInfo
from authoring.diagnostics.zeros import zeros_help, zeros_message
from authoring.load.context import Ctx

__all__ = ("DroppedZeros",)


@dataclass
class DroppedZeros:
    """The rows of one column (of a CSV file) or of one YAML file whose id needs its leading zeros back."""

    ctx: Ctx
    what: str  # "hex id"
    column: str  # "hex": the column (or field) named in the hint
    found: list[tuple[tuple, str, str]] = field(default_factory=list)  # (path, the id with its zeros, message)

    def add(self, path: tuple, wanted: str, message: str) -> None:
        """A row whose id is `wanted` without its zeros; `message` says what is wrong with it."""
        self.found.append((path, wanted, message))

    def report(self, code: CodeInfo) -> None:
        """One error at the first row: its message, how many rows, and the hint."""
        if not self.found:
            return
        lines = [self.ctx.loc(p).line for p, _w, _m in self.found]
        wanted = list(dict.fromkeys(w for _p, w, _m in self.found))
        path, _w, message = self.found[0]
        self.ctx.error(
            code,
            zeros_message(message, self.what, lines, self.ctx.src.path),
            path,
            help=zeros_help(wanted, self.column, self.ctx.src.path),
        )
        self.found.clear()
