"""A map tiled over Letter or A4 pages at 1:1, for players who print at home.

The map is drawn once at print resolution (``hex_size_in * dpi`` px per hex) and cut into
pages of the printable area (paper minus `PAGE_MARGIN_IN` all round). Neighbouring pages
share ``overlap_in``: page A2's left strip repeats the right strip of A1. Trim each page to
its printed edge and lay it over its left and upper neighbours, edge on the registration
line. Everything the player must not see after gluing (registration lines and crosses, glue
hatching, page labels) sits in the strips that the next page covers, except the label of the
last page, which has no covered strip. Page 1 of the PDF is the assembly diagram with a scale bar.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from authoring.budget import tile_dpi as budget_dpi
from authoring.model import Game
from authoring.names import map_file_name
from authoring.render.maps.draw import (
    has_art,
    map_bands,
    map_png_jobs,
    map_tiles,
    registration_pngs,
    run_per_map,
    write_one,
)
from authoring.render.maps.frame import NOTICE_INK, map_notice
from authoring.render.maps.raster import TILE
from authoring.render.maps.tiled import PieceStore, TiledScene
from authoring.render.shared.canvas import wrap
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import paper_in, png_bytes, write_pdf
from authoring.workers import Workers

PAGE_MARGIN_IN = 0.25
"""Unprinted border of every page (home printers cannot print to the edge)."""
MARK = (110, 110, 110)
INK = (30, 30, 30)


@dataclass(frozen=True)
class TilePlan:
    """How a map image is cut into pages (all sizes in pixels at ``dpi``)."""

    dpi: float
    paper_in: tuple[float, float]
    """Page size as printed (after choosing the orientation)."""
    page_px: tuple[int, int]
    """Printable area of a page."""
    overlap_px: int
    columns: int
    rows: int
    map_px: tuple[int, int]
    start: tuple[int, int] = (0, 0)
    """Map pixel at the top-left of page A1: the page grid is centred on the map, the spare width and
    height of the last column and row shared out on both sides, so no edge page is a sliver of map
    on a blank sheet (negative: white paper before the map's edge)."""

    @property
    def step(self) -> tuple[int, int]:
        return self.page_px[0] - self.overlap_px, self.page_px[1] - self.overlap_px

    def origin(self, row: int, col: int) -> tuple[int, int]:
        """Top-left pixel of the map that page (row, col) shows."""
        return self.start[0] + col * self.step[0], self.start[1] + row * self.step[1]

    @staticmethod
    def label(row: int, col: int) -> str:
        """Page label: row letter, column number ("A1", "B3")."""
        letters = ""
        n = row + 1
        while n:
            n, rem = divmod(n - 1, 26)
            letters = chr(65 + rem) + letters
        return f"{letters}{col + 1}"

    def label_box(self, row: int, col: int) -> tuple[int, int, int, int]:
        """Where the page label is drawn: the bottom-right corner of the page."""
        w, h = self.page_px
        room = max(self.overlap_px - 4, int(0.2 * self.dpi))
        bw, bh = min(int(0.6 * self.dpi), room), min(int(0.3 * self.dpi), room)
        return w - bw - 2, h - bh - 2, w - 2, h - 2


def plan_tiles(map_px: tuple[int, int], dpi: float, paper: str, overlap_in: float) -> TilePlan:
    """Pages needed for a map image, in whichever orientation needs fewer of them (portrait on a tie)."""
    pw, ph = paper_in(paper)
    best = None
    for paper_size in ((pw, ph), (ph, pw)):
        page = (int((paper_size[0] - 2 * PAGE_MARGIN_IN) * dpi), int((paper_size[1] - 2 * PAGE_MARGIN_IN) * dpi))
        overlap = int(round(overlap_in * dpi))
        if overlap * 2 >= min(page):
            raise ValueError(f"overlap of {overlap_in} in is too large for {paper} paper")
        cols = _count(map_px[0], page[0], overlap)
        rows = _count(map_px[1], page[1], overlap)
        spare = (cols * (page[0] - overlap) + overlap - map_px[0], rows * (page[1] - overlap) + overlap - map_px[1])
        plan = TilePlan(dpi, paper_size, page, overlap, cols, rows, map_px, (-(spare[0] // 2), -(spare[1] // 2)))
        if best is None or cols * rows < best.columns * best.rows:
            best = plan
    return best


def _count(length: int, page: int, overlap: int) -> int:
    return max(1, math.ceil((length - overlap) / (page - overlap)))


def page_image(plan: TilePlan, image, row: int, col: int) -> Image.Image:
    """Page (row, col): its piece of the map (white beyond the map) with its marks.

    `image`: the map, or any object with its `crop` (a `_Window` of bands)."""
    x, y = plan.origin(row, col)
    w, h = plan.map_px
    box = (max(0, x), max(0, y), min(x + plan.page_px[0], w), min(y + plan.page_px[1], h))
    page = image.crop(box)
    if page.size != plan.page_px:  # a page past the map's edge: white beyond it
        blank = Image.new("RGB", plan.page_px, (255, 255, 255))
        blank.paste(page, (box[0] - x, box[1] - y))
        page = blank
    if col < plan.columns - 1:
        _glue_strip(page, plan, vertical=True)
    if row < plan.rows - 1:
        _glue_strip(page, plan, vertical=False)
    draw = ImageDraw.Draw(page)
    if col > 0:  # the covering side of the overlap: the same crosses, to lay over its neighbour's
        for y in registration_points(plan, vertical=True):
            _cross(draw, plan.overlap_px / 2, y, plan.overlap_px // 5, max(1, int(plan.dpi / 150)))
    if row > 0:
        for x in registration_points(plan, vertical=False):
            _cross(draw, x, plan.overlap_px / 2, plan.overlap_px // 5, max(1, int(plan.dpi / 150)))
    _page_label(draw, plan, row, col)
    return page


def registration_points(plan: TilePlan, vertical: bool) -> tuple[int, ...]:
    """Where the crosses of an overlap sit along it: y on a vertical overlap, x on a horizontal one
    (the same map points on both pages of the overlap)."""
    w, h = plan.page_px
    o = plan.overlap_px
    return (o * 2, h // 2, h - o * 2) if vertical else (o * 2, w // 2, w - o * 3)


def _glue_strip(page: Image.Image, plan: TilePlan, vertical: bool) -> None:
    """Hatching, "glue" and a registration line with crosses in the strip the next page covers."""
    w, h = plan.page_px
    o = plan.overlap_px
    line = max(1, int(plan.dpi / 75))
    box = (w - o, 0, w, h) if vertical else (0, h - o, w, h)
    strip = page.crop(box)
    sd = ImageDraw.Draw(strip)
    span = strip.width + strip.height
    for k in range(-span, span, max(4, o // 6)):
        sd.line(((k, 0), (k + strip.height, strip.height)), fill=(170, 170, 170), width=1)
    page.paste(strip, box[:2])
    draw = ImageDraw.Draw(page)
    if vertical:
        x0 = w - o
        draw.line(((x0 + line // 2, 0), (x0 + line // 2, h)), fill=MARK, width=line)
        for y in registration_points(plan, vertical=True):
            _cross(draw, x0 + o / 2, y, o // 3, line)
        draw.text((x0 + o / 2, h / 2 + o), "GLUE", fill=MARK, font=font(o / 4, True), anchor="mm")
    else:
        y0 = h - o
        draw.line(((0, y0 + line // 2), (w, y0 + line // 2)), fill=MARK, width=line)
        for x in registration_points(plan, vertical=False):
            _cross(draw, x, y0 + o / 2, o // 3, line)
        draw.text((w / 2 + o, y0 + o / 2), "GLUE", fill=MARK, font=font(o / 4, True), anchor="mm")


def _cross(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, width: int) -> None:
    draw.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), outline=INK, width=width)
    draw.line(((x - r, y), (x + r, y)), fill=INK, width=width)
    draw.line(((x, y - r), (x, y + r)), fill=INK, width=width)


def _page_label(draw: ImageDraw.ImageDraw, plan: TilePlan, row: int, col: int) -> None:
    box = plan.label_box(row, col)
    draw.rectangle(box, fill=(255, 255, 255), outline=INK, width=max(1, int(plan.dpi / 75)))
    draw.text(
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        TilePlan.label(row, col),
        fill=INK,
        font=font((box[3] - box[1]) * 0.6, True),
        anchor="mm",
    )


def assembly_page(
    plan: TilePlan, image: Image.Image | None, title: str, thumb: Image.Image | None = None, notice: str = ""
) -> Image.Image:
    """The assembly diagram: a thumbnail with the page grid and labels, instructions and a scale bar.

    `thumb`: the map already reduced to `diagram_box`'s scale (else reduced here from `image`); `notice`: the
    label of a representative map (`frame.map_notice`), printed under the instructions."""
    w, h = plan.page_px
    dpi = plan.dpi
    page = Image.new("RGB", (w, h), (255, 255, 255))
    draw = ImageDraw.Draw(page)
    room = w - int(0.4 * dpi)  # titles stay inside the printable area, shrunk (never below 9 pt) then wrapped
    size = max(0.125 * dpi, min(0.22 * dpi, 0.22 * dpi * room / max(1, font(0.22 * dpi, True).getlength(title))))
    lines = wrap(title, size, room, True)[:2]
    for i, line in enumerate(lines):
        draw.text(
            (w / 2, (0.3 + 0.27 * i - 0.12 * (len(lines) - 1)) * dpi),
            line,
            fill=INK,
            font=font(size, True),
            anchor="mm",
        )
    info = (
        f"{plan.columns * plan.rows} pages ({plan.rows} rows x {plan.columns} columns), "
        f"{plan.paper_in[0]:.2f} x {plan.paper_in[1]:.2f} in, {plan.overlap_px / dpi:.2f} in overlap"
    )
    info_size = min(0.12 * dpi, 0.12 * dpi * room / max(1, font(0.12 * dpi).getlength(info)))
    draw.text((w / 2, 0.66 * dpi), info, fill=INK, font=font(info_size), anchor="mm")
    _diagram(page, plan, thumb or thumbnail(image, plan), diagram_box(plan))
    steps = [
        "Print at 100% / actual size (no 'fit to page'); check the scale bar below.",
        "Trim each page along the edge of its printed area.",
        "Lay each page over its left and upper neighbours, its edge on the registration line;",
        "glue in the hatched strips. Labels: row letter, column number.",
    ]
    for i, text in enumerate(steps):
        draw.text((0.3 * dpi, h - (2.05 - 0.2 * i) * dpi), text, fill=INK, font=font(0.11 * dpi), anchor="lm")
    for i, line in enumerate(wrap(notice, 0.11 * dpi, room, True)[:2] if notice else []):
        draw.text(
            (0.3 * dpi, h - (1.2 - 0.17 * i) * dpi), line, fill=NOTICE_INK, font=font(0.11 * dpi, True), anchor="lm"
        )
    scale_bar(draw, 0.3 * dpi, h - 0.9 * dpi, dpi)
    return page


def diagram_box(plan: TilePlan) -> tuple[int, int, int, int]:
    """Where the assembly page shows the map (pixels of the page)."""
    w, h = plan.page_px
    return (int(0.2 * plan.dpi), int(0.85 * plan.dpi), w - int(0.2 * plan.dpi), h - int(2.2 * plan.dpi))


def _diagram_scale(plan: TilePlan) -> float:
    box = diagram_box(plan)
    total = (plan.step[0] * plan.columns + plan.overlap_px, plan.step[1] * plan.rows + plan.overlap_px)
    return min((box[2] - box[0]) / total[0], (box[3] - box[1]) / total[1])


def thumb_size(plan: TilePlan) -> tuple[int, int]:
    k = _diagram_scale(plan)
    return max(1, int(plan.map_px[0] * k)), max(1, int(plan.map_px[1] * k))


def thumbnail(image: Image.Image, plan: TilePlan) -> Image.Image:
    return image.resize(thumb_size(plan), Image.Resampling.BOX)


def _diagram(page: Image.Image, plan: TilePlan, thumb: Image.Image, box) -> None:
    bw, bh = box[2] - box[0], box[3] - box[1]
    total = (plan.step[0] * plan.columns + plan.overlap_px, plan.step[1] * plan.rows + plan.overlap_px)
    k = _diagram_scale(plan)
    gx, gy = plan.start
    ox = box[0] + (bw - total[0] * k) / 2 - gx * k  # where the map's pixel (0, 0) falls on the diagram
    oy = box[1] + (bh - total[1] * k) / 2 - gy * k
    page.paste(thumb, (int(ox), int(oy)))
    draw = ImageDraw.Draw(page)
    for r in range(plan.rows):
        for c in range(plan.columns):
            x, y = plan.origin(r, c)
            rect = (ox + x * k, oy + y * k, ox + (x + plan.page_px[0]) * k, oy + (y + plan.page_px[1]) * k)
            draw.rectangle(rect, outline=(200, 30, 30), width=max(1, int(plan.dpi / 60)))
            cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
            draw.text(
                (cx, cy),
                TilePlan.label(r, c),
                fill=(200, 30, 30),
                font=font(0.3 * plan.dpi, True),
                anchor="mm",
                stroke_width=max(1, int(plan.dpi / 50)),
                stroke_fill=(255, 255, 255),
            )


def scale_bar(draw: ImageDraw.ImageDraw, x: float, y: float, dpi: float) -> None:
    """A 4-inch bar with inch ticks and a 10 cm bar with cm ticks, to check 1:1 printing."""
    line = max(1, int(dpi / 75))
    for length, unit, ticks, label in ((4 * dpi, dpi, 4, "4 in"), (10 / 2.54 * dpi, dpi / 2.54, 10, "10 cm")):
        draw.rectangle((x, y, x + length, y + 0.08 * dpi), outline=INK, width=line)
        for t in range(ticks + 1):
            draw.line(((x + t * unit, y - 0.06 * dpi), (x + t * unit, y + 0.08 * dpi)), fill=INK, width=line)
            if t % 2 == 0 and t < ticks:
                draw.rectangle((x + t * unit, y, x + (t + 1) * unit, y + 0.08 * dpi), fill=INK)
        draw.text(
            (x + length + 0.1 * dpi, y + 0.04 * dpi),
            label + " if printed at 1:1",
            fill=INK,
            font=font(0.11 * dpi),
            anchor="lm",
        )
        y += 0.35 * dpi


def write_tiled_pdf(
    game: Game, map_id: str, out_path: Path, paper: str = "letter", overlap_in: float = 0.5, dpi: float = 150
) -> Path:
    """The map at 1:1 over as many pages as it needs, with an assembly page first."""
    return write_tiles(game, map_id, {paper: Path(out_path)}, overlap_in, dpi)[0]


def write_tiles(
    game: Game, map_id: str, paths: dict[str, Path], overlap_in: float, dpi: float, store: PieceStore | None = None
) -> list[Path]:
    """`write_tiled_pdf` for several papers (`paths`: paper -> PDF) from one drawing of the map.

    A map hexwright draws is drawn tile by tile (`draw.map_tiles`): each page is cut from the tiles it
    overlaps, and with a `store` a page whose tiles are all unchanged is taken as it was encoded, as is each
    row of tiles' part of the assembly page's thumbnail, so an edit draws only the tiles it changed and
    encodes only the pages they fall on. A painted map is cut from its bands of rows (`map_bands`) as they
    come: memory holds a page's height of the map, never the whole print-size image."""
    m = game.maps[map_id]
    tiled = map_tiles(game, map_id, m.hex_size_in * dpi, store)
    if tiled is None:
        size, bands = map_bands(game, map_id, m.hex_size_in * dpi)
        papers = [_PaperPages(plan_tiles(size, dpi, paper, overlap_in), jpeg_bytes) for paper in paths]
        window = _Window()
        for top, band in bands:  # the designer's painted art: JPEG pages like the art (embedded by img2pdf as they are)
            window.add(top, band)
            for pages in papers:
                pages.feed(window, band)
            window.drop_above(min(pages.next_row_top() for pages in papers))
    else:
        art = has_art(m)  # a painted map with marks over it: JPEG pages like the art's
        papers = [_TiledPages(plan_tiles(tiled.size, dpi, paper, overlap_in), tiled, dpi, art) for paper in paths]
        # every page still to cut lies in the last rows of tiles: a page's height of them, and the row it starts in
        tiled.keep = tiled.columns * (math.ceil(max(p.plan.page_px[1] for p in papers) / TILE) + 1)
        for gy in range(tiled.rows):
            for pages in papers:
                pages.feed(gy)
    title = m.name if m.name == game.name else f"{game.name}: {m.name}"
    return [
        write_pdf(
            [png_bytes(assembly_page(pages.plan, None, title, pages.thumb(), map_notice([m])), dpi), *pages.pages],
            path,
            dpi,
            pages.plan.paper_in,
        )
        for pages, path in zip(papers, paths.values())
    ]


class _Window:
    """The rows of a map drawn so far and still needed, as bands: what the next row of pages shows."""

    def __init__(self) -> None:
        self.bands: list[tuple[int, Image.Image]] = []

    @property
    def bottom(self) -> int:
        return self.bands[-1][0] + self.bands[-1][1].height if self.bands else 0

    def add(self, top: int, band: Image.Image) -> None:
        self.bands.append((top, band))

    def drop_above(self, y: float) -> None:
        """Forget the bands wholly above row `y`."""
        self.bands = [(top, band) for top, band in self.bands if top + band.height > y]

    def crop(self, box: tuple[int, int, int, int]) -> Image.Image:
        """The map's pixels in `box` (every row of it drawn and still held)."""
        x0, y0, x1, y1 = box
        for top, band in self.bands:
            if top <= y0 and y1 <= top + band.height:  # within one band: its pixels, no copy between
                return band.crop((x0, y0 - top, x1, y1 - top))
        out = Image.new("RGB", (x1 - x0, y1 - y0), None)  # every row is pasted from a band below
        for top, band in self.bands:
            if top < y1 and y0 < top + band.height:  # the band, placed where it lies: Pillow copies just the
                out.paste(band, (-x0, top - y0))  # part inside `out` (a crop first copied it twice)
        return out


class _PaperPages:
    """One paper's tile pages of a map (encoded), cut row by row as the bands go by, and the
    first pass of its assembly thumbnail."""

    def __init__(self, plan: TilePlan, encode) -> None:
        self.plan, self.encode = plan, encode
        self.row = 0
        self.pages: list[bytes] = []
        self.strips: list[tuple[tuple[int, int], bytes]] = []
        """The thumbnail's first pass of each band, deflated (mostly flat colour: a tenth of its size) until
        `thumb` joins them: held as images, the two papers' strips would be 100 MB of a 60 x 45 hex map."""

    def next_row_top(self) -> float:
        return self.plan.origin(self.row, 0)[1] if self.row < self.plan.rows else math.inf

    def feed(self, window: _Window, band: Image.Image) -> None:
        # `thumbnail` resizes in two passes, rows first: each band's row pass now, the column pass in `thumb`
        strip = band.resize((thumb_size(self.plan)[0], band.height), Image.Resampling.BOX)
        self.strips.append((strip.size, zlib.compress(strip.tobytes(), 1)))
        plan = self.plan
        while (
            self.row < plan.rows and min(plan.origin(self.row, 0)[1] + plan.page_px[1], plan.map_px[1]) <= window.bottom
        ):
            self.pages += [self.encode(page_image(plan, window, self.row, c)) for c in range(plan.columns)]
            self.row += 1

    def thumb(self) -> Image.Image:
        """`thumbnail` of the whole map, pixel for pixel, from the bands' row passes."""
        width, height = thumb_size(self.plan)
        joined = Image.new("RGB", (width, sum(size[1] for size, _ in self.strips)))
        y = 0
        for size, data in self.strips:
            joined.paste(Image.frombytes("RGB", size, zlib.decompress(data)), (0, y))
            y += size[1]
        return joined.resize((width, height), Image.Resampling.BOX)


class _TiledPages(_PaperPages):
    """One paper's pages of a map drawn tile by tile (`TiledScene`), row of tiles by row: each page taken
    from the store when its tiles' keys are those it was encoded from, else cut from the tiles; each row's
    thumbnail strip likewise."""

    def __init__(self, plan: TilePlan, tiled: TiledScene, dpi: float, jpeg: bool) -> None:
        super().__init__(plan, jpeg_bytes if jpeg else lambda page: png_bytes(page, dpi))
        self.tiled, self.dpi, self.jpeg = tiled, dpi, jpeg

    def feed(self, gy: int) -> None:  # type: ignore[override]
        tiled, plan = self.tiled, self.plan
        self.strips.append(self._strip(gy))
        bottom = min(tiled.size[1], (gy + 1) * TILE)
        while self.row < plan.rows and min(plan.origin(self.row, 0)[1] + plan.page_px[1], plan.map_px[1]) <= bottom:
            self.pages += [self._page(self.row, c) for c in range(plan.columns)]
            self.row += 1

    def _kept(self, kind: str, tiles, *parts: object) -> tuple[str | None, bytes | None]:
        keys, store = self.tiled.keys_of(tiles), self.tiled.store
        if keys is None or store is None:
            return None, None
        key = store.key(kind, *parts, keys)
        return key, store.get(key)

    def _strip(self, gy: int) -> tuple[tuple[int, int], bytes]:
        tiled = self.tiled
        width = thumb_size(self.plan)[0]
        key, found = self._kept("thumb strip", range(gy * tiled.columns, (gy + 1) * tiled.columns), width)
        if found is not None and len(found) >= 8:
            return (width, int.from_bytes(found[:8], "big")), found[8:]
        band = tiled.band(gy)
        strip = band.resize((width, band.height), Image.Resampling.BOX)
        data = zlib.compress(strip.tobytes(), 1)
        if key is not None:
            tiled.store.put(key, strip.height.to_bytes(8, "big") + data)  # type: ignore[union-attr]
        return strip.size, data

    def _page(self, row: int, col: int) -> bytes:
        plan, tiled = self.plan, self.tiled
        x, y = plan.origin(row, col)
        tiles = tiled.tiles_in((x, y, x + plan.page_px[0], y + plan.page_px[1]))
        key, found = self._kept("print page", tiles, plan, row, col, self.dpi, self.jpeg)
        if found is not None:
            return found
        data = self.encode(page_image(plan, tiled, row, col))
        if key is not None:
            tiled.store.put(key, data)  # type: ignore[union-attr]
        return data


def jpeg_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=92)
    return buffer.getvalue()


def _tiled_job(shared: dict, job: tuple[str, tuple[str, ...]]) -> tuple[str, ...]:
    """One map's tiles on every paper of the job, from one drawing of the map (`shared`: the game, `papers`,
    `overlap`, `dpi` and the tiles' `store`, or none)."""
    map_id, paths = job
    game = shared["game"]
    dpi = tile_dpi(game.maps[map_id], shared["dpi"])
    papers = dict(zip(shared["papers"], map(Path, paths)))
    return tuple(str(p) for p in write_tiles(game, map_id, papers, shared["overlap"], dpi, shared.get("store")))


def tile_dpi(m, dpi: float) -> float:
    """The print resolution of a map's tiles: `dpi` for a map hexwright draws (less for a map too big to
    draw at it within the pixel budget, and for SVG map art); for a designer's painted map, the art's own
    resolution at print size, no more: resampling a 150 ppi scan to 300 ppi adds pages of bytes and time, not detail."""
    dpi = budget_dpi(len(m.hexes), m.hex_size_in, dpi)
    reg = m.art.registration if m.art is not None else None
    if reg is None or m.art.image.format == "SVG":  # a drawing is drawn at any resolution
        return dpi
    native = reg.hex_px * min(reg.stretch) / m.hex_size_in
    return float(min(dpi, math.ceil(native)))


def write_tiled_pdfs(
    game: Game,
    out_dir: Path,
    paper: str = "letter",
    overlap_in: float = 0.5,
    dpi: float = 150,
    workers: Workers | None = None,
    papers: Sequence[str] = (),
) -> list[Path]:
    """``tiles-<map>.<paper>.pdf`` for every map and paper (`papers`, default just `paper`), maps in
    parallel processes, each map drawn once for all its papers; paths paper by paper, then by map."""
    papers = tuple(papers) or (paper,)
    jobs = [
        (mid, tuple(str(Path(out_dir) / map_file_name("tiles", mid, game.maps, p, ext="pdf")) for p in papers))
        for mid in sorted(game.maps)
    ]
    done = run_per_map(game, jobs, _tiled_job, workers, papers=papers, overlap=overlap_in, dpi=dpi)
    return [Path(paths[i]) for i in range(len(papers)) for paths in done]


def _map_file_job(shared: dict, job: tuple[str, tuple]) -> tuple[str, ...]:
    kind, inner = job
    return _tiled_job(shared, inner) if kind == "tiles" else (write_one(shared, inner),)


def _is_tiles(job: tuple[str, tuple]) -> bool:
    """A print map (tiles), the large job of a map pool (see `workers.Workers.token`)."""
    return job[0] == "tiles"


def _longest_first(tiles: int, images: list[int]) -> list[int]:
    """Job indices in the order to run them: the print maps (0 .. tiles-1) alternating with `images`."""
    order: list[int] = []
    for i in range(max(tiles, len(images))):
        order += [i] if i < tiles else []
        order += [images[i]] if i < len(images) else []
    return order


def write_map_files(
    game: Game,
    out_dir: Path,
    px_per_hex: float,
    papers: Sequence[str],
    dpi: float,
    overlap_in: float = 0.5,
    workers: Workers | None = None,
    only: Collection[str] | None = None,
    store: PieceStore | None = None,
) -> list[Path]:
    """`write_map_pngs` and `write_tiled_pdfs` (for `papers`) in one pool of processes; the same paths
    in the same order as the two calls one after the other. `only`: the map ids (and `draw.LAYOUT_JOB`
    for the joined layout) to draw, the others left as they are; `store`: where their tiles and the pieces
    made of them are kept (`tiled.PieceStore`), so that only the tiles an edit changed are drawn.

    The longest jobs go first, so neither core waits while the other draws the last map: each print
    map (tiles), with a map image between two of them, the joined layout first. Beside other stages only
    one print map runs at a time, and the pool's other worker draws the images meanwhile."""
    tiles = [
        (
            "tiles",
            (mid, tuple(str(Path(out_dir) / map_file_name("tiles", mid, game.maps, p, ext="pdf")) for p in papers)),
        )
        for mid in sorted(game.maps)
        if only is None or mid in only
    ]
    pngs = [("png", job) for job in map_png_jobs(game, out_dir) if only is None or job[0] in only]
    jobs = [*tiles, *pngs]
    # the joined layout, whose job id is no map's, before the map images
    joined_first = sorted(range(len(tiles), len(jobs)), key=lambda i: jobs[i][1][0] in game.maps)
    order = _longest_first(len(tiles), joined_first)
    done = dict(
        zip(
            order,
            run_per_map(
                game,
                [jobs[i] for i in order],
                _map_file_job,
                workers,
                _is_tiles,
                px=px_per_hex,
                papers=tuple(papers),
                overlap=overlap_in,
                dpi=dpi,
                store=store,
            ),
        )
    )
    tiled, drawn = [done[i] for i in range(len(tiles))], [done[i] for i in range(len(tiles), len(jobs))]
    written = [Path(paths[0]) for paths in drawn] + registration_pngs(game, out_dir, only)
    return written + [Path(paths[i]) for i in range(len(papers)) for paths in tiled]
