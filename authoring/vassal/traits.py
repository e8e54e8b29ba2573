"""VASSAL piece traits as frozen dataclasses, one per engine class, with their type/state strings.

Field order follows each class's `myGetType`/`myGetState` in VASSAL 3.6
(`VASSAL/counters/*.java`); defaults follow the engine's own defaults. These classes
make no game decisions: the compile step fills every field.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .codec import (
    NULL_ID,
    Definition,
    add_piece_command,
    encode,
    java_bool,
    java_double,
    key_stroke,
    nest,
)

BASIC_PIECE_ID = "piece;"
LAYER_ID = "emb2;"
MARKER_ID = "mark;"
PROTOTYPE_ID = "prototype;"
REPORT_ID = "report;"
DELETE_ID = "delete;"
CLONE_ID = "clone;"
SEND_TO_ID = "sendto;"
MOVEMENT_MARKABLE_ID = "markmoved;"
CALCULATED_PROPERTY_ID = "calcProp;"
FOOTPRINT_ID = "footprint;"
RESTRICTED_ID = "restrict;"
OBSCURABLE_ID = "obs;"
DYNAMIC_PROPERTY_ID = "PROP;"
AREA_OF_EFFECT_ID = "AreaOfEffect;"
SET_GLOBAL_PROPERTY_ID = "setprop;"
LABEL_ID = "label;"

NO_KEY = ""
MOVED_ICON = "/images/moved.gif"

# SendToLocation destinations (the first letter of the engine's option names).
DEST_LOCATION = "L"
DEST_ZONE = "Z"
DEST_REGION = "R"
DEST_GRID_LOCATION = "G"


class Trait(Protocol):
    """What `Piece` needs from each layer."""

    def type_string(self) -> str: ...

    def state_string(self) -> str: ...


def _fields(prefix: str, *values: str) -> str:
    return prefix + encode(values, ";")


@dataclass(frozen=True)
class BasicPiece:
    """`piece;CLONEKEY;DELETEKEY;IMAGE;NAME`, state `MAPID;X;Y;GPID;N[;key;value...]`."""

    name: str = ""
    image: str = ""
    clone_key: str = ""
    delete_key: str = ""
    map_id: str = NULL_ID
    x: int = 0
    y: int = 0
    gpid: str = ""
    properties: tuple[tuple[str, str], ...] = ()

    def type_string(self) -> str:
        return BASIC_PIECE_ID + encode([self.clone_key, self.delete_key, self.image, self.name], ";")

    def state_string(self) -> str:
        return self.state_at(self.map_id, self.x, self.y)

    def state_at(self, map_id: str, x: int, y: int, tail: str | None = None) -> str:
        """The state of this piece placed at (x, y) of `map_id`: `replace(...).state_string()` without
        making a piece per placement (a set-up places thousands). `tail`: this piece's `state_tail()`,
        when the caller keeps it (each field is encoded on its own, so the two parts join with `;`)."""
        return encode([map_id, str(x), str(y)], ";") + ";" + (self.state_tail() if tail is None else tail)

    def state_tail(self) -> str:
        """The encoded state fields that do not depend on where the piece is: gpid and properties."""
        pairs = [item for pair in self.properties for item in pair]
        return encode([self.gpid, str(len(self.properties)), *pairs], ";")


@dataclass(frozen=True)
class Layer:
    """Embellishment (`emb2;`): the 31 type fields in engine order; state is the 1-based level.

    A level name `+X` appends X to the piece name, `X+` prepends it, a plain name replaces it.
    """

    images: tuple[str, ...]
    level_names: tuple[str, ...] = ()
    name: str = ""
    level: int = 1
    activate_command: str = ""
    activate_modifiers: int = 0
    activate_key: str = ""
    up_command: str = ""
    up_modifiers: int = 0
    up_key: str = ""
    down_command: str = ""
    down_modifiers: int = 0
    down_key: str = ""
    reset_command: str = ""
    reset_key: str = NO_KEY
    reset_level: str = "1"
    draw_underneath: bool = False
    x_offset: int = 0
    y_offset: int = 0
    loop_levels: bool = True
    random_key: str = NO_KEY
    random_text: str = ""
    follow_property: bool = False
    property_name: str = ""
    first_level_value: int = 1
    version: int = 1
    always_active: bool = True
    activate_keystroke: str = NO_KEY
    increase_keystroke: str = NO_KEY
    decrease_keystroke: str = NO_KEY
    description: str = ""
    scale: float = 1.0

    def __post_init__(self) -> None:
        if not self.images:
            raise ValueError("A Layer needs at least one image")
        if self.level_names and len(self.level_names) != len(self.images):
            raise ValueError(f"Expected {len(self.images)} level names but received: {len(self.level_names)}")
        if self.version != 1:
            raise ValueError("Layer version must be 1 (version 0 makes the engine convert the type)")

    def type_string(self) -> str:
        names = self.level_names or ("",) * len(self.images)
        fields = [
            self.activate_command,
            str(self.activate_modifiers),
            self.activate_key,
            self.up_command,
            str(self.up_modifiers),
            self.up_key,
            self.down_command,
            str(self.down_modifiers),
            self.down_key,
            self.reset_command,
            self.reset_key,
            self.reset_level,
            java_bool(self.draw_underneath),
            str(self.x_offset),
            str(self.y_offset),
            encode(self.images, ","),
            encode(names, ","),
            java_bool(self.loop_levels),
            self.name,
            self.random_key,
            self.random_text,
            java_bool(self.follow_property),
            self.property_name,
            str(self.first_level_value),
            str(self.version),
            java_bool(self.always_active),
            self.activate_keystroke,
            self.increase_keystroke,
            self.decrease_keystroke,
            self.description,
            java_double(self.scale),
        ]
        return LAYER_ID + encode(fields, ";")

    def state_string(self) -> str:
        return str(self.level)


@dataclass(frozen=True)
class Marker:
    """Static properties (`mark;k1,k2`), state `v1,v2`."""

    properties: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        if not self.properties:
            raise ValueError("A Marker needs at least one property (the engine writes 'mark;null' otherwise)")

    def type_string(self) -> str:
        return MARKER_ID + encode([key for key, _ in self.properties], ",")

    def state_string(self) -> str:
        return encode([value for _, value in self.properties], ",")


@dataclass(frozen=True)
class UsePrototype:
    """`prototype;NAME`: splice a PrototypeDefinition's traits in here; empty state."""

    prototype: str

    def type_string(self) -> str:
        return PROTOTYPE_ID + encode([self.prototype], ";")

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class Report:
    """ReportState (`report;`): chat a message when one of `keys` is applied to the piece.

    Format properties: $oldPieceName$, $newPieceName$, $location$, $oldLocation$,
    $mapName$, $oldMapName$, $menuCommand$, $PlayerName$. State -1 = no cycle position.
    """

    keys: tuple[str, ...]
    report_format: str
    cycle_down_keys: tuple[str, ...] = ()
    cycle_formats: tuple[str, ...] = ()
    description: str = ""
    no_suppress: bool = False
    cycle_index: int = -1

    def type_string(self) -> str:
        fields = [
            _key_list(self.keys),
            self.report_format,
            _key_list(self.cycle_down_keys),
            encode(self.cycle_formats, ",") if self.cycle_formats else "",
            self.description,
            java_bool(self.no_suppress),
        ]
        return REPORT_ID + encode(fields, ";")

    def state_string(self) -> str:
        return str(self.cycle_index)


def _key_list(keys: tuple[str, ...]) -> str:
    present = [key for key in keys if key]
    return encode(present, ",") if present else ""


@dataclass(frozen=True)
class Delete:
    """`delete;COMMAND;KEY;DESCRIPTION`: a menu command removing the piece."""

    command: str = "Delete"
    key: str = key_stroke(ord("D"), ctrl=True)
    description: str = ""

    def type_string(self) -> str:
        return DELETE_ID + encode([self.command, self.key, self.description], ";")

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class Clone:
    """`clone;COMMAND;KEY;DESCRIPTION`: a menu command duplicating the piece."""

    command: str = "Clone"
    key: str = key_stroke(ord("C"), ctrl=True)
    description: str = ""

    def type_string(self) -> str:
        return CLONE_ID + encode([self.command, self.key, self.description], ";")

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class SendTo:
    """SendToLocation (`sendto;`): move the piece to a map location, zone, region or hex.

    The optional back command returns the piece to where it was sent from (used to
    restore an eliminated unit). State: the remembered back map and point.
    """

    command: str
    key: str
    map_name: str
    destination: str = DEST_LOCATION
    board_name: str = ""
    x: str = "0"
    y: str = "0"
    zone: str = ""
    region: str = ""
    grid_location: str = ""
    back_command: str = ""
    back_key: str = NO_KEY
    x_index: str = "0"
    y_index: str = "0"
    x_offset: str = "1"
    y_offset: str = "1"
    property_filter: str = ""
    description: str = ""
    back_map: str = ""
    back_x: str = ""
    back_y: str = ""

    def type_string(self) -> str:
        fields = [
            self.command,
            self.key,
            self.map_name,
            self.board_name,
            self.x,
            self.y,
            self.back_command,
            self.back_key,
            self.x_index,
            self.y_index,
            self.x_offset,
            self.y_offset,
            self.description,
            self.destination,
            self.zone,
            self.region,
            self.property_filter,
            self.grid_location,
        ]
        return SEND_TO_ID + encode(fields, ";")

    def state_string(self) -> str:
        return encode([self.back_map, self.back_x, self.back_y], ";")


@dataclass(frozen=True)
class MovementMarkable:
    """`markmoved;ICON;X;Y;COMMAND;KEY;DESCRIPTION`; state `true`/`false` (has moved)."""

    icon: str = MOVED_ICON
    x_offset: int = 0
    y_offset: int = 0
    command: str = "Mark Moved"
    key: str = key_stroke(ord("M"), ctrl=True)
    description: str = ""
    moved: bool = False

    def type_string(self) -> str:
        fields = [self.icon, str(self.x_offset), str(self.y_offset), self.command, self.key, self.description]
        return MOVEMENT_MARKABLE_ID + encode(fields, ";")

    def state_string(self) -> str:
        return java_bool(self.moved)


@dataclass(frozen=True)
class Footprint:
    """Movement trail (`footprint;`): the points a piece passed through since it was last marked unmoved.

    Sits outside a MovementMarkable, which keeps the Moved flag; marking the piece unmoved clears the
    trail. State: shown, start map, point count and points."""

    key: str = key_stroke(ord("T"), ctrl=True)
    command: str = "Movement trail"
    initially_visible: bool = True
    globally_visible: bool = True
    circle_radius: int = 10
    fill_color: str = "255,255,255"
    line_color: str = "0,0,0"
    selected_transparency: int = 100
    unselected_transparency: int = 60
    edge_point_buffer: int = 20
    edge_display_buffer: int = 30
    line_width: float = 1.0
    key_on: str = NO_KEY
    key_off: str = NO_KEY
    key_clear: str = NO_KEY
    description: str = ""

    def type_string(self) -> str:
        fields = [
            self.key,
            self.command,
            java_bool(self.initially_visible),
            java_bool(self.globally_visible),
            str(self.circle_radius),
            self.fill_color,
            self.line_color,
            str(self.selected_transparency),
            str(self.unselected_transparency),
            str(self.edge_point_buffer),
            str(self.edge_display_buffer),
            java_double(self.line_width),
            self.key_on,
            self.key_off,
            self.key_clear,
            self.description,
        ]
        return FOOTPRINT_ID + encode(fields, ";")

    def state_string(self) -> str:
        return "false;;0"  # a fresh piece: hidden, no map, no points (the engine's state before a first move)


@dataclass(frozen=True)
class Restricted:
    """Restricted Access (`restrict;SIDES;BYPLAYER;MOVEMENT;DESCRIPTION`): once a game has started, only a
    player of one of `sides` (PlayerRoster side names) moves the piece or uses its commands. State: the
    owning player (unused)."""

    sides: tuple[str, ...]
    by_player: bool = False
    restrict_movement: bool = True
    description: str = ""

    def type_string(self) -> str:
        fields = [
            encode(self.sides, ","),
            java_bool(self.by_player),
            java_bool(self.restrict_movement),
            self.description,
        ]
        return RESTRICTED_ID + encode(fields, ";")

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class Obscurable:
    """Mask (`obs;`): the piece shows `image` and `mask_name` to players of other sides than `sides`; its own
    side sees it with the mask drawn small over it (display style I, inset) and can unmask it.

    State: who masked it (a side name, as SpecifiedSideAccess records it) or `null`, then the unmask
    options of the time (empty: the module's)."""

    key: str
    image: str
    sides: tuple[str, ...]
    command: str = "Mask"
    mask_name: str = "?"
    display_style: str = "I"
    peek_command: str = ""
    description: str = ""
    auto_peek: bool = True
    masked_by: str | None = None

    def type_string(self) -> str:
        access = "sides:" + encode(self.sides, ":")
        fields = [
            self.key,
            self.image,
            self.command,
            self.display_style,
            self.mask_name,
            access,
            self.peek_command,
            self.description,
            java_bool(self.auto_peek),
        ]
        return OBSCURABLE_ID + encode(fields, ";")

    def state_string(self) -> str:
        return encode(["null" if self.masked_by is None else self.masked_by, ""], ";")


@dataclass(frozen=True)
class CalculatedProperty:
    """`calcProp;NAME;EXPRESSION;DESCRIPTION`: a property computed on demand (e.g. `{Step_Level==1?8:4}`)."""

    name: str
    expression: str
    description: str = ""

    def type_string(self) -> str:
        return CALCULATED_PROPERTY_ID + encode([self.name, self.expression, self.description], ";")

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class DynamicProperty:
    """`PROP;NAME;CONSTRAINTS;COMMANDS;DESCRIPTION`, state: the value. Each command `(menu text, key, value)`
    sets the value; a `{...}` value is evaluated (e.g. `{Random(6)}`). Not numeric, so no bounds."""

    name: str
    commands: tuple[tuple[str, str, str], ...] = ()
    value: str = ""
    description: str = ""

    def type_string(self) -> str:
        setters = [encode([menu, key, encode(["P", value], ",")], ":") for menu, key, value in self.commands]
        fields = [self.name, "false,0,100,false", encode(setters, ",") if setters else "", self.description]
        return DYNAMIC_PROPERTY_ID + encode(fields, ";")

    def state_string(self) -> str:
        return self.value


@dataclass(frozen=True)
class AreaOfEffect:
    """`AreaOfEffect;COLOR;TRANSPARENCY%;RADIUS;ALWAYS;COMMAND;KEY;SHADER;FIXED;PROPERTY;DESCRIPTION`, state
    `true`/`false` (shown). On a hex grid the area is the hexes within the radius of the piece's hex; with
    `fixed` false the radius is the piece's property `radius_property` (a unit's own range value)."""

    command: str
    key: str
    radius_property: str = ""
    radius: int = 1
    fixed: bool = False
    color: str = "255,200,0"
    transparency: int = 30
    always_active: bool = False
    description: str = ""
    active: bool = False

    def type_string(self) -> str:
        fields = [
            self.color,
            str(self.transparency),
            str(self.radius),
            java_bool(self.always_active),
            self.command,
            self.key,
            "",
            java_bool(self.fixed),
            self.radius_property,
            self.description,
        ]
        return AREA_OF_EFFECT_ID + encode(fields, ";")

    def state_string(self) -> str:
        return java_bool(self.active)


@dataclass(frozen=True)
class SetGlobalProperty:
    """`setprop;NAME;CONSTRAINTS;COMMANDS;DESCRIPTION;SOURCE;SEARCH`: commands that change a global property
    (numeric, kept within `low`..`high`). Each command `(menu text, key, change)`: change `I,n` adds n, `P,v` sets
    v; an empty menu text leaves it off the menu (a key another trait answers too, such as Eliminate)."""

    name: str
    commands: tuple[tuple[str, str, str], ...]
    low: int = -100000
    high: int = 100000
    description: str = ""

    def type_string(self) -> str:
        setters = [encode([menu, key, change], ":") for menu, key, change in self.commands]
        constraints = f"true,{self.low},{self.high},false"
        fields = [self.name, constraints, encode(setters, ","), self.description, "Current Zone/Current Map/Module", ""]
        return SET_GLOBAL_PROPERTY_ID + encode(fields, ";")

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class Labeler:
    """Text Label (`label;`): `text` drawn under the piece, its `$property$` names read as it is drawn (a global
    property's value, a calculated count); the piece's name becomes `name_format` (`$label$` the text shown).
    `property_name`: a property that reads the text shown."""

    text: str
    name_format: str = "$pieceName$: $label$"
    font_size: int = 12
    property_name: str = ""
    description: str = ""

    def type_string(self) -> str:
        fields = [
            NO_KEY,
            "",
            str(self.font_size),
            "255,255,255",
            "0,0,0",
            "b",
            "0",
            "c",
            "0",
            "t",
            "c",
            self.name_format,
            "Dialog",
            "1",
            "0",
            self.property_name,
            self.description,
        ]
        return LABEL_ID + encode(fields, ";")

    def state_string(self) -> str:
        return self.text


@dataclass(frozen=True)
class Piece:
    """A whole piece: traits outermost first, the BasicPiece last."""

    traits: tuple[Trait, ...]

    def __post_init__(self) -> None:
        if not self.traits or not isinstance(self.traits[-1], BasicPiece):
            raise ValueError("A Piece must end with its BasicPiece")
        if any(isinstance(trait, BasicPiece) for trait in self.traits[:-1]):
            raise ValueError("A Piece has exactly one BasicPiece, innermost")

    @property
    def basic(self) -> BasicPiece:
        return self.traits[-1]  # type: ignore[return-value]

    def definition(self) -> Definition:
        """Nested type and state, as the engine's outermost `getType()`/`getState()`."""
        return Definition(self.type_text(), nest([trait.state_string() for trait in self.traits]))

    def type_text(self) -> str:
        """`definition().type` alone (a set-up places a piece by its type; each placement has its own state)."""
        return nest([trait.type_string() for trait in self.traits])

    def slot_text(self, id: str = NULL_ID) -> str:
        """The add-piece command a PieceSlot or PrototypeDefinition holds as its text."""
        definition = self.definition()
        return add_piece_command(definition.type, definition.state, id)

    def at(self, map_id: str, x: int, y: int) -> Piece:
        """The same piece placed at map pixel (x, y), for a saved game."""
        return self.with_basic(replace(self.basic, map_id=map_id, x=x, y=y))

    def with_basic(self, basic: BasicPiece) -> Piece:
        return Piece((*self.traits[:-1], basic))
