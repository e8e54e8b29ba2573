"""Issue 30: boards as the module has them. An SVG board stays SVG (the project's map art, the rebuilt module's
board, drawn from the SVG in the print maps), and the boards of a map at different scales each keep their
own pixels in the rebuilt module (nothing resampled). Modules made by hand (`handmade`)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import handmade as hm
import pytest
import yaml
from click.testing import CliRunner

from authoring.cli import main

INF = hm.unit("Red Inf", "inf.png")
HALVES = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="540" height="420"><rect width="270" height="420" '
    b'fill="#ff0000"/><rect x="270" width="270" height="420" fill="#0000ff"/></svg>'
)
"""A 540 x 420 board, red left of x = 270 and blue right of it: hexes 0501 (x 238) red, 0601 (x 290) blue."""


pytestmark = pytest.mark.slow  # module builds of imported games


def _grid(dx: float, dy: float, x0: int, y0: int, first_column: int = 1) -> str:
    return (
        f'<{hm.HEX} dx="{dx}" dy="{dy}" x0="{x0}" y0="{y0}" sideways="false" snapTo="true" visible="false">'
        f'<{hm.NUMBERING} first="H" hOff="{first_column}" vOff="1" hLeading="1" vLeading="1" hType="N" vType="N" '
        f'sep="" stagger="false" locationFormat="$gridLocation$"/></{hm.HEX}>'
    )


def _module(tmp_path: Path, name: str, boards: dict[str, tuple[str, bytes, str]], spots: list[tuple[int, int]]) -> Path:
    """A module of one map window holding `boards` (name -> image name, bytes, grid) side by side, and a
    set-up with a piece at each of `spots` (map pixels)."""
    body = (
        hm.roster("Red", "Blue")
        + hm.map_window("Main Map", *(hm.board(b, image, grid) for b, (image, _, grid) in boards.items()))
        + hm.palette(("Units", [hm.slot("Red Inf", INF, 1)]))
        + hm.setup("Opening", "open.vsav")
    )
    commands = [hm.placed(INF, "Main Map", x, y, str(10 + i)) for i, (x, y) in enumerate(spots)]
    files = {"open.vsav": hm.saved_game({"Main Map": list(boards)}, commands)}
    images = {image: data for image, data, _ in boards.values()}
    return hm.module(tmp_path, name, body, {**images, "inf.png": hm.png((48, 48))}, files)


def _import_and_build(tmp_path: Path, module: Path, game: str, what: str = "module") -> Path:
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["build", what, game, "--project", str(tmp_path / "p"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return tmp_path / "p"


def _boards(vmod: Path) -> tuple[dict[str, bytes], dict[str, dict[str, str]]]:
    """The rebuilt module's board images (archive name -> bytes) and each board's grid attributes by name."""
    with zipfile.ZipFile(vmod) as z:
        images = {n: z.read(n) for n in z.namelist() if n.startswith("images/board")}
        build = z.read("buildFile.xml").decode()
    grids = {
        name: dict(re.findall(r'(\w+)="([^"]*)"', grid))
        for name, grid in re.findall(rf'<{hm.BOARD} name="([^"]+)"[^>]*>\s*<{hm.HEX} ([^>]*)>', build)
    }
    return images, grids


def _same_pieces(original: Path, rebuilt: Path, named: bool = True) -> None:
    """The engine puts every piece of the rebuilt set-up where it puts the original's (when it is here); by
    pixel only, not `named`, when the original's grid has no numbering (the engine names no location)."""
    from engine import CHECKER, engine_report

    if CHECKER.exists():
        spots = [
            sorted(
                (p["board"], p["location"] if named else "", p["x"], p["y"])
                for p in engine_report(v)["setups"][0]["pieces"]
            )
            for v in (original, rebuilt)
        ]
        assert spots[1] == spots[0] and spots[0], spots


def test_svg_board_stays_svg_in_the_project_the_module_and_the_print_maps(tmp_path):
    """Issue 30: an SVG board was made PNG at the import (map art had to be raster). Now the project's map
    art is the SVG itself, the rebuilt module's board is that SVG, and the maps drawn for print come from it."""
    from authoring.load import discover, load_game
    from authoring.render.print.tiles import tile_dpi
    from authoring.render.shared.art import art_plan, registration_overlay, render_map_art

    module = _module(tmp_path, "svgboard", {"Main": ("board.svg", HALVES, hm.hex_grid())}, [(134, 90)])
    project = _import_and_build(tmp_path, module, "svgboard")
    doc = yaml.safe_load((project / "maps" / "svgboard" / "Main.yaml").read_text())
    assert doc["art"]["image"] == "art/board.svg"
    assert (project / "maps" / "svgboard" / "art" / "board.svg").read_bytes() == HALVES
    vmod = project / "build" / "svgboard" / "svgboard.vmod"
    images, grids = _boards(vmod)
    assert list(images.values()) == [HALVES] and next(iter(images)).endswith(".svg")
    assert (float(grids["Main"]["dx"]), float(grids["Main"]["dy"]), grids["Main"]["x0"]) == (52.0, 60.0, "30")
    _same_pieces(module, vmod)

    m = load_game(next(iter(discover(project)))).game.maps["Main"]
    assert m.art.image.format == "SVG" and m.art.image.size == (540, 420)
    assert tile_dpi(m, 600) == 600  # a drawing prints at any resolution, not at its 300 px per inch
    image, plan = render_map_art(m, 150), art_plan(m, 150)  # 2.5 times the board's own size
    assert image.size == plan.size and abs(image.width - 1350) <= 2
    for label, colour in (("0501", (255, 0, 0)), ("0601", (0, 0, 255)), ("0105", (255, 0, 0)), ("0905", (0, 0, 255))):
        x, y = plan.layout.hex_to_pixel(m.grid.label_to_hex(label))
        assert image.getpixel((round(x), round(y))) == colour, label
    proof = registration_overlay(m)  # `check --image`: the grid on the art at its own size
    assert proof.size == (540, 420) and proof.getpixel((200, 200))[0] > 180 and proof.getpixel((340, 200))[2] > 180


def test_svg_board_that_links_to_other_files_is_made_png_with_a_finding(tmp_path):
    linked = HALVES.replace(b"</svg>", b'<image href="photo.png" width="10" height="10"/></svg>')
    module = _module(tmp_path, "linked", {"Main": ("board.svg", linked, hm.hex_grid())}, [(134, 90)])
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load((tmp_path / "p" / "maps" / "linked" / "Main.yaml").read_text())
    assert doc["art"]["image"] == "art/board.png"
    assert "board 'Main': its SVG image is made PNG at its own size: it links to other files" in r.output


def test_boards_at_different_scales_each_keep_their_pixels_in_the_rebuilt_module(tmp_path):
    """Issue 30: a map of several boards was redrawn at one hex size (each board resampled up or down). Two
    boards, hexes 60 and 90 px high, numbered apart (the game lays them apart): the rebuilt module's boards are
    the module's two files as they are, each with its own grid, and the engine puts the pieces where it did."""
    small, large = hm.png((540, 420), "#e8e4c9"), hm.png((810, 630), "#c9e4e8")
    boards = {"A": ("a.png", small, _grid(52.0, 60.0, 30, 30)), "B": ("b.png", large, _grid(78.0, 90.0, 45, 45, 21))}
    module = _module(tmp_path, "scales", boards, [(134, 90), (540 + 45 + 78, 45 + 90 + 45)])
    project = _import_and_build(tmp_path, module, "scales")
    assert "layout" in yaml.safe_load((project / "scenarios" / "scales" / "game.yaml").read_text())
    vmod = project / "build" / "scales" / "scales.vmod"
    images, grids = _boards(vmod)
    assert sorted(images.values()) == sorted([small, large])
    assert {b: (float(g["dx"]), float(g["dy"]), g["x0"], g["y0"]) for b, g in grids.items() if b in boards} == {
        "A": (52.0, 60.0, "30", "30"),
        "B": (78.0, 90.0, "45", "45"),
    }
    _same_pieces(module, vmod)


def test_a_grid_of_fractional_spacing_puts_pieces_at_the_original_pixel(tmp_path):
    """Kassala (panel of issue 30): a grid without numbering, spacing 227.9 x 265.9, origin (51, 55) on its
    first column. The rebuilt grid counted from the first unshifted line, a column left of the original's
    origin, whose centre is off the pixel: the engine rounds an origin to a pixel, so pieces stood a pixel off
    the original's. The rebuilt grid's origin is now the original's own, and every piece is at the very pixel
    the engine snaps the original's to."""
    from authoring.hexgrid.vassal import vassal_snap
    from authoring.vmod.pieces import basic_state, decode_piece
    from authoring.vmod.savedgame import read_saved_game

    dx, dy = 227.9, 265.9
    grid = f'<{hm.HEX} dx="{dx}" dy="{dy}" x0="51" y0="55" sideways="false" snapTo="true" visible="false"/>'
    original = {"sideways": False, "x0": 51, "y0": 55, "dx": dx, "dy": dy}
    spots = [
        vassal_snap(original, 51 + k * dx, 55 + r * dy + (dy / 2 if k % 2 else 0)) for k in range(6) for r in (1, 2)
    ]
    module = _module(tmp_path, "kassala", {"Main": ("board.png", hm.png((1450, 1100), "#e8e4c9"), grid)}, spots)
    project = _import_and_build(tmp_path, module, "kassala")
    vmod = project / "build" / "kassala" / "kassala.vmod"
    _, grids = _boards(vmod)
    assert (grids["Main"]["x0"], grids["Main"]["y0"]) == ("51", "55")
    with zipfile.ZipFile(vmod) as z:
        setup = next(n for n in z.namelist() if n.endswith(".vsav") and "opening" in n.lower())
        game = read_saved_game(z.read(setup), setup)
    rebuilt = sorted(basic_state(decode_piece(p.type, p.state, {})[1])[1:] for p in game.pieces)
    assert rebuilt == sorted(spots)
    _same_pieces(module, vmod, named=False)


def test_a_board_one_set_up_uses_alone_is_one_image_in_the_rebuilt_module(tmp_path):
    """Dreadball (panel of issue 30): boards laid apart, a set-up on one of them only. That set-up's board
    stands alone at the window's corner rather than beside the others, and was made a board of its own
    ("B (whole map)") with a second copy of the same image. It is now the same board (one image, one entry in
    the board picker), placed at the corner for that set-up, and the engine finds every piece where it did."""
    a, b = hm.png((540, 420), "#e8e4c9"), hm.png((540, 420), "#c9e4e8")
    boards = {"A": ("a.png", a, _grid(52.0, 60.0, 30, 30)), "B": ("b.png", b, _grid(52.0, 60.0, 30, 30, 21))}
    body = (
        hm.roster("Red", "Blue")
        + hm.map_window("Main Map", *(hm.board(n, image, grid) for n, (image, _, grid) in boards.items()))
        + hm.palette(("Units", [hm.slot("Red Inf", INF, 1)]))
        + hm.setup("Both", "both.vsav")
        + hm.setup("B only", "b.vsav")
    )
    both = hm.saved_game({"Main Map": ["A", "B"]}, [hm.placed(INF, "Main Map", 134, 90, "10")])
    alone = hm.saved_game({"Main Map": ["B"]}, [hm.placed(INF, "Main Map", 134, 90, "11")])
    images = {"a.png": a, "b.png": b, "inf.png": hm.png((48, 48))}
    module = hm.module(tmp_path, "alone", body, images, {"both.vsav": both, "b.vsav": alone})
    project = _import_and_build(tmp_path, module, "alone")
    assert yaml.safe_load((project / "scenarios" / "alone" / "b-only.yaml").read_text())["maps"] == ["B"]
    vmod = project / "build" / "alone" / "alone.vmod"
    found, grids = _boards(vmod)
    assert sorted(found.values()) == sorted([a, b])
    assert sorted(grids) == ["A", "B"]
    from engine import CHECKER, engine_report

    if CHECKER.exists():
        spots = [
            {s["name"]: sorted((p["board"], p["location"], p["x"], p["y"]) for p in s["pieces"]) for s in r["setups"]}
            for r in (engine_report(module), engine_report(vmod))
        ]
        assert spots[1]["B only"] == spots[0]["B only"] == [("B", "2302", 134, 90)]
        assert spots[1]["Both"] == spots[0]["Both"]
