"""Deterministic VASSAL archives: the .vmod zip, its metadata files and .vsav saved games.

Same inputs give byte-identical files: sorted entries, fixed timestamps and
permissions, no clock reads (dates come in as arguments).
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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


Deflated = tuple[int, "bytes | memoryview"]
"""(CRC-32, raw deflate stream at `ZIP_LEVEL`) of a member's bytes: what the zip stores for it."""
ZIP_LEVEL = 9
_ZIP64_LIMIT = (1 << 31) - 1
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")
_LOCAL = struct.Struct(zipfile.structFileHeader)
_END = struct.Struct("<4s4H2LH")


def deflate(data: bytes) -> Deflated:
    """What `zip_bytes` stores for `data`: made once where the data is made (the image cache keeps it
    beside each image, drawn in its worker), so later archives copy it instead of compressing again."""
    packer = zlib.compressobj(ZIP_LEVEL, zlib.DEFLATED, -15)
    return zlib.crc32(data), packer.compress(data) + packer.flush()


WRITER = f"zlib {zlib.ZLIB_RUNTIME_VERSION} level {ZIP_LEVEL}"
"""What decides a member's stored bytes besides its data: a module written under another writer is never a
source of stored members (`stored_members`), whose streams would differ from those deflated here."""


@dataclass(frozen=True)
class Stored:
    """A member of an archive as it is stored: its CRC-32, its size and its raw deflate stream. An entry of
    `zip_parts` may be one (a member of the previous module, copied without being read or compressed)."""

    crc: int
    size: int
    packed: bytes | memoryview

    def head(self, size: int) -> bytes:
        """The first `size` bytes of the member (at most): a header read without inflating the rest."""
        return zlib.decompressobj(-15).decompress(self.packed, size)


Member = bytes | memoryview | Stored
"""A member's bytes, or the member as the previous archive stores it."""


def unpacked(data: bytes | memoryview | Stored) -> bytes | memoryview:
    """A member's bytes (a `Stored` member inflated)."""
    return zlib.decompress(data.packed, -15) if isinstance(data, Stored) else data


@dataclass
class Zipped:
    """An archive's pieces (`zip_chunks`) and how each member's stream was had: `compressed` names the
    members deflated here; `copied` those whose stored bytes came from the previous archive; the others'
    streams were handed in (`deflated`: made where the data was made)."""

    chunks: list[bytes]
    compressed: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)
    entries: Mapping[str, Member] = field(default_factory=dict)
    """What was zipped, by name (the caller records where each member came from)."""


def zip_bytes(entries: Mapping[str, bytes], deflated: Mapping[bytes, Deflated] | None = None) -> bytes:
    """A zip of `entries` in name order, deflated, with fixed dates and permissions.

    `deflated` maps member contents to their `deflate(...)`, made earlier; other members are
    deflated here. The bytes are those `zipfile` writes for the same entries (`ZipInfo`'s headers,
    its central directory), so a member copied in or deflated here cannot be told apart."""
    return b"".join(zip_chunks(entries, deflated))


def zip_chunks(entries: Mapping[str, bytes], deflated: Mapping[bytes, Deflated] | None = None) -> list[bytes]:
    """`zip_bytes` as the pieces it joins (headers and member streams, in file order): a big module is
    written and hashed piece by piece instead of being copied into one string first."""
    return zip_parts(entries, deflated).chunks


def zip_parts(
    entries: Mapping[str, Member],
    deflated: Mapping[bytes, Deflated] | None = None,
    previous: Mapping[str, Stored] | None = None,
) -> Zipped:
    """`zip_chunks`, telling which members were compressed. `previous`: the members of the archive this one
    replaces (`stored_members`); a member whose bytes are those it held there is copied as stored (its
    stream, not compressed again: same writer, same data, same stream), so an edit compresses only the
    members it changed. An entry that is a `Stored` member is copied as it is."""
    made = Zipped([], entries=entries)
    known, before = deflated or {}, previous or {}
    members = [(name, entries[name], _stream(name, entries[name], known, before, made)) for name in sorted(entries)]
    if sum(_size(data) + len(z) + len(name) + 100 for name, data, (_, z) in members) > _ZIP64_LIMIT:
        made.chunks = [_zipfile_bytes({name: unpacked(entries[name]) for name in entries})]  # zipfile's (rare)
        return made
    out = made.chunks
    central: list[bytes] = []
    offset = 0
    for name, data, (crc, packed) in members:
        filename, flags = _encoded_name(name)
        header = (
            _LOCAL.pack(
                b"PK\x03\x04",
                _HEAD.extract_version,
                _HEAD.reserved,
                flags,
                zipfile.ZIP_DEFLATED,
                _DOS_TIME,
                _DOS_DATE,
                crc,
                len(packed),
                _size(data),
                len(filename),
                0,
            )
            + filename
        )
        central.append(
            _CENTRAL.pack(
                b"PK\x01\x02",
                _HEAD.create_version,
                _UNIX,
                _HEAD.extract_version,
                _HEAD.reserved,
                flags,
                zipfile.ZIP_DEFLATED,
                _DOS_TIME,
                _DOS_DATE,
                crc,
                len(packed),
                _size(data),
                len(filename),
                0,
                0,
                0,
                0,
                _FILE_MODE,
                offset,
            )
            + filename
        )
        out += (header, packed)
        offset += len(header) + len(packed)
    directory = b"".join(central)
    out += (directory, _END.pack(b"PK\x05\x06", 0, 0, len(members), len(members), len(directory), offset, 0))
    return made


def _size(data: Member) -> int:
    return data.size if isinstance(data, Stored) else len(data)


def _stream(
    name: str, data: Member, known: Mapping[bytes, Deflated], previous: Mapping[str, Stored], made: Zipped
) -> Deflated:
    """A member's (CRC-32, stream): its own when it is a stored member, else handed in, else the previous
    archive's when it held these very bytes (its size, CRC and inflated bytes are checked: a member is never
    taken on its name alone), else deflated now."""
    if isinstance(data, Stored):
        made.copied.append(name)
        return data.crc, data.packed
    handed = known.get(data)
    if handed is not None:
        return handed
    old = previous.get(name)
    if old is not None and old.size == len(data) and old.crc == zlib.crc32(data) and _inflates_to(old.packed, data):
        made.copied.append(name)
        return old.crc, old.packed
    made.compressed.append(name)
    return deflate(data)


def _inflates_to(packed: bytes | memoryview, data: bytes) -> bool:
    try:
        inflater = zlib.decompressobj(-15)
        return inflater.decompress(packed, len(data) + 1) == data and inflater.eof and not inflater.unconsumed_tail
    except zlib.error:
        return False


def stored_members(archive: bytes | memoryview) -> dict[str, Stored]:
    """The members of an archive `zip_parts` wrote, by name, as views of `archive` (nothing is inflated); {}
    when it is not one (no end record where ours has it, a member that is not deflated or whose local header
    disagrees with the directory): the caller then compresses every member as for a first build."""
    view = memoryview(archive).toreadonly()
    try:
        sig, _, _, _, count, size, start, comment = _END.unpack_from(view, len(view) - _END.size)
        if sig != b"PK\x05\x06" or comment or start + size != len(view) - _END.size:
            return {}
        out: dict[str, Stored] = {}
        at = start
        for _ in range(count):
            fields = _CENTRAL.unpack_from(view, at)
            name_bytes = bytes(view[at + _CENTRAL.size : at + _CENTRAL.size + fields[12]])
            if fields[0] != b"PK\x01\x02" or fields[6] != zipfile.ZIP_DEFLATED or any(fields[13:16]):
                return {}
            stored = _local(view, fields[18], name_bytes, fields[10])
            if stored is None:
                return {}
            out[name_bytes.decode("utf-8")] = Stored(fields[9], fields[11], stored)
            at += _CENTRAL.size + fields[12]
        return out
    except (struct.error, UnicodeDecodeError, ValueError):
        return {}


def _local(view: memoryview, offset: int, name: bytes, packed_size: int) -> memoryview | None:
    """The stream of the member whose local header is at `offset`, when that header names it and has no extra field."""
    fields = _LOCAL.unpack_from(view, offset)
    begin = offset + _LOCAL.size + len(name)
    if fields[0] != b"PK\x03\x04" or fields[11] or bytes(view[offset + _LOCAL.size : begin]) != name:
        return None
    if begin + packed_size > len(view):
        return None
    return view[begin : begin + packed_size]


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_ZIP_EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = _FILE_MODE
    info.create_system = _UNIX
    return info


def _head() -> zipfile.ZipInfo:
    """A member's `ZipInfo` after `zipfile` wrote its local header: the versions and flags it records
    for every member of ours (deflated, no zip64), read once instead of made per member."""
    info = _info("x")
    info.CRC = info.compress_size = info.file_size = 0
    info.FileHeader(False)
    return info


_HEAD = _head()
_DOS_DATE = (_ZIP_EPOCH[0] - 1980) << 9 | _ZIP_EPOCH[1] << 5 | _ZIP_EPOCH[2]
_DOS_TIME = _ZIP_EPOCH[3] << 11 | _ZIP_EPOCH[4] << 5 | (_ZIP_EPOCH[5] // 2)


def _encoded_name(name: str) -> tuple[bytes, int]:
    """The name's bytes and general purpose flags, as `ZipInfo._encodeFilenameFlags` gives them."""
    try:
        return name.encode("ascii"), _HEAD.flag_bits
    except UnicodeEncodeError:
        return name.encode("utf-8"), _HEAD.flag_bits | 0x800


def _zipfile_bytes(entries: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            archive.writestr(_info(name), entries[name], compresslevel=ZIP_LEVEL)
    return buffer.getvalue()


def xml_bytes(root: etree._Element) -> bytes:
    """Serialize like VASSAL: UTF-8 with a `standalone="no"` declaration, indented."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def _data(fields: Sequence[tuple[str, str]]) -> bytes:
    root = etree.Element("data", version="1")
    for tag, text in fields:
        etree.SubElement(root, tag).text = text
    return xml_bytes(root)


def module_data(
    name: str, version: str, description: str, date_saved_ms: int, vassal_version: str = VASSAL_VERSION
) -> bytes:
    """The `moduledata` entry; without it the engine refuses the archive as "not a module"."""
    return _data(
        [
            ("version", version),
            ("VassalVersion", vassal_version),
            ("dateSaved", str(date_saved_ms)),
            ("description", description),
            ("name", name),
        ]
    )


def save_data(
    module_name: str,
    module_version: str,
    date_saved_ms: int,
    description: str = "",
    vassal_version: str = VASSAL_VERSION,
) -> bytes:
    """The `savedata` entry of a .vsav, naming the module it belongs to."""
    return _data(
        [
            ("version", module_version),
            ("VassalVersion", vassal_version),
            ("dateSaved", str(date_saved_ms)),
            ("description", description),
            ("moduleName", module_name),
            ("moduleVersion", module_version),
        ]
    )


def module_archive(
    build_file: etree._Element,
    moduledata: bytes,
    files: Mapping[str, bytes],
    deflated: Mapping[bytes, Deflated] | None = None,
) -> bytes:
    """A .vmod: buildFile.xml, moduledata and `files` (images/..., saved games, help); `deflated` as
    for `zip_bytes`."""
    return b"".join(module_chunks(build_file, moduledata, files, deflated))


def module_chunks(
    build_file: etree._Element,
    moduledata: bytes,
    files: Mapping[str, bytes],
    deflated: Mapping[bytes, Deflated] | None = None,
) -> list[bytes]:
    """`module_archive` as the pieces it joins (`zip_chunks`)."""
    return module_parts(build_file, moduledata, files, deflated).chunks


def module_parts(
    build_file: etree._Element,
    moduledata: bytes,
    files: Mapping[str, Member],
    deflated: Mapping[bytes, Deflated] | None = None,
    previous: Mapping[str, Stored] | None = None,
) -> Zipped:
    """`module_chunks`, its unchanged members copied from the `previous` module (`zip_parts`)."""
    reserved = {BUILD_FILE, MODULE_DATA} & set(files)
    if reserved:
        raise ValueError(f"Expected no reserved names among module files but received: {sorted(reserved)}")
    return zip_parts({BUILD_FILE: xml_bytes(build_file), MODULE_DATA: moduledata, **files}, deflated, previous)


def write_module(path: Path, build_file: etree._Element, moduledata: bytes, files: Mapping[str, bytes]) -> None:
    """Write a .vmod atomically."""
    atomic.write_bytes(path, module_archive(build_file, moduledata, files))


def board_picker_command(map_id: str, boards: Sequence[BoardPlacement]) -> str:
    """`MAPIDBoardPicker<TAB>board<TAB>col<TAB>row...`: which boards a map uses, and where."""
    fields = [map_id + BOARD_PICKER_COMMAND]
    for name, column, row in boards:
        fields += [encode([name], "/"), str(column), str(row)]
    return encode(fields, "\t")


def saved_game_text(
    maps: Sequence[tuple[str, Sequence[BoardPlacement]]],
    pieces: Sequence[tuple[Definition, str]],
    extra: Sequence[str] = (),
) -> str:
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


def saved_game(
    module_name: str,
    module_version: str,
    maps: Sequence[tuple[str, Sequence[BoardPlacement]]],
    pieces: Sequence[tuple[Definition, str]],
    *,
    date_saved_ms: int = 0,
    description: str = "",
    key: int = DEFAULT_OBFUSCATION_KEY,
    extra: Sequence[str] = (),
) -> bytes:
    """A .vsav (zip) whose `savedGame` is obfuscated, as the engine writes it.

    `pieces` pairs each placed piece's Definition (its BasicPiece state holding map id
    and pixel x, y) with a unique id.
    """
    return zip_bytes(
        saved_game_files(
            module_name,
            module_version,
            maps,
            pieces,
            date_saved_ms=date_saved_ms,
            description=description,
            key=key,
            extra=extra,
        )
    )


def saved_game_files(
    module_name: str,
    module_version: str,
    maps: Sequence[tuple[str, Sequence[BoardPlacement]]],
    pieces: Sequence[tuple[Definition, str]],
    *,
    date_saved_ms: int = 0,
    description: str = "",
    key: int = DEFAULT_OBFUSCATION_KEY,
    extra: Sequence[str] = (),
) -> dict[str, bytes]:
    """The members of `saved_game`'s zip, not yet zipped (the caller may deflate them elsewhere)."""
    text = obfuscate(saved_game_text(maps, pieces, extra), key)
    return {
        SAVED_GAME: text.encode("utf-8"),
        SAVE_DATA: save_data(module_name, module_version, date_saved_ms, description),
        MODULE_DATA: module_data(module_name, module_version, description, date_saved_ms),
    }
