"""Where a unit may start: the hexes the placement rules in force leave it, for a set-up card's drop-down lists.

Each rule type that limits where a unit starts on the map says so here (`NARROWS`); a type that does not
(stacking, enemy units, counts per map) leaves the list as it is, so the list is what the unit alone may take,
and the card is still checked whole when it is read back. A unit-at rule (errata) puts its unit in its hex
whatever else says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from authoring.hexgrid import Hex
from authoring.model import Counter, Game, RuleSpec, Scenario
from authoring.rules.board import Board, build_board
from authoring.rules.codes import code_target, parse_on
from authoring.rules.engine import rules_in_force
from authoring.rules.placement import prohibited_terrain
from authoring.rules.selectors import selects

Hexes = frozenset[Hex]
Narrow = Callable[[Board, RuleSpec, Counter, Hexes], Hexes]


def _only_on_feature(board: Board, spec: RuleSpec, c: Counter, hexes: Hexes) -> Hexes:
    if not selects(spec.params, c):
        return hexes
    return frozenset(h for h in hexes if board.cells[h].has(spec.params["feature"]))


def _in_hex_set(board: Board, spec: RuleSpec, c: Counter, hexes: Hexes) -> Hexes:
    return hexes & (board.hexsets.resolve(spec.params["hex_set"]) or frozenset()) if selects(spec.params, c) else hexes


def _not_in_hex_set(board: Board, spec: RuleSpec, c: Counter, hexes: Hexes) -> Hexes:
    return hexes - (board.hexsets.resolve(spec.params["hex_set"]) or frozenset()) if selects(spec.params, c) else hexes


def _prohibited_terrain(board: Board, spec: RuleSpec, c: Counter, hexes: Hexes) -> Hexes:
    if not selects(spec.params, c):
        return hexes
    banned = set(spec.params.get("terrain") or ())
    return frozenset(h for h in hexes if not banned.intersection(board.cells[h].terrain))


def _follow_setup_codes(board: Board, spec: RuleSpec, c: Counter, hexes: Hexes) -> Hexes:
    """The hex or hex set a unit's printed code names (a code for a turn, a pool or a box: no hex at start)."""
    m = parse_on(board, c.setup_code, c.side, c) if c.setup_code else None
    only = spec.params.get("only")
    if m is None or (only and m.meaning not in only) or m.meaning == "any":
        return hexes
    target = code_target(board, m)
    return hexes & target if target is not None else frozenset()


NARROWS: Mapping[str, Narrow] = MappingProxyType(
    {
        "follow-setup-codes": _follow_setup_codes,
        "in-hex-set": _in_hex_set,
        "not-in-hex-set": _not_in_hex_set,
        "only-on-feature": _only_on_feature,
        "prohibited-terrain": _prohibited_terrain,
    }
)
"""Rule type -> how it narrows the hexes a unit may start in (every other type leaves them), applied in this
order: a code or a hex set leaves a few hexes, which the tests of each hex then look at."""


def start_hexes(
    game: Game, scenario: Scenario, units: Iterable[str], options: Iterable[str] = ()
) -> dict[str, list[str]]:
    """Unit id -> the printed ids of the hexes it may start in, in map order, under the rules in force with
    `options`. A unit not in the game's counters is left out."""
    rules, _stacking, _ = rules_in_force(game, scenario, tuple(options))
    board = build_board(game, scenario, None, rules)
    banned = set(prohibited_terrain(board))
    order = [h for h, cell in board.cells.items() if not banned.intersection(cell.terrain)]
    every = frozenset(order)
    rank = {h: i for i, h in enumerate(order)}
    errata = {str(r.params["unit"]): str(r.params["hex"]) for r in rules if r.type == "unit-at"}
    narrowing = sorted((r for r in rules if r.type in NARROWS), key=lambda r: list(NARROWS).index(r.type))
    out: dict[str, list[str]] = {}
    for unit in units:
        c = game.counters.get(unit)
        if c is None:
            continue
        if unit in errata:
            out[unit] = [errata[unit]]
            continue
        hexes = every
        for r in narrowing:
            hexes = NARROWS[r.type](board, r, c, hexes)
        out[unit] = [board.label(h) for h in sorted(hexes, key=rank.__getitem__)]
    return out
