"""Rule types and checks about units' starting states and whereabouts: strength states, off-map boxes."""
from __future__ import annotations

from typing import Iterator

from authoring.diagnostics import Diagnostic, error
from authoring.model import RuleSpec
from authoring.rules.board import START_KINDS, Board
from authoring.rules.selectors import describe, selects


def check_states_exist(board: Board) -> Iterator[Diagnostic]:
    """A unit's written state is one of its counter's faces (Typhoon 3.1.2: units start at the level shown)."""
    declared = {s.id for s in board.game.strength_states}
    for u in board.uses:
        c = board.counter(u.unit)
        if c is None or u.state not in declared or c.face(u.state) is not None:
            continue  # an undeclared state is the loader's finding (HW-REF-001)
        faces = ", ".join(f.state for f in c.faces)
        yield error("HW-STATE-001", f"{u.unit} has no {u.state!r} face; its faces are: {faces}", u.loc,
                    help=f"use one of: {faces}", rule=board.game.cite(""), hex=u.label)


def check_start_state(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start (on the map or in an off-map box) at the given state."""
    want = spec.params["state"]
    for u in board.kinds(*START_KINDS):
        if not selects(spec.params, board.counter(u.unit)):
            continue
        state = board.state_of(u)
        if state != want:
            shown = f"state {state!r}" + ("" if u.state else " (its first face, as no state is written)")
            yield error("HW-STATE-002", f"{u.unit} starts at {shown}; {describe(spec.params)} start at {want!r}",
                        u.loc, help=f"write state {want} for {u.unit}", rule=board.game.cite(spec.rule), hex=u.label)


def check_not_on_map_at_start(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units are not in the set-up on the map."""
    for u in board.on_map():
        if selects(spec.params, board.counter(u.unit)):
            yield error("HW-PLACE-011", f"{u.unit} may not start on the map, but is set up in hex "
                        f"{board.describe(u.hex, u.label)}", u.loc,
                        help=f"remove {u.unit} from the set-up; it enters play later", rule=board.game.cite(spec.rule),
                        hex=u.label)


def check_in_box(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start in the named off-map box."""
    box = spec.params["box"]
    for u in board.kinds(*START_KINDS):
        if selects(spec.params, board.counter(u.unit)) and not (u.kind == "off_map" and u.place == box):
            hex_text = board.describe(u.hex, u.label) if u.hex else u.label
            where = f"off-map box {u.place}" if u.kind == "off_map" else f"hex {hex_text}"
            yield error("HW-PLACE-012", f"{u.unit} starts in {where}; {describe(spec.params)} start in off-map box {box}",
                        u.loc, help=f"put {u.unit} in off-map box {box}", rule=board.game.cite(spec.rule), hex=u.label)
