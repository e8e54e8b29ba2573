"""Issue 30, the panel of real modules outside the corpus (docs/import-vmod.md): each finding on one of them
reproduced on a small module made by hand (`handmade`)."""

from __future__ import annotations

import html
from dataclasses import dataclass

import handmade as hm
import yaml
from click.testing import CliRunner
from test_board_art import HALVES

from authoring.cli import main
from authoring.vassal.codec import encode
from authoring.vassal.traits import BasicPiece, Layer, Piece, UsePrototype

B = hm.B


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


@dataclass(frozen=True)
class _PlaceMarker:
    """A Place Marker trait (`placemark;`) with its marker written out as an add-piece command, as the engine
    saves one defined in the trait rather than by a palette slot's path."""

    marker: Piece

    def type_string(self) -> str:
        fields = ["Make mat", "77,130", self.marker.slot_text(), "null", "0", "0", "false", "", "", "9", "0", "false"]
        return "placemark;" + encode(fields, ";")

    def state_string(self) -> str:
        return ""


def test_a_piece_a_place_marker_trait_makes_is_a_counter(tmp_path):
    """Nevsky (panel): lord mats that a prototype's Place Marker trait makes, and no palette slot defines,
    were listed as "matches no piece slot" and left out of the set-ups. Such a piece is a counter, its art
    and states from the marker's definition, and the set-up places it like any other (here at its second
    level, by the marker's own level names)."""
    mat = Piece((Layer(("mat.png", "mat_back.png"), ("Fresh", "Spent"), name="Side"), BasicPiece(name="", image="")))
    card = hm.unit("Hermann", "card.png", UsePrototype("Lord"))
    proto = f'<{B}module.PrototypeDefinition name="Lord">{html.escape(Piece((_PlaceMarker(mat), BasicPiece())).slot_text())}</{B}module.PrototypeDefinition>'
    body = (
        hm.map_window("Main Map", hm.board("Main", "board.svg", hm.hex_grid()))
        + hm.palette(("Units", [hm.slot("Hermann", card, 1)]))
        + f"<{B}module.PrototypesContainer>{proto}</{B}module.PrototypesContainer>"
        + hm.setup("Opening", "open.vsav")
    )
    spent = Piece((Layer(("mat.png", "mat_back.png"), ("Fresh", "Spent"), name="Side", level=2), mat.basic))
    commands = [hm.placed(card, "Main Map", 134, 90, "10"), hm.placed(spent, "Main Map", 30, 30, "11", gpid=9)]
    files = {"open.vsav": hm.saved_game({"Main Map": ["Main"]}, commands)}
    images = {"board.svg": HALVES, "card.png": hm.png((48, 48))}
    images |= {"mat.png": hm.png((96, 96), "#00ff00"), "mat_back.png": hm.png((96, 96), "#0000ff")}
    module = hm.module(tmp_path, "mats", body, images, files)
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    assert "matches no piece slot" not in r.output
    counters = yaml.safe_load((tmp_path / "p" / "counters" / "mats" / "counters.yaml").read_text())["counters"]
    made = next(c for c in counters if c["id"] == "mat")
    assert [f["image"] for f in made["faces"]] == ["art/mat.png", "art/mat_back.png"]
    assert [f["state"] for f in made["faces"]] == ["fresh", "spent"]
    scenario = yaml.safe_load((tmp_path / "p" / "scenarios" / "mats" / "opening.yaml").read_text())
    placed = {u: (s["hex"], s.get("state")) for units in scenario["setup"].values() for s in units for u in s["units"]}
    assert placed == {"hermann": ("0302", None), "mat": ("0101", "spent")}
    assert "The project validates" in r.output
