"""Turn record, reinforcements, withdrawals and pools (rules-spec "Always-on generic checks: schedules")."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import (
    HW_SCHED_001,
    HW_SCHED_002,
    HW_SCHED_004,
    HW_SCHED_005,
    HW_SCHED_006,
    HW_SCHED_007,
)
from authoring.diagnostics.zeros import padded, zeros_help
from authoring.hexgrid import Hex
from authoring.model import RuleSpec
from authoring.rules.board import START_KINDS, Board
from authoring.rules.codes import resolve_at
from authoring.rules.selectors import describe, selects


def _span(board: Board) -> str:
    turns = [t.turn for t in board.scenario.turns]
    return f"{min(turns)}-{max(turns)}" if turns else "none"


def check_turn_record(board: Board) -> Iterator[Diagnostic]:
    """The turn record counts up by one from its first turn, with no repeats."""
    turns = board.scenario.turns
    for i, t in enumerate(turns[1:], start=1):
        want = turns[0].turn + i
        if t.turn != want:
            yield HW_SCHED_005.at(
                f"turn {t.turn} is entry {i + 1} of the turn record, which starts at turn "
                f"{turns[0].turn}; expected turn {want}",
                t.loc,
                help="number the turns consecutively, each once",
                rule=board.game.cite(""),
            )
            return


def check_schedules(board: Board) -> Iterator[Diagnostic]:
    """Arrivals and withdrawals fall inside the turn record and arrive somewhere on the maps in play."""
    turns = {t.turn for t in board.scenario.turns}
    cite = board.game.cite("")
    boxes = {b.box for b in board.scenario.off_map} | {p.id for p in board.scenario.pools}
    places: dict[str, frozenset[Hex] | None] = {}  # a few arrival locations serve hundreds of arrivals
    for what, entries in (("reinforcement", board.scenario.reinforcements), ("withdrawal", board.scenario.withdrawals)):
        for s in entries:
            if s.turn not in turns:
                yield HW_SCHED_001.at(
                    f"{what} of {', '.join(s.units)} on turn {s.turn} is outside the turn record ({_span(board)})",
                    s.loc,
                    help="pick a turn of the scenario's turn record",
                    rule=cite,
                )
            if what == "reinforcement" and s.at:
                at = places[s.at] if s.at in places else places.setdefault(s.at, resolve_at(board, s.at))
                if not at and (at is not None or s.at not in boxes):
                    yield _arrival_error(board, s, at)
    for p in board.scenario.pools:
        if p.available is not None and p.available not in turns:
            yield HW_SCHED_004.at(
                f"pool {p.id} becomes available on turn {p.available}, outside the turn record ({_span(board)})",
                p.loc,
                help="pick a turn of the scenario's turn record",
                rule=cite,
            )


def _arrival_error(board: Board, s, at: frozenset[Hex] | None) -> Diagnostic:
    """An arrival location that names nothing (None), or nothing on the maps in play (empty)."""
    if at is None:
        wanted = padded(s.at, board.hexsets.label_to_hex)
        return HW_SCHED_002.at(
            f"arrival location {s.at!r} of {', '.join(s.units)} is not a hex, hex set, "
            "set-up code or off-map box of this scenario",
            s.loc,
            help=zeros_help([wanted], "hex id", s.loc.file if s.loc else "")
            if wanted
            else f"hex sets: {', '.join(board.hexsets.names()) or 'none'}",
            rule=board.game.cite(""),
        )
    return HW_SCHED_002.at(
        f"arrival location {s.at!r} of {', '.join(s.units)} has no hex on the maps in play "
        f"({', '.join(board.scenario.maps)})",
        s.loc,
        help="pick a location on the scenario's maps, or add the map it needs",
        rule=board.game.cite(""),
    )


def check_not_in_play_before(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units are not set up, arriving or available in a pool before `turn`."""
    first = spec.params["turn"]
    start = board.scenario.turns[0].turn if board.scenario.turns else 1
    for u in board.uses:
        if u.kind == "withdrawal" or not selects(spec.params, u.counter):
            continue
        turn = start if u.kind in START_KINDS else max(u.turn, start)
        if turn < first:
            how = {
                "setup": "is set up at the start",
                "off_map": f"starts in off-map box {u.place}",
                "reinforcement": f"arrives on turn {u.turn}",
                "pool": f"is available in pool {u.place} on turn {turn}",
            }
            yield HW_SCHED_006.at(
                f"{u.unit} {how[u.kind]}, but may not be in play before turn {first}",
                u.loc,
                help=f"bring {u.unit} in on turn {first} or later",
                rule=board.game.cite(spec.rule),
                hex=u.label,
            )


_POOL_FIELDS = MappingProxyType({"cost": "cost", "available": "availability turn", "at": "entry location"})


def check_pool_cost(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected pools state what `requires` names: a cost (VP) and an availability turn by default, and
    an entry location where the rules list one (e.g. Typhoon 14.4; 14.1.6 for the Axis pools)."""
    params = spec.params
    wanted = params.get("requires") or ("cost", "available")
    for p in board.scenario.pools:
        if not pool_selected(board, params, p):
            continue
        given = {"cost": p.cost, "available": p.available, "at": p.at or None}
        missing = [k for k in wanted if given[k] is None]
        if missing:
            yield HW_SCHED_007.at(
                f"pool {p.id} states no {' and no '.join(_POOL_FIELDS[k] for k in missing)}",
                p.loc,
                help=f"add {', '.join(f'`{k}:`' for k in missing)} to pool {p.id} ({describe(params)})",
                rule=board.game.cite(spec.rule),
            )


def pool_selected(board: Board, params, pool) -> bool:
    """Whether a pool rule's selectors pick the pool: its side, and one of its units for the others."""
    if "side" in params and pool.side != params["side"]:
        return False
    if "units" in params and not set(pool.units) & set(params["units"]):
        return False
    return not any(k in params for k in ("nationality", "unit_type", "size", "flag")) or any(
        selects(params, board.counter(u)) for u in pool.units
    )


def entry_required(board: Board, pool) -> bool:
    """Whether a pool-cost rule in force already requires the pool to state its entry (its finding stands)."""
    return any(
        r.type == "pool-cost" and "at" in (r.params.get("requires") or ()) and pool_selected(board, r.params, pool)
        for r in board.rules
    )
