"""Golden images: a fixed sample of counters per bundled game, a turn record page and a map corner,
compared with a perceptual difference (blurred, in luminance) so a regression is seen and noise is not.

Regenerate after an intended change with ``HEXWRIGHT_UPDATE_GOLDEN=1`` and look at the new images
(tests/render/golden/) before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from authoring.load import discover, load_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")

SAMPLE = {
    "bfm": ["ger-xxxiv", "ger-xlvi", "sov-33", "sov-1shock", "sov-tank"],
    "1941": ["ger-pzg1", "ger-4a", "ger-19m", "rom-cav", "sov-11", "fin-kar"],
    "typhoon": [
        "ger-1pz-pz",
        "ger-art-1",
        "sov-1rd",
        "sov-nkvd-1",
        "sov-hq-16",
        "ger-air-f1",
        "ger-air-dummy1",
        "sov-tb-10",
        "ger-strongpoint",
        "mk-repl-soviet",
    ],
}
"""Counters chosen to cover each game's layouts and rule-driven markings."""

MEAN_LIMIT = 2.0
"""Mean luminance difference (0-255) after a 1 px blur."""
PIXEL_LIMIT = 0.005
"""Share of pixels allowed to differ by more than 48 levels after the blur."""


def _game(game_id: str):
    return load_game(next(f for f in discover(ROOT) if f.id == game_id)).game


def perceptual_difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean difference, share of strongly different pixels) of two same-size images, seen slightly blurred."""
    la = a.convert("L").filter(ImageFilter.GaussianBlur(1))
    lb = b.convert("L").filter(ImageFilter.GaussianBlur(1))
    diff = ImageChops.difference(la, lb).tobytes()
    return sum(diff) / len(diff), sum(1 for p in diff if p > 48) / len(diff)


def _check(name: str, image: Image.Image) -> None:
    path = GOLDEN / name
    if os.environ.get("HEXWRIGHT_UPDATE_GOLDEN") or not path.exists():
        if not os.environ.get("HEXWRIGHT_UPDATE_GOLDEN"):
            pytest.fail(f"no golden image {path.name}: run with HEXWRIGHT_UPDATE_GOLDEN=1 and review it")
        GOLDEN.mkdir(exist_ok=True)
        image.save(path, optimize=True)
    golden = Image.open(path)
    assert golden.size == image.size, f"{name}: size {image.size} != golden {golden.size}"
    mean, share = perceptual_difference(golden, image)
    assert mean < MEAN_LIMIT and share < PIXEL_LIMIT, f"{name}: mean {mean:.2f}, {share:.2%} of pixels differ"


def counter_strip(game, ids: list[str]) -> Image.Image:
    """The sample's faces (and backs) side by side at 300 dpi."""
    from authoring.render.counter_art import back_state, counter_image

    size = round(game.counter_size_in * 300)
    faces = []
    for cid in ids:
        counter = game.counters[cid]
        back = back_state(game, counter)
        faces += [counter_image(game, counter, state, size) for state in [counter.faces[0].state] + [back] * bool(back)]
    strip = Image.new("RGB", (len(faces) * (size + 10), size), "white")
    for i, face in enumerate(faces):
        strip.paste(face, (i * (size + 10), 0))
    return strip


@pytest.mark.parametrize("game_id", sorted(SAMPLE))
def test_counter_sample_matches_golden(game_id):
    _check(f"counters-{game_id}.png", counter_strip(_game(game_id), SAMPLE[game_id]))


def layout_sample(game) -> list[str]:
    """One counter per distinct face layout the game uses (and per back layout), in natural id order: the
    contact sheet a reviewer looks at to see every kind of counter the game prints."""
    from authoring.names import natural_key
    from authoring.render.counter_art import art_for, back_state

    seen: dict[tuple, str] = {}
    for counter in sorted(game.counters.values(), key=lambda c: natural_key(c.id)):
        states = [counter.faces[0].state] + [s for s in [back_state(game, counter)] if s]
        kinds = tuple(
            art_for(game, counter, state)[0].layout.id if art_for(game, counter, state)[0].layout else ""
            for state in states
        )
        key = (kinds, counter.marker, bool(counter.faces[0].image), bool(counter.faces[0].picture))
        seen.setdefault(key, counter.id)
    return list(seen.values())


@pytest.mark.parametrize("game_id", ["bfm", "bfm-art", "1941", "typhoon"])
def test_every_counter_layout_matches_its_golden_contact_sheet(game_id):
    """#31: a contact sheet per game of every distinct counter layout at 300 dpi (faces and backs), held
    against a golden image; the overlap checker covers the same faces (test_counter_check)."""
    game = _game(game_id)
    ids = layout_sample(game)
    assert ids and len(ids) <= len(game.counters)
    per_row = 8
    rows = [counter_strip(game, ids[i : i + per_row]) for i in range(0, len(ids), per_row)]
    sheet = Image.new("RGB", (max(r.width for r in rows), sum(r.height + 10 for r in rows)), "white")
    y = 0
    for row in rows:
        sheet.paste(row, (0, y))
        y += row.height + 10
    _check(f"layouts-{game_id}.png", sheet)


def test_turn_record_page_matches_golden():
    from authoring.render.print.charts import turn_blocks
    from authoring.render.shared.canvas import PageSpec, flow

    game = _game("typhoon")
    spec = PageSpec("letter")
    page = flow(turn_blocks(game, game.scenarios["campaign"], spec.content_size), spec, game.name)[0]
    _check("turn-record-typhoon-campaign-1.png", page.image)


@pytest.mark.slow
def test_map_corner_matches_golden():
    from authoring.render.maps.draw import render_map

    game = _game("1941")
    image = render_map(game, sorted(game.maps)[0], 150)
    _check("map-corner-1941.png", image.crop((0, 0, 900, 700)))


def test_the_difference_sees_a_regression_and_not_noise():
    game = _game("typhoon")
    strip = counter_strip(game, ["sov-1rd"])
    noisy = strip.copy()
    noisy.putpixel((5, 5), (0, 0, 0))  # one stray pixel: noise
    assert perceptual_difference(strip, noisy)[1] < PIXEL_LIMIT
    from dataclasses import replace

    counter = game.counters["sov-1rd"]
    moved = counter_strip(
        replace(game, counters={**game.counters, "sov-1rd": replace(counter, setup_code="")}), ["sov-1rd"]
    )
    mean, share = perceptual_difference(strip, moved)  # a dropped set-up code: a regression
    assert mean >= MEAN_LIMIT or share >= PIXEL_LIMIT
