"""Print-and-play sheets: grid counts, duplex registration, offsets, cut marks, the PDF itself."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from authoring.progress import Recorder
from authoring.render.counters.face import FaceArt, draw_face
from authoring.render.print.sheets import (
    SheetItem,
    SheetOptions,
    grid,
    layout_sheets,
    mm_to_px,
    render_calibration,
    render_sheet_side,
    write_calibration_pdf,
    write_sheets_pdf,
)

LOW = dict(dpi=60)  # 5/8" = 38 px, 1.5 mm bleed = 4 px: fast pixel tests


def colour(i: int, back: bool) -> tuple[int, int, int]:
    """A unique solid colour per counter and side (never white or black)."""
    return (20 + (i * 37) % 200, 30 + (i * 53) % 190 + (15 if back else 0), 128 if back else 60)


def solid_items(n: int, opts: SheetOptions, backs: bool = True) -> list[SheetItem]:
    g = grid(opts)
    side = g.pitch + 2 * g.bleed
    return [
        SheetItem(
            f"c{i}",
            Image.new("RGB", (side, side), colour(i, False)),
            Image.new("RGB", (side, side), colour(i, True)) if backs else None,
        )
        for i in range(n)
    ]


def centroid(page: Image.Image, rgb: tuple[int, int, int]) -> tuple[float, float, int]:
    """Centre (continuous px coordinates) and area of all pixels of one colour."""
    mask = Image.eval(page.convert("RGB").point(lambda v: v), lambda v: v)
    r, g, b = (mask.getchannel(c).tobytes() for c in "RGB")
    w = page.width
    xs = ys = n = 0
    for i in range(len(r)):
        if (r[i], g[i], b[i]) == rgb:
            xs += i % w
            ys += i // w
            n += 1
    assert n, rgb
    return xs / n + 0.5, ys / n + 0.5, n


TABLE = {  # print-and-play.md: counters per sheet with 0.25" margins and no gutter
    ("letter", 0.5): (16, 21),
    ("letter", 0.5625): (14, 18),
    ("letter", 0.625): (12, 16),
    ("letter", 0.75): (10, 14),
    ("letter", 1.0): (8, 10),
    ("a4", 0.5): (15, 22),
    ("a4", 0.5625): (13, 19),
    ("a4", 0.625): (12, 17),
    ("a4", 0.75): (10, 14),
    ("a4", 1.0): (7, 11),
}

WITH_MARKS = {  # cut marks need 5 mm outside the block, inside the margin: documented reductions
    ("letter", 0.5): (15, 20),
    ("letter", 0.5625): (13, 17),
    ("letter", 0.625): (12, 16),
    ("letter", 0.75): (10, 13),
    ("letter", 1.0): (7, 10),
    ("a4", 0.5): (14, 21),
    ("a4", 0.5625): (13, 19),
    ("a4", 0.625): (11, 17),
    ("a4", 0.75): (9, 14),
    ("a4", 1.0): (7, 10),
}


@pytest.mark.parametrize("key", sorted(TABLE))
def test_counts_per_sheet_match_the_conventions_table(key):
    paper, size = key
    g = grid(SheetOptions(paper=paper, counter_in=size, cut_marks="none"))
    assert (g.cols, g.rows) == TABLE[key]
    marked = grid(SheetOptions(paper=paper, counter_in=size))
    assert (marked.cols, marked.rows) == WITH_MARKS[key]


def test_counter_pitch_and_bleed_at_300_dpi():
    g = grid(SheetOptions())
    assert (g.pitch, g.bleed, g.page) == (188, 18, (2550, 3300))
    assert grid(SheetOptions(paper="a4")).page == (2480, 3508)


def test_every_item_is_placed_exactly_once():
    opts = SheetOptions(counter_in=1.0, **LOW)
    items = solid_items(150, opts)
    sheets = layout_sheets(items, opts)
    placed = [p.item for s in sheets for p in s.placements]
    assert sorted(placed) == list(range(150))
    assert [len(s.placements) for s in sheets] == [70, 70, 10]
    cells = {(s.sheet, p.row, p.col) for s in sheets for p in s.placements}
    assert len(cells) == 150


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_lands_behind_its_front_after_folding(duplex):
    opts = SheetOptions(duplex=duplex, **LOW)
    items = solid_items(40, opts)
    sheet = layout_sheets(items, opts)[0]
    front = render_sheet_side(sheet, items, "front", opts)
    back = render_sheet_side(sheet, items, "back", opts)
    w, h = front.size
    tolerance_px = 0.1 / 25.4 * opts.dpi
    for p in sheet.placements[::7]:
        fx, fy, fn = centroid(front, colour(p.item, False))
        bx, by, bn = centroid(back, colour(p.item, True))
        folded = (w - fx, fy) if duplex == "long" else (fx, h - fy)
        assert abs(folded[0] - bx) <= tolerance_px and abs(folded[1] - by) <= tolerance_px, p
    first = sheet.placements[0]
    if duplex == "long":
        assert first.back[0] > w / 2 > first.front[0] and first.back[1] == first.front[1]
    else:
        assert first.back[1] > h / 2 > first.front[1] and first.back[0] == first.front[0]


def test_back_offset_shifts_backs_by_the_given_mm():
    base = SheetOptions(dpi=120, counter_in=1.0)
    shifted = SheetOptions(dpi=120, counter_in=1.0, back_offset_mm=(2.0, -1.5))
    items = solid_items(3, base)
    a = render_sheet_side(layout_sheets(items, base)[0], items, "back", base)
    b = render_sheet_side(layout_sheets(items, shifted)[0], items, "back", shifted)
    ax, ay, _ = centroid(a, colour(1, True))
    bx, by, _ = centroid(b, colour(1, True))
    assert abs((bx - ax) - 2.0 * 120 / 25.4) <= 1
    assert abs((by - ay) + 1.5 * 120 / 25.4) <= 1
    fa = render_sheet_side(layout_sheets(items, base)[0], items, "front", base)
    fb = render_sheet_side(layout_sheets(items, shifted)[0], items, "front", shifted)
    assert fa.tobytes() == fb.tobytes()


def test_bleed_only_outside_the_block_and_cut_marks_beyond_it():
    opts = SheetOptions(dpi=150, counter_in=1.0)
    g = grid(opts)
    items = solid_items(g.per_sheet, opts)
    sheet = layout_sheets(items, opts)[0]
    page = render_sheet_side(sheet, items, "front", opts)
    x0, y0 = g.origin
    top_left = sheet.placements[0]
    assert page.getpixel((x0 - 1, y0 + 5)) == colour(top_left.item, False)  # bleed, left edge
    assert page.getpixel((x0 - g.bleed, y0 - g.bleed)) == colour(top_left.item, False)  # bleed corner
    assert page.getpixel((x0 - g.bleed - 1, y0 + 5)) == (255, 255, 255)
    second = sheet.placements[1]
    assert page.getpixel((x0 + g.pitch, y0 - 1)) == colour(second.item, False)  # its own bleed above
    cut_x = x0 + g.pitch
    column = [page.getpixel((cut_x, y)) for y in range(0, y0 - g.bleed)]
    black = [y for y, px in enumerate(column) if px == (0, 0, 0)]
    assert black and min(black) >= g.margin and max(black) < y0 - g.mark_start
    assert g.mark_start - g.bleed == mm_to_px(1.5, opts.dpi)


def test_single_sided_counters_leave_their_back_blank():
    opts = SheetOptions(counter_in=1.0, **LOW)
    items = solid_items(6, opts)
    items[2] = SheetItem("marker", items[2].front, None)
    sheet = layout_sheets(items, opts)[0]
    back = render_sheet_side(sheet, items, "back", opts)
    x, y = sheet.placements[2].back
    g = sheet.grid
    region = back.crop((x, y, x + g.pitch, y + g.pitch))
    assert region.getcolors() == [(g.pitch * g.pitch, (255, 255, 255))]


def test_cut_marks_and_lines_follow_the_options():
    opts = SheetOptions(counter_in=1.0, cut_marks="front", cut_lines=True, **LOW)
    items = solid_items(4, opts)
    sheet = layout_sheets(items, opts)[0]
    front = render_sheet_side(sheet, items, "front", opts)
    back = render_sheet_side(sheet, items, "back", opts)
    x = sheet.placements[0].front[0] + sheet.grid.pitch
    assert front.getpixel((x, sheet.grid.origin[1] + 5)) == (90, 90, 90)  # cut line across the art
    assert front.getpixel((x, sheet.grid.margin + 1)) in ((0, 0, 0), (90, 90, 90))
    assert back.crop((0, 0, back.width, sheet.grid.origin[1] - sheet.grid.bleed)).getcolors() == [
        (back.width * (sheet.grid.origin[1] - sheet.grid.bleed), (255, 255, 255))
    ]


def test_pdf_pages_sizes_lossless_images_and_determinism(tmp_path: Path):
    for paper, size in (("letter", (612, 792)), ("a4", (595.28, 841.89))):
        opts = SheetOptions(paper=paper, counter_in=1.0, **LOW)
        items = solid_items(75, opts, backs=False)
        calls = Recorder()
        out = tmp_path / f"{paper}.pdf"
        report = write_sheets_pdf(items, opts, out, "Test", progress=calls)
        reader = PdfReader(out)
        assert len(reader.pages) == report.pages == report.sheets + report.index_pages  # one-sided: fronts only
        assert report.index_pages >= 1 and report.sheets == 2 and report.counters == 75
        assert calls.advances == [(i, report.pages) for i in range(1, report.pages + 1)]
        for page in reader.pages:
            assert abs(float(page.mediabox.width) - size[0]) < 0.1
            assert abs(float(page.mediabox.height) - size[1]) < 0.1
            for obj in page["/Resources"]["/XObject"].values():
                assert obj.get_object()["/Filter"] == "/FlateDecode"
        assert "/CreationDate" not in (reader.metadata or {})
        again = tmp_path / f"{paper}-again.pdf"
        write_sheets_pdf(items, opts, again, "Test")
        assert again.read_bytes() == out.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a4-again.pdf", "a4.pdf", "letter-again.pdf", "letter.pdf"]


def png_unfilter(data: bytes, width: int, bits: int, colors: int) -> bytes:
    """Undo PNG row predictors (PDF /Predictor 15), as a reader of the PDF must."""
    bpp = max(1, bits * colors // 8)
    stride = (width * bits * colors + 7) // 8
    out, prev = bytearray(), bytearray(stride)
    for start in range(0, len(data), stride + 1):
        kind, row = data[start], bytearray(data[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row
        prev = row
    return bytes(out)


def pdf_image(page) -> Image.Image:
    """Decode a page's only image XObject ourselves (pypdf mis-applies the predictor to 4-bit images)."""
    (xobj,) = [o.get_object() for o in page["/Resources"]["/XObject"].values()]
    assert xobj["/Filter"] == "/FlateDecode"
    size, bits, space = (xobj["/Width"], xobj["/Height"]), xobj["/BitsPerComponent"], xobj["/ColorSpace"]
    indexed = isinstance(space, list) and space[0] == "/Indexed"
    colors = 1 if indexed else {"/DeviceRGB": 3, "/DeviceGray": 1}[space]
    data = png_unfilter(zlib.decompress(xobj._data), size[0], bits, colors)
    if indexed:
        image = Image.frombytes("P", size, data, "raw", "P" if bits == 8 else f"P;{bits}")
        lookup = space[3].get_object()
        raw = lookup.get_data() if hasattr(lookup, "get_data") else getattr(lookup, "original_bytes", lookup)
        image.putpalette(bytes(raw))
        return image.convert("RGB")
    return Image.frombytes("RGB" if colors == 3 else "L", size, data).convert("RGB")


def face_items(n: int, opts: SheetOptions) -> list[SheetItem]:
    """Real antialiased faces (thousands of colours, so the page is stored as RGB)."""
    g = grid(opts)
    symbols = ["armor", "infantry", "artillery", "cavalry", "mechanized"]
    arts = [
        FaceArt(f"#{40 * i + 60:02x}b0c8", "#000000", symbols[i % 5], "XX", "7 Pz", ("6", "3", "8"), boxed_value=2)
        for i in range(n)
    ]
    return [SheetItem(f"c{i}", draw_face(art, g.pitch, g.bleed, 6, 7.0)[0], None) for i, art in enumerate(arts)]


@pytest.mark.parametrize("make", [solid_items, face_items], ids=["palette", "rgb"])
def test_pdf_page_image_is_the_rendered_page(tmp_path: Path, make):
    opts = SheetOptions(counter_in=1.0, **LOW)
    items = make(5, opts)
    write_sheets_pdf(items, opts, tmp_path / "s.pdf", "T")
    page = PdfReader(tmp_path / "s.pdf").pages[0]  # the sheets come first, the index last
    embedded = pdf_image(page)
    assert (embedded.getcolors(256) is None) == (make is face_items)
    expected = render_sheet_side(layout_sheets(items, opts)[0], items, "front", opts)
    assert embedded.tobytes() == expected.tobytes()


def test_index_names_every_counter(tmp_path: Path):
    opts = SheetOptions(counter_in=1.0, dpi=100)
    items = solid_items(3, opts)
    items = [SheetItem(n, i.front, i.back) for n, i in zip(["Alpha", "Bravo", "Charlie"], items)]
    write_sheets_pdf(items, opts, tmp_path / "s.pdf", "Index test")
    index = pdf_image(PdfReader(tmp_path / "s.pdf").pages[-1])
    assert index.convert("L").getextrema() == (0, 255)


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.0, -2.0)])
def test_calibration_scales_zero_behind_the_front_crosshair(tmp_path: Path, offset):
    opts = SheetOptions(dpi=100, back_offset_mm=offset)
    front, back = render_calibration(opts)
    w, h = front.size
    cx, cy = w // 2, h // 2
    assert front.getpixel((cx, cy)) == (0, 0, 0)
    dx, dy = mm_to_px(offset[0], 100), mm_to_px(offset[1], 100)
    below = cy + mm_to_px(9, 100) - 2  # the X scale's zero tick, under the mirror of cx
    assert back.getpixel((w - cx + dx, below + dy)) == (0, 0, 0)
    assert back.getpixel((w - cx + dx + mm_to_px(0.25, 100), below + dy)) == (255, 255, 255)
    out = write_calibration_pdf(opts, tmp_path / "cal.pdf")
    assert len(PdfReader(out).pages) == 2


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="Expected paper one of: \\['a4', 'letter'\\] but received: 'legal'"):
        SheetOptions(paper="legal")
    with pytest.raises(ValueError):
        SheetOptions(margin_in=0.1)


def test_no_blank_page_and_backs_only_where_a_counter_has_one(tmp_path: Path):
    """Two-sided counters: front, back, then the index (no padding page). One-sided: fronts, then the index."""
    opts = SheetOptions(counter_in=1.0, **LOW)
    for backs, per_sheet in ((True, 2), (False, 1)):
        items = solid_items(75, opts, backs=backs)
        report = write_sheets_pdf(items, opts, tmp_path / f"{backs}.pdf", "T")
        pages = PdfReader(tmp_path / f"{backs}.pdf").pages
        assert len(pages) == per_sheet * report.sheets + report.index_pages
        for page in pages:
            image = pdf_image(page).convert("L")
            assert image.getextrema()[0] < 128  # every page prints something
        text = " ".join(page.extract_text() or "" for page in pages)
        assert "left blank" not in text
