"""The bytes common spreadsheet programs write when they save a table as text, for the spreadsheet panel.

Each writer takes rows of cells (text as the program holds it) and returns the file as that program
saves it: its encoding and byte-order mark, separator, line ends, quoting, and whether the last line
ends. What each program does, as its documentation and saved files show:

- Excel for Windows, "CSV (Comma delimited)": the system's ANSI code page (Windows-1252 in Western
  locales), CRLF, quotes only around cells holding the separator, a quote or a line break; in locales
  with a decimal comma the separator is ';'.
- Excel, "CSV UTF-8 (Comma delimited)": the same with UTF-8 and a byte-order mark.
- Excel, "Unicode Text (*.txt)": UTF-16 little-endian with a byte-order mark, tab-separated, CRLF.
- Excel for Mac, "CSV (Macintosh)": Mac Roman, lines ended by CR alone.
- LibreOffice Calc, Text CSV with "Quote all text cells": UTF-8 without a byte-order mark, LF, every
  text cell in double quotes, numbers bare; ',' or ';' as chosen.
- Google Sheets, Download > CSV: UTF-8 without a byte-order mark, CRLF, minimal quoting, no line end
  after the last row.
- Numbers, Export To > CSV: UTF-8, LF, minimal quoting (';' in locales with a decimal comma).
"""

from __future__ import annotations

from collections.abc import Callable

Rows = list[list[str]]


def _quote_needed(cell: str, sep: str) -> str:
    if any(ch in cell for ch in (sep, '"', "\n", "\r")):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _quote_text(cell: str, sep: str) -> str:
    """LibreOffice's "Quote all text cells": a cell that is not a number is quoted."""
    try:
        float(cell.replace(",", "."))
        return cell
    except ValueError:
        return '"' + cell.replace('"', '""') + '"' if cell else ""


def _table(rows: Rows, sep: str, end: str, quote: Callable[[str, str], str], last_end: bool = True) -> str:
    text = end.join(sep.join(quote(c, sep) for c in row) for row in rows)
    return text + (end if last_end else "")


def excel_windows(rows: Rows, sep: str = ",") -> bytes:
    return _table(rows, sep, "\r\n", _quote_needed).encode("cp1252")


def excel_utf8(rows: Rows, sep: str = ",") -> bytes:
    return b"\xef\xbb\xbf" + _table(rows, sep, "\r\n", _quote_needed).encode("utf-8")


def excel_unicode_text(rows: Rows) -> bytes:
    return b"\xff\xfe" + _table(rows, "\t", "\r\n", _quote_needed).encode("utf-16-le")


def excel_mac(rows: Rows) -> bytes:
    return _table(rows, ",", "\r", _quote_needed).encode("mac_roman")


def libreoffice(rows: Rows, sep: str = ",") -> bytes:
    return _table(rows, sep, "\n", _quote_text).encode("utf-8")


def libreoffice_utf16be(rows: Rows) -> bytes:
    """LibreOffice's "Unicode (UTF-16)" filter setting, big-endian."""
    return b"\xfe\xff" + _table(rows, ",", "\n", _quote_text).encode("utf-16-be")


def google_sheets(rows: Rows) -> bytes:
    return _table(rows, ",", "\r\n", _quote_needed, last_end=False).encode("utf-8")


def numbers(rows: Rows, sep: str = ",") -> bytes:
    return _table(rows, sep, "\n", _quote_needed).encode("utf-8")


def with_empty_columns(rows: Rows, n: int = 3) -> Rows:
    """Every row with `n` empty cells after it: Excel keeps a column whose cells were cleared (or deleted
    from the header only) in the used range, and writes `;;;` on every row."""
    return [row + [""] * n for row in rows]


def with_empty_rows(rows: Rows, n: int = 3) -> Rows:
    """Rows of empty cells after the table: cells once formatted or cleared stay in Excel's used range."""
    return rows + [[""] * len(rows[0]) for _ in range(n)]


def without_zeros(rows: Rows, column: str) -> Rows:
    """The column's ids as numbers, as a spreadsheet stores '0301' typed into a General cell: 301."""
    c = rows[0].index(column)
    return [rows[0]] + [row[:c] + [str(int(row[c])) if row[c].isdigit() else row[c]] + row[c + 1 :] for row in rows[1:]]


def xlsx_workbook(rows: list[list], sheet: str = "Sheet1", formats: dict[tuple[int, int], str] | None = None) -> bytes:
    """An .xlsx as Excel keeps it: text cells as text, numbers as numbers (`rows` hold both), and a number
    format on some cells ((row, column), 1-based -> format, e.g. '0000')."""
    import io

    import openpyxl

    book = openpyxl.Workbook()
    ws = book.active
    ws.title = sheet
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            if value is None or value == "":
                continue
            cell = ws.cell(row=r, column=c, value=value)
            if formats and (r, c) in formats:
                cell.number_format = formats[(r, c)]
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


ODS_CONTENT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.3"><office:body><office:spreadsheet><table:table table:name="{sheet}">
<table:table-column table:number-columns-repeated="1024"/>{rows}
<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
</table:table></office:spreadsheet></office:body></office:document-content>"""


def ods_workbook(rows: list[list], sheet: str = "Sheet1", shown: dict[tuple[int, int], str] | None = None) -> bytes:
    """An .ods as LibreOffice Calc saves it: each cell its value and the text it displays (`shown`: a number
    cell's displayed text, e.g. 0404 for 404 formatted 0000), runs of spaces as <text:s/>, the sheet's empty
    tail as repeated rows and cells."""
    import io
    import zipfile
    from xml.sax.saxutils import escape

    def cell(r: int, c: int, value) -> str:
        if value is None or value == "":
            return "<table:table-cell/>"
        if isinstance(value, int | float):
            text = (shown or {}).get((r, c), str(value))
            return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{text}</text:p></table:table-cell>'
        text = escape(str(value)).replace("  ", ' <text:s text:c="1"/>')
        return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'

    body = "".join(
        "<table:table-row>"
        + "".join(cell(r, c, v) for c, v in enumerate(row, start=1))
        + '<table:table-cell table:number-columns-repeated="1010"/></table:table-row>'
        for r, row in enumerate(rows, start=1)
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", ODS_CONTENT.format(sheet=sheet, rows=body))
    return out.getvalue()
