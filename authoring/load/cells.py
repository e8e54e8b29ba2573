"""Where a CSV file's cells are, worked out when a position is asked for.

A YAML file's positions come from its parser, one per value. A CSV file's come from its lines: a
row's line number and where each cell of that line starts. Storing one entry per cell cost a
counters file of 1,080 rows two tables of 14,000 entries (the rows as read, then the counters made
from them), of which loading reads two a counter and an error report one. These mappings hold the
rows and find a cell's line and column on request, with the same answers the tables gave.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_CSV_008

Pos = tuple[int, int]


def cell_problem(path: str, where: Pos, name: str, cell: str, rule) -> Diagnostic:
    """HW-CSV-008: a cell that does not match its column's rule (`rule`: pattern, what it is, the help)."""
    return HW_CSV_008.at(f"{cell!r} in column {name!r} is not {rule[1]}", Loc(path, *where), help=rule[2])


def cell_starts(line: str, delimiter: str) -> list[int]:
    """1-based character columns where each CSV cell of one physical line starts."""
    if '"' not in line:  # no quotes (most lines): the cells are the pieces between delimiters
        starts, at = [], 1
        for piece in line.split(delimiter):
            starts.append(at)
            at += len(piece) + 1
        return starts
    starts, quoted = [1], False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            starts.append(i + 2)
    return starts


class Positions(Mapping[tuple, Pos]):
    """A read-only path -> (line, col) mapping whose `get` works a position out."""

    def get(self, path: tuple, default: Pos | None = None) -> Pos | None:  # type: ignore[override]
        raise NotImplementedError

    def __getitem__(self, path: tuple) -> Pos:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __len__(self) -> int:
        return sum(1 for _ in self)


class RowCells(Positions):
    """Positions in a table's rows (`Source.data`): `()` is the file, `(i,)` row i (its line, column 1), `(i,
    name)` its non-empty cell under column `name` (a name written twice: the last). Where a cell of a line
    starts is the kind of table's (`column`)."""

    def __init__(self, header: Sequence[str], rows: Sequence[tuple[int, list[str]]]):
        self._rows = rows  # each kept row: (its first line, its cells, trimmed)
        self._columns: dict[str, list[int]] = {}
        for c, name in enumerate(header):
            self._columns.setdefault(name, []).insert(0, c)  # last column first

    def column(self, line_no: int, c: int) -> int:
        """The 1-based column at which cell `c` of the row on line `line_no` starts."""
        raise NotImplementedError

    def get(self, path: tuple, default: Pos | None = None) -> Pos | None:  # type: ignore[override]
        if not path:
            return (1, 1)
        i = path[0]
        if type(i) is not int or not 0 <= i < len(self._rows) or len(path) > 2:
            return default
        line_no, cells = self._rows[i]
        if len(path) == 1:
            return (line_no, 1)
        for c in self._columns.get(path[1], ()):
            if c < len(cells) and cells[c]:
                return (line_no, self.column(line_no, c))
        return default

    def __iter__(self) -> Iterator[tuple]:
        yield ()
        for i in range(len(self._rows)):
            yield (i,)
            yield from ((i, name) for name in self._columns if self.get((i, name)) is not None)


class CsvCells(RowCells):
    """A CSV file's rows: a cell's column is the character where it starts on its line."""

    def __init__(
        self, lines: Sequence[str], delimiter: str, header: Sequence[str], rows: Sequence[tuple[int, list[str]]]
    ):
        super().__init__(header, rows)
        self._lines, self._delimiter = lines, delimiter

    def renamed(self, header: Sequence[str]) -> CsvCells:
        """The same cells under new column names (a set-up card's header as spelled, matched to its columns)."""
        return CsvCells(self._lines, self._delimiter, header, self._rows)

    def column(self, line_no: int, c: int) -> int:
        starts = cell_starts(self._lines[line_no - 1], self._delimiter) if line_no <= len(self._lines) else []
        return starts[c] if c < len(starts) else 1


class SheetCells(RowCells):
    """A workbook sheet's rows: a position is the sheet's (row, column), as a spreadsheet names its cells."""

    def renamed(self, header: Sequence[str]) -> SheetCells:
        """The same cells under new column names (as `CsvCells.renamed`)."""
        return SheetCells(header, self._rows)

    def column(self, line_no: int, c: int) -> int:
        return c + 1


class CounterCells(Positions):
    """Positions in the counters shape made from CSV rows (`resolve_counters.rows_to_counters`), each
    the position of the cell its value came from: `("counters", i)` is row i, `("counters", i, field)`
    the field's cell, `("counters", i, "faces", k)` the last cell of the row's k-th face, and
    `("counters", i, "faces", k, "values", name)` (or `..., k, "image")` the cell of that face value."""

    def __init__(
        self,
        cells: Mapping[tuple, Pos],
        fields: Mapping[str, str],
        face_cells: Mapping[tuple[str, tuple], str],
        faces: Sequence[tuple[str, ...]],
    ):
        self._cells = cells  # the CSV rows' positions (CsvCells)
        self._fields = fields  # counter field -> its column
        self._face_cells = face_cells  # (state, path in the face: ("values", name) or ("image",)) -> its column
        self._faces = faces  # per row: the states of its faces, in order
        self._face_columns: dict[str, list[str]] = {}
        for (state, _name), raw in face_cells.items():
            self._face_columns.setdefault(state, []).insert(0, raw)  # last column first

    def get(self, path: tuple, default: Pos | None = None) -> Pos | None:  # type: ignore[override]
        n = len(path)
        if n <= 1:
            return (1, 1) if path in ((), ("counters",)) else default
        i = path[1]
        if path[0] != "counters" or type(i) is not int or not 0 <= i < len(self._faces):
            return default
        if n == 2:
            return self._cells.get((i,), default)
        if n == 3:
            raw = self._fields.get(path[2])
            return default if raw is None else self._cells.get((i, raw), default)
        if path[2] != "faces" or type(path[3]) is not int or not 0 <= path[3] < len(self._faces[i]):
            return default
        state = self._faces[i][path[3]]
        if n == 4:
            return next(
                (pos for raw in self._face_columns.get(state, ()) if (pos := self._cells.get((i, raw))) is not None),
                default,
            )
        raw = self._face_cells.get((state, path[4:]))
        return default if raw is None else self._cells.get((i, raw), default)

    def __iter__(self) -> Iterator[tuple]:
        yield ()
        yield ("counters",)
        for i, states in enumerate(self._faces):
            yield ("counters", i)
            yield from (("counters", i, f) for f in self._fields if self.get(("counters", i, f)) is not None)
            for k, state in enumerate(states):
                yield ("counters", i, "faces", k)
                yield from (
                    ("counters", i, "faces", k) + inner
                    for (s, inner) in self._face_cells
                    if s == state and self.get(("counters", i, "faces", k) + inner) is not None
                )
