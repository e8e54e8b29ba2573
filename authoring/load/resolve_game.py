"""Resolve the game manifest and rule tables into model parts (before maps, counters, scenarios)."""

from __future__ import annotations

from pathlib import Path

from authoring.budget import COUNTER_SIZE_IN
from authoring.diagnostics.codes import HW_DUP_001, HW_PATH_010, HW_PATH_011, HW_TABLE_001
from authoring.load.context import Ctx
from authoring.load.provenance import provenance
from authoring.model import (
    BoxGroup,
    Dice,
    LossCount,
    Nationality,
    PhaseAction,
    RuleSpec,
    Side,
    Table,
    TypeDef,
    VictoryCondition,
    VictoryRules,
    VictoryTrack,
)
from authoring.model.game import frozen_map
from authoring.readfile import kind_of
from authoring.safepath import UnsafePath, resolve_inside

_TYPE_KEYS = frozenset({"id", "name", "color", "symbol", "style", "width", "note"})


def type_defs(items: list | None, ctx: Ctx, path: tuple, what: str) -> tuple[TypeDef, ...]:
    out, seen = [], set()
    for i, item in enumerate(items or []):
        if item["id"] in seen:
            ctx.error(HW_DUP_001, f"duplicate {what} id {item['id']!r}", path + (i, "id"))
        seen.add(item["id"])
        extra = {k: v for k, v in item.items() if k not in _TYPE_KEYS}
        out.append(
            TypeDef(
                item["id"],
                item.get("name", item["id"]),
                item.get("color"),
                item.get("symbol"),
                item.get("style"),
                item.get("width"),
                frozen_map(extra),
                ctx.loc(path + (i,)),
            )
        )
    return tuple(out)


def rule_specs(items: list | None, ctx: Ctx, path: tuple, origin: str) -> tuple[RuleSpec, ...]:
    out = []
    for i, item in enumerate(items or []):
        params = {k: v for k, v in item.items() if k not in ("type", "rule", "note")}
        out.append(RuleSpec(item["type"], str(item.get("rule", "")), frozen_map(params), ctx.loc(path + (i,)), origin))
    return tuple(out)


def manifest_parts(ctx: Ctx) -> dict:
    """Everything in game.yaml except the maps, counters and scenarios it is joined with later."""
    d = ctx.src.data
    sides = tuple(Side(s["id"], s["name"], s["color"], s.get("text_color", "#000000")) for s in d["sides"])
    side_ids = {s.id for s in sides}
    nats = []
    for i, n in enumerate(d.get("nationalities", [])):
        ctx.ref(n["side"], side_ids, "side", ("nationalities", i, "side"))
        nats.append(
            Nationality(n["id"], n["side"], n["name"], n.get("abbrev", ""), n.get("color"), n.get("text_color"))
        )
    _check_unique(ctx, d.get("sides", []), ("sides",), "side")
    _check_unique(ctx, d.get("dice", []), ("dice",), "die", key="name")
    stacking = None
    if d.get("stacking"):
        st = d["stacking"]
        stacking = RuleSpec("stacking", str(st.get("rule", "")), frozen_map(st), ctx.loc(("stacking",)))
    hex_sets = d.get("hex_sets", {}) or {}
    layout = {k: tuple(v["origin"]) for k, v in (d.get("layout") or {}).items()}
    return dict(
        id=d["id"],
        name=d["name"],
        version=str(d.get("version", "1.0")),
        rules_ref=d.get("rules_ref", d["name"]),
        sides=sides,
        nationalities=tuple(nats),
        terrain=type_defs(d.get("terrain"), ctx, ("terrain",), "terrain"),
        hex_features=type_defs(d.get("hex_features"), ctx, ("hex_features",), "hex feature"),
        hexside_features=type_defs(d.get("hexside_features"), ctx, ("hexside_features",), "hexside feature"),
        paths=type_defs(d.get("paths"), ctx, ("paths",), "path type"),
        unit_types=type_defs(d.get("unit_types"), ctx, ("unit_types",), "unit type"),
        unit_sizes=type_defs(d.get("unit_sizes"), ctx, ("unit_sizes",), "unit size"),
        values=type_defs(d.get("values"), ctx, ("values",), "value"),
        strength_states=type_defs(d.get("strength_states"), ctx, ("strength_states",), "strength state"),
        flags=type_defs(d.get("flags"), ctx, ("flags",), "flag"),
        counter_size_in=ctx.length(("counter_size",), 0.625, "counter_size", COUNTER_SIZE_IN),
        dice=tuple(Dice(x["name"], x["sides"], x.get("zero_is")) for x in d.get("dice", [])),
        phases=tuple(d.get("phases", [])),
        stacking=stacking,
        setup_codes=tuple(frozen_map(c) for c in d.get("setup_codes", []) or []),
        setup_code_locs=tuple(ctx.loc(("setup_codes", i)) for i in range(len(d.get("setup_codes", []) or []))),
        setup_rules=rule_specs(d.get("setup_rules"), ctx, ("setup_rules",), "game"),
        hex_sets=frozen_map({k: frozen_map(v) for k, v in hex_sets.items()}),
        hex_set_locs=frozen_map({k: ctx.loc(("hex_sets", k)) for k in hex_sets}),
        layout=frozen_map(layout),
        publisher=d.get("publisher", ""),
        description=d.get("description", ""),
        rules_summary=d.get("rules_summary"),
        loc=ctx.loc(()),
        counter_layouts=tuple(d.get("counter_layouts") or ()),
        abbreviations=frozen_map({str(k): str(v) for k, v in (d.get("abbreviations") or {}).items()}),
        printed=tuple(frozen_map(p) for p in d.get("printed") or ()),
        printed_locs=tuple(ctx.loc(("printed", i)) for i in range(len(d.get("printed") or ()))),
        loss_boxes=tuple((str(b["id"]), str(b["name"])) for b in d.get("loss_boxes") or ())
        or (("eliminated", "Eliminated"),),
        phase_actions=phase_actions(ctx, side_ids),
        victory=victory(ctx, side_ids),
        box_groups=box_groups(ctx),
    )


def victory(ctx: Ctx, side_ids: set[str]) -> VictoryRules:
    """`victory`: VP counters, loss counts and conditions, each side, unit type and loss box they name known
    (HW-REF-001 otherwise) and each id once (HW-DUP-001)."""
    d = ctx.src.data.get("victory") or {}
    types = {str(t["id"]) for t in ctx.src.data.get("unit_types") or ()}
    boxes = [str(b["id"]) for b in ctx.src.data.get("loss_boxes") or ()] or ["eliminated"]
    base = ("victory",)
    seen: set[str] = set()

    def known(item: dict, path: tuple) -> None:
        if "side" in item:
            ctx.ref(item["side"], side_ids, "side", (*path, "side"))
        ident = str(item["id"])
        if ident in seen:
            ctx.error(HW_DUP_001, f"duplicate victory id {ident!r}", (*path, "id"))
        seen.add(ident)

    points = []
    for i, p in enumerate(d.get("points") or ()):
        known(p, (*base, "points", i))
        points.append(
            VictoryTrack(
                str(p["id"]),
                str(p["name"]),
                str(p.get("side", "")),
                int(p.get("start", 0)),
                str(p.get("rule", "")),
                ctx.loc((*base, "points", i)),
            )
        )
    losses = []
    for i, x in enumerate(d.get("losses") or ()):
        path = (*base, "losses", i)
        known(x, path)
        for j, t in enumerate(x.get("unit_types") or ()):
            ctx.ref(t, types, "unit type", (*path, "unit_types", j))
        for j, b in enumerate(x.get("boxes") or ()):
            ctx.ref(b, boxes, "loss box", (*path, "boxes", j))
        losses.append(
            LossCount(
                str(x["id"]),
                str(x["side"]),
                str(x["name"]),
                x.get("count", "now") == "ever",
                tuple(str(t) for t in x.get("unit_types") or ()),
                tuple(str(b) for b in x.get("boxes") or ()),
                tuple((int(t["units"]), str(t["text"])) for t in x.get("thresholds") or ()),
                str(x.get("rule", "")),
                ctx.loc(path),
            )
        )
    conditions = []
    for i, c in enumerate(d.get("conditions") or ()):
        path = (*base, "conditions", i)
        if "side" in c:
            ctx.ref(c["side"], side_ids, "side", (*path, "side"))
        conditions.append(
            VictoryCondition(str(c["text"]), str(c.get("side", "")), str(c.get("rule", "")), ctx.loc(path))
        )
    return VictoryRules(tuple(points), tuple(losses), tuple(conditions), str(d.get("rule", "")))


def box_groups(ctx: Ctx) -> tuple[BoxGroup, ...]:
    """`box_groups`: off-map boxes shown together, each group's id once (HW-DUP-001)."""
    items = ctx.src.data.get("box_groups") or ()
    _check_unique(ctx, list(items), ("box_groups",), "box group")
    return tuple(
        BoxGroup(
            str(g["id"]),
            str(g.get("name", g["id"])),
            tuple(str(b) for b in g["boxes"]),
            str(g.get("rule", "")),
            ctx.loc(("box_groups", i)),
        )
        for i, g in enumerate(items)
    )


def phase_actions(ctx: Ctx, side_ids: set[str]) -> tuple[PhaseAction, ...]:
    """`phase_actions`, each naming a phase of `phases` and sides of `sides` (HW-REF-001 otherwise)."""
    phases = [str(p) for p in ctx.src.data.get("phases") or ()]
    out = []
    for i, item in enumerate(ctx.src.data.get("phase_actions") or ()):
        ctx.ref(item["phase"], phases, "phase", ("phase_actions", i, "phase"))
        for j, side in enumerate(item.get("clear_moved") or ()):
            ctx.ref(side, side_ids, "side", ("phase_actions", i, "clear_moved", j))
        out.append(
            PhaseAction(
                str(item["phase"]),
                tuple(str(s) for s in item.get("clear_moved") or ()),
                str(item.get("rule", "")),
                ctx.loc(("phase_actions", i)),
            )
        )
    return tuple(out)


def check_named_files(ctx: Ctx, root: Path, base: Path) -> None:
    """Files the manifest names (relative to `base`) must exist inside the project `root` (HW-PATH-010/011)."""
    name = ctx.src.data.get("rules_summary")
    if name is None:
        return
    try:
        real = resolve_inside(root, name, "rules summary", base=base)
    except UnsafePath as exc:
        ctx.error(HW_PATH_010, str(exc), ("rules_summary",), help=exc.help)
        return
    if real.exists() and not real.is_file():  # a folder, a named pipe, a device: never read
        ctx.error(
            HW_PATH_011,
            f"rules summary {name!r} is {kind_of(real.stat().st_mode)}, not a regular file",
            ("rules_summary",),
            help="name an HTML or PDF file saved beside game.yaml",
        )
    elif not real.is_file():
        ctx.error(
            HW_PATH_011,
            f"rules summary file {name!r} not found",
            ("rules_summary",),
            help="paths are relative to the folder of game.yaml",
        )


def _check_unique(ctx: Ctx, items: list, path: tuple, what: str, key: str = "id") -> None:
    """A located HW-DUP-001 for each entry whose `key` an earlier entry has (a die by its name: the module's
    buttons and the combat section name dice)."""
    seen = set()
    for i, item in enumerate(items):
        if item.get(key) in seen:
            ctx.error(HW_DUP_001, f"duplicate {what} {key} {item[key]!r}", path + (i, key))
        seen.add(item.get(key))


def _strings(value) -> tuple[str, ...]:
    if value is None:
        return ()
    return (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)


def tables(ctx: Ctx) -> tuple[Table, ...]:
    out = []
    default = provenance(ctx.src.data)  # the file's own `source:`, for its tables that name none
    for i, t in enumerate(ctx.src.data.get("tables", [])):
        cols = tuple(str(c) for c in t["columns"])
        for j, row in enumerate(t["rows"]):
            if len(row) != len(cols):
                ctx.error(
                    HW_TABLE_001,
                    f"table {t['id']!r} row {j + 1} has {len(row)} cells for {len(cols)} columns",
                    ("tables", i, "rows", j),
                    help="give one cell per column (use null for an empty cell)",
                )
        out.append(
            Table(
                t["id"],
                t["name"],
                cols,
                tuple(tuple(r) for r in t["rows"]),
                str(t.get("rule", "")),
                t.get("kind", ""),
                frozen_map(t.get("legend")),
                tuple(t.get("notes", [])),
                ctx.loc(("tables", i)),
                _strings(t.get("print_note")),
                provenance(t, default),
            )
        )
    _check_unique(ctx, ctx.src.data.get("tables", []), ("tables",), "table")
    return tuple(out)
