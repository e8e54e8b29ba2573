"""Bundled font and unit symbols: real glyphs, every symbol drawn, all distinct."""

from __future__ import annotations

import itertools

import pytest
from PIL import ImageFont

from authoring.render.counters.symbols import SYMBOLS, render_symbol
from authoring.render.shared.fonts import FONT_DIR, FONT_FILES, font


def test_every_font_file_is_bundled_with_its_licence():
    for name in FONT_FILES.values():
        assert (FONT_DIR / name).stat().st_size > 100_000
    assert "Bitstream" in (FONT_DIR / "LICENSE.txt").read_text()


def test_font_is_scalable_and_cached():
    small, big = font(10, bold=True), font(40, bold=True)
    assert isinstance(big, ImageFont.FreeTypeFont)
    assert font(40, bold=True) is big
    assert big.getbbox("8")[3] > 3 * small.getbbox("8")[3] * 0.9
    assert font(40, bold=True).getlength("Shock") > font(40, bold=True, condensed=True).getlength("Shock")


@pytest.mark.parametrize("size", [(90, 60), (30, 20)])
def test_symbols_render_non_empty_and_distinct(size):
    images = {key: render_symbol(key, *size, "#000000", "#e0e0c0") for key in SYMBOLS}
    for key, image in images.items():
        assert image.size == size and image.mode == "RGBA"
        inked = sum(1 for a in image.getchannel("A").tobytes() if a > 0)
        if key == "marker":
            assert inked == 0
        else:
            assert inked > 0.05 * size[0] * size[1], key
    drawn = {k: v.tobytes() for k, v in images.items() if k != "marker"}
    for a, b in itertools.combinations(drawn, 2):
        assert drawn[a] != drawn[b], (a, b)


def test_symbols_are_antialiased_and_deterministic():
    one = render_symbol("infantry", 90, 60, "#000000")
    alphas = set(one.getchannel("A").tobytes())
    assert len(alphas) > 10  # partial coverage along the diagonals
    assert render_symbol("infantry", 90, 60, "#000000").tobytes() == one.tobytes()


def test_unknown_symbol_draws_the_fallback():
    assert render_symbol("zeppelin", 60, 40, "#000").tobytes() == render_symbol("fallback", 60, 40, "#000").tobytes()


def test_symbol_ink_stays_in_its_box_colour():
    image = render_symbol("armor", 60, 40, "#ff0000", "#0000ff")
    r, g, b, a = (image.getchannel(c).tobytes() for c in "RGBA")
    colours = {(r[i], g[i], b[i]) for i in range(len(a)) if a[i] == 255}
    assert (255, 0, 0) in colours and (0, 0, 255) in colours


# --- each symbol against its defining strokes ------------------------------------------------
# Points are fractions of the frame's inner box (inside the outline) of a 300 x 200 symbol; each
# must be inked (True) or bare (False) within a stroke's width. "x" is the infantry cross.

CROSS = [(0.25, 0.25, True), (0.75, 0.25, True), (0.5, 0.5, True)]
NO_CROSS = [(0.25, 0.25, False), (0.75, 0.75, False)]
OVAL = [(0.5, 0.27, True), (0.2, 0.5, True)]
STROKES = {
    "infantry": CROSS + [(0.5, 0.15, False), (0.5, 0.85, False)],
    "armor": OVAL + NO_CROSS + [(0.5, 0.5, False)],
    "mechanized": CROSS + OVAL,
    "motorized": CROSS + [(0.5, 0.12, True), (0.5, 0.88, True)],
    "cavalry": [(0.25, 0.75, True), (0.75, 0.25, True), (0.25, 0.25, False), (0.75, 0.75, False)],
    "recon": [(0.75, 0.25, True), (0.25, 0.25, False)] + OVAL,
    "motorized-recon": [(0.75, 0.25, True), (0.25, 0.25, False), (0.5, 0.12, True)],
    "artillery": [(0.5, 0.5, True)] + NO_CROSS,
    "self-propelled-artillery": [(0.5, 0.35, True), (0.5, 0.7, True), (0.25, 0.25, False), (0.5, 0.55, False)],
    "rocket": [(0.5, 0.12, True), (0.5, 0.65, True)] + NO_CROSS,
    "antitank": [(0.5, 0.03, True), (0.25, 0.5, True), (0.5, 0.5, False)],
    "antiaircraft": [(0.5, 0.36, True), (0.5, 0.6, False)] + NO_CROSS,
    "engineer": [(0.5, 0.3, True), (0.25, 0.6, True), (0.75, 0.6, True), (0.5, 0.85, False)],
    "mountain": CROSS + [(0.5, 0.9, True)],
    "ski": CROSS + [(0.45, 0.84, True)],
    "shock": CROSS + [(0.5, 0.15, True)],
    "guards": CROSS + [(0.5, 0.24, True)],
    "airborne": CROSS + [(0.38, 0.8, True), (0.62, 0.8, True)],
    "security": [(0.5, 0.5, True), (0.1, 0.1, False), (0.9, 0.9, False)],
    "signal": [(0.05, 0.05, True), (0.95, 0.95, True), (0.95, 0.05, False)],
    "medical": [(0.5, 0.25, True), (0.3, 0.5, True), (0.25, 0.25, False)],
    "supply": [(0.5, 0.68, True), (0.5, 0.4, False)] + NO_CROSS,
    "naval": [(0.5, 0.5, True), (0.5, 0.2, True)] + NO_CROSS,
    "air": [(0.5, 0.5, True), (0.2, 0.5, True), (0.8, 0.5, True)] + NO_CROSS,
    # a rail car on wheels on a rail line, no armour oval (Typhoon 13.3.2: not an armoured unit)
    "armored-train": [(0.5, 0.3, True), (0.5, 0.46, False), (0.1, 0.84, True), (0.9, 0.84, True), (0.1, 0.45, False)],
    # unframed: an arrow up the middle; the bridge adds a span across it
    "arrow": [(0.5, 0.08, True), (0.5, 0.8, True), (0.1, 0.8, False), (0.9, 0.3, False)],
    "bridge": [(0.5, 0.08, True), (0.3, 0.65, True), (0.06, 0.85, True), (0.94, 0.85, True), (0.2, 0.3, False)],
}


def _inner_box(width: int, height: int) -> tuple[float, float, float, float]:
    from authoring.render.counters.symbols import FRAME_RATIO, STROKE_RATIO

    stroke = max(1.0, STROKE_RATIO * min(height, width / FRAME_RATIO))
    x0, y0, x1, y1 = stroke / 2, stroke / 2, width - stroke / 2, height - stroke / 2
    fh = min(y1 - y0, (x1 - x0) / FRAME_RATIO)
    fw = fh * FRAME_RATIO
    fx, fy = (width - fw) / 2, (height - fh) / 2
    s = max(1, round(stroke))
    return fx + s, fy + s, fx + fw - s, fy + fh - s


def _inked_near(image, x: float, y: float, r: int) -> bool:
    alpha = image.getchannel("A")
    return any(
        alpha.getpixel((min(image.width - 1, max(0, round(x) + dx)), min(image.height - 1, max(0, round(y) + dy)))) > 96
        for dx in range(-r, r + 1)
        for dy in range(-r, r + 1)
    )


@pytest.mark.parametrize("key", sorted(STROKES))
def test_symbol_has_its_defining_strokes(key):
    image = render_symbol(key, 300, 200, "#000000")
    x0, y0, x1, y1 = _inner_box(300, 200)
    for fx, fy, inked in STROKES[key]:
        x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        assert _inked_near(image, x, y, 4) == inked, (key, fx, fy, inked)


def test_every_land_symbol_has_a_stroke_test():
    """The APP-6 land set hex wargames use; aircraft silhouettes and the HQ staff are checked elsewhere."""
    untested = set(SYMBOLS) - set(STROKES) - {"marker", "fallback", "fighter", "bomber", "hq"}
    assert untested == set()


def test_hq_is_a_flagged_frame_on_a_staff():
    image = render_symbol("hq", 300, 200, "#000000")
    staff = [x for x in range(300) if image.getchannel("A").getpixel((x, 190)) > 96]
    assert staff and max(staff) < 80 and max(staff) - min(staff) < 20  # one staff, under the left edge
    assert _inked_near(image, 150, 60, 4)  # the flag in the frame


def test_aliases_and_size_marks():
    from authoring.render.counters.symbols import render_size_mark, size_mark_is_drawn, symbol_key

    assert symbol_key("anti-tank") == "antitank" and symbol_key("flak") == "antiaircraft"
    assert symbol_key("armored-cavalry") == "recon"
    assert size_mark_is_drawn("group") and not size_mark_is_drawn("XXXXX")
    mark = render_size_mark("group", 60, 20, "#000000")
    assert _inked_near(mark, 3, 18, 2) and _inked_near(mark, 57, 18, 2) and _inked_near(mark, 30, 8, 2)


def _drawn(face: ImageFont.FreeTypeFont, times: int) -> bytes:
    """Strings drawn again and again at fractional positions, with and without a halo, as cards draw them."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (400, 120), "white")
    draw = ImageDraw.Draw(image)
    for i in range(times):
        for j, text in enumerate(("4-6", "12/3 Pz", "0712")):
            draw.text(
                (10.25 + 37 * i, 20.5 + 30 * j),
                text,
                fill="black",
                font=face,
                anchor="mm",
                stroke_width=2 if j == 1 else 0,
                stroke_fill="yellow",
            )
    return image.tobytes()


def test_remembered_masks_draw_the_same_pixels_as_freetype():
    from authoring.render.shared.fonts import FONT_FILES, MemoFont, font

    remembered = font(17.5, bold=True)
    plain = ImageFont.truetype(str(FONT_DIR / FONT_FILES[(True, False)]), 17.5, layout_engine=ImageFont.Layout.BASIC)
    assert isinstance(remembered, MemoFont)
    assert _drawn(remembered, 10) == _drawn(plain, 10)
    masks = remembered.memos["getmask2"]
    assert len(masks) == 4  # three strings and one halo, each drawn ten times
    assert remembered.getbbox("4-6", anchor="mm") == plain.getbbox("4-6", anchor="mm")


def test_the_memo_is_bounded_and_skips_colour_masks(monkeypatch):
    from authoring.render.shared import fonts

    monkeypatch.setattr(fonts, "MEMO_ENTRIES", 5)
    face = fonts.MemoFont(str(FONT_DIR / FONT_FILES[(False, False)]), 12)
    for i in range(12):
        face.getlength(str(i))
    assert 0 < len(face.memos["getlength"]) <= 5
    face.getmask2("A", "RGBA", ink=0xFF0000FF)
    assert not face.memos.get("getmask2")
