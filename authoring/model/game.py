"""The game manifest: sides, terrain and feature types, unit classes, tables and rule parameters."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any

from authoring.diagnostics import Loc
from authoring.model.frozen import frozen
from authoring.model.provenance import DESIGNERS, Provenance

EMPTY: Mapping = MappingProxyType({})


def frozen_map(d: Mapping | None) -> Mapping:
    return MappingProxyType(dict(d or {}))


@frozen
class Side:
    id: str
    name: str
    color: str
    text_color: str = "#000000"


@frozen
class Nationality:
    id: str
    side: str
    name: str
    abbrev: str = ""
    color: str | None = None
    text_color: str | None = None


@frozen
class TypeDef:
    """A declared kind of thing (terrain, feature, path, unit type...) with its display attributes."""

    id: str
    name: str
    color: str | None = None
    symbol: str | None = None
    style: str | None = None
    width: float | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    loc: Loc | None = None


@frozen
class Dice:
    name: str
    sides: int
    zero_is: int | None = None


@frozen
class Table:
    id: str
    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]
    rule: str = ""
    kind: str = ""
    legend: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    notes: tuple[str, ...] = ()
    loc: Loc | None = None
    print_notes: tuple[str, ...] = ()
    """``print_note:`` text: printed under the table for players (``note:`` is for designers only)."""
    source: Provenance = DESIGNERS
    """Where the table comes from (``source:``, ``source_note:``): representative tables are labelled."""

    def cell(self, row_key, column: str):
        """The cell in the row whose first cell equals `row_key`, under `column`."""
        col = self.columns.index(column)
        for row in self.rows:
            if str(row[0]) == str(row_key):
                return row[col]
        raise KeyError(row_key)


@frozen
class RuleSpec:
    """A rule as data: a registered type, the rule it cites and its parameters (checked by `rules`)."""

    type: str
    rule: str
    params: Mapping[str, Any]
    loc: Loc | None = None
    origin: str = "game"


@frozen
class PhaseAction:
    """What happens as the turn tracker enters `phase`: the moved marks of `clear_moved` (side ids) cleared."""

    phase: str
    clear_moved: tuple[str, ...] = ()
    rule: str = ""
    loc: Loc | None = None


@frozen
class LossCount:
    """Eliminated units of a side counted as the game goes (game.yaml `victory.losses`): `ever` counts each
    elimination made, even of a unit later restored (Battle for Moscow's VP for eliminations); otherwise the
    units in the loss boxes now (1941 18.2 C). Only units of `unit_types` (all when empty) in the loss boxes
    `boxes` (every loss box when empty) count."""

    id: str
    side: str
    name: str
    ever: bool = False
    unit_types: tuple[str, ...] = ()
    boxes: tuple[str, ...] = ()
    thresholds: tuple[tuple[int, str], ...] = ()
    """(units, what reaching that many does), e.g. (40, 'one level for Germany')."""
    rule: str = ""
    loc: Loc | None = None


@frozen
class VictoryTrack:
    """A victory point counter players move by hand (game.yaml `victory.points`), starting at `start`."""

    id: str
    name: str
    side: str = ""
    start: int = 0
    rule: str = ""
    loc: Loc | None = None


@frozen
class VictoryCondition:
    """How the game is won, in the designer's words, with its rule (game.yaml `victory.conditions`)."""

    text: str
    side: str = ""
    rule: str = ""
    loc: Loc | None = None


@frozen
class VictoryRules:
    """game.yaml `victory`: the module's VP counters, its per-side loss counts and the conditions in its Help."""

    points: tuple[VictoryTrack, ...] = ()
    losses: tuple[LossCount, ...] = ()
    conditions: tuple[VictoryCondition, ...] = ()
    rule: str = ""

    def __bool__(self) -> bool:
        return bool(self.points or self.losses or self.conditions)


NO_VICTORY = VictoryRules()


@frozen
class BoxGroup:
    """Off-map boxes that come together (game.yaml `box_groups`; Typhoon 11.1.2's Air Operations Card: Ready,
    Flown, Damaged, Destroyed): a scenario that puts a side's units in one of them shows that side all of them."""

    id: str
    name: str
    boxes: tuple[str, ...]
    rule: str = ""
    loc: Loc | None = None


_RATIO = re.compile(r"^\s*(\d+)\s*[:-]\s*(\d+)\s*$")


def odds_ratio(label: str) -> tuple[int, int] | None:
    """A CRT odds heading as a ratio: `3:1`, `1-4` -> (3, 1), (1, 4); None for any other heading."""
    m = _RATIO.match(str(label))
    return (int(m.group(1)), int(m.group(2))) if m and int(m.group(2)) > 0 else None


@frozen
class CombatEffect:
    """One modifier of combat (tables.yaml `combat.effects`): when it applies and what it does.

    Where: `where` is one of `terrain` / `feature` (the defender's hex, or with `of: attacker` an attacker's hex),
    `hexside` (between an attacker and the defender: `across: all` when every attacker must be across it, `each`
    when it changes each attacker across it), or empty (no place: it applies wherever its conditions hold).
    Conditions: the sides; `weather` (only in) / `not_weather` (barred in) the turn's weather; `attackers` and
    `defenders`, tests on the unit types of the battle (`all` of these types, `any` among them, `none`);
    `terrain_only` (every terrain of the defender's hex is one of these) and `terrain_not` (none is);
    `not_across` (no attacker attacks across these hexsides); `markers` / `no_markers` (a marker counter, `id` or
    `id:state`, is / is not in the defender's hex, an attacker's hex or either: `marker_on`).
    What it does: `columns` (odds column shift, negative = in the defender's favour), `drm` (die-roll modifier),
    `defence` / `attack` (strength multipliers of the units of `unit_types`; a `once` one only for a unit no other
    effect multiplies), `marker_values` (each marker's own attack / defence value added to its side's total),
    `support` (a value the units of `unit_types` fight with in place of their strength: artillery support).
    `not_applied` (a text) marks a modifier no resolve computes (supply, a moved shock army, air points): where its
    conditions hold, the battle names it, `"<name> (<rule>): <not_applied>"`, and leaves it to the players."""

    where: str
    id: str
    name: str
    rule: str = ""
    of: str = "defender"
    across: str = "all"
    columns: int = 0
    drm: int = 0
    defence: float = 1.0
    attack: float = 1.0
    defender_side: str = ""
    attacker_side: str = ""
    unit_types: tuple[str, ...] = ()
    loc: Loc | None = None
    weather: tuple[str, ...] = ()
    not_weather: tuple[str, ...] = ()
    attackers: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(`all` / `any` / `none`, unit types): every one must hold of the attacking units."""
    defenders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    terrain_only: tuple[str, ...] = ()
    terrain_not: tuple[str, ...] = ()
    not_across: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    no_markers: tuple[str, ...] = ()
    marker_on: str = "defender"
    marker_values: bool = False
    support: str = ""
    """A counter value (artillery support strength) the units of `unit_types` fight with, in place of their
    attack (`role` attack) or defence (`role` defence: only stacked with a unit of another type)."""
    role: str = "attack"
    once: bool = False
    """Not in addition to the unit's other multipliers: a unit another effect multiplies does not take it."""
    not_applied: str = ""

    def label(self) -> str:
        """How a combat report names it: `forest -1 column`, `hills +1 DRM`, `major-river attack x0.5`."""
        parts = []
        if self.columns:
            parts.append(f"{self.columns:+d} column" + ("s" if abs(self.columns) > 1 else ""))
        if self.drm:
            parts.append(f"{self.drm:+d} DRM")
        for what, factor in (("defence", self.defence), ("attack", self.attack)):
            if factor != 1:
                parts.append(f"{what} x{int(factor) if float(factor).is_integer() else factor}")
        if self.support:
            parts.append(f"{self.role} with {self.support}")
        if self.marker_values:
            parts.append("marker values")
        return f"{self.name} " + ", ".join(parts)

    def unapplied(self, why: str = "") -> str:
        """How a battle names it when it is left to the players: `supply (8.3 B): halve if out of supply`."""
        head = f"{self.name} ({self.rule})" if self.rule else self.name
        return f"{head}: {why or self.not_applied}"

    @property
    def manual(self) -> bool:
        """Whether the data leaves it to the players (`not_applied`): named, never computed."""
        return bool(self.not_applied)

    @property
    def computed(self) -> bool:
        """Whether a resolve computes it: a strength multiplier always (unit by unit: `attack` the attackers it
        touches, `defence` the defenders of `unit_types`); a column shift or DRM when it changes the battle as
        a whole. A shift that names unit types, an attacker's hex or each attacker across cannot be totalled
        from the tables: the report names it and leaves the result out."""
        if not (self.columns or self.drm):
            return True
        return not (self.unit_types or self.of == "attacker" or (self.where == "hexside" and self.across == "each"))

    def touches(self, role: str, unit_type: str) -> bool:
        """Whether it multiplies the `role` (`attack` / `defence`) strength of a unit of `unit_type`."""
        factor = self.attack if role == "attack" else self.defence
        return factor != 1 and (not self.unit_types or unit_type in self.unit_types)

    @property
    def weathered(self) -> bool:
        """Whether the turn's weather decides it."""
        return bool(self.weather or self.not_weather)

    def in_weather(self, weather: str) -> bool:
        """Whether it holds in `weather`."""
        return (not self.weather or weather in self.weather) and weather not in self.not_weather


@frozen
class Combat:
    """How a battle is resolved from the tables (tables.yaml `combat`): the CRT, the die, the strengths summed,
    the odds bounds and the terrain effects."""

    crt: str
    die: str
    attack: str
    defence: str
    rule: str = ""
    below: str | None = None
    """The result of odds worse than the first column (None: the tables do not say, so no result)."""
    drm_limit: int | None = None
    fractions: str = "keep"
    """How a multiplied total is rounded: `up`, `down` or `keep`."""
    least: float = 0.0
    """A multiplied total is never below this (nor above the total unmultiplied, when that is less)."""
    effects: tuple[CombatEffect, ...] = ()
    loc: Loc | None = None
    weathers: tuple[str, ...] = ()
    """The weather conditions the rules name (the turn record's `weather`), which effects may test."""
    weather_rolled: str = ""
    """When set (the rule, e.g. Typhoon 5.1.2), the turn record gives only the climate and the weather is
    rolled: a resolve knows it only when told, and names the effects it decides until then."""


@frozen
class Game:
    id: str
    name: str
    version: str
    rules_ref: str
    sides: tuple[Side, ...]
    nationalities: tuple[Nationality, ...]
    terrain: tuple[TypeDef, ...]
    hex_features: tuple[TypeDef, ...]
    hexside_features: tuple[TypeDef, ...]
    paths: tuple[TypeDef, ...]
    unit_types: tuple[TypeDef, ...]
    unit_sizes: tuple[TypeDef, ...]
    values: tuple[TypeDef, ...]
    strength_states: tuple[TypeDef, ...]
    flags: tuple[TypeDef, ...]
    counter_size_in: float
    dice: tuple[Dice, ...]
    phases: tuple[str, ...]
    stacking: RuleSpec | None
    setup_codes: tuple[Mapping, ...]
    setup_rules: tuple[RuleSpec, ...]
    hex_sets: Mapping[str, Mapping]
    layout: Mapping[str, tuple[int, int]]
    tables: tuple[Table, ...]
    # Map, Counter and Scenario records (model.map, model.counter, model.scenario import this module, so
    # naming their classes here would make an import circle)
    maps: Mapping[str, Any]
    counters: Mapping[str, Any]
    scenarios: Mapping[str, Any]
    root: str = "."
    publisher: str = ""
    description: str = ""
    rules_summary: str | None = None
    loc: Loc | None = None
    hex_set_locs: Mapping[str, Loc] = field(default_factory=lambda: EMPTY)
    setup_code_locs: tuple[Loc, ...] = ()
    counter_layouts: tuple[Mapping, ...] = ()
    """Declared counter layouts (render/counters/layout.py reads them)."""
    abbreviations: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    """Word or phrase -> short form, tried on counters before a text is reported as not fitting."""
    printed: tuple[Mapping, ...] = ()
    """Markings the rules say a counter shows (a field such as stacking points, or a flag), with their rule."""
    printed_locs: tuple[Loc, ...] = ()
    loss_boxes: tuple[tuple[str, str], ...] = (("eliminated", "Eliminated"),)
    """(id, name) of the boxes units removed from play go to (Typhoon 8.5.4: Eliminated and Cadre)."""
    phase_actions: tuple[PhaseAction, ...] = ()
    combat: Combat | None = None
    """How battles resolve from the CRT and terrain effects (tables.yaml `combat`), if the tables say."""
    victory: VictoryRules = NO_VICTORY
    box_groups: tuple[BoxGroup, ...] = ()

    def side(self, side_id: str) -> Side:
        return next(s for s in self.sides if s.id == side_id)

    def cite(self, rule: str) -> str:
        """A rule reference as findings print it, e.g. 'Typhoon 3.2.1'."""
        return f"{self.rules_ref} {rule}".strip() if rule else self.rules_ref

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def colours_for(self, side: str | None, nationality: str | None) -> tuple[str, str]:
        """(background, text) colours: the nationality's where it sets them, else the side's."""
        bg, fg = "#dddddd", "#000000"
        if side:
            s = self.side(side)
            bg, fg = s.color, s.text_color
        for n in self.nationalities:
            if n.id == nationality:
                bg, fg = n.color or bg, n.text_color or fg
        return bg, fg
