"""The state a set-up is checked in: the scenario (with a card's entries swapped in), indexed once.

Everything the checks need is looked up through dicts keyed by unit id or by cell, so each
check stays linear in the number of units (a 1,080-counter game is the target).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import NamedTuple

from authoring.diagnostics import Loc
from authoring.hexgrid import Hex
from authoring.model import (
    Counter,
    Game,
    HexFeature,
    Map,
    Placement,
    RuleSpec,
    Scenario,
    SetupCard,
)
from authoring.model.lazy import LazyMapping
from authoring.rules.hexsets import HexSets

START_KINDS = ("setup", "off_map")


class Use(NamedTuple):
    """One unit in one entry (set-up hex, off-map box, arrival, withdrawal or pool) and where it is written.

    A named tuple (built in C): a check makes one per unit entry of every scenario."""

    unit: str
    kind: str
    side: str
    loc: Loc | None
    state: str | None = None
    turn: int = 0
    hex: Hex | None = None
    label: str = ""
    place: str = ""  # off-map box, pool id, or a reinforcement's `at`
    counter: Counter | None = None
    """The counter `unit` names (None: unknown, the loader's finding), looked up once: the checks ask
    for it several times a unit, and a big game's counter table is slow to search at random."""
    owner: str = ""
    """The side the unit belongs to: its counter's, else the entry's."""
    counts: bool = False
    """Whether the unit counts in a hex (a known counter, not a marker): stacking, enemy units, sides.

    `owner` and `counts` are read off the counter as the use is made, while it is at hand: the
    always-on checks read them for every unit, and a big game's counters lie all over memory."""


@dataclass(frozen=True)
class Cell:
    """One hex of the maps in play; on an overlapping edge it has a label (and data) from each map."""

    hex: Hex
    labels: tuple[str, ...]
    maps: tuple[str, ...]
    terrain: tuple[str, ...]
    features: tuple[HexFeature, ...]

    def has(self, feature: str) -> bool:
        return any(f.type == feature for f in self.features)


@dataclass(frozen=True, eq=False)
class Board:
    game: Game
    scenario: Scenario
    maps: tuple[Map, ...]
    cells: Mapping[Hex, Cell]
    hexsets: HexSets
    uses: tuple[Use, ...]
    by_cell: Mapping[Hex, tuple[Use, ...]]
    """The set-up uses in each hex, in set-up order."""
    stacked: tuple[Hex, ...]
    """The hexes of `by_cell` that hold more than one use."""
    strangers: tuple[Use, ...]
    """The uses listed under a side other than their counter's."""
    rules: tuple[RuleSpec, ...] = ()
    stacking: RuleSpec | None = None
    card: SetupCard | None = None
    card_sides: frozenset[str] | None = None
    shared: dict = field(default_factory=dict, repr=False)
    """Answers that depend only on the game and the maps in play (parsed set-up codes, named hex sets),
    shared by the boards of one `check_game` run: each is worked out once, not once per scenario."""

    counter: Callable[[str], Counter | None] = field(init=False, repr=False)
    """The counter a unit id names, or None: the counters' own lookup, bound once (checks ask it
    several times a unit, and a method would add a Python call each time)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "counter", self.game.counters.get)

    @cached_property
    def by_unit(self) -> Mapping[str, tuple[Use, ...]]:
        """Each unit's uses, in order; made when first asked for (only a few rule types ask)."""
        by_unit: dict[str, list[Use]] = {}
        for u in self.uses:
            by_unit.setdefault(u.unit, []).append(u)
        return {k: tuple(v) for k, v in by_unit.items()}

    def side_of(self, use: Use) -> str:
        return use.owner

    def state_of(self, use: Use) -> str | None:
        """The state a unit is in: as written, else its counter's first face."""
        if use.state:
            return use.state
        c = use.counter
        return c.faces[0].state if c and c.faces else None

    def kinds(self, *kinds: str) -> Iterable[Use]:
        return (u for u in self.uses if u.kind in kinds)

    def on_map(self) -> Iterator[tuple[Use, Hex]]:
        """The set-up uses in a hex of the maps in play, each with that hex."""
        return ((u, u.hex) for u in self.uses if u.kind == "setup" and u.hex is not None)

    def label(self, h: Hex) -> str:
        cell = self.cells.get(h)
        return cell.labels[0] if cell else f"{h}"

    def describe(self, h: Hex, label: str = "") -> str:
        """A hex as findings show it: its label, terrain and features, e.g. '0601 (clear; city)'."""
        cell = self.cells.get(h)
        label = label or self.label(h)
        if cell is None:
            return label
        feats = sorted({f.type for f in cell.features})
        return f"{label} ({', '.join(cell.terrain) or 'no terrain'}{'; ' + ', '.join(feats) if feats else ''})"

    def setup_files(self) -> tuple[Loc, ...]:
        """Where the set-up of the sides being checked is written (for findings about an absence)."""
        files = [Loc(self.card.path)] if self.card and self.card.path else []
        if self.card is None or {s.id for s in self.game.sides} - (self.card_sides or frozenset()):
            files.append(Loc(self.scenario.path))
        return tuple(files)

    def nearest(self, h: Hex, candidates: Iterable[Hex]) -> Hex | None:
        best = None
        for c in candidates:
            key = (h.distance(c), self.label(c))
            if best is None or key < best[0]:
                best = (key, c)
        return best[1] if best else None


class Cells(LazyMapping[Hex, Cell]):
    """The cells of the maps in play, each built when first looked up.

    A set-up looks at the few hundred cells its units stand in; building all of them (8,100 on three
    60x45 maps) cost more than checking a thousand units and did not grow with them. The hexes are in
    the order of the maps and their hexes."""

    __slots__ = ()

    def __init__(self, maps: tuple[Map, ...]):
        super().__init__(dict.fromkeys(h for m in maps for h in m.hexes), partial(_cell, maps))


def _cell(maps: tuple[Map, ...], h: Hex) -> Cell:
    """One cell: a hex's data on each map that holds it, merged in map order; KeyError on none."""
    cell: Cell | None = None
    for m in maps:
        info = m.hexes.get(h)
        if info is None:
            continue
        terrain = tuple(dict.fromkeys(info.terrain)) if len(info.terrain) > 1 else tuple(info.terrain)
        if cell is None:  # most hexes lie on one map
            cell = Cell(h, (info.label,), (m.id,), terrain, tuple(info.features))
        else:
            cell = Cell(
                h,
                cell.labels + (info.label,),
                cell.maps + (m.id,),
                cell.terrain + tuple(t for t in terrain if t not in cell.terrain),
                cell.features + tuple(info.features),
            )
    if cell is None:
        raise KeyError(h)
    return cell


def build_cells(maps: tuple[Map, ...], shared: dict) -> Mapping[Hex, Cell]:
    """The cells of the maps in play (shared edge hexes merged), built once per `check_game` run (`shared`,
    the run's memo): every scenario on the same maps has the same cells. Treat the result as read-only."""
    key = ("cells", maps)
    if key not in shared:
        shared[key] = Cells(maps)
    return shared[key]


def card_sides(card: SetupCard | None, game: Game) -> frozenset[str] | None:
    """The sides a card replaces: its declared side, else every side its units belong to (None: no card).

    A card never replaces a side it holds no unit of, so checking one side's card leaves the other
    sides' set-up as the scenario has it. An undeclared card side (already reported by the loader)
    is ignored rather than trusted."""
    if card is None:
        return None
    if card.side and any(s.id == card.side for s in game.sides):
        return frozenset((card.side,))
    declared = {s.id for s in game.sides}
    counters = game.counters
    owners = {
        p.side if p.side in declared else counters[u].side if u in counters else None
        for p in card.entries
        for u in p.units
    }
    return frozenset(declared & owners)


def with_card(game: Game, scenario: Scenario, card: SetupCard | None) -> Scenario:
    """The scenario as the card sets it up: the card's entries in place of the sides it replaces."""
    if card is None:
        return scenario
    sides = card_sides(card, game) or frozenset()
    kept = tuple(p for p in scenario.setup if p.side not in sides)
    return replace(scenario, setup=kept + tuple(card.entries))


_new_use = tuple.__new__
"""`_new_use(Use, (all twelve fields))`: a Use built in C, without the named tuple's Python `__new__`."""


def _use(
    unit: str,
    kind: str,
    side: str,
    loc: Loc | None,
    state: str | None,
    turn: int,
    h: Hex | None,
    label: str,
    place: str,
    c: Counter | None,
) -> Use:
    """A use, with its counter's owner and whether it counts (the one place both are worked out)."""
    if c is None:
        return _new_use(Use, (unit, kind, side, loc, state, turn, h, label, place, None, side or "", False))
    return _new_use(Use, (unit, kind, side, loc, state, turn, h, label, place, c, c.side or side or "", not c.marker))


class Uses:
    """A scenario's uses and the indexes the always-on checks read, made in the one pass that reads the
    set-up: a later pass over thousands of uses costs more than the pass itself once they no longer
    fit in the cache, so each check looks only at what can go wrong."""

    def __init__(self, counter: Callable[[str], Counter | None]):
        self.counter = counter
        self.uses: list[Use] = []
        self.by_cell: dict[Hex, tuple[Use, ...]] = {}
        self.stacked: list[Hex] = []
        """Hexes holding more than one use, in the order they first did."""
        self.strangers: list[Use] = []
        """Uses listed under a side other than their counter's."""

    def add_placement(self, p: Placement) -> None:
        """The placement's units, and its hex's uses (one tuple a placement: most hexes hold one)."""
        side, locs, loc, state, h, label = p.side, p.unit_locs, p.loc, p.state, p.hex, p.label
        uses, counter, start = self.uses, self.counter, len(self.uses)
        for i, u in enumerate(p.units):  # `_use`, inlined: this loop runs for every unit on the maps
            where = locs[i] if i < len(locs) else None
            c = counter(u)
            owner = (c.side or side or "") if c is not None else side or ""
            use = _new_use(
                Use,
                (
                    u,
                    "setup",
                    side,
                    loc if where is None else where,
                    state,
                    0,
                    h,
                    label,
                    "",
                    c,
                    owner,
                    c is not None and not c.marker,
                ),
            )
            uses.append(use)
            if owner != side:
                self.strangers.append(use)
        if h is None or len(uses) == start:
            return
        here = tuple(uses[start:])
        held = self.by_cell.get(h)
        if held is not None or len(here) > 1:
            if held is None or len(held) == 1:
                self.stacked.append(h)
            here = held + here if held is not None else here
        self.by_cell[h] = here

    def add(
        self,
        kind: str,
        entry,
        turn: int = 0,
        place: str = "",
        state: str | None = None,
        skip: frozenset[str] | set[str] = frozenset(),
    ) -> None:
        """The units of an off-map box, arrival, withdrawal or pool entry (`skip`: units left out)."""
        counter, locs, loc, side = self.counter, entry.unit_locs, entry.loc, entry.side
        for i, u in enumerate(entry.units):
            if u in skip:
                continue
            use = _use(u, kind, side, _loc(locs, i, loc), state, turn, None, "", place, counter(u))
            self.uses.append(use)
            if use.owner != side:
                self.strangers.append(use)


def _loc(locs: tuple, i: int, default: Loc | None) -> Loc | None:
    return locs[i] if i < len(locs) and locs[i] is not None else default


def collect_uses(
    scenario: Scenario, card: SetupCard | None, sides: frozenset[str] | None, counter: Callable[[str], Counter | None]
) -> Uses:
    """Every unit entry of the scenario, with the card's entries replacing the set-up it covers
    (`counter`: the game's counter of a unit id, or None), and their indexes."""
    found = Uses(counter)
    carded = {u for p in card.entries for u in p.units} if card else set()
    replaced = sides or frozenset()
    for p in scenario.setup:
        if card is None or p.side not in replaced:
            found.add_placement(p)
    for p in card.entries if card else ():
        found.add_placement(p)
    for b in scenario.off_map:
        found.add("off_map", b, place=b.box, state=b.state, skip=carded)
    for r in scenario.reinforcements:
        found.add("reinforcement", r, r.turn, r.at, r.state)
    for w in scenario.withdrawals:
        found.add("withdrawal", w, w.turn, state=w.state)
    for pool in scenario.pools:
        found.add("pool", pool, pool.available if pool.available is not None else 0, pool.id)
    return found


def build_board(
    game: Game,
    scenario: Scenario,
    card: SetupCard | None = None,
    rules: tuple[RuleSpec, ...] = (),
    stacking: RuleSpec | None = None,
    shared: dict | None = None,
) -> Board:
    """`shared` (maps in play -> HexSets) lets the scenarios of one `check_game` run resolve each named hex
    set once: a set such as a map edge takes a pass over every hex of the maps."""
    maps = tuple(game.maps[m] for m in scenario.maps if m in game.maps)
    shared = {} if shared is None else shared
    cells = build_cells(maps, shared)
    hexsets = shared.get(("hexsets", maps)) or shared.setdefault(("hexsets", maps), HexSets(game.hex_sets, maps))
    sides = card_sides(card, game)
    found = collect_uses(scenario, card, sides, game.counters.get)
    return Board(
        game,
        scenario,
        maps,
        cells,
        hexsets,
        tuple(found.uses),
        found.by_cell,
        tuple(found.stacked),
        tuple(found.strangers),
        rules,
        stacking,
        card,
        sides,
        shared,
    )
