"""Resolve a map file: grid, per-hex terrain and features, hexsides and paths, with every hex id checked."""

from __future__ import annotations

from authoring.budget import HEX_SIZE_IN, map_budget_problem
from authoring.diagnostics.codes import (
    HW_HEX_001,
    HW_HEXSIDE_001,
    HW_HEXSIDE_002,
    HW_HEXSIDE_003,
    HW_HEXSIDE_004,
    HW_MAP_001,
    HW_MAP_002,
    HW_PATH_001,
    HW_PATH_002,
    HW_SIZE_002,
)
from authoring.diagnostics.zeros import padded
from authoring.hexgrid import GridSpec, Hex, Hexside, LabelFormat, MapGrid
from authoring.load.context import Ctx
from authoring.load.provenance import provenance
from authoring.load.zeros import DroppedZeros
from authoring.model import (
    EdgeSideInfo,
    HexFeature,
    HexInfos,
    HexsideInfo,
    Map,
    MapLabel,
    PathInfo,
)
from authoring.model.game import frozen_map

MAX_MAP_HEXES = 200_000


def grid_spec(g: dict) -> GridSpec:
    lab = g.get("label", {}) or {}
    label = LabelFormat(
        prefix=lab.get("prefix", ""),
        column_digits=lab.get("column_digits", 2),
        row_digits=lab.get("row_digits", 2),
        column_style=lab.get("column_style", "numeric"),
        separator=lab.get("separator", ""),
        row_first=lab.get("row_first", False),
        columns_descending=lab.get("columns_descending", False),
        rows_descending=lab.get("rows_descending", False),
    )
    return GridSpec(
        orientation=g["orientation"],
        columns=g["columns"],
        rows=g["rows"],
        first_column=g.get("first_column", 1),
        first_row=g.get("first_row", 1),
        shifted=g.get("shifted", "even"),
        label=label,
    )


class _MapResolver:
    def __init__(self, ctx: Ctx, grid: MapGrid, defs: dict):
        self.ctx, self.grid, self.defs = ctx, grid, defs
        self._find = grid.by_label().get  # every hex id of the file is looked up: one C call each
        self.zeros = DroppedZeros(ctx, "hex id", "hex id")

    def hex(self, value, path: tuple) -> Hex | None:
        label = value if type(value) is str else str(value)
        h = self._find(label)
        if h is None:
            wanted = padded(label, self._find)
            if wanted:  # 0101 written as the number 101: one finding for the file (`resolve_map` reports it)
                self.zeros.add(path, wanted, f"hex {label!r} is not on map {self.ctx.src.data['id']!r}")
                return None
            spec = self.grid.spec
            first = self.grid.hex_to_label(self.grid.hexes[0])
            last = self.grid.hex_to_label(self.grid.hexes[-1])
            self.ctx.error(
                HW_HEX_001,
                f"hex {label!r} is not on map {self.ctx.src.data['id']!r}",
                path,
                help=f"hex ids on this map run from {first} to {last} ({spec.columns} columns x {spec.rows} rows)",
            )
        return h

    def terrain(self) -> dict[Hex, list[str]]:
        out: dict[Hex, list[str]] = {}
        find = self._find
        for ttype, hexes in (self.ctx.src.data.get("terrain") or {}).items():
            self.ctx.ref(ttype, self.defs["terrain"], "terrain type", ("terrain", ttype))
            for i, value in enumerate(hexes):  # a few hundred ids a terrain: found ones take one lookup
                h = find(value) if type(value) is str else None
                if h is None:
                    h = self.hex(value, ("terrain", ttype, i))
                    if h is None:
                        continue
                have = out.get(h)
                if have is None:
                    out[h] = [ttype]
                elif ttype not in have:
                    have.append(ttype)
        return out

    def features(self) -> dict[Hex, list[HexFeature]]:
        out: dict[Hex, list[HexFeature]] = {}
        for ftype, entries in (self.ctx.src.data.get("features") or {}).items():
            self.ctx.ref(ftype, self.defs["hex_features"], "hex feature", ("features", ftype))
            items = entries.items() if isinstance(entries, dict) else ((e, {}) for e in entries)
            for i, (value, attrs) in enumerate(items):
                path = ("features", ftype, value if isinstance(entries, dict) else i)
                h = self.hex(value, path)
                if h is None:
                    continue
                attrs = attrs or {}
                if attrs.get("side") is not None:
                    self.ctx.ref(attrs["side"], self.defs["sides"], "side", path + ("side",))
                out.setdefault(h, []).append(
                    HexFeature(
                        ftype,
                        attrs.get("name", ""),
                        attrs.get("kind", ""),
                        str(attrs.get("label", "")),
                        attrs.get("side", "") or "",
                        attrs.get("points"),
                        self.ctx.loc(path),
                    )
                )
        return out

    def hexsides(self) -> tuple[list[HexsideInfo], list[EdgeSideInfo]]:
        sides, edges = [], []
        for stype, entries in (self.ctx.src.data.get("hexsides") or {}).items():
            self.ctx.ref(stype, self.defs["hexside_features"], "hexside feature", ("hexsides", stype))
            for i, entry in enumerate(entries):
                path = ("hexsides", stype, i)
                if isinstance(entry, dict) and "side" in entry:
                    edges.extend(self._edge_side(stype, entry, path))
                    continue
                pair = entry["hexes"] if isinstance(entry, dict) else entry
                a, b = self._find(pair[0]), self._find(pair[1])  # the common case: two text ids on the map
                if a is None or b is None:  # a number or an unknown id: `hex` converts or reports, in order
                    a, b = self.hex(pair[0], path + (0,)), self.hex(pair[1], path + (1,))
                    if a is None or b is None:
                        continue
                if a.distance(b) != 1:
                    self.ctx.error(
                        HW_HEXSIDE_001,
                        f"{pair[0]} and {pair[1]} are not neighbours, so they share no hexside",
                        path,
                        help="a hexside is written as the two adjacent hexes it separates",
                    )
                    continue
                faces = None
                if isinstance(entry, dict) and entry.get("faces") is not None:
                    faces = self.hex(entry["faces"], path + ("faces",))
                    if faces is not None and faces not in (a, b):
                        self.ctx.error(
                            HW_HEXSIDE_002,
                            f"a hexside between {pair[0]} and {pair[1]} cannot face {entry['faces']}",
                            path + ("faces",),
                            help="`faces` must be one of the two hexes",
                        )
                sides.append(HexsideInfo(stype, Hexside(a, b) if a < b else Hexside(b, a), faces, self.ctx.loc(path)))
        return sides, edges

    def _edge_side(self, stype: str, entry: dict, path: tuple) -> list[EdgeSideInfo]:
        h = self.hex(entry["hex"], path + ("hex",))
        if h is None:
            return []
        try:
            d = self.grid.direction_index(entry["side"])
        except (KeyError, ValueError):
            self.ctx.error(
                HW_HEXSIDE_003,
                f"unknown hexside direction {entry['side']!r}",
                path + ("side",),
                help=f"use one of {', '.join(self.grid.direction_name(i) for i in range(6))}",
            )
            return []
        if h.neighbour(d) in self.grid:
            self.ctx.error(
                HW_HEXSIDE_004,
                f"side {entry['side']} of {entry['hex']} is not on the map edge",
                path,
                help="write inner hexsides as the pair of hexes they separate",
            )
            return []
        return [EdgeSideInfo(stype, h, d, self.ctx.loc(path))]

    def paths(self) -> list[PathInfo]:
        out = []
        for ptype, lines in (self.ctx.src.data.get("paths") or {}).items():
            self.ctx.ref(ptype, self.defs["paths"], "path type", ("paths", ptype))
            for i, line in enumerate(lines):
                path = ("paths", ptype, i)
                cells = [(j, v) for j, v in enumerate(line["hexes"]) if not isinstance(v, dict)]
                found = [self.hex(v, path + ("hexes", j)) for j, v in cells]
                hexes = [h for h in found if h is not None]
                if len(hexes) < len(found):
                    continue
                exit_names = [
                    (("hexes", j), v["exit"], hexes[0] if j == 0 else hexes[-1])
                    for j, v in enumerate(line["hexes"])
                    if isinstance(v, dict)
                ]
                for j in range(1, len(hexes)):
                    if hexes[j - 1].distance(hexes[j]) != 1:
                        self.ctx.error(
                            HW_PATH_001,
                            f"path {line.get('name', ptype)!r} jumps from {cells[j - 1][1]} "
                            f"to {cells[j][1]}, which are not adjacent",
                            path + ("hexes", cells[j][0]),
                            help="list every hex the line passes through, in order",
                        )
                exits: list[tuple[Hex, int]] = []
                for sub, name, end in exit_names:
                    try:
                        exits.append((end, self.grid.direction_index(name)))
                    except (KeyError, ValueError):
                        self.ctx.error(
                            HW_PATH_002,
                            f"unknown exit direction {name!r}",
                            path + sub,
                            help=f"use one of {', '.join(self.grid.direction_name(i) for i in range(6))}",
                        )
                out.append(PathInfo(ptype, line.get("name", ""), tuple(hexes), tuple(exits), self.ctx.loc(path)))
        return out


def resolve_map(ctx: Ctx, defs: dict, origin: tuple[int, int] = (0, 0)) -> Map | None:
    d = ctx.src.data
    g = d["grid"]
    if g["columns"] * g["rows"] > MAX_MAP_HEXES:
        ctx.error(
            HW_MAP_001,
            f"map has {g['columns'] * g['rows']:,} hexes, over the limit of {MAX_MAP_HEXES:,}",
            ("grid",),
            help="split a huge map into several maps joined by the game's layout",
        )
        return None
    try:
        grid = MapGrid(grid_spec(g), origin)
    except ValueError as exc:
        ctx.error(HW_MAP_002, f"invalid grid: {exc}", ("grid",))
        return None
    r = _MapResolver(ctx, grid, defs)
    default = d.get("default_terrain") or (defs["terrain_order"][0] if defs["terrain_order"] else "clear")
    ctx.ref(default, defs["terrain"], "terrain type", ("default_terrain",))
    terrain, features = r.terrain(), r.features()
    sides, edge_sides = r.hexsides()
    paths = r.paths()
    labels = []
    for i, lab in enumerate(d.get("labels", []) or []):
        h = r.hex(lab["hex"], ("labels", i, "hex"))
        if h is not None:
            labels.append(MapLabel(lab["text"], h))
    r.zeros.report(HW_HEX_001)
    hexes = HexInfos(
        grid.labels(),
        {h: tuple(t) for h, t in terrain.items() if t},
        {h: tuple(f) for h, f in features.items()},
        (default,),
    )
    edges = {k: v.get("name", k) for k, v in (d.get("edges") or {}).items()}
    hex_in = ctx.length(("grid", "hex_size"), 0.75, "hex_size", HEX_SIZE_IN)
    too_big = map_budget_problem(len(hexes), hex_in)
    if too_big:
        ctx.error(
            HW_SIZE_002,
            too_big,
            ("grid",),
            help="split the map into several maps joined by the game's `layout`, or print smaller hexes (hex_size)",
        )
    return Map(
        d["id"],
        d["name"],
        grid,
        hex_in,
        default,
        hexes,
        tuple(sides),
        tuple(edge_sides),
        tuple(paths),
        tuple(labels),
        frozen_map(edges),
        ctx.src.path,
        ctx.loc(()),
        source=provenance(d),
    )
