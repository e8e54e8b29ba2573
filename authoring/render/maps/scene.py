"""One or more maps as a scene: layers of vector items and text in a `PixelLayout`'s pixels.

Drawing order (later on top): hex fills, terrain symbols, grid, hexside features, paths,
map edge, point features, then text (hex ids, names, labels). Every position comes from the
layout, the same `PixelLayout` the validator and the VASSAL grid use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeVar

from authoring.hexgrid import Hex, PixelLayout
from authoring.model import HexFeature, HexInfo, Map
from authoring.render.maps import geometry as geo
from authoring.render.maps.raster import Disc, Item, Layer, Line, Poly, Text, text_box
from authoring.render.maps.style import (
    HEXSIDE_ORDER,
    INK,
    PATH_ORDER,
    SIDE_COLOURED,
    Look,
    MapStyle,
    shade,
)
from authoring.render.maps.symbols import (
    FEATURE_SYMBOLS,
    FORT_RING,
    MARK_SYMBOLS,
    TERRAIN_SYMBOLS,
    arrow,
)

ID_OFFSET = 0.37
"""Hex id baseline-middle, fraction of f above the centre."""
ID_SIZE = 0.12
"""Hex id font size, fraction of f."""
ID_HALO = 0.03
"""Width of the hex's own ground colour around its id, fraction of f: a rail or road under the number is
knocked out, so no line strikes through it."""
NAME_SIZE = 0.15
"""Feature name font size, fraction of f."""
MARK_OFFSET = (0.2, 0.22)
"""Where set-up marks sit, fractions of f from the centre."""
ARROWS = MappingProxyType({"arrow": 1, "arrow3": 3})
"""Entry-arrow symbols and how many arrows each draws."""
ARROW_GAP = 0.2
"""Distance between the arrows of a multiple arrow, fraction of f."""
RIVER_ROUNDING = 0.3
"""Corner rounding of hexside lines: the middle 40% of every hexside is exact."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Cell:
    """One drawn hex: its data (from the first map that holds it) and every printed id."""

    hex: Hex
    info: HexInfo
    labels: tuple[str, ...]


class BoxIndex:
    """Boxes bucketed on a coarse grid, so overlap queries only look at near neighbours."""

    def __init__(self, cell: float) -> None:
        self.cell = max(1.0, cell)
        self.buckets: dict[tuple[int, int], list[Box]] = {}
        self.added: list[Box] = []
        """The boxes appended since this index was made or copied."""

    def copy(self) -> BoxIndex:
        """An index holding the same boxes, to which boxes are added apart from this one."""
        out = BoxIndex(self.cell)
        out.buckets = {k: list(v) for k, v in self.buckets.items()}
        return out

    def _keys(self, box: Box):
        c = self.cell
        for gy in range(int(box[1] // c), int(box[3] // c) + 1):
            for gx in range(int(box[0] // c), int(box[2] // c) + 1):
                yield gx, gy

    def append(self, box: Box) -> None:
        self.added.append(box)
        for k in self._keys(box):
            self.buckets.setdefault(k, []).append(box)

    def overlap(self, box: Box) -> float:
        """Total area of ``box`` covered by stored boxes (each stored box counted once)."""
        seen: set[int] = set()
        total = 0.0
        for k in self._keys(box):
            for other in self.buckets.get(k, ()):
                if id(other) not in seen:
                    seen.add(id(other))
                    total += _overlap(box, other)
        return total


T = TypeVar("T")


class Reuse:
    """The items of the last scene drawn with one layout and style, by what they are drawn from: the next
    scene takes them instead of drawing them again, so a save that changes one hex of a large map makes
    only that hex's items anew (the live preview redraws the picture tiles whose items changed). Items
    are immutable; a scene uses the same ones whether or not they are reused. Only what the last scene
    used is kept."""

    def __init__(self) -> None:
        self.last: dict[Hashable, object] = {}
        self.now: dict[Hashable, object] = {}

    def get(self, key: Hashable, make: Callable[..., T], *args: object) -> T:
        """The item(s) made for `key` by the last scene or this one, else `make(*args)`."""
        hit = self.now.get(key)
        if hit is None:
            hit = self.last.get(key)
        if hit is None:
            hit = make(*args)
        self.now[key] = hit
        return hit  # type: ignore[return-value]

    def advance(self) -> None:
        """Start the next scene: what this one did not use is dropped."""
        self.last, self.now = self.now, {}


def _made(scene: Scene, key: Hashable, make: Callable[..., T], *args: object) -> T:
    return make(*args) if scene.reuse is None else scene.reuse.get(key, make, *args)


@dataclass
class Scene:
    """Layers plus the boxes text placement must avoid."""

    layout: PixelLayout
    size: tuple[int, int]
    style: MapStyle
    cells: Mapping[Hex, Cell]
    maps: Sequence[Map]
    underlay: Layer = field(default_factory=lambda: Layer(False))
    """A designer's painted map under everything hexwright draws (empty on drawn maps)."""
    vector: Layer = field(default_factory=lambda: Layer(True))
    text: Layer = field(default_factory=lambda: Layer(False))
    occupied: BoxIndex = field(default_factory=lambda: BoxIndex(64.0))
    ids: BoxIndex = field(default_factory=lambda: BoxIndex(64.0))
    """Boxes of the hex numbers: a name pays heavily for covering one."""
    reuse: Reuse | None = None
    """Items of the last scene of this layout and style (`Reuse`), or None: every item drawn."""

    @property
    def f(self) -> float:
        """Hex width across the flats, in pixels."""
        return self.layout.size * math.sqrt(3.0)

    @property
    def layers(self) -> list[Layer]:
        return [self.underlay, self.vector, self.text]


def cells_of(maps: Sequence[Map]) -> dict[Hex, Cell]:
    """Every hex of the maps, once; shared edge cells carry each map's printed id."""
    cells: dict[Hex, Cell] = {}
    for m in maps:
        for h in m.grid.hexes:
            info = m.hexes[h]
            if h in cells:
                old = cells[h]
                if info.label not in old.labels:
                    cells[h] = Cell(h, old.info, old.labels + (info.label,))
            else:
                cells[h] = Cell(h, info, (info.label,))
    return cells


def build_scene(
    maps: Sequence[Map], style: MapStyle, layout: PixelLayout, size: tuple[int, int], reuse: Reuse | None = None
) -> Scene:
    """All map layers of ``maps`` drawn with ``layout`` into an image of ``size`` (``reuse``: the items of
    the last scene drawn with this layout and style, taken where what they are drawn from is the same)."""
    scene = Scene(layout, size, style, cells_of(maps), maps, reuse=reuse)
    scene.occupied = BoxIndex(layout.size * 2)
    scene.ids = BoxIndex(layout.size * 2)
    cells = add_cells(scene)
    add_hexsides(scene)
    add_paths(scene)
    add_edge(scene)
    feature_boxes = add_features(scene)
    ids = add_hex_ids(scene, cells)
    add_names(scene, feature_boxes)
    draw_hex_ids(scene, ids)
    return scene


def hex_centre(scene: Scene, h: Hex) -> tuple[float, float]:
    return scene.layout.hex_to_pixel(h)


@dataclass(frozen=True)
class CellItems:
    """What one hex draws of itself: its fill, terrain symbols, grid line and printed id."""

    fill: Poly
    symbols: tuple[Item, ...]
    grid: Line
    id_text: Text


def add_cells(scene: Scene) -> list[CellItems]:
    """Every hex's fill, then every terrain symbol, then the grid (the north, north-east and south-east
    sides of every hex: each shared side once); the hex ids are returned for `add_hex_ids`. A hex's items
    are made (or reused) together, from its terrain and printed ids."""
    made = []
    for h in sorted(scene.cells):
        cell = scene.cells[h]
        terrain = tuple(cell.info.terrain)
        made.append(_made(scene, ("cell", h, terrain, cell.labels), _cell_items, scene, h, terrain))
    scene.vector.extend(c.fill for c in made)
    for c in made:
        scene.vector.extend(c.symbols)
    scene.vector.extend(c.grid for c in made)
    return made


def _cell_items(scene: Scene, h: Hex, terrain: tuple[str, ...]) -> CellItems:
    corners = tuple(scene.layout.corners(h))
    fill = Poly(corners, scene.style.terrain_look(terrain[0]).color)
    c = corners
    grid = Line(
        (c[4], c[5], c[0], c[1]), scene.style.grid, scene.style.grid_width * scene.f, round_caps=False, sharp=False
    )
    return CellItems(fill, _terrain_symbols(scene, h, terrain), grid, hex_id_text(scene, h))


def _terrain_symbols(scene: Scene, h: Hex, terrain: tuple[str, ...]) -> tuple[Item, ...]:
    x, y = hex_centre(scene, h)
    out: list[Item] = []
    for t in terrain:
        look = scene.style.terrain_look(t)
        painter = TERRAIN_SYMBOLS.get(look.symbol)
        if painter:
            out += painter(x, y, scene.f, look.color)
    return tuple(out)


def edge_sides(scene: Scene) -> list[tuple[Hex, int]]:
    """(hex, direction) of every side whose neighbour is not drawn: the outline of the map area."""
    return [(h, d) for h in sorted(scene.cells) for d in range(6) if h.neighbour(d) not in scene.cells]


def add_edge(scene: Scene) -> None:
    scene.vector.extend(_made(scene, ("edge", frozenset(scene.cells)), _edge_lines, scene))


def _edge_lines(scene: Scene) -> tuple[Item, ...]:
    segs = [scene.layout.edge_segment(h, d) for h, d in edge_sides(scene)]
    return tuple(Line(tuple(line), scene.style.ink, scene.style.edge_width * scene.f) for line in geo.chain(segs))


# --- hexside features -----------------------------------------------------------------------


def _hexside_segments(scene: Scene) -> dict[str, list[tuple[geo.Segment, Hex | None, Hex]]]:
    """Feature type -> (segment, faced hex, reference hex) for inner and map-edge sides, deduplicated."""
    out: dict[str, list] = {}
    seen: set = set()
    for m in scene.maps:
        for s in m.hexsides:
            if (s.type, s.side) not in seen:
                seen.add((s.type, s.side))
                out.setdefault(s.type, []).append((scene.layout.hexside_segment(s.side), s.faces, s.side.a))
        for e in m.edge_sides:
            if (e.type, e.hex, e.direction) not in seen:
                seen.add((e.type, e.hex, e.direction))
                out.setdefault(e.type, []).append((scene.layout.edge_segment(e.hex, e.direction), e.hex, e.hex))
    return out


def add_hexsides(scene: Scene) -> None:
    by_type = _hexside_segments(scene)
    order = {s: i for i, s in enumerate(HEXSIDE_ORDER)}
    for tid in sorted(by_type, key=lambda t: (order.get(scene.style.hexsides[t].style, 99), t)):
        sides = tuple((seg, faces) for seg, faces, _ in by_type[tid])
        scene.vector.extend(_made(scene, ("hexsides", tid, sides), _hexside_items, scene, tid, sides))


def _hexside_items(scene: Scene, tid: str, sides: Sequence[tuple[geo.Segment, Hex | None]]) -> tuple[Item, ...]:
    """One hexside feature type's items: a toothed line per side, or its sides chained into rounded lines."""
    look = scene.style.hexsides[tid]
    out: list[Item] = []
    if look.style == "fortified-line":
        for seg, faces in sides:
            out += fortified_side(scene, seg, faces, look)
    else:
        for line in geo.chain(seg for seg, _ in sides):
            out += hexside_line(scene, geo.round_corners(line, RIVER_ROUNDING), look)
    return tuple(out)


def _curve(pts, colour, width: float) -> Line:
    return Line(tuple(pts), colour, width, sharp=False)


def hexside_line(scene: Scene, pts: list, look: Look) -> list[Item]:
    f, w = scene.f, look.width * scene.f
    pts = tuple(pts)
    if look.style in ("major-river", "lake", "sea"):
        return [_curve(pts, look.color, w), _curve(pts, shade(look.color, 1.35), w * 0.35)]
    if look.style == "border":
        out: list[Item] = [_curve(pts, shade(look.color, 1.6), w * 2.2)]
        out += [_curve(tuple(d), look.color, w) for d in geo.dashes(pts, 0.14 * f, 0.08 * f)]
        return out
    return [_curve(pts, look.color, w)]


def fortified_side(scene: Scene, seg: geo.Segment, faces: Hex | None, look: Look) -> list[Item]:
    """A line along the hexside with triangular teeth pointing into the hex it faces (``faces``)."""
    f, w = scene.f, look.width * scene.f
    out: list[Item] = [Line(seg, look.color, w)]
    targets = [hex_centre(scene, faces)] if faces is not None else []
    if not targets:
        mx, my = (seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2
        targets = [(mx, my - 1.0)]
    nx, ny = geo.normal_toward(seg, targets[0])
    (x0, y0), (x1, y1) = seg
    teeth = 4
    for k in range(teeth):
        t0, t1 = (k + 0.2) / teeth, (k + 0.8) / teeth
        a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
        b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
        tip = ((a[0] + b[0]) / 2 + nx * 0.07 * f, (a[1] + b[1]) / 2 + ny * 0.07 * f)
        out.append(Poly((a, tip, b), look.color))
    return out


# --- paths ------------------------------------------------------------------------------------


def _path_segments(scene: Scene) -> dict[str, list[geo.Segment]]:
    out: dict[str, list[geo.Segment]] = {}
    for m in scene.maps:
        for p in m.paths:
            segs = out.setdefault(p.type, [])
            segs += geo.centre_segments(scene.layout, p.hexes)
            for h, d in p.exits:
                reach = 1.0 if h.neighbour(d) in scene.cells else 0.85
                segs.append(geo.exit_segment(scene.layout, h, d, reach))
    return out


def add_paths(scene: Scene) -> None:
    by_type = _path_segments(scene)
    order = {s: i for i, s in enumerate(PATH_ORDER)}
    for tid in sorted(by_type, key=lambda t: (order.get(scene.style.paths[t].style, 99), t)):
        segs = tuple(by_type[tid])
        scene.vector.extend(_made(scene, ("paths", tid, segs), _path_lines, scene, tid, segs))


def _path_lines(scene: Scene, tid: str, segs: Sequence[geo.Segment]) -> tuple[Item, ...]:
    look = scene.style.paths[tid]
    return tuple(item for line in geo.chain(segs) for item in path_line(scene, geo.round_corners(line, 0.5), look))


def path_line(scene: Scene, pts: list, look: Look) -> list[Item]:
    f, w = scene.f, look.width * scene.f
    pts = tuple(pts)
    if look.style == "rail":
        ties = [Line(t, look.color, max(1.0, w * 0.45), round_caps=False) for t in geo.ticks(pts, 0.11 * f, 0.055 * f)]
        return [_curve(pts, look.color, w)] + ties
    if look.style == "road":
        return [_curve(pts, shade(look.color, 0.45), w * 1.6), _curve(pts, look.color, w)]
    if look.style == "track":
        return [_curve(tuple(d), look.color, w) for d in geo.dashes(pts, 0.07 * f, 0.05 * f)]
    return [_curve(pts, look.color, w)]


# --- point features ---------------------------------------------------------------------------


def feature_colour(scene: Scene, feat: HexFeature, look: Look) -> str:
    if feat.side and look.symbol in SIDE_COLOURED and feat.side in scene.style.side_colors:
        return scene.style.side_colors[feat.side]
    return look.color


def add_features(scene: Scene, only: frozenset[str] | None = None) -> tuple[Box, ...]:
    """Point features, fortification rings and entry arrows; ``only`` limits them to those types (the marks
    drawn over a painted map). A hex's are made (or reused) from its features and which neighbours are drawn.
    Returns the boxes of the symbols (names are placed off them)."""
    placed: list[Box] = []
    for h in sorted(scene.cells):
        feats = tuple(ft for ft in scene.cells[h].info.features if only is None or ft.type in only)
        if not feats:
            continue
        what = tuple((ft.type, ft.name, ft.kind, ft.label, ft.side, ft.points) for ft in feats)
        drawn = tuple(h.neighbour(d) in scene.cells for d in range(6))
        items, boxes = _made(scene, ("features", h, what, drawn), _hex_features, scene, h, feats)
        scene.vector.extend(items)
        for box in boxes:
            scene.occupied.append(box)
        placed += boxes
    return tuple(placed)


def _hex_features(scene: Scene, h: Hex, feats: tuple[HexFeature, ...]) -> tuple[tuple[Item, ...], tuple[Box, ...]]:
    """One hex's feature items and the boxes of its symbols (names are placed off them)."""
    f = scene.f
    x, y = hex_centre(scene, h)
    centre = [ft for ft in feats if _symbol(scene, ft) in FEATURE_SYMBOLS and _symbol(scene, ft) not in MARK_SYMBOLS]
    marks = [ft for ft in feats if _symbol(scene, ft) in MARK_SYMBOLS]
    items: list[Item] = []
    for ft in feats:
        look = scene.style.feature_look(ft.type)
        if look.symbol == "fort":
            items += fort_ring(scene, h, look.color)
        elif look.symbol in ARROWS:
            items += entry_arrow(scene, h, feature_colour(scene, ft, look), ARROWS[look.symbol])
    spots = [(ft, x + (i - (len(centre) - 1) / 2) * 0.24 * f, y) for i, ft in enumerate(centre)]
    spots += [(ft, x + (MARK_OFFSET[0] - 0.2 * i) * f, y + MARK_OFFSET[1] * f) for i, ft in enumerate(marks)]
    boxes = []
    for ft, sx, sy in spots:
        items += _symbol_items(scene, ft, sx, sy)
        r = 0.12 * f
        boxes.append((sx - r, sy - r, sx + r, sy + r))
    return tuple(items), tuple(boxes)


def _symbol(scene: Scene, feat: HexFeature) -> str:
    return scene.style.feature_look(feat.type).symbol


def _symbol_items(scene: Scene, feat: HexFeature, x: float, y: float) -> list[Item]:
    look = scene.style.feature_look(feat.type)
    f = scene.f
    colour = feature_colour(scene, feat, look)
    if look.symbol == "victory" and feat.points is not None:
        return [Disc(x, y, 0.1 * f, colour, INK, 0.012 * f), Text(str(feat.points), x, y, 0.13 * f, INK, bold=True)]
    return list(FEATURE_SYMBOLS[look.symbol](x, y, f, colour))


def fort_ring(scene: Scene, h: Hex, colour: str) -> list[Item]:
    """The hex outline shrunk to `FORT_RING`, with teeth pointing outwards."""
    f = scene.f
    x, y = hex_centre(scene, h)
    ring = [(x + (cx - x) * FORT_RING, y + (cy - y) * FORT_RING) for cx, cy in scene.layout.corners(h)]
    out: list[Item] = [Line(tuple(ring + ring[:1]), colour, 0.03 * f)]
    for i in range(6):
        a, b = ring[i], ring[(i + 1) % 6]
        out += fortified_teeth((a, b), (x, y), colour, f, outward=True)
    return out


def fortified_teeth(seg, centre, colour, f, outward: bool) -> list[Item]:
    nx, ny = geo.normal_toward(seg, centre)
    if outward:
        nx, ny = -nx, -ny
    (x0, y0), (x1, y1) = seg
    out: list[Item] = []
    for k in range(3):
        t0, t1 = (k + 0.25) / 3, (k + 0.75) / 3
        a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
        b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
        tip = ((a[0] + b[0]) / 2 + nx * 0.05 * f, (a[1] + b[1]) / 2 + ny * 0.05 * f)
        out.append(Poly((a, tip, b), colour))
    return out


def entry_arrow(scene: Scene, h: Hex, colour: str, count: int = 1) -> list[Item]:
    """``count`` arrows side by side from outside the map edge into ``h``; inside the hex when it is not
    on the edge (a triple arrow marks another kind of entry hex than a single one, BfM's optional rule)."""
    f = scene.f
    x, y = hex_centre(scene, h)
    outs = [d for d in range(6) if h.neighbour(d) not in scene.cells]
    if not outs:
        ux, uy, near, far = 0.0, 1.0, -0.3, 0.05
    else:
        vx = sum(scene.layout.hex_to_pixel(h.neighbour(d))[0] - x for d in outs)
        vy = sum(scene.layout.hex_to_pixel(h.neighbour(d))[1] - y for d in outs)
        n = math.hypot(vx, vy) or 1.0
        ux, uy, near, far = vx / n, vy / n, 0.38, 0.95
    out: list[Item] = []
    for i in range(count):
        off = (i - (count - 1) / 2) * ARROW_GAP * f
        bx, by = x - uy * off, y + ux * off
        out += arrow((bx + ux * near * f, by + uy * near * f), (bx + ux * far * f, by + uy * far * f), f, colour)
    return out


def _named_places(scene: Scene) -> list[tuple[str, list[Hex], bool]]:
    """(name, touching hexes that carry it, a major city?) in hex order: each name's groups of neighbours."""
    by_name: dict[str, list[Hex]] = {}
    big: set[str] = set()
    for h in sorted(scene.cells):
        for ft in scene.cells[h].info.features:
            text = ft.name or ft.label
            if text:
                by_name.setdefault(text, []).append(h)
                if scene.style.feature_look(ft.type).symbol == "major-city":
                    big.add(text)
    places = []
    for text, hexes in by_name.items():
        left = set(hexes)
        for start in hexes:
            if start not in left:
                continue
            group, todo = [], [start]
            left.discard(start)
            while todo:
                h = todo.pop()
                group.append(h)
                for d in range(6):
                    n = h.neighbour(d)
                    if n in left:
                        left.discard(n)
                        todo.append(n)
            places.append((min(group), text, sorted(group), text in big))
    return [(text, group, b) for _, text, group, b in sorted(places)]


def _middle_hex(scene: Scene, group: list[Hex]) -> tuple[float, float]:
    """The centre of the group's hex nearest its middle (a one-hex place: that hex)."""
    points = [hex_centre(scene, h) for h in group]
    mx, my = sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    return min(points, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p))


# --- text -------------------------------------------------------------------------------------


def hex_id_text(scene: Scene, h: Hex) -> Text:
    """The printed id(s) of a hex, small, at the top of the hex."""
    f = scene.f
    x, y = hex_centre(scene, h)
    labels = scene.cells[h].labels
    size = ID_SIZE * f * (0.8 if len(labels) > 1 else 1.0)
    ground = scene.style.terrain_look(scene.cells[h].info.terrain[0]).color
    return Text(
        " / ".join(labels),
        x,
        y - ID_OFFSET * f,
        max(4.0, size),
        shade(INK, 1.15),
        halo=ground,
        halo_width=max(1, round(ID_HALO * f)),
    )


def add_hex_ids(scene: Scene, cells: Sequence[CellItems]) -> list[Text]:
    """Reserve every hex id's box (names are then placed off them) and return the ids, which are
    drawn last, on a halo of paper: no rail, road or label ever covers a hex number."""
    ids = [c.id_text for c in cells]
    boxes = tuple(t.bbox for t in ids)
    scene.ids = _made(scene, ("id boxes", boxes), _id_boxes, scene.ids, boxes)
    return ids


def _id_boxes(index: BoxIndex, boxes: tuple[Box, ...]) -> BoxIndex:
    """`index` with every hex id's box (shared by the scenes with the same boxes: nothing adds to it after)."""
    for box in boxes:
        index.append(box)
    return index


def draw_hex_ids(scene: Scene, ids: list[Text]) -> None:
    for t in ids:
        scene.text.add(t)


def name_candidates(x: float, y: float, f: float) -> list[tuple[float, float, str]]:
    """Where a feature's name may go, in order of preference: below, right, left, above."""
    e = 0.13 * f
    return [
        (x, y + e, "mt"),
        (x + e, y, "lm"),
        (x - e, y, "rm"),
        (x, y - e, "mb"),
        (x, y + 2.2 * e, "mt"),
        (x, y + 1.6 * e, "mt"),
        (x + e, y + e, "lm"),
        (x - e, y + e, "rm"),
        (x, y + 3.0 * e, "mt"),
    ]


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_name(scene: Scene, occupied: BoxIndex, text: str, x: float, y: float, size: float, bold: bool = True) -> Text:
    """A name put where it overlaps the least marks already in `occupied` (first best candidate wins), and
    its box added there; it pays heavily for covering a hex number, and is set a little smaller when every
    place would."""
    best, best_score = None, math.inf
    W, H = scene.size
    for s in (size, 0.85 * size, 0.72 * size):
        for cx, cy, anchor in name_candidates(x, y, scene.f):
            box = text_box(text, cx, cy, s, bold, anchor)
            score = occupied.overlap(box) + 1000 * scene.ids.overlap(box)
            score += 1e6 * (box[0] < 0 or box[1] < 0 or box[2] > W or box[3] > H)
            if score < best_score - 1e-9:
                best, best_score = (cx, cy, anchor, box, s), score
        if best_score < 1000:
            break
    cx, cy, anchor, box, size = best
    occupied.append(box)
    halo = max(1, round(0.018 * scene.f))
    return Text(text, cx, cy, size, INK, anchor, bold, halo=(255, 252, 240), halo_width=halo)


def add_names(scene: Scene, feature_boxes: tuple[Box, ...] = ()) -> None:
    """Place names, one label per place: a name several touching hexes carry (Moscow's four major-city
    hexes) is printed once, on the hex nearest the middle of the group. Each name is placed off the marks
    and names before it, so the names are made (or reused) together, from the places, the map labels and
    the boxes they avoid (`feature_boxes`: the point features' symbols; the hex ids)."""
    places = tuple((text, tuple(group), big) for text, group, big in _named_places(scene))
    labels = tuple((lab.text, lab.hex) for m in scene.maps for lab in m.labels if lab.hex in scene.cells)
    key = ("names", places, labels, feature_boxes, scene.ids)
    items, boxes = _made(scene, key, _name_items, scene, places, labels)
    scene.text.extend(items)
    for box in boxes:
        scene.occupied.append(box)


def _name_items(scene: Scene, places, labels) -> tuple[tuple[Text, ...], tuple[Box, ...]]:
    """The names and their boxes, each placed off the marks, the hex ids and the names before it."""
    f = scene.f
    avoid = scene.occupied.copy()
    out: list[Text] = []
    for text, group, big in places:
        x, y = _middle_hex(scene, list(group))
        out.append(place_name(scene, avoid, text, x, y, NAME_SIZE * f * (1.2 if big else 1.0)))
    for text, h in labels:
        x, y = hex_centre(scene, h)
        p = place_name(scene, avoid, text, x, y, 0.2 * f)
        halo = max(1, round(0.015 * f))
        out.append(Text(text, p.x, p.y, p.size, shade(INK, 1.3), p.anchor, True, halo=(255, 252, 240), halo_width=halo))
    return tuple(out), tuple(avoid.added)
