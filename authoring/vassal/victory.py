"""Victory points and losses in the module, from game.yaml `victory`.

A Victory window holds one scoreboard piece per VP counter and per loss count, each labelled with its value
as it is drawn. A VP counter's value is a global property its piece's commands change (+1, -1, +5, -5). A loss
count that counts every elimination made (`count: ever`) is a global property each unit it concerns adds one
to as its side's loss command sends it to a loss box (a restore does not take it back); one that counts the
units in the loss boxes now (`count: now`) is worked out on the scoreboard piece (`Count` over the loss
boxes' window) from a property each unit it concerns carries, so a unit dragged back into play stops counting.
"""

from __future__ import annotations

import re

from authoring.model import Counter, Game, LossCount, VictoryTrack
from authoring.vassal import elements as el
from authoring.vassal.boxes import BoxSpec
from authoring.vassal.codec import key_stroke
from authoring.vassal.pieces import DEAD_MAP, dead_box, loss_commands
from authoring.vassal.traits import (
    BasicPiece,
    CalculatedProperty,
    Labeler,
    Marker,
    Piece,
    Report,
    SetGlobalProperty,
)

VICTORY_MAP = "Victory"
VP_IMAGE = "victory-points.png"
LOSS_IMAGE = "victory-losses.png"
COUNT = "Lost"
"""The scoreboard piece's property holding a `count: now` loss count."""
TRACK_ID = "TrackId"
"""The scoreboard piece's property naming its VP counter or loss count (the data's id)."""
LABEL = "Shown"
"""The scoreboard piece's property reading the text its label shows."""
STEPS = (
    (1, key_stroke(38, ctrl=True)),
    (-1, key_stroke(40, ctrl=True)),
    (5, key_stroke(38, ctrl=True, shift=True)),
    (-5, key_stroke(40, ctrl=True, shift=True)),
)
"""(change, key) of a VP counter's commands: Ctrl+Up/Down one point, Ctrl+Shift+Up/Down five."""


def _name(prefix: str, ident: str) -> str:
    return prefix + re.sub(r"\W", "_", ident)


def vp_property(track: VictoryTrack) -> str:
    """The global property holding a VP counter's points: `VP_german_vp`."""
    return _name("VP_", track.id)


def loss_property(loss: LossCount) -> str:
    """A loss count's name: the global property of a `count: ever` count, the unit property marking the units
    a `count: now` count concerns (`Loss_soviet_losses`)."""
    return _name("Loss_", loss.id)


def concerns(game: Game, loss: LossCount, counter: Counter) -> bool:
    """Whether `loss` counts `counter` (a unit of its side and, when it names any, of its unit types)."""
    return not counter.marker and counter.side == loss.side and (not loss.unit_types or counter.type in loss.unit_types)


def _box_ids(game: Game, loss: LossCount) -> list[str]:
    return list(loss.boxes) or [box_id for box_id, _ in game.loss_boxes]


def unit_traits(game: Game, counter: Counter) -> list:
    """The traits a unit needs for the loss counts that concern it: one adding to each `count: ever` count as
    its loss command (of the count's boxes) sends it to a loss box; a property marking it for each `count: now`
    count."""
    names = {box_id: name for box_id, name in game.loss_boxes}
    keys = {name: key for _, key, name in loss_commands(game)}
    traits: list = []
    marks = []
    for loss in game.victory.losses:
        if not concerns(game, loss, counter):
            continue
        if loss.ever:
            commands = tuple(("", keys[names[b]], "I,1") for b in _box_ids(game, loss) if b in names)
            traits.append(SetGlobalProperty(loss_property(loss), commands, 0, 100000, loss.name))
        else:
            marks.append((loss_property(loss), "1"))
    if marks:
        traits.append(Marker(tuple(marks)))
    return traits


def global_properties(game: Game) -> list[el.Element]:
    """The module's victory properties: each VP counter at its start, each `count: ever` loss count at 0."""
    values = [(vp_property(t), str(t.start), t.name) for t in game.victory.points]
    values += [(loss_property(x), "0", x.name) for x in game.victory.losses if x.ever]
    if not values:
        return []
    return [
        el.element(
            el.GLOBAL_PROPERTIES,
            children=[
                el.element(
                    el.GLOBAL_PROPERTY,
                    {
                        "name": name,
                        "initialValue": value,
                        "description": description,
                        "isNumeric": True,
                        "min": "-100000",
                        "max": "100000",
                        "wrap": False,
                    },
                )
                for name, value, description in values
            ],
        )
    ]


def sections(game: Game) -> list[tuple[str, list[BoxSpec]]]:
    """The Victory window's boxes: one per VP counter, one per loss count."""
    out = []
    if game.victory.points:
        out.append(("Victory points", [BoxSpec(_box(t.id), t.name) for t in game.victory.points]))
    if game.victory.losses:
        out.append(("Units eliminated", [BoxSpec(_box(x.id), x.name) for x in game.victory.losses]))
    return out


def _box(ident: str) -> str:
    return f"victory {ident}"


def scoreboard(game: Game) -> list[tuple[str, Piece]]:
    """(box name, piece) of every scoreboard piece a set-up puts in the Victory window."""
    out = [(_box(t.id), _vp_piece(t)) for t in game.victory.points]
    out += [(_box(x.id), _loss_piece(game, x)) for x in game.victory.losses]
    return out


def _vp_piece(track: VictoryTrack) -> Piece:
    prop = vp_property(track)
    commands = tuple((f"{n:+d} VP", key, f"I,{n}") for n, key in STEPS)
    report = Report(
        keys=tuple(key for _, key in STEPS),
        report_format=f"{track.name}: ${prop}$ ($menuCommand$)",
        description="the new total in the chat",
    )
    return Piece(
        (
            report,
            SetGlobalProperty(prop, commands, description=f"{track.name} ({track.rule})" if track.rule else track.name),
            Labeler(f"${prop}$", property_name=LABEL, description="the points"),
            Marker(((TRACK_ID, track.id), ("Type", "Victory"))),
            BasicPiece(name=track.name, image=VP_IMAGE),
        )
    )


def _loss_piece(game: Game, loss: LossCount) -> Piece:
    text = f"${loss_property(loss)}$" if loss.ever else f"${COUNT}$"
    if loss.thresholds:
        text += " (" + "; ".join(f"{n}+: {what}" for n, what in loss.thresholds) + ")"
    traits: list = [Labeler(text, property_name=LABEL, description="the count")]
    if not loss.ever:
        traits.append(CalculatedProperty(COUNT, _count_expression(game, loss), "units of the count in the loss boxes"))
    traits.append(Marker(((TRACK_ID, loss.id), ("Type", "Victory"))))
    return Piece((*traits, BasicPiece(name=loss.name, image=LOSS_IMAGE)))


def _count_expression(game: Game, loss: LossCount) -> str:
    """`{Count("Loss_x=1 && LocationName=~A|B", "Eliminated")}`: the units marked for the count in the loss
    boxes it names (all of them: no location test)."""
    selection = f"{loss_property(loss)}=1"
    if loss.boxes:
        names = {box_id: name for box_id, name in game.loss_boxes}
        side = game.side(loss.side).name
        selection += " && LocationName=~" + "|".join(dead_box(side, names[b]) for b in loss.boxes if b in names)
    return '{Count("' + selection + '", "' + DEAD_MAP + '")}'


def window_button() -> el.LaunchButton:
    return el.LaunchButton(
        VICTORY_MAP, "Victory points and units eliminated", "", key_stroke(ord("V"), ctrl=True, shift=True)
    )
