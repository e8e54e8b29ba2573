"""Where units come from: arrival hexes (arrive-in-hex-set) and every unit accounted for (order-of-battle
and set-up cards).

A missing unit is reported once, at the scenario (or card) that should hold it, saying where it belongs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_PLACE_013, HW_SCHED_008
from authoring.hexgrid import Hex
from authoring.model import Counter, RuleSpec
from authoring.rules.arrivals import also_open, openings
from authoring.rules.board import Board
from authoring.rules.codes import CodeMatch, code_target, parse_on, resolve_at
from authoring.rules.schedule import entry_required
from authoring.rules.selectors import describe, selects

# --- arrive-in-hex-set -------------------------------------------------------------------------------------------


def check_arrive_in_hex_set(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Reinforcements and pools of the selected units enter only inside the hex set (1941 14.1.1 A, Typhoon 14.1.5)."""
    name = spec.params["hex_set"]
    hexes = board.hexsets.resolve(name) or frozenset()
    cite = board.game.cite(spec.rule)
    coded = _codes_checked(board)
    stray: dict[tuple[str, str, frozenset[Hex]], Hex | None] = {}  # (at, side, open hexes) -> a hex outside them
    opened = openings(board)
    for r in board.scenario.reinforcements:
        picked = [u for u in r.units if selects(spec.params, board.counter(u)) and u not in coded]
        if picked and r.at:
            for extra, group in _by_extra(board, picked, r.turn, opened).items():
                open_ = hexes | extra if extra else hexes
                for d in _outside(
                    board, spec, open_, r.at, r.side, f"{', '.join(group)} (turn {r.turn})", r.loc, stray
                ):
                    yield _option_hint(board, d, group, r.turn)
    for p in board.scenario.pools:
        picked = [u for u in p.units if selects(spec.params, board.counter(u))]
        if not picked:
            continue
        if not p.at:
            if entry_required(board, p):
                continue  # the pool-cost rule's HW-SCHED-007 reports it
            yield HW_SCHED_008.at(
                f"pool {p.id} states no entry location",
                p.loc,
                help=f"add `at:` to pool {p.id}: its units enter in hex set {name} (or a part of it)",
                rule=cite,
            )
        else:
            extra = frozenset.intersection(*(also_open(board, board.counter(u), p.available, opened) for u in picked))
            open_ = hexes | extra if extra else hexes
            yield from _outside(board, spec, open_, p.at, p.side, f"pool {p.id}", p.loc, stray)


def _option_hint(board: Board, d: Diagnostic, units: list[str], turn: int) -> Diagnostic:
    """The finding, its help naming an option that is off and would open the hex to these units that turn
    (BfM: the triple-arrow hexes under Soviet Replacement Edge), so a player who forgot `--option` sees why."""
    on = {r.origin for r in board.rules}
    for o in board.scenario.options:
        if f"option:{o.id}" in on:
            continue
        rules = tuple(r for r in o.effects.setup_rules if r.type == "may-arrive-in-hex-set")
        if not rules:
            continue
        opened = frozenset.intersection(*(also_open(board, board.counter(u), turn, rules) for u in units))
        if any(board.label(h) == d.hex for h in opened):
            return replace(d, help=f"{d.help}; option {o.id} opens it on turn {turn} (check --option {o.id})")
    return d


def _by_extra(
    board: Board, units: list[str], turn: int, opened: tuple[RuleSpec, ...]
) -> dict[frozenset[Hex], list[str]]:
    """Units of one arrival grouped by the hexes may-arrive-in-hex-set rules also open to them that turn."""
    if not opened:
        return {frozenset(): units}
    out: dict[frozenset[Hex], list[str]] = {}
    for u in units:
        out.setdefault(also_open(board, board.counter(u), turn, opened), []).append(u)
    return out


def _codes_checked(board: Board) -> set[str]:
    """Units whose printed arrival code follow-setup-codes checks already (their arrival, one finding)."""
    follow = [r for r in board.rules if r.type == "follow-setup-codes"]
    if not follow:
        return set()
    only = [set(r.params.get("only", ())) for r in follow]
    errata = {r.params["unit"] for r in board.rules if r.type == "unit-at"}
    out = set()
    for r in board.scenario.reinforcements:
        for u in r.units:
            c = board.counter(u)
            m = parse_on(board, c.setup_code, c.side, c) if c else None
            if (
                m is not None
                and m.meaning == "turn-at"
                and u not in errata
                and any(not o or "turn-at" in o for o in only)
            ):
                out.add(u)
    return out


def _outside(
    board: Board,
    spec: RuleSpec,
    hexes: frozenset[Hex],
    at: str,
    side: str,
    who: str,
    loc: Loc | None,
    stray: dict[tuple[str, str, frozenset[Hex]], Hex | None],
) -> Iterator[Diagnostic]:
    key = (at, side, hexes)
    if key not in stray:
        found = resolve_at(board, at, side) or frozenset()  # naming nothing on the maps in play is HW-SCHED-002
        stray[key] = min(found - hexes, key=board.label, default=None)
    h = stray[key]
    if h is not None:
        name = spec.params["hex_set"]
        yield HW_SCHED_008.at(
            f"{who} enters at {at!r}, which reaches hex {board.describe(h)}, where they may not enter",
            loc,
            help=f"{describe(spec.params)} enter only in hex set {name}; name it, or a hex "
            "set inside it, as the arrival location",
            rule=board.game.cite(spec.rule),
            hex=board.label(h),
        )


# --- every unit accounted for ------------------------------------------------------------------------------------


def check_order_of_battle(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Reported by the generic HW-PLACE-013 check, so that a unit two rules (or a card) expect is reported once."""
    return iter(())


def check_accounted(board: Board) -> Iterator[Diagnostic]:
    """Every unit the scenario should hold is on a hex, in a box, pool or schedule: the units a set-up card
    replaces, and the units each order-of-battle rule in force selects."""
    expected: dict[str, tuple[str, Loc | None, RuleSpec | None]] = {}
    carded, covered = _card_expects(board)
    for unit, where in carded.items():
        expected[unit] = (where, Loc(board.card.path, 1, 1) if board.card and board.card.path else None, None)
    for order in (r for r in board.rules if r.type == "order-of-battle"):
        for c in board.game.counters.values():
            if c.id in expected or c.id in covered or c.marker or not selects(order.params, c):
                continue
            says = _code_says(board, order, c)
            if says is not None:
                expected[c.id] = (says, board.scenario.loc, order)
    left_empty: dict[str | None, int] = {}  # per side: one-per-feature hexes left empty, each reported by HW-PLACE-004
    for unit, (where, loc, spec) in expected.items():
        if unit in board.by_unit:
            continue
        c = board.counter(unit)
        side = c.side if c else ""
        if spec is not None:
            if side not in left_empty:
                left_empty[side] = _empty_feature_hexes(board, side)
            if left_empty[side] > 0:
                left_empty[side] -= 1  # the empty hex's finding stands for this unit
                continue
        fix = f"add {unit} to the card" if spec is None else f"add {unit} to the scenario"
        yield HW_PLACE_013.at(
            f"{unit} is on no hex, in no box, pool or schedule; {where}",
            loc,
            help=f"{fix}, where it belongs",
            rule=board.game.cite(spec.rule if spec else ""),
            related=(c.loc,) if c and c.loc else (),
        )


def _card_expects(board: Board) -> tuple[dict[str, str], set[str]]:
    """Units of the sides a card replaces that it leaves out (with where the scenario sets them up), and
    every unit the scenario sets up for those sides (the card, not an order-of-battle rule, answers for them).

    A card may swap units (BfM armies are alike), use one twice (HW-MIX-001) or leave a one-per-feature hex
    empty (HW-PLACE-004), so per side only as many units count as missing as the card is short after those."""
    if board.card is None:
        return {}, set()
    wanted: dict[str, dict[str, str]] = {}
    for p in board.scenario.setup:
        if board.card_sides is None or p.side in board.card_sides:
            for u in p.units:
                wanted.setdefault(p.side, {}).setdefault(u, f"the scenario sets it up in hex {p.label}")
    carded: dict[str, int] = {}
    for p in board.card.entries:
        for u in p.units:
            c = board.counter(u)
            side = c.side if c and c.side else p.side
            carded[side] = carded.get(side, 0) + 1
    out = {}
    for side, units in wanted.items():
        omitted = [u for u in units if u not in board.by_unit]
        short = len(units) - carded.get(side, 0) - _empty_feature_hexes(board, side)
        out.update({u: units[u] for u in omitted[: max(0, min(short, len(omitted)))]})
    return out, {u for units in wanted.values() for u in units}


def _empty_feature_hexes(board: Board, side: str | None) -> int:
    """Hexes that a one-per-feature rule for the side wants filled and that hold none of its units."""
    features = {r.params["feature"] for r in board.rules if r.type == "one-per-feature" and r.params["side"] == side}
    return sum(
        1
        for h, cell in board.cells.items()
        if any(cell.has(f) for f in features) and not any(board.side_of(u) == side for u in board.by_cell.get(h, ()))
    )


def _code_says(board: Board, spec: RuleSpec, c: Counter) -> str | None:
    """What the unit's code says, when the rule expects it in this scenario; None when it does not."""
    meanings = spec.params.get("codes")
    if meanings is None:
        return "the order of battle lists it"
    m = parse_on(board, c.setup_code, c.side, c)
    if m is None or m.meaning not in meanings or not _applies(board, m):
        return None
    return f"its code {m.code!r} says {m.text()}"


def _applies(board: Board, m: CodeMatch) -> bool:
    """A code names something of this scenario: hexes on its maps, a turn of its turn record."""
    if "turn" in m.groups and int(m.groups["turn"]) not in {t.turn for t in board.scenario.turns}:
        return False
    target = code_target(board, m)
    return target is None or bool(target)
