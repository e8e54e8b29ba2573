"""Places open to some units only, for some turns (may-arrive-in-hex-set, e.g. Typhoon 14.1.3 d: Axis supply
units may also enter at Lgov once it is an Axis supply source, from turn 10 in Scenario #5; BfM's Soviet
Replacement Edge: the triple-arrow hexes on turns 1-3 and 13-14).

Such a rule checks nothing by itself: the code and arrival checks (follow-setup-codes, arrive-in-hex-set)
accept the hexes it opens for the units it selects on the turns it covers."""

from __future__ import annotations

from collections.abc import Iterator

from authoring.diagnostics import Diagnostic
from authoring.hexgrid import Hex
from authoring.model import Counter, RuleSpec
from authoring.rules.board import Board
from authoring.rules.selectors import selects


def openings(board: Board) -> tuple[RuleSpec, ...]:
    """The may-arrive-in-hex-set rules in force (most set-ups have none: the arrival checks then skip the rest)."""
    return tuple(r for r in board.rules if r.type == "may-arrive-in-hex-set")


def also_open(
    board: Board, counter: Counter | None, turn: int | None, rules: tuple[RuleSpec, ...] | None = None
) -> frozenset[Hex]:
    """The hexes may-arrive-in-hex-set rules in force (`rules`, when the caller has them) open to this unit on
    this turn (None: a pool with no turn, open only to rules without a turn window)."""
    out: frozenset[Hex] = frozenset()
    for r in openings(board) if rules is None else rules:
        if not selects(r.params, counter):
            continue
        first, last, only = r.params.get("from_turn"), r.params.get("to_turn"), r.params.get("turns")
        if turn is None and (first is not None or last is not None or only):
            continue
        if turn is not None and ((first is not None and turn < first) or (last is not None and turn > last)):
            continue
        if turn is not None and only and turn not in only:
            continue
        out |= board.hexsets.resolve(r.params["hex_set"]) or frozenset()
    return out


def check_may_arrive_in_hex_set(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Read by the code and arrival checks (`also_open`); it reports nothing itself."""
    return iter(())
