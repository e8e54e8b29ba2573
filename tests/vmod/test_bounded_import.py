"""Issue 33, point 5: import-vmod is bounded. Numbers of a module are finite and in range, every image is
opened with a pixel limit, hexes and slots have limits, time is linear in the module's size, and art names
are injective. Each on the issue's example and on another instance, with small modules made by hand."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import handmade as hm
import pytest
import yaml
from click.testing import CliRunner
from lxml import etree

from authoring.author.vmod_common import unique
from authoring.cli import main
from authoring.vassal import archive as va
from authoring.vassal.codec import obfuscate
from authoring.vmod.buildfile import MAX_SLOTS, _Paths

BOARD = hm.png((540, 420), "#e8e4c9")


pytestmark = pytest.mark.slow  # imports of large modules in subprocesses


def _attrs(d: dict) -> str:
    return " ".join(f'{k}="{v}"' for k, v in d.items())


def _grid(grid: dict | None = None, numbering: dict | None = None) -> str:
    g = {"dx": "52.0", "dy": "60.0", "x0": "30", "y0": "30", "sideways": "false", **(grid or {})}
    n = {
        "first": "H",
        "hOff": "1",
        "vOff": "1",
        "hLeading": "1",
        "vLeading": "1",
        "hType": "N",
        "vType": "N",
        "sep": "",
        "stagger": "false",
        **(numbering or {}),
    }
    return f"<{hm.HEX} {_attrs(g)}><{hm.NUMBERING} {_attrs(n)}/></{hm.HEX}>"


def _module(
    tmp_path: Path,
    name: str,
    boards: str,
    images: dict,
    slots: list[str] | str | None = None,
    setup: bytes | None = None,
) -> Path:
    slots = slots if slots is not None else [hm.slot("Red Inf", hm.unit("Red Inf", "inf.png"), 1)]
    palette = hm.palette(("Units", slots)) if isinstance(slots, list) else slots
    body = hm.roster("Red", "Blue") + hm.map_window("Main Map", boards) + palette
    files = {}
    if setup is not None:
        body += hm.setup("Opening", "open.vsav")
        files["open.vsav"] = setup
    return hm.module(tmp_path, name, body, {"inf.png": hm.png((48, 48)), **images}, files)


def _import(module: Path, tmp_path: Path, exit_code: int = 0) -> tuple[str, Path]:
    out = tmp_path / "p"
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(out)])
    assert r.exit_code == exit_code, r.output[-3000:]
    assert "Traceback" not in r.output and "internal error" not in r.output
    return r.output, out


def _maps(project: Path) -> dict[str, dict]:
    return {p.stem: yaml.safe_load(p.read_text()) for p in sorted(project.glob("maps/*/*.yaml"))}


# --- numbers finite and in range ----------------------------------------------------------------------------


def test_infinite_grid_origin_is_a_finding(tmp_path):
    module = _module(tmp_path, "inf", hm.board("Main", "board.png", _grid({"x0": "1e400"})), {"board.png": BOARD})
    out, project = _import(module, tmp_path)
    assert "x0='1e400' is out of range (a finite number of pixels, at most 1,000,000); the engine's default 0" in out
    assert len(_maps(project)) == 1


def test_infinite_svg_board_size_and_piece_position_are_findings(tmp_path):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="1e400" height="nan"><rect width="9" height="9"/></svg>'
    inf = hm.unit("Red Inf", "inf.png")
    setup = hm.saved_game(
        {"Main Map": ["Main"]}, [hm.placed(inf, "Main Map", 80, 60, "7").replace(";80;60;", ";1e400;-inf;")]
    )
    module = _module(
        tmp_path,
        "infsvg",
        hm.board("Main", "board.svg", _grid({"dy": "1e-300", "y0": "inf"})),
        {"board.svg": svg},
        [hm.slot("Red Inf", inf, 1)],
        setup,
    )
    out, _ = _import(module, tmp_path)
    assert "board image 'board.svg' is an SVG without a usable width and height" in out
    assert "dy='1e-300' is out of range" in out and "y0='inf' is out of range" in out


def _picker_setup(column: str, row: str) -> bytes:
    text = "\x1b".join(["begin_save", f"Main MapBoardPicker\tMain\t{column}\t{row}", "end_save"])
    return va.zip_bytes(
        {
            "savedGame": obfuscate(text, 0x21).encode(),
            "savedata": va.save_data("t", "1.0", 0),
            "moduledata": va.module_data("t", "1.0", "", 0),
        }
    )


@pytest.mark.parametrize("column, row", [("10000000000", "0"), ("0", "9" * 400)])
def test_board_picker_place_of_1e10_imports_at_once(tmp_path, column, row):
    module = _module(
        tmp_path,
        "picker",
        hm.board("Main", "board.png", _grid()),
        {"board.png": BOARD},
        setup=_picker_setup(column, row),
    )
    r = subprocess.run(
        [sys.executable, "-m", "authoring.cli", "import-vmod", str(module), "--out", str(tmp_path / "p")],
        capture_output=True,
        text=True,
        timeout=300,
    )  # a safety net: the import takes seconds
    assert r.returncode == 0 and "internal error" not in r.stderr, r.stdout[-2000:] + r.stderr[-2000:]
    assert (tmp_path / "p" / "scenarios" / "picker" / "opening.yaml").is_file()


# --- hexes: a limit, and numbering the project can print ----------------------------------------------------


def test_board_of_101_by_100_hexes_with_ambiguous_numbering_is_a_finding(tmp_path):
    numbering = {"hLeading": "0", "vLeading": "0", "hOff": "0", "vOff": "0"}
    board = hm.png((30 + 52 * 101, 30 + 60 * 100), "#e8e4c9")
    module = _module(tmp_path, "ambig", hm.board("Main", "board.png", _grid(numbering=numbering)), {"board.png": board})
    out, _ = _import(module, tmp_path)
    assert "its hex numbering cannot be carried over (ambiguous numbering:" in out and "not imported as a map" in out


def test_narrow_tall_board_with_ambiguous_numbering_is_a_finding(tmp_path):
    board = hm.png((30 + 52 * 11, 30 + 60 * 101), "#e8e4c9")
    module = _module(
        tmp_path, "tall", hm.board("Main", "board.png", _grid(numbering={"hLeading": "0"})), {"board.png": board}
    )
    out, _ = _import(module, tmp_path)
    assert "ambiguous numbering" in out


@pytest.mark.parametrize("spacing, size", [("2", (3000, 3000)), ("1", (1000, 800))])
def test_board_of_too_many_hexes_is_a_finding(tmp_path, spacing, size):
    module = _module(
        tmp_path,
        "dense",
        hm.board("Main", "board.png", _grid({"dx": spacing, "dy": spacing})),
        {"board.png": hm.png(size, "#e8e4c9")},
    )
    out, project = _import(module, tmp_path)
    assert "hexes, over the limit of 200,000; not imported as a map" in out
    assert _maps(project) == {}


# --- images opened with a pixel limit -----------------------------------------------------------------------


def _gif_bomb(side: int) -> bytes:
    """A GIF that declares side x side pixels in 30 bytes (one clear and end code)."""
    size = struct.pack("<HH", side, side)
    return b"GIF89a" + size + b"\x00\x00\x00" + b"\x2c\x00\x00\x00\x00" + size + b"\x00" + b"\x02\x01\x2c\x00" + b"\x3b"


def _png_bomb(side: int) -> bytes:
    """A PNG whose header declares side x side pixels, with a few bytes of data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def test_gif_decompression_bomb_as_counter_art_is_a_finding(tmp_path):
    module = _module(
        tmp_path,
        "gifbomb",
        hm.board("Main", "board.png", _grid()),
        {"board.png": BOARD, "bomb.gif": _gif_bomb(20000)},
        [hm.slot("Bomb", hm.unit("Bomb", "bomb.gif"), 1), hm.slot("Red Inf", hm.unit("Red Inf", "inf.png"), 2)],
    )
    out, _ = _import(module, tmp_path)
    assert "image 'bomb.gif' of 'Bomb' is not imported: the image is over the limit of 120,000,000 pixels" in out


def test_png_over_the_pixel_limit_as_board_is_a_finding(tmp_path):
    """12,000 x 12,000 is under Pillow's own bomb limit (it only warns): the import's limit refuses it."""
    module = _module(tmp_path, "pngbomb", hm.board("Main", "board.png", _grid()), {"board.png": _png_bomb(12000)})
    out, project = _import(module, tmp_path)
    assert "board image 'board.png' cannot be read: 12,000 x 12,000 px is over the limit of 120,000,000 pixels" in out


# --- slots: a limit, and linear time ------------------------------------------------------------------------


def test_module_of_200000_slots_imports_the_first_20000(tmp_path):
    one = hm.slot("Red Inf", hm.unit("Red Inf", "inf.png"), 1)  # 200,000 slots of one name (ids made unique)
    slots = "".join(one.replace('gpid="1"', f'gpid="{i}"') for i in range(200_000))
    palette = (
        f'<{hm.B}module.PieceWindow name="Pieces"><{hm.B}widget.ListWidget entryName="Units">'
        + slots
        + f"</{hm.B}widget.ListWidget></{hm.B}module.PieceWindow>"
    )
    module = _module(tmp_path, "many", hm.board("Main", "board.png", _grid()), {"board.png": BOARD}, palette)
    out, project = _import(module, tmp_path)
    assert f"the module has more than {MAX_SLOTS:,} piece slots: the first {MAX_SLOTS:,} are imported" in out
    counters = yaml.safe_load((project / "counters" / "many" / "counters.yaml").read_text())["counters"]
    assert len(counters) == len({c["id"] for c in counters}) == MAX_SLOTS
    assert counters[-1]["id"] == f"red-inf-{MAX_SLOTS}"


def test_paths_of_many_like_named_siblings_are_lxmls():
    root = etree.fromstring("<a>" + "<b><c/><c/><d/></b>" * 300 + "<e/><b/></a>")
    tree = root.getroottree()
    paths = _Paths(tree)
    for el in root.iter(etree.Element):
        assert paths(el) == tree.getpath(el)


def test_unique_with_memory_gives_the_same_names():
    plain, fast, tried = {}, {}, {}
    for base in ["a", "a", "b", "a", "a-2", "a", "b"] * 50:
        plain[unique(base, plain)] = 1
        fast[unique(base, fast, tried)] = 1
    assert list(plain) == list(fast)


# --- art names injective ------------------------------------------------------------------------------------


@pytest.mark.parametrize("first, second", [("board.board.png", "sub/board.board.png"), ("Board.png", "board.png")])
def test_two_boards_of_one_file_name_get_two_art_files(tmp_path, first, second):
    red, blue = hm.png((540, 420), "#c04040"), hm.png((540, 420), "#4060c0")
    other = _grid(numbering={"hOff": "20"})
    boards = hm.board("North", first, _grid()) + hm.board("South", second, other)
    module = _module(tmp_path, "two", boards, {first: red, second: blue})
    _, project = _import(module, tmp_path)
    maps = _maps(project)
    assert len(maps) == 2
    arts = {m["name"]: project / "maps" / "two" / m["art"]["image"] for m in maps.values()}
    assert len({p.name.casefold() for p in arts.values()}) == 2
    assert arts["North"].read_bytes() == red and arts["South"].read_bytes() == blue


def test_art_far_from_square_is_centred_on_a_square_for_the_counter():
    """A real module's 129 x 2,223 px piece image (an end-zone label) is longer than a counter face takes
    (HW-ART-022): the import centres it on a transparent square so the project validates."""
    import io

    from PIL import Image

    from authoring.author.vmod_common import squared

    out = io.BytesIO()
    Image.new("RGB", (129, 2223), "#c03030").save(out, "PNG")
    name, data, size = squared("EndzoneLabel.gif", out.getvalue())
    assert (name, size) == ("EndzoneLabel.png", (129, 2223))
    im = Image.open(io.BytesIO(data))
    assert im.size == (2223, 2223)
    assert im.getpixel((0, 0))[3] == 0 and im.getpixel((1111, 1111)) == (192, 48, 48, 255)
    assert squared("near.png", _png(400, 120)) is None


def _png(w: int, h: int) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (w, h)).save(out, "PNG")
    return out.getvalue()
