"""The overlap checker on every counter face of every bundled game and the generated large game,
and proof that it catches a face built to collide, a cut text and a dropped symbol."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.load import discover, load_game
from authoring.render.counter_art import HIDDEN, art_for, back_state
from authoring.render.counters.check import face_findings
from authoring.render.counters.face import FaceArt, draw_face, min_text_px, safe_inset_px
from authoring.render.counters.layout import DEFAULTS, CounterLayout, Slot, game_layouts

ROOT = Path(__file__).resolve().parents[2]
BLUE = dict(background="#9fb0c8", foreground="#000000")


def _game(root: Path, game_id: str):
    files = next(f for f in discover(root) if f.id == game_id)
    result = load_game(files)
    assert result.ok, result.diagnostics
    return result.game


def _faces(game):
    for counter in sorted(game.counters.values(), key=lambda c: c.id):
        states = [f.state for f in counter.faces]
        if back_state(game, counter) == HIDDEN:
            states.append(HIDDEN)
        for state in states:
            yield counter, state


def _all_findings(game, size_px: int, counter_mm: float) -> list[str]:
    inset, floor = safe_inset_px(size_px, counter_mm), min_text_px(size_px, counter_mm)
    out = []
    for counter, state in _faces(game):
        art, name = art_for(game, counter, state, counter_mm)
        out += [f"{name}: {f}" for f in face_findings(art, size_px, inset, floor, counter_mm)]
    return out


@pytest.mark.parametrize("game_id", ["bfm", "1941", "typhoon"])
def test_every_face_of_a_bundled_game_fits_at_300_dpi(game_id):
    game = _game(ROOT, game_id)
    mm = game.counter_size_in * 25.4
    assert _all_findings(game, round(game.counter_size_in * 300), mm) == []


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["bfm", "1941", "typhoon"])
def test_every_face_fits_on_5_8_inch_counters_too(game_id):
    """`--counter-size 5/8`: the same data on bigger counters."""
    game = _game(ROOT, game_id)
    assert _all_findings(game, round(0.625 * 300), 0.625 * 25.4) == []


@pytest.mark.slow
def test_every_face_of_the_generated_large_game_fits(synth_game):
    mm = synth_game.counter_size_in * 25.4
    assert _all_findings(synth_game, round(synth_game.counter_size_in * 300), mm) == []


def test_typhoon_markings_follow_rule_2_4():
    game = _game(ROOT, "typhoon")
    mm = game.counter_size_in * 25.4
    guards, _ = art_for(game, game.counters["sov-1rd"], None, mm)
    nkvd, _ = art_for(game, game.counters["sov-nkvd-1"], None, mm)
    infiltrating, _ = art_for(game, game.counters["ger-1pz-m1"], None, mm)
    assert guards.symbol_fill == "#d8262e" and nkvd.symbol_fill == "#2f9a55"  # 13.5: the type box coloured
    from authoring.render.counters.face import layout_face

    size = round(game.counter_size_in * 300)
    for art, rgb in ((guards, (0xD8, 0x26, 0x2E)), (nkvd, (0x2F, 0x9A, 0x55))):
        image = draw_face(art, size, 0, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)[0]
        x0, y0, x1, y1 = layout_face(
            art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm
        ).symbol_box
        inside = image.convert("RGB").getpixel(((x0 + x1) // 2, y0 + (y1 - y0) // 5))  # above the cross's centre
        assert max(abs(a - b) for a, b in zip(inside, rgb)) < 30, inside
    assert infiltrating.fill_color == "#ffd400"
    assert infiltrating.value_ids[infiltrating.filled_value] == "movement"
    reduced, _ = art_for(game, game.counters["ger-art-1"], "reduced", mm)
    assert "range" in reduced.value_ids  # 10.1.3: the range on both faces
    assert back_state(game, game.counters["ger-air-f1"]) == HIDDEN
    assert back_state(game, game.counters["ger-air-dummy1"]) == HIDDEN
    air_back, _ = art_for(game, game.counters["ger-air-f1"], HIDDEN, mm)
    dummy_back, _ = art_for(game, game.counters["ger-air-dummy1"], HIDDEN, mm)
    size = round(game.counter_size_in * 300)
    a = draw_face(air_back, size, 0, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)[0]
    b = draw_face(dummy_back, size, 0, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)[0]
    assert a.tobytes() == b.tobytes()  # 11.1.6: a dummy's back gives nothing away


def test_1941_code_is_top_right_clear_of_the_size_mark_and_the_symbol_half_the_counter():
    game = _game(ROOT, "1941")
    mm = game.counter_size_in * 25.4
    size = round(game.counter_size_in * 300)
    from authoring.render.counters.face import element_boxes, layout_face

    for counter in game.counters.values():
        art, _ = art_for(game, counter, None, mm)
        boxes = {
            tb.role: tb.box
            for tb in element_boxes(
                layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)
            )
        }
        assert "symbol" in boxes, counter.id
        inset = safe_inset_px(size, mm)
        assert boxes["setup_code"][2] == size - inset, counter.id  # 14.1 A: upper right corner
        assert boxes["setup_code"][3] < boxes["symbol"][1] and boxes["size_mark"][3] < boxes["symbol"][1], counter.id
        gap_mm = (boxes["setup_code"][0] - boxes["size_mark"][2]) * 25.4 / 300
        assert gap_mm >= 1.0, (counter.id, gap_mm)  # clear of the size mark (drawn X's: narrower than letters)
        symbol_w = boxes["symbol"][2] - boxes["symbol"][0]
        assert symbol_w >= 0.45 * size, (counter.id, symbol_w, size)  # a symbol box half the counter wide
        assert boxes["values"][3] >= size - inset - 2, counter.id  # the factors along the bottom edge


# --- the checker catches what it should -------------------------------------------------------


def _slots(*slots: Slot) -> CounterLayout:
    return CounterLayout("test", slots)


def test_a_face_built_to_collide_fails():
    collide = _slots(
        Slot("designation", (0, 0.55, 1, 1), (6, 14)),
        Slot("values", (0, 0.55, 1, 1), (6, 14)),
        Slot("symbol", (0.2, 0, 0.8, 0.5)),
    )
    face = FaceArt(**BLUE, symbol="infantry", designation="XXIV", values=("8", "4"), layout=collide)
    found = face_findings(face, 188, 14, 25.0, 15.875)
    assert [f.kind for f in found] == ["overlap"]
    assert "designation 'XXIV'" in found[0].detail and "values '8-4'" in found[0].detail


def test_a_cut_text_and_a_dropped_symbol_fail():
    no_symbol = _slots(Slot("designation", (0, 0.5, 1, 0.7), (6, 8)), Slot("values", (0, 0.75, 1, 1), (6, 14)))
    face = FaceArt(
        **BLUE, symbol="infantry", designation="Grossdeutschland Panzergrenadier", values=("8", "4"), layout=no_symbol
    )
    kinds = sorted({f.kind for f in face_findings(face, 150, 14, 25.0, 12.7)})
    assert kinds == ["missing", "truncated"]


def test_declared_text_slots_never_share_space():
    """Layouts are checked as boxes too: two text slots of one layout never overlap."""
    layouts = list(DEFAULTS)
    for game_id in ("bfm", "1941", "typhoon"):
        layouts += game_layouts(_game(ROOT, game_id).counter_layouts)
    for layout in layouts:
        text = [s for s in layout.slots if s.content not in ("picture",)]
        for i, a in enumerate(text):
            for b in text[i + 1 :]:
                apart = a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1]
                assert apart, (layout.id, a.content, b.content)


def test_a_picture_slot_draws_the_callers_image_scaled_to_fit():
    """The hook for designer art: a PIL image drawn in the layout's picture slot instead of the symbol."""
    from PIL import Image

    from authoring.render.counters.face import element_boxes, layout_face

    emblem = Image.new("RGBA", (40, 20), (200, 0, 0, 255))
    face = FaceArt(**BLUE, symbol="infantry", designation="XXIV", values=("8", "4"), picture=emblem)
    layout = layout_face(face, 188, 14, 25.0, counter_mm=15.875)
    roles = {tb.role: tb.box for tb in element_boxes(layout)}
    assert "picture" in roles and "symbol" not in roles
    x0, y0, x1, y1 = roles["picture"]
    assert abs((x1 - x0) / (y1 - y0) - 2.0) < 0.1  # aspect kept
    image, _ = draw_face(face, 188, 0, 14, 25.0, counter_mm=15.875)
    assert image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == (200, 0, 0)
    assert face_findings(face, 188, 14, 25.0, 15.875) == []


def test_short_names_come_from_the_data():
    game = _game(ROOT, "typhoon")
    mm = game.counter_size_in * 25.4
    art, _ = art_for(game, game.counters["ger-strongpoint"], None, mm)
    assert art.label == "Strongpoint" and art.label_short == "Strong-point"
    from authoring.render.counters.face import layout_face

    size = round(game.counter_size_in * 300)
    placed = layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm).texts
    assert [p.run.text for p in placed if p.role == "label"] == ["Strong-", "point"]
    assert [p.run.text for p in placed if p.role != "label"] == []  # a marker: its label alone, in the marker type


def test_badge_step_mark_and_value_template_slots():
    """A declared layout can print a flag's badge, the state's step mark and a value template."""
    from authoring.render.counters.face import layout_face
    from authoring.render.counters.layout import layout_from_data

    layout = layout_from_data(
        {
            "id": "arty",
            "slots": {
                "badge": {"box": [0, 0, 0.45, 0.2], "font": [6, 7], "align": "left"},
                "state_mark": {"box": [0.55, 0, 1, 0.2], "font": [6, 7], "align": "right"},
                "symbol": {"box": [0.2, 0.22, 0.8, 0.5]},
                "text:support": {"box": [0, 0.52, 1, 0.72], "font": [6, 9], "text": "{support}({range})"},
                "values": {"box": [0, 0.75, 1, 1], "font": [6, 14], "values": ["attack", "defense", "movement"]},
            },
        }
    )
    face = FaceArt(
        **BLUE,
        symbol="artillery",
        values=("0", "2", "5", "2", "4"),
        value_ids=("attack", "defense", "support", "range", "movement"),
        badge="Gds",
        state_mark="•",
        layout=layout,
    )
    printed = {p.role: p.run.text for p in layout_face(face, 188, 14, 25.0, counter_mm=15.875).texts}
    assert printed == {"badge": "Gds", "state_mark": "•", "text": "5(2)"}
    values = layout_face(face, 188, 14, 25.0, counter_mm=15.875).values
    assert "".join(seg[0] for seg in values.segments) == "0-2-4"
    assert face_findings(face, 188, 14, 25.0, 15.875) == []


@pytest.mark.slow
@pytest.mark.parametrize("size_px", [72, 75, 94])
def test_module_pieces_and_card_thumbnails_are_the_printed_face_scaled_down(size_px):
    """Small faces are laid out at print resolution, then scaled: nothing is cut at 75 px either."""
    from authoring.render.counter_art import render_face

    game = _game(ROOT, "typhoon")
    for counter in list(game.counters.values())[::7]:
        for face in counter.faces:
            rendered = render_face(game, counter, face.state, size_px, 2)
            assert rendered.image.size == (size_px + 4, size_px + 4)
            assert rendered.issues == (), counter.id


def test_typhoon_no_zoc_counters_print_four_rows_not_five():
    """HQs and other No ZOC units (3.3.1): band, code and stacking points in the corners under it, the symbol
    with the designation beside it, then the values: the designation shares the symbol's row, nothing overlaps."""
    game = _game(ROOT, "typhoon")
    mm = game.counter_size_in * 25.4
    size = round(game.counter_size_in * 300)
    from authoring.render.counters.face import element_boxes, layout_face

    seen = set()
    for counter in game.counters.values():
        if "no-zoc" not in counter.flags:
            continue
        art, name = art_for(game, counter, None, mm)
        assert face_findings(art, size, safe_inset_px(size, mm), min_text_px(size, mm), mm) == [], name
        boxes = {
            tb.role: tb.box
            for tb in element_boxes(
                layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)
            )
        }
        symbol, designation = boxes["symbol"], boxes["designation"]
        assert designation[0] >= symbol[2] and designation[1] < symbol[3] and symbol[1] < designation[3], name
        assert boxes["setup_code"][1] < symbol[1] and boxes["text"][1] < symbol[1], name  # corners, above
        assert boxes["values"][1] > max(symbol[3], designation[3]), name  # one bottom line
        seen.add(counter.type)
    assert {"hq", "artillery", "recon"} <= seen


def test_the_size_chart_shows_the_size_marks_as_the_counters_draw_them():
    """1941 draws its X marks as signs on the counters (a `drawn: true` size-mark slot): its chart's size rows
    show the same signs; bfm, whose counters set them as letters, keeps letters."""
    from authoring.render.print.charts import _sample_for

    drawn = _sample_for(_game(ROOT, "1941"), "Army")
    letters = _sample_for(_game(ROOT, "bfm"), "Army")
    assert drawn is not None and letters is not None
    assert drawn.tobytes() != letters.tobytes()
    from authoring.render.counters.symbols import letter_mark_width, render_letter_mark

    height = drawn.height // 4
    width = round(letter_mark_width("XXXX", height))
    sign = render_letter_mark("XXXX", width, height, "#000000").getchannel("A")
    crop = drawn.crop(
        (
            (drawn.width - width) // 2,
            (drawn.height - height) // 2,
            (drawn.width - width) // 2 + width,
            (drawn.height - height) // 2 + height,
        )
    ).convert("L")
    dark = sum(1 for a, p in zip(sign.tobytes(), crop.tobytes()) if a > 200 and p < 80)
    assert dark >= 0.8 * sum(1 for a in sign.tobytes() if a > 200)
