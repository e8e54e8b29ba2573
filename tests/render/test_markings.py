"""Rule markings the data declares (`printed:`) are on every face concerned, and a layout that leaves
one out is a located finding, one per marking and layout, counting the counters it concerns."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import ImageColor

from authoring.load import discover, load_game
from authoring.render.counter_art import art_for
from authoring.render.counters.face import layout_face, min_text_px, safe_inset_px
from authoring.render.counters.markings import printed_findings
from authoring.validate import findings

ROOT = Path(__file__).resolve().parents[2]


def _loaded(game_id: str):
    return load_game(next(f for f in discover(ROOT) if f.id == game_id))


def _texts(game, counter, state) -> dict[str, list[str]]:
    mm = game.counter_size_in * 25.4
    size = round(game.counter_size_in * 300)
    art, _ = art_for(game, counter, state, mm)
    out: dict[str, list[str]] = {}
    for placed in layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm).texts:
        out.setdefault(placed.role, []).append(placed.run.text)
    return out


def test_every_typhoon_unit_prints_its_stacking_points_on_every_face():
    game = _loaded("typhoon").game
    units = [c for c in game.counters.values() if c.stacking is not None and not c.marker]
    assert len(units) > 300
    for counter in units:
        want = str(int(counter.stacking)) if float(counter.stacking).is_integer() else str(counter.stacking)
        for face in counter.faces:
            assert _texts(game, counter, face.state).get("text") == [want], (counter.id, face.state)


def test_moscow_air_units_carry_the_word_moscow_and_the_others_do_not():
    game = _loaded("typhoon").game
    air = [c for c in game.counters.values() if c.type in ("fighter", "bomber")]
    moscow = [c for c in air if "moscow" in c.flags]
    assert moscow and len(moscow) < len(air)
    for counter in air:
        badge = _texts(game, counter, counter.faces[0].state).get("badge")
        assert badge == (["Moscow"] if counter in moscow else None), counter.id


def test_the_bundled_games_have_no_marking_findings():
    for game_id in ("bfm", "bfm-art", "1941", "typhoon"):
        assert printed_findings(_loaded(game_id).game) == [], game_id


def test_a_layout_without_the_stacking_slot_is_one_finding_per_layout_at_the_declaration():
    result = _loaded("typhoon")
    game = result.game
    layouts = tuple(
        dict(lay, slots={k: v for k, v in lay["slots"].items() if k != "text:stacking"})
        if lay["id"] in ("unit", "banded")
        else lay
        for lay in game.counter_layouts
    )
    broken = replace(game, counter_layouts=layouts)
    found = printed_findings(broken)
    assert [d.code for d in found] == ["HW-PRINT-001", "HW-PRINT-001"]
    assert {d.severity.name for d in found} == {"ERROR"}
    by_layout = {d.message.split("layout '")[1].split("'")[0]: d for d in found}
    assert set(by_layout) == {"banded", "unit"}
    units = sum(
        1
        for c in game.counters.values()
        if c.stacking is not None
        and not c.marker
        and any(art_for(game, c, f.state)[0].layout.id == "unit" for f in c.faces)
    )
    assert f"{units} counter(s)" in by_layout["unit"].message
    assert "Typhoon 3.2.1" in by_layout["unit"].message
    loc = by_layout["unit"].loc
    assert loc.file.endswith("game.yaml") and loc.line == game.printed_locs[0].line
    assert "{stacking}" in by_layout["unit"].help


def test_a_printed_flag_without_badge_or_band_is_a_finding_and_fails_validation():
    result = _loaded("typhoon")
    game = result.game
    flags = tuple(
        replace(f, extra={k: v for k, v in f.extra.items() if k != "badge"}) if f.id == "moscow" else f
        for f in game.flags
    )
    broken = replace(result, game=replace(game, flags=flags))
    codes = [d.code for d in findings(broken) if d.code.startswith("HW-PRINT")]
    assert codes == ["HW-PRINT-002"]


def test_bridges_and_arrowed_rail_cuts_print_their_arrow():
    """Typhoon 13.2.1: a bridge's arrow points at the bridged hexside; 12.4.6: some Rail Cut markers carry an
    arrow. The arrow is ink on the face, centred over the label."""
    from authoring.render.counters.face import draw_face, layout_face

    loaded = _loaded("typhoon").game
    mm = loaded.counter_size_in * 25.4
    size = round(loaded.counter_size_in * 300)
    for cid, symbol in (("ger-bridge-1", "bridge"), ("mk-rail-cut-arrow", "arrow")):
        art, _ = art_for(loaded, loaded.counters[cid], None, mm)
        assert art.symbol == symbol
        lay = layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)
        x0, y0, x1, y1 = lay.symbol_box
        image = draw_face(art, size, 0, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)[0].convert("L")
        shaft = image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))
        assert shaft < 80, (cid, shaft)  # the arrow's shaft runs down the middle
    plain, _ = art_for(loaded, loaded.counters["mk-rail-cut"], None, mm)
    assert plain.symbol == "rail"  # the other half: the track icon, no arrow
    assert next(t for t in loaded.unit_types if t.id == "armored-train").symbol == "armored-train"


def test_markers_of_one_layout_print_their_labels_at_one_size():
    """#31: one type scale for markers ('Step Loss' is not set large beside a small 'Victory Points')."""
    game = _loaded("typhoon").game
    sizes = set()
    for counter in game.counters.values():
        if counter.marker and art_for(game, counter, None)[0].layout.id == "marker-icon":
            mm = game.counter_size_in * 25.4
            size = round(game.counter_size_in * 300)
            art, _ = art_for(game, counter, None, mm)
            laid = layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)
            sizes |= {(round(p.run.size_px, 1), p.run.bold) for p in laid.texts if p.role == "label"}
    assert len(sizes) == 1, sizes  # one size, one (bold) weight: a long word takes its short form, not a lighter face


def _ink_share(image, box, background) -> float:
    """Share of the pixels in `box` far from `background` (the icon's ink)."""
    from PIL import ImageColor

    bg = ImageColor.getrgb(background)[:3]
    data = image.crop(box).convert("RGB").tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    return sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, bg)) > 150) / len(pixels)


def test_markers_print_the_icon_and_the_side_colour_their_data_declares():
    """#31: a marker with `icon:` prints it over its label; one with `side:` prints on that side's colour,
    the others on the neutral marker grey. Sampled on the rendered 300 dpi faces of two games."""
    from authoring.render.counter_art import counter_image

    seen = 0
    for game_id in ("bfm", "typhoon"):
        game = _loaded(game_id).game
        mm = game.counter_size_in * 25.4
        size = round(game.counter_size_in * 300)
        for counter in (c for c in game.counters.values() if c.marker):
            art, name = art_for(game, counter, None, mm)
            image = counter_image(game, counter, None, size)
            want_bg = game.side(counter.side).color if counter.side else "#dddddd"
            assert image.getpixel((2, 2)) == ImageColor.getrgb(want_bg)[:3], name
            laid = layout_face(art, size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm)
            if counter.symbol in ("", "arrow"):
                continue
            assert laid.symbol_box is not None and art.layout.id.startswith("marker-icon"), name
            assert _ink_share(image, laid.symbol_box, want_bg) > 0.04, name
            assert laid.symbol_box[3] <= min(p.top for p in laid.texts if p.role == "label"), name  # icon over label
            seen += 1
    assert seen >= 25


def test_a_markers_icon_and_side_come_from_its_data_not_its_game():
    """The same marker without `icon:` prints no icon (and keeps the plain marker layout)."""
    loaded = _loaded("bfm").game
    counter = loaded.counters["mk-attack"]
    bare = replace(counter, symbol="")
    game = replace(loaded, counters={**loaded.counters, "mk-attack": bare})
    art, _ = art_for(game, bare, None)
    assert art.layout.id == "marker" and art.symbol == "marker"


def test_the_schema_offers_exactly_the_icons_there_are():
    import json

    from authoring.render.counters.icons import ICONS

    schema = json.loads((ROOT / "schemas/counters.schema.json").read_text(encoding="utf-8"))
    enums = []

    def walk(node):
        if isinstance(node, dict):
            if "icon" in node.get("properties", {}):
                enums.append(node["properties"]["icon"]["enum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert enums and all(sorted(e) == sorted(ICONS) for e in enums)
