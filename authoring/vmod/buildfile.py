"""The parts of a module's component tree (`buildFile.xml`) an import needs, read tolerantly.

Element names are VASSAL's Java class names (3.2-3.7 write the same names; older files may use
`VASSAL.build.module.map.boardPicker.board.HexGrid` without numbering, or leave attributes out: the
engine's defaults then apply). Whatever is not understood is a `Finding` with its XML path, never a crash.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from lxml import etree

from authoring.vmod.archive import Archive, is_svg, svg_size

_BOARD = "VASSAL.build.module.map.boardPicker.Board"
_HEX_GRID = "VASSAL.build.module.map.boardPicker.board.HexGrid"
_SQUARE_GRID = "VASSAL.build.module.map.boardPicker.board.SquareGrid"
_REGION_GRID = "VASSAL.build.module.map.boardPicker.board.RegionGrid"
_ZONED_GRID = "VASSAL.build.module.map.boardPicker.board.ZonedGrid"
_ZONE = "VASSAL.build.module.map.boardPicker.board.mapgrid.Zone"
_REGION = "VASSAL.build.module.map.boardPicker.board.Region"
_MAP_CLASSES = ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap", "VASSAL.build.module.PlayerHand",
                "VASSAL.build.widget.WidgetMap")
_MAP_WIDGET = "VASSAL.build.widget.MapWidget"
_SLOTS = ("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot")
_PROTOTYPE = "VASSAL.build.module.PrototypeDefinition"
_SETUP = "VASSAL.build.module.PredefinedSetup"
_AT_START = ("VASSAL.build.module.map.SetupStack", "VASSAL.build.module.map.DrawPile")
"""At-start stacks and decks: their pieces are where the stack or deck is at the start of every new game."""
_ROSTER = "VASSAL.build.module.PlayerRoster"
_FOLDERS = ("VASSAL.build.widget.TabWidget", "VASSAL.build.widget.ListWidget", "VASSAL.build.widget.PanelWidget",
            "VASSAL.build.widget.BoxWidget", "VASSAL.build.module.PieceWindow",
            "VASSAL.build.module.PrototypesContainer", "VASSAL.build.module.folder.PrototypeFolder", *_AT_START)

SQRT3_2 = math.sqrt(3.0) / 2
_HEX_DEFAULTS = {"sideways": False, "x0": 0, "y0": 21, "dy": 42.0, "dx": 42.0 * SQRT3_2}
"""VASSAL 3.x `HexGrid` defaults (origin (0, dy/2), dy 42, dx = dy * sqrt(3)/2)."""
_NUMBERING_DEFAULTS = {"first": "H", "sep": "", "hType": "N", "hLeading": 1, "hOff": 0, "hDescend": False,
                       "vType": "N", "vLeading": 1, "vOff": 0, "vDescend": False, "stagger": True,
                       "locationFormat": "$gridLocation$"}
"""`HexGridNumbering` defaults (a HexGrid without numbering names its hexes by these)."""


@dataclass(frozen=True)
class Finding:
    """Something the import could not read or cannot carry over: where in the module, and what."""

    where: str
    message: str


@dataclass
class Grid:
    """One board's grid: "hex" (VASSAL parameters, as `authoring.hexgrid.vassal` uses them), "square",
    "region" (named points) or "none"; `zones` are (name, polygon, grid) inside a ZonedGrid."""

    kind: str
    params: dict = field(default_factory=dict)
    regions: list[tuple[str, int, int]] = field(default_factory=list)
    zones: list[tuple[str, list[tuple[int, int]], "Grid"]] = field(default_factory=list)
    where: str = ""


@dataclass
class Board:
    map_name: str
    name: str
    image: str
    size: tuple[int, int]
    grid: Grid
    where: str


@dataclass
class MapWindow:
    name: str
    edge: tuple[int, int]
    boards: list[Board]
    where: str


@dataclass
class Slot:
    """A PieceSlot: its palette folders (outermost first), name and add-piece text."""

    entry_name: str
    gpid: str
    folders: tuple[str, ...]
    text: str
    where: str
    at_start: "AtStart | None" = None
    """Where the piece is at the start of every new game, when the slot is in an at-start stack."""


@dataclass(frozen=True)
class AtStart:
    """An at-start stack (`SetupStack`): its map window, board (empty: the map's first), board position, and
    the grid location it names instead when `useGridLocation` is set."""

    map: str
    board: str
    x: int
    y: int
    location: str


@dataclass
class Setup:
    name: str
    file: str
    where: str


@dataclass
class Module:
    name: str
    version: str
    vassal_version: str
    description: str
    sides: list[str]
    maps: list[MapWindow]
    slots: list[Slot]
    prototypes: dict[str, str]
    setups: list[Setup]
    findings: list[Finding]
    decks: dict[tuple[int, int], str] = field(default_factory=dict)
    """Map window of each deck (DrawPile) by its position: a saved game may leave a card in a deck on map
    'null' at the deck's position."""


def read_module(archive: Archive, root: etree._Element) -> Module:
    """Everything an import uses, in document order."""
    tree = root.getroottree()
    findings: list[Finding] = []
    module = Module(root.get("name", "") or archive.path.stem, root.get("version", "1.0") or "1.0",
                    root.get("VassalVersion", ""), root.get("description", ""), [], [], [], {}, [], findings)
    for el in root.iter(etree.Element):
        tag = el.tag if isinstance(el.tag, str) else ""
        where = tree.getpath(el)
        if tag in _MAP_CLASSES:
            module.maps.append(_map(archive, el, tree, findings))
        elif tag in _SLOTS:
            module.slots.append(Slot(el.get("entryName", "") or "", el.get("gpid", "") or "",
                                     _folders(el), (el.text or "").strip(), where, _at_start(el)))
        elif tag == _AT_START[1]:
            window = next((p for p in el.iterancestors() if p.tag in _MAP_CLASSES), None)
            if window is not None:
                module.decks.setdefault((_int(el.get("x"), 0), _int(el.get("y"), 0)), _map_name(window))
        elif tag == _PROTOTYPE:
            module.prototypes[el.get("name", "")] = (el.text or "").strip()
        elif tag == _SETUP:
            if el.get("useFile", "true") == "true" and el.get("file"):
                module.setups.append(Setup(el.get("name", "") or el.get("file", ""), el.get("file", ""), where))
        elif tag == _ROSTER:
            module.sides += [(e.text or "").strip() for e in el if e.tag == "entry" and (e.text or "").strip()]
            module.sides += [s for s in (el.get("sides") or "").split(",") if s.strip()]  # pre-3.3 attribute
        elif "." in tag and not tag.startswith("VASSAL."):   # a Java class; `option`, `entry` are plain data
            findings.append(Finding(where, f"custom class {tag!r} is not imported (code shipped in the module)"))
    return module


def _at_start(slot: etree._Element) -> AtStart | None:
    stack = next((p for p in slot.iterancestors() if p.tag in _AT_START), None)
    if stack is None:
        return None
    window = next((p for p in stack.iterancestors() if p.tag in _MAP_CLASSES), None)
    grid = stack.get("useGridLocation") == "true"
    return AtStart(_map_name(window) if window is not None else "", stack.get("owningBoard", "") or "",
                   _int(stack.get("x"), 0), _int(stack.get("y"), 0), (stack.get("location") or "") if grid else "")


def _folders(el: etree._Element) -> tuple[str, ...]:
    names = []
    for parent in el.iterancestors():
        if parent.tag in _FOLDERS and parent.tag not in ("VASSAL.build.module.PieceWindow",):
            name = parent.get("entryName") or parent.get("name") or ""
            if name:
                names.append(name)
    return tuple(reversed(names))


def _map(archive: Archive, el: etree._Element, tree, findings: list[Finding]) -> MapWindow:
    edge = (_int(el.get("edgeWidth"), 0), _int(el.get("edgeHeight"), 0))
    window = MapWindow(_map_name(el), edge, [], tree.getpath(el))
    for board in el.iter(_BOARD):
        where = tree.getpath(board)
        image = board.get("image", "") or ""
        size = _board_size(archive, board, image, where, findings)
        grid = Grid("none", where=where)
        for child in board:
            if isinstance(child.tag, str):
                grid = _grid(child, tree, findings) or grid
        _containers(grid, size)
        window.boards.append(Board(window.name, board.get("name", "") or "Board", image, size, grid, where))
    return window


def _containers(grid: Grid, size: tuple[int, int]) -> None:
    """Each hex grid's container size (`params["container"]`), from whose far side descending numbering
    counts: the board's for its grid or a zoned grid's background, a zone's bounding box for the zone's."""
    if grid.params:
        grid.params["container"] = size
    for _, points, inner in grid.zones:
        if inner.params and points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            inner.params["container"] = (max(xs) - min(xs), max(ys) - min(ys))


def _map_name(el: etree._Element) -> str:
    """A map window's identifier, as saved games name it: its mapName; a map in a chart window (WidgetMap)
    without one goes by its MapWidget's entry name."""
    parent = el.getparent()
    widget = parent.get("entryName", "") if parent is not None and parent.tag == _MAP_WIDGET else ""
    return el.get("mapName", "") or widget or "Map"


def _board_size(archive: Archive, board, image: str, where: str, findings) -> tuple[int, int]:
    if image:
        data = archive.image(image)
        if data is None:
            findings.append(Finding(where, f"board image {image!r} is not in the module"))
        elif is_svg(data):
            size = svg_size(data)
            if size is not None:
                return size
            findings.append(Finding(where, f"board image {image!r} is an SVG without a width and height"))
        else:
            try:
                from PIL import Image
                with Image.open(io.BytesIO(data)) as im:
                    return im.size
            except Exception as exc:  # noqa: BLE001 - any undecodable image is a finding
                findings.append(Finding(where, f"board image {image!r} cannot be read: {exc}"))
    return (_int(board.get("width"), 500), _int(board.get("height"), 500))


def _grid(el: etree._Element, tree, findings: list[Finding]) -> Grid | None:
    where = tree.getpath(el)
    if el.tag == _HEX_GRID:
        return Grid("hex", hex_params(el, where, findings), where=where)
    if el.tag == _SQUARE_GRID:
        return Grid("square", {k: el.get(k) for k in ("x0", "y0", "dx", "dy")}, where=where)
    if el.tag == _REGION_GRID:
        regions = [(r.get("name", ""), _int(r.get("originx"), 0), _int(r.get("originy"), 0))
                   for r in el if r.tag == _REGION]
        return Grid("region", regions=regions, where=where)
    if el.tag == _ZONED_GRID:
        return _zoned(el, tree, findings)
    if el.tag.startswith("VASSAL.build.module.map.boardPicker.board."):
        findings.append(Finding(where, f"board component {el.tag.rsplit('.', 1)[-1]!r} is not imported"))
    elif not el.tag.startswith("VASSAL."):
        findings.append(Finding(where, f"custom board component {el.tag!r} is not imported"))
    return None


def _zoned(el: etree._Element, tree, findings: list[Finding]) -> Grid:
    grid = Grid("zoned", where=tree.getpath(el))
    for child in el:
        if child.tag == _ZONE:
            points = _polygon(child.get("path", ""))
            inner = None
            for sub in child:
                inner = _grid(sub, tree, findings) or inner
            if inner is None or child.get("useParentGrid") == "true":
                inner = Grid("none", where=tree.getpath(child))
            inner.params.setdefault("zoneFormat", child.get("locationFormat", "$name$"))
            grid.zones.append((child.get("name", ""), points, inner))
        elif isinstance(child.tag, str):
            background = _grid(child, tree, findings)
            if background is not None:
                grid.params = background.params
                grid.regions = background.regions
                grid.params["background"] = background.kind
    return grid


def _polygon(text: str) -> list[tuple[int, int]]:
    points = []
    for pair in text.split(";"):
        x, _, y = pair.partition(",")
        try:
            points.append((int(float(x)), int(float(y))))
        except ValueError:
            continue
    return points


def hex_params(el: etree._Element, where: str, findings: list[Finding]) -> dict:
    """HexGrid + HexGridNumbering attributes as the `authoring.hexgrid.vassal` parameter dict."""
    params = dict(_HEX_DEFAULTS)
    params.update(_NUMBERING_DEFAULTS)
    numbering = next((c for c in el if isinstance(c.tag, str) and c.tag.endswith("HexGridNumbering")), None)
    if numbering is None:
        params["locationFormat"] = "$gridLocation$"
    for source, keys in ((el, _HEX_DEFAULTS), (numbering, _NUMBERING_DEFAULTS)):
        if source is None:
            continue
        for key, default in keys.items():
            raw = source.get(key)
            if raw is None:
                continue
            value = _typed(raw, default)
            if value is None:
                findings.append(Finding(where, f"{key}={raw!r} is not a valid number; the engine's default "
                                               f"{default!r} is used"))
            else:
                params[key] = value
    if "dx" not in el.attrib and "dy" in el.attrib:
        params["dx"] = params["dy"] * SQRT3_2
    if "y0" not in el.attrib and "dy" in el.attrib:
        params["y0"] = int(params["dy"] / 2)
    return params


def _typed(raw: str, default):
    if isinstance(default, bool):
        return raw.strip().lower() == "true"
    if isinstance(default, int):
        try:
            return int(round(float(raw)))
        except ValueError:
            return None
    if isinstance(default, float):
        try:
            value = float(raw)
        except ValueError:
            return None
        return value if math.isfinite(value) and value > 0 else None
    return raw


def _int(text: str | None, default: int) -> int:
    try:
        return int(float(text)) if text is not None else default
    except ValueError:
        return default
