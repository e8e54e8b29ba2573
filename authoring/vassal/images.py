"""Every image the module holds: counter faces, boards, box boards and chart pages (cached PNG).

Counters come from `render.counter_art` (the print sheets' drawing), maps from
`render.map_draw`, tables and turn tracks from `render.charts`, set-up cards from
`render.cards`. Boxes for dead piles and tracks are drawn here: they are module furniture.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from authoring.model import Game, Scenario
from authoring.render.shared.fonts import font
from authoring.vassal.art import ImageCache, code_version, digest, image_name, png_bytes
from authoring.vassal.boards import (
    BoardPlan,
    MapArt,
    is_whole,
    plan_boards,
    side_by_side,
)

PAPER = (250, 248, 240)
INK = (30, 30, 30)
BOX_LINE = (90, 90, 90)

Progress = Callable[[str], None] | None


@dataclass(frozen=True)
class Box:
    """A labelled box on a box board; pieces snap to its centre (a VASSAL Region)."""

    name: str
    title: str
    x: int
    y: int


@dataclass(frozen=True)
class BoxBoard:
    image: str
    size: tuple[int, int]
    boxes: tuple[Box, ...]


def counter_style(game: Game) -> tuple:
    """The parts of the game a counter's drawing depends on besides the counter itself."""
    return (game.sides, game.nationalities, game.unit_types, game.unit_sizes, game.values,
            game.strength_states, game.flags, game.counter_size_in)


def counter_faces(game: Game, cache: ImageCache, size_px: int) -> dict[tuple[str, str], tuple[str, bytes]]:
    """(counter id, state) -> (archive image name, PNG) for every face of every counter."""
    from authoring.render.counter_art import counter_image

    style = digest(counter_style(game))
    faces = [(c, f.state) for c in sorted(game.counters.values(), key=lambda c: c.id) for f in c.faces]
    jobs = [(digest("counter", code_version(), style, c, state, size_px),
             lambda c=c, s=state: counter_image(game, c, s, size_px)) for c, state in faces]
    return {(c.id, state): (image_name("u", c.id, state), png)
            for (c, state), png in zip(faces, cache.many(jobs))}


def map_style_key(game: Game, map_id: str, px_per_hex: float) -> str:
    """Everything a map image depends on."""
    style = (game.name, len(game.maps), game.terrain, game.hex_features, game.hexside_features, game.paths,
             game.sides, game.hex_sets)
    return digest("map", code_version(), style, game.maps[map_id], px_per_hex)


def map_images(game: Game, cache: ImageCache, px_per_hex: float) -> dict[str, bytes]:
    """map id -> PNG of the whole map (maps draw in parallel)."""
    from authoring.render.maps.draw import render_map

    ids = sorted(game.maps)
    jobs = [(map_style_key(game, m, px_per_hex), lambda m=m: render_map(game, m, px_per_hex)) for m in ids]
    return dict(zip(ids, cache.many(jobs)))


def boards(game: Game, cache: ImageCache, px_per_hex: float, say: Progress = None) -> tuple[tuple[BoardPlan, ...], dict[str, bytes]]:
    """Board plans and their images (archive name -> PNG)."""
    from authoring.render.maps.draw import map_image_size, map_layout

    arts = {m: MapArt(m, map_layout(game, m, px_per_hex), map_image_size(game, m, px_per_hex))
            for m in sorted(game.maps)}
    try:
        plans = plan_boards(game, arts)
    except ValueError as error:
        if say:
            say(f"warning: maps shown side by side, not joined: {error}")
        plans = side_by_side(game, arts)
    keys = {m: map_style_key(game, m, px_per_hex) for m in arts}
    if len(plans) == 1 or all(is_whole(p, arts[p.map_id]) for p in plans):
        whole = map_images(game, cache, px_per_hex)
        return plans, {board_image(p): whole[p.map_id] for p in plans}
    layout_key = digest("boards", sorted(keys.items()), [(p.map_id, p.rect, p.crop) for p in plans])
    wanted = [(digest(layout_key, p.map_id), p) for p in plans]
    pngs: dict[str, bytes] = {}

    def compose(plan: BoardPlan) -> Image.Image:
        return compose_board(plan, plans, pngs, game)

    if not all(cache.has(key) for key, _ in wanted):
        pngs.update(map_images(game, cache, px_per_hex))
    made = cache.many([(key, lambda p=p: compose(p)) for key, p in wanted])
    return plans, {board_image(p): png for (_, p), png in zip(wanted, made)}


def board_image(plan: BoardPlan) -> str:
    return image_name("board", plan.map_id)


def compose_board(plan: BoardPlan, plans: Sequence[BoardPlan], pngs: Mapping[str, bytes], game: Game) -> Image.Image:
    """The board's crop of its map image, with the hexes other maps draw across its area."""
    out = _crop(pngs[plan.map_id], plan.crop)
    reach = plan.layout.size * 2
    for other in plans:
        if other.map_id == plan.map_id:
            continue
        dx, dy = other.rect[0] - plan.rect[0], other.rect[1] - plan.rect[1]
        polygons = []
        for h in game.maps[other.map_id].grid.hexes:
            cx, cy = other.layout.hex_to_pixel(h)
            if -reach <= cx + dx <= out.width + reach and -reach <= cy + dy <= out.height + reach:
                polygons.append([(x + dx, y + dy) for x, y in other.layout.corners(h)])
        if not polygons:
            continue
        mask = Image.new("L", out.size, 0)
        pen = ImageDraw.Draw(mask)
        for polygon in polygons:
            pen.polygon(polygon, fill=255)
        source = Image.open(io.BytesIO(pngs[other.map_id])).convert("RGB")
        shifted = Image.new("RGB", out.size, PAPER)
        shifted.paste(source, (dx - other.crop[0], dy - other.crop[1]))
        out.paste(shifted, (0, 0), mask)
    return out


def _crop(png: bytes, crop: tuple[int, int, int, int]) -> Image.Image:
    """Part of a map image; areas beyond it are paper."""
    source = Image.open(io.BytesIO(png)).convert("RGB")
    left, top, right, bottom = crop
    out = Image.new("RGB", (right - left, bottom - top), PAPER)
    out.paste(source, (-left, -top))
    return out


def box_board(name: str, title: str, sections: Sequence[tuple[str, Sequence[tuple[str, str]]]],
              box_px: tuple[int, int], per_row: int = 6) -> tuple[BoxBoard, bytes]:
    """A board of labelled boxes in titled sections: [(section title, [(region name, box title)])]."""
    bw, bh = box_px
    pad, head = bw // 10, max(18, bw // 6)
    width = pad + per_row * (bw + pad)
    layout, y = [], pad + head + pad
    for section_title, items in sections:
        layout.append(("title", section_title, pad, y))
        y += head
        for i, (region, box_title) in enumerate(items):
            col, row = i % per_row, i // per_row
            layout.append(("box", (region, box_title), pad + col * (bw + pad), y + row * (bh + pad)))
        y += ((len(items) + per_row - 1) // per_row) * (bh + pad) + pad
    image = Image.new("RGB", (width, y), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((pad, pad), title, font=font(head * 0.8, bold=True), fill=INK)
    boxes = []
    label = font(max(10.0, bw / 9))
    for kind, what, x, top in layout:
        if kind == "title":
            draw.text((x, top), what, font=font(head * 0.6, bold=True), fill=INK)
            continue
        region, box_title = what
        draw.rectangle((x, top, x + bw, top + bh), outline=BOX_LINE, width=2)
        draw.text((x + bw // 2, top + 3), box_title, font=label, fill=INK, anchor="mt")
        boxes.append(Box(region, box_title, x + bw // 2, top + bh // 2 + bh // 10))
    board = BoxBoard(image_name(name), image.size, tuple(boxes))
    return board, png_bytes(image)


def marker_image(text: str, size_px: int) -> bytes:
    """A plain paper chit with a word on it (withdrawal reminders)."""
    image = Image.new("RGB", (size_px, size_px), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size_px - 1, size_px - 1), outline=INK, width=2)
    draw.text((size_px / 2, size_px / 2), text, font=font(size_px / 5, bold=True), fill=INK, anchor="mm")
    return png_bytes(image)


@dataclass(frozen=True)
class ChartPage:
    title: str
    image: str


def charts(game: Game, cache: ImageCache) -> tuple[tuple[ChartPage, ...], dict[str, bytes]]:
    """Rule tables, each scenario's turn track and set-up cards, in that order."""
    from authoring.render.print.cards import card_sides, render_setup_card
    from authoring.render.print.charts import render_table, render_turn_track

    jobs, meta = [], []
    for table in game.tables:
        key = digest("table", code_version(), table, counter_style(game), game.terrain, game.hex_features)
        jobs.append((key, lambda t=table: render_table(game, t)))
        meta.append((table.name, image_name("chart", table.id)))
    for scenario in _scenarios(game):
        key = digest("turns", code_version(), scenario.turns, scenario.name, game.phases)
        jobs.append((key, lambda s=scenario: render_turn_track(game, s)))
        meta.append((f"Turn record: {scenario.name}", image_name("turns", scenario.id)))
    cards, card_meta = [], []
    for scenario in _scenarios(game):
        for side in card_sides(game, scenario):
            key = digest("card", code_version(), _card_inputs(game), scenario, side)
            cards.append((key, lambda s=scenario, d=side: render_setup_card(game, s, d)))
            name = image_name("setup", scenario.id, side).replace(".png", ".jpg")
            card_meta.append((f"Set-up: {scenario.name}, {_side_name(game, side)}", name))
    drawn = [*cache.pages(jobs), *cache.pages(cards, jpeg=True)]
    pages, files = [], {}
    for (title, name), sheets in zip([*meta, *card_meta], drawn):
        stem, dot, ext = name.rpartition(".")
        for i, data in enumerate(sheets):
            page_name = name if len(sheets) == 1 else f"{stem}_{i + 1}{dot}{ext}"
            suffix = f" ({i + 1}/{len(sheets)})" if len(sheets) > 1 else ""
            files[page_name] = data
            pages.append(ChartPage(title + suffix, page_name))
    return tuple(pages), files


def _card_inputs(game: Game) -> tuple:
    return (counter_style(game), game.name, game.hex_sets, game.counters,
            tuple((m.id, m.name, m.grid.spec) for m in game.maps.values()))


def _side_name(game: Game, side: str) -> str:
    return next((s.name for s in game.sides if s.id == side), side)


def _scenarios(game: Game) -> list[Scenario]:
    return [game.scenarios[k] for k in sorted(game.scenarios)]


def keys_used(*groups: Mapping[str, bytes]) -> dict[str, bytes]:
    """Merge image groups, refusing two different files under one name."""
    out: dict[str, bytes] = {}
    for group in groups:
        for name, data in group.items():
            if out.setdefault(name, data) != data:
                raise ValueError(f"two different images would be stored as {name!r}")
    return out
