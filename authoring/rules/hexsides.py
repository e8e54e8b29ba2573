"""Rule types about what lies around a unit's start hex: a hexside feature on one of its sides
(adjacent-to-hexside, e.g. Typhoon 13.2.2: a bridge unit next to a river) and a friendly unit of a kind
within a range (near-unit, e.g. Typhoon 13.2.2 with 13.1.1: a Soviet bridge within four hexes of an HQ)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_PLACE_016, HW_PLACE_017
from authoring.hexgrid import Hex
from authoring.model import RuleSpec
from authoring.rules.board import Board
from authoring.rules.selectors import describe, selects


def _types(value) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (str(value),)


def hexes_beside(board: Board, kinds: tuple[str, ...]) -> frozenset[Hex]:
    """Hexes of the maps in play with a hexside of these feature types on one of their sides (once per run)."""
    key = ("hexes beside", board.maps, kinds)
    found = board.shared.get(key)
    if found is None:
        found = board.shared[key] = frozenset(
            h for m in board.maps for s in m.hexsides if s.type in kinds for h in s.side.hexes()
        )
    return found


def check_adjacent_to_hexside(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start on the map only in hexes with one of the hexside features on a side."""
    kinds = _types(spec.params["hexside"])
    beside = hexes_beside(board, kinds)
    wanted = " or ".join(kinds)
    for u, h in board.on_map():
        if h in beside or not selects(spec.params, u.counter):
            continue
        free = [x for x in beside if x not in board.by_cell]
        near = board.nearest(h, free or beside)
        hint = (
            f"; did you mean {board.label(near)}? (the nearest{' free' if free else ''} hex beside a {wanted})"
            if near is not None
            else f"; no hex of the maps in play lies beside a {wanted}"
        )
        yield HW_PLACE_016.at(
            f"{u.unit} starts in hex {board.describe(h, u.label)}, which has no {wanted} hexside",
            u.loc,
            help=f"{describe(spec.params)} start only beside a {wanted}{hint}",
            rule=board.game.cite(spec.rule),
            hex=u.label,
        )


def check_near_unit(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start on the map within `range` hexes of a unit of their own side that `of` selects,
    itself on the map (the hex it stands in not counted)."""
    of: Mapping = spec.params["of"]
    reach = int(spec.params["range"])
    anchors: dict[str, list[tuple[Hex, str]]] = {}
    for u, h in board.on_map():
        if selects(of, u.counter):
            anchors.setdefault(u.owner, []).append((h, u.unit))
    hexes = f"{reach} hex{'es' * (reach != 1)}"
    for u, h in board.on_map():
        if not selects(spec.params, u.counter):
            continue
        mine = [a for a, unit in anchors.get(u.owner, ()) if unit != u.unit]  # not the unit itself
        if any(h.distance(a) <= reach for a in mine):
            continue
        near = board.nearest(h, mine)
        where = (
            f"the nearest stands in {board.label(near)}, {h.distance(near)} hexes away"
            if near is not None
            else "none starts on the map"
        )
        yield HW_PLACE_017.at(
            f"{u.unit} starts in hex {board.describe(h, u.label)}, more than {hexes} from "
            f"the {u.owner} {describe(of)} ({where})",
            u.loc,
            help=f"{describe(spec.params)} start within {hexes} of one of their side's {describe(of)}",
            rule=board.game.cite(spec.rule),
            hex=u.label,
        )
