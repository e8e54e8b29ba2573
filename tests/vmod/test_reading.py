"""Reading modules robustly: buildFile variants, engine defaults, unknown components as located findings,
zip and XML safety, every saved-game encoding (issue 19, item 5)."""

from __future__ import annotations

import io
import lzma
import zipfile
from pathlib import Path

import corpus
import pytest

from authoring.author.import_vmod import plan_import
from authoring.errors import UsageError
from authoring.vassal import archive as va
from authoring.vassal.codec import obfuscate
from authoring.vmod.archive import ModuleReadError, build_file, open_archive
from authoring.vmod.buildfile import read_module
from authoring.vmod.pieces import decode_piece
from authoring.vmod.savedgame import decode_saved_game, parse_commands

GAME = '<VASSAL.build.GameModule name="T" version="2" VassalVersion="3.7.0">{}</VASSAL.build.GameModule>'


def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return out.getvalue()


def _module(body: str, **extra: bytes) -> Path:
    return _zip({"buildFile.xml": GAME.format(body).encode(), **extra})


def _read(data: bytes):
    archive = open_archive(data)
    return read_module(archive, build_file(archive)[1])


def test_legacy_build_file_is_read_when_moduledata_says_3_2():
    data = _zip(
        {
            "buildFile": GAME.format("").replace('name="T"', 'name="old"').encode(),
            "buildFile.xml": GAME.format("").encode(),
            "moduledata": va.module_data("old", "1", "", 0, vassal_version="3.2.17"),
        }
    )
    assert _read(data).name == "old"
    assert _read(_zip({"buildFile": GAME.format("").encode()})).name == "T"


def test_custom_classes_and_unknown_board_components_are_findings_with_their_xml_path():
    module = _read(
        _module(
            "<com.example.Weather/>"
            '<VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>'
            '<VASSAL.build.module.map.boardPicker.Board name="B" width="100" height="80">'
            "<VASSAL.build.module.map.boardPicker.board.MagicGrid/></VASSAL.build.module.map.boardPicker.Board>"
            "</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>"
        )
    )
    assert [(f.where, f.message) for f in module.findings] == [
        (
            "/VASSAL.build.GameModule/com.example.Weather",
            "custom class 'com.example.Weather' is not imported (code shipped in the module)",
        ),
        (
            "/VASSAL.build.GameModule/VASSAL.build.module.Map/VASSAL.build.module.map.BoardPicker/"
            "VASSAL.build.module.map.boardPicker.Board/VASSAL.build.module.map.boardPicker.board.MagicGrid",
            "board component 'MagicGrid' is not imported",
        ),
    ]
    assert module.maps[0].boards[0].size == (100, 80)


def test_hex_grid_defaults_and_a_malformed_number_follow_the_engine():
    module = _read(
        _module(
            '<VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>'
            '<VASSAL.build.module.map.boardPicker.Board name="B" width="400" height="300">'
            '<VASSAL.build.module.map.boardPicker.board.HexGrid dy="60" x0="ten"/>'
            "</VASSAL.build.module.map.boardPicker.Board></VASSAL.build.module.map.BoardPicker>"
            "</VASSAL.build.module.Map>"
        )
    )
    params = module.maps[0].boards[0].grid.params
    assert (params["dy"], params["x0"], params["y0"], params["stagger"]) == (60.0, 0, 30, True)
    assert params["dx"] == pytest.approx(60 * 3**0.5 / 2)
    assert module.findings[0].message == "x0='ten' is not a valid number; the engine's default 0 is used"


def test_zip_slip_names_are_refused():
    with pytest.raises(ModuleReadError, match="unsafe member name '../evil.png'"):
        open_archive(_zip({"buildFile.xml": b"<a/>", "../evil.png": b"x"}))
    with pytest.raises(ModuleReadError, match="unsafe member name '/etc/passwd'"):
        open_archive(_zip({"/etc/passwd": b"x"}))


def test_zip_bombs_and_non_zips_are_refused():
    with pytest.raises(ModuleReadError, match="compressed 200x or more"):
        open_archive(_zip({"buildFile.xml": b"<a/>" + b" " * (8 << 20)}))
    with pytest.raises(ModuleReadError, match="not a zip archive"):
        open_archive(b"plain text")


def test_entities_are_not_expanded_and_external_ones_not_fetched():
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;&l;&l;&l;">]>'
        '<VASSAL.build.GameModule name="n"><VASSAL.build.module.PrototypesContainer>'
        '<VASSAL.build.module.PrototypeDefinition name="p">&l2;</VASSAL.build.module.PrototypeDefinition>'
        "</VASSAL.build.module.PrototypesContainer></VASSAL.build.GameModule>"
    )
    assert "lol" not in _read(_zip({"buildFile.xml": laughs.encode()})).prototypes["p"]
    external = (
        '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<VASSAL.build.GameModule name="&x;"/>'
    )
    with pytest.raises(ModuleReadError, match="not well-formed XML"):
        _read(_zip({"buildFile.xml": external.encode()}))


def test_not_a_module_is_a_usage_error(tmp_path):
    path = tmp_path / "x.vmod"
    path.write_bytes(_zip({"readme.txt": b"hi"}))
    with pytest.raises(UsageError, match="no buildFile.xml or buildFile: not a VASSAL module"):
        plan_import(path, tmp_path / "out")


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: obfuscate(t, 0x3C).encode(),
        lambda t: b"VOBS\x11" + bytes(b ^ 0x11 for b in t.encode()),
        lambda t: lzma.compress(t.encode()),
        lambda t: t.encode(),
    ],
    ids=["VCSK", "VOBS", "xz", "plain"],
)
def test_saved_game_encodings(encode):
    text = "begin_save\x1bMapBoardPicker\tB\t0\t0\x1b+/7/piece;;;a.png;A/M;10;20;;0\x1bend_save"
    game = parse_commands(decode_saved_game(encode(text)))
    assert game.boards == {"Map": [("B", 0, 0)]} and [p.id for p in game.pieces] == ["7"]


def test_prototypes_are_flattened_into_the_piece():
    protos = {
        "Unit": "+/null/emb2;;0;;Flip;0;;;0;;;;1;false;0;0;f.png,b.png;,+ (back);true;Step;;;false;;1;1;"
        "true;;;;;1.0\tpiece;;;;/\t1\tnull;0;0;;0"
    }
    piece, states = decode_piece("prototype;Unit\tpiece;;;;Tank", "\tnull;0;0;;0", protos)
    assert (piece.name, piece.faces, piece.prototypes) == ("Tank", ["f.png", "b.png"], ["Unit"])
    piece, _ = decode_piece("prototype;Missing\tpiece;;;x.png;Gun", "", protos)
    assert piece.unknown_prototypes == ["Missing"] and piece.faces == ["x.png"]


def test_import_refuses_to_overwrite_and_writes_nothing(tmp_path):
    module = corpus.write(corpus.CORPUS["flat-offset"], tmp_path)
    dest = tmp_path / "project"
    taken = dest / "scenarios" / "flat-offset" / "opening.yaml"
    taken.parent.mkdir(parents=True)
    taken.write_text("mine")
    with pytest.raises(UsageError, match="already exist"):
        from authoring.author.import_vmod import import_vmod

        import_vmod(module, dest)
    assert taken.read_text() == "mine" and not (dest / "maps").exists()
