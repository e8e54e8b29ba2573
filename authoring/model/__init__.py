"""Typed, immutable model of a game (house style 19): what `load` produces and every consumer reads."""

from authoring.model.counter import Counter, Face
from authoring.model.game import Combat, CombatEffect, Dice, Game, Nationality, PhaseAction, RuleSpec, Side, Table, TypeDef
from authoring.model.map import (
    EdgeSideInfo,
    HexFeature,
    HexInfo,
    HexInfos,
    HexsideInfo,
    Map,
    MapLabel,
    PathInfo,
)
from authoring.model.scenario import (
    OffMap,
    Option,
    Placement,
    Pool,
    Scenario,
    Scheduled,
    SetupCard,
    Turn,
    Victory,
)

__all__ = [
    "Combat",
    "CombatEffect",
    "Counter",
    "Face",
    "Dice",
    "Game",
    "Nationality",
    "PhaseAction",
    "RuleSpec",
    "Side",
    "Table",
    "TypeDef",
    "EdgeSideInfo",
    "HexFeature",
    "HexInfo",
    "HexInfos",
    "HexsideInfo",
    "Map",
    "MapLabel",
    "PathInfo",
    "OffMap",
    "Option",
    "Placement",
    "Pool",
    "Scenario",
    "Scheduled",
    "SetupCard",
    "Turn",
    "Victory",
]
