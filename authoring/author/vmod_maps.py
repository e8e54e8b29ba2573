"""import-vmod's maps: one project map per board with a hex grid (or per zone with its own), registered by
the module's grid; boards showing the same hexes with the same art are one map; boards too large for one
map are cut across their hex lines; a stand-in map when the module has no hex board at all."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, replace

import resvg_py
from PIL import ImageChops, ImageStat

from authoring.author.vmod_common import (
    TODO,
    Folded,
    ImportPlan,
    art_file,
    dump_yaml,
    inches,
    slug,
    unique,
    unique_file,
)
from authoring.budget import HEX_SIZE_IN
from authoring.load.resolve_art import svg_art_problem, svg_pixels
from authoring.vmod.archive import is_svg
from authoring.vmod.buildfile import Board, Finding, Grid, Module
from authoring.vmod.grids import MAX_BOARD_HEXES, ProjectGrid, cropped, label_mismatches, project_grid, registration
from authoring.vmod.locate import zone_grid
from authoring.vmod.picture import ImageTooLarge, opened, pixel_problem


@dataclass
class ImportedMap:
    id: str
    board: Board
    labels: frozenset
    grid: dict
    zone: str | None = None
    files: tuple = ()
    """The map file and its art in the plan (dropped again when a larger board shows the same map)."""
    also: tuple = ()
    """Other (board, zone) views of the same hexes: boards with the same hex ids and the same art."""
    view: _View | None = None
    """The map's grid registration and art, to tell whether another board shows the same."""

    def shows(self, board: str, zone: str | None) -> bool:
        return (self.board.name, self.zone) == (board, zone) or (board, zone) in self.also


def import_maps(plan: ImportPlan, archive, module: Module) -> dict[str, ImportedMap]:
    """One project map per hex grid: a board's own (or its zoned grid's background) with the board image as
    map art, and each zone with its own hex grid with the zone's part of the image; registered by the grid."""
    out: dict[str, ImportedMap] = {}
    for window in module.maps:
        for board in window.boards:
            grid = board.grid
            if grid.kind == "square":
                plan.findings.append(
                    Finding(
                        grid.where,
                        f"board {board.name!r} has a square grid: the project "
                        "has hex maps only, so pieces on it are imported into boxes",
                    )
                )
            image = archive.image(board.image) if board.image else None
            if grid.kind == "hex" or grid.params.get("background") == "hex":
                whole, too_many = _board_grid(grid.params, board.size)
                if too_many:
                    plan.findings.append(
                        Finding(
                            grid.where,
                            f"board {board.name!r} of map {window.name!r}: {too_many}; not imported as a map",
                        )
                    )
                    continue
                boxes = _parts(grid.params, board.size, whole)
                for part, box in enumerate(boxes):
                    _map(plan, out, window, board, None, grid.params, image, box, part if len(boxes) > 1 else None)
            elif grid.kind != "square" and not any(inner.kind == "hex" for _, _, inner in grid.zones):
                why = {
                    "region": "named regions (a point-to-point or box board)",
                    "zoned": "zones without a hex grid",
                    "none": "no grid",
                }.get(grid.kind, grid.kind)
                plan.findings.append(
                    Finding(
                        board.where,
                        f"board {board.name!r} of map {window.name!r} has {why}: "
                        "the project has hex maps only, so it is not imported as a "
                        "map and pieces on it are imported into boxes",
                    )
                )
            for name, polygon, inner in grid.zones:
                if inner.kind == "hex" and polygon:
                    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
                    box = (max(min(xs), 0), max(min(ys), 0), min(max(xs), board.size[0]), min(max(ys), board.size[1]))
                    _map(plan, out, window, board, name, zone_grid(name, inner).params, image, box)
                elif inner.kind == "square":
                    plan.findings.append(
                        Finding(inner.where, f"zone {name!r} has a square grid: pieces in it are imported into a box")
                    )
    return out


MAX_MAP_HEXES = 5000
"""Hexes of one imported map at most: a larger board is imported as several maps, each drawn within the
pixel budget (`authoring.budget.PIXEL_BUDGET` at `MAP_PX_PER_HEX`)."""


def _board_grid(params: dict, size: tuple[int, int]) -> tuple[ProjectGrid | None, str | None]:
    """The project's grid of a board (or a part of one), computed once, and why it is not imported (more than
    MAX_BOARD_HEXES hexes, or numbering the project would print twice), or None."""
    try:
        pg = project_grid(params, size)
    except ValueError as exc:  # ids the project's grid would print twice: too few digits for the board
        return None, f"its hex numbering cannot be carried over ({exc})"
    hexes = pg.grid["columns"] * pg.grid["rows"] if pg is not None else 0
    if hexes > MAX_BOARD_HEXES:
        return pg, f"its grid has {hexes:,} hexes, over the limit of {MAX_BOARD_HEXES:,}"
    return pg, None


def _parts(params: dict, size: tuple[int, int], pg: ProjectGrid | None) -> list[tuple[int, int, int, int] | None]:
    """Crop boxes cutting a board across its hex lines into maps of at most MAX_MAP_HEXES hexes each (one
    None: the board whole). Each box reaches 2/3 of a line spacing past its outer lines' centres, which
    takes in those lines' hexes and no centre of the next part's."""
    if pg is None:
        return [None]
    g = pg.grid
    if g["columns"] * g["rows"] <= MAX_MAP_HEXES:
        return [None]
    flat = not params["sideways"]
    lines, cross = (g["columns"], g["rows"]) if flat else (g["rows"], g["columns"])
    per = max(1, MAX_MAP_HEXES // cross)
    extent = size[0] if flat else size[1]
    first = math.ceil(-params["x0"] / params["dx"])
    boxes = []
    for start in range(0, lines, per):
        lo = params["x0"] + (first + start) * params["dx"] - params["dx"] * 2 / 3
        hi = params["x0"] + (first + min(start + per, lines) - 1) * params["dx"] + params["dx"] * 2 / 3
        lo, hi = max(0, math.floor(lo)), min(extent, math.ceil(hi))
        boxes.append((lo, 0, hi, size[1]) if flat else (0, lo, size[0], hi))
    return boxes


def _map(
    plan: ImportPlan,
    out: dict,
    window,
    board: Board,
    zone: str | None,
    params: dict,
    image: bytes | None,
    box: tuple[int, int, int, int] | None,
    part: int | None = None,
) -> None:
    what = f"zone {zone!r} of board {board.name!r}" if zone else f"board {board.name!r}"
    if part is not None:
        what += f" (part {part + 1}: the board has more hexes than one map holds)"
    where = board.grid.where
    if image is None:
        plan.findings.append(Finding(board.where, f"{what}: the board has no image; not imported as a map"))
        return
    kept = None  # SVG art kept as it is: the map's art file
    try:
        if is_svg(image):
            why = "the board is cut into parts" if box is not None else svg_not_kept(image, board.size)
            if why is None:
                kept = image
            else:
                plan.findings.append(Finding(board.where, f"{what}: its SVG image is made PNG at its own size: {why}"))
            image = _raster(image, board.size)  # to compare with other boards' art
        if box is not None:
            image = _crop(image, box)
    except Exception as exc:  # noqa: BLE001 - art no decoder reads is a finding, never a crash
        plan.findings.append(
            Finding(board.where, f"{what}: its image {board.image!r} cannot be read ({exc}); not imported as a map")
        )
        return
    size = board.size
    if box is not None:
        params = cropped(params, box[0], box[1])
        size = (box[2] - box[0], box[3] - box[1])
    pg, problem = _board_grid(params, size)
    if problem or pg is None:
        why = problem or "no hex of its grid is on the image"
        plan.findings.append(Finding(where, f"{what}: {why}; not imported as a map"))
        return
    try:
        grid_obj, _ = registration(pg)
    except ValueError as exc:  # ids the project's grid would print twice: too few digits for the board
        plan.findings.append(
            Finding(where, f"{what}: its hex numbering cannot be carried over ({exc}); not imported as a map")
        )
        return
    for text in pg.warnings:
        plan.findings.append(Finding(where, f"{what}: {text}"))
    bad = label_mismatches(pg, params)
    if bad:
        examples = ", ".join(f"{a} (engine: {b})" for a, b in bad[:3])
        plan.findings.append(
            Finding(where, f"{what}: {len(bad)} hex ids differ from the module's names, e.g. {examples}")
        )
    labels = frozenset(grid_obj.hex_to_label(h) for h in grid_obj.hexes)
    view = _View(pg, image)
    same = next((m for m in out.values() if labels <= m.labels and _same_art(m.view, view, labels)), None)
    if same is not None:
        out[same.id] = replace(same, also=same.also + ((board.name, zone),))
        plan.findings.append(
            Finding(
                where,
                f"{what} shows hexes of map {same.id!r} with the same art: imported "
                "as that map, not as a map of its own",
            )
        )
        return
    # a larger board with the same art around the hexes of a map already imported (a whole map beside its cut)
    # replaces that map under its own name
    smaller = next((m for m in out.values() if m.labels < labels and _same_art(view, m.view, m.labels)), None)
    also = ()
    if smaller is not None:
        for path in smaller.files:
            plan.files.pop(path, None)
        del out[smaller.id]
        also = ((smaller.board.name, smaller.zone), *smaller.also)
        plan.findings.append(
            Finding(
                where,
                f"{what} shows every hex of map {smaller.id!r} with the same art, and "
                f"more: map {smaller.id!r} is imported from {what}, the larger",
            )
        )
    title = zone or (board.name if part is None else f"{board.name} {part + 1}")
    if smaller is not None:  # the map keeps the id and name its set-ups and boards know it by
        title, mid = smaller.zone or smaller.board.name, smaller.id
    else:
        mid = unique(slug(title) or "map", Folded(out))
    source = board.image if box is None else f"{mid}.png"
    stem, dot, ext = source.rpartition(".")
    if (kept is not None) != (ext.lower() == "svg"):  # the file is named as what it holds: SVG kept, or PNG made
        source = f"{stem if dot else source}.{'svg' if kept is not None else 'png'}"
    made = art_file(source, kept or image)
    if made is None:
        plan.findings.append(
            Finding(
                board.where, f"{what}: its image {board.image!r} is no image hexwright can read; not imported as a map"
            )
        )
        return
    name, data = made
    name = _art_name(plan, name, data)
    grid = dict(pg.grid, hex_size=f"{inches(params['dy'], HEX_SIZE_IN)}in")
    doc = {
        "kind": "map",
        "game": plan.game_id,
        "id": mid,
        "name": title,
        "note": f"{TODO}: terrain, features, hexsides and paths are not in the module; the grid and art "
        f"registration are the module's ({what} of map {window.name!r}).",
        "grid": grid,
        "art": {"image": f"art/{name}", **pg.art},
        "default_terrain": "clear",
    }
    files = (plan.dest / "maps" / plan.game_id / f"{mid}.yaml", plan.dest / "maps" / plan.game_id / "art" / name)
    plan.files[files[0]] = dump_yaml("map", doc)
    plan.files[files[1]] = data
    out[mid] = ImportedMap(mid, board, labels, pg.grid, zone, files, also, view)


def _art_name(plan: ImportPlan, name: str, data: bytes) -> str:
    """`name`, or a numbered variant of it, for map art `data`: boards `board.png` and `sub/board.png` of
    different images become two files (art names are injective); the same image keeps one file."""
    folder = plan.dest / "maps" / plan.game_id / "art"
    taken = Folded(p.name for p, held in plan.files.items() if p.parent == folder and held != data)
    return unique_file(name, taken)


@dataclass(frozen=True)
class _View:
    pg: object
    image: bytes


SAME_ART_TOLERANCE = 12
"""Mean difference (0-255) of two boards' pixels over their common hexes below which they show the same art."""


def _same_art(big: _View | None, small: _View | None, labels: frozenset) -> bool:
    """Whether `small`'s art is `big`'s around the hexes in `labels` (both have them): `small`'s image laid
    on `big`'s where their first common hex coincides, compared at 64 x 64 samples."""
    if big is None or small is None or not labels:
        return False

    label = min(labels)
    (grid_b, reg_b), (grid_s, reg_s) = registration(big.pg), registration(small.pg)
    bx, by = reg_b.hex_to_image(grid_b.label_to_hex(label))
    sx, sy = reg_s.hex_to_image(grid_s.label_to_hex(label))
    try:
        with opened(big.image) as b_im, opened(small.image) as s_im:
            left, top = round(bx - sx), round(by - sy)
            if left < 0 or top < 0 or left + s_im.width > b_im.width + 2 or top + s_im.height > b_im.height + 2:
                return False
            cut = b_im.convert("RGB").crop((left, top, left + s_im.width, top + s_im.height)).resize((64, 64))
            diff = ImageChops.difference(cut, s_im.convert("RGB").resize((64, 64)))
            return sum(ImageStat.Stat(diff).mean) / 3 < SAME_ART_TOLERANCE
    except Exception:  # noqa: BLE001 - art that cannot be compared is not the same
        return False


def stand_in_map(plan: ImportPlan) -> dict[str, ImportedMap]:
    """A one-hex map for a module with set-ups but no hex board: a scenario names at least one map, and its
    pieces are all in boxes."""
    mid = "no-hex-map"
    grid = {
        "orientation": "flat",
        "columns": 1,
        "rows": 1,
        "first_column": 1,
        "first_row": 1,
        "shifted": "odd",
        "label": {"prefix": "", "column_digits": 2, "row_digits": 2, "column_style": "numeric"},
        "hex_size": "0.75in",
    }
    doc = {
        "kind": "map",
        "game": plan.game_id,
        "id": mid,
        "name": "No hex map",
        "note": f"{TODO}: the module has no board with a hex grid, so its set-ups put every piece in a box "
        "named after its board or region; this one-hex map stands in for the scenarios' maps.",
        "grid": grid,
        "default_terrain": "clear",
    }
    path = plan.dest / "maps" / plan.game_id / f"{mid}.yaml"
    plan.files[path] = dump_yaml("map", doc)
    plan.findings.append(
        Finding(
            "/",
            "the module has no board with a hex grid: its set-ups are imported with "
            f"every piece in a box, on the stand-in map {mid!r}",
        )
    )
    return {
        mid: ImportedMap(mid, Board("", "", "", (0, 0), Grid("none"), ""), frozenset(), grid, None, (path,), (), None)
    }


def svg_not_kept(svg: bytes, size: tuple[int, int]) -> str | None:
    """Why an SVG board cannot be the project's map art as it is, or None: art the project refuses
    (`resolve_art.svg_art_problem`), or a size the project reads otherwise than the engine (`size`)."""
    problem = svg_art_problem(svg)
    if problem:
        return problem
    own = svg_pixels(svg)
    if own != tuple(size):
        return f"the project reads its size as {own[0]} x {own[1]} px, the module as {size[0]} x {size[1]} px"
    return None


def _raster(svg: bytes, size: tuple[int, int]) -> bytes:
    """An SVG board as PNG at its own size (VASSAL draws the SVG at this size): for comparing boards' art,
    and the map art of a board whose SVG cannot be kept."""
    problem = pixel_problem(size)
    if problem:
        raise ImageTooLarge(problem)
    png = bytes(
        resvg_py.svg_to_bytes(svg_string=svg.decode("utf-8"), width=size[0], height=size[1], skip_system_fonts=True)
    )
    with opened(png) as im:
        out = io.BytesIO()
        im.save(out, "PNG")
    return out.getvalue()


def _crop(image: bytes, box: tuple[int, int, int, int]) -> bytes:
    with opened(image) as im:
        out = io.BytesIO()
        im.crop(box).save(out, "PNG")
    return out.getvalue()


def shared_ids(plan: ImportPlan, maps: dict[str, ImportedMap]) -> None:
    """A finding for maps that name their hexes alike (boards numbered each from 0101): the project cannot lay
    them in one layout, so they stay separate maps with no layout."""
    seen: dict[str, str] = {}
    for mid, m in maps.items():
        other = next((seen[label] for label in sorted(m.labels) if label in seen), None)
        if other is not None:
            plan.findings.append(
                Finding(
                    m.board.where,
                    f"map {mid!r} names its hexes as map {other!r} does (each "
                    "board numbered alike): the maps are left out of the game's "
                    "layout; a scenario should use one of them",
                )
            )
        seen.update({label: mid for label in m.labels if label not in seen})


_GAP = 2
"""Empty lines between imported maps in the layout: boards of a module are separate maps, never joined."""


def layout(maps: dict[str, ImportedMap]) -> dict:
    """Maps apart in one global grid (the rules engine must not see two boards' hexes as one): flat maps in a
    row, pointy maps in a column, each moved a line further when needed so that all agree on which
    global lines are shifted."""
    out, at, parity = {}, 0, None
    for mid, m in maps.items():
        flat = m.grid["orientation"] == "flat"
        first = m.grid["first_column"] if flat else m.grid["first_row"]
        own = (0 if m.grid["shifted"] == "even" else 1) - first
        if parity is not None and (own + at) % 2 != parity:
            at += 1
        parity = (own + at) % 2
        out[mid] = {
            "origin": [at, 0] if flat else [0, at],
            "note": "imported boards are laid apart; set the real layout if the maps join",
        }
        at += (m.grid["columns"] if flat else m.grid["rows"]) + _GAP
    return out
