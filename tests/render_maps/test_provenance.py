"""Provenance (issue 43, item 7): tables and maps say where their data comes from (`source:`), and every
chart, map margin and tiled map a player sees labels representative data; published and designer's data carry
no label."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdf
import pytest
from PIL import Image
from representative import mark_representative

from authoring.load import discover, load_game
from authoring.model.provenance import PART_LABEL, REPRESENTATIVE_LABEL, Provenance
from authoring.render.maps.draw import map_scene, render_map
from authoring.render.maps.frame import MARGIN, NOTICE_INK, TOP, map_notice
from authoring.render.maps.raster import Text
from authoring.render.maps.style import rgb
from authoring.render.print.cards import setup_card_pages
from authoring.render.print.charts import NOTICE_INK as CHART_INK
from authoring.render.print.charts import chart_pages, stack, table_blocks, turn_blocks, write_charts
from authoring.render.print.tiles import write_tiled_pdf

ROOT = Path(__file__).resolve().parents[2]


def _load(root: Path, gid: str):
    result = load_game(next(f for f in discover(root) if f.id == gid))
    assert result.ok, [str(d) for d in result.diagnostics][:5]
    return result.game


@pytest.fixture(scope="module")
def games():
    return {gid: _load(ROOT, gid) for gid in ("bfm", "1941", "typhoon")}


def _representative(mini: Path) -> Path:
    """The mini game with its map and its table marked representative (with a note)."""
    return mark_representative(mini)


def _ink_near(image: Image.Image, box, colour, tolerance: int = 40) -> int:
    """How many pixels of `box` are within `tolerance` of `colour` on every channel."""
    pixels = np.asarray(image.convert("RGB").crop(box), dtype=int)
    return int(np.all(np.abs(pixels - np.array(colour)) <= tolerance, axis=-1).sum())


# --- data -----------------------------------------------------------------------------------------------


def test_bundled_sources_follow_the_rulebooks(games):
    bfm, b41, typhoon = games["bfm"], games["1941"], games["typhoon"]
    assert {t.source.source for t in bfm.tables} == {"published"}
    bfm_map = bfm.maps["main"].source
    assert bfm_map.source == "published" and bfm_map.part.startswith("the entry-arrow hexes")
    assert bfm_map.label == f"{PART_LABEL}: {bfm_map.part}; not from the published game."  # no source map has them
    assert b41.table("crt").source.representative and b41.table("tec").source.representative
    assert b41.table("stacking").source.source == "published"  # printed in the rules (3.0)
    assert b41.maps["main"].source.representative
    assert all(s.source.representative for s in b41.scenarios.values())  # the Turn Record Chart is not printed
    assert all(s.source.source == "published" for s in bfm.scenarios.values())
    assert typhoon.table("crt").source.representative and typhoon.table("steps").source.source == "published"
    assert all(m.source.representative for m in typhoon.maps.values())
    label = b41.table("crt").source.label
    assert label.startswith(REPRESENTATIVE_LABEL) and "every cell" in label


def test_source_defaults_to_the_designer_and_a_file_default_applies_to_its_tables(mini):
    game = _load(mini, "mini")
    assert game.table("crt").source.source == "designer" and game.table("crt").source.label == ""
    assert game.maps["board"].source.source == "designer"
    tables = mini / "scenarios" / "mini" / "tables.yaml"
    tables.write_text(tables.read_text().replace("game: mini\n", "game: mini\nsource: published\n"))
    assert _load(mini, "mini").table("crt").source.source == "published"


def test_an_unknown_source_is_a_located_finding(mini):
    board = mini / "maps" / "mini" / "board.yaml"
    board.write_text(board.read_text().replace("name: Mini Board\n", "name: Mini Board\nsource: invented\n"))
    result = load_game(next(f for f in discover(mini) if f.id == "mini"))
    found = [d for d in result.diagnostics if d.loc is not None and d.loc.file.endswith("board.yaml")]
    assert not result.ok and found and found[0].loc.line == 5


# --- charts -----------------------------------------------------------------------------------------------


def _labels(canvas) -> list[str]:
    return [b.text for b in canvas.boxes if b.role == "provenance"]


def test_a_representative_table_is_labelled_under_its_title_and_a_published_one_is_not(games):
    b41 = games["1941"]
    crt = stack(table_blocks(b41, b41.table("crt")))
    text = " ".join(_labels(crt))
    assert text.startswith(REPRESENTATIVE_LABEL) and "chart is not available" in text
    title = next(b for b in crt.boxes if b.text == "Combat Results Table")
    first = next(b for b in crt.boxes if b.role == "provenance")
    header = next(b for b in crt.boxes if b.text == "Die")
    assert title.box[3] <= first.box[1] and first.box[3] <= header.box[1]  # between the title and the table
    assert _labels(stack(table_blocks(b41, b41.table("stacking")))) == []
    assert all(_labels(stack(table_blocks(games["bfm"], t))) == [] for t in games["bfm"].tables)


def test_a_representative_turn_record_is_labelled_under_its_title(games, mini):
    b41 = games["1941"]
    blocks = turn_blocks(b41, b41.scenarios["campaign"])
    text = " ".join(_labels(blocks[0]))
    assert text.startswith(REPRESENTATIVE_LABEL) and "weather of each turn" in text
    assert all(_labels(b) == [] for s in games["bfm"].scenarios.values() for b in turn_blocks(games["bfm"], s))
    game = _load(_representative(mini), "mini")
    assert " ".join(_labels(turn_blocks(game, game.scenarios["intro"])[0])) == f"{REPRESENTATIVE_LABEL}."


def test_a_table_continued_on_another_block_is_labelled_again(mini):
    game = _load(_representative(mini), "mini")
    blocks = table_blocks(game, game.table("crt"), (900, 200))  # one row a block
    tables = [b for b in blocks if any(t.text.startswith("Combat Results") for t in b.boxes)]
    assert len(tables) > 1 and all(_labels(b) for b in tables)


def test_the_printed_chart_pages_carry_the_label_in_their_pixels(mini, tmp_path):
    game = _load(_representative(mini), "mini")
    pages = chart_pages(game, "letter")
    placed = [(n, b) for n, page in enumerate(pages) for b in page.boxes if b.role == "provenance"]
    assert placed and REPRESENTATIVE_LABEL in " ".join(b.text for _, b in placed)
    write_charts(game, tmp_path)
    printed = pypdf.PdfReader(str(tmp_path / "charts.letter.pdf")).pages
    for n, box in placed:  # what the PDF holds: the label's dark red ink where the drawing put it
        image = Image.open(io.BytesIO(printed[n].images[0].data))
        assert _ink_near(image, box.box, CHART_INK) > 20
    png = Image.open(tmp_path / "table.crt.png")
    assert _ink_near(png, (0, 0, png.width, png.height), CHART_INK) > 20


def test_a_designers_table_prints_no_label(mini, tmp_path):
    game = _load(mini, "mini")
    assert not [b for page in chart_pages(game, "letter") for b in page.boxes if b.role == "provenance"]
    write_charts(game, tmp_path)
    png = Image.open(tmp_path / "table.crt.png")
    assert _ink_near(png, (0, 0, png.width, png.height), CHART_INK, 10) == 0


# --- maps -------------------------------------------------------------------------------------------------


def _notice_texts(scene) -> list[Text]:
    return [i for i in scene.text.items if isinstance(i, Text) and i.color == NOTICE_INK]


def test_the_map_margin_labels_a_representative_map(games):
    b41 = games["1941"]
    m = b41.maps["main"]
    px = 40.0
    scene = map_scene(b41, [m], px, m.name)
    texts = _notice_texts(scene)
    assert texts and " ".join(t.text for t in texts).startswith(REPRESENTATIVE_LABEL)
    assert all(t.y < TOP * px and t.x >= MARGIN * px for t in texts)  # in the top margin, above the hexes
    bfm_texts = _notice_texts(map_scene(games["bfm"], [games["bfm"].maps["main"]], px, "Battle for Moscow"))
    shown = " ".join(t.text for t in bfm_texts)  # a published map: only its representative part is labelled
    assert shown.startswith(f"{PART_LABEL}: the entry-arrow hexes") and "not from the published game" in shown
    designers = replace(games["bfm"].maps["main"], source=Provenance("designer"))
    assert _notice_texts(map_scene(games["bfm"], [designers], px, "Battle for Moscow")) == []
    typhoon = games["typhoon"]
    joined = map_notice(list(typhoon.maps.values()))
    assert joined.count(REPRESENTATIVE_LABEL) == 1  # three maps, one label when their notes agree


def test_the_printed_map_and_its_tiles_show_the_label(mini, tmp_path):
    game = _load(_representative(mini), "mini")
    px = 150.0
    image = render_map(game, "board", px)
    margin = (0, 0, image.width, int(TOP * px))
    assert _ink_near(image, margin, rgb(NOTICE_INK)) > 50
    plain = render_map(_load(ROOT / "tests" / "load" / "mini", "mini"), "board", px)
    assert _ink_near(plain, margin, rgb(NOTICE_INK), 10) == 0
    dpi = 60
    out = write_tiled_pdf(game, "board", tmp_path / "map.pdf", dpi=dpi)
    pages = [Image.open(io.BytesIO(p.images[0].data)) for p in pypdf.PdfReader(str(out)).pages]
    assembly, first = pages[0], pages[1]
    assert _ink_near(assembly, (0, 0, assembly.width, assembly.height), rgb(NOTICE_INK), 30) > 50
    assert _ink_near(first, (0, 0, first.width, first.height), rgb(NOTICE_INK), 30) > 20


# --- set-up cards ------------------------------------------------------------------------------------------


def _provenance_boxes(pages) -> list[list[str]]:
    return [[b.text for b in page.boxes if b.role == "provenance"] for page in pages]


def test_every_page_of_a_representative_scenarios_card_carries_the_label(games):
    typhoon = games["typhoon"]
    scenario = typhoon.scenarios["moscow-gates"]
    pages = setup_card_pages(typhoon, scenario, "soviet")
    shown = _provenance_boxes(pages)
    assert len(pages) > 1 and all(shown), shown  # every page, not only the first
    assert all(
        " ".join(lines).startswith(REPRESENTATIVE_LABEL) and "whole scenario" in " ".join(lines) for lines in shown
    )
    first = pages[0]
    band = next(b for b in first.boxes if b.role == "provenance").box
    title = next(b for b in first.boxes if b.role == "title").box
    assert title[3] <= band[1]  # under the header, above the entries
    assert all(b.box[1] >= band[3] for b in first.boxes if b.role not in ("title", "subtitle", "provenance"))
    assert _ink_near(first.image, band, CHART_INK) > 50


def test_a_published_scenarios_card_carries_no_label(games):
    bfm = games["bfm"]
    for side in ("soviet", "german"):
        assert _provenance_boxes(setup_card_pages(bfm, bfm.scenarios["campaign"], side)) == [[]] * len(
            setup_card_pages(bfm, bfm.scenarios["campaign"], side)
        )
