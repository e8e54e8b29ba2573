"""A set-up card as an .xlsx workbook: the CSV card's rows, each cell with a drop-down list of what it may hold.

The `unit` cells offer the side's units, the `state` cells the strength states, and each row's `hex` cell the
hexes its unit may start in (`rules.where.start_hexes`); the blank rows below, for units a player adds, offer
every hex a unit of the side may take. The lists live on a hidden sheet, so a list of 6,000 hexes fits (a list
typed into the validation itself holds 255 characters). A value off the list is warned about, not refused:
the card is checked whole when it is read back (`check --card`, `import-setup`).

The hex column is formatted as text, so a hex typed as 0404 keeps its zero. The bytes are reproducible:
fixed document dates, and the archive rewritten with fixed member times.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Mapping, Sequence

LISTS = "Lists"
BLANK_ROWS = 20
"""Rows left for units a player adds, each with the drop-down lists."""
FIXED_TIME = dt.datetime(2000, 1, 1)
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def card_workbook(
    rows: Sequence[Sequence[str]],
    side_name: str,
    units: Sequence[str],
    states: Sequence[str],
    hexes: Mapping[str, Sequence[str]],
) -> bytes:
    """The card's workbook: `rows` as `setup_io.card_rows` makes them (header first), `hexes`: unit -> the hexes
    it may start in (a unit absent: no list on its row)."""
    import openpyxl  # deferred: ARCHITECTURE.md's table
    from openpyxl.worksheet.datavalidation import DataValidation

    book = openpyxl.Workbook()
    book.properties.created = book.properties.modified = FIXED_TIME
    book.properties.creator = "hexwright"
    card = book.active
    card.title = _sheet_title(f"{side_name} set-up")
    lists = book.create_sheet(LISTS)
    lists.sheet_state = "hidden"
    header, body = list(rows[0]), [list(r) for r in rows[1:]]
    card.append(header)
    for r, row in enumerate(body, start=2):
        for c, value in enumerate(row, start=1):
            card.cell(row=r, column=c, value=value).data_type = "s"  # text, never a formula or a number
    columns = {name: i + 1 for i, name in enumerate(header)}
    last = len(body) + 1 + BLANK_ROWS
    for r in range(2, last + 1):
        card.cell(row=r, column=columns["hex"]).number_format = "@"
    card.column_dimensions["A"].width = 10
    card.column_dimensions["B"].width = max(12, *(len(u) + 2 for u in units)) if units else 12
    card.freeze_panes = "A2"

    ranges = _write_lists(lists, units, states, hexes, body, columns)
    _validate(card, DataValidation, f"{_col(columns['unit'])}2:{_col(columns['unit'])}{last}", ranges["units"], "unit")
    _validate(
        card, DataValidation, f"{_col(columns['state'])}2:{_col(columns['state'])}{last}", ranges["states"], "state"
    )
    hex_col = _col(columns["hex"])
    for r, ref in ranges["rows"].items():
        _validate(card, DataValidation, f"{hex_col}{r}", ref, "hex")
    if body or BLANK_ROWS:
        _validate(card, DataValidation, f"{hex_col}{len(body) + 2}:{hex_col}{last}", ranges["any"], "hex")
    out = io.BytesIO()
    book.save(out)
    return _fixed_times(out.getvalue())


def _write_lists(lists, units, states, hexes, body, columns) -> dict:
    """The hidden sheet's columns: units, states, the union of hexes, then one column per distinct hex list;
    returns the ranges each validation names."""
    every = list(dict.fromkeys(h for u in units for h in hexes.get(u, ())))
    columns_out: list[list[str]] = [list(units), list(states), every]
    index: dict[tuple[str, ...], int] = {}
    rows: dict[int, str] = {}
    for r, row in enumerate(body, start=2):
        found = tuple(hexes.get(str(row[columns["unit"] - 1]), ()))
        if not found:
            continue
        if found not in index:
            index[found] = len(columns_out)
            columns_out.append(list(found))
        rows[r] = _range(index[found], len(found))
    for c, values in enumerate(columns_out, start=1):
        for r, value in enumerate(values, start=1):
            lists.cell(row=r, column=c, value=value).number_format = "@"
    return {
        "units": _range(0, len(units)),
        "states": _range(1, len(states)),
        "any": _range(2, len(every)),
        "rows": rows,
    }


def _range(column: int, n: int) -> str:
    c = _col(column + 1)
    return f"{LISTS}!${c}$1:${c}${max(n, 1)}"


def _validate(sheet, DataValidation, cells: str, source: str, what: str) -> None:
    v = DataValidation(type="list", formula1=f"={source}", allow_blank=True, errorStyle="warning")
    v.error = f"not a {what} the set-up rules list for this row; `hexwright check --card` says why"
    v.errorTitle = f"Check this {what}"
    v.showErrorMessage = True
    sheet.add_data_validation(v)
    v.add(cells)


def _col(n: int) -> str:
    letters = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _sheet_title(text: str) -> str:
    """A sheet title Excel accepts: at most 31 characters, none of []:*?/\\."""
    cleaned = "".join("-" if ch in "[]:*?/\\" else ch for ch in text)
    return cleaned[:31] or "Set-up"


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def _fixed_times(data: bytes) -> bytes:
    """The archive with every member at one fixed time, in the order openpyxl wrote them, and the document's
    modified date (which openpyxl sets to the clock as it saves) at the fixed one."""
    stamp = FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, _ZIP_TIME)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o600 << 16
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED.sub(lambda m: m.group(1) + stamp + m.group(2), body)
            dst.writestr(member, body)
    return out.getvalue()
