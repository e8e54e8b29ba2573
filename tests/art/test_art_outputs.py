"""The demo game's art in every output: resampled map, counter faces, the module in the real engine, the CLI."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from art_support import ROOT, load
from demo_art import CALIBRATION_HEXES, TOWN, TRUE_REGISTRATION
from PIL import Image

CHECKER = ROOT / ".." / "shared" / "tools" / "vassal-check" / "vassal-check"
HEXWRIGHT = [sys.executable, "-m", "authoring.cli"]


pytestmark = pytest.mark.slow  # whole builds of the painted game and the VASSAL engine


@pytest.fixture(scope="module")
def game():
    result = load(ROOT)
    assert result.ok, [str(d) for d in result.diagnostics]
    return result.game


def test_resampled_map_art_puts_every_painted_town_on_its_hex_centre(game) -> None:
    """The art was painted turned and stretched; in the output frame each town sits on the layout's centre."""
    from authoring.render.shared.art import art_plan, render_map_art

    m = game.maps["main"]
    for px in (40, 72, 112.5):  # 40: the JPEG is decoded at half size first
        image = np.asarray(render_map_art(m, px), dtype=np.int16)
        layout = art_plan(m, px).layout
        for h in m.hexes_with_feature("city"):
            x, y = (round(v) for v in layout.hex_to_pixel(h))
            assert np.abs(image[y, x] - np.array(TOWN)).max() < 45, (m.label(h), image[y, x])


def test_map_art_reaches_the_print_tiles_and_the_findings_image(game, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from authoring.render.maps.findings import findings_image
    from authoring.render.print.tiles import write_tiled_pdf

    pdf = write_tiled_pdf(game, "main", tmp_path / "main.pdf", "letter", 0.5, 150)
    pages = PdfReader(pdf).pages
    assert len(pages) >= 2
    filters = {str(img.image.format) for page in pages[1:] for img in page.images}
    assert filters == {"JPEG"}
    image = findings_image(game, game.scenarios["painted"], [], px_per_hex=72)
    assert image.width > 1000  # art frame (about 1,100 px) plus the findings panel


def _face(game, cid: str, state: str, size: int = 188, bleed: int = 9) -> np.ndarray:
    from authoring.render.counter_art import counter_image

    return np.asarray(counter_image(game, game.counters[cid], state, size, bleed), dtype=np.int16)


def test_full_face_art_is_the_face_and_the_values_come_from_data(game) -> None:
    from authoring.render.shared.art import face_image

    face = _face(game, "ger-xl", "full")
    art = np.asarray(face_image(game.counters["ger-xl"].faces[0].image, 188).convert("RGB"), dtype=np.int16)
    same = (np.abs(face[9 : 9 + 188, 9 : 9 + 188] - art).max(axis=2) <= 2).mean()
    assert same > 0.5  # the art, wherever no text is over it
    assert np.abs(face[0, 0] - art[0, 0]).max() <= 2  # the bleed repeats the art's edge
    dark = (face[9 + 120 : 9 + 188, :, :].max(axis=2) < 40).sum()
    assert dark > 500  # the values "8-6" printed over it
    other = _face(game, "ger-xlvii", "full")  # same art, other values
    assert not np.array_equal(face, other)
    assert np.array_equal(face, _face(game, "ger-xl", "full"))  # same input, same pixels


def test_picture_art_replaces_the_unit_symbol(game) -> None:
    drawn = _face(game, "ger-xvi" if "ger-xvi" in game.counters else "ger-vi", "full")
    star = _face(game, "sov-13", "half")
    red = (star[..., 0] > 170) & (star[..., 1] < 70) & (star[..., 2] < 70)
    assert red.sum() > 200  # the red star of the SVG emblem
    assert ((drawn[..., 0] > 170) & (drawn[..., 1] < 70)).sum() == 0


def test_editing_one_art_file_redraws_only_the_faces_that_use_it(tmp_path: Path) -> None:
    from art_support import copy_demo

    from authoring.pipeline.module import write_module as build_module
    from authoring.progress import Recorder

    root = copy_demo(tmp_path / "project")
    messages = Recorder()
    cache = tmp_path / "cache"
    build_module(load(root).game, tmp_path / "a", cache_dir=cache, progress=messages)
    face = root / "counters/bfm-art/art/panzer-face.png"
    image = Image.open(face).convert("RGB")
    image.putpixel((5, 5), (255, 0, 0))
    image.save(face)
    messages = Recorder()
    build_module(load(root).game, tmp_path / "b", cache_dir=cache, progress=messages)
    drawn = re.search(r"\(([0-9]+) files, ([0-9]+) images drawn", messages.notes[-1])
    panzers = [
        c
        for c in load(root).game.counters.values()
        if c.faces[0].image and c.faces[0].image.name == "art/panzer-face.png"
    ]
    cards = len({c.side for c in panzers})  # the set-up card pages that show a panzer: its side's, not the other's
    assert len(load(root).game.sides) > cards
    assert int(drawn.group(2)) == len(panzers) + cards


def test_calibrate_fits_the_demo_map_within_half_a_pixel() -> None:
    run = subprocess.run([*HEXWRIGHT, "calibrate", "maps/bfm-art/main.yaml"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    residuals = [float(v) for v in re.findall(r"\), residual ([0-9.]+) px", run.stdout)]
    assert len(residuals) == len(CALIBRATION_HEXES) and max(residuals) < 0.5
    text = (ROOT / "maps/bfm-art/main.yaml").read_text()
    for line in run.stdout.split("(under `art:`):\n", 1)[1].splitlines():
        assert line in text  # the map file holds exactly the fitted registration
    fitted = float(re.search(r"hex_size: ([0-9.]+)", run.stdout).group(1))
    assert abs(fitted - TRUE_REGISTRATION.hex_px) < 0.05


def test_calibrate_flags_a_misread_point() -> None:
    run = subprocess.run(
        [*HEXWRIGHT, "calibrate", "maps/bfm-art/main.yaml", "--point", "0505=660,610"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0
    assert re.search(
        r"0505: read \(660, 610\), where the other 6 put it .* <-- off by more than 5% of a hex", run.stdout
    )
    assert run.stdout.count("<-- off") == 1 and "warning: 0505 is the outlier" in run.stderr


def test_check_map_image_draws_the_fitted_grid_on_the_art(tmp_path: Path) -> None:
    out = tmp_path / "overlay.png"
    run = subprocess.run(
        [*HEXWRIGHT, "check", "maps/bfm-art/main.yaml", "--image", str(out)], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    image = np.asarray(Image.open(out).convert("RGB"), dtype=np.int16)
    assert image.shape[:2] == (1520, 1780)  # the art as given, not resampled
    grid = np.abs(image - np.array((255, 0, 160))).max(axis=2) < 40
    assert grid.sum() > 20_000
    x, y = (round(v) for v in TRUE_REGISTRATION.hex_to_image(TRUE_REGISTRATION.origin_hex))
    assert grid[y - 2 : y + 3, x - 2 : x + 3].any()  # the centre dot of 0101 where the artist painted it


@pytest.mark.skipif(
    not CHECKER.exists(), reason="../shared/tools/vassal-check not found: the real-engine check cannot run"
)
def test_engine_names_every_piece_by_the_hex_painted_under_it(game, tmp_path: Path) -> None:
    """In the real engine, every set-up piece is on its scenario hex, and that hex is the one the
    artist painted at that spot (the piece's pixel, taken back into the original scan)."""
    from authoring.pipeline.module import write_module as build_module
    from authoring.render.shared.art import art_plan
    from authoring.vassal.compile import DEFAULT_PX_PER_HEX

    path = build_module(game, tmp_path, cache_dir=tmp_path / "cache")
    run = subprocess.run([str(CHECKER), str(path), "--pieces"], capture_output=True, text=True, timeout=600)
    report = json.loads(run.stdout)
    assert report["ok"] and report["errors"] == []
    m = game.maps["main"]
    plan = art_plan(m, DEFAULT_PX_PER_HEX)
    with zipfile.ZipFile(path) as z:
        board = Image.open(io.BytesIO(z.read("images/board-main.jpg")))
        assert board.format == "JPEG" and board.size == plan.size
    scenario = game.scenarios["painted"]
    wanted = {uid: m.label(p.hex) for p in scenario.setup for uid in p.units}
    markers = [uid for p in scenario.markers for uid in p.units]  # the city control markers, one a city
    marker_names = {game.counters[u].display_name for u in markers}
    (setup,) = report["setups"]
    on_map = [p for p in setup["pieces"] if p["board"] == m.name]
    assert len(on_map) == len(wanted) + len(markers) == 35 + 9
    assert sum(p["name"].rsplit(" (", 1)[0] in marker_names for p in on_map) == 9
    a, b, c, d, e, f = plan.to_image
    for piece in on_map:
        painted = TRUE_REGISTRATION.image_to_hex(
            a * piece["x"] + b * piece["y"] + c, d * piece["x"] + e * piece["y"] + f
        )
        assert piece["location"] == m.label(painted)
    names = {game.counters[u].display_name: label for u, label in wanted.items()}
    for piece in on_map:
        base = piece["name"].rsplit(" (", 1)[0]
        if base in names:
            assert piece["location"] == names[base]


def test_the_module_grid_origin_is_exact_on_the_resampled_art(game) -> None:
    """VASSAL's x0, y0 are integers: the frame puts that hex centre on whole pixels, so nothing is rounded."""
    from authoring.hexgrid import vassal_grid_params, vassal_label
    from authoring.render.shared.art import art_plan, vassal_anchor

    m = game.maps["main"]
    layout = art_plan(m, 72).layout
    params = vassal_grid_params(layout, m.grid)
    assert (params["x0"], params["y0"]) == layout.hex_to_pixel(vassal_anchor(m.grid))
    for h in m.grid.hexes:
        x, y = layout.hex_to_pixel(h)
        assert vassal_label(params, x, y) == m.label(h)


def test_transparent_map_art_lies_on_paper(tmp_path: Path) -> None:
    from dataclasses import replace

    from authoring.model.art import ArtImage
    from authoring.render.shared.art import PAPER, render_map_art

    m = load(ROOT).game.maps["main"]
    png = tmp_path / "clear.png"
    Image.new("RGBA", m.art.image.size, (200, 0, 0, 0)).save(png)
    art = replace(m.art, image=ArtImage("clear.png", "x", "PNG", m.art.image.size, str(png)))
    image = render_map_art(replace(m, art=art), 40)
    assert image.getpixel((image.width // 2, image.height // 2)) == PAPER


def test_text_over_painted_art_has_a_halo_so_it_reads_on_dark_art(game) -> None:
    """The panzer's black designation over its black tank gets a thin white outline (#31)."""
    from authoring.render.shared.art import face_image

    face = _face(game, "ger-xl", "full")[9 : 9 + 188, 9 : 9 + 188]
    art = np.asarray(face_image(game.counters["ger-xl"].faces[0].image, 188).convert("RGB"), dtype=np.int16)
    white_on_dark = ((face.min(axis=2) > 225) & (art.max(axis=2) < 70)).sum()
    assert white_on_dark > 30
