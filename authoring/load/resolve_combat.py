"""Resolve tables.yaml `combat` (how a battle is resolved) against the game's tables, dice, values and terrain."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from authoring.diagnostics.codes import HW_COMBAT_001, HW_COMBAT_002, HW_COMBAT_004
from authoring.load.context import Ctx
from authoring.model import Combat, CombatEffect, Dice, Table
from authoring.model.game import odds_ratio

_WHERE = MappingProxyType({"terrain": "terrain", "feature": "hex_features", "hexside": "hexside_features"})
SEPARATOR = ","
"""The module keeps the CRT's cells in one comma-separated text (`vassal/combat.py`): no cell may hold one."""


def combat(ctx: Ctx, defs: dict, dice: tuple[Dice, ...], tables: tuple[Table, ...]) -> Combat | None:
    """The `combat` section, or None when absent; unknown names and a CRT the odds cannot be read from are
    errors (HW-COMBAT-001, HW-COMBAT-002)."""
    data = ctx.src.data.get("combat")
    if not isinstance(data, dict):
        return None
    ok = _check_crt(ctx, data["crt"], tables)
    ok &= ctx.ref(data["die"], {d.name for d in dice}, "die", ("combat", "die"), code=HW_COMBAT_001)
    for key in ("attack", "defence"):
        ok &= ctx.ref(data[key], defs["values"], "counter value", ("combat", key), code=HW_COMBAT_001)
    weathers = tuple(str(w) for w in data.get("weathers", []))
    effects = tuple(e for i, raw in enumerate(data.get("effects", [])) if (e := _effect(ctx, defs, weathers, raw, i)))
    if not ok or len(effects) != len(data.get("effects", [])):
        return None
    return Combat(
        crt=data["crt"],
        die=data["die"],
        attack=data["attack"],
        defence=data["defence"],
        rule=str(data.get("rule", "")),
        below=data.get("below"),
        drm_limit=data.get("drm_limit"),
        fractions=data.get("fractions", "keep"),
        least=float(data.get("least", 0)),
        effects=effects,
        loc=ctx.loc(("combat",)),
        weathers=weathers,
        weather_rolled=str(data.get("weather_rolled", "")),
    )


def _check_crt(ctx: Ctx, crt_id: str, tables: tuple[Table, ...]) -> bool:
    crt = next((t for t in tables if t.id == crt_id), None)
    path = ("combat", "crt")
    if crt is None:
        return ctx.ref(crt_id, {t.id for t in tables}, "table", path, code=HW_COMBAT_001)
    if any(len(r) != len(crt.columns) for r in crt.rows):
        return False  # the table's own finding (HW-TABLE-001) names the row: one mistake, one error
    if not any(odds_ratio(c) for c in crt.columns[1:]) or any(not _is_int(r[0]) for r in crt.rows):
        ctx.error(
            HW_COMBAT_002,
            f"table {crt_id!r} is no CRT: its first column must hold die rolls and the others odds such as '3:1'",
            path,
            help="name the combat results table, with the die roll first and one column per odds ratio",
        )
        return False
    if any(SEPARATOR in str(c) for r in crt.rows for c in r):
        ctx.error(
            HW_COMBAT_002,
            f"a cell of table {crt_id!r} holds a comma, which the module's CRT lookup cannot keep",
            path,
            help="write the result without a comma (e.g. '1/1R')",
        )
        return False
    return _crt_shape(ctx, crt, _table_path(ctx, crt_id))


def _table_path(ctx: Ctx, table_id: str) -> tuple:
    """Where the table `table_id` is in tables.yaml (its entry of `tables`)."""
    raw = ctx.src.data.get("tables") or []
    index = next((i for i, t in enumerate(raw) if isinstance(t, dict) and t.get("id") == table_id), 0)
    return ("tables", index)


def _crt_shape(ctx: Ctx, crt: Table, at: tuple) -> bool:
    """The CRT's odds columns each once and rising from more than 0, its die rolls each once, and at least
    one row: the odds column and the row are found by comparing (a repeated or falling column, a 0:1 column or
    no row gave a wrong column, a wrong result or an IndexError in the build)."""
    fix = "one column per odds ratio, rising left to right (1:2, 1:1, 2:1 ...), and one row per die roll"
    if not crt.rows:
        ctx.error(HW_COMBAT_002, f"CRT {crt.id!r} has no rows", at + ("rows",), help=fix)
        return False
    last = None
    for j, label in enumerate(crt.columns[1:], 1):
        ratio = odds_ratio(label)
        if ratio is None:
            continue
        if ratio[0] == 0:
            ctx.error(
                HW_COMBAT_002,
                f"CRT {crt.id!r}: odds column {label!r} is 0 to 1, which every attack reaches",
                at + ("columns", j),
                help=fix,
            )
            return False
        if last is not None and ratio[0] * last[1] <= last[0] * ratio[1]:
            same = "repeats" if ratio[0] * last[1] == last[0] * ratio[1] else "is below"
            ctx.error(
                HW_COMBAT_002,
                f"CRT {crt.id!r}: odds column {label!r} {same} the column before it ({last[2]!r})",
                at + ("columns", j),
                help=fix,
            )
            return False
        last = (*ratio, label)
    seen: set[int] = set()
    for k, row in enumerate(crt.rows):
        roll = int(str(row[0]))
        if roll in seen:
            ctx.error(HW_COMBAT_002, f"CRT {crt.id!r} has two rows for die roll {roll}", at + ("rows", k, 0), help=fix)
            return False
        seen.add(roll)
    return True


def _is_int(value) -> bool:
    try:
        return int(str(value)) == float(str(value))
    except ValueError:
        return False


def _effect(ctx: Ctx, defs: dict, weathers: tuple[str, ...], raw: dict, i: int) -> CombatEffect | None:
    path = ("combat", "effects", i)
    where = next((k for k in _WHERE if k in raw), "")
    ok = True
    if where:
        what = where.replace("feature", "hex feature")
        ok &= ctx.ref(raw[where], defs[_WHERE[where]], what, path + (where,), code=HW_COMBAT_001)
    for key in ("defender_side", "attacker_side"):
        ok &= ctx.ref(raw.get(key), defs["sides"], "side", path + (key,), code=HW_COMBAT_001)
    for key, known, what in _LISTS:
        for j, t in enumerate(raw.get(key, [])):
            ok &= ctx.ref(t, defs[known] if known else weathers, what, path + (key, j), code=HW_COMBAT_001)
    tests = {}
    for key in ("attackers", "defenders"):
        tests[key] = tuple((q, tuple(ts)) for test in raw.get(key, []) for q, ts in test.items())
        for j, test in enumerate(raw.get(key, [])):
            for q, ts in test.items():
                for k, t in enumerate(ts):
                    ok &= ctx.ref(t, defs["unit_types"], "unit type", path + (key, j, q, k), code=HW_COMBAT_001)
    if raw.get("support") is not None:
        ok &= ctx.ref(raw["support"], defs["values"], "counter value", path + ("support",), code=HW_COMBAT_001)
        ok &= _support_alone(ctx, raw, path)
    if not ok:
        return None
    return CombatEffect(
        where=where,
        id=raw.get(where, "") if where else "",
        name=str(raw.get("name", raw.get(where, "") if where else "")) or f"effect {i + 1}",
        rule=str(raw.get("rule", "")),
        of=raw.get("of", "defender"),
        across=raw.get("across", "all"),
        columns=int(raw.get("columns", 0)),
        drm=int(raw.get("drm", 0)),
        defence=float(raw.get("defence", 1)),
        attack=float(raw.get("attack", 1)),
        defender_side=raw.get("defender_side", ""),
        attacker_side=raw.get("attacker_side", ""),
        unit_types=tuple(raw.get("unit_types", [])),
        loc=ctx.loc(path),
        weather=tuple(raw.get("weather", [])),
        not_weather=tuple(raw.get("not_weather", [])),
        attackers=tests["attackers"],
        defenders=tests["defenders"],
        terrain_only=tuple(raw.get("terrain_only", [])),
        terrain_not=tuple(raw.get("terrain_not", [])),
        not_across=tuple(raw.get("not_across", [])),
        markers=tuple(raw.get("markers", [])),
        no_markers=tuple(raw.get("no_markers", [])),
        marker_on=raw.get("marker_on", "defender"),
        marker_values=bool(raw.get("marker_values", False)),
        support=str(raw.get("support", "")),
        role=raw.get("role", "attack"),
        once=bool(raw.get("once", False)),
        not_applied=str(raw.get("not_applied", "")),
    )


_SUPPORT_KEYS = frozenset({"support", "unit_types", "role", "name", "rule", "note"})


def _support_alone(ctx: Ctx, raw: dict, path: tuple) -> bool:
    """A support effect takes no other condition: the module reads a unit's support strength whatever the
    battle, so a condition would make it and `rules.combat` disagree (HW-COMBAT-004)."""
    extra = sorted(k for k in raw if k not in _SUPPORT_KEYS)
    if not extra:
        return True
    ctx.error(
        HW_COMBAT_004,
        f"support effect {raw.get('name', raw['support'])!r} also names {', '.join(extra)}",
        path + (extra[0],),
        help="keep support, unit_types, role, name and rule; put conditions on another effect",
    )
    return False


_LISTS = (
    ("unit_types", "unit_types", "unit type"),
    ("terrain_only", "terrain", "terrain"),
    ("terrain_not", "terrain", "terrain"),
    ("not_across", "hexside_features", "hexside feature"),
    ("weather", "", "weather condition (combat.weathers)"),
    ("not_weather", "", "weather condition (combat.weathers)"),
)
"""The id lists of an effect, the declared ids each names (game.yaml; `` for combat.weathers) and what they are."""


def check_markers(ctx: Ctx, counters: Mapping) -> list:
    """Findings for the marker counters (`id` or `id:state`) the effects name that the counters do not hold
    (checked once the counters are loaded): HW-COMBAT-001 at the marker's own place in tables.yaml."""
    data = ctx.src.data.get("combat")
    raw = data.get("effects", []) if isinstance(data, dict) else []
    before = len(ctx.diags)
    for i, effect in enumerate(raw):
        for key in ("markers", "no_markers"):
            for j, entry in enumerate(effect.get(key, [])):
                cid, _, state = str(entry).partition(":")
                path = ("combat", "effects", i, key, j)
                if ctx.ref(cid, counters, "marker counter", path, code=HW_COMBAT_001) and state:
                    states = {f.state for f in counters[cid].faces}
                    ctx.ref(state, states, f"face of {cid!r}", path, code=HW_COMBAT_001)
    return ctx.diags[before:]
