"""Tiled print maps, charts, set-up cards and the findings image, checked on the files written."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from PIL import Image

from authoring.diagnostics import Diagnostic, Loc, Severity
from authoring.render.maps.draw import map_layout, render_map
from authoring.render.maps.findings import SEVERITY_COLOURS, findings_image
from authoring.render.maps.legend import legend_entries, render_legend
from authoring.render.maps.style import map_style, rgb
from authoring.render.print.cards import card_sections, render_setup_card, write_setup_cards
from authoring.render.print.charts import render_table, render_turn_track, write_charts
from authoring.render.print.tiles import TilePlan, plan_tiles, write_tiled_pdf


def _registration_marks(plan, row: int, col: int) -> list[tuple[int, int, int, int]]:
    """Boxes of the crosses a page prints on the covering side of its overlaps (matching its neighbours')."""
    from authoring.render.print.tiles import registration_points

    o, r = plan.overlap_px, plan.overlap_px // 5 + 2
    out = []
    if col > 0:
        out += [(o // 2 - r, y - r, o // 2 + r + 1, y + r + 1) for y in registration_points(plan, vertical=True)]
    if row > 0:
        out += [(x - r, o // 2 - r, x + r + 1, o // 2 + r + 1) for x in registration_points(plan, vertical=False)]
    return out


def test_registration_marks_on_both_pages_of_each_overlap(bfm, tmp_path):
    """A cross in the strip a page hides lies under the same cross on the page that covers it."""
    from authoring.render.print.tiles import page_image

    dpi = 60
    full = render_map(bfm, "main", bfm.maps["main"].hex_size_in * dpi)
    plan = plan_tiles(full.size, dpi, "letter", 0.5)
    a1, a2 = page_image(plan, full, 0, 0), page_image(plan, full, 0, 1)
    o = plan.overlap_px
    from authoring.render.print.tiles import registration_points

    for y in registration_points(plan, vertical=True):
        left = a1.crop((plan.page_px[0] - o, y - 2, plan.page_px[0], y + 3)).convert("L")
        right = a2.crop((0, y - 2, o, y + 3)).convert("L")
        assert left.getextrema()[0] < 100 and right.getextrema()[0] < 100


def _page_images(path):
    reader = pypdf.PdfReader(str(path))
    return reader, [Image.open(io.BytesIO(p.images[0].data)).convert("RGB") for p in reader.pages]


def test_22x34_map_takes_12_letter_pages():
    plan = plan_tiles((22 * 150, 34 * 150), 150, "letter", 0.5)
    assert (plan.columns, plan.rows) == (3, 4)
    assert plan.paper_in == (8.5, 11.0)
    a4 = plan_tiles((22 * 150, 34 * 150), 150, "a4", 0.5)
    assert a4.columns * a4.rows == 12
    assert [TilePlan.label(r, c) for r in (0, 1) for c in (0, 1)] == ["A1", "A2", "B1", "B2"]


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_tiled_pages_reassemble_to_the_map_at_1_to_1(bfm, tmp_path, paper):
    dpi = 60
    out = write_tiled_pdf(bfm, "main", tmp_path / "map.pdf", paper=paper, overlap_in=0.5, dpi=dpi)
    full = render_map(bfm, "main", bfm.maps["main"].hex_size_in * dpi)
    plan = plan_tiles(full.size, dpi, paper, 0.5)
    reader, pages = _page_images(out)
    assert len(pages) == plan.rows * plan.columns + 1
    assert plan.rows * plan.columns > 1
    for page in reader.pages:  # every page is the paper, image drawn at exactly dpi
        assert float(page.mediabox.width) == pytest.approx(plan.paper_in[0] * 72, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(plan.paper_in[1] * 72, abs=0.01)
    content = reader.pages[1].get_contents().get_data().decode()
    w_pt, h_pt = map(float, re.search(r"([\d.]+) 0 0 ([\d.]+) [\d.]+ [\d.]+ cm", content).groups())
    assert w_pt == pytest.approx(plan.page_px[0] * 72 / dpi, abs=0.01)
    assert h_pt == pytest.approx(plan.page_px[1] * 72 / dpi, abs=0.01)
    assembled = Image.new(
        "RGB",
        (plan.step[0] * plan.columns + plan.overlap_px, plan.step[1] * plan.rows + plan.overlap_px),
        (255, 255, 255),
    )
    expected = Image.new("RGB", assembled.size, (255, 255, 255))
    sx, sy = plan.start  # the page grid centred on the map: white paper shared out on both sides
    assert sx <= 0 and sy <= 0 and -sx < plan.step[0] and -sy < plan.step[1]
    expected.paste(full, (-sx, -sy))
    for r in range(plan.rows):  # glue in order: each page over its left and upper neighbours
        for c in range(plan.columns):
            page = pages[1 + r * plan.columns + c]
            assert page.size == plan.page_px
            x, y = plan.origin(r, c)
            x, y = x - sx, y - sy
            if r == plan.rows - 1 and c == plan.columns - 1:  # the last page's label stays visible
                lx0, ly0, lx1, ly1 = plan.label_box(r, c)
                page = page.copy()
                page.paste(expected.crop((x + lx0, y + ly0, x + lx1 + 1, y + ly1 + 1)), (lx0, ly0))
            marks = _registration_marks(plan, r, c)
            for mx0, my0, mx1, my1 in marks:  # the covering page's crosses stay visible: they must be there
                assert page.crop((mx0, my0, mx1, my1)).convert("L").getextrema()[0] < 100
                page = page.copy()
                page.paste(expected.crop((x + mx0, y + my0, x + mx1, y + my1)), (mx0, my0))
            assembled.paste(page, (x, y))
    assert assembled.tobytes() == expected.tobytes()
    # the overlap: page A2's left strip is A1's right strip of the map
    o = plan.overlap_px
    if plan.columns > 1:
        a2 = pages[2]
        x2, _ = plan.origin(0, 1)
        assert a2.crop((0, 0, o, 50)).tobytes() == expected.crop((x2 - sx, 0, x2 - sx + o, 50)).tobytes()
        assert x2 == sx + plan.page_px[0] - o


@pytest.mark.slow
def test_charts_every_table_turn_track_and_legend(bfm, tmp_path):
    paths = write_charts(bfm, tmp_path)
    names = [p.name for p in paths]
    assert names[-2:] == ["charts.a4.pdf", "charts.letter.pdf"]
    assert {f"table.{t.id}.png" for t in bfm.tables} <= set(names)
    assert {"turns.seven-turn.png", "turns.campaign.png", "legend.png"} <= set(names)
    for name, (w_in, h_in) in (("charts.letter.pdf", (8.5, 11)), ("charts.a4.pdf", (210 / 25.4, 297 / 25.4))):
        pages = pypdf.PdfReader(str(tmp_path / name)).pages
        assert 1 < len(pages) < len(paths) - 2  # charts share pages where they fit
        for page in pages:  # every page is the paper, not the chart's own size
            assert float(page.mediabox.width) == pytest.approx(w_in * 72, abs=0.05)
            assert float(page.mediabox.height) == pytest.approx(h_in * 72, abs=0.05)


def test_terrain_effects_chart_shows_the_map_samples(bfm):
    tec = render_table(bfm, bfm.table("tec"))
    forest = rgb(map_style(bfm).terrain["forest"].color)
    pixels = tec.crop((20, 60, 90, tec.height)).getcolors(1 << 20)
    assert any(all(abs(a - b) < 6 for a, b in zip(col, forest)) and n > 50 for n, col in pixels)
    crt = render_table(bfm, bfm.table("crt"))
    assert crt.width > 600 and crt.height > 200


def test_turn_track_has_a_box_per_turn(bfm):
    s = bfm.scenarios["campaign"]
    img = render_turn_track(bfm, s)
    assert img.width >= 7 * 170
    mud = (222, 200, 160)
    muddy = sum(1 for t in s.turns if t.weather == "mud")
    assert muddy == 2 and img.getcolors(1 << 20) and any(c == mud for _, c in img.getcolors(1 << 20))


def test_legend_lists_every_type(bfm):
    style = map_style(bfm)
    ids = [tid for _, tid, _ in legend_entries(bfm, style)]
    assert ids == [
        "clear",
        "forest",
        "moscow",
        "city",
        "fortification",
        "star",
        "cross",
        "single-arrow",
        "triple-arrow",
        "river",
        "rail",
    ]
    assert render_legend(bfm).height > 300


def test_setup_card_matches_the_scenario(bfm, tmp_path):
    s = bfm.scenarios["seven-turn"]
    for side in ("soviet", "german"):
        sections = card_sections(bfm, s, side)
        setup = next(x for x in sections if x.title == "Set-up")
        assert [(e.label, e.units, e.state) for e in setup.entries] == sorted(
            (p.label, p.units, p.state) for p in s.placements(side)
        )  # printed-id order
        on_card = {u for sec in sections for e in sec.entries for u in e.units}
        expected = {u for p in s.placements(side) for u in p.units}
        expected |= {u for r in s.reinforcements if r.side == side for u in r.units}
        expected |= {u for o in s.off_map if o.side == side for u in o.units}
        assert expected <= on_card
    reinf = next(x for x in card_sections(bfm, s, "soviet") if x.title == "Reinforcements")
    assert reinf.entries[0].label.startswith("Turn 4")
    pages = render_setup_card(bfm, s, "soviet")
    assert pages[0].size == (1275, 1650)
    assert pages[0].getpixel((5, 5)) == (255, 255, 255)  # nothing in the unprintable margin
    assert pages[0].getpixel((65, 65)) == rgb(bfm.side("soviet").color)
    paths = write_setup_cards(bfm, tmp_path)
    pdfs = [p for p in paths if p.suffix == ".pdf"]
    assert {p.name for p in pdfs} == {
        f"setup.{sc}.{sd}.{paper}.pdf"
        for sc in ("seven-turn", "campaign")
        for sd in ("soviet", "german")
        for paper in ("letter", "a4")
    }
    a4 = pypdf.PdfReader(str(tmp_path / "setup.seven-turn.soviet.a4.pdf")).pages[0]
    assert float(a4.mediabox.width) == pytest.approx(210 / 25.4 * 72, abs=0.05)


def test_findings_marked_and_numbered_on_their_hexes(bfm, tmp_path):
    s = bfm.scenarios["seven-turn"]
    diags = [
        Diagnostic(Severity.WARNING, "HW-B", "second", Loc("b.yaml", 2, 1), hex="0803"),
        Diagnostic(Severity.ERROR, "HW-A", "first", Loc("a.yaml", 1, 1), hex="0301"),
        Diagnostic(Severity.ERROR, "HW-C", "no hex", Loc("c.yaml", 1, 1)),
    ]
    out = tmp_path / "f.png"
    img = findings_image(bfm, s, diags, out, px_per_hex=80)
    assert Image.open(out).size == img.size
    layout = map_layout(bfm, "main", 80)
    m = bfm.maps["main"]
    for label, sev in (("0301", "error"), ("0803", "warning")):
        h = m.grid.label_to_hex(label)
        x, y = layout.hex_to_pixel(h)
        cx, cy = layout.corners(h)[3]
        ring = (round(x + (cx - x) * 0.93), round(y + (cy - y) * 0.93))
        assert all(abs(a - b) < 30 for a, b in zip(img.getpixel(ring), SEVERITY_COLOURS[sev]))
    untouched = layout.hex_to_pixel(m.grid.label_to_hex("1410"))
    cx, cy = layout.corners(m.grid.label_to_hex("1410"))[3]
    assert img.getpixel((round(untouched[0] + (cx - untouched[0]) * 0.93), round(cy))) not in SEVERITY_COLOURS.values()
    assert img.width > render_map(bfm, "main", 80).width


def test_a_window_of_bands_crops_the_pixels_of_the_whole_image():
    """`_Window.crop`, inside one band or across several, gives the whole image's crop pixel for pixel."""
    import random

    from authoring.render.print.tiles import _Window

    rng = random.Random(7)
    whole = Image.frombytes("RGB", (300, 700), bytes(rng.randrange(256) for _ in range(300 * 700 * 3)))
    window = _Window()
    for top in range(0, 700, 256):
        window.add(top, whole.crop((0, top, 300, min(700, top + 256))))
    for box in [(0, 0, 300, 700), (10, 20, 200, 100), (0, 250, 300, 260), (17, 255, 299, 513), (5, 511, 80, 700)]:
        assert window.crop(box).tobytes() == whole.crop(box).tobytes(), box
    window.drop_above(300)
    assert window.crop((3, 300, 290, 690)).tobytes() == whole.crop((3, 300, 290, 690)).tobytes()


@pytest.mark.slow
@pytest.mark.parametrize("game_id, map_id", [("1941", "main"), ("typhoon", "M")])
def test_no_tile_page_is_blank_or_nearly_blank(game_id, map_id, tmp_path):
    """The page grid is centred on the map: each page of the tiled PDF shows at least a third of a page of
    map (1941's third column and Typhoon M's last row were a sliver of map on white paper)."""
    from pathlib import Path as _Path

    from authoring.load import discover, load_game

    root = _Path(__file__).resolve().parents[2]
    game = load_game(next(f for f in discover(root) if f.id == game_id)).game
    out = write_tiled_pdf(game, map_id, tmp_path / "tiles.pdf", paper="letter", overlap_in=0.5, dpi=30)
    _, pages = _page_images(out)
    assert len(pages) > 4
    for i, page in enumerate(pages[1:], start=1):
        small = page.resize((page.width // 4, page.height // 4), Image.Resampling.NEAREST).tobytes()
        pixels = [small[k : k + 3] for k in range(0, len(small), 3)]
        white = sum(1 for p in pixels if p == b"\xff\xff\xff") / len(pixels)
        assert white < 0.67, (game_id, i, round(white, 2))
