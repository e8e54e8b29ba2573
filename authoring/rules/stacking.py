"""Stacking at set-up, per CELL (an overlapping edge hex is one cell under two labels) and per side.

Models (rules-spec "Stacking"): count (units per hex), points (sum of stacking values; zero or
missing values stack free, Typhoon 3.2.3) and composition (unit sizes per side, e.g. 1941 3.1-3.2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_STACK_001, HW_STACK_002, HW_STACK_003
from authoring.model import Counter, RuleSpec
from authoring.rules.board import Board, Cell, Use

Unit = tuple[Use, Counter]
"""A use that counts for stacking, with its counter."""


def _units(board: Board, uses: tuple[Use, ...]) -> list[Unit]:
    """Uses that count for stacking: known counters that are not markers (`counts` says both)."""
    return [(u, u.counter) for u in uses if u.counts and u.counter is not None]


def check_stacking(board: Board) -> Iterator[Diagnostic]:
    spec = board.stacking
    if spec is None:
        return
    model = spec.params.get("model", "")
    check = MODELS.get(model)
    if check is None:
        return  # the schema refuses unknown models; nothing to enforce here
    composition = model == "composition"  # the one model whose limits depend on the cell (its terrain, features)
    alone = _over_alone(board, spec) if model == "points" else frozenset()
    # Most hexes hold one unit, and one unit breaks a limit only by its own points: unless a counter
    # does, only the hexes holding several are looked at.
    hexes = board.by_cell if alone else board.stacked
    for h in hexes:
        uses = board.by_cell[h]
        if len(uses) == 1 and uses[0].counter not in alone:
            continue
        units = _units(board, uses)
        if len(units) > 1 or model == "points":
            cell = board.cells.get(h) if composition else None
            for group in (units,) if composition or len(units) == 1 else _by_side(board, units):
                yield from check(board, spec, cell, group)


def _over_alone(board: Board, spec: RuleSpec) -> frozenset[Counter]:
    """The counters whose own stacking points exceed the limit (markers aside), found once per game and
    limit: a hex holding one unit is then settled without reading its counter (identity lookups)."""
    limit = spec.params["limit"]
    key = ("stacking points over", limit)
    found = board.shared.get(key)
    if found is None:
        found = board.shared[key] = frozenset(
            c for c in board.game.counters.values() if not c.marker and (c.stacking or 0) > limit
        )
    return found


def _by_side(board: Board, units: list[Unit]) -> list[list[Unit]]:
    """Each side's units in a hex: limits count a side's own units (enemy units there are HW-PLACE-003)."""
    groups: dict[str, list[Unit]] = {}
    for unit in units:
        groups.setdefault(unit[0].owner, []).append(unit)
    return list(groups.values())


def _count(board: Board, spec: RuleSpec, cell: Cell | None, units: list[Unit]) -> Iterator[Diagnostic]:
    limit = spec.params["limit"]
    if len(units) <= limit:
        return
    over = units[int(limit)][0]
    names = ", ".join(u.unit for u, _c in units)
    yield HW_STACK_001.at(
        f"{len(units)} units in hex {over.label}, limit is {limit:g}",
        over.loc,
        help=f"move {over.unit} to another hex (units here: {names})",
        rule=board.game.cite(spec.rule),
        hex=over.label,
    )


def _points(board: Board, spec: RuleSpec, cell: Cell | None, units: list[Unit]) -> Iterator[Diagnostic]:
    limit = spec.params["limit"]
    total = 0.0
    for u, c in units:
        total += c.stacking or 0
        if total > limit:
            worth = ", ".join(f"{x.unit} {xc.stacking or 0:g}" for x, xc in units)
            full = sum(xc.stacking or 0 for _x, xc in units)
            yield HW_STACK_002.at(
                f"{full:g} stacking points in hex {u.label}, limit is {limit:g}",
                u.loc,
                help=f"move {u.unit} to another hex (stacking points here: {worth}); units with value 0 stack free",
                rule=board.game.cite(spec.rule),
                hex=u.label,
            )
            return


def fits(sizes: Mapping[str, int], combo: Mapping[str, int]) -> bool:
    """Whether units of these sizes fill the combination: own-size slots first, the rest in '*' slots."""
    spill = sum(max(0, n - combo.get(size, 0)) for size, n in sizes.items() if size != "*")
    return spill <= combo.get("*", 0)


def side_combos(spec_params: Mapping, side: str, cell: Cell | None) -> tuple[list, str] | None:
    """The combinations a side must fit in a cell, and the rule that sets them; None = no limit."""
    rule = spec_params.get("rule", "")
    for o in spec_params.get("overrides", ()):
        if (
            o["side"] == side
            and cell is not None
            and (("feature" in o and cell.has(o["feature"])) or ("terrain" in o and o["terrain"] in cell.terrain))
        ):
            return list(o["combos"]), str(o.get("rule", rule))
    per = spec_params.get("per_side", {}).get(side)
    if per is None:
        return None
    return list(per["combos"]), str(per.get("rule", rule))


def _combo_text(combo: Mapping[str, int]) -> str:
    return " + ".join(f"{n} {'of any size' if k == '*' else k}" for k, n in combo.items())


def _composition(board: Board, spec: RuleSpec, cell: Cell | None, units: list[Unit]) -> Iterator[Diagnostic]:
    by_side: dict[str, list[Unit]] = {}
    for unit in units:
        by_side.setdefault(board.side_of(unit[0]), []).append(unit)
    for side, group in by_side.items():
        found = side_combos(spec.params, side, cell)
        if found is None:
            continue
        combos, rule = found
        sizes: dict[str, int] = {}
        for i, (_u, c) in enumerate(group):
            size = c.size or "*"
            sizes[size] = sizes.get(size, 0) + 1
            if not any(fits(sizes, c) for c in combos):
                yield _composition_error(board, side, group, i, combos, rule)
                break


def _composition_error(board: Board, side: str, group: list[Unit], i: int, combos: list, rule: str) -> Diagnostic:
    u = group[i][0]
    here = ", ".join(f"{x.unit} ({xc.size or 'no size'})" for x, xc in group)
    allowed = "; or ".join(_combo_text(c) for c in combos)
    return HW_STACK_003.at(
        f"{side} units in hex {u.label} fit no allowed stack: {here}",
        u.loc,
        help=f"move {u.unit} to another hex; {side} units here may stack as: {allowed}",
        rule=board.game.cite(rule),
        hex=u.label,
    )


ModelCheck = Callable[[Board, RuleSpec, Cell | None, list[Unit]], Iterator[Diagnostic]]
MODELS: Mapping[str, ModelCheck] = MappingProxyType({"count": _count, "points": _points, "composition": _composition})
