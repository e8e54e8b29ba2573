"""Issue 30, the panel of real modules outside the corpus (docs/import-vmod.md): each finding on one of them
reproduced on a small module made by hand (`handmade`)."""

from __future__ import annotations

import handmade as hm
import yaml
from click.testing import CliRunner
from test_board_art import HALVES

from authoring.cli import main
from authoring.vassal.traits import BasicPiece, Piece


def test_svg_art_opening_with_a_comment_is_svg(tmp_path):
    """Paths of Glory (panel of issue 30): SVG counters that open with an editor's comment stopped the import
    with `UnidentifiedImageError` (taken for raster art). Such a counter and such a board are SVG, kept."""
    commented = b"<!--Created with an editor-->\n" + HALVES
    piece = hm.unit("Marker", "marker.svg")
    body = (
        hm.map_window("Main Map", hm.board("Main", "board.svg", hm.hex_grid()))
        + hm.palette(("Units", [hm.slot("Marker", piece, 1)]))
        + hm.setup("Opening", "open.vsav")
    )
    files = {"open.vsav": hm.saved_game({"Main Map": ["Main"]}, [hm.placed(piece, "Main Map", 134, 90, "10")])}
    module = hm.module(tmp_path, "commented", body, {"board.svg": commented, "marker.svg": commented}, files)
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    art = tmp_path / "p" / "maps" / "commented" / "art" / "board.svg"
    assert art.read_bytes() == commented
    assert (tmp_path / "p" / "counters" / "commented" / "art" / "marker.svg").read_bytes() == commented
    scenario = yaml.safe_load((tmp_path / "p" / "scenarios" / "commented" / "opening.yaml").read_text())
    assert [s["hex"] for units in scenario["setup"].values() for s in units] == ["0302"]


def test_a_placed_piece_with_no_name_and_no_image_is_named_as_such(tmp_path):
    """Nevsky (panel): pieces with no name and no image (game logic, text labels) were reported as "'' matches
    no piece slot". They are left out, as no counter can show them, and the warning says so."""
    logic, inf = Piece((BasicPiece(name="", image=""),)), hm.unit("Red Inf", "inf.png")
    body = (
        hm.map_window("Main Map", hm.board("Main", "board.svg", hm.hex_grid()))
        + hm.palette(("Units", [hm.slot("Red Inf", inf, 1), hm.slot("", logic, 2)]))
        + hm.setup("Opening", "open.vsav")
    )
    commands = [hm.placed(inf, "Main Map", 134, 90, "10"), hm.placed(logic, "Main Map", 30, 30, "11", gpid=2)]
    files = {"open.vsav": hm.saved_game({"Main Map": ["Main"]}, commands)}
    module = hm.module(tmp_path, "logic", body, {"board.svg": HALVES, "inf.png": hm.png((48, 48))}, files)
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    assert "open.vsav: a piece with no name has no image, so no counter shows it; not imported" in r.output
    assert "'' matches no piece slot" not in r.output
    scenario = yaml.safe_load((tmp_path / "p" / "scenarios" / "logic" / "opening.yaml").read_text())
    assert [u for units in scenario["setup"].values() for s in units for u in s["units"]] == ["red-inf"]
