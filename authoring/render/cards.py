"""Set-up cards: per scenario and side, where every unit starts and what arrives, leaves or waits later.

A card lists exactly the scenario data the rules engine checks: set-up placements (hex, units,
strength state), off-map boxes, reinforcements by turn with their arrival location, withdrawals
and pools. Each unit is shown by its counter face (`counter_art.counter_image`) with its name and
state. Pages are Letter at `DPI`, two columns of entries, as many pages as needed.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from PIL import Image, ImageDraw

from authoring.model import Game, Scenario
from authoring.render.charts import fit_size, wrap
from authoring.render.fonts import font
from authoring.render.pdf import save_png, write_pdf

DPI = 150
PAGE = (int(8.5 * DPI), int(11 * DPI))
MARGIN = int(0.4 * DPI)
GUTTER = 30
COUNTER_PX = 72
"""Counter images on cards (about 1/2 inch)."""
UNIT_W = 96
"""Room per unit: the counter plus its caption."""
LABEL_W = 150
INK = (30, 28, 24)
MUTED = (105, 98, 90)


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
    setup = tuple(Entry(p.label, "", p.units, p.state)
                  for p in sorted(scenario.placements(side), key=lambda p: (p.label, p.state or "")))
    off_map = tuple(Entry(o.box, "off map", o.units, o.state) for o in scenario.off_map if o.side == side)
    reinf = tuple(Entry(when(r.turn), f"arrive at {_where(game, r.at)}" if r.at else "", r.units, r.state)
                  for r in sorted(scenario.reinforcements, key=lambda r: r.turn) if r.side == side)
    withdraw = tuple(Entry(when(w.turn), "withdraw", w.units, None)
                     for w in sorted(scenario.withdrawals, key=lambda w: w.turn) if w.side == side)
    pools = tuple(Entry(p.name or p.id, _pool_detail(p), p.units, None) for p in scenario.pools if p.side == side)
    sections = [Section("Set-up", setup), Section("Off-map", off_map), Section("Reinforcements", reinf),
                Section("Withdrawals", withdraw), Section("Pools", pools)]
    return [s for s in sections if s.entries]


def _where(game: Game, at: str) -> str:
    spec = game.hex_sets.get(at)
    if spec is None:
        return at
    if "edge" in spec:
        return f"{at} ({spec['edge']} edge)"
    if "hexes" in spec:
        return f"{at} ({', '.join(str(h) for h in spec['hexes'])})"
    return at


def _pool_detail(pool) -> str:
    bits = []
    if pool.available is not None:
        bits.append(f"{pool.available} available")
    if pool.cost is not None:
        bits.append(f"cost {pool.cost:g}")
    return ", ".join(bits)


def _state_name(game: Game, counter, state: str | None) -> str:
    sid = state or (counter.faces[0].state if counter and counter.faces else "")
    return next((s.name for s in game.strength_states if s.id == sid), sid)


Block = tuple[int, Callable[[Image.Image, int, int, int], None]]


def _entry_block(game: Game, entry: Entry, width: int) -> Block:
    per_row = max(1, (width - LABEL_W) // UNIT_W)
    rows = max(1, -(-len(entry.units) // per_row))
    height = rows * (COUNTER_PX + 40) + 8

    def draw(page: Image.Image, x: int, y: int, w: int) -> None:
        from authoring.render.counter_art import counter_image
        d = ImageDraw.Draw(page)
        d.line(((x, y), (x + w, y)), fill=(200, 192, 178), width=1)
        d.text((x, y + 8), entry.label, fill=INK, font=font(fit_size(entry.label, 22, LABEL_W - 8, True), True))
        for k, line in enumerate(wrap(entry.detail, 14, LABEL_W - 10)[:4]):
            d.text((x, y + 38 + k * 17), line, fill=MUTED, font=font(14))
        for i, uid in enumerate(entry.units):
            r, c = divmod(i, per_row)
            ux, uy = x + LABEL_W + c * UNIT_W, y + 8 + r * (COUNTER_PX + 40)
            counter = game.counters.get(uid)
            if counter is not None:
                img = counter_image(game, counter, entry.state, COUNTER_PX)
                page.paste(img.convert("RGB"), (ux, uy), img if img.mode == "RGBA" else None)
            name = counter.display_name if counter else uid
            cx = ux + COUNTER_PX // 2
            d.text((cx, uy + COUNTER_PX + 3), name, fill=INK, font=font(fit_size(name, 14, UNIT_W - 6, True), True),
                   anchor="ma")
            state = _state_name(game, counter, entry.state)
            d.text((cx, uy + COUNTER_PX + 20), state, fill=MUTED, font=font(fit_size(state, 12, UNIT_W - 6)),
                   anchor="ma")
    return height, draw


def _heading_block(title: str) -> Block:
    def draw(page: Image.Image, x: int, y: int, w: int) -> None:
        d = ImageDraw.Draw(page)
        d.text((x, y + 6), title, fill=INK, font=font(26, True))
        d.line(((x, y + 40), (x + w, y + 40)), fill=INK, width=2)
    return 48, draw


def _header(page: Image.Image, game: Game, scenario: Scenario, side: str, number: int, total: int) -> int:
    d = ImageDraw.Draw(page)
    s = game.side(side)
    d.rectangle((0, 0, PAGE[0], int(0.22 * DPI)), fill=s.color)
    title = f"{scenario.name}: {s.name} set-up"
    d.text((MARGIN, int(0.4 * DPI)), title, fill=INK, font=font(fit_size(title, 40, PAGE[0] - 2 * MARGIN, True), True),
           anchor="lm")
    sub = f"{game.name} - scenario {scenario.id} - page {number} of {total}"
    d.text((MARGIN, int(0.62 * DPI)), sub, fill=MUTED, font=font(18), anchor="lm")
    return int(0.8 * DPI)


def _columns(blocks: Sequence[Block], top: int) -> list[list[list[Block]]]:
    """Blocks flowed into two columns per page; a heading never ends a column."""
    pages: list[list[list[Block]]] = [[[]]]
    y = top
    bottom = PAGE[1] - MARGIN
    for i, block in enumerate(blocks):
        nxt = blocks[i + 1][0] if i + 1 < len(blocks) else 0
        need = block[0] + (nxt if block[0] == 48 else 0)
        if y + need > bottom and pages[-1][-1]:
            if len(pages[-1]) == 2:
                pages.append([[]])
            else:
                pages[-1].append([])
            y = top
        pages[-1][-1].append(block)
        y += block[0]
    return pages


def render_setup_card(game: Game, scenario: Scenario, side: str) -> list[Image.Image]:
    """The pages of ``side``'s set-up card for ``scenario`` (RGB, Letter at `DPI`)."""
    col_w = (PAGE[0] - 2 * MARGIN - GUTTER) // 2
    blocks: list[Block] = []
    for section in card_sections(game, scenario, side):
        blocks.append(_heading_block(section.title))
        blocks += [_entry_block(game, e, col_w) for e in section.entries]
    if not blocks:
        blocks.append(_heading_block("Nothing to set up"))
    top = int(0.8 * DPI)
    layout = _columns(blocks, top)
    pages = []
    for n, columns in enumerate(layout, 1):
        page = Image.new("RGB", PAGE, (255, 255, 255))
        _header(page, game, scenario, side, n, len(layout))
        for c, column in enumerate(columns):
            x, y = MARGIN + c * (col_w + GUTTER), top
            for height, draw in column:
                draw(page, x, y, col_w)
                y += height
        pages.append(page)
    return pages


def card_sides(game: Game, scenario: Scenario) -> list[str]:
    """Sides with anything on their card, in the game's side order."""
    used = {p.side for p in scenario.setup} | {o.side for o in scenario.off_map}
    used |= {r.side for r in scenario.reinforcements} | {w.side for w in scenario.withdrawals}
    used |= {p.side for p in scenario.pools}
    return [s.id for s in game.sides if s.id in used]


def write_setup_cards(game: Game, out_dir: Path) -> list[Path]:
    """``setup-<scenario>-<side>.pdf`` plus one PNG per page, for every scenario and side."""
    out_dir = Path(out_dir)
    paths: list[Path] = []
    for sid in sorted(game.scenarios):
        scenario = game.scenarios[sid]
        for side in card_sides(game, scenario):
            pages = render_setup_card(game, scenario, side)
            stem = f"setup-{sid}-{side}"
            for n, page in enumerate(pages, 1):
                name = f"{stem}.png" if len(pages) == 1 else f"{stem}-{n}.png"
                paths.append(save_png(page, out_dir / name, DPI))
            paths.append(write_pdf(pages, out_dir / f"{stem}.pdf", DPI, "letter"))
    return paths
