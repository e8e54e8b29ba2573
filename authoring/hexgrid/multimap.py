"""Several maps laid out together, sharing the cells on their overlapping edges.

Example (Typhoon's campaign layout, rules 2.1): maps N and M side by side share
one column, map P below shares one row. Give each `MapGrid` its place in one
global offset grid through ``origin`` (global column/row of its first printed
column/row)::

    N: origin (0, 0)                       columns 1..W, rows 1..H
    M: origin (W - 1, 0)                   M's first column is N's last column
    P: origin (k, H - 1)                   P's first row is N's (and M's) last row

A global cell then has one axial `Hex` whichever map names it, provided every
map agrees on which global columns (flat) / rows (pointy) are shifted: with both
maps numbered "even", N's last column ``W`` and M's first column ``1`` are the
same cell only when they have the same shift, i.e. ``W`` odd. The constructor
checks this (`MapGrid.global_shift_parity`) and raises ValueError otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from .coords import Hex
from .grid import MapGrid

__all__ = ("MultiMapLayout", "check_joinable")


class MultiMapLayout:
    """Maps keyed by name, placed in one global offset grid (see module docstring)."""

    __slots__ = ("maps", "hexes", "_by_label", "_labels_of", "_maps_of")

    def __init__(self, maps: Mapping[str, MapGrid]) -> None:
        if not maps:
            raise ValueError("a layout needs at least one map")
        self.maps: Mapping[str, MapGrid] = MappingProxyType(dict(maps))
        self._by_label = check_joinable(self.maps)
        labels_of: dict[Hex, tuple[str, ...]] = {}
        maps_of: dict[Hex, tuple[str, ...]] = {}
        for name, grid in self.maps.items():
            own = grid.labels()
            for h in labels_of.keys() & own.keys():  # cells on an edge shared with an earlier map
                labels_of[h] += (own[h],)
                maps_of[h] += (name,)
            alone = (name,)
            labels_of.update({h: (label,) for h, label in own.items() if h not in labels_of})
            maps_of.update({h: alone for h in own if h not in maps_of})
        self._labels_of = labels_of
        self._maps_of = maps_of
        self.hexes: frozenset[Hex] = frozenset(self._labels_of)

    def __repr__(self) -> str:
        return f"MultiMapLayout({dict(self.maps)!r})"

    def __contains__(self, h: object) -> bool:
        return h in self._labels_of

    def __len__(self) -> int:
        return len(self.hexes)

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.hexes))

    @property
    def orientation(self) -> str:
        return next(iter(self.maps.values())).spec.orientation

    def label_to_hex(self, label: str) -> Hex | None:
        """The hex any map prints as ``label``; None if no map has it."""
        return self._by_label.get(label) if isinstance(label, str) else None

    def labels_of(self, h: Hex) -> tuple[str, ...]:
        """Every printed id of a cell, in map order (two on an overlapping edge, () if none)."""
        return self._labels_of.get(h, ())

    def maps_of(self, h: Hex) -> tuple[str, ...]:
        """Names of the maps that hold a cell, in map order (() if none)."""
        return self._maps_of.get(h, ())


def check_joinable(maps: Mapping[str, MapGrid]) -> dict[str, Hex]:
    """Every printed id of the maps and its hex; ValueError when the maps cannot be laid out together
    (`_check_consistent`) or two of them print the same id on different hexes."""
    if not maps:
        raise ValueError("a layout needs at least one map")
    _check_consistent(maps)
    by_label: dict[str, Hex] = {}
    for grid in maps.values():
        own = grid.by_label()
        clashes = {label for label in by_label.keys() & own.keys() if by_label[label] != own[label]}
        if clashes:
            first = next(label for label in own if label in clashes)
            raise ValueError(f"label {first!r} names two different hexes; give the maps distinct prefixes")
        by_label.update(own)
    return by_label


def _check_consistent(maps: Mapping[str, MapGrid]) -> None:
    """All maps share an orientation and a global shift parity; ValueError otherwise."""
    (first_name, first), *rest = maps.items()
    for name, grid in rest:
        if grid.spec.orientation != first.spec.orientation:
            raise ValueError(
                f"map {name!r} is {grid.spec.orientation}-top but map {first_name!r} is {first.spec.orientation}-top"
            )
        if grid.global_shift_parity != first.global_shift_parity:
            lines = "columns" if first.spec.orientation == "flat" else "rows"
            raise ValueError(
                f"maps {first_name!r} and {name!r} disagree on which global {lines} are shifted: "
                f"move map {name!r}'s origin by one {lines[:-1]} or fix its 'shifted' parity"
            )
