"""Scenarios: maps in play, turn record, set-up, schedules, pools and options; and set-up cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from authoring.diagnostics import Loc
from authoring.hexgrid import Hex
from authoring.model.frozen import frozen
from authoring.model.game import EMPTY, RuleSpec
from authoring.model.provenance import DESIGNERS, Provenance


def value_text(value: object) -> str:
    """A turn or scenario value as players read it: a mix {kind: count} as '4 infantry-type + 1 tank-corps',
    a list of mixes joined by ', or '; numbers and text as written."""
    if isinstance(value, Mapping):
        return " + ".join(f"{n} {kind}" for kind, n in value.items())
    if isinstance(value, (list, tuple)):
        return ", or ".join(value_text(v) for v in value)
    return f"{value}"


@frozen
class Turn:
    turn: int
    date: str = ""
    weather: str = ""
    notes: tuple[str, ...] = ()
    values: Mapping[str, object] = field(default_factory=lambda: EMPTY)
    loc: Loc | None = None


@frozen
class Placement:
    """Units starting in one hex. `hex` is None when the label names no hex of the maps in play."""

    side: str
    label: str
    hex: Hex | None
    units: tuple[str, ...]
    state: str | None = None
    loc: Loc | None = None
    unit_locs: tuple[Loc, ...] = ()


@frozen
class OffMap:
    side: str
    box: str
    units: tuple[str, ...]
    state: str | None = None
    loc: Loc | None = None
    unit_locs: tuple[Loc, ...] = ()


@frozen
class Scheduled:
    """A reinforcement (with `at`) or a withdrawal (without) of some units on a turn."""

    turn: int
    side: str
    units: tuple[str, ...]
    at: str = ""
    state: str | None = None
    loc: Loc | None = None
    unit_locs: tuple[Loc, ...] = ()


@frozen
class Pool:
    id: str
    side: str
    units: tuple[str, ...]
    name: str = ""
    available: int | None = None
    cost: float | None = None
    loc: Loc | None = None
    unit_locs: tuple[Loc, ...] = ()
    at: str = ""  # where the pool's units enter: a hex, hex set or code (e.g. Typhoon 14.1.5)


@frozen
class TurnValues:
    """Turn-record values an option changes: on `turns` (empty: every turn) `values` replace the turn's own."""

    values: Mapping[str, object]
    turns: tuple[int, ...] = ()
    loc: Loc | None = None

    def covers(self, turn: int) -> bool:
        return not self.turns or turn in self.turns


@frozen
class OptionEffects:
    """What an option changes, by effect kind (scenario.schema.json `effects`). `kinds` lists every kind written,
    known or not, with its location, so the rules engine can refuse a kind it does not apply (HW-OPT-001)."""

    setup_rules: tuple[RuleSpec, ...] = ()
    with_options: tuple[str, ...] = ()
    turn_values: tuple[TurnValues, ...] = ()
    not_checked: tuple[str, ...] = ()
    kinds: tuple[tuple[str, Loc | None], ...] = ()


NO_EFFECTS = OptionEffects()


@frozen
class Option:
    id: str
    name: str
    default: bool = False
    description: str = ""
    effects: OptionEffects = NO_EFFECTS
    loc: Loc | None = None


@frozen
class Victory:
    text: str
    side: str = ""
    points: float | None = None


@frozen
class Draw:
    """Counters drawn at random and in secret (scenario `draws`; Typhoon 17.3's Victory Plans): a face-down deck
    in the module, each drawn piece seen only by the players of `side`. Each counter is in it as many times as
    its `quantity`."""

    id: str
    name: str
    side: str
    counters: tuple[str, ...]
    rule: str = ""
    loc: Loc | None = None


@frozen
class Scenario:
    id: str
    name: str
    maps: tuple[str, ...]
    turns: tuple[Turn, ...]
    setup: tuple[Placement, ...]
    off_map: tuple[OffMap, ...] = ()
    reinforcements: tuple[Scheduled, ...] = ()
    withdrawals: tuple[Scheduled, ...] = ()
    pools: tuple[Pool, ...] = ()
    options: tuple[Option, ...] = ()
    victory: tuple[Victory, ...] = ()
    setup_rules: tuple[RuleSpec, ...] = ()
    values: Mapping[str, object] = field(default_factory=lambda: EMPTY)
    description: str = ""
    path: str = ""
    loc: Loc | None = None
    source: Provenance = DESIGNERS
    """Where the scenario comes from (``source:``, ``source_note:``): a representative turn record is labelled."""
    draws: tuple[Draw, ...] = ()
    markers: tuple[Placement, ...] = ()
    """Markers placed at the start (scenario `markers`; Battle for Moscow's city control markers): not part of
    either side's set-up, so set-up cards and checks leave them out; the module's set-up places them."""

    def placements(self, side: str | None = None) -> tuple[Placement, ...]:
        return tuple(p for p in self.setup if side is None or p.side == side)


@frozen
class SetupCard:
    """One side's set-up as a player writes it, to be checked against a scenario."""

    entries: tuple[Placement, ...]
    side: str | None = None
    scenario: str | None = None
    game: str | None = None
    path: str = ""
