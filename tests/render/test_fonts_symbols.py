"""Bundled font and unit symbols: real glyphs, every symbol drawn, all distinct."""
from __future__ import annotations

import itertools

import pytest
from PIL import ImageFont

from authoring.render.fonts import FONT_DIR, FONT_FILES, font
from authoring.render.symbols import SYMBOLS, render_symbol


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
    assert len(alphas) > 10   # partial coverage along the diagonals
    assert render_symbol("infantry", 90, 60, "#000000").tobytes() == one.tobytes()


def test_unknown_symbol_draws_the_fallback():
    assert render_symbol("zeppelin", 60, 40, "#000").tobytes() == render_symbol("fallback", 60, 40, "#000").tobytes()


def test_symbol_ink_stays_in_its_box_colour():
    image = render_symbol("armor", 60, 40, "#ff0000", "#0000ff")
    r, g, b, a = (image.getchannel(c).tobytes() for c in "RGBA")
    colours = {(r[i], g[i], b[i]) for i in range(len(a)) if a[i] == 255}
    assert (255, 0, 0) in colours and (0, 0, 255) in colours
