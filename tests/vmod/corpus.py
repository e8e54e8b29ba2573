"""Test corpus for import-vmod, made here (issue 19): modules written the way VASSAL's own editor writes
them (its element names and attribute sets, its piece and saved-game encodings from
`authoring.vassal.codec`/`traits`), with hex grids of each kind, several boards, zones and a square grid.

`CORPUS` names each module; `write(name, folder)` writes NAME.vmod and returns its path.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from PIL import Image, ImageDraw

from authoring.vassal import archive as va
from authoring.vassal.codec import add_piece_command, obfuscate
from authoring.vassal.traits import BasicPiece, Layer, Marker, Piece, UsePrototype

B = "VASSAL.build."
BOARD = B + "module.map.boardPicker.Board"
HEX = B + "module.map.boardPicker.board.HexGrid"
NUMBERING = B + "module.map.boardPicker.board.mapgrid.HexGridNumbering"


@dataclass
class BoardSpec:
    name: str
    size: tuple[int, int]
    grid: dict  # HexGrid attributes (editor-style strings), {} for none
    numbering: dict | None = None  # HexGridNumbering attributes
    kind: str = "hex"  # hex, square, zoned
    zones: list = field(default_factory=list)  # (name, path, locationFormat, grid attrs or None)
    column: int = 0


@dataclass
class ModuleSpec:
    name: str
    boards: list[BoardSpec]
    sides: tuple[str, ...] = ("Red", "Blue")
    vassal_version: str = "3.6.7"
    legacy: bool = False  # `buildFile` (pre-3.5 name) and a 3.2 moduledata
    placements: list = field(default_factory=list)  # (side index, unit index, board index, c, r, level)
    leading_zero_option: bool = True


def _editor_hex(attrs: dict) -> dict:
    base = {
        "color": "0,0,0",
        "cornersLegal": "false",
        "dotsVisible": "false",
        "dx": "52.0",
        "dy": "60.0",
        "edgesLegal": "false",
        "sideways": "false",
        "snapTo": "true",
        "visible": "false",
        "x0": "30",
        "y0": "30",
    }
    base.update(attrs)
    return base


def _editor_numbering(attrs: dict | None) -> dict:
    base = {
        "color": "0,0,0",
        "first": "H",
        "fontSize": "9",
        "hDescend": "false",
        "hDrawOff": "0",
        "hLeading": "1",
        "hOff": "1",
        "hType": "N",
        "locationFormat": "$gridLocation$",
        "rotateText": "0",
        "sep": "",
        "stagger": "false",
        "vDescend": "false",
        "vDrawOff": "0",
        "vLeading": "1",
        "vOff": "1",
        "vType": "N",
        "visible": "true",
    }
    base.update(attrs or {})
    return base


def png_bytes(size: tuple[int, int], colour: str, text: str = "") -> bytes:
    """A flat PNG of `size`, with `text` on it (a piece or board image of a made module)."""
    im = Image.new("RGB", size, colour)
    if text:
        ImageDraw.Draw(im).text((4, size[1] // 3), text, fill="black")
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def _board_png(spec: BoardSpec) -> bytes:
    im = Image.new("RGB", spec.size, "#e8e4c9")
    draw = ImageDraw.Draw(im)
    if spec.kind in ("hex", "zoned") and spec.grid:
        g = _editor_hex(spec.grid)
        x0, y0, dx, dy = float(g["x0"]), float(g["y0"]), float(g["dx"]), float(g["dy"])
        sideways = g["sideways"] == "true"
        w, h = spec.size if not sideways else spec.size[::-1]
        for c in range(-1, int(w / dx) + 2):
            for r in range(-1, int(h / dy) + 2):
                x, y = x0 + c * dx, y0 + r * dy + (dy / 2 if c % 2 else 0)
                if sideways:
                    x, y = y, x
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill="#6b8e3a")
    for _name, path, *_ in spec.zones:
        pts = [tuple(int(v) for v in p.split(",")) for p in path.split(";")]
        draw.polygon(pts, outline="#2e6fb7")
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


UNITS = ("Inf 1", "Inf 2", "Art 3", "HQ")


def _pieces(spec: ModuleSpec) -> tuple[dict[str, Piece], dict[str, str], dict[str, bytes]]:
    """Palette pieces by name (layers in a prototype per side, as editors often do), prototype texts, images."""
    pieces, protos, images = {}, {}, {}
    for s, side in enumerate(spec.sides):
        proto = Piece((Marker((("Side", side),)), BasicPiece()))
        protos[f"{side} unit"] = proto.slot_text()
        for u, unit in enumerate(UNITS):
            full, reduced = f"{side}_{u}_f.png", f"{side}_{u}_r.png"
            colour = ["#c0504d", "#4f81bd", "#9bbb59", "#8064a2"][s % 4]
            images[full] = png_bytes((48, 48), colour, unit)
            images[reduced] = png_bytes((48, 48), colour, unit + "'")
            layer = Layer(
                images=(full, reduced), level_names=("", "+ (reduced)"), name="Step", up_command="Flip", up_key="70,130"
            )
            name = f"{side} {unit}"
            pieces[name] = Piece((UsePrototype(f"{side} unit"), layer, BasicPiece(name=name)))
    return pieces, protos, images


def _centre(spec: BoardSpec, c: int, r: int) -> tuple[int, int]:
    if spec.kind == "square":
        return 25 + 50 * c, 25 + 50 * r
    g = _editor_hex(spec.grid)
    x0, y0, dx, dy = float(g["x0"]), float(g["y0"]), float(g["dx"]), float(g["dy"])
    x, y = x0 + c * dx, y0 + r * dy + (dy / 2 if c % 2 else 0)
    if g["sideways"] == "true":
        x, y = y, x
    return math.floor(x + 0.5), math.floor(y + 0.5)


def _build_file(spec: ModuleSpec, pieces: dict[str, Piece], protos: dict[str, str]) -> etree._Element:
    E = etree.Element
    root = E(
        B + "GameModule",
        {
            "ModuleOther1": "",
            "ModuleOther2": "",
            "VassalVersion": spec.vassal_version,
            "description": "corpus module",
            "name": spec.name,
            "nextPieceSlotId": "100",
            "version": "1.0",
        },
    )
    etree.SubElement(root, B + "module.BasicCommandEncoder")
    roster = etree.SubElement(
        root,
        B + "module.PlayerRoster",
        {"buttonKeyStroke": "", "buttonText": "Retire", "buttonToolTip": "Switch sides"},
    )
    for side in spec.sides:
        etree.SubElement(roster, "entry").text = side
    options = {
        "autoReport": "Always",
        "centerOnMove": "Use Preferences Setting",
        "chatterHTMLSupport": "Never",
        "hotKeysOnClosedWindows": "Never",
        "inventoryForAll": "Always",
        "nonOwnerUnmaskable": "Always",
        "playerIdFormat": "$PlayerName$",
    }
    if spec.leading_zero_option:
        options["storeLeadingZeroIntegersAsStrings"] = "true"
    etree.SubElement(root, B + "module.GlobalOptions", options)
    etree.SubElement(root, B + "module.Chatter")
    main = etree.SubElement(
        root,
        B + "module.Map",
        {
            "allowMultiple": "false",
            "backgroundcolor": "255,255,255",
            "buttonName": "",
            "changeFormat": "$message$",
            "color": "0,0,0",
            "createFormat": "$pieceName$ created in $location$ *",
            "edgeHeight": "0",
            "edgeWidth": "0",
            "hideKey": "",
            "hotkey": "",
            "icon": "/images/map.gif",
            "launch": "false",
            "mapName": "Main Map",
            "markMoved": "Always",
            "markUnmovedHotkey": "",
            "markUnmovedIcon": "/images/unmoved.gif",
            "markUnmovedReport": "",
            "markUnmovedText": "",
            "moveKey": "",
            "moveToFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
            "moveWithinFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
            "showKey": "",
            "thickness": "3",
        },
    )
    picker = etree.SubElement(
        main,
        B + "module.map.BoardPicker",
        {
            "addColumnText": "Add column",
            "addRowText": "Add row",
            "boardPrompt": "Select board",
            "slotHeight": "125",
            "slotScale": "0.2",
            "slotWidth": "350",
            "title": "Choose Boards",
        },
    )
    for board in spec.boards:
        el = etree.SubElement(picker, BOARD, {"image": _board_image(board), "name": board.name, "reversible": "false"})
        _grid(el, board)
    for helper in (
        "StackMetrics",
        "ForwardToKeyBuffer",
        "Scroller",
        "ForwardToChatter",
        "MenuDisplayer",
        "MapCenterer",
        "StackExpander",
        "PieceMover",
        "KeyBufferer",
        "ImageSaver",
        "CounterDetailViewer",
        "Zoomer",
    ):
        etree.SubElement(main, B + "module.map." + helper)
    dead = etree.SubElement(
        root,
        B + "module.Map",
        {"mapName": "Dead Pile", "edgeHeight": "0", "edgeWidth": "0", "launch": "true", "buttonName": "Dead"},
    )
    dpicker = etree.SubElement(dead, B + "module.map.BoardPicker")
    dboard = etree.SubElement(dpicker, BOARD, {"image": "dead.png", "name": "Dead Pile", "reversible": "false"})
    regions = etree.SubElement(
        dboard, B + "module.map.boardPicker.board.RegionGrid", {"snapto": "true", "visible": "false"}
    )
    for i, side in enumerate(spec.sides):
        etree.SubElement(
            regions,
            B + "module.map.boardPicker.board.Region",
            {"name": f"{side} dead", "originx": str(60 + 120 * i), "originy": "50"},
        )
    etree.SubElement(dead, B + "module.map.StackMetrics")
    etree.SubElement(dead, B + "module.map.PieceMover")
    window = etree.SubElement(
        root,
        B + "module.PieceWindow",
        {
            "allowMultiple": "false",
            "hidden": "false",
            "hotkey": "",
            "icon": "",
            "name": "Pieces",
            "scale": "1.0",
            "text": "Pieces",
            "tooltip": "",
        },
    )
    tabs = etree.SubElement(window, B + "widget.TabWidget", {"entryName": "Pieces"})
    gpid = 1
    for side in spec.sides:
        tab = etree.SubElement(
            tabs,
            B + "widget.ListWidget",
            {"divider": "150", "entryName": side, "height": "0", "scale": "1.0", "width": "0"},
        )
        for name, piece in pieces.items():
            if name.startswith(side + " "):
                slot = etree.SubElement(
                    tab, B + "widget.PieceSlot", {"entryName": name, "gpid": str(gpid), "height": "48", "width": "48"}
                )
                slot.text = piece.slot_text()
                gpid += 1
    container = etree.SubElement(root, B + "module.PrototypesContainer")
    for name, text in protos.items():
        etree.SubElement(container, B + "module.PrototypeDefinition", {"description": "", "name": name}).text = text
    setup = etree.SubElement(
        root,
        B + "module.PredefinedSetup",
        {"file": "Opening.vsav", "name": "Opening", "useFile": "true", "isMenu": "false"},
    )
    setup.tail = None
    return root


def _board_image(board: BoardSpec) -> str:
    return f"board_{board.name.replace(' ', '_')}.png"


def _grid(el: etree._Element, board: BoardSpec) -> None:
    if board.kind == "hex":
        grid = etree.SubElement(el, HEX, _editor_hex(board.grid))
        etree.SubElement(grid, NUMBERING, _editor_numbering(board.numbering))
    elif board.kind == "square":
        grid = etree.SubElement(
            el,
            B + "module.map.boardPicker.board.SquareGrid",
            {
                "color": "0,0,0",
                "cornersLegal": "false",
                "dotsVisible": "false",
                "dx": "50.0",
                "dy": "50.0",
                "edgesLegal": "false",
                "range": "Metric",
                "snapTo": "true",
                "visible": "false",
                "x0": "25",
                "y0": "25",
            },
        )
        etree.SubElement(
            grid,
            B + "module.map.boardPicker.board.mapgrid.SquareGridNumbering",
            {"first": "H", "hOff": "1", "hType": "N", "sep": "", "vOff": "1", "vType": "N", "visible": "false"},
        )
    elif board.kind == "zoned":
        zoned = etree.SubElement(el, B + "module.map.boardPicker.board.ZonedGrid")
        for name, path, fmt, grid_attrs, numbering in board.zones:
            zone = etree.SubElement(
                zoned,
                B + "module.map.boardPicker.board.mapgrid.Zone",
                {
                    "highlightProperty": "",
                    "locationFormat": fmt,
                    "name": name,
                    "path": path,
                    "useHighlight": "false",
                    "useParentGrid": "false",
                },
            )
            if grid_attrs:
                g = etree.SubElement(zone, HEX, _editor_hex(grid_attrs))
                etree.SubElement(g, NUMBERING, _editor_numbering(numbering))
        background = etree.SubElement(zoned, HEX, _editor_hex(board.grid))
        etree.SubElement(background, NUMBERING, _editor_numbering(board.numbering))


def _saved_game(spec: ModuleSpec, pieces: dict[str, Piece]) -> bytes:
    names = list(pieces)
    placed = []
    offsets, x = [], 0
    for board in spec.boards:
        offsets.append(x)
        x += board.size[0]
    for n, (s, u, b, c, r, level) in enumerate(spec.placements):
        name = f"{spec.sides[s]} {UNITS[u]}"
        piece = pieces[name]
        if isinstance(b, str):  # a zone of board 0 with its own grid (board coordinates, as the engine's)
            zone = next(z for z in spec.boards[0].zones if z[0] == b)
            px, py = _centre(BoardSpec(b, (0, 0), zone[3]), c, r)
            b = 0
        else:
            px, py = _centre(spec.boards[b], c, r)
        traits = list(piece.traits)
        traits[1] = Layer(**{**traits[1].__dict__, "level": level})
        basic = traits[-1]
        traits[-1] = BasicPiece(
            name=basic.name, map_id="Main Map", x=px + offsets[b], y=py, gpid=str(names.index(name) + 1)
        )
        definition = Piece(tuple(traits)).definition()
        placed.append(add_piece_command(definition.type, definition.state, str(1000 + n)))
    side = spec.sides[0]
    dead = Piece(
        (
            Marker((("Side", side),)),
            Layer(
                images=(f"{side}_0_f.png", f"{side}_0_r.png"),
                level_names=("", "+ (reduced)"),
                name="Step",
                up_command="Flip",
                up_key="70,130",
                level=2,
            ),
            BasicPiece(name=f"{side} {UNITS[0]}", map_id="Dead Pile", x=60, y=50),
        )
    )
    placed.append(add_piece_command(*dead.definition(), "999"))
    boards = va.board_picker_command("Main Map", [(b.name, i, 0) for i, b in enumerate(spec.boards)])
    dead_boards = va.board_picker_command("Dead Pile", [("Dead Pile", 0, 0)])
    text = "\x1b".join(["begin_save", boards, dead_boards, *placed, "end_save"])
    return va.zip_bytes(
        {
            "savedGame": obfuscate(text, 0x5A).encode(),
            "savedata": va.save_data(spec.name, "1.0", 0),
            "moduledata": va.module_data(spec.name, "1.0", "", 0),
        }
    )


def write(spec: ModuleSpec, folder: Path) -> Path:
    pieces, protos, images = _pieces(spec)
    root = _build_file(spec, pieces, protos)
    files = {f"images/{k}": v for k, v in images.items()}
    for board in spec.boards:
        files[f"images/{_board_image(board)}"] = _board_png(board)
    files["images/dead.png"] = png_bytes((360, 100), "#dddddd", "Dead pile")
    files["Opening.vsav"] = _saved_game(spec, pieces)
    build = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
    version = "3.2.2" if spec.legacy else spec.vassal_version
    files["buildFile" if spec.legacy else "buildFile.xml"] = build
    files["moduledata"] = va.module_data(spec.name, "1.0", "corpus module", 0, vassal_version=version)
    path = Path(folder) / f"{spec.name}.vmod"
    path.write_bytes(va.zip_bytes(files))
    return path


_SPOTS = [(0, 0, 0, 1, 1, 1), (0, 1, 0, 2, 2, 2), (1, 0, 0, 4, 3, 1), (1, 3, 0, 5, 1, 1), (0, 2, 0, 3, 4, 1)]


def _spots(boards: int = 1) -> list:
    out = list(_SPOTS)
    if boards > 1:
        out += [(1, 1, 1, 2, 2, 2), (0, 3, 1, 3, 3, 1)]
    return out


CORPUS: dict[str, ModuleSpec] = {
    "flat-offset": ModuleSpec(
        "flat-offset",
        [BoardSpec("Main", (520, 420), {"x0": "30", "y0": "30"}, {"hOff": "1", "vOff": "1"})],
        placements=_spots(),
    ),
    "flat-stagger": ModuleSpec(
        "flat-stagger",
        [BoardSpec("Main", (520, 420), {"x0": "30", "y0": "40"}, {"hOff": "10", "vOff": "5", "stagger": "true"})],
        placements=_spots(),
    ),
    "pointy-alpha": ModuleSpec(
        "pointy-alpha",
        [
            BoardSpec(
                "Main",
                (520, 420),
                {"sideways": "true", "x0": "30", "y0": "30", "dx": "52.0", "dy": "60.0"},
                {"first": "V", "vType": "A", "vOff": "0", "hOff": "1", "sep": "-", "hLeading": "0"},
            )
        ],
        placements=_spots(),
    ),
    "two-boards": ModuleSpec(
        "two-boards",
        [
            BoardSpec("West", (520, 420), {"x0": "30", "y0": "30"}, {"locationFormat": "W$gridLocation$"}),
            BoardSpec("East", (520, 420), {"x0": "30", "y0": "30"}, {"locationFormat": "E$gridLocation$"}, column=1),
        ],
        placements=_spots(2),
    ),
    "zones": ModuleSpec(
        "zones",
        [
            BoardSpec(
                "Main",
                (520, 420),
                {"x0": "30", "y0": "30"},
                {},
                kind="zoned",
                zones=[
                    ("Holding Box", "400,300;510,300;510,410;400,410", "$name$", None, None),
                    (
                        "Inset",
                        "330,10;510,10;510,250;330,250",
                        "$gridLocation$",
                        {"x0": "350", "y0": "30", "dx": "39.0", "dy": "45.0"},
                        {"hOff": "21", "vOff": "1", "locationFormat": "I$gridLocation$"},
                    ),
                ],
            )
        ],
        placements=_spots()[:4] + [(1, 2, 0, 8, 5, 1), (0, 2, "Inset", 1, 1, 1), (1, 1, "Inset", 2, 3, 2)],
    ),
    "square-and-hex": ModuleSpec(
        "square-and-hex",
        [
            BoardSpec("Hexes", (520, 420), {"x0": "30", "y0": "30"}, {"hOff": "1", "vOff": "1"}),
            BoardSpec("Squares", (300, 300), {}, kind="square", column=1),
        ],
        placements=_spots() + [(1, 2, 1, 2, 2, 1)],
    ),
    # issue 30: descending numbering counts from the board's far side (and the stagger then takes one off)
    "flat-descending": ModuleSpec(
        "flat-descending",
        [
            BoardSpec(
                "Main",
                (520, 420),
                {"x0": "30", "y0": "40"},
                {"hOff": "2", "vOff": "1", "hDescend": "true", "vDescend": "true", "stagger": "true"},
            )
        ],
        placements=_spots(),
    ),
    "pointy-descending": ModuleSpec(
        "pointy-descending",
        [
            BoardSpec(
                "Main",
                (520, 420),
                {"sideways": "true", "x0": "30", "y0": "30", "dx": "52.0", "dy": "60.0"},
                {"first": "V", "hOff": "0", "vOff": "1", "hDescend": "true", "sep": "."},
            )
        ],
        placements=_spots(),
    ),
    "legacy-3.2": ModuleSpec(
        "legacy-3.2",
        [BoardSpec("Main", (520, 420), {"x0": "30", "y0": "30"}, {"hOff": "1", "vOff": "1", "hLeading": "0"})],
        vassal_version="3.2.17",
        legacy=True,
        leading_zero_option=False,
        placements=_spots(),
    ),
}
