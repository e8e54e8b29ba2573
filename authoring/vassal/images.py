"""Every image the module holds: counter faces, boards, box boards and chart pages (cached PNG).

Counters come from `render.counter_art` (the print sheets' drawing), maps from
`render.maps.draw`, tables and turn tracks from `render.print.charts`, set-up cards from
`render.print.cards`. Boxes for dead piles and tracks are laid out and drawn in `boxes`.
"""

from __future__ import annotations

import importlib
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from authoring.model import Counter, Game, Scenario, Table
from authoring.progress import SILENT, Progress
from authoring.render.print.card_sides import card_sides
from authoring.render.shared.fonts import font
from authoring.vassal import archive
from authoring.vassal.art import Batch, ImageKeys, Images, image_name
from authoring.vassal.boards import (
    BoardPlan,
    MapArt,
    MapSet,
    board_sets,
    is_whole,
)
from authoring.vassal.native import native_file, native_frame, native_grid, native_px_per_hex
from authoring.vassal.pieces import HIDDEN, hidden_back

PAPER = (250, 248, 240)
INK = (30, 30, 30)

if TYPE_CHECKING:
    from authoring.render.counter_art import Faces


def drawing(module: str, name: str) -> Callable:
    """`module.name`, imported when first called: a build from cached images draws nothing, and the
    drawing stack (numpy, shapely, the rasteriser, the page canvas) takes longer to import than such
    a build takes to assemble the module."""

    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


counter_image = drawing("authoring.render.counter_art", "counter_image")
new_faces = drawing("authoring.render.counter_art", "Faces")
new_counter_memo = drawing("authoring.render.counter_art", "CounterMemo")
draw_card_faces = drawing("authoring.render.print.cards", "draw_card_faces")
render_map = drawing("authoring.render.maps.draw", "render_map")
map_png = drawing("authoring.render.maps.draw", "map_png")
flat_png = drawing("authoring.render.shared.pdf", "png_bytes")
render_table = drawing("authoring.render.print.charts", "render_table")
render_turn_track = drawing("authoring.render.print.charts", "render_turn_track")
setup_card_images = drawing("authoring.render.print.cards", "setup_card_images")


@dataclass(frozen=True)
class FaceJobs:
    """Every face of every counter, (counter, state) in counter id order, and the cache job drawing each."""

    faces: list[tuple[Counter, str]]
    jobs: list[tuple[str, Callable]]


def face_jobs(game: Game, size_px: int, keys: ImageKeys, faces: Faces | None = None) -> FaceJobs:
    """The jobs of every face; their drawings share `faces`' memo (`counter_art.face_art`), or one of their
    own, made when the first is drawn (a module from cached images imports no drawing)."""
    key_of = keys.counter_faces(game)
    memo: list = [faces.memo] if faces is not None else []

    def draw(counter: Counter, state: str) -> Image.Image:
        if not memo:
            memo.append(new_counter_memo())
        return counter_image(game, counter, state, size_px, memo=memo[0])

    faces = [
        (c, state)
        for c in sorted(game.counters.values(), key=lambda c: c.id)
        for state in [*(f.state for f in c.faces), *([HIDDEN] if hidden_back(game, c) else [])]
    ]
    return FaceJobs(
        faces,
        [(key_of(c, state, size_px), lambda c=c, s=state: draw(c, s)) for c, state in faces],
    )


def counter_faces(planned: FaceJobs, cache: Images) -> dict[tuple[str, str], tuple[str, bytes]]:
    """(counter id, state) -> (archive image name, PNG) for every face of every counter of `planned` (the
    jobs of `face_jobs`)."""
    return {
        (c.id, state): (image_name("u", c.id, state), png)
        for (c, state), png in zip(planned.faces, cache.many(planned.jobs))
    }


def _map_jobs(
    game: Game, px_per_hex: float, keys: ImageKeys, cache: Images
) -> tuple[dict[str, tuple[str, Callable]], dict[str, tuple[str, Callable]]]:
    """Map id -> the cache job of its whole image, in map id order: drawn maps (PNG, drawn tile by tile, the
    tiles kept in `cache.map_pieces`: an edit draws those it changed), and painted ones (the designer's art
    stays JPEG, as painted maps are stored: a tenth of the PNG, and fast); none when the boards are the art
    files themselves (`vassal.native`)."""
    drawn, painted = {}, {}
    if native_px_per_hex(game) == px_per_hex:
        return drawn, painted
    for m in sorted(game.maps):  # the game's terrain and features: walked once for all its maps (`keys`' memo)
        key = keys.map_image(game, m, px_per_hex)
        art = game.maps[m].art
        if art is not None and art.registration is not None:
            painted[m] = (key + "-jpeg", lambda m=m: render_map(game, m, px_per_hex))
        else:
            drawn[m] = (key, lambda m=m: map_png(game, m, px_per_hex, cache.map_pieces))
    return drawn, painted


def map_batches(game: Game, px_per_hex: float, keys: ImageKeys, cache: Images, zipped: bool = True) -> list[Batch]:
    """`map_images`' jobs, for `Images.draw_ahead`."""
    drawn, painted = _map_jobs(game, px_per_hex, keys, cache)
    return [
        Batch(list(drawn.values()), heavy=True, zipped=zipped),
        Batch(list(painted.values()), jpeg=True, heavy=True, zipped=zipped),
    ]


def map_images(game: Game, cache: Images, keys: ImageKeys, px_per_hex: float, zipped: bool = True) -> dict[str, bytes]:
    """map id -> PNG (or the painted map's JPEG) of the whole map (maps draw in parallel); `zipped`: they go
    into the module as they are."""
    drawn, painted = _map_jobs(game, px_per_hex, keys, cache)
    out = dict(zip(drawn, cache.many(list(drawn.values()), heavy=True, zipped=zipped)))
    art = cache.pages(list(painted.values()), jpeg=True, heavy=True, zipped=zipped)
    out.update(zip(painted, (pages[0] for pages in art)))
    return out


class BoardWork:
    """The module's boards: their plans per set of maps (`board_sets`), the map images they are made from,
    and every distinct board's image.

    Planned before anything is drawn, so that the map images (`map_batches`) can be drawn beside the
    counter faces (`Images.draw_ahead`) rather than after them."""

    def __init__(
        self, game: Game, cache: Images, keys: ImageKeys, px_per_hex: float, progress: Progress = SILENT
    ) -> None:
        self.keys = keys
        from authoring.render.maps.frame import map_frame

        self.game, self.cache, self.px_per_hex = game, cache, px_per_hex
        self.native = native_px_per_hex(game) == px_per_hex  # the boards are the art files as they are
        if self.native:
            arts = {
                m: MapArt(m, *native_frame(game.maps[m]), native=native_file(game.maps[m])[1])
                for m in sorted(game.maps)
            }
        else:
            arts = {m: MapArt(m, *map_frame(game, m, px_per_hex)) for m in sorted(game.maps)}
        self.sets = board_sets(game, arts, progress.note)
        if self.native:  # the engine's grid registered to the art itself
            self.sets = {
                k: tuple(replace(p, params=native_grid(game.maps[p.map_id], dict(p.params))) for p in plans)
                for k, plans in self.sets.items()
            }
        map_keys = {m: keys.map_image(game, m, px_per_hex) for m in arts}
        plain = [
            plans for plans in self.sets.values() if len(plans) == 1 or all(is_whole(p, arts[p.map_id]) for p in plans)
        ]
        cut = [(plans, p) for plans in self.sets.values() if plans not in plain for p in plans]
        self.whole = [p for plans in plain for p in plans]
        self.wanted, seen = [], set()
        for plans, p in cut:
            if board_image(p) in seen:
                continue
            seen.add(board_image(p))
            key = keys.board(map_keys, plans, p)
            self.wanted.append((key, plans, p))
        self.maps_zipped: bool | None = (
            True
            if self.whole
            else (False if self.wanted and not all(cache.has(key) for key, _, _ in self.wanted) else None)
        )
        """Whether the map images are needed: as boards themselves (True: zipped into the module), only
        to cut boards from (False), or not at all (None: every board is cached)."""
        self.pngs: dict[str, bytes] | None = None
        """The map images (map id -> PNG or JPEG), once `board_batches` has read them."""

    def map_batches(self) -> list[Batch]:
        if self.maps_zipped is None:
            return []
        return map_batches(self.game, self.px_per_hex, self.keys, self.cache, self.maps_zipped)

    def board_batches(self) -> list[Batch]:
        """The jobs of the boards cut from the map images (the map images are read, or drawn, first)."""
        if self.pngs is None and self.native:
            self.pngs = {m: native_file(self.game.maps[m])[0] for m in sorted(self.game.maps)}
        if self.pngs is None:
            self.pngs = (
                {}
                if self.maps_zipped is None
                else map_images(self.game, self.cache, self.keys, self.px_per_hex, zipped=self.maps_zipped)
            )
        game, pngs = self.game, self.pngs
        drawn = [(key, p, lambda p=p, plans=plans: _board_png(p, plans, pngs, game)) for key, plans, p in self.wanted]
        return [
            Batch([(key, draw) for key, p, draw in drawn if not p.painted], heavy=True),
            Batch([(key, draw) for key, p, draw in drawn if p.painted], jpeg=True),
        ]  # painted art stays JPEG

    def images(self) -> tuple[dict[MapSet, tuple[BoardPlan, ...]], dict[str, bytes]]:
        """Board plans per set of maps and every distinct board's image (archive name -> PNG, or JPEG for
        the designer's painted maps)."""
        plain, painted = self.board_batches()
        files = {board_image(p): self.pngs[p.map_id] for p in self.whole}
        cut = [p for _, _, p in self.wanted]
        files.update(zip([board_image(p) for p in cut if not p.painted], self.cache.many(plain.jobs, heavy=True)))
        files.update(
            zip(
                [board_image(p) for p in cut if p.painted],
                (pages[0] for pages in self.cache.pages(painted.jobs, jpeg=True)),
            )
        )
        return self.sets, files


def board_image(plan: BoardPlan) -> str:
    """`board-<map id>[.<variant>].<ext>`: the map's id as written (zip entry names are case-sensitive); the
    art's own format where the board is the designer's art as it is."""
    from authoring.names import encode_part, readable_part

    ext = plan.native or ("jpg" if plan.painted else "png")
    return ".".join(
        (f"board-{readable_part(plan.map_id)}", *([encode_part(plan.variant)] if plan.variant else []), ext)
    )


def _board_png(
    plan: BoardPlan, plans: Sequence[BoardPlan], pngs: Mapping[str, bytes], game: Game
) -> Image.Image | bytes:
    """`compose_board`, a drawn board encoded as the map images are (rows unfiltered, deflated at the fastest
    level: flat colour, several times faster than Pillow's adaptive filters); a painted one stays an image
    (JPEG, like its art)."""
    board = compose_board(plan, plans, pngs, game)
    return board if plan.painted else flat_png(board)


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
    if plan.crop[0] > 0:
        _retitle(out, plan, game, image_size(pngs[plan.map_id])[0])
    return out


def _retitle(out: Image.Image, plan: BoardPlan, game: Game, map_width: int) -> None:
    """A board cut from the left would show its map's title clipped: draw it again at the board's
    left, in the margin above the hexes (as `render.maps.draw.add_title` places it), and the label of a
    representative map beside it (`add_notice`; the one the map image had, `map_width` px wide, is cleared)."""
    from authoring.render.maps.frame import MARGIN, NOTICE_INK, TITLE_SIZE, TOP, map_notice, notice_lines

    px = plan.layout.size * math.sqrt(3)
    m = game.maps[plan.map_id]
    title = m.name if m.name == game.name or len(game.maps) == 1 else f"{game.name}: {m.name}"
    top_of_hexes = min(y for h in m.grid.hexes for _, y in plan.layout.corners(h))
    face = font(TITLE_SIZE * px, bold=True)
    x0, y = MARGIN * px, TOP * px * 0.45
    width = face.getlength(title)
    draw = ImageDraw.Draw(out)
    paper = out.getpixel((1, 1))
    draw.rectangle((0, 0, min(out.width, x0 + width + px / 2), max(0, top_of_hexes - 2)), fill=paper)
    notice = map_notice([m])
    for text, x, ty, size in notice_lines(title, notice, px, map_width):  # the label the cut left behind
        left, top, right, bottom = draw.textbbox((x - plan.crop[0], ty), text, font=font(size, bold=True), anchor="lm")
        draw.rectangle((left - 2, top - 2, right + 2, bottom + 2), fill=paper)
    draw.text((x0, y), title, font=face, fill=INK, anchor="lm")
    for text, x, ty, size in notice_lines(title, notice, px, out.width):
        draw.text((x, ty), text, font=font(size, bold=True), fill=NOTICE_INK, anchor="lm")


def _crop(png: bytes, crop: tuple[int, int, int, int]) -> Image.Image:
    """Part of a map image; areas beyond it are paper."""
    source = Image.open(io.BytesIO(archive.unpacked(png))).convert("RGB")
    left, top, right, bottom = crop
    out = Image.new("RGB", (right - left, bottom - top), PAPER)
    out.paste(source, (-left, -top))
    return out


def marker_image(
    cache: Images, keys: ImageKeys, text: str, size_px: int, lines: tuple[str, ...] = (), colour: str = "#ffffff"
) -> bytes:
    """A paper chit with a word on it and, under it, the `lines` it concerns (a withdrawal reminder names the
    units that leave), cached like every other image."""
    return cache.png(
        keys.marker(text, size_px, lines, colour),
        lambda: _draw_marker(text, size_px, lines, colour),
    )


def corner_mark(cache: Images, keys: ImageKeys, text: str, size_px: int, colour: str) -> bytes:
    """A unit-sized layer, clear but for a small chit with a word in its upper right corner: a mark (the
    attacker's) that leaves the unit's values readable."""
    return cache.png(
        keys.corner_mark(text, size_px, colour),
        lambda: _draw_corner_mark(text, size_px, colour),
    )


def _draw_corner_mark(text: str, size_px: int, colour: str) -> Image.Image:
    out = Image.new("RGBA", (size_px, size_px), (0, 0, 0, 0))
    chit = min(size_px, max(16, round(size_px * 0.4)))
    draw = ImageDraw.Draw(out)
    box = (size_px - chit, 0, size_px - 1, chit - 1)
    draw.rectangle(box, fill=colour, outline=INK, width=max(1, chit // 16))
    centre = (size_px - chit / 2, chit / 2)
    draw.text(centre, text, font=font(chit / 3.2, bold=True), fill=INK, anchor="mm")
    return out


MARKER_LINES = 4
"""Unit names a chit lists before '+N more'."""


def _draw_marker(text: str, size_px: int, lines: tuple[str, ...] = (), colour: str = "#ffffff") -> Image.Image:
    image = Image.new("RGB", (size_px, size_px), colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size_px - 1, size_px - 1), outline=INK, width=2)
    if not lines:
        draw.text((size_px / 2, size_px / 2), text, font=font(size_px / 5, bold=True), fill=INK, anchor="mm")
        return image
    shown = list(lines[:MARKER_LINES])
    if len(lines) > MARKER_LINES:
        shown[-1] = f"+{len(lines) - MARKER_LINES + 1} more"
    draw.text((size_px / 2, size_px * 0.17), text, font=font(size_px / 6, bold=True), fill=INK, anchor="mm")
    step = size_px * 0.68 / MARKER_LINES
    for k, line in enumerate(shown):
        size = size_px / 7.5
        while size > 6 and font(size).getlength(line) > size_px - 8:
            size -= 0.5
        draw.text((size_px / 2, size_px * 0.34 + step * (k + 0.5)), line, font=font(size), fill=INK, anchor="mm")
    return image


TABLES = "Tables"
TURN_RECORDS = "Turn records"
SETUP_CARDS = "Set-up cards"


@dataclass(frozen=True)
class ChartPage:
    """One chart image, its title and the group (chart window tab) it belongs to."""

    title: str
    image: str
    group: str = TABLES
    label: str = ""
    """The title inside its group's tabs or list, without the group's own words (default: the title)."""
    size: tuple[int, int] = (0, 0)
    """The image's width and height in pixels (a chart window is sized to show it whole)."""

    @property
    def short(self) -> str:
        return self.label or self.title


@dataclass(frozen=True)
class ChartJobs:
    """The chart pages' cache jobs and their (title, image, group, label), known before any is read: the
    compiler reads their entries ahead (`Images.prefetch`) while it assembles the rest."""

    jobs: list
    meta: list
    cards: list
    card_meta: list

    def keys(self) -> list[str]:
        return [key for key, _ in [*self.jobs, *self.cards]]


REPRESENTATIVE_MARK = " (representative)"
"""After a representative table's or turn record's name in the chart window's tabs and list (its image carries the label)."""


def chart_title(table: Table) -> str:
    """A table's title in the chart window: its name, marked when its data is representative."""
    return table.name + (REPRESENTATIVE_MARK if table.source.representative else "")


def chart_jobs(game: Game, keys: ImageKeys, faces: Faces | None = None) -> ChartJobs:
    """Rule tables, each scenario's turn track and set-up cards, in that order; the cards take their
    counter faces from `faces` (a counter is on a card of every scenario: drawn once)."""
    jobs, meta = [], []
    for table in game.tables:  # the style, terrain and phases every page's key walks: once (`keys`' memo)
        key = keys.table(game, table)
        jobs.append((key, lambda t=table: render_table(game, t)))
        meta.append((chart_title(table), image_name("chart", table.id), TABLES, ""))
    for scenario in _scenarios(game):
        key = keys.turns(game, scenario)
        jobs.append((key, lambda s=scenario: render_turn_track(game, s)))
        name = scenario.name + (REPRESENTATIVE_MARK if scenario.source.representative else "")
        meta.append((f"Turn record: {name}", image_name("turns", scenario.id), TURN_RECORDS, name))
    cards, card_meta = [], []
    key_of = keys.cards(game)
    for scenario in _scenarios(game):
        for side in card_sides(game, scenario):
            cards.append(
                (key_of(scenario.id, side), lambda s=scenario, d=side: setup_card_images(game, s, d, faces=faces))
            )
            name = image_name("setup", scenario.id, side, ext="jpg")
            label = f"{scenario.name}, {_side_name(game, side)}"
            card_meta.append((f"Set-up: {label}", name, SETUP_CARDS, label))
    return ChartJobs(jobs, meta, cards, card_meta)


def chart_batches(planned: ChartJobs) -> list[Batch]:
    """The chart pages' jobs, for `Images.draw_ahead` (set-up card pages are JPEG)."""
    return [Batch(planned.jobs), Batch(planned.cards, jpeg=True)]


def charts(
    planned: ChartJobs, cache: Images, cards_drawn: Callable[[], object] | None = None
) -> tuple[tuple[ChartPage, ...], dict[str, bytes]]:
    """The pages of `planned` (`chart_jobs`): read from the cache, else drawn. `cards_drawn()` returns once
    another stage has left the set-up card pages in the cache (`build all`'s cards stage)."""
    jobs, meta, cards, card_meta = planned.jobs, planned.meta, planned.cards, planned.card_meta
    if cards_drawn is not None:
        cards_drawn()
    drawn = [*cache.pages(jobs), *cache.pages(cards, jpeg=True)]
    pages, files = [], {}
    for (title, name, group, label), sheets in zip([*meta, *card_meta], drawn):
        stem, dot, ext = name.rpartition(".")
        for i, data in enumerate(sheets):
            page_name = name if len(sheets) == 1 else f"{stem}_{i + 1}{dot}{ext}"
            suffix = f" ({i + 1}/{len(sheets)})" if len(sheets) > 1 else ""
            files[page_name] = data
            pages.append(ChartPage(title + suffix, page_name, group, label + suffix if label else "", image_size(data)))
    return tuple(pages), files


def image_size(data: bytes | archive.Stored) -> tuple[int, int]:
    """Width and height of a PNG or JPEG from its header (nothing is decoded; read here, where Pillow's
    opening of each chart page cost more than the rest of the chart window). A page the previous module
    stores (`archive.Stored`): its header inflated, not the page."""
    head = data.head(1 << 16) if isinstance(data, archive.Stored) else data
    start = bytes(head[:24])
    if start.startswith(b"\x89PNG\r\n\x1a\n") and start[12:16] == b"IHDR":
        return int.from_bytes(start[16:20], "big"), int.from_bytes(start[20:24], "big")
    with Image.open(io.BytesIO(head)) as image:
        return image.size


def _side_name(game: Game, side: str) -> str:
    return next((s.name for s in game.sides if s.id == side), side)


def _scenarios(game: Game) -> list[Scenario]:
    return [game.scenarios[k] for k in sorted(game.scenarios)]


def keys_used(*groups: Mapping[str, bytes]) -> dict[str, bytes]:
    """Merge image groups, refusing two different files under one name.

    The same object under one name is the same file: its bytes are not compared (the images are
    read-only views of the cache, and a view is compared item by item: 60 ms for a large game's pages)."""
    out: dict[str, bytes] = {}
    for group in groups:
        for name, data in group.items():
            held = out.setdefault(name, data)
            if held is not data and held != data:
                raise ValueError(f"two different images would be stored as {name!r}")
    return out
