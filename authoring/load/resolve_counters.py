"""Resolve counter manifests (YAML, or CSV from a spreadsheet) into Counter objects."""

from __future__ import annotations

import math
import re
from sys import intern

from authoring.diagnostics import Loc
from authoring.diagnostics.codes import HW_COMBAT_003, HW_COUNTER_001, HW_COUNTER_002, HW_CSV_010, HW_DUP_002
from authoring.diagnostics.rows import spans
from authoring.load.cells import CounterCells, cell_problem
from authoring.load.context import Ctx
from authoring.load.source import Source
from authoring.model import Counter, Face
from authoring.model.game import frozen_map

_NUM = re.compile(r"-?[0-9]{1,18}\Z")  # longer stays text, which the schema then limits
_SCALAR_COLUMNS = (
    "id",
    "side",
    "nationality",
    "type",
    "size",
    "designation",
    "name",
    "setup_code",
    "note",
    "short",
    "symbol",
)
_INT_COLUMNS = ("steps", "quantity")
_NUMBER_COLUMNS = ("stacking",)
_STRENGTH = re.compile(r"\s*-?[0-9]{1,18}(\.[0-9]{1,9})?\s*\Z")
"""A strength combat sums (the module's Sum of the value), written as text."""
_DECIMAL = re.compile(r"-?([0-9]+[.,][0-9]*|[.,][0-9]+)\Z")
"""A number with a fraction, its separator a point or, as spreadsheets in many locales write it, a comma."""
_FACE_ART = ("image", "picture")
_FACE_TEXT = ("designation", "label")
"""Face columns that are the face's own text, not a value (`reduced.designation`: Typhoon 6.5.2's Supply Dump)."""
_FACE_FIELDS = _FACE_ART + _FACE_TEXT
_REFS = (
    ("side", "sides", "side"),
    ("nationality", "nationalities", "nationality"),
    ("type", "unit_types", "unit type"),
    ("size", "unit_sizes", "unit size"),
)
"""A counter's fields that name a declaration of the game: (field, `defs` key, what it is called)."""


def csv_to_counters(src: Source) -> Source:
    """Turn CSV rows into the YAML counters shape, carrying each cell's position to its new path."""
    return rows_to_counters(src, {col: (col, None) for col, _ in src.header}, [])


def rows_to_counters(src: Source, rules: dict, diags: list) -> Source:
    """`csv_to_counters` of rows whose columns `rules` renames (raw name -> (name, cell rule or None)):
    a cell its rule refuses is reported (HW-CSV-008) and left out, so that no second finding echoes it.
    Positions stay with the CSV cells (`cells.CounterCells` maps each path of the new shape to its cell)."""
    plans = {
        raw: (*rules.get(raw, (raw, None)), *_column_plan(rules.get(raw, (raw, None))[0])) for raw, _col in src.header
    }  # once per column, not per cell
    counters: list[dict] = []
    face_order: list[tuple[str, ...]] = []
    for i, row in enumerate(src.data):
        c: dict = {}
        faces: dict[str, dict] = {}
        for raw, cell in row.items():
            col, rule, how, a, b = plans[raw]
            if rule is not None and not rule[0].match(cell):
                diags.append(cell_problem(src.path, src.locs[(i, raw)], col, cell, rule))
                continue
            if how == "face":
                face = faces.get(a)
                if face is None:
                    face = faces[a] = {"state": a, "values": {}}
                if b in _FACE_FIELDS:  # `full.image`, `half.picture`: the face's art (docs/art.md); its text
                    face[b] = cell
                else:
                    face["values"][b] = int(cell) if _NUM.match(cell) else cell
            elif how == "flags":
                c["flags"] = [f.strip() for f in cell.split("|") if f.strip()]
            elif how == "marker":
                c["marker"] = cell.lower() in ("1", "true", "yes", "x")
            else:
                c[col] = _number(cell, how) if how in ("int", "number") else cell
        c["faces"] = list(faces.values())
        counters.append(c)
        face_order.append(tuple(faces))
    fields = {p[0]: raw for raw, p in plans.items() if p[2] != "face"}
    face_cells = {
        (p[3], (p[4],) if p[4] in _FACE_FIELDS else ("values", p[4])): raw for raw, p in plans.items() if p[2] == "face"
    }
    header = tuple((plans[raw][0], col) for raw, col in src.header)  # a key's position: its column's name
    return Source(
        src.path,
        {"kind": "counters", "counters": counters},
        CounterCells(src.locs, fields, face_cells, face_order),
        header=header,
        header_line=src.header_line,
        sheet=src.sheet,
    )


def _column_plan(col: str) -> tuple[str, str, str]:
    """How a column's cells go into a counter: worked out once per column (a face's state and value,
    flags, the marker, a whole number or text), not once per cell."""
    if "." in col:
        state, value = col.split(".", 1)
        return "face", state, value
    if col in ("flags", "marker"):
        return col, "", ""
    return ("int" if col in _INT_COLUMNS else "number" if col in _NUMBER_COLUMNS else "text"), "", ""


def _number(cell: str, how: str) -> int | float | str:
    """A whole-number or number cell as its value (0,5 and 0.5 alike, +1 as 1); text the schema then reports otherwise."""
    cell = cell.removeprefix("+")
    if _NUM.match(cell):
        return int(cell)
    return float(cell.replace(",", ".")) if how == "number" and _DECIMAL.match(cell) else cell


def resolve_counters(ctx: Ctx, defs: dict, seen: dict[str, Loc]) -> list[Counter]:
    """The counters of one file; `seen` (id -> where it is defined) spans the game's counter files."""
    out: list[Counter] = []
    sideless: list[tuple[tuple, str]] = []
    for i, c in enumerate(ctx.src.data.get("counters", [])):
        path = ("counters", i)
        cid = str(c["id"])
        if cid in seen:
            ctx.error(
                HW_DUP_002,
                f"duplicate counter id {cid!r} (also in {seen[cid]})",
                path + ("id",),
                help="counter ids must be unique within a game; use `quantity` for several copies",
            )
            continue
        seen[cid] = ctx.loc(path + ("id",))
        out.append(_counter(ctx, defs, c, path, sideless))
    _sideless(ctx, sideless)
    return out


def _sideless(ctx: Ctx, found: list[tuple[tuple, str]]) -> None:
    """Counters without a side and not markers: one finding for the file, at the first, saying how many
    (a counters CSV without a `side` column: HW-CSV-010 at its header, a file the rules cannot use)."""
    if not found:
        return
    path, cid = found[0]
    if ctx.src.header and "side" not in {name for name, _col in ctx.src.header}:
        ctx.diags.append(
            HW_CSV_010.at(
                f"the header row has no 'side' column, so {len(found)} of the file's "
                "counters (those that are not markers) have no side",
                Loc(ctx.src.path, 1, 1),
                help="add a side column (a neutral marker needs none: give it marker true)",
            )
        )
        return
    lines = [ctx.loc(p).line for p, _c in found]
    more = f": {len(found)} counters have none ({spans(lines)})" if len(found) > 1 else ""
    ctx.error(
        HW_COUNTER_001,
        f"counter {cid!r} has no side{more}",
        path,
        help="give `side:`, or `marker: true` for a neutral marker",
    )


def _summable(value) -> bool:
    """Whether a printed value is a number combat can sum (an int, a float, or text that reads as one)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return math.isfinite(value)
    return _STRENGTH.match(str(value)) is not None


def _counter(ctx: Ctx, defs: dict, c: dict, path: tuple, sideless: list[tuple[tuple, str]]) -> Counter:
    marker = bool(c.get("marker", False))
    if c.get("side") is None and not marker:
        sideless.append((path, str(c["id"])))
    for key, known, what in _REFS:  # `ctx.ref` (a call) only for a name not found as it is written
        if key in c and c[key] not in defs[known]:
            ctx.ref(c[key], defs[known], what, path + (key,))
    for j, flag in enumerate(c.get("flags", ())):
        if flag not in defs["flags"]:
            ctx.ref(flag, defs["flags"], "flag", path + ("flags", j))
    faces, states = [], set()
    for j, f in enumerate(c["faces"]):
        fpath = path + ("faces", j)
        if f["state"] not in defs["strength_states"]:
            ctx.ref(f["state"], defs["strength_states"], "strength state", fpath + ("state",))
        if f["state"] in states:
            ctx.error(HW_COUNTER_002, f"counter {c['id']!r} has two faces for state {f['state']!r}", fpath)
        states.add(f["state"])
        known = defs["values"]
        for v in f.get("values") or ():
            if v not in known:  # names are text (mapping keys): `ctx.ref` would only find them
                ctx.ref(v, known, "printed value", fpath + ("values", v))
            elif v in defs.get("strengths", ()) and not _summable(f["values"][v]):
                ctx.error(
                    HW_COMBAT_003,
                    f"counter {c['id']!r}: {v} {f['values'][v]!r} is no number, and combat sums it",
                    fpath + ("values", v),
                    help="print the number alone; a mark such as '*' belongs in a flag or the face's label",
                )
        faces.append(
            Face(
                f["state"],
                frozen_map(f.get("values")),
                str(f.get("label", "")),
                None if f.get("designation") is None else str(f["designation"]),
                short=str(f.get("short", "") or ""),
            )
        )
    return Counter(
        id=intern(str(c["id"])),
        side=c.get("side"),
        nationality=c.get("nationality"),
        type=c.get("type"),
        size=c.get("size"),
        designation=str(c.get("designation", "")),
        faces=tuple(faces),
        steps=int(c.get("steps") or len(faces)),
        stacking=c.get("stacking"),
        flags=frozenset(c.get("flags", [])),
        setup_code=str(c.get("setup_code", "") or ""),
        quantity=int(c.get("quantity", 1)),
        marker=marker,
        name=c.get("name", ""),
        loc=ctx.loc(path),
        short=str(c.get("short", "") or ""),
        symbol=str(c.get("icon") or c.get("symbol", "") or ""),  # a marker's icon draws in its symbol's place
        code_loc=ctx.loc(path + ("setup_code",)) if c.get("setup_code") else None,
    )
