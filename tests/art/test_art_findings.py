"""Located findings for map and counter art: a wrong registration, misread points, bad counter art."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from art_support import load
from PIL import Image


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_the_demo_game_loads_its_art_cleanly(demo: Path) -> None:
    result = load(demo)
    assert result.ok and result.diagnostics == []
    m = result.game.maps["main"]
    assert m.art.image.format == "JPEG" and m.art.registration.rotation > 0.5
    panzer = result.game.counters["ger-xl"]
    assert panzer.faces[0].image.format == "PNG" and panzer.faces[1].picture.format == "SVG"
    # every art file feeds the build digests, so editing one rebuilds
    assert {p.name for p in result.files.extras} >= {"moscow-1941.jpg", "panzer-face.png", "red-star.svg"}


def test_map_art_below_print_resolution_warns(demo: Path) -> None:
    from authoring.load.resolve_art import MAP_PRINT_DPI
    from authoring.pipeline import TILE_DPI
    from authoring.render.print.tiles import tile_dpi

    assert MAP_PRINT_DPI < TILE_DPI  # hexwright's own maps print sharper than a scan needs to
    painted = load(demo).game.maps["main"]
    assert MAP_PRINT_DPI <= tile_dpi(painted, TILE_DPI) == 158 <= TILE_DPI  # the art's own 157.3 ppi
    _edit(demo / "maps/bfm-art/main.yaml", "hex_size: 0.75in", "hex_size: 1in")
    (d,) = load(demo).diagnostics
    assert d.code == "HW-ART-015" and d.message == (
        "the map art has 118 px per hex; printing 1 in hexes at 150 dpi needs 150, so the print is scaled up"
    )


def test_a_wrong_hex_size_is_caught_at_every_misread_point(demo: Path) -> None:
    _edit(demo / "maps/bfm-art/main.yaml", "hex_size: 117.985", "hex_size: 112.0")
    result = load(demo)
    found = [d for d in result.diagnostics if d.code == "HW-ART-012"]
    assert len(found) >= 4 and all(d.severity.value == "warning" for d in found)
    d = next(d for d in found if "hex 1410" in d.message)
    lines = (demo / "maps/bfm-art/main.yaml").read_text().splitlines()
    assert '"1410"' in lines[d.loc.line - 1]
    assert re.search(
        r"hex 1410 is at \(1488.5, 1339.5\) on the art but the registration puts its centre at "
        r"\([0-9.]+, [0-9.]+\), [0-9.]+ px off \([0-9]+% of a hex\)",
        d.message,
    )


def test_a_registration_that_puts_hexes_off_the_art_is_an_error(demo: Path) -> None:
    _edit(demo / "maps/bfm-art/main.yaml", "x: 160.015", "x: 500.0")
    result = load(demo)
    errors = [d for d in result.diagnostics if d.code == "HW-ART-013"]
    assert len(errors) == 1 and not result.ok
    assert re.match(r"[0-9]+ of 140 hex centres fall outside the 1780 x 1520 px map art \(", errors[0].message)


def test_missing_and_unreadable_map_art_are_located_errors(demo: Path) -> None:
    _edit(demo / "maps/bfm-art/main.yaml", "image: art/moscow-1941.jpg", "image: art/nope.jpg")
    result = load(demo)
    assert _codes(result) == ["HW-PATH-011"]
    assert result.diagnostics[0].message == "image file 'art/nope.jpg' not found"
    (demo / "maps/bfm-art/art/nope.jpg").write_text("not an image")
    assert _codes(load(demo)) == ["HW-ART-010"]
    _edit(demo / "maps/bfm-art/main.yaml", "image: art/nope.jpg", "image: ../../../../etc/passwd")
    assert _codes(load(demo)) == ["HW-PATH-010"]


def test_counter_art_of_the_wrong_aspect_too_small_or_missing(demo: Path) -> None:
    art = demo / "counters/bfm-art/art"
    Image.new("RGB", (300, 200), (200, 0, 0)).save(art / "wide.png")
    Image.new("RGB", (90, 90), (0, 200, 0)).save(art / "small.png")
    counters = demo / "counters/bfm-art/counters.yaml"
    _edit(counters, "image: art/shock-face.jpg", "image: art/wide.png")
    _edit(counters, "{state: full, image: art/panzer-face.png", "{state: full, image: art/small.png")
    _edit(counters, "picture: art/red-star.svg", "picture: art/missing.svg")
    result = load(demo)
    by_code = {d.code: d for d in result.diagnostics}
    assert set(by_code) == {"HW-ART-020", "HW-ART-021", "HW-PATH-011"}
    assert by_code["HW-ART-020"].message == (
        "face art 'art/wide.png' is 300 x 200 px (aspect 1.50); a counter face is square, so its edges are cut off"
    )
    assert by_code["HW-ART-021"].message == (
        "'art/small.png' is 90 x 90 px, too small for a 0.625 in counter at 300 dpi (needs 188 px)"
    )
    assert by_code["HW-PATH-011"].severity.value == "error"
    line = counters.read_text().splitlines()[by_code["HW-ART-020"].loc.line - 1]
    assert "art/wide.png" in line


def test_svg_art_must_be_self_contained(demo: Path) -> None:
    art = demo / "counters/bfm-art/art"
    (art / "leaky.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10"><image xlink:href="../../../secret.png"/></svg>'
    )
    _edit(demo / "counters/bfm-art/counters.yaml", "picture: art/red-star.svg", "picture: art/leaky.svg")
    result = load(demo)
    assert _codes(result) == ["HW-ART-010"]
    assert result.diagnostics[0].message == "SVG art 'art/leaky.svg' links to other files"


def test_counter_art_columns_in_a_csv_manifest(demo: Path) -> None:
    (demo / "counters/bfm-art/extra.csv").write_text(
        "id,side,type,size,designation,picture,full.attack,full.movement,full.image,half.attack,half.movement\n"
        "sov-csv,soviet,infantry,army,99,art/red-star.svg,8,4,art/shock-face.jpg,4,4\n"
    )
    result = load(demo)
    assert result.ok, [str(d) for d in result.diagnostics]
    c = result.game.counters["sov-csv"]
    assert c.faces[0].image.name == "art/shock-face.jpg" and c.faces[1].image is None
    assert c.faces[0].picture.name == c.faces[1].picture.name == "art/red-star.svg"
    assert dict(c.faces[0].values) == {"attack": 8, "movement": 4}


@pytest.mark.slow
def test_build_warns_about_a_misregistered_map_and_writes_the_proof(demo: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from authoring.cli import main

    _edit(demo / "maps/bfm-art/main.yaml", "rotation: 0.8049", "rotation: 1.6")
    r = CliRunner().invoke(main, ["build", "sheets", "bfm-art", "--project", str(demo), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    warned = [x for x in r.output.splitlines() if "warning[HW-ART-012]" in x]
    assert len(warned) >= 4 and all("maps/bfm-art/main.yaml:" in x for x in warned)
    r = CliRunner().invoke(main, ["build", "maps", "bfm-art", "--project", str(demo), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "out/bfm-art/maps/registration-main.png").exists()
    assert len([x for x in r.output.splitlines() if "warning[HW-ART-012]" in x]) == len(warned)  # every stage warns


@pytest.mark.slow
def test_art_too_small_is_judged_at_the_counter_size_being_printed(demo: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from authoring.cli import main

    assert load(demo).diagnostics == []  # 240 px art is enough for the game's 5/8" counters...
    r = CliRunner().invoke(
        main,
        ["build", "sheets", "bfm-art", "--project", str(demo), "--out", str(tmp_path / "out"), "--counter-size", "1"],
    )
    assert r.exit_code == 0, r.output
    small = [x for x in r.output.splitlines() if "warning[HW-ART-021]" in x]  # ...but not for 1" counters
    assert any(
        "'art/panzer-face.png' is 240 x 240 px, too small for a 1 in counter at 300 dpi (needs 300 px)" in x
        for x in small
    )
    assert any("art/shock-face.jpg" in x for x in small) and not any(".svg" in x for x in small)


def test_the_committed_demo_art_is_what_its_script_paints(tmp_path: Path) -> None:
    from art_support import ROOT
    from demo_art import write_art

    for path in write_art(tmp_path):
        committed = ROOT / path.relative_to(tmp_path)
        assert path.read_bytes() == committed.read_bytes(), f"{committed}: rerun tests/art/demo_art.py"


def test_editing_counter_art_rebuilds_only_the_stages_that_show_it(demo: Path) -> None:
    from art_support import GAME

    from authoring.load import discover
    from authoring.pipeline import SheetSettings, stage_digest

    files = next(f for f in discover(demo) if f.id == GAME)
    loaded = load(demo).files
    before = {st: stage_digest(files, st, SheetSettings()) for st in ("module", "sheets", "maps", "cards", "charts")}
    assert before == {
        st: stage_digest(loaded, st, SheetSettings()) for st in before
    }  # known before loading (build.fresh)
    face = demo / "counters/bfm-art/art/panzer-face.png"
    image = Image.open(face).convert("RGB")
    image.putpixel((3, 3), (0, 0, 255))
    image.save(face)
    after = {st: stage_digest(files, st, SheetSettings()) for st in before}
    assert {st for st in before if before[st] != after[st]} == {"module", "sheets", "cards"}
    art = demo / "maps/bfm-art/art/moscow-1941.jpg"
    art.write_bytes(art.read_bytes() + b"\0")
    again = {st: stage_digest(files, st, SheetSettings()) for st in before}
    assert {st for st in before if again[st] != after[st]} == {"module", "maps"}


def test_a_zero_art_hex_size_is_a_located_error_not_an_internal_one(mini: Path) -> None:
    """Issue 48: `exclusiveMinimum: 0` holds in the fast validator too, so `hex_size: 0` is the schema's own
    finding at the value (not a division by zero deeper down, `internal error: ValueError`)."""
    from click.testing import CliRunner

    from authoring.cli import main

    board = mini / "maps/mini/board.yaml"
    Image.new("RGB", (400, 300), "white").save(board.parent / "board.png")
    board.write_text(
        board.read_text() + 'art:\n  image: board.png\n  hex_size: 0\n  origin: {hex: "0101", x: 40, y: 40}\n'
    )
    line = len(board.read_text().splitlines()) - 1
    result = CliRunner().invoke(main, ["validate", str(mini)])
    assert result.exit_code == 1 and "internal error" not in result.output and "Traceback" not in result.output
    assert "error[HW-SCHEMA-008]: `art.hex_size`: 0 is not above 0\n --> " in result.output
    pad = " " * len(str(line))
    assert f"maps/mini/board.yaml:{line}:13\n{pad} |\n{line} |   hex_size: 0\n{pad} | {' ' * 12}^\n" in result.output
