"""Ids that lost their leading zeros, reported once per column however many rows they are in.

A spreadsheet stores the hex id 0304 as the number 304 unless its column is formatted as text, and
it does so for the whole column: thirteen rows are one mistake, fixed by one setting. Callers gather
what `padded` finds while they read a file and report it with `DroppedZeros.report`, one finding at
the first row that says how many rows it concerns; a set-up code read in the rules engine uses
`zeros_message` and `zeros_help` for the same words.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from authoring.diagnostics.rows import spans
from authoring.load.context import Ctx
from authoring.textcodec import is_sheet

__all__ = ["DroppedZeros", "padded", "spans", "zeros_help", "zeros_message"]

MAX_WIDTH = 6
"""The widest id tried when zeros are put back (hex ids are 4 to 6 digits)."""


def padded(label: str, known: Callable[[str], object]) -> str | None:
    """`label` with the leading zeros put back that make it an id `known` accepts (a truthy answer), if any."""
    if not label.isdigit():
        return None
    return next((label.zfill(n) for n in range(len(label) + 1, MAX_WIDTH + 1) if known(label.zfill(n))), None)


def zeros_message(first: str, what: str, lines: Sequence[int], file: str) -> str:
    """The words added to the first row's message when several rows (of a CSV; ids of a YAML file) lost their zeros."""
    if len(lines) < 2:
        return first
    many = "rows" if is_sheet(file) else f"{what}s"
    return f"{first}: {len(lines)} {many} lost their leading zeros ({spans(lines)})"


def zeros_help(wanted: Sequence[str], column: str, file: str) -> str:
    """'did you mean ...?' and how to keep the zeros, in a spreadsheet (CSV) or in YAML."""
    shown = ", ".join(repr(w) for w in wanted[:3]) + (", ..." if len(wanted) > 3 else "")
    if is_sheet(file):
        keep = (f"spreadsheets drop leading zeros: format the {column} column as text (Format Cells > Text) and type "
                "the ids again, or set that column to Text when opening the CSV")
    else:
        keep = f"write each {column} with its leading zeros, as printed ({wanted[0]!r}, not {wanted[0].lstrip('0')!r})"
    return f"did you mean {shown}? {keep}"


@dataclass
class DroppedZeros:
    """The rows of one column (of a CSV file) or of one YAML file whose id needs its leading zeros back."""

    ctx: Ctx
    what: str            # "hex id"
    column: str          # "hex": the column (or field) named in the hint
    found: list[tuple[tuple, str, str]] = field(default_factory=list)   # (path, the id with its zeros, message)

    def add(self, path: tuple, wanted: str, message: str) -> None:
        """A row whose id is `wanted` without its zeros; `message` says what is wrong with it."""
        self.found.append((path, wanted, message))

    def report(self, code: str) -> None:
        """One error at the first row: its message, how many rows, and the hint."""
        if not self.found:
            return
        lines = [self.ctx.loc(p).line for p, _w, _m in self.found]
        wanted = list(dict.fromkeys(w for _p, w, _m in self.found))
        path, _w, message = self.found[0]
        self.ctx.error(code, zeros_message(message, self.what, lines, self.ctx.src.path), path,
                       help=zeros_help(wanted, self.column, self.ctx.src.path))
        self.found.clear()
