"""Synthetic games built straight in the model: small maps for exact tests, big ones for speed.

Terrain, rivers and roads are laid out by simple arithmetic on the column/row numbers, so the
same call always gives the same game.
"""

from __future__ import annotations

from authoring.hexgrid import GridSpec, Hexside, LabelFormat, MapGrid
from authoring.model import Game, HexFeature, HexInfo, HexsideInfo, Map, PathInfo, Side, TypeDef
from authoring.model.game import frozen_map

TERRAIN = (
    TypeDef("clear", "Clear", "#e8e4c9"),
    TypeDef("forest", "Forest", "#6b8e3a", "trees"),
    TypeDef("hills", "Hills", None, "hills"),
    TypeDef("swamp", "Swamp", None, "swamp"),
    TypeDef("lake", "Lake", None, "waves"),
    TypeDef("rough", "Rough", None, "rough"),
    TypeDef("marsh", "Marsh", None, "marsh"),
    TypeDef("woods", "Woods", None, "woods"),
)
FEATURES = (
    TypeDef("city", "City", symbol="city"),
    TypeDef("major-city", "Major city", symbol="major-city"),
    TypeDef("town", "Town", symbol="town"),
    TypeDef("fortification", "Fortification", symbol="fort"),
    TypeDef("star", "Star", symbol="star"),
    TypeDef("entry", "Entry", symbol="arrow"),
    TypeDef("supply", "Supply source", symbol="supply"),
    TypeDef("victory", "Victory hex", symbol="victory"),
)
HEXSIDES = (
    TypeDef("river", "River", "#2e6fb7", style="river", width=0.08),
    TypeDef("major-river", "Major river", style="major-river"),
    TypeDef("fort-line", "Fortified line", style="fortified-line"),
    TypeDef("border", "Border", style="border"),
)
PATHS = (TypeDef("rail", "Railroad", "#000000", style="rail"), TypeDef("road", "Road", style="road"))


def make_map(
    mid: str,
    columns: int,
    rows: int,
    origin=(0, 0),
    prefix: str = "",
    orientation: str = "flat",
    river_column: int | None = None,
    name: str | None = None,
    dense: bool = True,
) -> Map:
    spec = GridSpec(orientation, columns, rows, 1, 1, "even", LabelFormat(prefix=prefix))
    grid = MapGrid(spec, origin)
    hexes = {}
    for h in grid.hexes:
        col, row = grid.hex_to_offset(h)
        terrain = ("clear",)
        if dense:
            k = (col * 7 + row * 3) % 11
            terrain = {
                0: ("forest",),
                1: ("hills",),
                2: ("swamp",),
                3: ("lake",),
                4: ("rough",),
                5: ("marsh",),
                6: ("woods",),
            }.get(k, ("clear",))
        feats = []
        if dense and (col * 5 + row) % 17 == 0:
            feats.append(HexFeature("city", name=f"City {col}-{row}"))
        if dense and (col + row * 2) % 23 == 0:
            feats.append(HexFeature("fortification"))
        hexes[h] = HexInfo(h, grid.hex_to_label(h), terrain, tuple(feats))
    sides = []
    if river_column is not None:
        for row in range(1, rows + 1):
            a = grid.offset_to_hex(river_column, row)
            b = grid.offset_to_hex(river_column + 1, row)
            if a.distance(b) == 1:
                sides.append(HexsideInfo("river", Hexside.between(a, b)))
    paths = ()
    if dense:
        mid_row = rows // 2
        line = tuple(grid.offset_to_hex(c, mid_row if c % 2 else mid_row) for c in range(1, columns + 1))
        chain = [line[0]]
        for h in line[1:]:
            while chain[-1].distance(h) > 1:
                chain.append(next(n for n in chain[-1].neighbours() if n.distance(h) < chain[-1].distance(h)))
            chain.append(h)
        paths = (PathInfo("rail", "East-west", tuple(chain)),)
    return Map(
        mid, name or f"Map {mid}", grid, 0.75, "clear", frozen_map(hexes), tuple(sides), (), paths, (), frozen_map({})
    )


def make_game(maps: dict[str, Map], layout=None, scenarios=None, tables=()) -> Game:
    return Game(
        id="synth",
        name="Synthetic",
        version="1",
        rules_ref="SY",
        sides=(Side("red", "Red", "#c04040"), Side("blue", "Blue", "#4060c0")),
        nationalities=(),
        terrain=TERRAIN,
        hex_features=FEATURES,
        hexside_features=HEXSIDES,
        paths=PATHS,
        unit_types=(TypeDef("infantry", "Infantry", symbol="infantry"),),
        unit_sizes=(),
        values=(),
        strength_states=(TypeDef("full", "Full"),),
        flags=(),
        counter_size_in=0.625,
        dice=(),
        phases=(),
        stacking=None,
        setup_codes=(),
        setup_rules=(),
        hex_sets=frozen_map({}),
        layout=frozen_map(layout or {}),
        tables=tuple(tables),
        maps=frozen_map(maps),
        counters=frozen_map({}),
        scenarios=frozen_map(scenarios or {}),
    )


def large_game() -> Game:
    """The benchmark game: three 60 x 45 maps, the second beside the first, the third below."""
    w, h = 61, 45
    maps = {
        "A": make_map("A", w, h, (0, 0), "A", river_column=20),
        "B": make_map("B", w, h, (w - 1, 0), "B", river_column=30),
        "C": make_map("C", w, h, (0, h - 1), "C", river_column=10),
    }
    return make_game(maps, {k: m.grid.origin for k, m in maps.items()})
