"""A module or saved-game zip, read safely: member names, sizes and counts are bounded, XML is parsed
without entities or network (`authoring.safepath.xml_parser`)."""

from __future__ import annotations

import io
import math
import posixpath
import re
import weakref
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from lxml import etree

from authoring.readfile import open_regular
from authoring.safepath import xml_parser

MAX_MEMBERS = 20_000
"""Zip members read at most (a real module has a few thousand images)."""
MAX_MEMBER_BYTES = 200 * 1024 * 1024
"""Largest single member read (a big board image)."""
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024
"""Uncompressed total of the archive."""
MAX_RATIO = 200
"""Largest compression ratio of one member (zip bombs)."""


class ModuleReadError(Exception):
    """The file is not a module hexwright can read (not a zip, no buildFile, unsafe member, bad XML)."""


class DamagedMember(ModuleReadError):
    """A member of the archive is damaged (its CRC does not match, its data ends early), encrypted or compressed
    in a way zip readers cannot undo: the module as a whole cannot be imported as it is."""


def _why(exc: BaseException) -> str:
    text = str(exc)
    if "encrypted" in text or "password" in text:
        return "it is encrypted; VASSAL modules never are"
    if "CRC" in text:
        return "its checksum does not match: the file is damaged"
    return f"damaged or of an unknown compression: {text}"


@dataclass
class Archive:
    """Members of a zip by their normalised name; bytes read on demand, each at most once checked."""

    path: Path
    zf: zipfile.ZipFile
    names: dict[str, zipfile.ZipInfo]

    def has(self, name: str) -> bool:
        return name in self.names

    def read(self, name: str) -> bytes:
        info = self.names.get(name)
        if info is None:
            raise KeyError(name)
        try:
            data = self.zf.read(info)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError, OSError, zlib.error) as exc:
            raise DamagedMember(f"{self.path}: member {name!r} cannot be read ({_why(exc)})") from None
        if len(data) > MAX_MEMBER_BYTES:
            raise ModuleReadError(f"{name}: {len(data)} bytes is over the {MAX_MEMBER_BYTES}-byte limit")
        return data

    def image(self, name: str) -> bytes | None:
        """An image the module names (`images/NAME`), or None when absent."""
        for candidate in (f"images/{name}", name):
            if candidate in self.names:
                return self.read(candidate)
        return None


def open_archive(path: Path | str | bytes) -> Archive:
    """Open a zip (path or bytes) and check every member name and size before anything is read."""
    label = Path("<bytes>") if isinstance(path, bytes) else Path(path)
    try:
        source = io.BytesIO(path) if isinstance(path, bytes) else open_regular(path, MAX_TOTAL_BYTES)
    except OSError as exc:  # a named pipe, a device, a folder, a file over the limit
        raise ModuleReadError(f"{label}: not a zip archive ({exc})") from None
    try:
        zf = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as exc:
        source.close()
        raise ModuleReadError(f"{label}: not a zip archive ({exc})") from None
    weakref.finalize(zf, source.close)  # zipfile leaves a file object it was given open
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ModuleReadError(f"{label}: {len(infos)} members is over the {MAX_MEMBERS} limit")
    names: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in infos:
        if info.is_dir():
            continue
        name = _safe_name(info.filename, label)
        total += info.file_size
        if info.file_size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
            raise ModuleReadError(f"{label}: member {info.filename!r} makes the archive too large to read")
        if info.compress_size and info.file_size / info.compress_size > MAX_RATIO and info.file_size > 1 << 20:
            raise ModuleReadError(f"{label}: member {info.filename!r} is compressed {MAX_RATIO}x or more (a zip bomb?)")
        names[name] = info
    return Archive(label, zf, names)


def _safe_name(name: str, label: Path) -> str:
    """A member name as a relative POSIX path; `..`, absolute and drive names are refused (zip-slip)."""
    text = name.replace("\\", "/")
    norm = posixpath.normpath(text)
    if text.startswith("/") or norm.startswith("..") or ":" in norm.split("/")[0] or "\x00" in text:
        raise ModuleReadError(f"{label}: unsafe member name {name!r} (outside the archive)")
    return norm


def parse_xml(data: bytes, what: str) -> etree._Element:
    """Parse XML that came from a module: no entities, no DTD, no network."""
    try:
        root = etree.fromstring(data, parser=xml_parser())
    except etree.XMLSyntaxError as exc:
        raise ModuleReadError(f"{what}: not well-formed XML ({exc})") from None
    if root is None:
        raise ModuleReadError(f"{what}: empty XML document")
    return root


def build_file(archive: Archive) -> tuple[str, etree._Element]:
    """(member name, root) of the component tree: `buildFile.xml` (3.5+) or the legacy `buildFile`.

    As the engine does, a `moduledata` whose VassalVersion is below 3.5 selects `buildFile`.
    """
    order = ["buildFile.xml", "buildFile"]
    if archive.has("moduledata") and _old_version(archive.read("moduledata")):
        order.reverse()
    for name in order:
        if archive.has(name):
            return name, parse_xml(archive.read(name), f"{archive.path.name}:{name}")
    raise ModuleReadError(f"{archive.path}: no buildFile.xml or buildFile: not a VASSAL module")


def _old_version(moduledata: bytes) -> bool:
    try:
        root = parse_xml(moduledata, "moduledata")
    except ModuleReadError:
        return False
    text = (root.findtext("VassalVersion") or "").strip()
    try:
        parts = tuple(int(p) for p in text.split(".")[:2])
    except ValueError:
        return False
    return bool(parts) and parts < (3, 5)


MAX_SVG_SIDE = 100_000
"""Largest width or height of an SVG image read (pixels)."""
_SVG_UNITS = MappingProxyType({"": 1.0, "px": 1.0, "pt": 4 / 3, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4})


def svg_size(data: bytes) -> tuple[int, int] | None:
    """Pixel width and height of SVG bytes (its width/height, else its viewBox); None when it has neither
    or is no SVG. VASSAL draws an SVG image at this size."""
    try:
        root = etree.fromstring(data, parser=xml_parser())
    except etree.XMLSyntaxError:
        return None
    if root is None or not str(root.tag).endswith("svg"):
        return None

    def length(text: str | None) -> float | None:
        m = re.fullmatch(r"\s*([0-9.]+(?:e[-+]?\d+)?)\s*(px|pt|in|cm|mm|)\s*", text or "")
        return float(m.group(1)) * _SVG_UNITS[m.group(2)] if m else None

    w, h = length(root.get("width")), length(root.get("height"))
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if (w is None or h is None) and len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
        except ValueError:
            return None
    if not all(v is not None and math.isfinite(v) and 0 < v <= MAX_SVG_SIDE for v in (w, h)):
        return None  # no size, or none an image can have (infinite, NaN, huge)
    return max(1, round(w)), max(1, round(h))


SVG_HEAD = 64 * 1024
"""Bytes of a file searched for its root element."""
_SPACE = re.compile(rb"\s*")
_SVG_ROOT = re.compile(rb"<(?:[\w.-]+:)?svg[\s/>]")


def is_svg(data: bytes) -> bool:
    """Whether `data` is an SVG file: its root element is <svg>, after any XML declaration, comments (editors
    write their name in one) and document type; read in one pass over the head of the file."""
    head = data[:SVG_HEAD].removeprefix(b"\xef\xbb\xbf")
    at = 0
    while at >= 0:
        at = _SPACE.match(head, at).end()
        if head.startswith(b"<?", at):
            at = _after(head, b"?>", at)
        elif head.startswith(b"<!--", at):
            at = _after(head, b"-->", at + 4)
        elif head.startswith(b"<!DOCTYPE", at):
            subset, gt = head.find(b"[", at), head.find(b">", at)
            at = _after(head, b">", _after(head, b"]", subset) if -1 < subset < gt else at)
        else:
            return _SVG_ROOT.match(head, at) is not None
    return False


def _after(text: bytes, mark: bytes, start: int) -> int:
    """The index after the first `mark` in `text` from `start`, or -1 (also for a `start` of -1)."""
    found = text.find(mark, start) if start >= 0 else -1
    return found + len(mark) if found >= 0 else -1
