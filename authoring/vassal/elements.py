"""Thin lxml serializers for buildFile.xml, one function per VASSAL component class.

Element and attribute names are those VASSAL 3.6 reads (`getAttributeNames()` of each
class); attributes the engine would ignore are left out so the checker stays quiet.
Every value comes from the caller: these functions make no game decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lxml import etree

from .codec import encode, java_bool, java_double, key_stroke

Element = etree._Element
Attr = str | int | float | bool

_PKG = "VASSAL.build."
GAME_MODULE = _PKG + "GameModule"
BASIC_COMMAND_ENCODER = _PKG + "module.BasicCommandEncoder"
DOCUMENTATION = _PKG + "module.Documentation"
ABOUT_SCREEN = _PKG + "module.documentation.AboutScreen"
HELP_FILE = _PKG + "module.documentation.HelpFile"
PLAYER_ROSTER = _PKG + "module.PlayerRoster"
GLOBAL_OPTIONS = _PKG + "module.GlobalOptions"
CHATTER = _PKG + "module.Chatter"
KEY_NAMER = _PKG + "module.KeyNamer"
MAP = _PKG + "module.Map"
PRIVATE_MAP = _PKG + "module.PrivateMap"
BOARD_PICKER = _PKG + "module.map.BoardPicker"
BOARD = _PKG + "module.map.boardPicker.Board"
HEX_GRID = _PKG + "module.map.boardPicker.board.HexGrid"
HEX_GRID_NUMBERING = _PKG + "module.map.boardPicker.board.mapgrid.HexGridNumbering"
REGION_GRID = _PKG + "module.map.boardPicker.board.RegionGrid"
REGION = _PKG + "module.map.boardPicker.board.Region"
SQUARE_GRID = _PKG + "module.map.boardPicker.board.SquareGrid"
ZONED_GRID = _PKG + "module.map.boardPicker.board.ZonedGrid"
ZONE = _PKG + "module.map.boardPicker.board.mapgrid.Zone"
ZONE_HIGHLIGHTER = _PKG + "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter"
ZONE_HIGHLIGHT = _PKG + "module.map.boardPicker.board.mapgrid.ZoneHighlight"
GRID_PREFIX = _PKG + "module.map.boardPicker.board."
"""Every grid class (and its parts) lives under this package."""
PLAYER_HAND = _PKG + "module.PlayerHand"
WIDGET_MAP = _PKG + "widget.WidgetMap"
MAP_WIDGET = _PKG + "widget.MapWidget"
CARD_SLOT = _PKG + "widget.CardSlot"
BOX_WIDGET = _PKG + "widget.BoxWidget"
SETUP_STACK = _PKG + "module.map.SetupStack"
DRAW_PILE = _PKG + "module.map.DrawPile"
PROTOTYPE_FOLDER = _PKG + "module.folder.PrototypeFolder"
_MAP_HELPERS = _PKG + "module.map."
STACK_METRICS = _MAP_HELPERS + "StackMetrics"
COUNTER_DETAIL_VIEWER = _MAP_HELPERS + "CounterDetailViewer"
ZOOMER = _MAP_HELPERS + "Zoomer"
HIDE_PIECES_BUTTON = _MAP_HELPERS + "HidePiecesButton"
HIGHLIGHT_LAST_MOVED = _MAP_HELPERS + "HighlightLastMoved"
SIMPLE_MAP_HELPERS = tuple(
    _MAP_HELPERS + name
    for name in (
        "ForwardToKeyBuffer",
        "Scroller",
        "ForwardToChatter",
        "MenuDisplayer",
        "MapCenterer",
        "StackExpander",
        "PieceMover",
        "KeyBufferer",
        "SelectionHighlighters",
        "ImageSaver",
    )
)
PIECE_WINDOW = _PKG + "module.PieceWindow"
TAB_WIDGET = _PKG + "widget.TabWidget"
LIST_WIDGET = _PKG + "widget.ListWidget"
PANEL_WIDGET = _PKG + "widget.PanelWidget"
PIECE_SLOT = _PKG + "widget.PieceSlot"
PROTOTYPES_CONTAINER = _PKG + "module.PrototypesContainer"
PROTOTYPE_DEFINITION = _PKG + "module.PrototypeDefinition"
DICE_BUTTON = _PKG + "module.DiceButton"
TURN_TRACKER = _PKG + "module.turn.TurnTracker"
LIST_TURN_LEVEL = _PKG + "module.turn.ListTurnLevel"
TURN_GLOBAL_HOTKEY = _PKG + "module.turn.TurnGlobalHotkey"
GLOBAL_KEY_COMMAND = _PKG + "module.GlobalKeyCommand"
GLOBAL_PROPERTIES = _PKG + "module.properties.GlobalProperties"
GLOBAL_PROPERTY = _PKG + "module.properties.GlobalProperty"
CHANGE_PROPERTY_BUTTON = _PKG + "module.properties.ChangePropertyButton"
INVENTORY = _PKG + "module.Inventory"
NOTES_WINDOW = _PKG + "module.NotesWindow"
LOS_THREAD = _PKG + "module.map.LOS_Thread"
CHART_WINDOW = _PKG + "module.ChartWindow"
CHART = _PKG + "widget.Chart"
PREDEFINED_SETUP = _PKG + "module.PredefinedSetup"

ALWAYS = "Always"
NEVER = "Never"
USE_PREFERENCES = "Use Preferences Setting"
MOVE_FORMAT = "$pieceName$ moves $previousLocation$ -> $location$ *"
CREATE_FORMAT = "$pieceName$ created in $location$ *"
DICE_FORMAT = "** $name$ = $result$ *** <$PlayerName$>"
GRID_LOCATION_FORMAT = "$gridLocation$"


@dataclass(frozen=True)
class LaunchButton:
    """A toolbar button opening a window: text, tooltip, icon (engine `/images/...` or archive name), hotkey."""

    text: str = ""
    tooltip: str = ""
    icon: str = ""
    hotkey: str = ""


@dataclass(frozen=True)
class MapReports:
    """Chat formats for moves within/onto a map, creation and trait changes."""

    move_within: str = MOVE_FORMAT
    move_to: str = MOVE_FORMAT
    create: str = CREATE_FORMAT
    change: str = "$message$"


@dataclass(frozen=True)
class HexGridSpec:
    """HexGrid geometry: `dx` column spacing, `dy` hex height, (x0, y0) centre of column 0 row 0."""

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool = False
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    visible: bool = False
    dots_visible: bool = False
    color: str = "0,0,0"


@dataclass(frozen=True)
class NumberingSpec:
    """HexGridNumbering: label = column + h_off and row + v_off; `leading` 1 pads to two digits."""

    h_off: int = 0
    v_off: int = 0
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = False
    location_format: str = GRID_LOCATION_FORMAT
    visible: bool = False
    font_size: int = 9
    color: str = "0,0,0"


def _value(value: Attr) -> str:
    if isinstance(value, bool):
        return java_bool(value)
    if isinstance(value, float):
        return java_double(value)
    return str(value)


def element(
    tag: str, attrs: Mapping[str, Attr] | None = None, children: Iterable[Element] = (), text: str | None = None
) -> Element:
    """An element with attributes in the given order, children and optional text."""
    node = etree.Element(tag)
    for name, value in (attrs or {}).items():
        node.set(name, _value(value))
    node.extend(children)
    if text is not None:
        node.text = text
    return node


def _button(
    button: LaunchButton, text: str = "text", tooltip: str = "tooltip", icon: str = "icon", hotkey: str = "hotkey"
) -> dict[str, Attr]:
    return {text: button.text, tooltip: button.tooltip, icon: button.icon, hotkey: button.hotkey}


def game_module(
    name: str,
    version: str,
    description: str,
    next_piece_slot_id: int,
    children: Iterable[Element],
    vassal_version: str = "3.6.0",
) -> Element:
    """The buildFile root."""
    attrs = {
        "name": name,
        "version": version,
        "VassalVersion": vassal_version,
        "description": description,
        "nextPieceSlotId": next_piece_slot_id,
    }
    return element(GAME_MODULE, attrs, children)


def basic_command_encoder() -> Element:
    return element(BASIC_COMMAND_ENCODER)


def documentation(children: Iterable[Element] = ()) -> Element:
    return element(DOCUMENTATION, children=children)


def about_screen(title: str, image: str) -> Element:
    """Help > About: `image` is an archive image name under images/."""
    return element(ABOUT_SCREEN, {"title": title, "fileName": image})


def help_file(title: str, file_name: str) -> Element:
    """Help menu entry for an HTML/text file stored in the module archive."""
    return element(HELP_FILE, {"title": title, "fileName": file_name, "fileType": "archive"})


def player_roster(sides: Sequence[str], button: LaunchButton = LaunchButton("Retire")) -> Element:
    """The sides players can join, one `<entry>` each."""
    attrs = _button(button, "buttonText", "buttonToolTip", "buttonIcon", "buttonKeyStroke")
    entries = [element("entry", text=side) for side in sides]
    return element(PLAYER_ROSTER, attrs, entries)


def global_options(
    *,
    auto_report: str = ALWAYS,
    nonowner_unmaskable: str = ALWAYS,
    player_id_format: str = "$PlayerName$",
    chatter_html: str = NEVER,
    hotkeys_on_closed_windows: str = NEVER,
    preserve_leading_zeros: bool = True,
) -> Element:
    """Module-wide options.

    `storeLeadingZeroIntegersAsStrings` (VASSAL 3.7+) keeps `0712` from becoming 712 when
    a location is evaluated as an expression; 3.6 stores unknown options verbatim, so
    setting it is harmless there.
    """
    attrs: dict[str, Attr] = {
        "autoReport": auto_report,
        "nonOwnerUnmaskable": nonowner_unmaskable,
        "playerIdFormat": player_id_format,
        "chatterHTMLSupport": chatter_html,
        "hotKeysOnClosedWindows": hotkeys_on_closed_windows,
    }
    if preserve_leading_zeros:
        attrs["storeLeadingZeroIntegersAsStrings"] = True
    return element(GLOBAL_OPTIONS, attrs)


def chatter() -> Element:
    return element(CHATTER)


def key_namer() -> Element:
    return element(KEY_NAMER)


def map_window(
    name: str,
    board_picker_: Element,
    helpers: Iterable[Element],
    *,
    button: LaunchButton | None = None,
    reports: MapReports = MapReports(),
    mark_moved: str = ALWAYS,
    tag: str = MAP,
    extra: Mapping[str, Attr] | None = None,
) -> Element:
    """A Map: the main map when `button` is None, else a window opened from the toolbar."""
    launch = button or LaunchButton(icon="/images/map.gif")
    attrs: dict[str, Attr] = {
        **(extra or {}),
        "mapName": name,
        "markMoved": mark_moved,
        "edgeWidth": 0,
        "edgeHeight": 0,
        "backgroundcolor": "255,255,255",
        "allowMultiple": False,
        "launch": button is not None,
        "buttonName": launch.text,
        "tooltip": launch.tooltip,
        "icon": launch.icon,
        "hotkey": launch.hotkey,
        "moveWithinFormat": reports.move_within,
        "moveToFormat": reports.move_to,
        "createFormat": reports.create,
        "changeFormat": reports.change,
    }
    return element(tag, attrs, [board_picker_, *helpers])


def private_map(
    name: str,
    sides: Sequence[str],
    board_picker_: Element,
    helpers: Iterable[Element],
    *,
    button: LaunchButton,
    visible_to_all: bool = False,
) -> Element:
    """A Map only the listed sides may open (e.g. a hidden reinforcement pool)."""
    extra = {"side": encode(sides, ","), "visible": visible_to_all}
    return map_window(name, board_picker_, helpers, button=button, tag=PRIVATE_MAP, extra=extra)


def board_picker(boards: Iterable[Element]) -> Element:
    return element(BOARD_PICKER, children=boards)


def board(name: str, image: str, grid: Element | None = None) -> Element:
    """A board drawn from an archive image under images/, with an optional grid."""
    return element(BOARD, {"name": name, "image": image, "reversible": False}, [grid] if grid is not None else [])


def hex_grid(spec: HexGridSpec, numbering: Element | None = None) -> Element:
    attrs = {
        "sideways": spec.sideways,
        "x0": spec.x0,
        "y0": spec.y0,
        "dy": float(spec.dy),
        "dx": float(spec.dx),
        "snapTo": spec.snap_to,
        "edgesLegal": spec.edges_legal,
        "cornersLegal": spec.corners_legal,
        "visible": spec.visible,
        "dotsVisible": spec.dots_visible,
        "color": spec.color,
    }
    return element(HEX_GRID, attrs, [numbering] if numbering is not None else [])


def hex_grid_numbering(spec: NumberingSpec) -> Element:
    attrs = {
        "first": spec.first,
        "sep": spec.sep,
        "hType": spec.h_type,
        "hLeading": spec.h_leading,
        "hOff": spec.h_off,
        "hDescend": spec.h_descend,
        "vType": spec.v_type,
        "vLeading": spec.v_leading,
        "vOff": spec.v_off,
        "vDescend": spec.v_descend,
        "stagger": spec.stagger,
        "locationFormat": spec.location_format,
        "visible": spec.visible,
        "fontSize": spec.font_size,
        "color": spec.color,
    }
    return element(HEX_GRID_NUMBERING, attrs)


def region_grid(regions: Sequence[tuple[str, int, int]], *, snap_to: bool = True, visible: bool = False) -> Element:
    """Named points on a board (track boxes, dead piles): pieces snap to the nearest one."""
    children = [element(REGION, {"name": name, "originx": x, "originy": y}) for name, x, y in regions]
    return element(REGION_GRID, {"snapto": snap_to, "visible": visible}, children)


def zoned_grid(zones: Sequence[Element], background: Element, highlights: Sequence[Element] = ()) -> Element:
    """A board's zones over its own grid (`background`), with the highlights zones may show."""
    shown = [element(ZONE_HIGHLIGHTER, children=list(highlights))] if highlights else []
    return element(ZONED_GRID, children=[*zones, background, *shown])


def zone(name: str, rect: tuple[int, int, int, int], highlight_property: str = "") -> Element:
    """A rectangular zone named `name` (its pieces' location name too) that snaps to the board's own grid;
    with `highlight_property`, it shows the highlight that property's value names (none when empty)."""
    left, top, right, bottom = rect
    path = ";".join(f"{x},{y}" for x, y in ((left, top), (right, top), (right, bottom), (left, bottom)))
    attrs = {
        "name": name,
        "locationFormat": "$name$",
        "path": path,
        "useParentGrid": True,
        "useHighlight": bool(highlight_property),
        "highlightProperty": highlight_property,
    }
    return element(ZONE, attrs)


def zone_highlight(name: str, color: str, opacity: int = 40, width: int = 4) -> Element:
    """A zone highlight: `color` ("r,g,b") over the whole zone at `opacity` percent."""
    attrs = {
        "name": name,
        "color": color,
        "coverage": "Entire Zone",
        "width": width,
        "style": "Plain",
        "image": "",
        "opacity": opacity,
    }
    return element(ZONE_HIGHLIGHT, attrs)


def change_property_button(hotkey: str, value: str, button: LaunchButton | None = None) -> Element:
    """A global property's setter: `hotkey` (or its button, hidden without text or icon) sets it to `value`."""
    button = button or LaunchButton("", "", "", hotkey)
    attrs = {
        "text": button.text,
        "tooltip": button.tooltip,
        "icon": button.icon,
        "hotkey": hotkey,
        "reportFormat": "",
        "propChanger": encode(["P", value], ","),
    }
    return element(CHANGE_PROPERTY_BUTTON, attrs)


def global_property(name: str, value: str, description: str, setters: Sequence[Element] = ()) -> Element:
    """One global property (text, not numeric) and the buttons that set it."""
    attrs = {
        "name": name,
        "initialValue": value,
        "description": description,
        "isNumeric": False,
        "min": "0",
        "max": "100",
        "wrap": False,
    }
    return element(GLOBAL_PROPERTY, attrs, list(setters))


def global_property_set(properties: Sequence[Element]) -> Element:
    """A container of global properties (`global_property`) at the level it is put in."""
    return element(GLOBAL_PROPERTIES, children=list(properties))


def stack_metrics(*, ex_sep_x: int = 6, ex_sep_y: int = 18, unex_sep_x: int = 8, unex_sep_y: int = 16) -> Element:
    """Stacking offsets (expanded, unexpanded: each next piece right and up) and the keys that move
    pieces within a stack."""
    attrs = {
        "disabled": False,
        "exSepX": ex_sep_x,
        "exSepY": ex_sep_y,
        "unexSepX": unex_sep_x,
        "unexSepY": unex_sep_y,
        "top": key_stroke(38),
        "bottom": key_stroke(40),
        "up": key_stroke(37),
        "down": key_stroke(39),
    }
    return element(STACK_METRICS, attrs)


def counter_detail_viewer(delay_ms: int = 700) -> Element:
    """The mouse-over stack viewer."""
    return element(COUNTER_DETAIL_VIEWER, {"version": 3, "delay": delay_ms})


def zoomer(levels: Sequence[float] = (0.5, 1.0, 1.5)) -> Element:
    return element(ZOOMER, {"zoomLevels": encode([java_double(level) for level in levels], ",")})


def hide_pieces_button(text: str, tooltip: str, hotkey: str) -> Element:
    """Toggle hiding all pieces on a map; it keeps the engine's own globe icons."""
    return element(HIDE_PIECES_BUTTON, {"buttonText": text, "tooltip": tooltip, "hotkey": hotkey})


def highlight_last_moved(color: str = "255,0,0", thickness: int = 2) -> Element:
    return element(HIGHLIGHT_LAST_MOVED, {"enabled": True, "color": color, "thickness": thickness})


def standard_map_helpers(zoom_levels: Sequence[float] = (0.5, 1.0, 1.5)) -> tuple[Element, ...]:
    """What the VASSAL editor gives a new map, so pieces can be moved, stacked, inspected and zoomed."""
    simple = [element(tag) for tag in SIMPLE_MAP_HELPERS]
    return (stack_metrics(), *simple, highlight_last_moved(), counter_detail_viewer(), zoomer(zoom_levels))


def piece_window(name: str, children: Iterable[Element], button: LaunchButton) -> Element:
    """The piece palette window."""
    attrs = {"name": name, "hidden": False, **_button(button), "scale": 1.0, "defaultWidth": 0}
    return element(PIECE_WINDOW, attrs, children)


def tab_widget(name: str, children: Iterable[Element]) -> Element:
    return element(TAB_WIDGET, {"entryName": name}, children)


def list_widget(
    name: str, children: Iterable[Element], *, width: int = 0, height: int = 0, divider: int = 150
) -> Element:
    """The selected entry (left) beside the list of entries (right); with `width` and `height`
    set, `divider` is where the split sits (the entry's width), else the engine lays it out."""
    attrs = {"entryName": name, "scale": 1.0, "width": width, "height": height, "divider": divider}
    return element(LIST_WIDGET, attrs, children)


def panel_widget(name: str, children: Iterable[Element], *, columns: int, scale: float = 1.0) -> Element:
    """A grid of `columns` equal cells (a fixed PanelWidget): every piece of a palette tab in view at once."""
    attrs = {"entryName": name, "fixed": True, "nColumns": max(1, columns), "vert": False, "scale": scale}
    return element(PANEL_WIDGET, attrs, children)


def piece_slot(entry_name: str, gpid: int, slot_text: str, width: int, height: int) -> Element:
    """A palette entry; `slot_text` is the piece's add-piece command (`Piece.slot_text()`)."""
    attrs = {"entryName": entry_name, "gpid": gpid, "height": height, "width": width}
    return element(PIECE_SLOT, attrs, text=slot_text)


def prototypes_container(definitions: Iterable[Element]) -> Element:
    return element(PROTOTYPES_CONTAINER, children=definitions)


def prototype_definition(name: str, slot_text: str, description: str = "") -> Element:
    """Shared traits; `slot_text` is an add-piece command whose BasicPiece is empty."""
    return element(PROTOTYPE_DEFINITION, {"name": name, "description": description}, text=slot_text)


def dice_button(
    name: str,
    n_dice: int,
    n_sides: int,
    button: LaunchButton,
    *,
    report_format: str = DICE_FORMAT,
    plus: int = 0,
    report_total: bool = False,
) -> Element:
    """A toolbar die roller reporting to the chat."""
    attrs = {
        "name": name,
        **_button(button),
        "reportFormat": report_format,
        "prompt": False,
        "nDice": n_dice,
        "nSides": n_sides,
        "plus": plus,
        "addToTotal": 0,
        "reportTotal": report_total,
        "sortDice": False,
        "keepDice": False,
        "keepOption": ">",
        "keepCount": 1,
    }
    return element(DICE_BUTTON, attrs)


def turn_tracker(
    name: str,
    levels: Iterable[Element],
    button: LaunchButton,
    *,
    turn_format: str = "$level1$ $level2$",
    report_format: str = "<$PlayerId$> Turn Updated from $oldTurn$ to $newTurn$",
    hotkeys: Iterable[Element] = (),
) -> Element:
    """The turn/phase counter; `levels` is the outermost ListTurnLevel(s), `hotkeys` its TurnGlobalHotkeys."""
    attrs = {
        "name": name,
        "buttonText": button.text,
        "icon": button.icon,
        "hotkey": button.hotkey,
        "turnFormat": turn_format,
        "reportFormat": report_format,
        "tooltip": button.tooltip,
    }
    return element(TURN_TRACKER, attrs, [*levels, *hotkeys])


def list_turn_level(name: str, property_name: str, items: Sequence[str], children: Iterable[Element] = ()) -> Element:
    """A named list of turns or phases; nested levels advance once per cycle of this one."""
    attrs = {
        "name": name,
        "property": property_name,
        "list": encode(items, ","),
        "configList": False,
        "configFirst": False,
    }
    return element(LIST_TURN_LEVEL, attrs, children)


def turn_global_hotkey(name: str, hotkey: str, match: str, report_format: str = "") -> Element:
    """A key the turn tracker fires (to the module's key listeners) on entering a turn matching `match`."""
    return element(TURN_GLOBAL_HOTKEY, {"name": name, "hotkey": hotkey, "match": match, "reportFormat": report_format})


def global_key_command(name: str, button: LaunchButton, key: str, filter_: str, report_format: str = "") -> Element:
    """A toolbar button (and its hotkey) sending `key` to every piece on every map matching `filter_`."""
    attrs = {
        "name": name,
        "buttonText": button.text,
        "tooltip": button.tooltip,
        "icon": button.icon,
        "buttonHotkey": button.hotkey,
        "hotkey": key,
        "filter": filter_,
        "deckCount": -1,
        "reportSingle": False,
        "reportFormat": report_format,
        "singleMap": False,
    }
    return element(GLOBAL_KEY_COMMAND, attrs)


def global_properties(values: Sequence[tuple[str, str, str]]) -> Element:
    """The module's global properties: (name, value, description) each; pieces read them by name."""
    return element(
        GLOBAL_PROPERTIES,
        children=[
            element(
                GLOBAL_PROPERTY,
                {
                    "name": name,
                    "initialValue": value,
                    "description": description,
                    "isNumeric": False,
                    "min": "0",
                    "max": "100",
                    "wrap": False,
                },
            )
            for name, value, description in values
        ],
    )


def inventory(
    name: str,
    button: LaunchButton,
    filter_: str,
    group_by: Sequence[str],
    *,
    leaf_format: str = "$PieceName$",
    node_format: str = "$PropertyValue$",
) -> Element:
    """A window listing the pieces matching `filter_` in a tree grouped by the properties `group_by`."""
    attrs = {
        "name": name,
        "text": button.text,
        "tooltip": button.tooltip,
        "icon": button.icon,
        "hotkey": button.hotkey,
        "include": filter_,
        "groupBy": encode(group_by, ","),
        "nonLeafFormat": node_format,
        "leafFormat": leaf_format,
        "centerOnPiece": True,
        "forwardKeystroke": True,
        "showMenu": True,
        "drawPieces": True,
        "foldersOnly": False,
        "sortPieces": True,
        "sortFormat": "$PieceName$",
        "sorting": "alpha",
        "pieceZoom": 0.33,
    }
    return element(INVENTORY, attrs)


def notes_window(button: LaunchButton) -> Element:
    """Scenario, public and private notes, saved with the game."""
    return element(
        NOTES_WINDOW,
        {"buttonText": button.text, "tooltip": button.tooltip, "icon": button.icon, "hotkey": button.hotkey},
    )


def los_thread(name: str, button: LaunchButton, report_format: str, color: str = "255,0,0") -> Element:
    """A map's line-of-sight thread, snapped to hex centres, seen by every player, with the range in hexes.

    A `scale` (pixels per range unit) of 0 makes the engine count the range by the board's grid
    (`MapGrid.range`: hexes on a HexGrid); any other scale divides the thread's length in pixels by it."""
    attrs = {
        "threadName": name,
        "label": button.text,
        "tooltip": button.tooltip,
        "iconName": button.icon or "/images/thread.gif",
        "hotkey": button.hotkey,
        "snapStart": True,
        "snapEnd": True,
        "report": report_format,
        "persistence": "Ctrl-Click & Drag",
        "persistentIconName": "/images/thread.gif",
        "global": ALWAYS,
        "threadColor": color,
        "drawRange": True,
        "rangeBg": "255,255,255",
        "rangeFg": "0,0,0",
        "scale": 0,
        "round": "Up",
        "hideCounters": False,
        "hideOpacity": 0,
    }
    return element(LOS_THREAD, attrs)


def chart_window(name: str, charts: Iterable[Element], button: LaunchButton) -> Element:
    return element(CHART_WINDOW, {"name": name, **_button(button)}, charts)


def chart(name: str, image: str) -> Element:
    """One chart page: an archive image under images/."""
    return element(CHART, {"chartName": name, "fileName": image})


def predefined_setup(name: str, file: str, *, is_menu: bool = False) -> Element:
    """A scenario menu entry loading `file`, a .vsav stored inside the module."""
    return element(PREDEFINED_SETUP, {"name": name, "isMenu": is_menu, "useFile": True, "file": file})
