"""Deterministic zips, metadata XML and obfuscated saved games."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from authoring.vassal import archive
from authoring.vassal.codec import Definition, deobfuscate, split_commands
from authoring.vassal.elements import basic_command_encoder, game_module


def test_zip_is_deterministic_sorted_and_fixed() -> None:
    entries = {"b.txt": b"bbb", "a/x.png": b"\x89PNG", "moduledata": b"<data/>"}
    first = archive.zip_bytes(entries)
    assert first == archive.zip_bytes(dict(reversed(list(entries.items()))))
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == ["a/x.png", "b.txt", "moduledata"]
        assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
        assert {i.compress_type for i in infos} == {zipfile.ZIP_DEFLATED}
        assert {i.external_attr >> 16 for i in infos} == {0o100644}
        assert z.read("b.txt") == b"bbb"


def _zipfile_reference(entries: dict[str, bytes]) -> bytes:
    """What Python's zipfile writes for the same entries (the writer the archive replaced)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            info.create_system = 3
            z.writestr(info, entries[name], compresslevel=9)
    return buffer.getvalue()


def test_zip_bytes_are_those_zipfile_writes_with_or_without_streams_made_earlier() -> None:
    entries = {"images/ü.png": bytes(range(256)) * 40, "empty": b"", "buildFile.xml": b"<x/>" * 500}
    reference = _zipfile_reference(entries)
    assert archive.zip_bytes(entries) == reference
    made_earlier = {data: archive.deflate(data) for data in entries.values()}
    assert archive.zip_bytes(entries, made_earlier) == reference
    with zipfile.ZipFile(io.BytesIO(reference)) as z:
        assert z.testzip() is None and z.read("images/ü.png") == entries["images/ü.png"]


def test_module_data_fields() -> None:
    root = etree.fromstring(archive.module_data("Game <&>", "2.1", "desc", 1234))
    assert (root.tag, root.get("version")) == ("data", "1")
    assert [(c.tag, c.text or "") for c in root] == [
        ("version", "2.1"),
        ("VassalVersion", "3.6.0"),
        ("dateSaved", "1234"),
        ("description", "desc"),
        ("name", "Game <&>"),
    ]


def test_board_picker_command() -> None:
    assert archive.board_picker_command("Main Map", [("Main", 0, 0)]) == "Main MapBoardPicker\tMain\t0\t0"
    assert archive.board_picker_command("M", [("A/B", 0, 0), ("C", 1, 0)]) == "MBoardPicker\tA\\/B\t0\t0\tC\t1\t0"


def test_saved_game_is_obfuscated_and_decodes_to_commands() -> None:
    pieces = [
        (Definition("piece;;;a.png;A", "Main Map;10;20;1;0"), "1000"),
        (Definition("piece;;;b.png;B", "Main Map;30;40;2;0"), "1001"),
    ]
    data = archive.saved_game("Mod", "1.0", [("Main Map", [("Main", 0, 0)])], pieces, date_saved_ms=99)
    assert data == archive.saved_game("Mod", "1.0", [("Main Map", [("Main", 0, 0)])], pieces, date_saved_ms=99)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert sorted(z.namelist()) == ["moduledata", "savedGame", "savedata"]
        raw = z.read("savedGame").decode()
        meta = etree.fromstring(z.read("savedata"))
    assert raw.startswith("!VCSK5a")
    assert split_commands(deobfuscate(raw)) == [
        "begin_save",
        "Main MapBoardPicker\tMain\t0\t0",
        "+/1000/piece;;;a.png;A/Main Map;10;20;1;0",
        "+/1001/piece;;;b.png;B/Main Map;30;40;2;0",
        "end_save",
    ]
    assert (meta.findtext("moduleName"), meta.findtext("moduleVersion"), meta.findtext("dateSaved")) == (
        "Mod",
        "1.0",
        "99",
    )


def test_saved_game_refuses_duplicate_ids() -> None:
    piece = (Definition("piece;;;;", "null;0;0;;0"), "7")
    with pytest.raises(ValueError, match="unique piece ids"):
        archive.saved_game_text([], [piece, piece])


def test_write_module_is_atomic_and_reproducible(tmp_path: Path) -> None:
    root = game_module("M", "1.0", "", 1, [basic_command_encoder()])
    files = {"images/a.png": b"png"}
    target = tmp_path / "out" / "m.vmod"
    archive.write_module(target, root, archive.module_data("M", "1.0", "", 0), files)
    first = target.read_bytes()
    archive.write_module(target, root, archive.module_data("M", "1.0", "", 0), files)
    assert target.read_bytes() == first
    assert [p.name for p in target.parent.iterdir()] == ["m.vmod"]  # no temp files left
    with zipfile.ZipFile(target) as z:
        assert z.read("buildFile.xml").startswith(b"<?xml version='1.0' encoding='UTF-8' standalone='no'?>")
        assert etree.fromstring(z.read("buildFile.xml")).tag == "VASSAL.build.GameModule"
    with pytest.raises(ValueError, match="reserved names"):
        archive.module_archive(root, b"", {"moduledata": b""})
