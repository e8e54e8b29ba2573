"""Spreadsheet workbooks (.xlsx, .ods) read as the rows of their first sheet, each cell as the sheet shows it.

A counter mix or a set-up card kept as a workbook is read as its CSV would be, but from the cells themselves:
a text cell is its text ("0404" keeps its zero, as a workbook keeps a text cell whatever its look), a number
is written as its number format shows it (`0000` pads 404 to 0404; General shows 404, and the lost zero is
reported as a CSV's is), a date as its ISO date. The number formats a data sheet uses are followed (General,
zero-padded `0000`, fixed decimals `0.00`); any other (`#,##0`, `0%`, ...) is read as the plain number.
Positions are (row, column) of the sheet, 1-based, so a finding names the cell (`cell_name`: B5).

.xlsx is read with openpyxl (the format's reference Python reader, also the writer of `export-setup`);
.ods from its `content.xml` with lxml, where each cell carries the text it displays (`<text:p>`), so no
number format needs reimplementing. openpyxl is imported when a workbook is read: +230 ms otherwise.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from lxml import etree

from authoring.textcodec import WORKBOOK_SUFFIXES

MAX_ROWS = 100_000
"""Rows read from one sheet (a counter mix has hundreds): past it the workbook is refused, not read for minutes."""
MAX_COLUMNS = 200
MAX_REPEAT = 1_000
"""An .ods row or cell repeated more often than this is the sheet's empty tail (LibreOffice writes 1,048,576)."""


class WorkbookError(ValueError):
    """A workbook that cannot be read (not a zip, no sheet, a broken part): the message says which."""


@dataclass(frozen=True)
class Sheet:
    """The first sheet of a workbook: its name and its rows (sheet row number, the cells' displayed text)."""

    name: str
    rows: tuple[tuple[int, tuple[str, ...]], ...]


def is_workbook(name: str) -> bool:
    """Whether a file (by its name) is a workbook hexwright reads."""
    return name.lower().endswith(WORKBOOK_SUFFIXES)


def cell_name(row: int, column: int) -> str:
    """The A1 name of a cell (row and column 1-based): (5, 2) -> B5, (1, 28) -> AB1."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row}"


def read_sheet(raw: bytes, name: str) -> Sheet:
    """The first sheet of the workbook whose bytes are `raw` (`name`: its file name, for its format)."""
    if not zipfile.is_zipfile(io.BytesIO(raw)):
        raise WorkbookError("is not a workbook (not a zip archive): save it again from the spreadsheet program")
    if name.lower().endswith(".ods"):
        return _ods_sheet(raw)
    return _xlsx_sheet(raw)


def _xlsx_sheet(raw: bytes) -> Sheet:
    import openpyxl  # deferred: see the module docstring

    try:
        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds for a damaged file
        raise WorkbookError(f"cannot be read as an .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise WorkbookError("has no worksheet")
        rows = []
        for number, cells in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS), start=1):
            if number > MAX_ROWS:
                raise WorkbookError(f"has more than {MAX_ROWS:,} rows in its first sheet")
            shown = tuple(_xlsx_text(c.value, getattr(c, "number_format", "General")) for c in cells)
            rows.append((number, _trimmed(shown)))
        return Sheet(sheet.title, tuple(rows))
    finally:
        book.close()


_ZEROS = re.compile(r"^0+$")
_DECIMALS = re.compile(r"^0*\.(0+)$")


def _xlsx_text(value, number_format: str) -> str:
    """A cell's value as the sheet shows it, for the formats a data sheet uses."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, int | float):
        return _number_text(value, number_format or "General")
    return str(value)


def _number_text(value: float, number_format: str) -> str:
    fmt = number_format.split(";")[0].strip()
    if _ZEROS.match(fmt) and float(value).is_integer():  # `0000`: an id kept as a number, shown padded
        return f"{int(value):0{len(fmt)}d}"
    decimals = _DECIMALS.match(fmt)
    if decimals:
        return f"{value:.{len(decimals.group(1))}f}"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


_NS = MappingProxyType(
    {
        "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
        "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
        "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    }
)
_T = f"{{{_NS['table']}}}"
_SPACES = f"{{{_NS['text']}}}c"


def _ods_sheet(raw: bytes) -> Sheet:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            content = archive.read("content.xml")
        root = etree.fromstring(content, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
    except (KeyError, zipfile.BadZipFile, etree.XMLSyntaxError) as exc:
        raise WorkbookError(f"cannot be read as an .ods workbook ({exc})") from None
    table = root.find(".//office:spreadsheet/table:table", dict(_NS))
    if table is None:
        raise WorkbookError("has no sheet")
    rows: list[tuple[int, tuple[str, ...]]] = []
    number = 0
    for row in table.iter(f"{_T}table-row"):
        repeat = int(row.get(f"{_T}number-rows-repeated", "1"))
        cells = _ods_cells(row)
        if cells:
            rows += [(number + 1 + k, cells) for k in range(min(repeat, MAX_REPEAT))]
            if len(rows) > MAX_ROWS:
                raise WorkbookError(f"has more than {MAX_ROWS:,} rows in its first sheet")
        number += repeat
    return Sheet(table.get(f"{_T}name", "Sheet1"), tuple(rows))


def _ods_cells(row) -> tuple[str, ...]:
    out: list[str] = []
    for cell in row:
        if cell.tag not in (f"{_T}table-cell", f"{_T}covered-table-cell"):
            continue
        repeat = int(cell.get(f"{_T}number-columns-repeated", "1"))
        text = "\n".join(_paragraph(p) for p in cell.findall("text:p", dict(_NS)))
        out += [text] * min(repeat, MAX_COLUMNS - len(out))
        if len(out) >= MAX_COLUMNS:
            break
    return _trimmed(tuple(out))


def _paragraph(p) -> str:
    """A paragraph's text, with `<text:s text:c="3"/>` as its spaces and a tab as a tab."""
    parts = [p.text or ""]
    for child in p:
        tag = etree.QName(child).localname
        if tag == "s":
            parts.append(" " * int(child.get(_SPACES, "1")))
        elif tag == "tab":
            parts.append("\t")
        elif tag == "line-break":
            parts.append("\n")
        else:
            parts.append(_paragraph(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _trimmed(cells: Sequence[str]) -> tuple[str, ...]:
    """A row without its empty trailing cells."""
    end = len(cells)
    while end and not cells[end - 1]:
        end -= 1
    return tuple(cells[:end])
