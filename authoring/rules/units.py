"""Rule types and checks about units' starting states and whereabouts: strength states, off-map boxes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import (
    HW_PLACE_011,
    HW_PLACE_012,
    HW_STATE_001,
    HW_STATE_002,
    HW_STATE_003,
    HW_STATE_004,
)
from authoring.model import RuleSpec
from authoring.rules.board import START_KINDS, Board
from authoring.rules.selectors import describe, selects


def check_states_exist(board: Board) -> Iterator[Diagnostic]:
    """A unit's written state is one of its counter's faces (Typhoon 3.1.2: units start at the level shown)."""
    declared = {s.id for s in board.game.strength_states}
    for u in board.uses:
        c = u.counter
        if c is None or u.state not in declared or c.face(u.state) is not None:
            continue  # an undeclared state is the loader's finding (HW-REF-001)
        faces = ", ".join(f.state for f in c.faces)
        yield HW_STATE_001.at(
            f"{u.unit} has no {u.state!r} face; its faces are: {faces}",
            u.loc,
            help=f"use one of: {faces}",
            rule=board.game.cite(""),
            hex=u.label,
        )


def check_states(board: Board) -> Iterator[Diagnostic]:
    """HW-STATE-001 (a state the counter has no face for) and HW-STATE-003 (a card's state against the scenario's)."""
    yield from check_states_exist(board)
    yield from check_card_states(board)


def check_card_states(board: Board) -> Iterator[Diagnostic]:
    """A card sets each unit up at the state the scenario's set-up gives it (Typhoon 3.1.2), unless a
    start-state rule in force already says which state (that rule reports it)."""
    if board.card is None:
        return
    ruled = [r for r in board.rules if r.type == "start-state"]
    shown = _scenario_states(board)
    for u in board.kinds(*START_KINDS):
        want = shown.get(u.unit)
        if want is None or any(selects(r.params, u.counter) for r in ruled):
            continue
        state = board.state_of(u)
        if state != want:
            written = "" if u.state else " (its first face, as no state is written)"
            yield HW_STATE_003.at(
                f"{u.unit} starts at state {state!r}{written}, but the scenario sets it up at {want!r}",
                u.loc,
                help=f"write state {want} for {u.unit}",
                rule=board.game.cite(""),
                hex=u.label,
            )


def _scenario_states(board: Board) -> Mapping[str, str]:
    out: dict[str, str] = {}
    for p in board.scenario.setup:
        for unit in p.units:
            c = board.counter(unit)
            state = p.state or (c.faces[0].state if c and c.faces else None)
            if state:
                out.setdefault(unit, state)
    return out


def check_start_state(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start (on the map or in an off-map box) at the given state."""
    want = spec.params["state"]
    for u in board.kinds(*START_KINDS):
        if not selects(spec.params, u.counter):
            continue
        state = board.state_of(u)
        if state != want:
            shown = f"state {state!r}" + ("" if u.state else " (its first face, as no state is written)")
            yield HW_STATE_002.at(
                f"{u.unit} starts at {shown}; {describe(spec.params)} start at {want!r}",
                u.loc,
                help=f"write state {want} for {u.unit}",
                rule=board.game.cite(spec.rule),
                hex=u.label,
            )


def check_arrival_state(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected reinforcements arrive at one of the allowed states (BfM Replacements: a unit a Replacement
    point creates is half strength); one written without a state arrives at its counter's first face."""
    allowed = tuple(spec.params["states"])
    for u in board.kinds("reinforcement"):
        if not selects(spec.params, u.counter):
            continue
        state = board.state_of(u)
        if state not in allowed:
            shown = f"state {state!r}" + ("" if u.state else " (its first face, as no state is written)")
            yield HW_STATE_004.at(
                f"{u.unit} arrives on turn {u.turn} at {shown}; {describe(spec.params)} arrive at "
                + " or ".join(repr(a) for a in allowed),
                u.loc,
                help=f"write state: {allowed[0]} on the reinforcement of {u.unit}",
                rule=board.game.cite(spec.rule),
            )


def check_not_on_map_at_start(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units are not in the set-up on the map."""
    for u, h in board.on_map():
        if selects(spec.params, u.counter):
            yield HW_PLACE_011.at(
                f"{u.unit} may not start on the map, but is set up in hex {board.describe(h, u.label)}",
                u.loc,
                help=f"remove {u.unit} from the set-up; it enters play later",
                rule=board.game.cite(spec.rule),
                hex=u.label,
            )


def check_in_box(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start in the named off-map box."""
    box = spec.params["box"]
    for u in board.kinds(*START_KINDS):
        if selects(spec.params, u.counter) and not (u.kind == "off_map" and u.place == box):
            hex_text = board.describe(u.hex, u.label) if u.hex else u.label
            where = f"off-map box {u.place}" if u.kind == "off_map" else f"hex {hex_text}"
            yield HW_PLACE_012.at(
                f"{u.unit} starts in {where}; {describe(spec.params)} start in off-map box {box}",
                u.loc,
                help=f"put {u.unit} in off-map box {box}",
                rule=board.game.cite(spec.rule),
                hex=u.label,
            )
