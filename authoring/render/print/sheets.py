"""Print-and-play counter sheets: duplex PDF pages with zero gutter and cut marks.

A sheet is two pages: fronts, then backs placed where each front lands after
the paper turns over (mirrored left-right for long-edge duplex, top-bottom for
short-edge) and shifted by the user's measured back offset. Counters sit at a
pitch of exactly one counter, so one cut serves two counters; only the outer
edge of the block shows bleed. Cut marks sit outside the bleed, inside the
printable margin; when they need room the grid loses a row or column (see
``grid``). Pages are drawn with Pillow at the print dpi and stored losslessly
with img2pdf.

Conventions: ../shared/docs/print-and-play.md.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from authoring import atomic
from authoring.progress import SILENT, Progress
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import PAPER_MM, load_img2pdf

MM_PER_IN = 25.4


MARK_GAP_MM = 1.5
"""Clear space between the bleed and a cut mark (marks start ~3 mm out from the cut)."""

MARK_MIN_MM = 2.0
"""Shortest cut mark worth printing; the grid shrinks to leave room for it."""

MARK_WIDTH_MM = 0.15
"""Line weight of cut marks and cut lines."""

INDEX_TEXT_PT = 9.0
"""Body size of the index page."""

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


@dataclass(frozen=True)
class SheetOptions:
    """How the player wants the sheets printed."""

    paper: str = "letter"
    """'letter' or 'a4'."""
    counter_in: float = 0.625
    """Counter edge in inches: 0.5, 0.5625, 0.625, 0.75, 1.0."""
    dpi: int = 300
    """Raster resolution of the pages."""
    bleed_mm: float = 1.5
    """Art extended past the outer cut lines of the block."""
    bleed_outer_only: bool = False
    """Bleed only on the block's outer rectangle, not next to empty cells of a part-filled sheet."""
    margin_in: float = 0.25
    """Unprinted border for home printers (at least 0.25")."""
    duplex: str = "long"
    """'long' (backs mirrored left-right) or 'short' (top-bottom) edge flip."""
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    """Shift of the back page's art, in mm on the back's own x (right) and y (down), from the calibration sheet."""
    cut_marks: str = "both"
    """'front', 'back', 'both' or 'none'."""
    cut_lines: bool = False
    """Full-length cut lines across the printable area, for guillotines and rotary trimmers."""

    def __post_init__(self) -> None:
        checks = {
            "paper": (self.paper in PAPER_MM, sorted(PAPER_MM)),
            "duplex": (self.duplex in ("long", "short"), ["long", "short"]),
            "cut_marks": (self.cut_marks in ("front", "back", "both", "none"), ["front", "back", "both", "none"]),
        }
        for field, (ok, expected) in checks.items():
            if not ok:
                raise ValueError(f"Expected {field} one of: {expected} but received: {getattr(self, field)!r}")
        if self.margin_in < 0.25 or self.counter_in <= 0 or self.dpi < 10 or self.bleed_mm < 0:
            raise ValueError("Expected margin_in >= 0.25, counter_in > 0, dpi >= 10 and bleed_mm >= 0")


@dataclass(frozen=True)
class SheetItem:
    """One physical counter: its faces at counter size plus (optionally) bleed on every side."""

    name: str
    front: Image.Image
    back: Image.Image | None = None


@dataclass(frozen=True)
class Grid:
    """Page geometry in pixels, shared by every sheet of one print run."""

    page: tuple[int, int]
    pitch: int
    bleed: int
    margin: int
    mark_start: int
    cols: int
    rows: int
    origin: tuple[int, int]
    back_offset: tuple[int, int]

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


@dataclass(frozen=True)
class Placement:
    """Where one counter goes: cell and top-left cut corner on the front and the back page."""

    item: int
    name: str
    row: int
    col: int
    front: tuple[int, int]
    back: tuple[int, int]


@dataclass(frozen=True)
class SheetPage:
    """One sheet of paper: a front page and a back page."""

    sheet: int
    grid: Grid
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class SheetReport:
    """What was written."""

    path: Path
    pages: int
    index_pages: int
    sheets: int
    counters: int
    cols: int
    rows: int
    counter_px: int


def mm_to_px(mm: float, dpi: int) -> int:
    return round(mm * dpi / MM_PER_IN)


def counter_px(opts: SheetOptions) -> int:
    """The counter edge in pixels (5/8" at 300 dpi is 188)."""
    return round(opts.counter_in * opts.dpi)


def page_px(opts: SheetOptions) -> tuple[int, int]:
    w, h = PAPER_MM[opts.paper]
    return mm_to_px(w, opts.dpi), mm_to_px(h, opts.dpi)


def page_pt(paper: str) -> tuple[float, float]:
    """Exact PDF page size in points (Letter 612 x 792, A4 595.28 x 841.89)."""
    w, h = PAPER_MM[paper]
    return w / MM_PER_IN * 72, h / MM_PER_IN * 72


def grid(opts: SheetOptions) -> Grid:
    """How many counters fit, and where the block sits (centred on the page).

    Counters fit inside the margins, as in the conventions table; bleed alone
    may run into the margin (it is cut off anyway). Cut marks must be printable,
    so with marks the bleed, a 1.5 mm gap and a 2 mm mark (5 mm with 1.5 mm
    bleed) must fit inside the margin too, which costs some sizes a row or
    column: Letter 1/2" 15 x 20, 9/16" 13 x 17, 3/4" 10 x 13, 1" 7 x 10;
    A4 1/2" 14 x 21, 5/8" 11 x 17, 3/4" 9 x 14, 1" 7 x 10 (Letter 5/8" keeps
    12 x 16 and A4 9/16" 13 x 19). ``cut_marks="none"`` gives the table's counts.
    """
    w, h = page_px(opts)
    pitch = counter_px(opts)
    bleed = mm_to_px(opts.bleed_mm, opts.dpi)
    margin = math.ceil(opts.margin_in * opts.dpi)
    marks = opts.cut_marks != "none"
    mark_start = bleed + mm_to_px(MARK_GAP_MM, opts.dpi)
    zone = mark_start + mm_to_px(MARK_MIN_MM, opts.dpi) if marks else 0  # bleed alone may use the margin
    cols = max(0, (w - 2 * margin - 2 * zone) // pitch)
    rows = max(0, (h - 2 * margin - 2 * zone) // pitch)
    origin = ((w - cols * pitch) // 2, (h - rows * pitch) // 2)
    offset = (mm_to_px(opts.back_offset_mm[0], opts.dpi), mm_to_px(opts.back_offset_mm[1], opts.dpi))
    return Grid((w, h), pitch, bleed, margin, mark_start, cols, rows, origin, offset)


def mirror_point(g: Grid, point: tuple[int, int], duplex: str) -> tuple[int, int]:
    """The back-page point behind a front-page point, shifted by the back offset."""
    x, y = point
    if duplex == "long":
        x = g.page[0] - x
    else:
        y = g.page[1] - y
    return x + g.back_offset[0], y + g.back_offset[1]


def back_position(g: Grid, front: tuple[int, int], duplex: str) -> tuple[int, int]:
    """Top-left of the back page cell that lies behind the front cell at ``front``."""
    x, y = mirror_point(g, front, duplex)
    return (x - g.pitch, y) if duplex == "long" else (x, y - g.pitch)


def layout_sheets(items: Sequence[SheetItem], opts: SheetOptions) -> list[SheetPage]:
    """Fill sheets row by row in item order; every item gets exactly one cell."""
    g = grid(opts)
    if g.per_sheet == 0:
        raise ValueError(f'No {opts.counter_in}" counter fits on {opts.paper} with {opts.margin_in}" margins')
    pages = []
    for start in range(0, len(items), g.per_sheet):
        placements = []
        for i in range(start, min(start + g.per_sheet, len(items))):
            row, col = divmod(i - start, g.cols)
            front = (g.origin[0] + col * g.pitch, g.origin[1] + row * g.pitch)
            placements.append(Placement(i, items[i].name, row, col, front, back_position(g, front, opts.duplex)))
        pages.append(SheetPage(len(pages) + 1, g, tuple(placements)))
    return pages


# --- drawing a counter page ---------------------------------------------------


def _crop(image: Image.Image, pitch: int, bleed: int) -> Image.Image:
    """The centred ``pitch + 2*bleed`` square of a face, as much bleed as it has."""
    have = max(0, (min(image.size) - pitch) // 2)
    b = min(have, bleed)
    x0 = (image.width - pitch) // 2 - b
    y0 = (image.height - pitch) // 2 - b
    return image.convert("RGB").crop((x0, y0, x0 + pitch + 2 * b, y0 + pitch + 2 * b))


def _open_sides(at: tuple[int, int], pitch: int, taken: set[tuple[int, int]]) -> tuple[int, int, int, int]:
    """Which page sides (left, top, right, bottom) of the cell at ``at`` have no cell in ``taken``, as 0/1."""
    x, y = at
    return tuple(int(n not in taken) for n in ((x - pitch, y), (x, y - pitch), (x + pitch, y), (x, y + pitch)))


def _taken_cells(sheet: SheetPage, side: str, opts: SheetOptions) -> set[tuple[int, int]]:
    """Cells that block a neighbour's bleed: the whole grid, or only the placed counters."""
    if not opts.bleed_outer_only:
        return {getattr(p, side) for p in sheet.placements}
    g = sheet.grid
    fronts = [(g.origin[0] + c * g.pitch, g.origin[1] + r * g.pitch) for r in range(g.rows) for c in range(g.cols)]
    return set(fronts) if side == "front" else {back_position(g, f, opts.duplex) for f in fronts}


def _paste_bleed(
    page: Image.Image, art: Image.Image, at: tuple[int, int], pitch: int, sides: tuple[int, int, int, int]
) -> None:
    """Paste the parts of a face's bleed that lie beside its open sides (and corners between two)."""
    b = (art.width - pitch) // 2
    if not b or not any(sides):
        return
    left, top, right, bottom = sides
    spans_x = [(0, b, left), (b, b + pitch, 1), (b + pitch, 2 * b + pitch, right)]
    spans_y = [(0, b, top), (b, b + pitch, 1), (b + pitch, 2 * b + pitch, bottom)]
    for x0, x1, open_x in spans_x:
        for y0, y1, open_y in spans_y:
            is_bleed = (x0, y0) != (b, b)
            if is_bleed and open_x and open_y:
                page.paste(art.crop((x0, y0, x1, y1)), (at[0] - b + x0, at[1] - b + y0))


def _paste_counters(
    page: Image.Image, sheet: SheetPage, faces: list[Image.Image | None], side: str, opts: SheetOptions
) -> None:
    """Each counter's cut square, plus its bleed wherever no neighbour takes that edge.

    A placed counter without this face (a single-sided counter's back) still
    counts as a neighbour, so its blank back gets no one else's bleed.
    """
    g = sheet.grid
    taken = _taken_cells(sheet, side, opts)
    for p, face in zip(sheet.placements, faces):
        if face is None:
            continue
        at = getattr(p, side)
        _paste_bleed(page, _crop(face, g.pitch, g.bleed), at, g.pitch, _open_sides(at, g.pitch, taken))
        page.paste(_crop(face, g.pitch, 0), at)


def _cut_positions(sheet: SheetPage, side: str) -> tuple[list[int], list[int], tuple[int, int, int, int]]:
    """Cut-line coordinates on one side and the block's bounding box there."""
    pitch = sheet.grid.pitch
    xs = sorted({getattr(p, side)[0] + d for p in sheet.placements for d in (0, pitch)})
    ys = sorted({getattr(p, side)[1] + d for p in sheet.placements for d in (0, pitch)})
    return xs, ys, (xs[0], ys[0], xs[-1], ys[-1])


def _vline(draw: ImageDraw.ImageDraw, x: int, y0: int, y1: int, width: int, fill) -> None:
    if y1 > y0:
        draw.rectangle((x - width // 2, y0, x - width // 2 + width - 1, y1 - 1), fill=fill)


def _hline(draw: ImageDraw.ImageDraw, y: int, x0: int, x1: int, width: int, fill) -> None:
    if x1 > x0:
        draw.rectangle((x0, y - width // 2, x1 - 1, y - width // 2 + width - 1), fill=fill)


MARK_MAX_MM = 8.0
"""Cut marks stop this far out: on a part-filled sheet they must not run down the empty page."""


def _draw_cuts(page: Image.Image, sheet: SheetPage, side: str, opts: SheetOptions) -> None:
    """Cut marks in the margin zone beside every cut line; optionally full-length lines."""
    marks = opts.cut_marks in (side, "both")
    lines = opts.cut_lines and (marks or (opts.cut_marks == "none" and side == "front"))
    if not sheet.placements or not (marks or lines):
        return
    g = sheet.grid
    draw = ImageDraw.Draw(page)
    width = max(1, mm_to_px(MARK_WIDTH_MM, opts.dpi))
    xs, ys, (bx0, by0, bx1, by1) = _cut_positions(sheet, side)
    lo, hi_x, hi_y = g.margin, g.page[0] - g.margin, g.page[1] - g.margin
    if lines:
        for x in xs:
            _vline(draw, x, lo, hi_y, width, (90, 90, 90))
        for y in ys:
            _hline(draw, y, lo, hi_x, width, (90, 90, 90))
    if marks:  # from just outside the bleed towards the page edge, at most MARK_MAX_MM long
        reach = mm_to_px(MARK_MAX_MM, opts.dpi)
        for x in xs:
            _vline(draw, x, max(lo, by0 - g.mark_start - reach), by0 - g.mark_start, width, BLACK)
            _vline(draw, x, by1 + g.mark_start, min(hi_y, by1 + g.mark_start + reach), width, BLACK)
        for y in ys:
            _hline(draw, y, max(lo, bx0 - g.mark_start - reach), bx0 - g.mark_start, width, BLACK)
            _hline(draw, y, bx1 + g.mark_start, min(hi_x, bx1 + g.mark_start + reach), width, BLACK)


def render_sheet_side(sheet: SheetPage, items: Sequence[SheetItem], side: str, opts: SheetOptions) -> Image.Image:
    """One page of a sheet ('front' or 'back') as an RGB image at the print dpi."""
    page = Image.new("RGB", sheet.grid.page, WHITE)
    faces = [getattr(items[p.item], side) for p in sheet.placements]
    _paste_counters(page, sheet, faces, side, opts)
    _draw_cuts(page, sheet, side, opts)
    return page


# --- index page -----------------------------------------------------------------


def _index_lines(sheets: Sequence[SheetPage], two_sided: bool) -> list[tuple[str, bool]]:
    """(text, is_heading) lines listing every counter by sheet, row and column (the sheets are the first
    pages of the PDF: a front and its back each, or fronts only)."""
    lines: list[tuple[str, bool]] = []
    for s in sheets:
        front = 2 * s.sheet - 1 if two_sided else s.sheet
        pages = f"pages {front}-{front + 1}" if two_sided else f"page {front}"
        lines.append((f"Sheet {s.sheet}  ({pages})", True))
        lines += [(_run_line(run), False) for run in _runs(s.placements)]
    return lines


def _runs(placements: Sequence[Placement]) -> list[list[Placement]]:
    """Consecutive copies of one counter in one row, grouped (30 'Overrun' markers are one line)."""
    runs: list[list[Placement]] = []
    for p in placements:
        last = runs[-1][-1] if runs else None
        if last and last.name == p.name and last.row == p.row and last.col + 1 == p.col:
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def _run_line(run: list[Placement]) -> str:
    first, last = run[0], run[-1]
    if len(run) == 1:
        return f"r{first.row + 1:02d} c{first.col + 1:02d}  {first.name}"
    return f"r{first.row + 1:02d} c{first.col + 1:02d}-{last.col + 1:02d}  {first.name} x{len(run)}"


def _index_header(title: str, opts: SheetOptions, g: Grid, sheets: int, two_sided: bool = True) -> list[str]:
    flip = (
        "long edge (backs mirrored left-right)" if opts.duplex == "long" else "short edge (backs mirrored top-bottom)"
    )
    dx, dy = opts.back_offset_mm
    size = (
        f'{opts.paper.upper() if opts.paper == "a4" else "Letter"}, {opts.counter_in:g}" counters, '
        f"{g.cols} x {g.rows} per sheet, {sheets} sheet(s). Print at 100% (actual size), {opts.dpi} dpi."
    )
    if not two_sided:
        return [
            title,
            size,
            "Every counter is one-sided: print one-sided (simplex), one page a sheet.",
            "Cut along the marks: one cut serves two counters. This index follows the sheets.",
        ]
    return [
        title,
        size,
        f"Duplex: flip on the {flip}. Back offset {dx:+.1f} mm x, {dy:+.1f} mm y.",
        "Each sheet is a front page followed by its back page. Cut along the marks: one cut serves two counters.",
    ]


def _render_index(
    title: str, opts: SheetOptions, sheets: Sequence[SheetPage], two_sided: bool = True
) -> list[Image.Image]:
    """Index pages, printed after the sheets (so the sheets start the PDF on a front, and no page is left blank)."""
    g = sheets[0].grid if sheets else grid(opts)
    px = opts.dpi / 72
    body, bold = font(INDEX_TEXT_PT * px), font(INDEX_TEXT_PT * px, bold=True)
    line_h = round(INDEX_TEXT_PT * 1.35 * px)
    header = _index_header(title, opts, g, len(sheets), two_sided)
    per_page = _index_capacity(g, line_h, len(header))
    count = max(1, math.ceil(sum(len(s.placements) + 1 for s in sheets) / per_page))
    lines = _index_lines(sheets, two_sided)
    pages = []
    for n in range(count):
        page = Image.new("L", g.page, 255)
        draw = ImageDraw.Draw(page)
        x, y = g.margin + round(0.25 * opts.dpi), g.margin + round(0.25 * opts.dpi)
        heading = [f"{title} - index, page {n + 1}"]
        for i, text in enumerate(header if n == 0 else heading):
            draw.text((x, y), text, font=font(INDEX_TEXT_PT * px * (1.6 if i == 0 else 1), bold=i == 0), fill=0)
            y += round(line_h * (1.8 if i == 0 else 1))
        chunk = lines[n * per_page : (n + 1) * per_page]
        _draw_columns(draw, chunk, (x, y + line_h), g, line_h, body, bold)
        pages.append(page)
    return pages


INDEX_COLUMNS = 3


def _index_capacity(g: Grid, line_h: int, header_lines: int) -> int:
    usable = g.page[1] - 2 * g.margin - round(2.2 * line_h) * 2 - (header_lines + 2) * line_h
    return max(1, usable // line_h) * INDEX_COLUMNS


def _draw_columns(
    draw: ImageDraw.ImageDraw, lines: list[tuple[str, bool]], at: tuple[int, int], g: Grid, line_h: int, body, bold
) -> None:
    per_col = math.ceil(len(lines) / INDEX_COLUMNS) if lines else 0
    col_w = (g.page[0] - 2 * at[0]) // INDEX_COLUMNS
    for i, (text, heading) in enumerate(lines):
        col, row = divmod(i, max(1, per_col))
        f = _narrowed(text, bold if heading else body, col_w - line_h)
        draw.text((at[0] + col * col_w, at[1] + row * line_h), _clip(text, f, col_w - line_h), font=f, fill=0)


def _narrowed(text: str, f, width: int):
    """The font ``f`` or, for a line too long for its column, a smaller one (never below 6 pt at the
    index's scale, 2/3 of its size): a line is shrunk before it is ever cut."""
    if f.getlength(text) <= width:
        return f
    size = max(f.size * 2 / 3, f.size * width / max(1, f.getlength(text)))
    return font(size, bold="Bold" in (f.getname()[1] or ""))


def _clip(text: str, f, width: int) -> str:
    while len(text) > 4 and f.getlength(text) > width:
        text = text[:-2] + "…"
    return text


# --- writing the PDF --------------------------------------------------------------


def _png(image: Image.Image) -> bytes:
    """Lossless page bytes: palette when the page has few colours, else RGB/L."""
    colours = image.getcolors(256) if image.mode == "RGB" else None
    if colours:
        palette = Image.new("P", (1, 1))
        palette.putpalette([c for _, rgb in sorted(colours, key=lambda c: c[1]) for c in rgb])
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)  # exact: every colour is in it
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def pdf_bytes(pages: Iterable[bytes], paper: str, title: str) -> bytes:
    """A PDF of exact paper size, one PNG per page, with no timestamps."""
    img2pdf = load_img2pdf()
    layout = img2pdf.get_layout_fun(pagesize=page_pt(paper))
    return img2pdf.convert(
        list(pages),
        layout_fun=layout,
        title=title,
        nodate=True,
        rotation=img2pdf.Rotation.none,
        engine=img2pdf.Engine.internal,
    )  # Rotation.none: img2pdf would decode each page for EXIF


SheetRenderer = Callable[[Sequence[SheetPage]], Iterable[tuple[bytes, bytes]]]
IndexRenderer = Callable[[str, SheetOptions, Sequence[SheetPage], bool], list[bytes]]


def index_pngs(title: str, opts: SheetOptions, sheets: Sequence[SheetPage], two_sided: bool) -> list[bytes]:
    """The index pages as PNG bytes: they show the title, the options and each placement's name and cell."""
    return [_png(page) for page in _render_index(title, opts, sheets, two_sided)]


def sheet_pngs(sheet: SheetPage, items, opts: SheetOptions) -> tuple[bytes, bytes]:
    """The front and back page of one sheet as PNG bytes (``items`` may be any index -> SheetItem lookup)."""
    return tuple(_png(render_sheet_side(sheet, items, side, opts)) for side in ("front", "back"))


def write_sheets_pdf(
    items: Sequence[SheetItem],
    opts: SheetOptions,
    path: str | os.PathLike,
    title: str,
    progress: Progress = SILENT,
    render: SheetRenderer | None = None,
    index: IndexRenderer | None = None,
) -> SheetReport:
    """Front and back page of every sheet (fronts only when no counter has a back), then the index page(s);
    ``progress.advance(done, total)`` per page.

    ``render`` turns the laid-out sheets into (front, back) PNG pairs, in order; the default draws
    them here from ``items``. A caller with many counters passes one that draws sheets in parallel
    processes, where only the names in ``items`` are needed for the layout and the index. ``index`` makes
    the index pages' PNGs (`index_pngs`'s arguments; a caller may take them from a cache).
    """
    sheets = layout_sheets(items, opts)
    # start the sheets first: a parallel renderer works on them while the index is drawn here
    pairs = render(sheets) if render else (sheet_pngs(sheet, items, opts) for sheet in sheets)
    two_sided = any(item.back is not None for item in items)
    index_pages = (index or index_pngs)(title, opts, sheets, two_sided)
    total = len(index_pages) + (2 if two_sided else 1) * len(sheets)
    pngs: list[bytes] = []

    def add(png: bytes) -> None:
        pngs.append(png)
        progress.advance(len(pngs), total)

    for front, back in pairs:
        add(front)
        if two_sided:
            add(back)
    for png in index_pages:
        add(png)
    target = Path(path)
    atomic.write_bytes(target, pdf_bytes(pngs, opts.paper, title))
    g = grid(opts)
    return SheetReport(target, total, len(index_pages), len(sheets), len(items), g.cols, g.rows, g.pitch)


# --- duplex calibration ---------------------------------------------------------

CALIBRATION_SPAN_MM = 6
"""The back's scales read -6 .. +6 mm."""

SCALE_OFFSET_MM = 9
"""Scales sit this far from the point they measure, where the front's arms cross them."""


def _calibration_points(g: Grid, dpi: int) -> list[tuple[int, int]]:
    """Centre and four points 1.25" in from the printable corners."""
    w, h = g.page
    inset = g.margin + round(1.25 * dpi)
    return [(w // 2, h // 2), (inset, inset), (w - inset, inset), (inset, h - inset), (w - inset, h - inset)]


def _crosshair(draw: ImageDraw.ImageDraw, x: int, y: int, dpi: int) -> None:
    arm, width = mm_to_px(SCALE_OFFSET_MM + 4, dpi), max(1, mm_to_px(0.2, dpi))
    _vline(draw, x, y - arm, y + arm + 1, width, BLACK)
    _hline(draw, y, x - arm, x + arm + 1, width, BLACK)
    r = mm_to_px(3, dpi)
    draw.ellipse((x - r, y - r, x + r, y + r), outline=BLACK, width=width)


def _scale(draw: ImageDraw.ImageDraw, x: int, y: int, dpi: int, axis: str) -> None:
    """A millimetre scale whose zero is level with (x, y): X below the point, Y to its right."""
    label_font = font(7 / 72 * dpi)
    width = max(1, mm_to_px(0.12, dpi))
    away = mm_to_px(SCALE_OFFSET_MM, dpi)
    span = round(CALIBRATION_SPAN_MM * dpi / MM_PER_IN)
    if axis == "x":
        _hline(draw, y + away, x - span, x + span + 1, width, BLACK)
    else:
        _vline(draw, x + away, y - span, y + span + 1, width, BLACK)
    for half_mm in range(-2 * CALIBRATION_SPAN_MM, 2 * CALIBRATION_SPAN_MM + 1):
        d = round(half_mm / 2 * dpi / MM_PER_IN)
        length = mm_to_px(3.0 if half_mm % 10 == 0 else 2.0 if half_mm % 2 == 0 else 1.0, dpi)
        label = f"{half_mm // 2:+d}".replace("+0", "0") if half_mm % 10 == 0 else ""
        if axis == "x":
            _vline(draw, x + d, y + away - length, y + away, width, BLACK)
            if label:
                draw.text((x + d, y + away + mm_to_px(1, dpi)), label, font=label_font, fill=BLACK, anchor="mt")
        else:
            _hline(draw, y + d, x + away - length, x + away, width, BLACK)
            if label:
                draw.text((x + away + mm_to_px(1, dpi), y + d), label, font=label_font, fill=BLACK, anchor="lm")
    gap = mm_to_px(2, dpi)
    tag_at, anchor = ((x - span - gap, y + away), "rm") if axis == "x" else ((x + away, y - span - gap), "mb")
    draw.text(tag_at, axis.upper(), font=font(9 / 72 * dpi, bold=True), fill=BLACK, anchor=anchor)


def _calibration_text(draw: ImageDraw.ImageDraw, g: Grid, opts: SheetOptions, lines: list[str]) -> None:
    f = font(9 / 72 * opts.dpi)
    y = g.margin + mm_to_px(4, opts.dpi)
    for line in lines:
        draw.text((g.page[0] // 2, y), line, font=f, fill=BLACK, anchor="mt")
        y += round(9 / 72 * opts.dpi * 1.4)


def render_calibration(opts: SheetOptions) -> tuple[Image.Image, Image.Image]:
    """Front (crosshairs) and back (rulers behind each crosshair, with the current offset applied)."""
    g = grid(opts)
    front, back = Image.new("RGB", g.page, WHITE), Image.new("RGB", g.page, WHITE)
    fd, bd = ImageDraw.Draw(front), ImageDraw.Draw(back)
    for x, y in _calibration_points(g, opts.dpi):
        _crosshair(fd, x, y, opts.dpi)
        bx, by = mirror_point(g, (x, y), opts.duplex)
        _scale(bd, bx, by, opts.dpi, "x")
        _scale(bd, bx, by, opts.dpi, "y")
    dx, dy = opts.back_offset_mm
    _calibration_text(
        fd,
        g,
        opts,
        [
            "Duplex calibration - FRONT",
            f"Print both pages double-sided, flip on the {opts.duplex} edge, at 100% scale.",
            "Hold the sheet up to a light and read the scales on the back.",
        ],
    )
    _calibration_text(
        bd,
        g,
        opts,
        [
            "Duplex calibration - BACK (this side up)",
            "Read where the front's vertical line crosses the horizontal scale (X, + to the right)",
            "and where its horizontal line crosses the vertical scale (Y, + downwards).",
            f"New back offset = current ({dx:+.1f}, {dy:+.1f}) mm + (X, Y) read here.",
        ],
    )
    return front, back


def write_calibration_pdf(opts: SheetOptions, path: str | os.PathLike) -> Path:
    """A two-page duplex calibration PDF for measuring the back offset in mm."""
    front, back = render_calibration(opts)
    target = Path(path)
    atomic.write_bytes(target, pdf_bytes([_png(front), _png(back)], opts.paper, "Duplex calibration"))
    return target
