"""One predefined set-up per scenario: a .vsav regenerated from the scenario data on every build.

Units go on the VASSAL centre of their hex at their starting face; off-map units, pools and
reinforcements wait in their boxes of the reinforcement window (reinforcements on the box of
their arrival turn, with a reminder chit where units are withdrawn). Pieces sharing a spot
are joined in a VASSAL stack, as the engine's own saves do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from authoring.model import Game, Scenario
from authoring.model.frozen import frozen
from authoring.vassal import archive, draws
from authoring.vassal.boards import BoardPlan, hex_position
from authoring.vassal.boxes import BoxSpec
from authoring.vassal.codec import Definition, Nesting, encode, nest
from authoring.vassal.pieces import DEAD_MAP, MAIN_MAP, TRACK_MAP, withdrawal_image, withdrawal_piece
from authoring.vassal.traits import Piece

STACK_TYPE = "stack"
FIRST_PIECE_ID = 1000


@frozen
class Placed:
    """One piece of a set-up: what, where (map window pixel) and, for hexes, which hex."""

    name: str
    counter: str | None
    map: str
    x: int
    y: int
    label: str = ""
    box: str = ""


def titled(ident: str) -> str:
    """`replacement-pool` -> `Replacement Pool`."""
    return " ".join(word.capitalize() for word in ident.replace("_", "-").split("-"))


def turn_box(turn: int) -> str:
    return f"Turn {turn}"


def pool_box(game: Game, side: str, pool_id: str, name: str = "") -> str:
    return f"{game.side(side).name} {name or titled(pool_id)}"


def box_loads(game: Game, scenario: Scenario) -> dict[str, int]:
    """How many pieces the scenario's set-up puts in each box of the reinforcement window."""
    loads: dict[str, int] = {}

    def add(box: str, n: int) -> None:
        loads[box] = loads.get(box, 0) + n

    for o in scenario.off_map:
        add(pool_box(game, o.side, o.box), len(o.units))
    for r in scenario.reinforcements:
        add(turn_box(r.turn), len(r.units))
    for w in scenario.withdrawals:
        add(turn_box(w.turn), 1)
    for p in scenario.pools:
        add(pool_box(game, p.side, p.id, p.name), len(p.units))
    for group in game.box_groups:  # a side using one box of a group gets them all (Typhoon 11.1.2)
        for side in sorted({o.side for o in scenario.off_map if o.box in group.boxes}):
            for box in group.boxes:
                add(pool_box(game, side, box), 0)
    for spec in draws.boxes(scenario):
        add(spec.region, 1)
    return loads


def track_sections(game: Game, scenarios: Sequence[Scenario] | None = None) -> list[tuple[str, list[BoxSpec]]]:
    """(section title, boxes) of the reinforcement window of `scenarios` (default: all), each box
    sized for the largest stack one of them starts in it."""
    if scenarios is None:
        scenarios = [game.scenarios[k] for k in sorted(game.scenarios)]
    last = max(
        [t.turn for s in scenarios for t in s.turns]
        + [r.turn for s in scenarios for r in (*s.reinforcements, *s.withdrawals)]
        + [1]
    )
    most: dict[str, int] = {}
    for s in scenarios:
        for box, n in box_loads(game, s).items():
            most[box] = max(most.get(box, 0), n)
    turns = [BoxSpec(turn_box(t), turn_box(t), most.get(turn_box(t), 1)) for t in range(1, last + 1)]
    pools = sorted(name for name in most if name not in {b.region for b in turns})
    sections = [("Reinforcements and withdrawals by turn", turns)]
    if pools:
        sections.append(("Off-map boxes and pools", [BoxSpec(name, name, max(1, most[name])) for name in pools]))
    return sections


@dataclass(frozen=True)
class SetupContext:
    """What a set-up needs from the rest of the build."""

    game: Game
    plans: tuple[BoardPlan, ...]
    boxes: Mapping[str, tuple[str, int, int]]
    """region name -> (map name, x, y)."""
    piece_for: Callable[[str, str | None], Piece]
    """(counter id, state) -> palette piece at that face."""
    board_maps: Sequence[tuple[str, Sequence[archive.BoardPlacement]]]
    encoded: dict[int, tuple] = field(default_factory=dict, compare=False, repr=False)
    """Per piece (by identity): its encoded type and outer states, shared by every scenario of a build
    that passes the same dict (a unit placed in five scenarios is encoded once)."""
    types: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Counter id -> its piece's encoded type, when already made (the palette's): `piece_for` changes
    a piece's face, which is state, never its type."""
    extra: Sequence[tuple[str, Piece]] = ()
    """(box name, piece) every set-up adds besides the scenario's own (the Victory window's scoreboard)."""


def placements(ctx: SetupContext, scenario: Scenario) -> list[tuple[Placed, Piece]]:
    """Every piece the scenario starts with, in data order."""
    game = ctx.game
    grids = {m: game.maps[m].grid for m in game.maps}
    out = []
    for p in (*scenario.setup, *scenario.markers):
        if p.hex is None:
            continue
        map_id = _map_of(game, scenario, p.label)
        board, x, y = hex_position(ctx.plans, grids, map_id, p.hex)
        for unit in p.units:
            out.append((Placed(_name(ctx, unit), unit, MAIN_MAP, x, y, label=p.label), ctx.piece_for(unit, p.state)))
    for o in scenario.off_map:
        out += _in_box(ctx, pool_box(game, o.side, o.box), o.units, o.state)
    for r in scenario.reinforcements:
        out += _in_box(ctx, turn_box(r.turn), r.units, r.state)
    for i, w in enumerate(scenario.withdrawals):
        text = "Withdraw: " + ", ".join(_name(ctx, u) for u in w.units)
        map_name, x, y = ctx.boxes[turn_box(w.turn)]
        chit = withdrawal_piece(text, withdrawal_image(scenario.id, i))
        out.append((Placed(text, None, map_name, x, y, box=turn_box(w.turn)), chit))
    for pool in scenario.pools:
        out += _in_box(ctx, pool_box(game, pool.side, pool.id, pool.name), pool.units, None)
    for box, piece in ctx.extra:
        map_name, x, y = ctx.boxes[box]
        out.append((Placed(piece.basic.name, None, map_name, x, y, box=box), piece))
    return out


def _name(ctx: SetupContext, unit: str) -> str:
    return ctx.piece_for(unit, None).basic.name


def _in_box(ctx: SetupContext, box: str, units: Sequence[str], state: str | None) -> list[tuple[Placed, Piece]]:
    map_name, x, y = ctx.boxes[box]
    return [(Placed(_name(ctx, u), u, map_name, x, y, box=box), ctx.piece_for(u, state)) for u in units]


def _map_of(game: Game, scenario: Scenario, label: str) -> str:
    """The map whose printed ids include `label` (scenario maps first)."""
    for map_id in (*scenario.maps, *sorted(game.maps)):
        if map_id in game.maps and game.maps[map_id].grid.label_to_hex(label) is not None:
            return map_id
    raise ValueError(f"hex {label!r} is on no map of the game")


def saved_game(ctx: SetupContext, scenario: Scenario, date_ms: int, extra: Sequence[str] = ()) -> bytes:
    """The scenario's .vsav: boards, every piece, stacks for shared spots, then `extra` restore commands."""
    return archive.zip_bytes(saved_game_files(ctx, scenario, date_ms, extra))


def saved_game_files(
    ctx: SetupContext, scenario: Scenario, date_ms: int, extra: Sequence[str] = ()
) -> dict[str, bytes]:
    """`saved_game`'s zip members, not yet zipped."""
    pieces: list[tuple[Definition, str]] = []
    spots: dict[tuple[str, int, int], list[str]] = {}
    for index, (placed, piece) in enumerate(placements(ctx, scenario)):
        piece_id = str(FIRST_PIECE_ID + index)
        pieces.append((_placed_definition(ctx, piece, placed), piece_id))
        spots.setdefault((placed.map, placed.x, placed.y), []).append(piece_id)
    next_id = FIRST_PIECE_ID + len(pieces)
    for (map_name, x, y), ids in _stack_order(spots):
        if len(ids) > 1:
            state = encode([map_name, str(x), str(y), *ids], ";")
            pieces.append((Definition(STACK_TYPE, state), str(next_id)))
            next_id += 1
    game = ctx.game
    return archive.saved_game_files(
        game.name, game.version, ctx.board_maps, pieces, date_saved_ms=date_ms, description=scenario.name, extra=extra
    )


def _placed_definition(ctx: SetupContext, piece: Piece, placed: Placed) -> Definition:
    """``piece.at(...).definition()``, the type and the outer traits' states encoded once per piece
    (`ctx.encoded`, by identity): a placement changes only the BasicPiece's state."""
    parts = ctx.encoded.get(id(piece))
    if parts is None or parts[0] is not piece:
        known = ctx.types.get(placed.counter) if placed.counter else None
        type_ = known if known is not None else nest([t.type_string() for t in piece.traits])
        parts = (piece, type_, Nesting([t.state_string() for t in piece.traits[:-1]]), piece.basic.state_tail())
        ctx.encoded[id(piece)] = parts
    return Definition(parts[1], parts[2](piece.basic.state_at(placed.map, placed.x, placed.y, parts[3])))


def _stack_order(spots: Mapping[tuple[str, int, int], list[str]]) -> list[tuple[tuple[str, int, int], list[str]]]:
    """Stacks on the box maps first, then the main map's, the one nearest the middle of the set-up last.

    With the Player's default "center on opponent's moves" preference, every piece a saved game
    adds scrolls its map to show it (`AddPiece.executeCommand` -> `Map.ensureVisible`), so the last
    one added on the main map decides where its window opens."""
    main = [(spot, ids) for spot, ids in spots.items() if spot[0] == MAIN_MAP]
    if not main:
        return sorted(spots.items())
    cx = sum(x for (_, x, _), _ in main) / len(main)
    cy = sum(y for (_, _, y), _ in main) / len(main)
    others = sorted(item for item in spots.items() if item[0][0] != MAIN_MAP)
    nearest_last = sorted(main, key=lambda item: (-((item[0][1] - cx) ** 2 + (item[0][2] - cy) ** 2), item[0]))
    return others + nearest_last


def box_positions(dead: Sequence, track: Sequence) -> dict[str, tuple[str, int, int]]:
    """region name -> (window, x, y) for the dead-pile and reinforcement boxes."""
    out = {b.name: (DEAD_MAP, b.x, b.y) for b in dead}
    out.update({b.name: (TRACK_MAP, b.x, b.y) for b in track})
    return out


def withdrawal_chits(game: Game) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """Image name -> (side, the leaving units' designations) of every scenario's withdrawal chits: each chit
    shows who leaves, not a bare "OUT"."""
    out = {}
    for sid in sorted(game.scenarios):
        for i, w in enumerate(game.scenarios[sid].withdrawals):
            names = tuple(c.designation or c.id for u in w.units if (c := game.counters.get(u)) is not None)
            out[withdrawal_image(sid, i)] = (w.side, names)
    return out
