"""`hexwright import-vmod`: an existing VASSAL module as a hexwright project (issue 19).

Reads the whole module first (`authoring.vmod`), plans every file, refuses to overwrite any, then writes
each atomically, like `init`. What the module cannot tell (terrain, stacking, set-up codes, tables,
the turn record) is written as `TODO` notes; `todo_findings` lists them as located warnings.
"""
from __future__ import annotations

import io
import math
import re
from collections import Counter as Tally
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from authoring.author.fsutil import refuse_existing
from authoring.author.project import _schema_files, write_plan
from authoring.author import templates
from authoring.errors import UsageError
from authoring.load.budget import COUNTER_SIZE_IN, HEX_SIZE_IN
from authoring.vmod.archive import ModuleReadError, build_file, is_svg, open_archive, svg_size
from authoring.vmod.buildfile import Board, Finding, Grid, Module, Setup, read_module
from authoring.vmod.grids import cropped, label_mismatches, project_grid, registration
from authoring.vmod.locate import board_origins, locate, locate_on_board, zone_grid
from authoring.vmod.pieces import FacePlan, Piece, Prototypes, basic_state, decode_placed, face_plan, layer_level
from authoring.vassal.codec import parse_add_piece_command

TODO = "TODO"
PRINT_DPI = 150
"""Board pixels per inch assumed for print: hex_size in inches = hex height in px / 150 (HW-ART-015 quiet)."""
_ART_TYPES = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg", ".svg": ".svg"}


@dataclass
class ImportPlan:
    dest: Path
    game_id: str
    files: dict[Path, str | bytes]
    findings: list[Finding]
    figures: dict = field(default_factory=dict)


@dataclass
class _Counter:
    id: str
    name: str
    side: str
    faces: list[str]
    signature: tuple
    where: str
    level_names: list[str] = field(default_factory=list)
    prototypes: list[str] = field(default_factory=list)
    type: str | None = None
    states: list[str] = field(default_factory=list)
    """State id of each face (set once the game's states are known)."""


def import_vmod(module: Path, dest: Path, game_id: str | None = None) -> ImportPlan:
    plan = plan_import(module, dest, game_id)
    write_plan(plan)
    return plan


def plan_import(module_path: Path, dest: Path, game_id: str | None = None) -> ImportPlan:
    """Every file of the imported project, computed in full before anything is written."""
    try:
        archive = open_archive(Path(module_path))
        _, root = build_file(archive)
        module = read_module(archive, root)
    except ModuleReadError as exc:
        raise UsageError(str(exc)) from None
    dest = Path(dest).resolve()
    gid = game_id or (_slug(module.name) or "imported").lower()
    if not re.match(r"[a-z0-9][a-z0-9-]*\Z", gid):
        raise UsageError(f"{gid!r} is not a usable game id; use lower-case letters, digits and '-' (pass --id)")
    plan = ImportPlan(dest, gid, _schema_files(dest), list(module.findings))
    files = plan.files
    files[dest / ".gitignore"] = templates.GITIGNORE
    maps = _maps(plan, archive, module)
    sides = _sides(module)
    protos = Prototypes(module.prototypes)
    counters, art, face_plans = _counters(plan, archive, module, sides, protos)
    states = _states(counters)
    unit_types = _unit_types(plan, counters, sides)
    _shared_ids(plan, maps)
    if not maps and (module.setups or any(s.at_start for s in module.slots)):
        maps = _stand_in_map(plan)
    scenarios = _scenarios(plan, archive, module, maps, counters, face_plans, protos)
    order = [sid for sid, _ in sides]
    used_sides = sorted({c.side for c in counters.values()},
                        key=lambda s: order.index(s) if s in order else len(order))
    files[dest / "scenarios" / gid / "game.yaml"] = _game_yaml(module, gid, sides, used_sides, states, counters,
                                                                maps, art, unit_types)
    files[dest / "counters" / gid / "counters.yaml"] = _counters_yaml(gid, counters, states)
    for name, data in art.items():
        files[dest / "counters" / gid / "art" / name] = data
    for sid, text in scenarios.items():
        files[dest / "scenarios" / gid / f"{sid}.yaml"] = text
    plan.figures.update({"maps": len(maps), "counters": len(counters), "scenarios": len(scenarios),
                         "slots": len(module.slots)})
    refuse_existing(files, dest)
    return plan


# -- maps ---------------------------------------------------------------------------------------------

@dataclass
class _Map:
    id: str
    board: Board
    labels: frozenset
    grid: dict
    zone: str | None = None
    files: tuple = ()
    """The map file and its art in the plan (dropped again when a larger board shows the same map)."""
    also: tuple = ()
    """Other (board, zone) views of the same hexes: boards with the same hex ids and the same art."""
    view: "_View | None" = None
    """The map's grid registration and art, to tell whether another board shows the same."""

    def shows(self, board: str, zone: str | None) -> bool:
        return (self.board.name, self.zone) == (board, zone) or (board, zone) in self.also


def _maps(plan: ImportPlan, archive, module: Module) -> dict[str, _Map]:
    """One project map per hex grid: a board's own (or its zoned grid's background) with the board image as
    map art, and each zone with its own hex grid with the zone's part of the image; registered by the grid."""
    out: dict[str, _Map] = {}
    for window in module.maps:
        for board in window.boards:
            grid = board.grid
            if grid.kind == "square":
                plan.findings.append(Finding(grid.where, f"board {board.name!r} has a square grid: the project "
                                                         "has hex maps only, so pieces on it are imported into boxes"))
            image = archive.image(board.image) if board.image else None
            if grid.kind == "hex" or grid.params.get("background") == "hex":
                boxes = _parts(grid.params, board.size)
                for part, box in enumerate(boxes):
                    _map(plan, out, window, board, None, grid.params, image, box, part if len(boxes) > 1 else None)
            elif grid.kind != "square" and not any(inner.kind == "hex" for _, _, inner in grid.zones):
                why = {"region": "named regions (a point-to-point or box board)", "zoned": "zones without a hex grid",
                       "none": "no grid"}.get(grid.kind, grid.kind)
                plan.findings.append(Finding(board.where, f"board {board.name!r} of map {window.name!r} has {why}: "
                                                          "the project has hex maps only, so it is not imported as a "
                                                          "map and pieces on it are imported into boxes"))
            for name, polygon, inner in grid.zones:
                if inner.kind == "hex" and polygon:
                    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
                    box = (max(min(xs), 0), max(min(ys), 0), min(max(xs), board.size[0]), min(max(ys), board.size[1]))
                    _map(plan, out, window, board, name, zone_grid(name, inner).params, image, box)
                elif inner.kind == "square":
                    plan.findings.append(Finding(inner.where, f"zone {name!r} has a square grid: pieces in it are "
                                                              "imported into a box"))
    return out


MAX_MAP_HEXES = 5000
"""Hexes of one imported map at most: a larger board is imported as several maps, each drawn within the
pixel budget (`authoring.load.budget.PIXEL_BUDGET` at `MAP_PX_PER_HEX`)."""


def _parts(params: dict, size: tuple[int, int]) -> list[tuple[int, int, int, int] | None]:
    """Crop boxes cutting a board across its hex lines into maps of at most MAX_MAP_HEXES hexes each (one
    None: the board whole). Each box reaches 2/3 of a line spacing past its outer lines' centres, which
    takes in those lines' hexes and no centre of the next part's."""
    pg = project_grid(params, size)
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


def _map(plan: ImportPlan, out: dict, window, board: Board, zone: str | None, params: dict, image: bytes | None,
         box: tuple[int, int, int, int] | None, part: int | None = None) -> None:
    what = f"zone {zone!r} of board {board.name!r}" if zone else f"board {board.name!r}"
    if part is not None:
        what += f" (part {part + 1}: the board has more hexes than one map holds)"
    where = board.grid.where
    if image is None:
        plan.findings.append(Finding(board.where, f"{what}: the board has no image; not imported as a map"))
        return
    try:
        if is_svg(image):
            image = _raster(image, board.size)
        if box is not None:
            image = _crop(image, box)
    except Exception as exc:  # noqa: BLE001 - art no decoder reads is a finding, never a crash
        plan.findings.append(Finding(board.where, f"{what}: its image {board.image!r} cannot be read ({exc}); "
                                                  "not imported as a map"))
        return
    size = board.size
    if box is not None:
        params = cropped(params, box[0], box[1])
        size = (box[2] - box[0], box[3] - box[1])
    pg = project_grid(params, size)
    if pg is None:
        plan.findings.append(Finding(where, f"{what}: no hex of its grid is on the image; not imported as a map"))
        return
    for text in pg.warnings:
        plan.findings.append(Finding(where, f"{what}: {text}"))
    bad = label_mismatches(pg, params)
    if bad:
        examples = ", ".join(f"{a} (engine: {b})" for a, b in bad[:3])
        plan.findings.append(Finding(where, f"{what}: {len(bad)} hex ids differ from the module's names, "
                                            f"e.g. {examples}"))
    grid_obj, _ = registration(pg)
    labels = frozenset(grid_obj.hex_to_label(h) for h in grid_obj.hexes)
    view = _View(pg, image)
    same = next((m for m in out.values() if labels <= m.labels and _same_art(m.view, view, labels)), None)
    if same is not None:
        out[same.id] = replace(same, also=same.also + ((board.name, zone),))
        plan.findings.append(Finding(where, f"{what} shows hexes of map {same.id!r} with the same art: imported "
                                            "as that map, not as a map of its own"))
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
        plan.findings.append(Finding(where, f"{what} shows every hex of map {smaller.id!r} with the same art, and "
                                            f"more: map {smaller.id!r} is imported from {what}, the larger"))
    title = zone or (board.name if part is None else f"{board.name} {part + 1}")
    if smaller is not None:   # the map keeps the id and name its set-ups and boards know it by
        title, mid = smaller.zone or smaller.board.name, smaller.id
    else:
        mid = _unique(_slug(title) or "map", out)
    made = _art_file(board.image if box is None else f"{mid}.png", image)
    if made is None:
        plan.findings.append(Finding(board.where, f"{what}: its image {board.image!r} is no image hexwright can "
                                                  "read; not imported as a map"))
        return
    name, data = made
    if name.endswith(".svg"):
        name = f"{name[:-4]}.png"
    grid = dict(pg.grid, hex_size=f"{_inches(params['dy'], HEX_SIZE_IN)}in")
    doc = {"kind": "map", "game": plan.game_id, "id": mid, "name": title,
           "note": f"{TODO}: terrain, features, hexsides and paths are not in the module; the grid and art "
                   f"registration are the module's ({what} of map {window.name!r}).",
           "grid": grid, "art": {"image": f"art/{name}", **pg.art}, "default_terrain": "clear"}
    files = (plan.dest / "maps" / plan.game_id / f"{mid}.yaml", plan.dest / "maps" / plan.game_id / "art" / name)
    plan.files[files[0]] = _yaml("map", doc)
    plan.files[files[1]] = data
    out[mid] = _Map(mid, board, labels, pg.grid, zone, files, also, view)


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
    from PIL import Image, ImageChops, ImageStat
    label = min(labels)
    (grid_b, reg_b), (grid_s, reg_s) = registration(big.pg), registration(small.pg)
    bx, by = reg_b.hex_to_image(grid_b.label_to_hex(label))
    sx, sy = reg_s.hex_to_image(grid_s.label_to_hex(label))
    try:
        with Image.open(io.BytesIO(big.image)) as b_im, Image.open(io.BytesIO(small.image)) as s_im:
            left, top = round(bx - sx), round(by - sy)
            if left < 0 or top < 0 or left + s_im.width > b_im.width + 2 or top + s_im.height > b_im.height + 2:
                return False
            cut = b_im.convert("RGB").crop((left, top, left + s_im.width, top + s_im.height)).resize((64, 64))
            diff = ImageChops.difference(cut, s_im.convert("RGB").resize((64, 64)))
            return sum(ImageStat.Stat(diff).mean) / 3 < SAME_ART_TOLERANCE
    except Exception:  # noqa: BLE001 - art that cannot be compared is not the same
        return False


def _inches(px: float, limits: tuple[float, float]) -> float:
    """`px` module pixels as inches at PRINT_DPI, within the project's `limits` for that length."""
    return round(min(max(px / PRINT_DPI, limits[0]), limits[1]), 4)


def _stand_in_map(plan: ImportPlan) -> dict[str, _Map]:
    """A one-hex map for a module with set-ups but no hex board: a scenario names at least one map, and its
    pieces are all in boxes."""
    mid = "no-hex-map"
    grid = {"orientation": "flat", "columns": 1, "rows": 1, "first_column": 1, "first_row": 1, "shifted": "odd",
            "label": {"prefix": "", "column_digits": 2, "row_digits": 2, "column_style": "numeric"},
            "hex_size": "0.75in"}
    doc = {"kind": "map", "game": plan.game_id, "id": mid, "name": "No hex map",
           "note": f"{TODO}: the module has no board with a hex grid, so its set-ups put every piece in a box "
                   "named after its board or region; this one-hex map stands in for the scenarios' maps.",
           "grid": grid, "default_terrain": "clear"}
    path = plan.dest / "maps" / plan.game_id / f"{mid}.yaml"
    plan.files[path] = _yaml("map", doc)
    plan.findings.append(Finding("/", "the module has no board with a hex grid: its set-ups are imported with "
                                      f"every piece in a box, on the stand-in map {mid!r}"))
    return {mid: _Map(mid, Board("", "", "", (0, 0), Grid("none"), ""), frozenset(), grid, None, (path,), (),
                      None)}


def _raster(svg: bytes, size: tuple[int, int]) -> bytes:
    """An SVG board as PNG at its own size (map art is PNG or JPEG; VASSAL draws the SVG at this size)."""
    import resvg_py
    from PIL import Image
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg.decode("utf-8"), width=size[0], height=size[1],
                                      skip_system_fonts=True))
    with Image.open(io.BytesIO(png)) as im:
        out = io.BytesIO()
        im.save(out, "PNG")
    return out.getvalue()


def _crop(image: bytes, box: tuple[int, int, int, int]) -> bytes:
    from PIL import Image
    with Image.open(io.BytesIO(image)) as im:
        out = io.BytesIO()
        im.crop(box).save(out, "PNG")
    return out.getvalue()


def _art_file(image_name: str, data: bytes) -> tuple[str, bytes] | None:
    """The art's file name under art/ and its bytes: PNG, JPEG and SVG kept as they are, anything else
    (GIF) made PNG at its own size; None for bytes that are no image."""
    base = re.sub(r"[^A-Za-z0-9_.+-]+", "_", image_name.rsplit("/", 1)[-1]) or "image"
    stem, dot, ext = base.rpartition(".")
    if dot and ("." + ext.lower()) in _ART_TYPES:
        if ext.lower() == "svg" or _readable(data):
            return base, data
        return None
    if is_svg(data):
        return f"{stem or base}.svg", data
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data)) as im:
            out = io.BytesIO()
            im.convert("RGBA").save(out, "PNG")
    except Exception:  # noqa: BLE001 - bytes no decoder reads are a finding, never a crash
        return None
    return f"{stem or base}.png", out.getvalue()


def _readable(data: bytes) -> bool:
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.size
    except Exception:  # noqa: BLE001
        return False
    return True


def _image_size(data: bytes | None) -> tuple[int, int] | None:
    """Pixel size of PNG/JPEG/GIF bytes, or of an SVG's width and height (viewBox); None if unknown."""
    if data is None:
        return None
    if is_svg(data):
        return svg_size(data)
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data)) as im:
            return im.size
    except Exception:  # noqa: BLE001
        return None


# -- counters -----------------------------------------------------------------------------------------

def _sides(module: Module) -> list[tuple[str, str]]:
    """(id, name) of the module's player sides; without a roster, the palette's top-level folders."""
    names = list(dict.fromkeys(module.sides))
    if not names:
        names = list(dict.fromkeys(s.folders[0] for s in module.slots if s.folders))
    out = []
    for name in names:
        out.append((_unique(_slug(name).lower() or "side", dict(out)), name))
    return out


def _side_of(slot, piece: Piece, sides: list[tuple[str, str]]) -> str:
    """A slot's side: a folder, prototype, name or at-start stack named as the side, else one whose words
    (split on `_`, `-` and spaces, as module authors name pieces `Moslem_Cannon_1-0`) include the side's."""
    texts = [*slot.folders, *piece.prototypes, slot.entry_name, piece.name]
    for text in texts:
        for sid, name in sides:
            if name.lower() == text.lower():
                return sid
    for text in texts:
        words = _words(text)
        for sid, name in sides:
            side_words = _words(name)
            if side_words and any(words[i:i + len(side_words)] == side_words for i in range(len(words))):
                return sid
    return "neutral"


def _side_pattern(sides) -> re.Pattern | None:
    """One pattern for "names a side": any side's words, whole, in text whose words are joined by spaces."""
    names = sorted({" ".join(_words(n)) for _, n in sides} - {""}, key=len, reverse=True)
    return re.compile(" (?:" + "|".join(re.escape(n) for n in names) + ") ") if names else None


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s_\-]+", text.lower()) if w]


def _counters(plan: ImportPlan, archive, module: Module, sides,
              protos: Prototypes) -> tuple[dict[str, _Counter], dict[str, bytes], dict[str, FacePlan]]:
    """A counter per piece slot (faces: its own image and its flip or step layer), the art, and each
    counter's face plan."""
    counters: dict[str, _Counter] = {}
    plans: dict[str, FacePlan] = {}
    art: dict[str, bytes] = {}
    art_names: dict[str, str | None] = {}
    sizes = _Sizes(archive)
    for slot in module.slots:
        try:
            _, definition = parse_add_piece_command(slot.text)
            piece, _, _ = decode_placed(definition.type, definition.state, protos)
        except ValueError as exc:
            plan.findings.append(Finding(slot.where, f"piece slot {slot.entry_name!r} cannot be decoded: {exc}"))
            continue
        for name in piece.unknown_prototypes:
            plan.findings.append(Finding(slot.where, f"piece slot {slot.entry_name!r} uses prototype {name!r}, "
                                                     "which the module does not define"))
        faces_plan = face_plan(piece, sizes)
        faces, names = [], []
        for image, level_name in zip(faces_plan.images, faces_plan.names):
            if image not in art_names:
                art_names[image] = _add_art(plan, slot, image, archive, art)
            if art_names[image] is not None:
                faces.append(art_names[image])
                names.append(level_name)
        if not faces:
            plan.findings.append(Finding(slot.where, f"piece slot {slot.entry_name!r} has no image; not imported"))
            continue
        cid = _unique(_slug(slot.entry_name or piece.name).lower() or "piece", counters)
        counters[cid] = _Counter(cid, _short(piece.name or slot.entry_name), _side_of(slot, piece, sides), faces,
                                 _signature(piece, faces_plan), slot.where, names, piece.prototypes)
        plans[cid] = faces_plan
    return counters, art, plans


def _add_art(plan: ImportPlan, slot, image: str, archive, art: dict[str, bytes]) -> str | None:
    """The art file name for a module image (added to `art`), or None with a finding."""
    data = archive.image(image)
    if data is None:
        plan.findings.append(Finding(slot.where, f"image {image!r} of {slot.entry_name!r} is not in the module"))
        return None
    made = _art_file(image, data)
    if made is None:
        plan.findings.append(Finding(slot.where, f"image {image!r} of {slot.entry_name!r} is no image hexwright "
                                                 "can read (PNG, JPEG, GIF or SVG)"))
        return None
    name = _unique_file(made[0], art)
    art[name] = made[1]
    return name


class _Sizes:
    """Pixel sizes of module images, each read once."""

    def __init__(self, archive) -> None:
        self.archive, self.known = archive, {}

    def __call__(self, name: str) -> tuple[int, int] | None:
        if name not in self.known:
            self.known[name] = _image_size(self.archive.image(name))
        return self.known[name]


SYMBOLS = ("infantry", "armor", "mechanized", "cavalry", "artillery", "hq", "engineer", "recon", "mountain",
           "ski", "shock", "guards", "fighter", "bomber", "supply", "marker")
"""The project's unit symbols: a type whose name is one of them gets it (full-face art hides it anyway)."""


def _unit_types(plan: ImportPlan, counters: dict[str, _Counter], sides) -> list[dict]:
    """Unit types from prototypes, where the rule is clear: every piece that uses a prototype not named
    after a side uses exactly one such prototype; its name (without "(class)") is the piece's type."""
    sided = _side_pattern(sides)
    named: dict[str, bool] = {}
    per: dict[str, list[str]] = {}
    for c in counters.values():
        for p in c.prototypes:
            if p not in named:
                named[p] = bool(sided and sided.search(" " + " ".join(_words(p)) + " "))
        per[c.id] = list(dict.fromkeys(p for p in c.prototypes if not named[p]))
    if not any(per.values()):
        return []
    if any(len(v) > 1 for v in per.values()):
        many = next(c for c, v in per.items() if len(v) > 1)
        plan.findings.append(Finding(counters[many].where, f"pieces use several prototypes each (e.g. {many!r}: "
                                     f"{', '.join(per[many])}): no unit types are inferred"))
        return []
    types: dict[str, dict] = {}
    for cid, (proto, *_) in ((c, v) for c, v in per.items() if v):
        name = re.sub(r"\s*\(class\)\s*$", "", proto, flags=re.I).strip() or proto
        tid = _slug(name).lower() or "type"
        counters[cid].type = tid
        entry = types.setdefault(tid, {"id": tid, "name": name[:1].upper() + name[1:]})
        if tid in SYMBOLS:
            entry["symbol"] = tid
    return list(types.values())


def _signature(piece: Piece, faces: FacePlan) -> tuple:
    return (piece.name, tuple(faces.images))


# -- scenarios ----------------------------------------------------------------------------------------

def _states(counters: dict[str, _Counter]) -> list[tuple[str, str, bool]]:
    """The game's strength states, (id, name, named by the module), and each counter's face states: a face
    is the state its own layer level names ("+ (half strength)" -> "Half strength"); an unnamed face, or
    one whose name its counter already used, is "Face N" by its position."""
    out: dict[str, tuple[str, str, bool]] = {}
    for c in counters.values():
        c.states = []
        for i in range(len(c.faces)):
            raw = c.level_names[i] if i < len(c.level_names) else ""
            name = raw.strip().lstrip("+").rstrip("+").strip().strip("()").strip()
            sid = _slug(name).lower() if name else ""
            if not sid or sid in c.states or sid.startswith("face-"):
                sid, name = f"face-{i + 1}", f"Face {i + 1}"
            c.states.append(sid)
            out.setdefault(sid, (sid, name[:1].upper() + name[1:], not sid.startswith("face-")))
    if not out:
        out["face-1"] = ("face-1", "Face 1", False)
    generic = sorted((k for k in out if k.startswith("face-")), key=lambda k: int(k.split("-")[1]))
    return [out[k] for k in generic] + [v for k, v in out.items() if not k.startswith("face-")]


@dataclass
class _Setups:
    """What placing a saved game's pieces needs: counters by signature (each signature's slots in module
    order, so that placed pieces use the module's own slots before copies are made), maps, windows."""

    module: Module
    maps: dict[str, _Map]
    counters: dict[str, _Counter]
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
        return (self.by_signature.get(_signature(piece, faces)) or self.by_faces.get(tuple(faces.images))
                or self.by_stem.get((piece.name, _stem(faces.images))) or (named if len(named) == 1 else []))


    def map_of(self, spot) -> str | None:
        return next((mid for mid, m in self.maps.items() if m.shows(spot.board, spot.zone) and spot.hex in m.labels),
                    None)


def _stem(images) -> str:
    """The first image's name up to its first dot."""
    return images[0].rsplit("/", 1)[-1].split(".", 1)[0] if images else ""


def _scenarios(plan: ImportPlan, archive, module: Module, maps: dict[str, _Map], counters: dict[str, _Counter],
               plans: dict[str, FacePlan], protos: Prototypes) -> dict[str, str]:
    """One scenario per predefined set-up; a piece placed n times in one set-up takes the module's n slots of
    that piece where it has them, and becomes copies past them."""
    from authoring.vmod.savedgame import read_saved_game
    ctx = _Setups(module, maps, counters, plans, protos, _Sizes(archive))
    out: dict[str, str] = {}
    copies: Tally = Tally()
    for setup in module.setups:
        if not archive.has(setup.file):
            plan.findings.append(Finding(setup.where, f"set-up file {setup.file!r} is not in the module"))
            continue
        try:
            game = read_saved_game(archive.read(setup.file), setup.file)
        except ModuleReadError as exc:
            plan.findings.append(Finding(setup.where, str(exc)))
            continue
        placements, in_play, used = _place(plan, ctx, setup, game)
        copies |= used
        sid = _unique(_slug(setup.name).lower() or "setup", out)
        out[sid] = _scenario_yaml(plan.game_id, sid, setup, placements, sorted(in_play) or sorted(maps)[:1])
    start = _at_start(plan, ctx)
    if start is not None:
        sid = _unique("at-start", out)
        out[sid] = _scenario_yaml(plan.game_id, sid, AT_START, start[0], sorted(start[1]) or sorted(maps)[:1])
    for cid, n in copies.items():
        c = counters[cid]
        for k in range(2, n + 1):
            counters[_copy_id(cid, k)] = _Counter(_copy_id(cid, k), c.name, c.side, c.faces, (), c.where,
                                                  c.level_names, c.prototypes, c.type, c.states)
    return out


def _copy_id(cid: str, k: int) -> str:
    return f"{cid}.{k}"   # '.' never occurs in an id made from a name, so copies cannot clash


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
            report.add("unmatched" if not slots else "map", f"{piece.name!r} matches no piece slot; not imported"
                       if not slots else f"{piece.name!r} is on unknown map {map_name!r}; not imported")
            continue
        spot = locate(windows[map_name], origins[map_name], x, y)
        cid = next((c for c in slots if c not in taken), slots[0])
        unit = cid
        if cid in taken:   # every slot of this piece is on the board already: a copy of the first
            extra[cid] += 1
            copies[cid] = max(copies[cid], extra[cid] + 1)
            unit = _copy_id(cid, extra[cid] + 1)
        taken.add(cid)
        level = layer_level(piece, faces.layer, types, trait_states)
        face = faces.by_level.get(abs(level) if not piece.image else max(level, 0), 0)
        states = ctx.counters[cid].states
        state = states[face] if 0 < face < len(states) else None
        side = ctx.counters[cid].side
        _put(ctx, (placements, in_play, report), unit, side, spot, state, piece.name)
    report.flush()
    return placements, in_play, copies


def _put(ctx: _Setups, into: tuple, unit: str, side: str, spot, state: str | None, name: str) -> None:
    """One piece on its hex of an imported map, else in the box named after its region, zone or board."""
    placements, in_play, report = into
    board_map = ctx.map_of(spot) if spot.hex else None
    if board_map:
        in_play.add(board_map)
        placements.setdefault(("setup", side, spot.hex, state), []).append(unit)
        return
    if spot.hex:
        report.add("edge", f"{name!r} is on hex {spot.hex!r} at the board's edge, outside the imported map; "
                           "put in a box")
    box = _slug(spot.box or spot.board or spot.map) or "box"
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
        for kind, seen in self.kinds.items():
            if len(seen) > self.SHOWN:
                self.plan.findings.append(Finding(self.setup.where, f"{self.setup.file}: {len(seen) - self.SHOWN} "
                                                  f"more pieces like the {self.SHOWN} above ({len(seen)} in all)"))


def _scenario_yaml(gid: str, sid: str, setup, placements: dict, maps: list[str]) -> str:
    doc: dict = {"kind": "scenario", "game": gid, "id": sid, "name": setup.name,
                 "note": f"{TODO}: imported from the module's set-up {setup.file!r}; write the turn record, "
                         "victory conditions and set-up rules.",
                 "maps": maps, "turns": [{"turn": 1, "note": f"{TODO}: the module has no turn record"}]}
    for (kind, side, where, state), units in placements.items():
        entry = {"hex" if kind == "setup" else "box": where, "units": units}
        if state:
            entry["state"] = state
        doc.setdefault(kind, {}).setdefault(side, []).append(entry)
    return _yaml("scenario", doc)


# -- game ---------------------------------------------------------------------------------------------

def _side_colours(counters: dict[str, _Counter], art: dict[str, bytes]) -> dict[str, str]:
    """Each side's colour: the mean colour of its first counter's first face."""
    from PIL import Image
    out: dict[str, str] = {}
    for c in counters.values():
        if c.side in out or c.faces[0] not in art:
            continue
        try:
            with Image.open(io.BytesIO(art[c.faces[0]])) as im:
                r, g, b = im.convert("RGB").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
        except Exception:  # noqa: BLE001 - a colour is a nicety, never a failure
            continue
        out[c.side] = f"#{r:02x}{g:02x}{b:02x}"
    return out


def _game_yaml(module: Module, gid: str, sides, used_sides, states, counters, maps, art, unit_types) -> str:
    names = dict(sides)
    colours = _side_colours(counters, art)
    side_list = [{"id": s, "name": names.get(s, "Neutral"), "color": colours.get(s, "#c0c0c0"),
                  "text_color": "#000000",
                  **({} if s in names else {"note": "pieces of no player side (markers)"})} for s in used_sides]
    counter_px = _counter_px(counters, art)
    doc = {"kind": "game", "id": gid, "name": module.name, "version": module.version or "1.0",
           "description": module.description or f"Imported from the VASSAL module {module.name!r}.",
           "note": f"{TODO}: imported by `hexwright import-vmod`; terrain types, stacking, set-up codes, rule "
                   "tables and strength-state names are not in a module: fill them in.",
           "sides": side_list,
           "terrain": [{"id": "clear", "name": "Clear", "note": f"{TODO}: the module's terrain is only art"}],
           "strength_states": [{"id": sid, "name": name, **({} if named else {
                                "note": f"{TODO}: name this state (layer level {i} of the module)"})}
                               for i, (sid, name, named) in enumerate(states, 1)]}
    if counter_px:
        doc["counter_size"] = f"{_inches(counter_px, COUNTER_SIZE_IN)}in"
    if unit_types:
        doc["unit_types"] = unit_types
    if len(maps) > 1 and sum(len(m.labels) for m in maps.values()) == len(frozenset().union(*(m.labels for m in
                                                                                             maps.values()))):
        doc["layout"] = _layout(maps)
    return _yaml("game", doc)


def _shared_ids(plan: ImportPlan, maps: dict[str, _Map]) -> None:
    """A finding for maps that name their hexes alike (boards numbered each from 0101): the project cannot lay
    them in one layout, so they stay separate maps with no layout."""
    seen: dict[str, str] = {}
    for mid, m in maps.items():
        other = next((seen[label] for label in sorted(m.labels) if label in seen), None)
        if other is not None:
            plan.findings.append(Finding(m.board.where, f"map {mid!r} names its hexes as map {other!r} does (each "
                                                        "board numbered alike): the maps are left out of the game's "
                                                        "layout; a scenario should use one of them"))
        seen.update({label: mid for label in m.labels if label not in seen})


_GAP = 2
"""Empty lines between imported maps in the layout: boards of a module are separate maps, never joined."""


def _layout(maps: dict[str, _Map]) -> dict:
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
        out[mid] = {"origin": [at, 0] if flat else [0, at],
                    "note": "imported boards are laid apart; set the real layout if the maps join"}
        at += (m.grid["columns"] if flat else m.grid["rows"]) + _GAP
    return out


def _counter_px(counters: dict[str, _Counter], art: dict[str, bytes]) -> int | None:
    """The commonest piece image width, so rebuilt counters keep their size relative to the hexes."""
    from PIL import Image
    widths: Tally = Tally()
    for c in counters.values():
        if c.faces and c.faces[0] in art:
            try:
                with Image.open(io.BytesIO(art[c.faces[0]])) as im:
                    widths[im.size[0]] += 1
            except Exception:  # noqa: BLE001 - unreadable art is reported by validate
                continue
    return widths.most_common(1)[0][0] if widths else None


def _counters_yaml(gid: str, counters: dict[str, _Counter], states) -> str:
    rows = []
    for c in counters.values():
        rows.append({"id": c.id, "side": c.side, **({"type": c.type} if c.type else {}), "name": c.name,
                     "faces": [{"state": st, "image": f"art/{f}"} for st, f in zip(c.states, c.faces)]})
    doc = {"kind": "counters", "game": gid,
           "note": f"{TODO}: unit types, sizes, values and flags are not read from the module; faces are its images.",
           "counters": rows}
    return _yaml("counters", doc)


# -- helpers ------------------------------------------------------------------------------------------

def _yaml(kind: str, doc: dict) -> str:
    head = f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=110,
                                default_flow_style=None)


NAME_LIMIT = 60
"""Characters of a counter name at most (the schema's limit for names)."""


def _short(name: str) -> str:
    """`name` within NAME_LIMIT: cut at the last space that fits, with an ellipsis."""
    if len(name) <= NAME_LIMIT:
        return name
    cut = name[:NAME_LIMIT - 1].rsplit(" ", 1)[0].rstrip(" ,-;")
    return (cut or name[:NAME_LIMIT - 1]) + "\u2026"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60]


def _unique(base: str, taken) -> str:
    if base not in taken:
        return base
    k = 2
    while f"{base}-{k}" in taken:
        k += 1
    return f"{base}-{k}"


def _unique_file(name: str, taken) -> str:
    if name not in taken:
        return name
    stem, _, ext = name.rpartition(".")
    k = 2
    while f"{stem}-{k}.{ext}" in taken:
        k += 1
    return f"{stem}-{k}.{ext}"


def todo_findings(plan: ImportPlan) -> list[tuple[Path, int, str]]:
    """(file, line, text) of every TODO written: what the designer has to fill in, each note whole (a long
    note spans several lines of its file)."""
    out = []
    for path, content in sorted(plan.files.items()):
        if isinstance(content, str) and path.suffix == ".yaml" and TODO + ":" in content:
            out += [(path, line, text) for line, text in _todo_notes(yaml.compose(content))]
    return out


def _todo_notes(node) -> list[tuple[int, str]]:
    """(line, text from TODO on) of every scalar of a composed YAML tree that holds a TODO."""
    if isinstance(node, yaml.ScalarNode):
        value = str(node.value)
        return [(node.start_mark.line + 1, value[value.index(TODO):])] if TODO + ":" in value else []
    if isinstance(node, yaml.MappingNode):
        return [found for pair in node.value for part in pair for found in _todo_notes(part)]
    if isinstance(node, yaml.SequenceNode):
        return [found for item in node.value for found in _todo_notes(item)]
    return []


SUMMARY_AFTER = 5
"""Findings of one kind shown one by one; past this many, the first few and a count."""
SHOWN = 3


def summarised(findings: list[Finding]) -> list[Finding]:
    """`findings` with each kind (the same message but for names and numbers) of more than SUMMARY_AFTER cut
    to its first SHOWN and one finding that counts the rest."""
    kinds: dict[str, list[Finding]] = {}
    for f in findings:
        kinds.setdefault(re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", f.message), []).append(f)
    out = []
    for group in kinds.values():
        if len(group) <= SUMMARY_AFTER:
            out += group
            continue
        out += group[:SHOWN]
        out.append(Finding(group[SHOWN].where, f"{len(group) - SHOWN} more like the {SHOWN} above "
                                               f"({len(group)} in all), the next: {group[SHOWN].message}"))
    return out


def diagnostics(plan: ImportPlan, module_path: Path) -> list:
    """The import's findings (HW-VMOD-001, located by XML path in the module) and its TODOs
    (HW-VMOD-002, located in the written file) as warnings: an import never fails on what it skips."""
    from authoring.diagnostics.record import Loc, warning
    out = [warning("HW-VMOD-001", f.message, Loc(f"{Path(module_path).name}:{f.where}"),
                   help="imported as far as the project can say it; see docs/import-vmod.md")
           for f in summarised(plan.findings)]
    for path, line, text in todo_findings(plan):
        rel = path.relative_to(plan.dest) if path.is_relative_to(plan.dest) else path
        out.append(warning("HW-VMOD-002", text, Loc(str(rel), line, 1),
                           help="the module does not say this: fill it in"))
    return out
