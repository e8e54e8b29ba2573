"""The words for ids that lost their leading zeros in a spreadsheet (hex ids, set-up codes), shared by the
loader (`load.zeros`, which gathers them per column) and the rules engine (set-up codes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from authoring.diagnostics.rows import spans
from authoring.textcodec import is_sheet
from authoring.workbooks import is_workbook

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
    if is_workbook(file):
        keep = (
            f"the {column} cells hold numbers, which show no leading zeros: format the {column} column as Text "
            f"(Format Cells > Text) and type the ids again, or give it the number format {'0' * len(wanted[0])}"
        )
    elif is_sheet(file):
        keep = (
            f"spreadsheets drop leading zeros: format the {column} column as text (Format Cells > Text) and type "
            "the ids again, or set that column to Text when opening the CSV"
        )
    else:
        keep = f"write each {column} with its leading zeros, as printed ({wanted[0]!r}, not {wanted[0].lstrip('0')!r})"
    return f"did you mean {shown}? {keep}"
