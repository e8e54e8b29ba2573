"""Which set-up cards a scenario has and what each shows, without the drawing stack: the VASSAL compiler
lists the card pages it takes from its image cache and keys them on what they show (`card_content`), and
importing `cards` (canvas, PDF writer, numpy) for that would cost more than the rest of a build from
cached images."""

from __future__ import annotations

from dataclasses import dataclass

from authoring.model import Game, Scenario
from authoring.names import id_words


def card_sides(game: Game, scenario: Scenario) -> list[str]:
    """Sides with anything on their card, in the game's side order."""
    used = {p.side for p in scenario.setup} | {o.side for o in scenario.off_map}
    used |= {r.side for r in scenario.reinforcements} | {w.side for w in scenario.withdrawals}
    used |= {p.side for p in scenario.pools}
    return [s.id for s in game.sides if s.id in used]


@dataclass(frozen=True)
class Entry:
    """One line of a card: a location/time label, a detail line and the units with their state."""

    label: str
    detail: str
    units: tuple[str, ...]
    state: str | None


@dataclass(frozen=True)
class Section:
    title: str
    entries: tuple[Entry, ...]


def card_sections(game: Game, scenario: Scenario, side: str) -> list[Section]:
    """What the card of ``side`` shows, in order; empty sections are left out."""
    turn_date = {t.turn: t.date for t in scenario.turns}

    def when(turn: int) -> str:
        return f"Turn {turn}" + (f" ({turn_date[turn]})" if turn_date.get(turn) else "")

    # in printed-id order, so a player setting up finds each hex the way the map numbers them
    setup = tuple(
        Entry(p.label, "", p.units, p.state)
        for p in sorted(scenario.placements(side), key=lambda p: (p.label, p.state or ""))
    )
    off_map = tuple(Entry(o.box, "off map", o.units, o.state) for o in scenario.off_map if o.side == side)
    reinf = tuple(
        Entry(when(r.turn), f"arrive at {_where(game, r.at)}" if r.at else "", r.units, r.state)
        for r in sorted(scenario.reinforcements, key=lambda r: r.turn)
        if r.side == side
    )
    withdraw = tuple(
        Entry(when(w.turn), "withdraw", w.units, None)
        for w in sorted(scenario.withdrawals, key=lambda w: w.turn)
        if w.side == side
    )
    pools = tuple(
        Entry(p.name or id_words(p.id), _pool_detail(game, p), p.units, None) for p in scenario.pools if p.side == side
    )
    sections = [
        Section("Set-up", setup),
        Section("Off-map", off_map),
        Section("Reinforcements", reinf),
        Section("Withdrawals", withdraw),
        Section("Pools", pools),
    ]
    return [s for s in sections if s.entries]


def card_content(game: Game, scenario: Scenario, side: str) -> tuple:
    """Everything the card of ``side`` shows besides the counters' shared style: its header (the game's
    and scenario's names, the side, the label of a representative scenario), its sections (hex names and arrival places already in their text)
    and each counter it draws. A set-up card's cache key: a change elsewhere redraws no card."""
    sections = card_sections(game, scenario, side)
    shown = sorted({uid for s in sections for e in s.entries for uid in e.units})
    counters = [(uid, game.counters.get(uid)) for uid in shown]
    return (game.name, scenario.name, game.side(side), scenario.source.label, sections, counters)


def _where(game: Game, at: str) -> str:
    """An arrival place as players read it: the hex set's `name` (else its id in words), with its hexes
    and their place names when it lists a few (never a grid edge's internal name)."""
    spec = game.hex_sets.get(at)
    if spec is None:
        return at
    name = str(spec.get("name") or id_words(at))
    hexes = [str(h) for h in spec.get("hexes", ())]
    if not hexes or len(hexes) > 4:
        return name
    places = [_place(game, h) for h in hexes]
    if len(places) == 1 and places[0].lower().startswith(name.lower() + " "):
        return places[0]  # 'Odessa 3019', not 'Odessa (Odessa 3019)'
    return f"{name} ({', '.join(places)})"


def _place(game: Game, label: str) -> str:
    """'3019' -> 'Odessa 3019' when a map names the hex, else the hex id."""
    for m in game.maps.values():
        h = m.grid.label_to_hex(label)
        if h is not None and h in m.hexes:
            named = next((f.name for f in m.hexes[h].features if f.name), "")
            return f"{named} {label}" if named else label
    return label


def _pool_detail(game: Game, pool) -> str:
    bits = []
    if pool.available is not None:
        bits.append(f"from turn {pool.available}")
    if pool.cost is not None:
        bits.append(f"cost {pool.cost:g}")
    if pool.at:
        bits.append(f"enters at {_where(game, pool.at)}")
    return ", ".join(bits)
