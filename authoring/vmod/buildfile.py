"""The parts of a module's component tree (`buildFile.xml`) an import needs, read tolerantly.

Element names are VASSAL's Java class names (3.2-3.7 write the same names; older files may use
`VASSAL.build.module.map.boardPicker.board.HexGrid` without numbering, or leave attributes out: the
engine's defaults then apply). Whatever is not understood is a `Finding` with its XML path, never a crash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType

from lxml import etree

from authoring.budget import MAX_PIECES
from authoring.vassal import elements as vc
from authoring.vmod.archive import Archive, is_svg, svg_size
from authoring.vmod.numbers import finite, positive, whole
from authoring.vmod.picture import opened, pixel_problem

_BOARD = vc.BOARD
_HEX_GRID = vc.HEX_GRID
_SQUARE_GRID = vc.SQUARE_GRID
_REGION_GRID = vc.REGION_GRID
_ZONED_GRID = vc.ZONED_GRID
_ZONE = vc.ZONE
_REGION = vc.REGION
_MAP_CLASSES = (vc.MAP, vc.PRIVATE_MAP, vc.PLAYER_HAND, vc.WIDGET_MAP)
_MAP_WIDGET = vc.MAP_WIDGET
_SLOTS = (vc.PIECE_SLOT, vc.CARD_SLOT)
_PROTOTYPE = vc.PROTOTYPE_DEFINITION
_SETUP = vc.PREDEFINED_SETUP
_AT_START = (vc.SETUP_STACK, vc.DRAW_PILE)
"""At-start stacks and decks: their pieces are where the stack or deck is at the start of every new game."""
_ROSTER = vc.PLAYER_ROSTER
_FOLDERS = (
    vc.TAB_WIDGET,
    vc.LIST_WIDGET,
    vc.PANEL_WIDGET,
    vc.BOX_WIDGET,
    vc.PIECE_WINDOW,
    vc.PROTOTYPES_CONTAINER,
    vc.PROTOTYPE_FOLDER,
    *_AT_START,
)

SQRT3_2 = math.sqrt(3.0) / 2
_HEX_DEFAULTS = MappingProxyType({"sideways": False, "x0": 0, "y0": 21, "dy": 42.0, "dx": 42.0 * SQRT3_2})
"""VASSAL 3.x `HexGrid` defaults (origin (0, dy/2), dy 42, dx = dy * sqrt(3)/2)."""
_NUMBERING_DEFAULTS = MappingProxyType(
    {
        "first": "H",
        "sep": "",
        "hType": "N",
        "hLeading": 1,
        "hOff": 0,
        "hDescend": False,
        "vType": "N",
        "vLeading": 1,
        "vOff": 0,
        "vDescend": False,
        "stagger": True,
        "locationFormat": "$gridLocation$",
    }
)
"""`HexGridNumbering` defaults (a HexGrid without numbering names its hexes by these)."""


MAX_SLOTS = MAX_PIECES
"""Piece slots imported at most: each becomes a counter, so as many as a project's counter mix may hold
(a large real module has a few thousand)."""


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
    zones: list[tuple[str, list[tuple[int, int]], Grid]] = field(default_factory=list)
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
    at_start: AtStart | None = None
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
    path_of = _Paths(tree)
    findings: list[Finding] = []
    module = Module(
        root.get("name", "") or archive.path.stem,
        root.get("version", "1.0") or "1.0",
        root.get("VassalVersion", ""),
        root.get("description", ""),
        [],
        [],
        [],
        {},
        [],
        findings,
    )
    for el in root.iter(etree.Element):
        tag = el.tag if isinstance(el.tag, str) else ""
        where = path_of(el)
        if tag in _MAP_CLASSES:
            module.maps.append(_map(archive, el, tree, findings))
        elif tag in _SLOTS:
            if len(module.slots) == MAX_SLOTS:
                findings.append(
                    Finding(
                        where,
                        f"the module has more than {MAX_SLOTS:,} piece slots: the first "
                        f"{MAX_SLOTS:,} are imported, this one and the rest are not",
                    )
                )
            if len(module.slots) >= MAX_SLOTS:
                continue
            module.slots.append(
                Slot(
                    el.get("entryName", "") or "",
                    el.get("gpid", "") or "",
                    _folders(el),
                    (el.text or "").strip(),
                    where,
                    _at_start(el),
                )
            )
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
        elif "." in tag and not tag.startswith("VASSAL."):  # a Java class; `option`, `entry` are plain data
            findings.append(Finding(where, f"custom class {tag!r} is not imported (code shipped in the module)"))
    return module


class _Paths:
    """`tree.getpath(el)` for every element, each in constant time: lxml counts an element's like-named
    siblings anew for each path, which for a palette of 200,000 slots in one folder is quadratic. The
    paths of an element's children are made together, as lxml writes them (`Tag[k]` when siblings share
    the tag)."""

    def __init__(self, tree) -> None:
        self.tree, self.known = tree, {}

    def __call__(self, el) -> str:
        found = self.known.get(el)
        if found is not None:
            return found
        parent = el.getparent()
        if parent is None or not isinstance(el.tag, str) or el.tag.startswith("{"):
            return self.tree.getpath(el)
        self._children(parent)
        return self.known.get(el) or self.tree.getpath(el)

    def _children(self, parent) -> None:
        base = self(parent)
        children = [c for c in parent if isinstance(c.tag, str)]
        counts: dict[str, int] = {}
        for c in children:
            counts[c.tag] = counts.get(c.tag, 0) + 1
        seen: dict[str, int] = {}
        for c in children:
            seen[c.tag] = seen.get(c.tag, 0) + 1
            self.known[c] = f"{base}/{c.tag}" + (f"[{seen[c.tag]}]" if counts[c.tag] > 1 else "")


def _at_start(slot: etree._Element) -> AtStart | None:
    stack = next((p for p in slot.iterancestors() if p.tag in _AT_START), None)
    if stack is None:
        return None
    window = next((p for p in stack.iterancestors() if p.tag in _MAP_CLASSES), None)
    grid = stack.get("useGridLocation") == "true"
    return AtStart(
        _map_name(window) if window is not None else "",
        stack.get("owningBoard", "") or "",
        _int(stack.get("x"), 0),
        _int(stack.get("y"), 0),
        (stack.get("location") or "") if grid else "",
    )


def _folders(el: etree._Element) -> tuple[str, ...]:
    names = []
    for parent in el.iterancestors():
        if parent.tag in _FOLDERS and parent.tag not in (vc.PIECE_WINDOW,):
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
            if size is not None and pixel_problem(size) is None:
                return size
            findings.append(
                Finding(
                    where,
                    f"board image {image!r} is an SVG without a usable width and height"
                    if size is None
                    else f"board image {image!r}: {pixel_problem(size)}",
                )
            )
        else:
            try:
                with opened(data) as im:
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
        regions = [
            (r.get("name", ""), _int(r.get("originx"), 0), _int(r.get("originy"), 0)) for r in el if r.tag == _REGION
        ]
        return Grid("region", regions=regions, where=where)
    if el.tag == _ZONED_GRID:
        return _zoned(el, tree, findings)
    if el.tag.startswith(vc.GRID_PREFIX):
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
        px, py = finite(x), finite(y)
        if px is not None and py is not None:
            points.append((int(px), int(py)))
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
                what = (
                    "is out of range (a finite number of pixels, at most 1,000,000)"
                    if _is_number(raw)
                    else "is not a valid number"
                )
                findings.append(Finding(where, f"{key}={raw[:40]!r} {what}; the engine's default {default!r} is used"))
            else:
                params[key] = value
    if "dx" not in el.attrib and "dy" in el.attrib:
        params["dx"] = params["dy"] * SQRT3_2
    if "y0" not in el.attrib and "dy" in el.attrib:
        params["y0"] = int(params["dy"] / 2)
    return params


def _typed(raw: str, default):
    """An attribute as the type of its default; None for a number that is not finite and in range."""
    if isinstance(default, bool):
        return raw.strip().lower() == "true"
    if isinstance(default, int):
        value = finite(raw)
        return None if value is None else int(round(value))
    if isinstance(default, float):
        return positive(raw)
    return raw


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _int(text: str | None, default: int) -> int:
    return whole(text, default)
