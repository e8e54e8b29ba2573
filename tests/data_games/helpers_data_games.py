"""Small lookups shared by the data-game tests."""

from __future__ import annotations


def hexinfo(game, label: str):
    """(map, HexInfo) of the first map printing `label`; AssertionError when no map has it."""
    for m in game.maps.values():
        h = m.grid.label_to_hex(label)
        if h is not None:
            return m, m.hexes[h]
    raise AssertionError(f"hex {label} is on no map")


def sides_of(m, kind: str) -> set[frozenset[str]]:
    """Hexside features of one type as sets of the two printed labels."""
    return {frozenset(m.label(h) for h in s.side.hexes()) for s in m.hexsides if s.type == kind}


def feature(info, ftype: str):
    """The first feature of a type on a hex, or None."""
    return next((f for f in info.features if f.type == ftype), None)
