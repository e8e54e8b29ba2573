"""Resolve scenarios and set-up cards: maps in play, hexes on those maps, units, sides and states."""

from __future__ import annotations

from sys import intern

from authoring.diagnostics.codes import (
    HW_CARD_001,
    HW_CARD_003,
    HW_DUP_005,
    HW_HEX_001,
    HW_HEX_002,
    HW_REF_002,
    HW_REF_003,
)
from authoring.diagnostics.rows import spans
from authoring.diagnostics.suggest import suggest
from authoring.diagnostics.zeros import padded, zeros_help
from authoring.hexgrid import Hex
from authoring.load.context import Ctx
from authoring.load.provenance import provenance
from authoring.load.resolve_game import rule_specs
from authoring.load.zeros import DroppedZeros
from authoring.model import (
    Draw,
    Map,
    OffMap,
    Option,
    OptionEffects,
    Placement,
    Pool,
    Scenario,
    Scheduled,
    SetupCard,
    Turn,
    TurnValues,
    Victory,
)
from authoring.model.game import frozen_map
from authoring.textcodec import is_sheet


class HexLookup:
    """Printed hex ids of the maps in play -> axial hexes (maps sharing edges share cells)."""

    def __init__(self, maps: list[Map]):
        self.maps = maps
        merged: dict[str, Hex] = {}
        for m in reversed(maps):  # an id two maps print (a shared cell) finds the first map's hex
            merged.update(m.grid.by_label().copy())  # the view's copy is its dict's: a C copy
        self.find = merged.get  # one C lookup (a scenario looks up every unit's hex)


def _hex(
    ctx: Ctx, lookup: HexLookup, all_maps: dict[str, Map], label: str, path: tuple, zeros: DroppedZeros | None = None
) -> Hex | None:
    h = lookup.find(label)
    if h is None:
        elsewhere = [m.id for m in all_maps.values() if m.grid.label_to_hex(label) is not None]
        wanted = padded(label, lookup.find)
        message = f"hex {label!r} is not on any map in play"
        if elsewhere:
            ctx.error(
                HW_HEX_002,
                f"hex {label!r} is on map {elsewhere[0]!r}, which this scenario does not use",
                path,
                help=f"add {elsewhere[0]!r} to the scenario's maps, or pick a hex on "
                f"{', '.join(m.id for m in lookup.maps)}",
            )
        elif wanted and zeros is not None:
            zeros.add(path, wanted, message)
            return lookup.find(wanted)  # checked where it was meant to be: no absence found for its hex
        else:
            ranges = "; ".join(
                f"map {m.id!r}: {m.grid.hex_to_label(m.grid.hexes[0])} to {m.grid.hex_to_label(m.grid.hexes[-1])}"
                for m in lookup.maps
            )
            ctx.error(
                HW_HEX_001,
                message,
                path,
                help=zeros_help([wanted], "hex", ctx.src.path)
                if wanted
                else f"hex ids are written as printed ({ranges})"
                if ranges
                else "the scenario has no maps",
            )
    return h


def _units(ctx: Ctx, counters: dict, units: list, path: tuple) -> tuple[tuple[str, ...], tuple]:
    """Unit ids interned, as counter ids are: the checks look every unit up by id several times, and an
    id that is the key itself is found without comparing text (a big game's keys are scattered in memory)."""
    out = tuple(map(intern, map(str, units)))
    for j, u in enumerate(out):
        if u not in counters:  # `ctx.ref` reports it (called only then)
            ctx.ref(u, counters, "counter", path + ("units", j), code=HW_REF_002)
    return out, ctx.src.item_locs(path + ("units",), len(out))


def _placements(ctx, defs, lookup, all_maps, counters, side, entries, base, zeros=None) -> list[Placement]:
    """The placements of one side: a loop that runs once per placement of the scenario, so lookups are
    bound once and the hex's error path (`_hex`) runs only for an id no map in play prints."""
    out = []
    find, loc, states = lookup.find, ctx.src.loc, defs["strength_states"]
    for i, e in enumerate(entries):
        path = base + (i,)
        label = str(e["hex"])
        h = find(label)
        if h is None:
            h = _hex(ctx, lookup, all_maps, label, path + ("hex",), zeros)
            label = padded(label, lookup.find) or label if h is not None else label  # the id it was meant to be
        units, locs = _units(ctx, counters, e["units"], path)
        state = e.get("state")
        if state is not None and state not in states:
            ctx.ref(state, states, "strength state", path + ("state",))
        out.append(Placement(side, label, h, units, state, loc(path), locs))
    return out


def resolve_scenario(ctx: Ctx, defs: dict, maps: dict[str, Map], counters: dict) -> Scenario | None:
    d = ctx.src.data
    in_play = []
    for i, m in enumerate(d["maps"]):
        if ctx.ref(m, maps, "map", ("maps", i), code=HW_REF_003):
            in_play.append(maps[m])
    lookup = HexLookup(in_play)
    sides = defs["sides"]
    turns = _turns(ctx, d["turns"])
    setup = []
    zeros = DroppedZeros(ctx, "hex id", "hex")
    for side, entries in (d.get("setup") or {}).items():
        if ctx.ref(side, sides, "side", ("setup", side)):
            setup += _placements(ctx, defs, lookup, maps, counters, side, entries, ("setup", side), zeros)
    zeros.report(HW_HEX_001)
    off_map = []
    for side, boxes in (d.get("off_map") or {}).items():
        ctx.ref(side, sides, "side", ("off_map", side))
        for i, b in enumerate(boxes):
            units, locs = _units(ctx, counters, b["units"], ("off_map", side, i))
            off_map.append(OffMap(side, b["box"], units, b.get("state"), ctx.loc(("off_map", side, i)), locs))
    reinf = _scheduled(ctx, counters, sides, d.get("reinforcements", []), "reinforcements", defs)
    withdrawals = _scheduled(ctx, counters, sides, d.get("withdrawals", []), "withdrawals", defs)
    pools = []
    for i, p in enumerate(d.get("pools", [])):
        ctx.ref(p["side"], sides, "side", ("pools", i, "side"))
        units, locs = _units(ctx, counters, p["units"], ("pools", i))
        pools.append(
            Pool(
                p["id"],
                p["side"],
                units,
                p.get("name", ""),
                p.get("available"),
                p.get("cost"),
                ctx.loc(("pools", i)),
                locs,
                str(p.get("at", "")),
            )
        )
    options = tuple(
        Option(
            o["id"],
            o["name"],
            bool(o.get("default", False)),
            o.get("description", ""),
            _effects(ctx, o, i),
            ctx.loc(("options", i)),
        )
        for i, o in enumerate(d.get("options", []))
    )
    seen_options: set[str] = set()
    for i, o in enumerate(options):  # `check --option ID` and the module's option list name options by id
        if o.id in seen_options:
            ctx.error(
                HW_DUP_005,
                f"duplicate option id {o.id!r}",
                ("options", i, "id"),
                help="give each option of the scenario its own id",
            )
        seen_options.add(o.id)
    victory = tuple(
        Victory(v) if isinstance(v, str) else Victory(v["text"], v.get("side", ""), v.get("points"))
        for v in d.get("victory", [])
    )
    return Scenario(
        d["id"],
        d["name"],
        tuple(m.id for m in in_play),
        turns,
        tuple(setup),
        tuple(off_map),
        reinf,
        withdrawals,
        tuple(pools),
        options,
        victory,
        rule_specs(d.get("setup_rules"), ctx, ("setup_rules",), "scenario"),
        frozen_map(d.get("values")),
        d.get("description", ""),
        ctx.src.path,
        ctx.loc(()),
        provenance(d),
        _draws(ctx, counters, sides, d.get("draws") or ()),
        _markers(ctx, lookup, maps, counters, d.get("markers") or ()),
    )


def _markers(ctx: Ctx, lookup: HexLookup, all_maps: dict[str, Map], counters: dict, items) -> tuple[Placement, ...]:
    """`markers`: a known counter (HW-REF-002) on each of its hexes, each on a map in play (HW-HEX-002)."""
    out = []
    for i, item in enumerate(items):
        cid = str(item["counter"])
        if not ctx.ref(cid, counters, "counter", ("markers", i, "counter"), code=HW_REF_002):
            continue
        side = counters[cid].side or ""
        for j, label in enumerate(item["hexes"]):
            path = ("markers", i, "hexes", j)
            h = _hex(ctx, lookup, all_maps, str(label), path)
            out.append(Placement(side, str(label), h, (cid,), None, ctx.loc(path), (ctx.loc(path),)))
    return tuple(out)


def _draws(ctx: Ctx, counters: dict, sides, items) -> tuple[Draw, ...]:
    """`draws`: secret random draws, each of known counters (HW-REF-002) for a known side (HW-REF-001)."""
    out = []
    for i, item in enumerate(items):
        ctx.ref(item["side"], sides, "side", ("draws", i, "side"))
        units = [str(u) for u in item["counters"]]
        for j, u in enumerate(units):
            ctx.ref(u, counters, "counter", ("draws", i, "counters", j), code=HW_REF_002)
        out.append(
            Draw(
                str(item["id"]),
                str(item.get("name", item["id"])),
                str(item["side"]),
                tuple(u for u in units if u in counters),
                str(item.get("rule", "")),
                ctx.loc(("draws", i)),
            )
        )
    return tuple(out)


def _effects(ctx: Ctx, option: dict, i: int) -> OptionEffects:
    """An option's effects as typed records (their shapes checked by the schema); every kind written is kept
    with its location, so the rules engine can refuse one it does not apply."""
    raw = option.get("effects") or {}
    path = ("options", i, "effects")
    changes = tuple(
        TurnValues(frozen_map(t["values"]), tuple(t.get("turns", ())), ctx.loc((*path, "turn_values", j)))
        for j, t in enumerate(raw.get("turn_values") or ())
    )
    return OptionEffects(
        rule_specs(raw.get("setup_rules"), ctx, (*path, "setup_rules"), f"option:{option['id']}"),
        tuple(str(x) for x in raw.get("with_options") or ()),
        changes,
        tuple(str(x) for x in raw.get("not_checked") or ()),
        tuple((str(kind), ctx.loc((*path, kind))) for kind in raw),
    )


def _turns(ctx: Ctx, items: list) -> tuple[Turn, ...]:
    return tuple(
        Turn(
            t["turn"],
            str(t.get("date", "")),
            str(t.get("weather", "")),
            tuple(t.get("notes", [])),
            frozen_map(t.get("values")),
            ctx.loc(("turns", i)),
        )
        for i, t in enumerate(items)
    )


def _scheduled(ctx, counters, sides, items, key, defs) -> tuple[Scheduled, ...]:
    out = []
    for i, r in enumerate(items or []):
        ctx.ref(r["side"], sides, "side", (key, i, "side"))
        if r.get("state") is not None:
            ctx.ref(r["state"], defs["strength_states"], "strength state", (key, i, "state"))
        units, locs = _units(ctx, counters, r["units"], (key, i))
        out.append(
            Scheduled(r["turn"], r["side"], units, str(r.get("at", "") or ""), r.get("state"), ctx.loc((key, i)), locs)
        )
    return tuple(out)


def resolve_card(
    ctx: Ctx, defs: dict, scenario: Scenario, maps: dict[str, Map], counters: dict, side: str | None
) -> SetupCard:
    """A set-up card (YAML entries or CSV rows hex,unit,state) resolved against a scenario's maps."""
    d = ctx.src.data
    lookup = HexLookup([maps[m] for m in scenario.maps])
    zeros = DroppedZeros(ctx, "hex id", "hex")
    strays: list[tuple[tuple, str]] = []  # rows of another side's units than the card's
    if isinstance(d, list):  # CSV rows
        # one unit a row: where it starts is what its findings are about, so they point at the row's hex cell
        entries = [{"hex": r.get("hex", ""), "units": [r.get("unit", "")], "state": r.get("state")} for r in d]
        placements = []
        for i, e in enumerate(entries):
            path = (i,)
            for col in ("hex", "unit"):
                if not d[i].get(col):
                    ctx.error(
                        HW_CARD_001,
                        f"row {ctx.loc(path).line} has no {col!r} cell",
                        path,
                        help="a set-up card CSV has the columns hex,unit,state",
                    )
            if not d[i].get("hex") or not d[i].get("unit"):
                continue
            h = _hex(ctx, lookup, maps, str(e["hex"]), path + ("hex",), zeros)
            unit = intern(str(e["units"][0]))
            ctx.ref(unit, counters, "counter", path + ("unit",), code=HW_REF_002)
            if _foreign(defs, counters, unit, side):
                strays.append((path + ("unit",), unit))
                continue  # not set up for `side`: its stacking, mix and side findings would only echo this one
            ctx.ref(e.get("state"), defs["strength_states"], "strength state", path + ("state",))
            owner = side or (counters[unit].side if unit in counters else "") or ""
            label = str(e["hex"]) if h is None else padded(str(e["hex"]), lookup.find) or str(e["hex"])
            placements.append(
                Placement(owner, label, h, (unit,), e.get("state"), ctx.loc(path), (ctx.loc(path + ("hex",)),))
            )
        zeros.report(HW_HEX_001)
        _report_strays(ctx, counters, strays, side, "--side")
        return SetupCard(tuple(placements), side, scenario.id, None, ctx.src.path)
    given, side = side, d.get("side") or side
    if side is not None:
        ctx.ref(side, defs["sides"], "side", ("side",))
    placements = _placements(ctx, defs, lookup, maps, counters, side or "", d["entries"], ("entries",), zeros)
    zeros.report(HW_HEX_001)
    strays = [
        (("entries", i, "units", j), u)
        for i, p in enumerate(placements)
        for j, u in enumerate(p.units)
        if _foreign(defs, counters, u, side)
    ]
    _report_strays(ctx, counters, strays, side, "`side:`" if d.get("side") else "--side" if given else "")
    if strays:  # left out, as a CSV card's rows are
        placements = [p for p in map(lambda p: _without(p, defs, counters, side), placements) if p.units]
    return SetupCard(tuple(placements), side, d.get("scenario"), d.get("game"), ctx.src.path)


def _foreign(defs: dict, counters: dict, unit: str, side: str | None) -> bool:
    """Whether `unit` belongs to a declared side other than `side`, the side a card sets up."""
    theirs = counters[unit].side if unit in counters else None
    return bool(side and theirs and theirs != side and theirs in defs["sides"] and side in defs["sides"])


def _without(p: Placement, defs: dict, counters: dict, side: str | None) -> Placement:
    """`p` without the units of another side than `side`."""
    keep = [j for j, u in enumerate(p.units) if not _foreign(defs, counters, u, side)]
    return Placement(
        p.side,
        p.label,
        p.hex,
        tuple(p.units[j] for j in keep),
        p.state,
        p.loc,
        tuple(p.unit_locs[j] for j in keep if j < len(p.unit_locs)),
    )


def _report_strays(ctx: Ctx, counters: dict, strays: list[tuple[tuple, str]], side: str | None, said: str) -> None:
    """HW-CARD-003, once for the card: rows whose units belong to another side than the one it sets up.
    One wrong `--side` on a card of both sides is one mistake, however many rows it moves."""
    if not strays:
        return
    path, unit = strays[0]
    theirs = sorted({counters[u].side for _p, u in strays})
    lines = sorted({ctx.loc(p).line for p, _u in strays})
    held = "rows hold units of" if is_sheet(ctx.src.path) else "of its units belong to"
    rows = f": {len(strays)} {held} side {' and '.join(theirs)} ({spans(lines)})" if len(strays) > 1 else ""
    fix = {
        "--side": "leave out --side (a card that holds units of several sides replaces each side's set-up), "
        "or remove these rows",
        "`side:`": f"change the card's `side:`, or move these units to a card of side {theirs[0]}",
    }
    ctx.error(
        HW_CARD_003,
        f"{unit} belongs to side {counters[unit].side}, but this card sets up side {side}{rows}",
        path,
        help=fix.get(said, f"move these units to a card of side {theirs[0]}"),
    )


__all__ = ("resolve_scenario", "resolve_card", "HexLookup", "suggest")
