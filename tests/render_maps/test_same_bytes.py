"""The speed paths (issue 18) write the same bytes as the plain ones: a face drawn once and shared,
cards and maps in parallel processes, one map drawing tiled for both papers, maps of the module
drawn in forked workers. Each test builds the same outputs both ways and compares their digests."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from authoring.names import map_file_name
from authoring.products.images import ImageCache
from authoring.render.counter_art import Faces, counter_image
from authoring.render.maps.draw import write_map_pngs
from authoring.render.print.cards import render_setup_card, write_setup_cards
from authoring.render.print.tiles import write_map_files, write_tiled_pdf
from authoring.vassal.art import png_bytes
from authoring.workers import Workers

pytestmark = pytest.mark.slow  # every map and card of the bundled games, twice


def _digests(paths) -> dict[str, str]:
    return {Path(p).name: hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths}


def test_kept_faces_draw_the_same_card_pixels(bfm):
    s = bfm.scenarios["seven-turn"]
    plain = [p.tobytes() for p in render_setup_card(bfm, s, "soviet")]
    faces = Faces()
    first = [p.tobytes() for p in render_setup_card(bfm, s, "soviet", faces=faces)]
    again = [p.tobytes() for p in render_setup_card(bfm, s, "soviet", faces=faces)]  # every face from the store
    assert plain == first == again


def test_card_faces_drawn_ahead_are_every_face_the_cards_draw(bfm, monkeypatch):
    """`draw_card_faces` (the module draws them once before forking its card workers) draws exactly the
    faces the set-up cards show: after it, no card draws a face, and the pages are the plain ones."""
    from authoring.render import counter_art
    from authoring.render.print.card_sides import card_sides
    from authoring.render.print.cards import draw_card_faces

    cards = [(s, side) for _, s in sorted(bfm.scenarios.items()) for side in card_sides(bfm, s)]
    plain = [[p.tobytes() for p in render_setup_card(bfm, s, side)] for s, side in cards]
    drawn: list[tuple] = []
    real = counter_art.render_face
    monkeypatch.setattr(counter_art, "render_face", lambda *a, **k: drawn.append(a[1:3]) or real(*a, **k))
    faces = Faces()
    draw_card_faces(bfm, faces)
    ahead = len(drawn)
    assert ahead == len(set(drawn)) > 0  # each face once
    assert [[p.tobytes() for p in render_setup_card(bfm, s, side, faces=faces)] for s, side in cards] == plain
    assert len(drawn) == ahead  # the cards drew none


def test_kept_faces_key_on_counter_state_and_size(bfm):
    a, b = sorted(bfm.counters.values(), key=lambda c: c.id)[:2]
    faces = Faces()
    assert counter_image(bfm, a, None, 72, faces=faces) is counter_image(bfm, a, None, 72, faces=faces)
    assert (
        counter_image(bfm, a, None, 72, faces=faces).tobytes() != counter_image(bfm, b, None, 72, faces=faces).tobytes()
    )
    assert counter_image(bfm, a, None, 60, faces=faces).size == (60, 60)
    assert counter_image(bfm, a, None, 72) is not counter_image(bfm, a, None, 72)  # without: drawn each time


def test_cards_in_parallel_are_the_serial_bytes(bfm, tmp_path):
    serial = _digests(write_setup_cards(bfm, tmp_path / "one", workers=Workers(1)))
    parallel = _digests(write_setup_cards(bfm, tmp_path / "two", workers=Workers(2)))
    assert serial == parallel and len(serial) == 12


def test_map_files_in_one_pool_are_the_separate_drawings(bfm, tmp_path):
    """PNGs and both papers' tiles from one pool (each map drawn once for its papers) against each
    file drawn on its own."""
    dpi, px = 60, 40
    pooled = write_map_files(bfm, tmp_path / "pool", px, ("letter", "a4"), dpi, workers=Workers(2))
    alone = write_map_pngs(bfm, tmp_path / "alone", px, workers=Workers(1))
    for paper in ("letter", "a4"):
        alone += [
            write_tiled_pdf(
                bfm, m, tmp_path / "alone" / map_file_name("tiles", m, bfm.maps, paper, ext="pdf"), paper, 0.5, dpi
            )
            for m in sorted(bfm.maps)
        ]
    assert [p.name for p in pooled] == [p.name for p in alone]
    assert _digests(pooled) == _digests(alone)


def test_heavy_draws_in_workers_are_the_serial_bytes():
    from PIL import Image

    jobs = [(f"k{i}", lambda i=i: Image.new("RGB", (64, 48), (i * 40, 90, 200 - i * 30))) for i in range(3)]
    serial = ImageCache(None, Workers(1)).many(jobs)
    forked = ImageCache(None, Workers(2)).many(jobs, heavy=True)
    assert serial == forked == [png_bytes(draw()) for _, draw in jobs]
