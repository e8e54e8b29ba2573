"""Painted art on maps the game joins (Typhoon's N, M and P): each board cut from its own resampled art."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from art_support import ROOT
from PIL import Image

from authoring.hexgrid import vassal_label
from authoring.hexgrid.registration import Registration

TURNS = {"M": 0.6, "N": -0.5, "P": 0.3}


def _painted_typhoon(tmp: Path):
    """Typhoon with plain art files for its three maps, each turned its own way (the truth is the registration)."""
    from authoring.load import discover, load_game

    for folder in ("scenarios", "maps", "counters"):
        shutil.copytree(ROOT / folder / "typhoon", tmp / folder / "typhoon")
    (tmp / "maps/typhoon/art").mkdir()
    game = load_game(next(f for f in discover(tmp) if f.id == "typhoon")).game
    truth = {}
    for mid, m in game.maps.items():
        spec = m.grid.spec
        origin = m.grid.offset_to_hex(spec.first_column, spec.first_row)
        truth[mid] = Registration("flat", 40.0, origin, (60.0, 70.0), (1.0, 1.01), TURNS[mid])
        size = (round(spec.columns * 40 / 3**0.5 * 1.5 + 140), round(spec.rows * 40 * 1.01 + 170))
        Image.new("RGB", size, (230, 220, 190)).save(tmp / f"maps/typhoon/art/{mid}.jpg")
        path = tmp / f"maps/typhoon/{mid}.yaml"
        path.write_text(
            path.read_text() + f"art: {{image: art/{mid}.jpg, hex_size: 40.0, origin: {{hex: "
            f'"{m.grid.hex_to_label(origin)}", x: 60.0, y: 70.0}}, stretch: [1.0, 1.01], '
            f"rotation: {TURNS[mid]}}}\n"
        )
    result = load_game(next(f for f in discover(tmp) if f.id == "typhoon"))
    assert not [d for d in result.diagnostics if d.severity.value == "error"], result.diagnostics[:3]
    return result.game, truth


def test_joined_painted_maps_name_every_hex_as_its_art_paints_it(tmp_path: Path) -> None:
    from authoring.render.maps.draw import map_image_size, map_layout
    from authoring.render.shared.art import art_plan
    from authoring.vassal.boards import MapArt, hex_position, plan_boards

    game, truth = _painted_typhoon(tmp_path)
    px = 72.0
    arts = {m: MapArt(m, map_layout(game, m, px), map_image_size(game, m, px)) for m in game.maps}
    plans = plan_boards(game, arts)
    assert len(plans) == 3 and all(p.painted for p in plans)
    grids = {m.id: m.grid for m in game.maps.values()}
    frames = {m: art_plan(game.maps[m], px).to_image for m in game.maps}
    for m in game.maps.values():
        for h in m.grid.hexes:
            board, x, y = hex_position(plans, grids, m.id, h)
            bx, by = x - board.rect[0], y - board.rect[1]
            label = vassal_label(dict(board.params), bx, by)
            assert label == game.maps[board.map_id].grid.hex_to_label(h)
            # the same spot on the original scan of that board's map is the painted hex
            qx, qy = bx + board.crop[0], by + board.crop[1]
            a, b, c, d, e, f = frames[board.map_id]
            assert truth[board.map_id].image_to_hex(a * qx + b * qy + c, d * qx + e * qy + f) == h


@pytest.mark.slow
def test_the_joined_overview_shows_each_map_s_art(tmp_path: Path) -> None:
    from authoring.render.maps.draw import render_layout

    game, _ = _painted_typhoon(tmp_path)
    for mid in game.maps:  # paint each map's art one flat colour, to find it in the overview
        path = tmp_path / f"maps/typhoon/art/{mid}.jpg"
        colour = {"M": (200, 40, 40), "N": (40, 160, 40), "P": (40, 40, 200)}[mid]
        Image.new("RGB", Image.open(path).size, colour).save(path)
    from authoring.load import discover, load_game

    game = load_game(next(f for f in discover(tmp_path) if f.id == "typhoon")).game
    image, offsets = render_layout(game, 20.0)
    from authoring.render.maps.draw import map_layout

    for mid, colour in (("M", (200, 40, 40)), ("N", (40, 160, 40)), ("P", (40, 40, 200))):
        m = game.maps[mid]
        own = map_layout(game, mid, 20.0)
        h = m.grid.offset_to_hex(m.grid.spec.first_column + 5, m.grid.spec.first_row + 5)
        x, y = own.hex_to_pixel(h)
        px = image.getpixel((round(x + offsets[mid][0]), round(y + offsets[mid][1])))
        assert max(abs(a - b) for a, b in zip(px, colour)) < 30, (mid, px)
