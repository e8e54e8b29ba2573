"""Player aids laid out like the counters: every chart and set-up card page of every bundled game, on
Letter and A4, is checked by boxes (nothing overlaps, leaves its place or the printable area, or is
cut); designer notes stay off the page; map names and labels never cover a hex number."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.load import discover, load_game
from authoring.render.print.cards import card_sides, setup_card_pages
from authoring.render.print.charts import chart_pages
from authoring.render.shared.canvas import Canvas, PageSpec, flow, page_findings

ROOT = Path(__file__).resolve().parents[2]


pytestmark = pytest.mark.slow  # whole builds of the bundled games' play aids


def _game(game_id: str):
    files = next(f for f in discover(ROOT) if f.id == game_id)
    return load_game(files).game


@pytest.fixture(scope="module", params=["bfm", "1941", "typhoon"])
def game(request):
    return _game(request.param)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_chart_page_is_clean(game, paper):
    spec = PageSpec(paper)
    pages = chart_pages(game, paper)
    assert all(p.image.size == spec.size for p in pages)
    found = [f"page {i + 1}: {f}" for i, p in enumerate(pages) for f in page_findings(p, spec)]
    assert found == []


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_setup_card_page_is_clean(game, paper):
    spec = PageSpec(paper)
    found = []
    for scenario in game.scenarios.values():
        for side in card_sides(game, scenario):
            for i, page in enumerate(setup_card_pages(game, scenario, side, paper)):
                assert page.image.size == spec.size
                found += [f"{scenario.id}/{side} page {i + 1}: {f}" for f in page_findings(page, spec)]
    assert found == []


def test_the_generated_large_game_aids_are_clean(synth_game):
    for paper in ("letter", "a4"):
        spec = PageSpec(paper)
        pages = chart_pages(synth_game, paper)
        for scenario in synth_game.scenarios.values():
            for side in card_sides(synth_game, scenario):
                pages += setup_card_pages(synth_game, scenario, side, paper)
        assert [str(f) for p in pages for f in page_findings(p, spec)] == []


def test_designer_notes_are_not_printed():
    game = _game("bfm")
    printed = " ".join(tb.text for page in chart_pages(game, "letter") for tb in page.boxes)
    assert "does NOT" not in printed and "not modelled" not in printed
    assert "Odds = total attack strength" in printed.replace("\n", " ") or "Odds" in printed


def test_print_note_is_printed(tmp_path):
    from dataclasses import replace

    game = _game("bfm")
    table = replace(game.tables[0], print_notes=("Shuffle the chits before play.",), notes=())
    from authoring.render.print.charts import table_blocks

    texts = " ".join(tb.text for b in table_blocks(game, table) for tb in b.boxes)
    assert "Shuffle the chits" in texts


def test_campaign_turn_record_wraps_inside_its_boxes():
    game = _game("typhoon")
    from authoring.render.print.charts import turn_blocks

    spec = PageSpec("letter")
    blocks = turn_blocks(game, game.scenarios["campaign"], spec.content_size)
    assert all(b.image.width <= spec.content_size[0] and b.image.height <= spec.content_size[1] for b in blocks)
    lines = [tb for b in blocks for tb in b.boxes if tb.role == "line" and tb.slot != (0, 0, 0, 0)]
    assert lines and all(
        tb.slot[0] <= tb.box[0] and tb.box[2] <= tb.slot[2] and tb.box[3] <= tb.slot[3] for tb in lines
    )


def test_a_page_built_to_collide_fails():
    spec = PageSpec("letter")
    block = Canvas.new((400, 100))
    block.text((0, 0), "Combat Results Table", 30, True, slot=(0, 0, 400, 100))
    block.text((10, 10), "Attacker eliminated", 19, slot=(0, 0, 400, 100))
    page = flow([block], spec, "Test")[0]
    kinds = [f.kind for f in page_findings(page, spec)]
    assert kinds == ["overlap"]
    wide = Canvas.new((spec.content_size[0] + 10, 10))
    with pytest.raises(ValueError, match="does not fit"):
        flow([wide], spec, "Test")


def test_titles_never_meet_their_subtitles():
    spec = PageSpec("a4")
    page = flow(
        [Canvas.new((10, 10))],
        spec,
        "Battle for Moscow: New Timetable (14-turn mini-campaign) and more",
        "Charts and tables",
    )[0]
    title, sub = (tb for tb in page.boxes if tb.role in ("title", "subtitle"))
    assert title.box[3] < sub.box[1]


@pytest.mark.parametrize("game_id", ["1941", "typhoon"])
def test_map_names_never_cover_a_hex_number(game_id):
    """Hex ids are drawn last on a halo; names and labels are placed off them."""
    from authoring.render.maps.draw import map_image_size, map_layout
    from authoring.render.maps.scene import build_scene
    from authoring.render.maps.style import map_style

    game = _game(game_id)
    map_id = sorted(game.maps)[0]
    m = game.maps[map_id]
    px = 150  # as `build maps` draws them
    scene = build_scene([m], map_style(game), map_layout(game, map_id, px), map_image_size(game, map_id, px))
    texts = list(scene.text.items)
    ids = {scene.cells[h].labels[0] for h in scene.cells}
    first_id = next(i for i, t in enumerate(texts) if t.text.split(" / ")[0] in ids)
    assert all(t.text.split(" / ")[0] in ids for t in texts[first_id:])  # ids come last: on top
    assert all(t.halo is not None and t.halo_width >= 1 for t in texts[first_id:])  # on a halo of paper
    id_boxes = [t.bbox for t in texts[first_id:]]
    from authoring.render.maps.raster import text_box

    for t in texts[:first_id]:  # names are placed off the numbers and their halos (their own halo may touch)
        b = text_box(t.text, t.x, t.y, t.size, t.bold, t.anchor)
        depth = [min(min(b[2], i[2]) - max(b[0], i[0]), min(b[3], i[3]) - max(b[1], i[1])) for i in id_boxes]
        assert max(depth) <= 0.0, (t.text, b)


@pytest.mark.parametrize("game_id", ["bfm", "1941", "typhoon"])
def test_every_map_text_is_clear_of_the_others(game_id):
    """Hex ids, place names, labels, title and compass of every map: no two overlap, none leaves the map."""
    from authoring.render.counters.check import box_findings
    from authoring.render.counters.face import TextBox
    from authoring.render.maps.draw import map_scene
    from authoring.render.maps.raster import Text, text_box

    game = _game(game_id)
    for map_id in sorted(game.maps):
        scene = map_scene(game, [game.maps[map_id]], 150, game.name)
        boxes = [
            TextBox(
                "text", t.text, tuple(round(v) for v in text_box(t.text, t.x, t.y, t.size, t.bold, t.anchor)), t.size
            )
            for t in scene.text.items
            if isinstance(t, Text)
        ]
        w, h = scene.size
        found = box_findings(boxes, (0, 0, w, h), 0.0)
        assert [str(f) for f in found] == [], map_id


def test_a_row_naming_a_unit_size_shows_its_mark_as_printed():
    """1941 1.3.1: the group row shows the drawn group bracket, not the words '(group symbol)'."""
    from pathlib import Path

    from authoring.load import discover, load_game
    from authoring.render.print.charts import SAMPLE, _sample_for

    root = Path(__file__).resolve().parents[2]
    game = load_game(next(f for f in discover(root) if f.id == "1941")).game
    table = next(t for t in game.tables if t.id == "unit-sizes")
    assert not any("symbol)" in str(c) for row in table.rows for c in row)
    group = _sample_for(game, "Group")
    assert group is not None and group.size == (SAMPLE, SAMPLE)
    dark = [p for p in group.convert("L").tobytes() if p < 100]
    assert len(dark) > 40  # the bracket's ink
    assert _sample_for(game, "Corps") is not None and _sample_for(game, "Regiment") is None


def test_column_widths_go_where_they_save_lines():
    """Typhoon's terrain chart: the Combat column gets the room before short number columns grow, so no
    row is more than four lines deep where it was six."""
    from pathlib import Path

    from authoring.load import discover, load_game
    from authoring.render.print.charts import BODY, NATURAL, PAD, SAMPLE, _column_widths
    from authoring.render.shared.canvas import wrap

    root = Path(__file__).resolve().parents[2]
    game = load_game(next(f for f in discover(root) if f.id == "typhoon")).game
    table = game.table("tec")
    width = NATURAL[0] - SAMPLE - 12  # as the chart lays it out, beside the terrain samples
    widths = _column_widths(table, width)
    assert sum(widths) <= width
    combat = list(table.columns).index("Combat")
    depth = max(len(wrap(str(r[combat]), BODY, widths[combat] - 2 * PAD)) for r in table.rows)
    assert depth <= 4
    assert widths[combat] == max(widths)


def test_every_terrain_chart_row_naming_map_terrain_has_its_sample():
    """Rows such as 'River hexside' and 'Railroad (woods)' show the map's own sample; 'Lake hexside'
    the lake hexside, not the lake terrain."""
    from pathlib import Path

    from authoring.load import discover, load_game
    from authoring.render.print.charts import _sample_for

    root = Path(__file__).resolve().parents[2]
    game = load_game(next(f for f in discover(root) if f.id == "typhoon")).game
    table = game.table("tec")
    for label in ("Clear", "River hexside", "Major river hexside", "Lake hexside", "Railroad (woods)", "Main road"):
        assert label in [str(r[0]) for r in table.rows]
        assert _sample_for(game, label) is not None, label
    lake, lake_side = _sample_for(game, "Lake"), _sample_for(game, "Lake hexside")
    assert lake.tobytes() != lake_side.tobytes()
    assert _sample_for(game, "Enemy ZOC") is None


def test_charts_share_pages_where_they_fit():
    """Player aids as aid cards: Battle for Moscow's terrain chart and combat results share a page, and the
    charts fill fewer pages than there are charts."""
    from authoring.render.print.charts import chart_blocks
    from authoring.render.shared.canvas import PageSpec

    game = _game("bfm")
    pages = chart_pages(game, "letter")
    charts = chart_blocks(game, PageSpec("letter"))
    assert len(pages) < len(charts)
    first = " ".join(tb.text for tb in pages[0].boxes)
    assert "Terrain Effects Chart" in first and "Combat Results Table" in first


def test_turn_boxes_hold_what_changes_and_the_key_what_holds_every_turn():
    """Typhoon's campaign track printed 'Soviet replacements: Soviet Replacements Table (14.3)' in forty
    boxes; it is now one key line, and long labels are short codes the key spells out."""
    from authoring.render.print.charts import turn_blocks

    game = _game("typhoon")
    blocks = turn_blocks(game, game.scenarios["campaign"])
    texts = [tb.text for b in blocks for tb in b.boxes]
    assert sum("Soviet Replacements" in t for t in texts) == 1
    assert any(t.startswith("Every turn - Soviet replacements") for t in texts)
    assert "Axis SP = Axis supply points" in texts
    assert any(t.startswith("Axis SP: ") for t in texts)
