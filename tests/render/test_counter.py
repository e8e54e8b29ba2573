"""Counter faces: sizes, safe area, legibility floor, issues, determinism, reference images."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageColor

from authoring.render.counters.face import (
    FaceArt,
    draw_face,
    min_text_px,
    safe_inset_px,
    text_boxes,
)

REFERENCE = Path(__file__).with_name("reference")
PRINT = dict(size_px=188, safe_inset_px=safe_inset_px(188, 15.875), min_text_px=min_text_px(188, 15.875))
MODULE = dict(size_px=75, safe_inset_px=safe_inset_px(75, 12.7), min_text_px=7.0)

BLUE = dict(background="#9fb0c8", foreground="#000000")
RED = dict(background="#c0392b", foreground="#ffffff")
FACES = {
    "plain": FaceArt(**BLUE, symbol="infantry", size_mark="XX", designation="XXIV", values=("8", "4")),
    "three": FaceArt(
        **BLUE,
        symbol="armor",
        size_mark="XX",
        designation="7 Pz",
        values=("12", "6", "8"),
        boxed_value=2,
        setup_code="A3",
        symbol_fill="#d6dde8",
    ),
    "filled": FaceArt(
        **RED,
        symbol="guards",
        size_mark="XXX",
        designation="1 Shock Army",
        values=("6", "4", "7"),
        filled_value=2,
        setup_code="S12",
    ),
    "band": FaceArt(
        **BLUE,
        symbol="cavalry",
        size_mark="XX",
        designation="3 Cav",
        values=("4", "5"),
        band="No ZOC",
        band_color="#ffd400",
        setup_code="B",
    ),
    "reduced": FaceArt(
        **BLUE,
        symbol="mechanized",
        size_mark="XXXX",
        designation="Grossdeutschland",
        values=("4", "4", "8"),
        reduced=True,
    ),
    "long": FaceArt(
        **BLUE,
        symbol="hq",
        size_mark="XXXXX",
        designation="XXXXVIII Panzerkorps Hauptquartier",
        values=("10", "10", "10"),
        setup_code="W123",
    ),
    "marker": FaceArt(background="#ffffff", foreground="#000000", symbol="marker", label="Out of Supply"),
}


def test_five_eighths_at_300_dpi_is_188_px_plus_18_px_bleed():
    image, issues = draw_face(FACES["plain"], 188, 18, **{k: v for k, v in PRINT.items() if k != "size_px"})
    assert image.size == (224, 224) and image.mode == "RGB" and not issues
    bg = ImageColor.getrgb(BLUE["background"])
    ring = [(x, y) for x in range(224) for y in (0, 17, 206, 223)] + [(x, y) for y in range(224) for x in (0, 17, 223)]
    assert {image.getpixel(p) for p in ring} == {bg}
    assert PRINT["safe_inset_px"] == 14


@pytest.mark.parametrize("scale", [PRINT, MODULE], ids=["print", "module"])
@pytest.mark.parametrize("name", sorted(FACES))
def test_text_stays_in_the_safe_area_at_legible_size(name, scale):
    size, inset, floor = scale["size_px"], scale["safe_inset_px"], scale["min_text_px"]
    bleed = 5
    boxes = text_boxes(FACES[name], size, bleed, inset, floor)
    assert boxes
    for tb in boxes:
        x0, y0, x1, y1 = tb.box
        assert bleed + inset <= x0 < x1 <= bleed + size - inset, tb
        assert bleed + inset <= y0 < y1 <= bleed + size - inset, tb
        assert tb.size_px >= floor, tb


@pytest.mark.parametrize("scale", [PRINT, MODULE], ids=["print", "module"])
@pytest.mark.parametrize("name", ["plain", "three", "filled", "marker"])
def test_no_ink_outside_the_safe_area(name, scale):
    """Pixel check: faces without band or stripe are plain background outside the inset."""
    size, inset = scale["size_px"], scale["safe_inset_px"]
    image, _ = draw_face(FACES[name], size, 0, inset, scale["min_text_px"])
    bg = ImageColor.getrgb(FACES[name].background)
    for y in range(size):
        for x in list(range(inset)) + list(range(size - inset, size)):
            assert image.getpixel((x, y)) == bg, (x, y)
            assert image.getpixel((y, x)) == bg, (y, x)


def test_factors_are_big_on_a_print_counter():
    values = next(tb for tb in text_boxes(FACES["plain"], **PRINT) if tb.role == "values")
    assert 14 <= values.size_px * 72 / 300 <= 18
    assert values.text == "8-4"


def test_too_long_designation_at_module_size_is_reported_naming_the_slot():
    face = FaceArt(**BLUE, symbol="infantry", designation="Grossdeutschland Panzergrenadier", values=("9", "6"))
    image, issues = draw_face(face, 75, 0, 7, 7.0, name="gd/full")
    assert len(issues) == 1
    assert issues[0].face == "gd/full"
    assert issues[0].message.startswith("slot 'designation': 'Grossdeutschland Panzergrenadier' does not fit in ")
    printed = next(tb for tb in text_boxes(face, 75, 0, 7, 7.0) if tb.role == "designation")
    assert printed.text.endswith("…") and printed.size_px >= 7.0


def test_the_declared_short_form_comes_before_a_report():
    face = FaceArt(
        **BLUE,
        symbol="infantry",
        designation="Grossdeutschland Panzergrenadier",
        designation_short="GD Pz Gren",
        values=("9", "6"),
    )
    _, issues = draw_face(face, **PRINT)
    printed = next(tb for tb in text_boxes(face, **PRINT) if tb.role == "designation")
    assert printed.text == "GD Pz Gren" and not issues


def test_known_words_are_abbreviated_before_reporting():
    boxes = text_boxes(FACES["filled"], **PRINT)
    _, issues = draw_face(FACES["filled"], 188, 0, PRINT["safe_inset_px"], PRINT["min_text_px"])
    designation = next(tb for tb in boxes if tb.role == "designation")
    assert designation.text in ("1 Shock Army", "1 Shock A") and not issues


def test_band_reduced_and_marker_are_drawn():
    band, _ = draw_face(FACES["band"], 188, 10, 14, 25.0)
    assert band.getpixel((100, 2)) == ImageColor.getrgb("#ffd400")  # band runs into the bleed
    inside = [tb for tb in text_boxes(FACES["band"], 188, 10, 14, 25.0) if tb.role == "band"]
    assert inside and inside[0].box[1] >= 10 + 14  # its text inside the counter
    reduced, _ = draw_face(FACES["reduced"], 188, 10, 14, 25.0)
    plain, _ = draw_face(FACES["plain"], 188, 10, 14, 25.0)
    assert reduced.getpixel((3, 200)) != plain.getpixel((3, 200))  # stripe behind the factors
    roles = [tb.role for tb in text_boxes(FACES["marker"], 188, 0, 14, 25.0)]
    assert roles == ["label", "label"]  # two lines, no symbol


def test_output_is_deterministic():
    a, _ = draw_face(FACES["three"], 94, 9, 7, 12.5)
    b, _ = draw_face(FACES["three"], 94, 9, 7, 12.5)
    assert a.tobytes() == b.tobytes()


REFERENCES = {
    "infantry_94.png": (FACES["three"], dict(size_px=94, bleed_px=0, safe_inset_px=7, min_text_px=12.5)),
    "band_75.png": (FACES["band"], dict(size_px=75, bleed_px=0, safe_inset_px=7, min_text_px=7.0)),
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_matches_reference_rendering(name):
    """Regression guard; regenerate with HEXWRIGHT_UPDATE_REFERENCE=1 after an intended change."""
    face, args = REFERENCES[name]
    image, _ = draw_face(face, **args)
    path = REFERENCE / name
    if os.environ.get("HEXWRIGHT_UPDATE_REFERENCE"):
        image.save(path, optimize=True)
    reference = Image.open(path).convert("RGB")
    assert reference.size == image.size
    diff = ImageChops.difference(reference, image).convert("L")
    pixels = diff.tobytes()
    assert sum(pixels) / len(pixels) < 1.0
    assert sum(1 for p in pixels if p > 64) <= 0.01 * len(pixels)
