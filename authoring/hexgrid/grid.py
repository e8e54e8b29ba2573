"""One map: its hexes and printed numbering, converted to axial `Hex` at the edges.

Printed (column, row) numbers are "offset coordinates" in Red Blob's terms
(https://www.redblobgames.com/grids/hexagons/#coordinates-offset). Every map sits
in a *global offset grid* shared by maps laid out together: its first printed
column/row is global column/row ``origin``. Axial coordinates are derived from
the global offset cell, so two maps that overlap on an edge give the shared
cells the same `Hex`.

Parity arithmetic (flat-top; pointy-top is the same with rows for columns).
A printed column ``c`` is shifted (half a hex lower) when ``c % 2`` is the
``shifted`` parity (0 for "even", 1 for "odd"). Its global column is
``C = origin_col + (c - first_column)``, so the shifted *global* columns are
those with ``C % 2 == (shift + origin_col - first_column) % 2``: the map's
`global_shift_parity`. Global column ``C`` then maps to axial by Red Blob's
"odd-q" rule when that parity is 1 and "even-q" when it is 0. Maps laid out
together must agree on it (see `multimap.MultiMapLayout`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from itertools import repeat
from types import MappingProxyType

from .coords import DIRECTIONS, Hex, direction_index, direction_name
from .labels import LabelFormat

__all__ = ("EDGES", "GridSpec", "MapGrid")

EDGES = ("north", "south", "east", "west")
_pair_as_hex = partial(tuple.__new__, Hex)
"""A (q, r) pair of ints as a `Hex`, in C: the grid's own arithmetic needs no type check per hex."""
_SHIFTS = MappingProxyType({"even": 0, "odd": 1})


@dataclass(frozen=True)
class GridSpec:
    """Shape and numbering of one printed map."""

    orientation: str
    """"flat": flat-top hexes in vertical columns; "pointy": pointy-top hexes in horizontal rows."""
    columns: int
    """Number of printed columns."""
    rows: int
    """Number of printed rows."""
    first_column: int = 1
    """Printed number of the west-most column."""
    first_row: int = 1
    """Printed number of the north-most row."""
    shifted: str = "even"
    """Which printed columns (flat) sit half a hex lower, or rows (pointy) half a hex right."""
    label: LabelFormat = field(default_factory=LabelFormat)
    """How hex ids are printed."""

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy"):
            raise ValueError(f"Expected one of: ['flat', 'pointy'] but received: {self.orientation!r}")
        if self.shifted not in _SHIFTS:
            raise ValueError(f"Expected one of: ['even', 'odd'] but received: {self.shifted!r}")
        for name in ("columns", "rows"):
            if type(getattr(self, name)) is not int or getattr(self, name) < 1:
                raise ValueError(f"{name} must be an int >= 1, got {getattr(self, name)!r}")
        low = 1 if self.label.column_style == "alpha" else 0
        if type(self.first_column) is not int or self.first_column < low:
            raise ValueError(f"first_column must be an int >= {low}, got {self.first_column!r}")
        if type(self.first_row) is not int or self.first_row < 0:
            raise ValueError(f"first_row must be an int >= 0, got {self.first_row!r}")

    @property
    def shift_parity(self) -> int:
        """Which column (flat) / row (pointy) indices, counted west to east / north to south from
        first_column / first_row, are shifted: `shifted` names printed numbers, and a descending line
        index i prints first + last - i."""
        parity = _SHIFTS[self.shifted]
        if self.orientation == "flat" and self.label.columns_descending:
            return (parity + self.first_column + self.last_column) % 2
        if self.orientation == "pointy" and self.label.rows_descending:
            return (parity + self.first_row + self.last_row) % 2
        return parity

    @property
    def last_column(self) -> int:
        return self.first_column + self.columns - 1

    @property
    def last_row(self) -> int:
        return self.first_row + self.rows - 1


def offset_to_axial(orientation: str, parity: int, col: int, row: int) -> Hex:
    """Global offset cell to axial; ``parity`` = which global columns/rows are shifted."""
    if orientation == "flat":
        return Hex(col, row - (col + (1 - 2 * parity) * (col & 1)) // 2)
    return Hex(col - (row + (1 - 2 * parity) * (row & 1)) // 2, row)


def axial_to_offset(orientation: str, parity: int, h: Hex) -> tuple[int, int]:
    """Inverse of `offset_to_axial`."""
    if orientation == "flat":
        return h.q, h.r + (h.q + (1 - 2 * parity) * (h.q & 1)) // 2
    return h.q + (h.r + (1 - 2 * parity) * (h.r & 1)) // 2, h.r


class MapGrid:
    """One map's hexes and printed ids, with O(1) conversions both ways.

    ``origin`` is the (column, row) index of this map's first printed column and
    row in the global offset grid shared with other maps (see module docstring);
    ``(0, 0)`` for a lone map.
    """

    __slots__ = ("spec", "origin", "hexes", "_by_label", "_label_of", "_offset_of")

    def __init__(self, spec: GridSpec, origin: tuple[int, int] = (0, 0)) -> None:
        self.spec = spec
        self.origin = (int(origin[0]), int(origin[1]))
        hexes, labels = self._cells()
        self._by_label: dict[str, Hex] = dict(zip(labels, hexes))
        if len(self._by_label) < len(labels):
            self._ambiguous(labels)
        self._label_of: dict[Hex, str] = dict(zip(hexes, labels))
        self._offset_of: dict[Hex, tuple[int, int]] | None = None  # see `_offsets`
        self.hexes: tuple[Hex, ...] = tuple(hexes)

    def _cells(self) -> tuple[list[Hex], list[str]]:
        """Every cell's hex and printed id, column by column (`_printed_offsets` order).

        A label is its column's part plus its row's part, each printed once (not once per hex), and
        the dicts are then zipped in C: building a 60x45 map's lookups was a tenth of a large game's load."""
        spec, fmt = self.spec, self.spec.label
        rows = range(spec.first_row, spec.last_row + 1)
        row_names = [fmt.row_name(r) for r in (reversed(rows) if fmt.rows_descending else rows)]
        column_sum = spec.first_column + spec.last_column if fmt.columns_descending else None
        parity, flat = self.global_shift_parity, spec.orientation == "flat"
        dc, dr = self.origin[0] - spec.first_column, self.origin[1] - spec.first_row
        hexes: list[Hex] = []
        labels: list[str] = []
        for col in range(spec.first_column, spec.last_column + 1):
            column = fmt.column_name(col if column_sum is None else column_sum - col)
            if fmt.row_first:
                tail = f"{fmt.separator}{column}"
                labels += [fmt.prefix + name + tail for name in row_names]
            else:
                head = f"{fmt.prefix}{column}{fmt.separator}"
                labels += [head + name for name in row_names]
            if flat:  # down a flat-top column, r grows by one a row
                q, r0 = offset_to_axial("flat", parity, col + dc, spec.first_row + dr)
                hexes += map(_pair_as_hex, zip(repeat(q), range(r0, r0 + len(rows))))
            else:
                hexes += [offset_to_axial("pointy", parity, col + dc, r + dr) for r in rows]
        return hexes, labels

    def _printed_offsets(self) -> list[tuple[int, int]]:
        """Every cell's printed (column, row), column by column."""
        spec = self.spec
        rows = range(spec.first_row, spec.last_row + 1)
        return [(col, row) for col in range(spec.first_column, spec.last_column + 1) for row in rows]

    def _offsets(self) -> dict[Hex, tuple[int, int]]:
        """Hex -> printed (column, row), made when first needed (drawing, edges): loading never asks."""
        if self._offset_of is None:
            self._offset_of = dict(zip(self.hexes, self._printed_offsets()))
        return self._offset_of

    def _ambiguous(self, labels: list[str]) -> None:
        """Raise for the first printed id two cells share (too few digits for the map's size)."""
        first: dict[str, tuple[int, int]] = {}
        for label, (col, row) in zip(labels, self._printed_offsets()):
            if label in first:
                other = first[label]
                raise ValueError(
                    f"ambiguous numbering: column {col} row {row} and column {other[0]} "
                    f"row {other[1]} both print as {label!r}; raise column_digits or row_digits"
                )
            first[label] = (col, row)

    def __repr__(self) -> str:
        return f"MapGrid({self.spec!r}, origin={self.origin!r})"

    def __contains__(self, h: object) -> bool:
        return h in self._label_of

    def __len__(self) -> int:
        return len(self.hexes)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    @property
    def global_shift_parity(self) -> int:
        """Which global columns (flat) / rows (pointy) are shifted: 0 even, 1 odd."""
        spec = self.spec
        if spec.orientation == "flat":
            return (spec.shift_parity + self.origin[0] - spec.first_column) % 2
        return (spec.shift_parity + self.origin[1] - spec.first_row) % 2

    def is_shifted(self, index: int) -> bool:
        """Whether the column (flat) or row (pointy) at this index (west to east, north to south, from
        first_column / first_row; the printed number unless descending) sits half a hex lower/right."""
        return index % 2 == self.spec.shift_parity

    # -- conversions -------------------------------------------------------

    def label_to_hex(self, label: str) -> Hex | None:
        """The hex printed ``label``; None when it is not a hex of this map."""
        return self._by_label.get(label) if isinstance(label, str) else None

    def by_label(self) -> MappingProxyType[str, Hex]:
        """Every printed id and its hex, in map order (a read-only view: joining maps reads it whole)."""
        return MappingProxyType(self._by_label)

    def labels(self) -> Mapping[Hex, str]:
        """Every hex and its printed id, in map order (a read-only view)."""
        return MappingProxyType(self._label_of)

    def hex_to_label(self, h: Hex) -> str:
        """The printed id of a hex; KeyError when it is not on this map."""
        try:
            return self._label_of[h]
        except KeyError:
            raise KeyError(f"{h} is not on this map") from None

    def offset_to_hex(self, column: int, row: int) -> Hex:
        """Hex at PRINTED column/row numbers; ValueError when off the map."""
        spec = self.spec
        if not (spec.first_column <= column <= spec.last_column and spec.first_row <= row <= spec.last_row):
            raise ValueError(f"column {column} row {row} is off the map")
        return self.offset_to_hex_unbounded(column, row)

    def offset_to_hex_unbounded(self, column: int, row: int) -> Hex:
        """Like `offset_to_hex` but also for cells beyond the map's edges."""
        spec = self.spec
        gcol = self.origin[0] + column - spec.first_column
        grow = self.origin[1] + row - spec.first_row
        return offset_to_axial(spec.orientation, self.global_shift_parity, gcol, grow)

    def hex_to_offset(self, h: Hex) -> tuple[int, int]:
        """PRINTED (column, row) of a hex; KeyError when it is not on this map."""
        try:
            return self._offsets()[h]
        except KeyError:
            raise KeyError(f"{h} is not on this map") from None

    # -- edges and directions ---------------------------------------------

    def edge_hexes(self, edge: str) -> tuple[Hex, ...]:
        """Hexes along one map edge: north = first row, west = first column, etc."""
        index, value = self._edge_key(edge)
        rows = self.spec.rows  # `hexes` runs column by column, each column north to south (`_cells`)
        if index == 0:
            start = (value - self.spec.first_column) * rows
            return self.hexes[start : start + rows]
        return self.hexes[value - self.spec.first_row :: rows]

    def edge_of(self, h: Hex) -> frozenset[str]:
        """The map edges a hex lies on (empty for interior hexes)."""
        offset = self.hex_to_offset(h)
        keys = {e: self._edge_key(e) for e in EDGES}
        return frozenset(e for e, (index, value) in keys.items() if offset[index] == value)

    def _edge_key(self, edge: str) -> tuple[int, int]:
        spec = self.spec
        keys = {
            "west": (0, spec.first_column),
            "east": (0, spec.last_column),
            "north": (1, spec.first_row),
            "south": (1, spec.last_row),
        }
        if edge not in keys:
            raise ValueError(f"Expected one of: {list(EDGES)} but received: {edge!r}")
        return keys[edge]

    def exit_directions(self, h: Hex) -> tuple[int, ...]:
        """Directions from ``h`` whose neighbour is off this map (its map-edge sides)."""
        if h not in self._label_of:
            raise KeyError(f"{h} is not on this map")
        return tuple(i for i, d in enumerate(DIRECTIONS) if (h + d) not in self._label_of)

    def direction_name(self, d: int) -> str:
        """Compass name of a direction for this map's orientation (N, NE ... / NW, NE, E ...)."""
        return direction_name(self.spec.orientation, d)

    def direction_index(self, name: str) -> int:
        """Direction index of a compass name for this map's orientation; ValueError if invalid."""
        return direction_index(self.spec.orientation, name)
