"""Counters as VASSAL pieces: faces as a Layer, values as properties, shared traits in prototypes.

Each unit uses two prototypes: its side's (movement trail and moved mark, restricted to the side's
players, eliminate to the side's dead-pile box and restore, a chat report of every change; no Clone or
Delete: units are never copied or destroyed, they go to the dead pile) and its unit type's. The piece
itself holds what differs per counter: its properties, its faces, one Layer level per strength state in
the order the data lists them (strongest first), flipped with F (Flip) or, with three faces or more, F
(Lose step) and Shift+F (Restore step), and, for a unit type with a hidden back, a mask seen by the other
side. Markers keep Clone and Delete: players make and remove them. Pieces put in play (set-ups) hold
their prototypes expanded (`expanded`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from authoring.model import Counter, Game, face_values, reach_values, value_text
from authoring.names import file_name
from authoring.vassal import combat
from authoring.vassal.codec import key_stroke
from authoring.vassal.traits import (
    DEST_REGION,
    NO_KEY,
    AreaOfEffect,
    BasicPiece,
    CalculatedProperty,
    Clone,
    Delete,
    Footprint,
    Layer,
    Marker,
    MovementMarkable,
    Obscurable,
    Piece,
    Report,
    Restricted,
    SendTo,
    UsePrototype,
)

MAIN_MAP = "Map"
DEAD_MAP = "Eliminated"
TRACK_MAP = "Reinforcements"
LAYER_NAME = "Step"
LEVEL_PROPERTY = LAYER_NAME + "_Level"
MARKER_PROTOTYPE = "Marker"
WITHDRAWAL_IMAGE = file_name("withdrawal", ext="png")

FLIP = key_stroke(ord("F"))
UNFLIP = key_stroke(ord("F"), shift=True)
ELIMINATE = key_stroke(ord("E"), ctrl=True)
RESTORE = key_stroke(ord("R"), ctrl=True)
MOVED = key_stroke(ord("M"), ctrl=True)
DELETE = key_stroke(ord("D"), ctrl=True)
CLONE = key_stroke(ord("C"), ctrl=True)
TRAIL = key_stroke(ord("T"), ctrl=True)
MASK = key_stroke(ord("H"), ctrl=True)
SHOW_RANGE = key_stroke(ord("G"), ctrl=True)
HIDDEN = "hidden"
"""A unit type's `back` naming a hidden side (Typhoon 11.1.6: air units and dummies); also the state key of
that side's image among a counter's face images."""
STEP_REPORT = "$location$: $oldPieceName$ -> $newPieceName$"
"""`0503: 32 Army -> 32 Army (half strength)` (the location is the piece's, after the change)."""
MOVE_REPORT = "$oldPieceName$: $menuCommand$ ($location$)"
"""`32 Army: Eliminate (Soviet eliminated)`; `$oldLocation$` is only known after a drag, so not used."""


@dataclass(frozen=True)
class Prototype:
    name: str
    description: str
    piece: Piece


def dead_box(side_name: str, box_name: str = "Eliminated") -> str:
    """The dead-pile region of a side's loss box ('Axis eliminated', 'Axis cadre')."""
    return f"{side_name} {box_name.lower()}"


def loss_commands(game: Game) -> list[tuple[str, str, str]]:
    """(menu command, key, box name) of each loss box: the first is Eliminate (Ctrl+E), the others
    'To <name> box' on Ctrl+Shift+<its first letter>."""
    out = []
    for i, (_, name) in enumerate(game.loss_boxes):
        if i == 0:
            out.append(("Eliminate", ELIMINATE, name))
        else:
            out.append((f"To {name} box", key_stroke(ord(name[0].upper()), ctrl=True, shift=True), name))
    return out


def side_prototype_name(game: Game, side_id: str) -> str:
    return f"{game.side(side_id).name} unit"


def type_prototype_name(game: Game, type_id: str) -> str:
    return f"{_type_name(game, type_id)} (class)"


def prototypes(game: Game) -> tuple[Prototype, ...]:
    """One per side, one per unit type in use, and one for markers."""
    out = [
        Prototype(
            side_prototype_name(game, s.id),
            f"traits every {s.name} unit shares",
            _side_piece(s.name, loss_commands(game)),
        )
        for s in game.sides
    ]
    for type_id in sorted({c.type for c in game.counters.values() if c.type and not c.marker}):
        props = (("Type", _type_name(game, type_id)), ("TypeId", type_id))
        out.append(Prototype(type_prototype_name(game, type_id), "unit class", Piece((Marker(props), BasicPiece()))))
    fight = combat.plan(game)
    marking = combat.marker_traits(fight)  # a marker in an attacker's hex: whether its stack attacks
    marker = Piece((Clone(key=CLONE), Delete(key=DELETE), Marker((("Type", "Marker"),)), *marking, BasicPiece()))
    out.append(Prototype(MARKER_PROTOTYPE, "markers and reminders", marker))
    if fight is not None:
        out.append(Prototype(combat.PROTOTYPE, "attacker mark and combat report", combat.prototype_piece(fight)))
    return tuple(out)


def _side_piece(side_name: str, losses: list[tuple[str, str, str]]) -> Piece:
    """A side's shared traits: movement trail and moved mark (outside the restriction, so a phase's mass key
    clears them whoever changes the phase), access for the side only, step reports, a command per loss box
    (the first one restores)."""
    steps = Report(keys=(FLIP, UNFLIP), report_format=STEP_REPORT, description="step changes")
    moves = Report(
        keys=(*(key for _, key, _ in losses), RESTORE), report_format=MOVE_REPORT, description="eliminate and restore"
    )
    sends = tuple(
        SendTo(
            command=command,
            key=key,
            map_name=DEAD_MAP,
            destination=DEST_REGION,
            region=dead_box(side_name, box),
            back_command="Restore" if i == 0 else "",
            back_key=RESTORE if i == 0 else NO_KEY,
        )
        for i, (command, key, box) in enumerate(losses)
    )
    return Piece(
        (
            Footprint(key=TRAIL, description="movement trail"),
            MovementMarkable(key=MOVED),
            Restricted((side_name,), description="only this side moves it and uses the commands below"),
            steps,
            moves,
            *sends,
            Marker((("Side", side_name),)),
            BasicPiece(),
        )
    )


def _type_name(game: Game, type_id: str | None) -> str:
    return next((t.name for t in game.unit_types if t.id == type_id), type_id or "")


def _size_name(game: Game, size_id: str | None) -> str:
    return next((t.name for t in game.unit_sizes if t.id == size_id), size_id or "")


def unit_name(game: Game, counter: Counter) -> str:
    """The piece name chat reports use: the counter's name, else its designation (a bare number
    gets its size, "3 Army"), else its id."""
    if counter.name or counter.marker:
        return counter.display_name
    if counter.designation.isdigit() and counter.size:
        return f"{counter.designation} {_size_name(game, counter.size)}"
    return counter.display_name


def counter_piece(game: Game, counter: Counter, gpid: int, images: Mapping[str, str], extra: Sequence = ()) -> Piece:
    """The palette piece of a counter; `images` maps each face state to its archive image name; `extra`: traits
    inside its side's (a loss count's, a secret draw's mask)."""
    faces = [images[f.state] for f in counter.faces]
    traits: list = []
    reach = range_trait(game, counter)
    if counter.marker or not counter.side:
        traits.append(UsePrototype(MARKER_PROTOTYPE))
        traits += extra
    else:
        if reach is not None and not hidden_back(game, counter):  # either side may look at a unit's range
            traits.append(reach)
        if game.combat is not None and combat.plan(game) is not None:  # outside the side's restricted access
            traits.append(UsePrototype(combat.PROTOTYPE))
        traits.append(UsePrototype(side_prototype_name(game, counter.side)))
        traits += extra
        if hidden_back(game, counter):  # outside the type and values, which the mask hides
            traits.append(_mask(game, counter, images[HIDDEN]))
            if reach is not None:
                traits.append(reach)
        if counter.type:
            traits.append(UsePrototype(type_prototype_name(game, counter.type)))
    traits.append(Marker(_static_properties(game, counter)))
    traits += _value_properties(game, counter)
    if len(faces) > 1:
        traits.append(_layer(game, counter, tuple(faces)))
        basic = BasicPiece(name=unit_name(game, counter), gpid=str(gpid))
    else:
        basic = BasicPiece(name=unit_name(game, counter), image=faces[0], gpid=str(gpid))
    return Piece((*traits, basic))


def range_trait(game: Game, counter: Counter) -> AreaOfEffect | None:
    """A unit's Show range command (Ctrl+G): the hexes within its range value (the first value the game
    declares `reach: true` that one of its faces shows), shaded on the map; None for a unit without one."""
    shown = [face_values(game, counter, f) for f in counter.faces]
    vid = next((v for v in reach_values(game) if any(v in values for values in shown)), None)
    if vid is None or counter.marker:
        return None
    name = next(v.name for v in game.values if v.id == vid)
    return AreaOfEffect(f"Show {name.lower()}", SHOW_RANGE, vid, description=f"{name} in hexes")


def hidden_back(game: Game, counter: Counter) -> bool:
    """A one-sided unit whose type has a hidden back: the module masks it to the other side."""
    utype = next((t for t in game.unit_types if t.id == counter.type), None)
    return (
        len(counter.faces) == 1
        and not counter.marker
        and bool(counter.side)
        and bool(utype and utype.extra.get("back") == HIDDEN)
    )


def _mask(game: Game, counter: Counter, image: str) -> Obscurable:
    utype = next(t for t in game.unit_types if t.id == counter.type)
    label = str(utype.extra.get("back_label", "")) or "Hidden"
    return Obscurable(
        key=MASK,
        image=image,
        sides=(game.side(counter.side).name,),
        command="Mask / unmask",
        mask_name=f"{label} unit",
        description="hidden side: the other side sees only the back",
    )


def _static_properties(game: Game, counter: Counter) -> tuple[tuple[str, str], ...]:
    nationality = next((n.name for n in game.nationalities if n.id == counter.nationality), counter.nationality)
    pairs = [
        ("CounterId", counter.id),
        ("Designation", counter.designation),
        ("Size", _size_name(game, counter.size)),
        ("Nationality", nationality or ""),
        ("stacking", value_text(counter.stacking) if counter.stacking is not None else ""),
        ("Steps", str(counter.steps)),
        ("SetupCode", counter.setup_code),
    ]
    if counter.side:
        pairs.insert(0, ("SideId", counter.side))
    return tuple((k, v) for k, v in pairs if v != "")


def _value_properties(game: Game, counter: Counter) -> list:
    """A value equal on every face is a static property; one that changes follows the Layer level."""
    shown = [face_values(game, counter, f) for f in counter.faces]
    present = [v.id for v in game.values if any(v.id in values for values in shown)]
    static, calculated = [], []
    for value in present:
        per_face = [values.get(value, "") for values in shown]
        if len({repr(v) for v in per_face}) == 1:
            static.append((value, value_text(per_face[0])))
        else:
            calculated.append(CalculatedProperty(value, _by_level(per_face)))
    if len(counter.faces) > 1:
        calculated.append(
            CalculatedProperty("Strength", _by_level([_state_name(game, f.state) for f in counter.faces]))
        )
    return ([Marker(tuple(static))] if static else []) + calculated


def _state_name(game: Game, state: str) -> str:
    return next((s.name for s in game.strength_states if s.id == state), state)


def _literal(value: object) -> str:
    """A BeanShell literal: numbers bare (so stack totals can sum them), anything else quoted."""
    if isinstance(value, bool):
        return '"' + str(value).lower() + '"'
    if isinstance(value, (int, float)):
        return value_text(value)
    return '"' + str(value).replace("\\", "").replace('"', "'") + '"'


def _by_level(values: Sequence[object]) -> str:
    """`{Step_Level==1?a:(Step_Level==2?b:c)}`: the value of the face shown."""
    expr = _literal(values[-1])
    for level in range(len(values) - 1, 0, -1):
        expr = f"{LEVEL_PROPERTY}=={level}?{_literal(values[level - 1])}:({expr})"
    return "{" + expr + "}"


def _layer(game: Game, counter: Counter, images: tuple[str, ...]) -> Layer:
    two = len(images) == 2
    names = ("",) + tuple(f"+ ({_state_name(game, f.state).lower()})" for f in counter.faces[1:])
    return Layer(
        images=images,
        level_names=names,
        name=LAYER_NAME,
        up_command="Flip" if two else "Lose step",
        increase_keystroke=FLIP,
        down_command="" if two else "Restore step",
        decrease_keystroke="" if two else UNFLIP,
        loop_levels=two,
        description="strength faces",
    )


def at_state(piece: Piece, counter: Counter, state: str | None) -> Piece:
    """The piece showing the face of `state` (default: the first face), masked by its side if it has a
    hidden side (a set-up starts with them hidden from the other side)."""
    states = [f.state for f in counter.faces]
    level = states.index(state) + 1 if state in states else 1
    if all(t.level == level for t in piece.traits if _is_step(t)) and not any(
        isinstance(t, Obscurable) for t in piece.traits
    ):
        return piece  # already showing it (most units start on their first face, as the palette's piece)
    traits = tuple(
        replace(t, level=level) if _is_step(t) else replace(t, masked_by=t.sides[0]) if isinstance(t, Obscurable) else t
        for t in piece.traits
    )
    return Piece(traits)


def _is_step(trait: object) -> bool:
    """The strength faces' Layer (not another layer, such as the attacker mark)."""
    return isinstance(trait, Layer) and trait.name == LAYER_NAME


def expanded(piece: Piece, protos: Mapping[str, Piece]) -> Piece:
    """`piece` with each prototype's traits in place of its UsePrototype, as the engine's PieceCloner makes
    a piece it puts in play: a UsePrototype passes key strokes to its prototype's traits but not property
    reads or writes, so an unexpanded piece in a saved game has no Side, Type or Moved."""
    traits = []
    for trait in piece.traits:
        if isinstance(trait, UsePrototype) and trait.prototype in protos:
            traits.extend(protos[trait.prototype].traits[:-1])
        else:
            traits.append(trait)
    return Piece(tuple(traits))


def withdrawal_piece(text: str, image: str = WITHDRAWAL_IMAGE) -> Piece:
    """A reminder chit on the turn track: which units leave on that turn (its own `image` names them)."""
    return Piece(
        (UsePrototype(MARKER_PROTOTYPE), Marker((("Type", "Withdrawal"),)), BasicPiece(name=text, image=image))
    )


def withdrawal_image(scenario_id: str, index: int) -> str:
    """The image of a scenario's `index`-th withdrawal chit."""
    return file_name("withdrawal", scenario_id, str(index + 1), ext="png")
