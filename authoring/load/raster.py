"""PNG and JPEG art as the loader reads it: the kind and size from the header, without Pillow's
decompression-bomb check (whose warning printed Pillow's own path before the finding, and whose error hid
the size of a 60,000 x 60,000 px image behind "not a PNG or JPEG"), and a file cut short found before the
build decodes it ("image file is truncated", an internal error in a worker)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import JpegImagePlugin, PngImagePlugin

_PNG = b"\x89PNG\r\n\x1a\n"


def header(data: bytes) -> tuple[str | None, tuple[int, int]]:
    """("PNG" or "JPEG", (width, height)) read from the file's header, or (None, (0, 0)) for anything else.
    Only the header is read: the size is known before anything is decoded."""
    for plugin in (PngImagePlugin, JpegImagePlugin):
        if not plugin._accept(data[:16]):
            continue
        opened = PngImagePlugin.PngImageFile if plugin is PngImagePlugin else JpegImagePlugin.JpegImageFile
        try:
            with opened(io.BytesIO(data)) as image:  # the plugin itself: Image.open adds the bomb check
                return image.format, image.size
        except Exception:  # noqa: BLE001 - any header the plugin cannot read means the same to the designer
            return None, (0, 0)
    return None, (0, 0)


def cut_short(data: bytes, fmt: str) -> str | None:
    """Why a PNG or JPEG file is incomplete, or None: a PNG's chunks must run whole, each with its checksum,
    to its IEND; a JPEG must end with its end-of-image marker."""
    if fmt == "JPEG":
        return None if data.rstrip(b"\0\r\n\t ").endswith(b"\xff\xd9") else "it ends before its end-of-image marker"
    at = len(_PNG)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        end = at + 8 + length + 4
        if end > len(data):
            return f"its {kind.decode('latin-1')!r} chunk is cut off at byte {len(data):,}"
        if zlib.crc32(data[at + 4 : end - 4]) != int.from_bytes(data[end - 4 : end], "big"):
            return f"its {kind.decode('latin-1')!r} chunk at byte {at:,} is damaged (its checksum does not match)"
        if kind == b"IEND":
            return None
        at = end
    return "it ends before its IEND chunk"
