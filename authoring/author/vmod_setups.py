"""import-vmod's scenarios: each predefined set-up's saved game, and the at-start stacks, placed on the
imported maps' hexes or in boxes, every piece by the module's own slot of it."""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from authoring.author.vmod_common import TODO, ImportCounter, ImportPlan, Sizes, dump_yaml, signature, slug, unique
from authoring.author.vmod_maps import ImportedMap
from authoring.vmod.archive import DamagedMember, ModuleReadError
from authoring.vmod.buildfile import Finding, Module, Setup
from authoring.vmod.locate import board_origins, locate, locate_on_board
from authoring.vmod.pieces import FacePlan, Piece, Prototypes, basic_state, decode_placed, face_plan, layer_level
from authoring.vmod.savedgame import read_saved_game


@dataclass
class _Setups:
    """What placing a saved game's pieces needs: counters by signature (each signature's slots in module
    order, so that placed pieces use the module's own slots before copies are made), maps, windows."""

    module: Module
    maps: dict[str, ImportedMap]
    counters: dict[str, ImportCounter]
    plans: dict[str, FacePlan]
    protos: Prototypes
    sizes: Callable
    by_signature: dict[tuple, list[str]] = field(default_factory=dict)
    by_faces: dict[tuple, list[str]] = field(default_factory=dict)
    by_name: dict[str, list[str]] = field(default_factory=dict)
    by_stem: dict[tuple, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for c in self.counters.values():
            self.by_signature.setdefault(c.signature, []).append(c.id)
            self.by_faces.setdefault(tuple(c.signature[1]), []).append(c.id)
            self.by_name.setdefault(c.signature[0], []).append(c.id)
            self.by_stem.setdefault((c.signature[0], _stem(c.signature[1])), []).append(c.id)

    def slots_of(self, piece: Piece, faces: FacePlan) -> list[str]:
        """The slots a placed piece can be: same name and faces, else same faces; for a saved game of an
        older version of the module, whose images were named otherwise, the slots of the same name whose
        first image has the same stem (`1501.svg`, `1501.f.svg`), else the one slot of that name."""
        named = self.by_name.get(piece.name, [])
        return (
            self.by_signature.get(signature(piece, faces))
            or self.by_faces.get(tuple(faces.images))
            or self.by_stem.get((piece.name, _stem(faces.images)))
            or (named if len(named) == 1 else [])
        )

    def map_of(self, spot) -> str | None:
        return next(
            (mid for mid, m in self.maps.items() if m.shows(spot.board, spot.zone) and spot.hex in m.labels), None
        )


def _stem(images) -> str:
    """The first image's name up to its first dot."""
    return images[0].rsplit("/", 1)[-1].split(".", 1)[0] if images else ""


def import_scenarios(
    plan: ImportPlan,
    archive,
    module: Module,
    maps: dict[str, ImportedMap],
    counters: dict[str, ImportCounter],
    plans: dict[str, FacePlan],
    protos: Prototypes,
) -> dict[str, str]:
    """One scenario per predefined set-up; a piece placed n times in one set-up takes the module's n slots of
    that piece where it has them, and becomes copies past them."""
    ctx = _Setups(module, maps, counters, plans, protos, Sizes(archive))
    out: dict[str, str] = {}
    copies: Tally = Tally()
    for setup in module.setups:
        if not archive.has(setup.file):
            plan.findings.append(Finding(setup.where, f"set-up file {setup.file!r} is not in the module"))
            continue
        try:
            game = read_saved_game(archive.read(setup.file), setup.file)
        except DamagedMember:  # a damaged member is the module's, not one set-up's: nothing is imported
            raise
        except ModuleReadError as exc:
            plan.findings.append(Finding(setup.where, str(exc)))
            continue
        placements, in_play, used = _place(plan, ctx, setup, game)
        copies |= used
        sid = unique(slug(setup.name).lower() or "setup", out)
        out[sid] = _scenario_yaml(plan.game_id, sid, setup, placements, sorted(in_play) or sorted(maps)[:1])
    start = _at_start(plan, ctx)
    if start is not None:
        sid = unique("at-start", out)
        out[sid] = _scenario_yaml(plan.game_id, sid, AT_START, start[0], sorted(start[1]) or sorted(maps)[:1])
    for cid, n in copies.items():
        c = counters[cid]
        for k in range(2, n + 1):
            counters[copy_id(cid, k)] = ImportCounter(
                copy_id(cid, k), c.name, c.side, c.faces, (), c.where, c.level_names, c.prototypes, c.type, c.states
            )
    return out


def copy_id(cid: str, k: int) -> str:
    return f"{cid}.{k}"  # '.' never occurs in an id made from a name, so copies cannot clash


def _place(plan: ImportPlan, ctx: _Setups, setup, game) -> tuple[dict, set[str], Tally]:
    """(placements by (kind, side, hex or box, state), maps in play, copies needed per counter) of one saved
    game. A piece without a map of its own (older engines) is where its Stack or Deck is."""
    windows = {w.name: w for w in ctx.module.maps}
    origins = {name: board_origins(w, game.boards.get(name)) for name, w in windows.items()}
    placements: dict[tuple, list[str]] = {}
    taken: set[str] = set()
    extra: Tally = Tally()
    copies: Tally = Tally()
    in_play: set[str] = set()
    report = _Repeated(plan, setup)
    for placed in game.pieces:
        try:
            piece, types, trait_states = decode_placed(placed.type, placed.state, ctx.protos)
        except ValueError:
            report.add("undecodable", f"piece {placed.id} cannot be decoded")
            continue
        faces = face_plan(piece, ctx.sizes)
        slots = ctx.slots_of(piece, faces)
        map_name, x, y = basic_state(trait_states)
        if map_name not in windows and placed.id in game.holders:
            map_name, x, y = game.holders[placed.id]
        elif map_name not in windows and (x, y) in ctx.module.decks:
            map_name = ctx.module.decks[(x, y)]
        if not slots or map_name not in windows:
            report.add(*_unplaced(piece, faces, map_name, bool(slots)))
            continue
        spot = locate(windows[map_name], origins[map_name], x, y)
        cid = next((c for c in slots if c not in taken), slots[0])
        unit = cid
        if cid in taken:  # every slot of this piece is on the board already: a copy of the first
            extra[cid] += 1
            copies[cid] = max(copies[cid], extra[cid] + 1)
            unit = copy_id(cid, extra[cid] + 1)
        taken.add(cid)
        level = layer_level(piece, faces.layer, types, trait_states)
        face = faces.by_level.get(abs(level) if not piece.image else max(level, 0), 0)
        states = ctx.counters[cid].states
        state = states[face] if 0 < face < len(states) else None
        side = ctx.counters[cid].side
        _put(ctx, (placements, in_play, report), unit, side, spot, state, piece.name)
    report.flush()
    return placements, in_play, copies


def _unplaced(piece: Piece, faces: FacePlan, map_name: str, slotted: bool) -> tuple[str, str]:
    """The kind and text of the finding for a placed piece the import leaves out: why, and the piece by its
    name, else its image, else as a piece with neither (game logic or a text label, which no counter shows)."""
    what = (
        repr(piece.name)
        if piece.name
        else (f"a piece named only by its image {faces.images[0]!r}" if faces.images else "")
    )
    if not slotted and not faces.images:
        return "no image", f"{what or 'a piece with no name'} has no image, so no counter shows it; not imported"
    if not slotted:
        return "unmatched", f"{what} matches no piece slot; not imported"
    return "map", f"{what or 'a piece with no name'} is on unknown map {map_name!r}; not imported"


def _put(ctx: _Setups, into: tuple, unit: str, side: str, spot, state: str | None, name: str) -> None:
    """One piece on its hex of an imported map, else in the box named after its region, zone or board."""
    placements, in_play, report = into
    board_map = ctx.map_of(spot) if spot.hex else None
    if board_map:
        in_play.add(board_map)
        placements.setdefault(("setup", side, spot.hex, state), []).append(unit)
        return
    if spot.hex:
        report.add(
            "edge", f"{name!r} is on hex {spot.hex!r} at the board's edge, outside the imported map; put in a box"
        )
    box = slug(spot.box or spot.board or spot.map) or "box"
    placements.setdefault(("off_map", side, box, state), []).append(unit)


AT_START = Setup("At start", "at-start stacks", "/")
"""The scenario of the module's at-start stacks: what every new game begins with when no saved set-up is
loaded."""


def _at_start(plan: ImportPlan, ctx: _Setups) -> tuple[dict, set[str]] | None:
    """(placements, maps in play) of the pieces in at-start stacks: each slot is its own counter, at the
    stack's grid location or board position."""
    windows = {w.name: w for w in ctx.module.maps}
    by_where = {c.where: c.id for c in ctx.counters.values()}
    placements: dict[tuple, list[str]] = {}
    in_play: set[str] = set()
    report = _Repeated(plan, AT_START)
    found = False
    for slot in ctx.module.slots:
        start, cid = slot.at_start, by_where.get(slot.where)
        if start is None or cid is None:
            continue
        found = True
        window = windows.get(start.map)
        if window is None:
            report.add("map", f"{slot.entry_name!r} is in an at-start stack of no known map; not imported")
            continue
        spot = locate_on_board(window, start.board, start.x, start.y)
        if start.location:
            spot = replace(spot, hex=start.location)
        _put(ctx, (placements, in_play, report), cid, ctx.counters[cid].side, spot, None, slot.entry_name)
    report.flush()
    return (placements, in_play) if found else None


class _Repeated:
    """A set-up's findings of one kind: the first few as they are, then one line with the count of the rest."""

    SHOWN = 3

    def __init__(self, plan: ImportPlan, setup) -> None:
        self.plan, self.setup, self.kinds = plan, setup, {}

    def add(self, kind: str, text: str) -> None:
        seen = self.kinds.setdefault(kind, [])
        seen.append(text)
        if len(seen) <= self.SHOWN:
            self.plan.findings.append(Finding(self.setup.where, f"{self.setup.file}: {text}"))

    def flush(self) -> None:
        for _kind, seen in self.kinds.items():
            if len(seen) > self.SHOWN:
                self.plan.findings.append(
                    Finding(
                        self.setup.where,
                        f"{self.setup.file}: {len(seen) - self.SHOWN} "
                        f"more pieces like the {self.SHOWN} above ({len(seen)} in all)",
                    )
                )


def _scenario_yaml(gid: str, sid: str, setup, placements: dict, maps: list[str]) -> str:
    doc: dict = {
        "kind": "scenario",
        "game": gid,
        "id": sid,
        "name": setup.name,
        "note": f"{TODO}: imported from the module's set-up {setup.file!r}; write the turn record, "
        "victory conditions and set-up rules.",
        "maps": maps,
        "turns": [{"turn": 1, "note": f"{TODO}: the module has no turn record"}],
    }
    for (kind, side, where, state), units in placements.items():
        entry = {"hex" if kind == "setup" else "box": where, "units": units}
        if state:
            entry["state"] = state
        doc.setdefault(kind, {}).setdefault(side, []).append(entry)
    return dump_yaml("scenario", doc)
