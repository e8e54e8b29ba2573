"""Deterministic VASSAL archives: the .vmod zip, its metadata files and .vsav saved games.

Same inputs give byte-identical files: sorted entries, fixed timestamps and
permissions, no clock reads (dates come in as arguments).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from lxml import etree

from authoring import atomic

from .codec import Definition, add_piece_command, encode, join_commands, obfuscate

BUILD_FILE = "buildFile.xml"
MODULE_DATA = "moduledata"
SAVE_DATA = "savedata"
SAVED_GAME = "savedGame"
BOARD_PICKER_COMMAND = "BoardPicker"
BEGIN_SAVE = "begin_save"
END_SAVE = "end_save"
VASSAL_VERSION = "3.6.0"
DEFAULT_OBFUSCATION_KEY = 0x5A

_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
_FILE_MODE = 0o100644 << 16
_UNIX = 3

BoardPlacement = tuple[str, int, int]
"""(board name, column, row) of a board within its map's board layout."""


def zip_bytes(entries: Mapping[str, bytes]) -> bytes:
    """A zip of `entries` in name order, deflated, with fixed dates and permissions."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=_ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = _FILE_MODE
            info.create_system = _UNIX
            archive.writestr(info, entries[name], compresslevel=9)
    return buffer.getvalue()


def xml_bytes(root: etree._Element) -> bytes:
    """Serialize like VASSAL: UTF-8 with a `standalone="no"` declaration, indented."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def _data(fields: Sequence[tuple[str, str]]) -> bytes:
    root = etree.Element("data", version="1")
    for tag, text in fields:
        etree.SubElement(root, tag).text = text
    return xml_bytes(root)


def module_data(name: str, version: str, description: str, date_saved_ms: int,
                vassal_version: str = VASSAL_VERSION) -> bytes:
    """The `moduledata` entry; without it the engine refuses the archive as "not a module"."""
    return _data([("version", version), ("VassalVersion", vassal_version),
                  ("dateSaved", str(date_saved_ms)), ("description", description), ("name", name)])


def save_data(module_name: str, module_version: str, date_saved_ms: int, description: str = "",
              vassal_version: str = VASSAL_VERSION) -> bytes:
    """The `savedata` entry of a .vsav, naming the module it belongs to."""
    return _data([("version", module_version), ("VassalVersion", vassal_version),
                  ("dateSaved", str(date_saved_ms)), ("description", description),
                  ("moduleName", module_name), ("moduleVersion", module_version)])


def module_archive(build_file: etree._Element, moduledata: bytes, files: Mapping[str, bytes]) -> bytes:
    """A .vmod: buildFile.xml, moduledata and `files` (images/..., saved games, help)."""
    reserved = {BUILD_FILE, MODULE_DATA} & set(files)
    if reserved:
        raise ValueError(f"Expected no reserved names among module files but received: {sorted(reserved)}")
    return zip_bytes({BUILD_FILE: xml_bytes(build_file), MODULE_DATA: moduledata, **files})


def write_module(path: Path, build_file: etree._Element, moduledata: bytes,
                 files: Mapping[str, bytes]) -> None:
    """Write a .vmod atomically."""
    atomic.write_bytes(path, module_archive(build_file, moduledata, files))


def board_picker_command(map_id: str, boards: Sequence[BoardPlacement]) -> str:
    """`MAPIDBoardPicker<TAB>board<TAB>col<TAB>row...`: which boards a map uses, and where."""
    fields = [map_id + BOARD_PICKER_COMMAND]
    for name, column, row in boards:
        fields += [encode([name], "/"), str(column), str(row)]
    return encode(fields, "\t")


def saved_game_text(maps: Sequence[tuple[str, Sequence[BoardPlacement]]],
                    pieces: Sequence[tuple[Definition, str]], extra: Sequence[str] = ()) -> str:
    """The plain command stream: begin_save, boards per map, one add-piece per piece, the `extra`
    restore commands (e.g. a turn tracker's state), end_save."""
    ids = [piece_id for _, piece_id in pieces]
    if len(set(ids)) != len(ids):
        raise ValueError("Expected unique piece ids in a saved game")
    commands = [BEGIN_SAVE]
    commands += [board_picker_command(map_id, boards) for map_id, boards in maps]
    commands += [add_piece_command(d.type, d.state, piece_id) for d, piece_id in pieces]
    commands += extra
    commands.append(END_SAVE)
    return join_commands(commands)


def saved_game(module_name: str, module_version: str,
               maps: Sequence[tuple[str, Sequence[BoardPlacement]]],
               pieces: Sequence[tuple[Definition, str]], *, date_saved_ms: int = 0,
               description: str = "", key: int = DEFAULT_OBFUSCATION_KEY, extra: Sequence[str] = ()) -> bytes:
    """A .vsav (zip) whose `savedGame` is obfuscated, as the engine writes it.

    `pieces` pairs each placed piece's Definition (its BasicPiece state holding map id
    and pixel x, y) with a unique id.
    """
    text = obfuscate(saved_game_text(maps, pieces, extra), key)
    return zip_bytes({
        SAVED_GAME: text.encode("utf-8"),
        SAVE_DATA: save_data(module_name, module_version, date_saved_ms, description),
        MODULE_DATA: module_data(module_name, module_version, description, date_saved_ms),
    })
