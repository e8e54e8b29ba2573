"""Printed hex ids ("0712", "P4434", "C07"): formatting only.

Parsing is a dict lookup built once per map (`grid.MapGrid`), so no string
parsing runs in hot paths.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ("COLUMN_STYLES", "LabelFormat", "alpha_to_int", "int_to_alpha")

COLUMN_STYLES = ("numeric", "alpha")
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class LabelFormat:
    """How a map prints its hex ids: prefix, column, separator, row."""

    prefix: str = ""
    """Map prefix put before every id, e.g. "P" for "P4434"."""
    column_digits: int = 2
    """Numeric columns are zero-padded to at least this many digits."""
    row_digits: int = 2
    """Rows are zero-padded to at least this many digits."""
    column_style: str = "numeric"
    """"numeric", or "alpha" (1 = A, ..., 26 = Z, 27 = AA, 28 = AB, ...: spreadsheet style)."""
    separator: str = ""
    """Text between the column and the row."""
    row_first: bool = False
    """The row printed before the column (as VASSAL numbering with the other line first does)."""
    columns_descending: bool = False
    """Columns numbered from the east: the west-most prints the map's last column number."""
    rows_descending: bool = False
    """Rows numbered from the south: the north-most prints the map's last row number."""

    def __post_init__(self) -> None:
        if self.column_style not in COLUMN_STYLES:
            raise ValueError(f"Expected one of: {list(COLUMN_STYLES)} but received: {self.column_style!r}")
        for name in ("column_digits", "row_digits"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")

    def column_name(self, column: int) -> str:
        """The printed form of a column number."""
        if self.column_style == "alpha":
            return int_to_alpha(column)
        return _pad(column, self.column_digits)

    def row_name(self, row: int) -> str:
        return _pad(row, self.row_digits)

    def label(self, column: int, row: int) -> str:
        """The printed id of a printed (column, row)."""
        if self.row_first:
            return f"{self.prefix}{self.row_name(row)}{self.separator}{self.column_name(column)}"
        return f"{self.prefix}{self.column_name(column)}{self.separator}{self.row_name(row)}"


def _pad(value: int, digits: int) -> str:
    if value < 0:
        raise ValueError(f"printed numbers must be >= 0, got {value}")
    return str(value).zfill(digits)


def int_to_alpha(n: int) -> str:
    """Spreadsheet column letters: 1 -> "A", 26 -> "Z", 27 -> "AA", 28 -> "AB"."""
    if n < 1:
        raise ValueError(f"alphabetic columns start at 1 (A), got {n}")
    letters = []
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters.append(_ALPHABET[rem])
    return "".join(reversed(letters))


def alpha_to_int(text: str) -> int:
    """Inverse of `int_to_alpha`; ValueError on anything but upper-case letters."""
    if not text or any(ch not in _ALPHABET for ch in text):
        raise ValueError(f"Expected upper-case column letters but received: {text!r}")
    n = 0
    for ch in text:
        n = n * 26 + _ALPHABET.index(ch) + 1
    return n
